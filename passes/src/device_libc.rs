//! Device libc: the C (and OpenMP) library calls device code may make, under the names the GPU
//! gives them, for the PTX only (the emulator's SIMT-lowered code calls the host's libraries).
//!
//! `printf` becomes CUDA's `vprintf(format, args)`, whose second argument is a buffer holding
//! the arguments one after the other, each at its natural alignment (clang's own CUDA and
//! OpenMP device code generation packs them the same way). The arguments of the variadic call
//! are already promoted (float → double, char/short → int):
//!
//! ```llvm
//! %n = call i32 (ptr, ...) @printf(ptr @.str, i32 %i, double %x)
//!   →  %ptxcc.printf.args = alloca { i32, double }             ; in the entry block
//!      store i32 %i, ptr %ptxcc.printf.args
//!      %1 = getelementptr inbounds { i32, double }, ptr %ptxcc.printf.args, i32 0, i32 1
//!      store double %x, ptr %1
//!      %n = call i32 @vprintf(ptr @.str, ptr %ptxcc.printf.args)
//! ```
//!
//! A call without arguments passes a null buffer. The driver prints the output when the kernel
//! ends.
//!
//! `omp_get_wtime()` reads the GPU's nanosecond timer (`%globaltimer`), in seconds;
//! `omp_get_wtick()` is its unit.
//!
//! A failed `assert()` calls glibc's `__assert_fail(expr, file, line, function)`; the GPU's is
//! `__assertfail(expr, file, line, function, char size)`, which prints the message with the
//! block and thread, then the thread traps:
//!
//! ```llvm
//! call void @__assert_fail(ptr @.str, ptr @.file, i32 6, ptr @__func__.main)
//!   →  call void @__assertfail(ptr @.str, ptr @.file, i32 6, ptr @__func__.main, i64 1)
//!      call void @llvm.trap()
//! ```
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir;
use crate::openmp;
use inkwell::module::Module;
use inkwell::types::{AsTypeRef, BasicTypeEnum};
use inkwell::values::{AsValueRef, BasicMetadataValueEnum};
use inkwell::AddressSpace;

/// CUDA's device-side printf.
pub const VPRINTF: &str = "vprintf";
/// glibc's assertion failure, and CUDA's device-side one.
pub const ASSERT_FAIL: &str = "__assert_fail";
pub const CUDA_ASSERT_FAIL: &str = "__assertfail";

/// OpenMP's wall clock, which the GPU reads from its nanosecond timer.
pub const WTIME: &str = "omp_get_wtime";
pub const WTICK: &str = "omp_get_wtick";

/// Rewrites the C library calls of device code. Returns how many calls were rewritten.
pub fn lower_libc(device: &Module<'_>) -> Result<usize, Diagnostics> {
    let internal = |e: anyhow::Error| {
        Diagnostics(vec![Diagnostic {
            loc: None,
            message: format!("internal error in device libc: {e}"),
        }])
    };
    let asserts = lower_assert_fail(device).map_err(internal)?;
    let clocks = lower_wtime(device).map_err(internal)?;
    Ok(lower_printf(device)? + asserts + clocks)
}

/// `omp_get_wtime()` → `%globaltimer` (nanoseconds) × 1e-9; `omp_get_wtick()` → 1e-9.
fn lower_wtime(device: &Module<'_>) -> anyhow::Result<usize> {
    let ctx = device.get_context();
    let f64t = ctx.f64_type();
    let b = ctx.create_builder();
    let mut count = 0;
    for f in device.get_functions() {
        for (call, name) in ir::calls(f) {
            if name != WTIME && name != WTICK {
                continue;
            }
            b.position_before(&call);
            let v = if name == WTICK {
                f64t.const_float(1e-9)
            } else {
                let timer =
                    inkwell::intrinsics::Intrinsic::find("llvm.nvvm.read.ptx.sreg.globaltimer")
                        .and_then(|i| i.get_declaration(device, &[]))
                        .ok_or_else(|| {
                            anyhow::anyhow!(
                                "LLVM does not know llvm.nvvm.read.ptx.sreg.globaltimer"
                            )
                        })?;
                let ns = b
                    .build_call(timer, &[], "ptxcc.ns")?
                    .try_as_basic_value()
                    .basic()
                    .ok_or_else(|| anyhow::anyhow!("globaltimer returns nothing"))?
                    .into_int_value();
                let ns = b.build_unsigned_int_to_float(ns, f64t, "")?;
                b.build_float_mul(ns, f64t.const_float(1e-9), "ptxcc.wtime")?
            };
            ir::replace_and_erase(call, v.as_value_ref());
            count += 1;
        }
    }
    ir::delete_unused_functions(device, |f| {
        f.count_basic_blocks() == 0 && matches!(ir::fn_name(f).as_str(), WTIME | WTICK)
    });
    Ok(count)
}

/// `__assert_fail(expr, file, line, function)` → `__assertfail(expr, file, line, function, 1)`
/// and a trap.
fn lower_assert_fail(device: &Module<'_>) -> anyhow::Result<usize> {
    let Some(glibc) = device
        .get_function(ASSERT_FAIL)
        .filter(|f| f.count_basic_blocks() == 0)
    else {
        return Ok(0);
    };
    let ctx = device.get_context();
    let ptr = ctx.ptr_type(AddressSpace::default());
    let (i32t, i64t) = (ctx.i32_type(), ctx.i64_type());
    let cuda = device.get_function(CUDA_ASSERT_FAIL).unwrap_or_else(|| {
        device.add_function(
            CUDA_ASSERT_FAIL,
            ctx.void_type().fn_type(
                &[ptr.into(), ptr.into(), i32t.into(), ptr.into(), i64t.into()],
                false,
            ),
            None,
        )
    });
    let trap = inkwell::intrinsics::Intrinsic::find("llvm.trap")
        .and_then(|i| i.get_declaration(device, &[]))
        .ok_or_else(|| anyhow::anyhow!("LLVM does not know llvm.trap"))?;
    let b = ctx.create_builder();
    let mut count = 0;
    for user in ir::users(glibc.as_value_ref()) {
        let call = unsafe { inkwell::values::InstructionValue::new(user) };
        if ir::called_function(call) != Some(glibc) {
            continue;
        }
        let args = ir::call_args(call);
        if args.len() != 4 {
            anyhow::bail!("__assert_fail called with {} arguments", args.len());
        }
        b.position_before(&call);
        let mut cuda_args: Vec<BasicMetadataValueEnum<'_>> =
            args.iter().map(|a| (*a).into()).collect();
        cuda_args.push(i64t.const_int(1, false).into());
        let new = b.build_call(cuda, &cuda_args, "")?;
        if let Some(inst) = new.try_as_basic_value().instruction() {
            inst.set_debug_location(call.get_debug_location());
        }
        b.build_call(trap, &[], "")?;
        ir::erase(call);
        count += 1;
    }
    if ir::users(glibc.as_value_ref()).is_empty() {
        unsafe { glibc.delete() };
    }
    Ok(count)
}

/// Rewrites every `printf` call of device code. Returns how many calls were rewritten.
fn lower_printf(device: &Module<'_>) -> Result<usize, Diagnostics> {
    let ctx = device.get_context();
    let ptr = ctx.ptr_type(AddressSpace::default());
    let i32t = ctx.i32_type();
    let internal = |e: inkwell::builder::BuilderError| {
        Diagnostics(vec![Diagnostic {
            loc: None,
            message: format!("internal error in device printf: {e}"),
        }])
    };
    let mut count = 0;
    let mut diags = Vec::new();
    for f in device.get_functions() {
        for (call, name) in ir::calls(f) {
            if name != "printf" {
                continue;
            }
            let args = ir::call_args(call);
            let Some((format, values)) = args.split_first() else {
                continue;
            };
            if let Some(bad) = values.iter().find(|v| !supported(v.get_type())) {
                diags.push(Diagnostic {
                    loc: openmp::debug_loc(call),
                    message: format!(
                        "ptxcc does not support printf arguments of type {} in target regions",
                        bad.get_type().print_to_string()
                    ),
                });
                continue;
            }
            let vprintf = device.get_function(VPRINTF).unwrap_or_else(|| {
                device.add_function(
                    VPRINTF,
                    i32t.fn_type(&[ptr.into(), ptr.into()], false),
                    None,
                )
            });
            let b = ctx.create_builder();
            let buffer = if values.is_empty() {
                ptr.const_null()
            } else {
                let types: Vec<BasicTypeEnum<'_>> = values.iter().map(|v| v.get_type()).collect();
                let record = ctx.struct_type(&types, false);
                let entry = f
                    .get_first_basic_block()
                    .and_then(|bb| bb.get_first_instruction());
                match entry {
                    Some(first) => b.position_before(&first),
                    None => continue,
                }
                let buffer = b
                    .build_alloca(record, "ptxcc.printf.args")
                    .map_err(internal)?;
                b.position_before(&call);
                for (i, v) in values.iter().enumerate() {
                    let slot = b
                        .build_struct_gep(record, buffer, i as u32, "")
                        .map_err(internal)?;
                    b.build_store(slot, *v).map_err(internal)?;
                }
                buffer
            };
            b.position_before(&call);
            let fmt: BasicMetadataValueEnum<'_> = (*format).into();
            let new = b
                .build_call(vprintf, &[fmt, buffer.into()], "")
                .map_err(internal)?;
            if let Some(inst) = new.try_as_basic_value().instruction() {
                inst.set_debug_location(call.get_debug_location());
            }
            // printf and vprintf both return an int.
            let returns_int =
                unsafe { llvm_sys::core::LLVMTypeOf(call.as_value_ref()) } == i32t.as_type_ref();
            match new.try_as_basic_value().basic() {
                Some(v) if returns_int => ir::replace_and_erase(call, v.as_value_ref()),
                _ => ir::erase(call),
            }
            count += 1;
        }
    }
    if let Some(f) = device.get_function("printf") {
        if f.count_basic_blocks() == 0 && ir::users(f.as_value_ref()).is_empty() {
            unsafe { f.delete() };
        }
    }
    if diags.is_empty() {
        Ok(count)
    } else {
        Err(Diagnostics(diags))
    }
}

/// What `vprintf` can take: integers up to 64 bits, double, pointers (promotion has made
/// every float a double and every small integer an int).
fn supported(ty: BasicTypeEnum<'_>) -> bool {
    match ty {
        BasicTypeEnum::IntType(t) => t.get_bit_width() <= 64,
        BasicTypeEnum::FloatType(t) => t == t.get_context().f64_type(),
        BasicTypeEnum::PointerType(_) => true,
        _ => false,
    }
}

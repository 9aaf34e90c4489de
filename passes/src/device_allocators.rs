//! The OpenMP memory allocators in device code: every predefined allocator (`omp_default_mem_alloc`
//! … `omp_thread_mem_alloc`, `omp_null_allocator`) allocates from the device heap — what
//! `malloc` uses (the CUDA driver's heap on a GPU, the host's in the emulator). OpenMP lets an
//! implementation give any of them the default memory space; a user-defined allocator needs
//! `omp_init_allocator`/`uses_allocators(a(traits))`, which device_check refuses by its construct.
//!
//! ```llvm
//! %p = call ptr @omp_alloc(i64 %n, i64 1)                  →  %p = call ptr @malloc(i64 %n)
//! %q = call ptr @omp_calloc(i64 %k, i64 %n, i64 1)         →  %b = mul i64 %k, %n ; %q = call ptr @__ptxcc_omp_calloc(i64 %b)
//!                                                             (through __ptxcc_omp_calloc: zeroed where malloc gave memory)
//! %r = call ptr @omp_aligned_alloc(i64 16, i64 %n, i64 1)  →  %r = call ptr @malloc(i64 %n)   (alignment ≤ 16: malloc's)
//! call void @omp_free(ptr %p, i64 1)                       →  call void @free(ptr %p)
//! %x = call ptr @__kmpc_alloc(i32 %gtid, i64 4, ptr inttoptr (i64 7 to ptr))   (allocate directive/clause)
//!                                                          →  %x = call ptr @malloc(i64 4)
//! call void @__kmpc_free(i32 %gtid, ptr %x, ptr ...)       →  call void @free(ptr %x)
//! ```
//!
//! An alignment that is not a constant of at most 16 (what the device heap guarantees) is an
//! error at the call.
use crate::diagnostics::Diagnostic;
use crate::ir;
use crate::openmp;
use inkwell::module::{Linkage, Module};
use inkwell::values::{AsValueRef, BasicMetadataValueEnum, FunctionValue, InstructionValue};

/// What an allocator routine is, with the argument positions of its size(s) and pointer.
#[derive(Clone, Copy)]
enum Routine {
    /// (size argument)
    Alloc(u32),
    /// `omp_calloc(nmemb, size, allocator)`.
    Calloc,
    /// (alignment argument, size argument)
    AlignedAlloc(u32, u32),
    /// (pointer argument)
    Free(u32),
}

fn routine(name: &str) -> Option<Routine> {
    Some(match name {
        "omp_alloc" => Routine::Alloc(0),
        "__kmpc_alloc" => Routine::Alloc(1),
        "omp_calloc" => Routine::Calloc,
        "omp_aligned_alloc" => Routine::AlignedAlloc(0, 1),
        "__kmpc_aligned_alloc" => Routine::AlignedAlloc(1, 2),
        "omp_free" => Routine::Free(0),
        "__kmpc_free" => Routine::Free(1),
        _ => return None,
    })
}

/// The alignment the device heap gives every allocation (CUDA's malloc; glibc's on x86-64).
const HEAP_ALIGN: i64 = 16;

fn libc<'ctx>(device: &Module<'ctx>, name: &str) -> FunctionValue<'ctx> {
    device.get_function(name).unwrap_or_else(|| {
        let ctx = device.get_context();
        let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
        let ty = if name == "malloc" {
            ptr.fn_type(&[ctx.i64_type().into()], false)
        } else {
            ctx.void_type().fn_type(&[ptr.into()], false)
        };
        device.add_function(name, ty, Some(Linkage::External))
    })
}

/// Lowers every allocator routine call of the device module; returns how many, or the calls
/// that cannot be lowered.
pub fn lower_allocators(device: &Module<'_>) -> Result<usize, Vec<Diagnostic>> {
    let ctx = device.get_context();
    let b = ctx.create_builder();
    let mut count = 0;
    let mut diags = Vec::new();
    for f in device.get_functions() {
        for (call, name) in ir::calls(f) {
            let Some(r) = routine(&name) else { continue };
            b.position_before(&call);
            let arg = |i: u32| -> anyhow::Result<inkwell::values::IntValue<'_>> {
                let v = ir::call_args(call)
                    .get(i as usize)
                    .copied()
                    .filter(|v| v.is_int_value())
                    .ok_or_else(|| anyhow::anyhow!("{name} without an integer argument {i}"))?;
                Ok(v.into_int_value())
            };
            let result: anyhow::Result<()> = (|| {
                match r {
                    Routine::Alloc(size) => malloc_call(device, &b, call, arg(size)?)?,
                    Routine::AlignedAlloc(align, size) => {
                        let a = ir::const_int(ir::call_arg_raw(call, align));
                        if !matches!(a, Some(a) if a > 0 && a <= HEAP_ALIGN && (a & (a - 1)) == 0) {
                            anyhow::bail!(
                                "ptxcc does not support an alignment other than a constant power of two up to {HEAP_ALIGN} \
                                 for allocations in target regions (the device heap's alignment)"
                            );
                        }
                        malloc_call(device, &b, call, arg(size)?)?
                    }
                    Routine::Calloc => {
                        let bytes = b.build_int_mul(arg(0)?, arg(1)?, "ptxcc.bytes")?;
                        malloc_call(device, &b, call, bytes)?
                    }
                    Routine::Free(ptr) => {
                        let p = ir::call_args(call)
                            .get(ptr as usize)
                            .copied()
                            .ok_or_else(|| anyhow::anyhow!("{name} without a pointer"))?;
                        b.build_call(libc(device, "free"), &[p.into()], "")?;
                        ir::erase(call);
                    }
                }
                Ok(())
            })();
            match result {
                Ok(()) => count += 1,
                Err(e) => diags.push(Diagnostic {
                    loc: openmp::debug_loc(call),
                    message: e.to_string(),
                }),
            }
        }
    }
    ir::delete_unused_functions(device, |f| {
        f.count_basic_blocks() == 0 && routine(&ir::fn_name(f)).is_some()
    });
    if diags.is_empty() {
        Ok(count)
    } else {
        Err(diags)
    }
}

/// `malloc(bytes)` in place of `call`, or `__ptxcc_omp_calloc(bytes)` for `omp_calloc`.
fn malloc_call<'ctx>(
    device: &Module<'ctx>,
    b: &inkwell::builder::Builder<'ctx>,
    call: InstructionValue<'ctx>,
    bytes: inkwell::values::IntValue<'ctx>,
) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let bytes = b.build_int_z_extend_or_bit_cast(bytes, ctx.i64_type(), "")?;
    let callee = if ir::callee_name(call).as_deref() == Some("omp_calloc") {
        calloc_helper(device)?
    } else {
        libc(device, "malloc")
    };
    let m = b.build_call(
        callee,
        &[BasicMetadataValueEnum::IntValue(bytes)],
        "ptxcc.heap",
    )?;
    let p = m
        .try_as_basic_value()
        .basic()
        .ok_or_else(|| anyhow::anyhow!("malloc returns nothing"))?;
    if let Some(i) = m.try_as_basic_value().instruction() {
        i.set_debug_location(call.get_debug_location());
    }
    ir::replace_and_erase(call, p.as_value_ref());
    Ok(())
}

/// `ptr @__ptxcc_omp_calloc(i64 %bytes)`: malloc, then zeroes where it gave memory.
fn calloc_helper<'ctx>(device: &Module<'ctx>) -> anyhow::Result<FunctionValue<'ctx>> {
    const NAME: &str = "__ptxcc_omp_calloc";
    if let Some(f) = device.get_function(NAME) {
        return Ok(f);
    }
    let ctx = device.get_context();
    let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
    let f = device.add_function(
        NAME,
        ptr.fn_type(&[ctx.i64_type().into()], false),
        Some(Linkage::Internal),
    );
    let bytes = f
        .get_nth_param(0)
        .ok_or_else(|| anyhow::anyhow!("{NAME} has no parameter"))?
        .into_int_value();
    let b = ctx.create_builder();
    let entry = ctx.append_basic_block(f, "entry");
    let fill = ctx.append_basic_block(f, "fill");
    let done = ctx.append_basic_block(f, "done");
    b.position_at_end(entry);
    let p = b
        .build_call(libc(device, "malloc"), &[bytes.into()], "p")?
        .try_as_basic_value()
        .basic()
        .ok_or_else(|| anyhow::anyhow!("malloc returns nothing"))?
        .into_pointer_value();
    let null = b.build_is_null(p, "")?;
    b.build_conditional_branch(null, done, fill)?;
    b.position_at_end(fill);
    b.build_memset(p, HEAP_ALIGN as u32, ctx.i8_type().const_zero(), bytes)?;
    b.build_unconditional_branch(done)?;
    b.position_at_end(done);
    b.build_return(Some(&p))?;
    Ok(f)
}

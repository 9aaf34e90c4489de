//! Host part: lets the host run a sub-range of a split loop's iterations, next to the devices
//! (`-fptxcc-hybrid`, issue 20).
//!
//! Clang's host IR keeps, for every target region, the host version of the region (the
//! "fallback" it calls when offloading fails). It is the same outlined code the device kernel
//! was made from, so the loop that `split_range` made splittable on the device is there too,
//! bounded by one `distribute` static-init call. This pass gives the host version the same
//! sub-range protocol as the device kernel and an entry the runtime can call:
//!
//! ```llvm
//! ; before (in the teams outlined function of the host version)
//! store i32 0, ptr %lb ; store i32 999, ptr %ub
//! call void @__kmpc_for_static_init_4(ptr @1, i32 %gtid, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
//! ; after
//! @__ptxcc_hostsplit_K = internal global [2 x i64] [i64 0, i64 -1]
//! %lb0 = load i32, ptr %lb ; %ub0 = load i32, ptr %ub
//! ; [lb, ub] := [lb0, ub0] clamped to the part [lo, hi) the global holds (split_range::clamp_to_part)
//! store i32 %lb, ptr %lb ; store i32 %ub, ptr %ub
//! call void @__kmpc_for_static_init_4(ptr @1, i32 %gtid, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
//! %l = load i32, ptr %last ; store (select %holds_last, %l, 0), ptr %last
//!
//! define internal void @__ptxcc_hostpart.K(ptr %args, i64 %lo, i64 %hi) {
//!   store [lo, hi) in @__ptxcc_hostsplit_K
//!   call void @K(<load param i from args[i]>...)      ; the host version, on the args given
//!   store [0, -1) in @__ptxcc_hostsplit_K               ; "every iteration" again
//! }
//! ```
//!
//! The clamp is applied to the bounds *before* libomp deals them to the host's teams, so the
//! host's threads share the host part between them. With the global at its default the clamp
//! is the identity, so the host version still runs the whole loop when offloading fails.
//!
//! The runtime (ptx-runtime `split/hybrid.rs`) calls the entry with `args[i]` pointing at the
//! value of parameter i (as the emulator entry takes them), on its own copies of the mapped
//! data. A host version is not given a host part (each reason reported by `-fptxcc-info`) when
//! it reads or writes a global variable (its host and device copies are different variables),
//! asks which device it runs on or the shape of its teams and threads (`omp_is_initial_device`,
//! `omp_get_device_num`, `omp_get_num_threads`, `omp_get_team_num`, …, `acc_*`), has
//! no single `distribute` loop, or has a parameter that is neither a pointer nor an integer of
//! at most 64 bits.
use inkwell::module::{Linkage, Module};
use inkwell::types::BasicMetadataTypeEnum;
use inkwell::values::{AsValueRef, BasicMetadataValueEnum, FunctionValue, InstructionValue};
use inkwell::AddressSpace;
use llvm_sys::core as llvm;

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir;
use crate::split_range;

/// Prefix of the host part's range globals (the rest is the kernel's name).
pub const GLOBAL_PREFIX: &str = "__ptxcc_hostsplit_";
/// Prefix of the host part entries (the rest is the kernel's name).
pub const ENTRY_PREFIX: &str = "__ptxcc_hostpart.";

/// What the runtime needs to run a kernel's host part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostPart {
    /// `void entry(void **args, uint64_t lo, uint64_t hi)`.
    pub entry: String,
}

/// Bit i: parameter i of the region's host version (and so of its kernel) is a pointer; None
/// when the host module has no host version or it has more than 64 parameters. A pointer the
/// runtime receives by value (`is_device_ptr`, OpenACC `deviceptr`) points into one device's
/// memory: it keeps a loop on one device, and off the host.
pub fn pointer_params(host: &Module<'_>, kernel: &str) -> Option<u64> {
    let f = host.get_function(kernel)?;
    let params = f.get_params();
    if params.len() > 64 {
        return None;
    }
    Some(
        params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.get_type().is_pointer_type())
            .fold(0u64, |m, (i, _)| m | 1 << i),
    )
}

/// The host part entry of `kernel`.
pub fn entry_name(kernel: &str) -> String {
    format!("{ENTRY_PREFIX}{kernel}")
}

fn internal(message: String) -> Diagnostics {
    Diagnostics(vec![Diagnostic { loc: None, message }])
}

/// Gives the host version of `kernel` a host part. Ok(Err(why)): it cannot have one.
pub fn prepare(host: &Module<'_>, kernel: &str) -> Result<Result<HostPart, String>, Diagnostics> {
    let Some(f) = host
        .get_function(kernel)
        .filter(|f| f.count_basic_blocks() > 0)
    else {
        return Ok(Err(
            "the host module has no host version of the region".into()
        ));
    };
    for (i, p) in f.get_params().iter().enumerate() {
        let t = p.get_type();
        if !t.is_pointer_type() && (!t.is_int_type() || t.into_int_type().get_bit_width() > 64) {
            return Ok(Err(format!(
                "its parameter {} is not a pointer or an integer",
                i + 1
            )));
        }
    }
    let call = match judge(f) {
        Ok(call) => call,
        Err(why) => return Ok(Err(why)),
    };
    let name = format!("{GLOBAL_PREFIX}{kernel}");
    let global = match host.get_global(&name) {
        Some(g) => g,
        None => split_range::add_range_global(host, &name, Linkage::Internal),
    };
    clamp(host, call, global).map_err(|e| internal(format!("internal error in host-part: {e}")))?;
    let entry = add_entry(host, kernel, f, global)
        .map_err(|e| internal(format!("internal error in host-part: {e}")))?;
    Ok(Ok(HostPart { entry }))
}

/// Calls whose answer differs on the host and on a device (omp.h's host variants are named
/// `omp_is_initial_device$ompvariant$...`): where the code runs, and the shape of the teams and
/// threads running it (the host's teams are not a GPU's grid: a loop that stores
/// `omp_get_num_threads()` would store the host's count in the host part).
fn asks_for_the_device(name: &str) -> bool {
    let name = name.split('$').next().unwrap_or(name);
    name.starts_with("acc_")
        || matches!(
            name,
            "omp_is_initial_device"
                | "omp_get_device_num"
                | "omp_get_initial_device"
                | "omp_get_num_devices"
                | "omp_get_num_teams"
                | "omp_get_team_num"
                | "omp_get_num_threads"
                | "omp_get_thread_num"
                | "omp_get_max_threads"
                | "omp_get_thread_limit"
                | "omp_get_team_size"
                | "omp_get_teams_thread_limit"
                | "omp_get_max_teams"
        )
}

/// A global variable `v` is, or points into (constant expressions stripped), that the code may
/// write or whose host copy is not the device's: one that is not constant.
fn mutable_global(v: llvm_sys::prelude::LLVMValueRef) -> Option<String> {
    let mut v = v;
    unsafe {
        loop {
            if !llvm::LLVMIsAConstantExpr(v).is_null() {
                v = llvm::LLVMGetOperand(v, 0);
                continue;
            }
            break;
        }
        if llvm::LLVMIsAGlobalVariable(v).is_null() || llvm::LLVMIsGlobalConstant(v) != 0 {
            return None;
        }
    }
    let name = ir::value_name(v);
    // The lock of a `critical` construct (or of a reduction clang combines under one) is the
    // host's own: the host part takes it on the host like the host version always did.
    (!name.starts_with(".gomp_critical_user_")).then_some(name)
}

/// The host version's one `distribute` static-init call, or why it has none to clamp.
fn judge(f: FunctionValue<'_>) -> Result<InstructionValue<'_>, String> {
    let mut distribute = Vec::new();
    for g in split_range::reachable(f, true) {
        for inst in ir::instructions(g) {
            let n = unsafe { llvm::LLVMGetNumOperands(inst.as_value_ref()) };
            for k in 0..n as u32 {
                let v = unsafe { llvm::LLVMGetOperand(inst.as_value_ref(), k) };
                if let Some(name) = mutable_global(v) {
                    return Err(format!(
                        "it uses the global variable '{name}', whose host and device copies are different variables"
                    ));
                }
            }
            let Some(name) = ir::callee_name(inst) else {
                continue;
            };
            if asks_for_the_device(&name) {
                return Err(format!(
                    "it calls '{}', whose answer on the host differs from a device's",
                    name.split('$').next().unwrap_or(&name)
                ));
            }
            if split_range::distribute_init(inst)? {
                distribute.push(inst);
            }
        }
    }
    match distribute.as_slice() {
        [one] => Ok(*one),
        [] => Err("its host version has no 'distribute' loop".into()),
        _ => Err("its host version has several 'distribute' loops".into()),
    }
}

/// Clamps the bounds `call` (a static-init call) reads to the part, and keeps its
/// last-iteration flag only in the part that holds the loop's last iteration.
fn clamp<'ctx>(
    host: &Module<'ctx>,
    call: InstructionValue<'ctx>,
    global: inkwell::values::GlobalValue<'ctx>,
) -> Result<(), String> {
    let ctx = host.get_context();
    let name = ir::callee_name(call).unwrap_or_default();
    let t = if name.ends_with("_8") || name.ends_with("_8u") {
        ctx.i64_type()
    } else {
        ctx.i32_type()
    };
    let arg = |i: u32| -> Result<inkwell::values::PointerValue<'ctx>, String> {
        call.get_operand(i)
            .and_then(|o| o.value())
            .filter(|v| v.is_pointer_value())
            .map(|v| v.into_pointer_value())
            .ok_or_else(|| format!("argument {i} of '{name}' is not a pointer"))
    };
    let (plast, plb, pub_) = (arg(3)?, arg(4)?, arg(5)?);
    let b = ctx.create_builder();
    b.position_before(&call);
    let e = |e: inkwell::builder::BuilderError| e.to_string();
    let lb0 = b.build_load(t, plb, "ptxcc.host.lb0").map_err(e)?;
    let ub0 = b.build_load(t, pub_, "ptxcc.host.ub0").map_err(e)?;
    let (lb, ub, last) = crate::split_range::clamp_to_part(
        &b,
        t,
        global,
        lb0.into_int_value(),
        ub0.into_int_value(),
    )
    .map_err(e)?;
    b.build_store(plb, lb).map_err(e)?;
    b.build_store(pub_, ub).map_err(e)?;
    let Some(next) = call.get_next_instruction() else {
        return Err(format!("'{name}' ends its block"));
    };
    b.position_before(&next);
    let i32t = ctx.i32_type();
    let l = b
        .build_load(i32t, plast, "ptxcc.host.last")
        .map_err(e)?
        .into_int_value();
    let l = b
        .build_select(last, l, i32t.const_zero(), "ptxcc.host.last.part")
        .map_err(e)?;
    b.build_store(plast, l).map_err(e)?;
    Ok(())
}

/// `void __ptxcc_hostpart.K(ptr args, i64 lo, i64 hi)`: the host version on `args`, for the
/// iterations `[lo, hi)`.
fn add_entry<'ctx>(
    host: &Module<'ctx>,
    kernel: &str,
    f: FunctionValue<'ctx>,
    global: inkwell::values::GlobalValue<'ctx>,
) -> Result<String, String> {
    let ctx = host.get_context();
    let ptr = ctx.ptr_type(AddressSpace::default());
    let i64t = ctx.i64_type();
    let params: [BasicMetadataTypeEnum<'_>; 3] = [ptr.into(), i64t.into(), i64t.into()];
    let name = entry_name(kernel);
    let entry = host.add_function(
        &name,
        ctx.void_type().fn_type(&params, false),
        Some(Linkage::Internal),
    );
    let b = ctx.create_builder();
    b.position_at_end(ctx.append_basic_block(entry, "entry"));
    let e = |e: inkwell::builder::BuilderError| e.to_string();
    let (Some(args), Some(lo), Some(hi)) = (
        entry.get_nth_param(0),
        entry.get_nth_param(1),
        entry.get_nth_param(2),
    ) else {
        return Err("the entry has no parameters".into());
    };
    let slot = global.as_pointer_value();
    // SAFETY: the global is [2 x i64]; element 1 is in bounds.
    let hi_slot =
        unsafe { b.build_in_bounds_gep(i64t, slot, &[i64t.const_int(1, false)], "") }.map_err(e)?;
    let aligned =
        |i: inkwell::values::InstructionValue<'_>| i.set_alignment(8).map_err(|e| e.to_string());
    aligned(b.build_store(slot, lo).map_err(e)?)?;
    aligned(b.build_store(hi_slot, hi).map_err(e)?)?;
    let mut values: Vec<BasicMetadataValueEnum<'_>> = Vec::new();
    for (i, p) in f.get_params().iter().enumerate() {
        // SAFETY: the runtime passes one pointer per parameter.
        let at = unsafe {
            b.build_in_bounds_gep(
                ptr,
                args.into_pointer_value(),
                &[i64t.const_int(i as u64, false)],
                "",
            )
        }
        .map_err(e)?;
        let value_ptr = b.build_load(ptr, at, "").map_err(e)?.into_pointer_value();
        let v = b
            .build_load(p.get_type(), value_ptr, &format!("arg{i}"))
            .map_err(e)?;
        values.push(v.into());
    }
    b.build_call(f, &values, "").map_err(e)?;
    aligned(b.build_store(slot, i64t.const_zero()).map_err(e)?)?;
    aligned(b.build_store(hi_slot, i64t.const_all_ones()).map_err(e)?)?;
    b.build_return(None).map_err(e)?;
    Ok(name)
}

/// The `-fptxcc-info` line of a split kernel's host part (`source`: "file:line:col").
pub fn verdict_remark(source: &str, verdict: &Result<HostPart, String>) -> String {
    let at = if source.is_empty() {
        String::new()
    } else {
        format!("{source}: ")
    };
    match verdict {
        Ok(_) => format!(
            "{at}hybrid: the host's threads run a part of the loop's iterations next to the devices (-fptxcc-hybrid)"
        ),
        Err(why) => format!("{at}not hybrid (devices only): {why}"),
    }
}

//! Split range: lets a loop kernel run a sub-range of its iterations, so that the runtime can
//! split one loop over several devices (`-fptxcc-multi-device`, issue 19).
//!
//! A kernel whose work is one `distribute` loop over independent iterations (a combined
//! `target teams distribute parallel for`, an OpenACC `parallel loop`) gets a device global
//! `__ptxcc_split_<kernel>` holding the sub-range `[lo, hi)` of the loop's normalised iterations
//! `0 .. trip` it runs, `[0, UINT64_MAX)` (all of them) unless the runtime says otherwise, and
//! its `distribute` static-init call is marked with it:
//!
//! ```llvm
//! ; before
//! store i32 0, ptr %lb ; store i32 999, ptr %ub
//! call void @__kmpc_for_static_init_4(ptr @1, i32 %gtid, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
//! ; after
//! @__ptxcc_split_K = externally_initialized global [2 x i64] [i64 0, i64 -1]
//! call void @__kmpc_for_static_init_4(...), !ptxcc.split !{!"__ptxcc_split_K"}
//! ```
//!
//! Loop mapping, which replaces the call, clamps the loop's bounds `[lb0, ub0]` to
//! `[lb0 + min(lo, trip), lb0 + min(hi, trip) - 1]` before it deals them to blocks and threads,
//! and sets the last-iteration flag only in the part that holds the loop's last iteration. The
//! runtime (ptx-runtime `split/launch.rs`) writes the global on each device before it launches
//! that device's part, and registers the kernel as splittable (the global is in the image).
//!
//! Not split (each reported by `-fptxcc-info`, the kernel runs on one device as before): a
//! kernel with no `distribute` loop or several, a chunked `dist_schedule`, and one that
//! synchronises through `critical` or the runtime's atomic calls. Reductions and `atomic`
//! updates are split: [`combine`] finds, on the optimised module, the arguments whose parts
//! the runtime folds together instead of merging; the kernel's final verdict is made there.
use std::collections::HashSet;

pub mod cas_update;
pub mod combine;

use inkwell::builder::{Builder, BuilderError};
use inkwell::module::{Linkage, Module};
use inkwell::types::IntType;
use inkwell::values::{FunctionValue, InstructionOpcode, InstructionValue};
use inkwell::values::{GlobalValue, IntValue};
use inkwell::IntPredicate;

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir;
use crate::kernel_info::ExecMode;
use crate::openmp::{GlobalEntry, StaticSchedule};
use crate::registry::DeviceUnit;

/// Metadata kind on the marked static-init call; its operand names the kernel's split global.
pub const SPLIT_MD: &str = "ptxcc.split";
/// Metadata kind on the static-init call of a loop whose access ranges are tabled without a
/// split (`-fopenmp-offload-parallel-for` without `-fptxcc-multi-device`): the loop runs whole.
pub const RANGES_MD: &str = "ptxcc.ranges";
/// Prefix of the split globals' names (the rest is the kernel's name).
pub const GLOBAL_PREFIX: &str = "__ptxcc_split_";
/// Bytes of a split global: `[lo, hi)` as two u64.
pub const GLOBAL_BYTES: u64 = 16;

/// The split global of `kernel`.
pub fn global_name(kernel: &str) -> String {
    format!("{GLOBAL_PREFIX}{kernel}")
}

/// Why a kernel is not split, or the call that bounds its splittable loop.
enum Verdict<'ctx> {
    Split(InstructionValue<'ctx>),
    Not(String),
}

/// Marks every splittable kernel of `unit` (see the module comment) and reports each decision
/// as a remark. Returns the number of kernels made splittable.
///
/// Without `multi_device`, only the loops `-fopenmp-offload-parallel-for` offloaded and the
/// kernels of OpenACC compute constructs (the driver's `access_maps` and `acc_compute` hints)
/// are looked at, and their distribute loop gets the
/// [`RANGES_MD`] mark alone, no split global: `access_ranges` tables what the whole loop
/// touches, so that the runtime maps the pointers the loop reaches without an extent.
pub fn split_kernels(unit: &mut DeviceUnit<'_>, multi_device: bool) -> Result<usize, Diagnostics> {
    let module = &unit.module;
    let ctx = module.get_context();
    let hints = crate::driver_hints::DriverHints::read(module).map_err(|e| {
        Diagnostics(vec![Diagnostic {
            loc: None,
            message: format!("internal error in split-range: {e}"),
        }])
    })?;
    let kind = ctx.get_kind_id(if multi_device { SPLIT_MD } else { RANGES_MD });
    let mut count = 0;
    let mut globals = Vec::new();
    for k in &unit.kernels {
        let Some(f) = module.get_function(&k.name) else {
            continue;
        };
        let loc = unit.locs.get(&k.name).cloned();
        let access_maps = loc.as_ref().is_some_and(|l| hints.access_maps(l));
        if !multi_device && !access_maps {
            continue;
        }
        let verdict = if k.mode != ExecMode::Spmd {
            Verdict::Not("it is not a teams + parallel loop ('target teams distribute parallel for', 'parallel loop')".into())
        } else {
            judge(f)
        };
        match verdict {
            Verdict::Not(why) if !multi_device && loc.as_ref().is_some_and(|l| hints.openacc(l)) => {
                crate::remarks::add(
                    module,
                    loc.as_ref(),
                    &format!(
                        "no implicit copy from the loop bounds for pointers without a data clause: {why}; \
                         such a pointer must be present (a data region, enter data) or have a data clause \
                         (copy(p[0:n]))"
                    ),
                )
            }
            Verdict::Not(why) if !multi_device => crate::remarks::add(
                module,
                loc.as_ref(),
                &format!(
                    "pointers without a visible extent cannot be mapped by their access ranges: {why}; \
                     map them (map(tofrom: p[0:n])) or enclose the loop in a 'target data' region"
                ),
            ),
            Verdict::Not(why) => crate::remarks::add(
                module,
                loc.as_ref(),
                &format!("not split over devices: {why}"),
            ),
            Verdict::Split(call) if !multi_device => {
                call.set_metadata(ctx.metadata_node(&[]), kind)
                    .map_err(|e| {
                        Diagnostics(vec![Diagnostic {
                            loc: None,
                            message: format!("internal error in split-range: {e}"),
                        }])
                    })?;
                count += 1;
            }
            Verdict::Split(call) => {
                let name = global_name(&k.name);
                let g = add_range_global(module, &name, Linkage::External);
                g.set_externally_initialized(true);
                let node = ctx.metadata_node(&[ctx.metadata_string(&name).into()]);
                call.set_metadata(node, kind).map_err(|e| {
                    Diagnostics(vec![Diagnostic {
                        loc: None,
                        message: format!("internal error in split-range: {e}"),
                    }])
                })?;
                globals.push(GlobalEntry {
                    name,
                    size: GLOBAL_BYTES,
                    is_link: false,
                });
                count += 1;
            }
        }
    }
    unit.entries.globals.extend(globals);
    Ok(count)
}

/// The `-fptxcc-info` line of a splittable kernel's final verdict (`source`: "file:line:col").
pub fn verdict_remark(source: &str, verdict: &Result<Vec<combine::Combine>, String>) -> String {
    let at = if source.is_empty() {
        String::new()
    } else {
        format!("{source}: ")
    };
    match verdict {
        Ok(c) if c.is_empty() => format!(
            "{at}split over devices: each device runs a contiguous part of the loop's iterations (-fptxcc-multi-device)"
        ),
        Ok(c) => format!(
            "{at}split over devices: each device runs a contiguous part of the loop's iterations; the parts of argument{} {} are combined ({}) (-fptxcc-multi-device)",
            if c.len() == 1 { "" } else { "s" },
            c.iter().map(|c| (c.param + 1).to_string()).collect::<Vec<_>>().join(", "),
            c.iter().map(|c| c.op.symbol()).collect::<Vec<_>>().join(", ")
        ),
        Err(why) => format!("{at}not split over devices: {why}"),
    }
}

/// The split global a static-init call was marked with (loop mapping clamps its bounds to it).
pub fn marked_global<'ctx>(
    module: &Module<'ctx>,
    call: InstructionValue<'ctx>,
) -> Option<inkwell::values::GlobalValue<'ctx>> {
    let kind = module.get_context().get_kind_id(SPLIT_MD);
    let node = call.get_metadata(kind)?;
    let values = node.get_node_values()?;
    let Some(inkwell::values::BasicMetadataValueEnum::MetadataValue(name)) = values.first() else {
        return None;
    };
    module.get_global(std::str::from_utf8(name.get_string_value()?).ok()?)
}

/// The functions `f` reaches through direct calls, itself included; with `callbacks`, also
/// through the functions passed as call arguments (the outlined functions clang's host code
/// hands to `__kmpc_fork_teams` / `__kmpc_fork_call`).
pub fn reachable<'ctx>(f: FunctionValue<'ctx>, callbacks: bool) -> Vec<FunctionValue<'ctx>> {
    let mut seen = HashSet::new();
    let mut order = vec![f];
    seen.insert(f);
    let mut i = 0;
    while i < order.len() {
        for inst in ir::instructions(order[i]) {
            let mut targets: Vec<FunctionValue<'ctx>> =
                ir::called_function(inst).into_iter().collect();
            let is_call = matches!(
                inst.get_opcode(),
                InstructionOpcode::Call | InstructionOpcode::Invoke
            );
            if callbacks && is_call {
                for k in 0..ir::call_arg_count(inst) {
                    let v = ir::strip_casts(ir::call_arg_raw(inst, k));
                    if unsafe { !llvm_sys::core::LLVMIsAFunction(v).is_null() } {
                        targets.extend(unsafe { FunctionValue::new(v) });
                    }
                }
            }
            for g in targets {
                if g.count_basic_blocks() > 0 && seen.insert(g) {
                    order.push(g);
                }
            }
        }
        i += 1;
    }
    order
}

/// What a call is to a split: `Ok(true)` the static-init call of a block `distribute` (the
/// one the split clamps), `Ok(false)` any other call, `Err(why)` a `distribute` the split
/// cannot clamp (a chunked one, or `distribute parallel for` as one runtime call).
pub fn distribute_init(inst: InstructionValue<'_>) -> Result<bool, String> {
    let Some(name) = ir::callee_name(inst) else {
        return Ok(false);
    };
    let is_distribute_call = if name.starts_with("__kmpc_distribute_static_init_") {
        true
    } else if name.starts_with("__kmpc_dist_for_static_init_") {
        return Err(
            "its 'distribute parallel for' is one runtime call (dist_schedule with a schedule)"
                .into(),
        );
    } else if name.starts_with("__kmpc_for_static_init_") {
        false
    } else {
        return Ok(false);
    };
    let Some(schedule) =
        ir::const_int(ir::call_arg_raw(inst, 2)).and_then(StaticSchedule::from_kmp)
    else {
        return Ok(false);
    };
    if !(is_distribute_call || schedule.is_distribute()) {
        return Ok(false);
    }
    if schedule.is_chunked() {
        return Err("its 'distribute' is chunked (dist_schedule(static, n))".into());
    }
    Ok(true)
}

/// Adds the `[2 x i64]` range global `name` holding `[0, UINT64_MAX)` ("every iteration").
pub fn add_range_global<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    linkage: Linkage,
) -> GlobalValue<'ctx> {
    let i64t = module.get_context().i64_type();
    let g = module.add_global(i64t.array_type(2), None, name);
    g.set_linkage(linkage);
    g.set_alignment(8);
    g.set_initializer(&i64t.const_array(&[i64t.const_zero(), i64t.const_all_ones()]));
    g
}

/// Calls that update memory atomically or under a lock: the parts would race or need combining.
fn is_synchronising_call(name: &str) -> bool {
    name.starts_with("__kmpc_critical")
        || name.starts_with("__kmpc_atomic")
        || name.starts_with("__kmpc_set_lock")
        || name.starts_with("omp_set_lock")
        || name.starts_with("__atomic_")
}

fn judge(kernel: FunctionValue<'_>) -> Verdict<'_> {
    let mut distribute = Vec::new();
    for f in reachable(kernel, false) {
        for inst in ir::instructions(f) {
            if inst.get_opcode() != InstructionOpcode::Call {
                continue;
            }
            let Some(name) = ir::callee_name(inst) else {
                continue;
            };
            if is_synchronising_call(&name) {
                return Verdict::Not(format!(
                    "it synchronises through '{name}' ('critical', or an atomic operation of the runtime): the devices cannot share a lock"
                ));
            }
            match distribute_init(inst) {
                Ok(true) => distribute.push(inst),
                Ok(false) => {}
                Err(why) => return Verdict::Not(format!("{why}: not split yet")),
            }
        }
    }
    match distribute.as_slice() {
        [] => Verdict::Not("it has no 'distribute' loop".into()),
        [one] => Verdict::Split(*one),
        _ => Verdict::Not("it has several 'distribute' loops".into()),
    }
}

/// Loop mapping's part of the split, before `call` (a marked static-init call): the bounds
/// `[lb0, ub0]` of the whole loop clamped to the part `[lo, hi)` the split global holds, and
/// whether the part holds the loop's last iteration.
///
/// ```llvm
/// %lo = load i64, ptr @__ptxcc_split_K ; %hi = load i64, (gep @__ptxcc_split_K, 1)
/// %trip = zext (ub0 - lb0 + 1)         ; lo, hi = umin(lo, trip), umin(hi, trip)
/// lb = lb0 + trunc lo ; ub = lb0 + trunc hi - 1 ; last = hi == trip
/// ```
pub fn clamp_to_part<'ctx>(
    b: &Builder<'ctx>,
    t: IntType<'ctx>,
    global: GlobalValue<'ctx>,
    lb0: IntValue<'ctx>,
    ub0: IntValue<'ctx>,
) -> Result<(IntValue<'ctx>, IntValue<'ctx>, IntValue<'ctx>), BuilderError> {
    let i64t = t.get_context().i64_type();
    let slot = global.as_pointer_value();
    let aligned = |v: inkwell::values::BasicValueEnum<'ctx>| -> IntValue<'ctx> {
        if let Some(i) = v.into_int_value().as_instruction() {
            let _ = i.set_alignment(8);
        }
        v.into_int_value()
    };
    let lo = aligned(b.build_load(i64t, slot, "ptxcc.split.lo")?);
    // SAFETY: the global is [2 x i64]; element 1 is in bounds.
    let hi_slot = unsafe { b.build_in_bounds_gep(i64t, slot, &[i64t.const_int(1, false)], "")? };
    let hi = aligned(b.build_load(i64t, hi_slot, "ptxcc.split.hi")?);
    let trip = b.build_int_add(b.build_int_sub(ub0, lb0, "")?, t.const_int(1, false), "")?;
    let trip = if t.get_bit_width() < 64 {
        b.build_int_z_extend(trip, i64t, "ptxcc.split.trip")?
    } else {
        trip
    };
    let umin = |v: IntValue<'ctx>, name: &str| -> Result<IntValue<'ctx>, BuilderError> {
        let below = b.build_int_compare(IntPredicate::ULT, v, trip, "")?;
        Ok(b.build_select(below, v, trip, name)?.into_int_value())
    };
    let lo = umin(lo, "ptxcc.split.lo.in")?;
    let hi = umin(hi, "ptxcc.split.hi.in")?;
    let last = b.build_int_compare(IntPredicate::EQ, hi, trip, "ptxcc.split.last")?;
    let (lo, hi) = if t.get_bit_width() < 64 {
        (
            b.build_int_truncate(lo, t, "")?,
            b.build_int_truncate(hi, t, "")?,
        )
    } else {
        (lo, hi)
    };
    let lb = b.build_int_add(lb0, lo, "ptxcc.split.lb")?;
    let ub = b.build_int_sub(
        b.build_int_add(lb0, hi, "")?,
        t.const_int(1, false),
        "ptxcc.split.ub",
    )?;
    Ok((lb, ub, last))
}

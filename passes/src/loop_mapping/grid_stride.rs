//! Grid-stride loops for `distribute parallel for`: the two levels of clang's combined loop
//! become one loop over every thread of the grid.
//!
//! Clang splits a combined `distribute parallel for` over two functions. The teams-level one
//! asks for the block's part of the range (schedule 92, `distribute` without `dist_schedule`)
//! and hands it to the parallel region, whose `for` asks for the thread's part of that:
//!
//! ```llvm
//! define internal void @..omp_outlined(...)                       ; "ptxcc-threads"="team"
//!   call void @__kmpc_for_static_init_4(ptr @1, i32 %g, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
//!   ...                                                             ; for (iv = lb; iv <= ub; iv += st)
//!   %plb = load i32, ptr %lb ; %pub = load i32, ptr %ub
//!   call void @..omp_outlined.omp_outlined(ptr %g, ptr %g, i64 (zext %plb), i64 (zext %pub), ...)
//!
//! define internal void @..omp_outlined.omp_outlined(ptr %0, ptr %1, i64 %prev.lb, i64 %prev.ub, ...)
//!   store i32 (trunc %prev.lb), ptr %lb2 ; store i32 (trunc %prev.ub), ptr %ub2
//!   call void @__kmpc_for_static_init_4(ptr @2, i32 %g, i32 34, ptr %last2, ptr %lb2, ptr %ub2, ptr %st2, i32 1, i32 1)
//! ```
//!
//! Mapped level by level, each block divides the range (a division by `nctaid.x`), then each
//! thread steps through its block's part (a second split, with its own guards): some 85 PTX
//! instructions per thread before the first iteration. Where no clause asks for the two levels
//! (no `dist_schedule(static)`, no `schedule`), this analysis pairs the two calls, and loop
//! mapping then gives the block the whole range (`[lb0, ub0]`, stride the trip count: its
//! loop runs once) and deals the iterations to the threads of the whole grid, cyclically:
//!
//! ```llvm
//!   %id = ctaid.x * ntid.x + tid.x ; %n = nctaid.x * ntid.x
//!   for (iv = lb0 + %id; iv <= ub0; iv += %n)                        ; one loop, unrolled 4x
//! ```
//!
//! which is the grid-stride loop nvcc users write by hand. The pair is fused only when it is
//! exactly clang's combined construct and nothing can observe the blocks' parts:
//!
//! - the teams-level call is schedule 92 in a teams-level ("team") function, and no explicit
//!   `dist_schedule(static)` is at its location (the driver lists those in its hints: see
//!   [`DriverHints`]; OpenMP gives each team one contiguous part then);
//! - every call its bounds reach is to a function called from there alone, whose single
//!   worksharing call is a `for` with no schedule clause (34, not monotonic) bounded by the
//!   function's `prev.lb` / `prev.ub` parameters, of the same integer type, in a block's
//!   threads or workers (the same for every such function), and whose loop increment is
//!   clang's unit one (what the cyclic mapping rewrites).
//!
//! The distribute's last-iteration flag (read by a `lastprivate` at that level, and by `simd`'s
//! final value of the counter) then says whether the block holds the grid thread that runs the
//! last iteration.
use super::{classify, explicit_static, increment, unit_increment, InitCall, InitKind};
use crate::driver_hints::DriverHints;
use crate::ir;
use crate::openmp::{self, StaticSchedule};
use crate::thread_space::Space;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, InstructionValue, PointerValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use std::collections::{HashMap, HashSet};

/// The parameters of an outlined parallel region that hold the `distribute` level's bounds in
/// a combined construct (`prev.lb`, `prev.ub`, after the two thread-id pointers); the call
/// passes them at the same positions.
pub(super) const PREV_LB: usize = 2;
pub(super) const PREV_UB: usize = 3;

/// What the `distribute` side of a pair needs to know of its `for`: the threads it deals to,
/// and whether it counts unsigned (`_4u`, `_8u`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Inner {
    pub space: Space,
    pub unsigned: bool,
}

/// The worksharing calls that form grid-stride loops.
#[derive(Default)]
pub(super) struct GridStride {
    /// Teams-level `distribute` calls whose block takes the whole range.
    pub whole_range: HashMap<LLVMValueRef, Inner>,
    /// `for` calls whose iterations go to the threads of the whole grid.
    pub grid_threads: HashSet<LLVMValueRef>,
    /// Those of them whose pair's last-iteration flags nothing reads (no `lastprivate`, no
    /// `simd` final value): their loop may take its indices from a grid of its shape
    /// ([`super::grid_shape`]), where another thread than the linear grid's runs the last one.
    pub shapeable: HashSet<LLVMValueRef>,
}

/// Finds the pairs of `device` to fuse, but those of the directives with an explicit
/// `dist_schedule(static)` (`hints`).
pub(super) fn find(device: &Module<'_>, hints: &DriverHints) -> GridStride {
    let mut out = GridStride::default();
    for f in device.get_functions() {
        if Space::of(f) != Space::Team {
            continue;
        }
        for (call, name) in ir::calls(f) {
            let Some(init) = classify(&name) else {
                continue;
            };
            if !matches!(init.kind, InitKind::For | InitKind::Distribute)
                || schedule(call) != Some(StaticSchedule::DistributeBlock)
            {
                continue;
            }
            let at_explicit =
                openmp::call_loc(call).is_some_and(|l| hints.explicit_dist_schedule(&l));
            if at_explicit {
                continue;
            }
            if let Some((calls, inner)) = unsafe { fusable_inner_calls(call, init, hints) } {
                out.whole_range.insert(call.as_value_ref(), inner);
                let flags_unread =
                    !flag_read(call.as_value_ref()) && calls.iter().all(|&c| !flag_read(c));
                if flags_unread && inner.space == Space::Block {
                    out.shapeable.extend(calls.iter().copied());
                }
                out.grid_threads.extend(calls);
            }
        }
    }
    out
}

/// Whether anything but `call` and lifetime markers may read the last-iteration flag
/// (argument 3) of static-init call `call`: a load, another call it is passed to.
fn flag_read(call: LLVMValueRef) -> bool {
    let flag = ir::strip_casts(unsafe { llvm::LLVMGetOperand(call, 3) });
    ir::users(flag).into_iter().any(|u| {
        let other_call = unsafe { !llvm::LLVMIsACallInst(u).is_null() }
            && u != call
            && !ir::callee_name_raw(u).is_some_and(|n| n.starts_with("llvm.lifetime."));
        ir::is_load_of(u, flag) || other_call
    })
}

/// The schedule of a static-init call, when it is a constant clang knows.
fn schedule(call: InstructionValue<'_>) -> Option<StaticSchedule> {
    ir::const_int(ir::call_arg_raw(call, 2)).and_then(StaticSchedule::from_kmp)
}

/// The `for` calls of the parallel regions that the `distribute` call `d` hands its bounds to,
/// and their thread space, when every one of them can be fused with it; None otherwise.
unsafe fn fusable_inner_calls(
    d: InstructionValue<'_>,
    init: InitCall,
    hints: &DriverHints,
) -> Option<(Vec<LLVMValueRef>, Inner)> {
    let (plb, pub_) = (ir::call_arg_raw(d, 4), ir::call_arg_raw(d, 5));
    let mut inner = Vec::new();
    let mut dealt: Option<Inner> = None;
    for slot in [plb, pub_] {
        for load in ir::users(slot)
            .into_iter()
            .filter(|u| ir::is_load_of(*u, slot))
        {
            for user in through_casts(load) {
                if llvm::LLVMIsACallInst(user).is_null() {
                    continue;
                }
                let call = InstructionValue::new(user);
                let (for_call, for_init, space) = fusable_region(call, plb, pub_, hints)?;
                // Both calls count in the same type, and every region in the same space (the
                // distribute's last-iteration flag is computed for that one).
                let this = Inner {
                    space,
                    unsigned: for_init.unsigned,
                };
                if for_init.bits != init.bits || dealt.is_some_and(|d| d != this) {
                    return None;
                }
                dealt = Some(this);
                if !inner.contains(&for_call) {
                    inner.push(for_call);
                }
            }
        }
    }
    Some((inner, dealt?))
}

/// `v`'s users, and for a cast, its users' (clang widens a 32-bit bound to pass it).
fn through_casts(v: LLVMValueRef) -> Vec<LLVMValueRef> {
    ir::users(v)
        .into_iter()
        .flat_map(|u| {
            if unsafe { llvm::LLVMIsACastInst(u).is_null() } {
                vec![u]
            } else {
                ir::users(u)
            }
        })
        .collect()
}

/// The worksharing call of the parallel region that `call` runs with the distribute bounds
/// `plb`/`pub_` as its `prev.lb`/`prev.ub`, its kind and the region's thread space, when the
/// pair can be fused.
unsafe fn fusable_region(
    call: InstructionValue<'_>,
    plb: LLVMValueRef,
    pub_: LLVMValueRef,
    hints: &DriverHints,
) -> Option<(LLVMValueRef, InitCall, Space)> {
    let region = ir::called_function(call)?;
    let loads =
        |i: u32, slot: LLVMValueRef| ir::is_load_of(without_cast(ir::call_arg_raw(call, i)), slot);
    if !loads(PREV_LB as u32, plb)
        || !loads(PREV_UB as u32, pub_)
        || region.count_basic_blocks() == 0
    {
        return None;
    }
    let space = Space::of(region);
    if !matches!(space, Space::Block | Space::Warps) || ir::users(region.as_value_ref()).len() != 1
    {
        return None;
    }
    let inits: Vec<_> = ir::calls(region)
        .into_iter()
        .filter_map(|(c, n)| classify(&n).map(|i| (c, i)))
        .collect();
    let [(init_call, init)] = inits[..] else {
        return None;
    };
    let sched = ir::const_int(ir::call_arg_raw(init_call, 2))?;
    if init.kind != InitKind::For
        || explicit_static(init_call, sched, hints)
        || StaticSchedule::from_kmp(sched) != Some(StaticSchedule::Block)
    {
        return None;
    }
    let params: Vec<LLVMValueRef> = region.get_param_iter().map(|p| p.as_value_ref()).collect();
    let bound_from = |slot: LLVMValueRef, param: usize| {
        last_store_before(init_call, slot).and_then(|v| ir::param_behind(v, &params)) == Some(param)
    };
    if !bound_from(ir::call_arg_raw(init_call, 4), PREV_LB)
        || !bound_from(ir::call_arg_raw(init_call, 5), PREV_UB)
    {
        return None;
    }
    let plb_inner = init_call
        .get_operand(4)
        .and_then(|o| o.value())
        .filter(|v| v.is_pointer_value())?
        .into_pointer_value();
    unit_increment(init_call, plb_inner)?;
    Some((init_call.as_value_ref(), init, space))
}

/// `v`, or the value `v` casts.
unsafe fn without_cast(v: LLVMValueRef) -> LLVMValueRef {
    if llvm::LLVMIsACastInst(v).is_null() {
        v
    } else {
        llvm::LLVMGetOperand(v, 0)
    }
}

/// The value the last store to `slot` before `call`, in `call`'s block, stored.
pub(super) unsafe fn last_store_before(
    call: InstructionValue<'_>,
    slot: LLVMValueRef,
) -> Option<LLVMValueRef> {
    let mut i = llvm::LLVMGetPreviousInstruction(call.as_value_ref());
    while !i.is_null() {
        if ir::is_store_to(i, slot) {
            return Some(llvm::LLVMGetOperand(i, 0));
        }
        i = llvm::LLVMGetPreviousInstruction(i);
    }
    None
}

/// Makes the loop of a whole-range `distribute` end after its first trip: its latch, which
/// adds the stride (the trip count) to the counter and branches back to the header, now
/// branches to the loop's exit. The loop would exit there anyway (`lb0 + trip > ub0`), but
/// left to prove it, the optimiser may keep the loop and hoist the inner loop's rare paths
/// out of it, into every thread's path. Returns whether the loop had clang's shape:
///
/// ```llvm
/// cond:  %c = icmp sle i32 (load %iv), (load %ub) ; br i1 %c, label %body, label %end
/// latch: %next = add nsw i32 (load %iv), (load %st) ; store i32 %next, ptr %iv ; br label %cond
///                                                                         →  br label %end
/// ```
pub(super) fn end_after_one_trip<'ctx>(
    call: InstructionValue<'ctx>,
    plb: PointerValue<'ctx>,
    pstride: PointerValue<'ctx>,
) -> bool {
    let stride = pstride.as_value_ref();
    let Some((add, _)) = increment(call, plb, |step| ir::is_load_of(step, stride)) else {
        return false;
    };
    unsafe {
        let latch = llvm::LLVMGetInstructionParent(add.as_value_ref());
        let back = llvm::LLVMGetBasicBlockTerminator(latch);
        if back.is_null()
            || llvm::LLVMIsABranchInst(back).is_null()
            || llvm::LLVMIsConditional(back) != 0
        {
            return false;
        }
        let [header] = ir::successors(back)[..] else {
            return false;
        };
        let test = llvm::LLVMGetBasicBlockTerminator(header);
        if test.is_null()
            || llvm::LLVMIsABranchInst(test).is_null()
            || llvm::LLVMIsConditional(test) == 0
        {
            return false;
        }
        let body = ir::natural_loop(header, latch);
        let Some(exit) = ir::single_exit(test, &body) else {
            return false;
        };
        llvm::LLVMSetSuccessor(back, 0, exit);
    }
    true
}

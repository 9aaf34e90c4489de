//! Loop iteration mapping: OpenMP's static worksharing runtime calls → GPU index arithmetic.
//!
//! Clang normalises every worksharing loop to `for (iv = lb; iv <= ub; iv += 1)` and asks the
//! runtime for this thread's part:
//!
//! ```llvm
//! store i32 0, ptr %lb ; store i32 %n1, ptr %ub ; store i32 1, ptr %st
//! call void @__kmpc_for_static_init_4(ptr @loc, i32 %gtid, i32 34, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
//! ```
//!
//! This pass replaces the call by the arithmetic the runtime would do, with the level chosen by
//! the schedule: `distribute` schedules (91, 92) split over blocks (`%ctaid.x` of `%nctaid.x`),
//! `for` schedules (33, 34) over the threads of a block (`%tid.x` of `%ntid.x`):
//!
//! ```llvm
//! %lb0 = load i32, ptr %lb
//! %ub0 = load i32, ptr %ub
//! %trip = add (sub %ub0, %lb0), 1
//! %id = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//! %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
//! ; block (34/92):  chunk = ceil(trip / n); [lb0 + id*chunk, min(.. + chunk - 1, ub0)], stride = trip
//! ; cyclic (33/91): [lb0 + id*c, lb0 + id*c + c - 1], stride = n*c
//! store i32 %mylb, ptr %lb ; store i32 %myub, ptr %ub ; store i32 %stride, ptr %st ; store i32 %islast, ptr %last
//! ```
//!
//! After inlining and instcombine the loop is a plain loop over the thread's iterations, with no
//! call left; `schedule(static)` gives each thread a contiguous block, `schedule(static,1)` deals
//! iterations cyclically (adjacent threads touch adjacent elements).
//!
//! A loop with no schedule clause (clang's 34 without the monotonic modifier; the driver marks an
//! explicit `schedule(static)` as `schedule(monotonic: static)`) is dealt cyclically too, as
//! clang's own GPU code generation does, because that coalesces: the thread starts at
//! `lb0 + tid.x` and clang's unit increment of the loop's `.omp.iv` becomes `+ ntid.x`:
//!
//! ```llvm
//! %iv.next = add nsw i32 %iv, 1        →   %iv.next = add i32 %iv, %ntid.x
//! ```
//!
//! When that increment cannot be found the loop keeps the contiguous blocks, which is correct. `__kmpc_dist_for_static_init_*`
//! (distribute and for in one call) splits over blocks first, then over the block's threads.
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir;
use crate::nvvm::{self, SReg};
use crate::openmp::{self, StaticSchedule};
use inkwell::builder::Builder;
use inkwell::module::Module;
use inkwell::types::IntType;
use inkwell::values::{AsValueRef, InstructionValue, IntValue, PointerValue};
use inkwell::IntPredicate;

/// Which `*_static_init_*` entry point a call is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InitKind {
    /// `__kmpc_for_static_init_{4,4u,8,8u}(loc, gtid, sched, plast, plb, pub, pstride, incr, chunk)`
    For,
    /// `__kmpc_distribute_static_init_*` (same arguments; device-style distribute)
    Distribute,
    /// `__kmpc_dist_for_static_init_*(loc, gtid, sched, plast, plb, pub, pupperD, pstride, incr, chunk)`
    DistFor,
}

#[derive(Clone, Copy, Debug)]
struct InitCall {
    kind: InitKind,
    bits: u32,
}

fn classify(name: &str) -> Option<InitCall> {
    let (kind, suffix) = if let Some(s) = name.strip_prefix("__kmpc_for_static_init_") {
        (InitKind::For, s)
    } else if let Some(s) = name.strip_prefix("__kmpc_distribute_static_init_") {
        (InitKind::Distribute, s)
    } else if let Some(s) = name.strip_prefix("__kmpc_dist_for_static_init_") {
        (InitKind::DistFor, s)
    } else {
        return None;
    };
    let bits = match suffix {
        "4" | "4u" => 32,
        "8" | "8u" => 64,
        _ => return None,
    };
    Some(InitCall { kind, bits })
}

/// Rewrites every static-init call of the module. Returns the number of calls mapped.
pub fn map_loops(device: &Module<'_>) -> Result<usize, Diagnostics> {
    let mut diags = Vec::new();
    let mut count = 0;
    for f in device.get_functions() {
        for (call, name) in ir::calls(f) {
            let Some(init) = classify(&name) else { continue };
            match map_one(device, call, init) {
                Ok(()) => count += 1,
                Err(message) => diags.push(Diagnostic { loc: openmp::call_loc(call), message }),
            }
        }
    }
    if diags.is_empty() {
        Ok(count)
    } else {
        Err(Diagnostics(diags))
    }
}

/// One level of the GPU hierarchy a schedule splits over.
#[derive(Clone, Copy)]
enum Level {
    Blocks,
    Threads,
}

impl Level {
    fn regs(self) -> (SReg, SReg) {
        match self {
            Level::Blocks => (SReg::CtaidX, SReg::NctaidX),
            Level::Threads => (SReg::TidX, SReg::NtidX),
        }
    }
}

/// The result of splitting `[lb0, ub0]` over one level.
struct Split<'ctx> {
    lb: IntValue<'ctx>,
    ub: IntValue<'ctx>,
    stride: IntValue<'ctx>,
    last: IntValue<'ctx>,
}

fn map_one<'ctx>(device: &Module<'ctx>, call: InstructionValue<'ctx>, init: InitCall) -> Result<(), String> {
    let raw = |i| ir::call_arg_raw(call, i);
    let sched_value = ir::const_int(raw(2)).ok_or("the loop schedule is not a constant (schedule(runtime) is not supported in target regions)")?;
    let schedule = StaticSchedule::from_kmp(sched_value)
        .ok_or_else(|| format!("ptxcc does not support loop schedule kind {sched_value} in target regions; use schedule(static) or schedule(static, N)"))?;
    let (stride_idx, incr_idx, chunk_idx) = match init.kind {
        InitKind::DistFor => (7, 8, 9),
        _ => (6, 7, 8),
    };
    match ir::const_int(raw(incr_idx)) {
        Some(1) => {}
        _ => return Err("ptxcc expects clang's normalised loops (increment 1) in worksharing calls".into()),
    }
    let ptr = |i: u32| -> Result<PointerValue<'ctx>, String> {
        call.get_operand(i)
            .and_then(|o| o.value())
            .filter(|v| v.is_pointer_value())
            .map(|v| v.into_pointer_value())
            .ok_or_else(|| format!("argument {i} of a worksharing call is not a pointer"))
    };
    let (plast, plb, pub_, pstride) = (ptr(3)?, ptr(4)?, ptr(5)?, ptr(stride_idx)?);
    let chunk_arg = call
        .get_operand(chunk_idx)
        .and_then(|o| o.value())
        .filter(|v| v.is_int_value())
        .map(|v| v.into_int_value())
        .ok_or("the chunk argument of a worksharing call is not an integer")?;

    let ctx = device.get_context();
    let b = ctx.create_builder();
    b.position_before(&call);
    let t = if init.bits == 64 { ctx.i64_type() } else { ctx.i32_type() };
    fn e<T>(r: Result<T, inkwell::builder::BuilderError>) -> Result<T, String> {
        r.map_err(|e| format!("internal error in loop mapping: {e}"))
    }
    let lb0 = e(b.build_load(t, plb, "ptxcc.lb0"))?.into_int_value();
    let ub0 = e(b.build_load(t, pub_, "ptxcc.ub0"))?.into_int_value();
    let chunk = e(b.build_int_cast(chunk_arg, t, "ptxcc.chunk"))?;

    let monotonic = sched_value & MONOTONIC != 0;
    let mut cyclic_used = false;
    let result = match init.kind {
        InitKind::For | InitKind::Distribute => {
            let level = match (init.kind, schedule.is_distribute()) {
                (InitKind::Distribute, _) | (_, true) => Level::Blocks,
                _ => Level::Threads,
            };
            let cyclic_increment = match (level, schedule, monotonic) {
                (Level::Threads, StaticSchedule::Block, false) => unit_increment(call, plb),
                _ => None,
            };
            match cyclic_increment {
                Some(add) => {
                    cyclic_used = true;
                    cyclic(device, &b, t, add, lb0, ub0).map_err(|e| e.to_string())?
                }
                None => split(device, &b, t, level, schedule.is_chunked(), lb0, ub0, chunk).map_err(|e| e.to_string())?,
            }
        }
        InitKind::DistFor => {
            // Blocks take contiguous parts, the block's threads split their part by `schedule`.
            let pupper_d = ptr(6)?;
            let team = split(device, &b, t, Level::Blocks, false, lb0, ub0, chunk).map_err(|e| e.to_string())?;
            e(b.build_store(pupper_d, team.ub))?;
            let inner = split(device, &b, t, Level::Threads, schedule.is_chunked(), team.lb, team.ub, chunk).map_err(|e| e.to_string())?;
            let last = e(b.build_and(team.last, inner.last, "ptxcc.last"))?;
            Split { last, ..inner }
        }
    };
    let what = match (init.kind, schedule.is_distribute(), schedule.is_chunked()) {
        (InitKind::DistFor, _, _) => "'distribute parallel for' iterations → blocks (contiguous), then their threads".to_string(),
        (_, true, false) | (InitKind::Distribute, _, false) => "'distribute' iterations → blocks of the grid, one contiguous part each".to_string(),
        (_, true, true) | (InitKind::Distribute, _, true) => "'distribute' iterations → blocks of the grid in chunks, cyclically".to_string(),
        (_, false, true) => "'for' iterations → threads of a block in chunks, cyclically (schedule(static, n))".to_string(),
        (_, false, false) if cyclic_used => "'for' iterations → threads of a block, cyclically (start tid.x, stride ntid.x): coalesced".to_string(),
        (_, false, false) => "'for' iterations → threads of a block, one contiguous part each (schedule(static))".to_string(),
    };
    crate::remarks::add(device, openmp::call_loc(call).as_ref(), &format!("loop: {what}"));
    e(b.build_store(plb, result.lb))?;
    e(b.build_store(pub_, result.ub))?;
    e(b.build_store(pstride, result.stride))?;
    let last32 = e(b.build_int_z_extend(result.last, ctx.i32_type(), "ptxcc.last32"))?;
    e(b.build_store(plast, last32))?;
    ir::erase(call);
    Ok(())
}

/// The schedule modifier bit clang sets for `schedule(monotonic: ...)` (kmp.h).
const MONOTONIC: i64 = 1 << 29;

/// clang's increment of the loop that a static-init call bounds: the unit `add` stored into the
/// `.omp.iv` slot that the loop starts from `*plb`:
///
/// ```llvm
/// %lb = load i32, ptr %plb ; store i32 %lb, ptr %iv     ; after the call
/// %i = load i32, ptr %iv ; %next = add nsw i32 %i, 1 ; store i32 %next, ptr %iv   ; the latch
/// ```
fn unit_increment<'ctx>(call: InstructionValue<'ctx>, plb: PointerValue<'ctx>) -> Option<InstructionValue<'ctx>> {
    use llvm_sys::core as llvm;
    let fun = call.get_parent()?.get_parent()?.as_value_ref();
    unsafe {
        let in_fun = |i: llvm_sys::prelude::LLVMValueRef| llvm::LLVMGetBasicBlockParent(llvm::LLVMGetInstructionParent(i)) == fun;
        // The iteration-variable slot: where a load of *plb is stored.
        let mut slots: Vec<_> = ir::users(plb.as_value_ref())
            .into_iter()
            .filter(|l| !llvm::LLVMIsALoadInst(*l).is_null() && in_fun(*l))
            .flat_map(|l| ir::users(l).into_iter().filter(move |s| !llvm::LLVMIsAStoreInst(*s).is_null() && llvm::LLVMGetOperand(*s, 0) == l))
            .map(|s| llvm::LLVMGetOperand(s, 1))
            .filter(|slot| !llvm::LLVMIsAAllocaInst(*slot).is_null())
            .collect();
        slots.dedup();
        let [slot] = slots[..] else { return None };
        // Its unit increment: store (add (load slot), 1), slot.
        let mut incs = ir::users(slot).into_iter().filter_map(|s| {
            if llvm::LLVMIsAStoreInst(s).is_null() || llvm::LLVMGetOperand(s, 1) != slot {
                return None;
            }
            let add = llvm::LLVMGetOperand(s, 0);
            if llvm::LLVMIsABinaryOperator(add).is_null() || llvm::LLVMGetInstructionOpcode(add) != llvm_sys::LLVMOpcode::LLVMAdd {
                return None;
            }
            let (x, y) = (llvm::LLVMGetOperand(add, 0), llvm::LLVMGetOperand(add, 1));
            let loads_slot = |v: llvm_sys::prelude::LLVMValueRef| !llvm::LLVMIsALoadInst(v).is_null() && llvm::LLVMGetOperand(v, 0) == slot;
            ((loads_slot(x) && ir::const_int(y) == Some(1)) || (loads_slot(y) && ir::const_int(x) == Some(1))).then_some(add)
        });
        let add = incs.next()?;
        if incs.next().is_some() {
            return None;
        }
        Some(InstructionValue::new(add))
    }
}

/// Cyclic assignment by rewriting the loop's increment: thread `tid` runs lb0+tid, lb0+tid+ntid, …
fn cyclic<'ctx>(
    device: &Module<'ctx>,
    b: &Builder<'ctx>,
    t: IntType<'ctx>,
    add: InstructionValue<'ctx>,
    lb0: IntValue<'ctx>,
    ub0: IntValue<'ctx>,
) -> anyhow::Result<Split<'ctx>> {
    use llvm_sys::core as llvm;
    let id = b.build_int_z_extend_or_bit_cast(nvvm::read_sreg(device, b, SReg::TidX)?, t, "ptxcc.id")?;
    let n = b.build_int_z_extend_or_bit_cast(nvvm::read_sreg(device, b, SReg::NtidX)?, t, "ptxcc.n")?;
    let one = t.const_int(1, false);
    let trip = b.build_int_add(b.build_int_sub(ub0, lb0, "")?, one, "ptxcc.trip")?;
    let lb = b.build_int_add(lb0, id, "ptxcc.lb")?;
    let owner = b.build_int_unsigned_rem(b.build_int_sub(trip, one, "")?, n, "")?;
    let last = b.build_int_compare(IntPredicate::EQ, owner, id, "ptxcc.islast")?;
    // The step: ntid.x, read right before the increment so that it dominates it.
    let ctx = device.get_context();
    let at = ctx.create_builder();
    at.position_before(&add);
    let step = at.build_int_z_extend_or_bit_cast(nvvm::read_sreg(device, &at, SReg::NtidX)?, t, "ptxcc.step")?;
    unsafe {
        let v = add.as_value_ref();
        let idx = if ir::const_int(llvm::LLVMGetOperand(v, 1)) == Some(1) { 1 } else { 0 };
        llvm::LLVMSetOperand(v, idx, step.as_value_ref());
        // iv + ntid may pass the type's maximum on the way out of the loop.
        llvm::LLVMSetNSW(v, 0);
        llvm::LLVMSetNUW(v, 0);
    }
    Ok(Split { lb, ub: ub0, stride: n, last })
}

/// Splits the inclusive range `[lb0, ub0]` (at least one iteration) over `level`.
#[allow(clippy::too_many_arguments)]
fn split<'ctx>(
    device: &Module<'ctx>,
    b: &Builder<'ctx>,
    t: IntType<'ctx>,
    level: Level,
    chunked: bool,
    lb0: IntValue<'ctx>,
    ub0: IntValue<'ctx>,
    chunk: IntValue<'ctx>,
) -> anyhow::Result<Split<'ctx>> {
    let (id_reg, n_reg) = level.regs();
    let id = b.build_int_z_extend_or_bit_cast(nvvm::read_sreg(device, b, id_reg)?, t, "ptxcc.id")?;
    let n = b.build_int_z_extend_or_bit_cast(nvvm::read_sreg(device, b, n_reg)?, t, "ptxcc.n")?;
    let one = t.const_int(1, false);
    let trip = b.build_int_add(b.build_int_sub(ub0, lb0, "")?, one, "ptxcc.trip")?;
    let last_off = b.build_int_sub(trip, one, "")?;
    if chunked {
        // Chunks of `c` iterations dealt round-robin; clang's code loops over them with `stride`
        // and clamps each chunk's upper bound itself.
        let c_ok = b.build_int_compare(IntPredicate::SGT, chunk, t.const_zero(), "")?;
        let c = b.build_select(c_ok, chunk, one, "ptxcc.c")?.into_int_value();
        let off = b.build_int_mul(id, c, "")?;
        let lb = b.build_int_add(lb0, off, "ptxcc.lb")?;
        let ub = b.build_int_add(lb, b.build_int_sub(c, one, "")?, "ptxcc.ub")?;
        let stride = b.build_int_mul(n, c, "ptxcc.stride")?;
        let last_chunk = b.build_int_unsigned_div(last_off, c, "")?;
        let owner = b.build_int_unsigned_rem(last_chunk, n, "")?;
        let last = b.build_int_compare(IntPredicate::EQ, owner, id, "ptxcc.islast")?;
        Ok(Split { lb, ub, stride, last })
    } else {
        // One contiguous block per id: ceil(trip / n) iterations each, the last ones shorter.
        let chunk = b.build_int_add(b.build_int_unsigned_div(last_off, n, "")?, one, "ptxcc.blk")?;
        let off_lb = b.build_int_mul(id, chunk, "")?;
        let off_ub_full = b.build_int_add(off_lb, b.build_int_sub(chunk, one, "")?, "")?;
        let over = b.build_int_compare(IntPredicate::UGT, off_ub_full, last_off, "")?;
        let off_ub = b.build_select(over, last_off, off_ub_full, "")?.into_int_value();
        let empty = b.build_int_compare(IntPredicate::UGE, off_lb, trip, "ptxcc.empty")?;
        let lb_full = b.build_int_add(lb0, off_lb, "")?;
        let ub_full = b.build_int_add(lb0, off_ub, "")?;
        // An id past the end gets [lb0+1, lb0]: empty whatever clang's code compares against.
        let lb = b.build_select(empty, b.build_int_add(lb0, one, "")?, lb_full, "ptxcc.lb")?.into_int_value();
        let ub = b.build_select(empty, lb0, ub_full, "ptxcc.ub")?.into_int_value();
        let ends_last = b.build_int_compare(IntPredicate::EQ, off_ub, last_off, "")?;
        let not_empty = b.build_not(empty, "")?;
        let last = b.build_and(not_empty, ends_last, "ptxcc.islast")?;
        Ok(Split { lb, ub, stride: trip, last })
    }
}

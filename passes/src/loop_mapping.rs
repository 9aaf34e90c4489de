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
//! iterations cyclically (adjacent threads touch adjacent elements). `__kmpc_dist_for_static_init_*`
//! (distribute and for in one call) splits over blocks first, then over the block's threads.
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir;
use crate::nvvm::{self, SReg};
use crate::openmp::{self, StaticSchedule};
use inkwell::builder::Builder;
use inkwell::module::Module;
use inkwell::types::IntType;
use inkwell::values::{InstructionValue, IntValue, PointerValue};
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

    let result = match init.kind {
        InitKind::For | InitKind::Distribute => {
            let level = match (init.kind, schedule.is_distribute()) {
                (InitKind::Distribute, _) | (_, true) => Level::Blocks,
                _ => Level::Threads,
            };
            split(device, &b, t, level, schedule.is_chunked(), lb0, ub0, chunk).map_err(|e| e.to_string())?
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
    e(b.build_store(plb, result.lb))?;
    e(b.build_store(pub_, result.ub))?;
    e(b.build_store(pstride, result.stride))?;
    let last32 = e(b.build_int_z_extend(result.last, ctx.i32_type(), "ptxcc.last32"))?;
    e(b.build_store(plast, last32))?;
    ir::erase(call);
    Ok(())
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

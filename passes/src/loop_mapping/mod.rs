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
//! ; block (34/92):  chunk = ceil(trip / n); [lb0 + id*chunk, min(.. + chunk - 1, ub0)], stride = its length
//! ; cyclic (33/91): [lb0 + id*c, lb0 + id*c + c - 1], stride = n*c
//! store i32 %mylb, ptr %lb ; store i32 %myub, ptr %ub ; store i32 %stride, ptr %st ; store i32 %islast, ptr %last
//! ```
//!
//! After inlining and instcombine the loop is a plain loop over the thread's iterations, with no
//! call left; `schedule(static)` gives each thread a contiguous block, `schedule(static,1)` deals
//! iterations cyclically (adjacent threads touch adjacent elements).
//!
//! A loop with no schedule clause (clang's 34, which is also what an explicit `schedule(static)`
//! gives: the driver lists those in its hints, `driver_hints`, and the monotonic modifier
//! written counts as explicit too) is dealt cyclically too, as
//! clang's own GPU code generation does, because that coalesces: the thread starts at
//! `lb0 + tid.x` and clang's unit increment of the loop's `.omp.iv` becomes `+ ntid.x`:
//!
//! ```llvm
//! %iv.next = add nsw i32 %iv, 1        →   %step = select i1 %nowrap, i32 %ntid.x, i32 1
//!                                           %iv.next = add nsw i32 %iv, %step   ; !llvm.loop unroll.count 4
//! ```
//!
//! `%nowrap` (`ub0 <= INT_MAX - ntid.x`) keeps the `nsw` true: a thread whose last step could
//! wrap takes a contiguous block with a unit step instead. The flag lets LLVM count the loop's
//! trips, and a small flat loop over a block's threads is unrolled four times, as nvcc unrolls
//! grid-stride loops; such a loop over a 64-bit counter then gets a 32-bit copy for the trip
//! counts that fit in an int ([`narrow_iv`]). A loop over the threads of the whole grid gets
//! neither: it runs about one trip per thread ([`one_trip_per_thread`]).
//! When the increment cannot be found the loop keeps the contiguous blocks, which is correct. `__kmpc_dist_for_static_init_*`
//! (distribute and for in one call) splits over blocks first, then over the block's threads.
//!
//! A combined `distribute parallel for` with no schedule clauses is clang's two calls in two
//! functions; [`grid_stride`] pairs them, and the pair becomes one grid-stride loop: every block
//! takes the whole range and the `for` deals it cyclically to the threads of the whole grid
//! (`ctaid.x * ntid.x + tid.x`, step `nctaid.x * ntid.x`), as a hand-written CUDA loop does.
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::driver_hints::DriverHints;
use crate::ir;
use crate::nvvm;
use crate::openmp::{self, StaticSchedule};
use crate::thread_space::Space;
use inkwell::builder::Builder;
use inkwell::module::Module;
use inkwell::types::IntType;
use inkwell::values::{AsValueRef, InstructionValue, IntValue, PointerValue};
use inkwell::IntPredicate;

mod grid_shape;
mod grid_stride;
mod level;
mod narrow_iv;
mod running_quotient;
mod single_trip;
mod warp_tile;

use level::{Ids, Level};

pub use grid_shape::{read_shapes, Shaped, SHAPES_MD};

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
    /// `_4u`/`_8u`: clang's loop compares the iteration variable unsigned.
    unsigned: bool,
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
    let (bits, unsigned) = match suffix {
        "4" => (32, false),
        "4u" => (32, true),
        "8" => (64, false),
        "8u" => (64, true),
        _ => return None,
    };
    Some(InitCall {
        kind,
        bits,
        unsigned,
    })
}

/// Rewrites every static-init call of the module. Returns the number of calls mapped.
pub fn map_loops(device: &Module<'_>) -> Result<usize, Diagnostics> {
    let mut diags = Vec::new();
    let mut count = 0;
    // Decided on clang's calls, before any of them is rewritten.
    let hints = DriverHints::read(device)
        .map_err(|message| Diagnostics(vec![Diagnostic { loc: None, message }]))?;
    let fused = grid_stride::find(device, &hints);
    let mut shaped: std::collections::HashMap<_, Vec<grid_shape::Shaped>> = Default::default();
    for f in device.get_functions() {
        for (call, name) in ir::calls(f) {
            let Some(init) = classify(&name) else {
                continue;
            };
            let role = if let Some(inner) = fused.whole_range.get(&call.as_value_ref()) {
                Role::WholeRange(*inner)
            } else if fused.grid_threads.contains(&call.as_value_ref()) {
                Role::GridThreads {
                    shapeable: fused.shapeable.contains(&call.as_value_ref()),
                }
            } else {
                Role::OwnLevel
            };
            match map_one(device, call, init, role, &hints) {
                Ok(s) => {
                    count += 1;
                    if let Some(s) = s {
                        shaped.entry(f.as_value_ref()).or_default().push(s);
                    }
                }
                Err(message) => diags.push(Diagnostic {
                    loc: openmp::call_loc(call),
                    message,
                }),
            }
        }
    }
    if !diags.is_empty() {
        return Err(Diagnostics(diags));
    }
    grid_shape::linearize_block_ids(device, &shaped).map_err(|e| {
        Diagnostics(vec![Diagnostic {
            loc: None,
            message: format!("internal error in loop mapping: {e}"),
        }])
    })?;
    Ok(count)
}

/// What a worksharing call's level does in the loop nest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Splits its range over its own level, as its schedule says.
    OwnLevel,
    /// A `distribute` fused with its `parallel for` ([`grid_stride`]): each block takes the
    /// whole range, which the inner loop (of that space and signedness) deals to the grid's threads.
    WholeRange(grid_stride::Inner),
    /// The `for` of such a pair: cyclic over the threads of the whole grid; `shapeable` when
    /// it may take its indices from a grid of its shape ([`grid_shape`]).
    GridThreads { shapeable: bool },
}

/// The result of splitting `[lb0, ub0]` over one level.
struct Split<'ctx> {
    lb: IntValue<'ctx>,
    ub: IntValue<'ctx>,
    stride: IntValue<'ctx>,
    last: IntValue<'ctx>,
}

fn map_one<'ctx>(
    device: &Module<'ctx>,
    call: InstructionValue<'ctx>,
    init: InitCall,
    role: Role,
    hints: &DriverHints,
) -> Result<Option<grid_shape::Shaped>, String> {
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
        _ => {
            return Err(
                "ptxcc expects clang's normalised loops (increment 1) in worksharing calls".into(),
            )
        }
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

    // Where clang's counter starts, before this pass stores its own bounds.
    let starts_non_negative = starts_non_negative(call, plb);
    let ctx = device.get_context();
    let b = ctx.create_builder();
    b.position_before(&call);
    let space = call
        .get_parent()
        .and_then(|bb| bb.get_parent())
        .map(Space::of)
        .unwrap_or(Space::Block);
    let t = if init.bits == 64 {
        ctx.i64_type()
    } else {
        ctx.i32_type()
    };
    fn e<T>(r: Result<T, inkwell::builder::BuilderError>) -> Result<T, String> {
        r.map_err(|e| format!("internal error in loop mapping: {e}"))
    }
    let lb0 = e(b.build_load(t, plb, "ptxcc.lb0"))?.into_int_value();
    let ub0 = e(b.build_load(t, pub_, "ptxcc.ub0"))?.into_int_value();
    // A loop split over devices (split_range): this launch runs its part of `[lb0, ub0]`.
    let (lb0, ub0, part_last) = match crate::split_range::marked_global(device, call) {
        Some(g) => {
            let (lb, ub, last) = e(crate::split_range::clamp_to_part(&b, t, g, lb0, ub0))?;
            (lb, ub, Some(last))
        }
        None => (lb0, ub0, None),
    };
    let chunk = e(b.build_int_cast(chunk_arg, t, "ptxcc.chunk"))?;

    let monotonic = explicit_static(call, sched_value, hints);
    let mut cyclic_used = false;
    let mut unrolled = false;
    let mut narrow = None;
    let mut quotient = None;
    let result = match (role, init.kind) {
        (Role::WholeRange(inner), _) => {
            // Its loop runs once: say so, rather than leave the optimiser to prove it.
            grid_stride::end_after_one_trip(call, plb, pstride);
            whole_range(device, &b, t, inner, lb0, ub0).map_err(|e| e.to_string())?
        }
        (_, InitKind::For | InitKind::Distribute) => {
            let level = match (init.kind, schedule.is_distribute(), role) {
                (InitKind::Distribute, _, _) | (_, true, _) => Level::Blocks,
                (_, _, Role::GridThreads { .. }) => Level::Grid(space),
                _ => Level::Threads(space),
            };
            // One thread (a serialised region, a nested region run by its worker alone) takes
            // the whole range as it is: no stride to deal, no grid-stride loop to unroll (its
            // body may hold the barriers of guarded team stores, which unrolling cannot copy).
            let cyclic_increment = match (level, schedule, monotonic) {
                (Level::Threads(Space::Single | Space::Team), _, _) => None,
                (Level::Threads(_) | Level::Grid(_), StaticSchedule::Block, false) => {
                    unit_increment(call, plb)
                }
                _ => None,
            };
            match cyclic_increment {
                Some((add, slot)) => {
                    cyclic_used = true;
                    let (split, unroll, step) =
                        cyclic(device, &b, t, level, init.unsigned, call, add, lb0, ub0)
                            .map_err(|e| e.to_string())?;
                    unrolled = unroll;
                    if init.unsigned || starts_non_negative {
                        quotient = Some(running_quotient::Counter {
                            slot,
                            add: add.as_value_ref(),
                            step: step.as_value_ref(),
                            unsigned: init.unsigned,
                            first: lb0.as_value_ref(),
                            last: ub0.as_value_ref(),
                            one_trip: one_trip_per_thread(level),
                            shape: matches!(role, Role::GridThreads { shapeable: true }),
                        });
                    }
                    if init.bits == 64 && !one_trip_per_thread(level) {
                        narrow = Some(narrow_iv::CyclicLoop {
                            add,
                            slot,
                            level,
                            unsigned: init.unsigned,
                            unroll,
                        });
                    }
                    split
                }
                None => split(device, &b, t, level, schedule.is_chunked(), lb0, ub0, chunk)
                    .map_err(|e| e.to_string())?,
            }
        }
        (_, InitKind::DistFor) => {
            // Blocks take contiguous parts, the block's threads split their part by `schedule`.
            let pupper_d = ptr(6)?;
            let team = split(device, &b, t, Level::Blocks, false, lb0, ub0, chunk)
                .map_err(|e| e.to_string())?;
            e(b.build_store(pupper_d, team.ub))?;
            let inner = split(
                device,
                &b,
                t,
                Level::Threads(space),
                schedule.is_chunked(),
                team.lb,
                team.ub,
                chunk,
            )
            .map_err(|e| e.to_string())?;
            let last = e(b.build_and(team.last, inner.last, "ptxcc.last"))?;
            Split { last, ..inner }
        }
    };
    let result = match part_last {
        Some(part_last) => Split {
            last: e(b.build_and(result.last, part_last, "ptxcc.split.islast"))?,
            ..result
        },
        None => result,
    };
    let loc = openmp::call_loc(call);
    e(b.build_store(plb, result.lb))?;
    e(b.build_store(pub_, result.ub))?;
    e(b.build_store(pstride, result.stride))?;
    let last32 = e(b.build_int_z_extend(result.last, ctx.i32_type(), "ptxcc.last32"))?;
    e(b.build_store(plast, last32))?;
    ir::erase(call);
    // After the call is gone: the rewrites want the slots used by loads and stores only.
    let reduced = match &quotient {
        Some(c) => Some(
            unsafe { running_quotient::reduce(c) }
                .map_err(|e| format!("internal error in loop mapping: {e}"))?,
        ),
        None => None,
    };
    let divisions = reduced.as_ref().map_or(0, |r| r.divisions);
    let once = reduced.as_ref().is_some_and(|r| r.once);
    let shaped = reduced.as_ref().and_then(|r| r.shaped.clone());
    let tile = reduced.and_then(|r| r.tile);
    let narrowed = match narrow {
        Some(l) => narrow_iv::version(device, &l)
            .map_err(|e| format!("internal error in loop mapping: {e}"))?,
        None => false,
    };
    let dealt_to = match role {
        Role::GridThreads { .. } => Level::Grid(space),
        _ => Level::Threads(space),
    };
    let what = match (init.kind, schedule.is_distribute(), schedule.is_chunked()) {
        _ if matches!(role, Role::WholeRange(_)) => "'distribute' iterations → the whole range in every block, dealt to the grid's threads by its 'parallel for' (grid-stride loop)".to_string(),
        (InitKind::DistFor, _, _) => "'distribute parallel for' iterations → blocks (contiguous), then their threads".to_string(),
        (_, true, false) | (InitKind::Distribute, _, false) => "'distribute' iterations → blocks of the grid, one contiguous part each".to_string(),
        (_, true, true) | (InitKind::Distribute, _, true) => "'distribute' iterations → blocks of the grid in chunks, cyclically".to_string(),
        (_, false, true) => format!("'for' iterations → {} in chunks, cyclically (schedule(static, n))", space.describe()),
        (_, false, false) if cyclic_used => format!(
            "'for' iterations → {}, cyclically (start {}, stride {}): coalesced{}{}{}{}{}{}",
            dealt_to.describe(),
            dealt_to.id_name(),
            dealt_to.count_name(),
            if unrolled {
                format!(", unrolled {UNROLL}x")
            } else if one_trip_per_thread(dealt_to) {
                ", not unrolled (about one iteration per thread)".to_string()
            } else {
                String::new()
            },
            match divisions {
                0 => String::new(),
                1 => "; its division of the counter (collapse) is a running quotient".to_string(),
                n => format!("; its {n} divisions of the counter (collapse) are running quotients"),
            },
            match &tile {
                Some(t) => format!(
                    "; a warp takes {}x{} (j x i) iterations when the extents allow ({} sectors a warp for its accesses, {} along one row)",
                    t.tile.cols, t.tile.rows, t.sectors, t.row_sectors
                ),
                None => String::new(),
            },
            if once { "; a copy without the steps for threads that run one iteration" } else { "" },
            match shaped.as_ref().map(|s| s.divisors.len()) {
                Some(1) => "; its indices come from a grid of its shape (x: the inner loop, y: the outer) when the launch has its extents",
                Some(_) => "; its indices come from a grid of its shape (x: the inner loop, y: the middle, z: the outer) when the launch has its extents",
                None => "",
            },
            if narrowed { "; 64-bit counter: 32-bit copy of the loop when its bounds fit in an int" } else { "" }
        ),
        (_, false, false) => format!("'for' iterations → {}, one contiguous part each (schedule(static))", dealt_to.describe()),
    };
    crate::remarks::add(device, loc.as_ref(), &format!("loop: {what}"));
    Ok(shaped)
}

/// The block's part of a `distribute` fused into a grid-stride loop: the whole range
/// `[lb0, ub0]`, with the trip count as stride (clang's `distribute` loop runs once). The
/// last-iteration flag says whether the block holds the thread that runs the last iteration
/// (see [`grid_last_block`]); `inner` is the fused `for`'s thread space and signedness.
fn whole_range<'ctx>(
    device: &Module<'ctx>,
    b: &Builder<'ctx>,
    t: IntType<'ctx>,
    inner: grid_stride::Inner,
    lb0: IntValue<'ctx>,
    ub0: IntValue<'ctx>,
) -> anyhow::Result<Split<'ctx>> {
    let trip = b.build_int_add(
        b.build_int_sub(ub0, lb0, "")?,
        t.const_int(1, false),
        "ptxcc.trip",
    )?;
    let last = grid_last_block(device, b, t, inner.space, inner.unsigned, lb0, ub0)?;
    Ok(Split {
        lb: lb0,
        ub: ub0,
        stride: trip,
        last,
    })
}

/// Gives an idle thread (see [`Ids::idle`]) the empty part `[lb0 + 1, lb0]` (the form
/// `contiguous` uses), which ends clang's loop, and its chunk loop, before the first iteration.
fn without_idle<'ctx>(
    b: &Builder<'ctx>,
    t: IntType<'ctx>,
    idle: Option<IntValue<'ctx>>,
    lb0: IntValue<'ctx>,
    part: Split<'ctx>,
) -> anyhow::Result<Split<'ctx>> {
    let Some(idle) = idle else { return Ok(part) };
    let lb = b
        .build_select(
            idle,
            b.build_int_add(lb0, t.const_int(1, false), "")?,
            part.lb,
            "ptxcc.lb",
        )?
        .into_int_value();
    let ub = b
        .build_select(idle, lb0, part.ub, "ptxcc.ub")?
        .into_int_value();
    let last = b.build_and(part.last, b.build_not(idle, "")?, "ptxcc.islast")?;
    Ok(Split {
        lb,
        ub,
        last,
        ..part
    })
}

/// Whether the counter of the loop a static-init call bounds starts at zero or above: clang
/// stores a constant into `*plb` before the call (0 for its normalised loops), or the
/// `prev.lb` of a combined construct, a lower bound the `distribute` level handed out.
fn starts_non_negative(call: InstructionValue<'_>, plb: PointerValue<'_>) -> bool {
    let Some(f) = call.get_parent().and_then(|bb| bb.get_parent()) else {
        return false;
    };
    let params: Vec<_> = f.get_param_iter().map(|p| p.as_value_ref()).collect();
    match unsafe { grid_stride::last_store_before(call, plb.as_value_ref()) } {
        Some(v) => {
            ir::const_int(v).is_some_and(|k| k >= 0)
                || ir::param_behind(v, &params) == Some(grid_stride::PREV_LB)
        }
        None => false,
    }
}

/// The schedule modifier bit clang sets for `schedule(monotonic: ...)` (kmp.h).
const MONOTONIC: i64 = 1 << 29;

/// Whether the worksharing `call` (schedule `sched`) has an explicit static schedule: the
/// monotonic modifier written (static is monotonic anyway), or an explicit `schedule(static)`
/// at its directive, which the driver lists in its hints (clang's IR is the same as with no
/// schedule clause).
fn explicit_static(call: InstructionValue<'_>, sched: i64, hints: &DriverHints) -> bool {
    sched & MONOTONIC != 0 || openmp::call_loc(call).is_some_and(|l| hints.explicit_schedule(&l))
}

/// clang's increment of the loop that a static-init call bounds: the unit `add` stored into the
/// `.omp.iv` slot that the loop starts from `*plb`:
///
/// ```llvm
/// %lb = load i32, ptr %plb ; store i32 %lb, ptr %iv     ; after the call
/// %i = load i32, ptr %iv ; %next = add nsw i32 %i, 1 ; store i32 %next, ptr %iv   ; the latch
/// ```
fn unit_increment<'ctx>(
    call: InstructionValue<'ctx>,
    plb: PointerValue<'ctx>,
) -> Option<(InstructionValue<'ctx>, llvm_sys::prelude::LLVMValueRef)> {
    increment(call, plb, |step| ir::const_int(step) == Some(1))
}

/// The increment of the loop that a static-init call bounds, `store (add (load slot), step), slot`
/// for the `.omp.iv` slot the loop starts from `*plb`, whose `step` satisfies `is_step`; None
/// unless there is exactly one.
fn increment<'ctx>(
    call: InstructionValue<'ctx>,
    plb: PointerValue<'ctx>,
    is_step: impl Fn(llvm_sys::prelude::LLVMValueRef) -> bool,
) -> Option<(InstructionValue<'ctx>, llvm_sys::prelude::LLVMValueRef)> {
    use llvm_sys::core as llvm;
    let fun = call.get_parent()?.get_parent()?.as_value_ref();
    unsafe {
        let in_fun = |i: llvm_sys::prelude::LLVMValueRef| {
            llvm::LLVMGetBasicBlockParent(llvm::LLVMGetInstructionParent(i)) == fun
        };
        // The iteration-variable slot: where a load of *plb is stored.
        let mut slots: Vec<_> = ir::users(plb.as_value_ref())
            .into_iter()
            .filter(|l| !llvm::LLVMIsALoadInst(*l).is_null() && in_fun(*l))
            .flat_map(|l| {
                ir::users(l).into_iter().filter(move |s| {
                    !llvm::LLVMIsAStoreInst(*s).is_null() && llvm::LLVMGetOperand(*s, 0) == l
                })
            })
            .map(|s| llvm::LLVMGetOperand(s, 1))
            .filter(|slot| !llvm::LLVMIsAAllocaInst(*slot).is_null())
            .collect();
        slots.dedup();
        let [slot] = slots[..] else { return None };
        // Its increment: store (add (load slot), step), slot.
        let mut incs = ir::users(slot).into_iter().filter_map(|s| {
            if llvm::LLVMIsAStoreInst(s).is_null() || llvm::LLVMGetOperand(s, 1) != slot {
                return None;
            }
            let add = llvm::LLVMGetOperand(s, 0);
            if llvm::LLVMIsABinaryOperator(add).is_null()
                || llvm::LLVMGetInstructionOpcode(add) != llvm_sys::LLVMOpcode::LLVMAdd
            {
                return None;
            }
            let (x, y) = (llvm::LLVMGetOperand(add, 0), llvm::LLVMGetOperand(add, 1));
            let loads_slot = |v: llvm_sys::prelude::LLVMValueRef| {
                !llvm::LLVMIsALoadInst(v).is_null() && llvm::LLVMGetOperand(v, 0) == slot
            };
            ((loads_slot(x) && is_step(y)) || (loads_slot(y) && is_step(x))).then_some(add)
        });
        let add = incs.next()?;
        if incs.next().is_some() {
            return None;
        }
        Some((InstructionValue::new(add), slot))
    }
}

/// Cyclic assignment by rewriting the loop's increment: thread `tid` runs lb0+tid, lb0+tid+ntid, …
///
/// The new increment keeps a no-wrap flag (`nsw`, or `nuw` for clang's unsigned loops), which is
/// what lets scalar evolution count the thread's trips, and so the loop be unrolled (see
/// [`UNROLL`]). It holds because the last step is taken only while `iv <= ub0`: when `ub0 + ntid`
/// would pass the type's maximum (an `int` loop within ntid iterations of 2^31) the threads fall
/// back to contiguous parts with a unit step instead, which cannot wrap either. That rare case
/// must not cost the common one a division, so its parts come from a shift (the largest power
/// of two d <= ntid.x threads take ceil(trip / d) iterations each), and it is computed on a
/// branch of its own, marked unlikely, that joins the common one in phis:
///
/// ```llvm
/// entry:        %ptxcc.nowrap = icmp sle i32 %ub0, (sub INT_MAX, %n) ; %cyc = add %lb0, %id
///               br i1 %ptxcc.nowrap, label %ptxcc.dealt, label %ptxcc.contiguous, !prof (2000:1)
/// ptxcc.contiguous: ... ; br label %ptxcc.dealt
/// ptxcc.dealt:  %lb = phi [ %cyc, %entry ], [ %part.lb, %ptxcc.contiguous ] ; ... the rest of the block
/// ```
///
/// `level` is the block's threads (or workers, lanes) or, for a fused `distribute parallel
/// for` ([`grid_stride`]), every thread of the grid.
#[allow(clippy::too_many_arguments)]
fn cyclic<'ctx>(
    device: &Module<'ctx>,
    b: &Builder<'ctx>,
    t: IntType<'ctx>,
    level: Level,
    unsigned: bool,
    at_call: InstructionValue<'ctx>,
    add: InstructionValue<'ctx>,
    lb0: IntValue<'ctx>,
    ub0: IntValue<'ctx>,
) -> anyhow::Result<(Split<'ctx>, bool, IntValue<'ctx>)> {
    use llvm_sys::core as llvm;
    let Position {
        id,
        n,
        trip,
        last_off,
        idle,
    } = position(device, b, t, level, lb0, ub0)?;
    let one = t.const_int(1, false);
    let owner = b.build_int_unsigned_rem(last_off, n, "")?;
    let cyc_last = b.build_int_compare(IntPredicate::EQ, owner, id, "")?;
    let nowrap = no_wrap(b, t, unsigned, ub0, n)?;
    let fast = Split {
        lb: b.build_int_add(lb0, id, "")?,
        ub: ub0,
        stride: n,
        last: cyc_last,
    };
    // The fallback, on a branch of its own so that the common case does not compute it:
    // contiguous parts with no division, the largest power of two d <= n threads taking
    // ceil(trip / d) iterations each.
    let ctx = device.get_context();
    let head = ir::split_before(at_call, c"ptxcc.dealt")?;
    let rest = at_call
        .get_parent()
        .ok_or_else(|| anyhow::anyhow!("the call left its block"))?;
    let fallback = ctx.insert_basic_block_after(basic_block(head)?, "ptxcc.contiguous");
    b.position_at_end(basic_block(head)?);
    let br = b.build_conditional_branch(nowrap, rest, fallback)?;
    ir::set_branch_likely_taken(br.as_value_ref());
    b.position_at_end(fallback);
    let Parts { parts, len: blk } = fallback_parts(device, b, t, n, last_off)?;
    let block = contiguous(b, t, id, Some(parts), lb0, trip, blk)?;
    b.build_unconditional_branch(rest)?;
    b.position_before(&at_call);
    // The phis go before the call's debug records too (a phi cannot carry any).
    let phis = ctx.create_builder();
    unsafe {
        llvm::LLVMPositionBuilderBeforeInstrAndDbgRecords(phis.as_mut_ptr(), at_call.as_value_ref())
    };
    let join =
        |a: IntValue<'ctx>, c: IntValue<'ctx>, name: &str| -> anyhow::Result<IntValue<'ctx>> {
            let name = std::ffi::CString::new(name)?;
            unsafe {
                let phi = llvm::LLVMBuildPhi(
                    phis.as_mut_ptr(),
                    inkwell::types::AsTypeRef::as_type_ref(&a.get_type()),
                    name.as_ptr(),
                );
                let mut values = [a.as_value_ref(), c.as_value_ref()];
                let mut blocks = [head, fallback.as_mut_ptr()];
                llvm::LLVMAddIncoming(phi, values.as_mut_ptr(), blocks.as_mut_ptr(), 2);
                Ok(IntValue::new(phi))
            }
        };
    let lb = join(fast.lb, block.lb, "ptxcc.lb")?;
    let ub = join(fast.ub, block.ub, "ptxcc.ub")?;
    let last = join(fast.last, block.last, "ptxcc.islast")?;
    let stride = join(fast.stride, block.stride, "ptxcc.stride")?;
    // The step, computed right before the increment so that it dominates it.
    let at = ctx.create_builder();
    at.position_before(&add);
    let n_at = level.count(device, &at, t)?;
    let step = at
        .build_select(nowrap, n_at, one, "ptxcc.step")?
        .into_int_value();
    unsafe {
        let v = add.as_value_ref();
        let idx = if ir::const_int(llvm::LLVMGetOperand(v, 1)) == Some(1) {
            1
        } else {
            0
        };
        llvm::LLVMSetOperand(v, idx, step.as_value_ref());
        llvm::LLVMSetNSW(v, (!unsigned) as i32);
        llvm::LLVMSetNUW(v, unsigned as i32);
    }
    let latch = add.get_parent().and_then(|bb| bb.get_terminator());
    // A grid-stride loop runs about once per thread (see [`one_trip_per_thread`]): unrolled, it
    // would count its trips (a division by the step) to run a remainder loop of one trip.
    let grid = one_trip_per_thread(level);
    let unroll = !grid && latch.is_some_and(unroll_worthwhile);
    match latch {
        Some(latch) if unroll => ir::set_loop_unroll_count(latch.as_value_ref(), UNROLL),
        Some(latch) if grid => ir::set_loop_unroll(latch.as_value_ref(), None),
        _ => {}
    }
    // The step once more, before the loop, for the rewrites that need it there.
    let step_before = b
        .build_select(nowrap, n, one, "ptxcc.step0")?
        .into_int_value();
    Ok((
        without_idle(
            b,
            t,
            idle,
            lb0,
            Split {
                lb,
                ub,
                stride,
                last,
            },
        )?,
        unroll,
        step_before,
    ))
}

/// Whether a cyclic step of `n` from an iteration `<= ub0` stays within the loop type.
fn no_wrap<'ctx>(
    b: &Builder<'ctx>,
    t: IntType<'ctx>,
    unsigned: bool,
    ub0: IntValue<'ctx>,
    n: IntValue<'ctx>,
) -> anyhow::Result<IntValue<'ctx>> {
    let (max, pred) = if unsigned {
        (t.const_all_ones(), IntPredicate::ULE)
    } else {
        (
            t.const_int(u64::MAX >> (65 - t.get_bit_width()), false),
            IntPredicate::SLE,
        )
    };
    Ok(b.build_int_compare(pred, ub0, b.build_int_sub(max, n, "")?, "ptxcc.nowrap")?)
}

/// The contiguous parts of the cyclic mapping's fallback: the largest power of two
/// `parts <= n` of them, `len = (last_off >> log2(parts)) + 1` iterations each (no division).
struct Parts<'ctx> {
    parts: IntValue<'ctx>,
    len: IntValue<'ctx>,
}

fn fallback_parts<'ctx>(
    device: &Module<'ctx>,
    b: &Builder<'ctx>,
    t: IntType<'ctx>,
    n: IntValue<'ctx>,
    last_off: IntValue<'ctx>,
) -> anyhow::Result<Parts<'ctx>> {
    let one = t.const_int(1, false);
    let ctlz = inkwell::intrinsics::Intrinsic::find("llvm.ctlz")
        .ok_or_else(|| anyhow::anyhow!("llvm.ctlz missing"))?;
    let ctlz = ctlz
        .get_declaration(device, &[t.into()])
        .ok_or_else(|| anyhow::anyhow!("llvm.ctlz declaration"))?;
    let lz = b.build_call(
        ctlz,
        &[
            n.into(),
            device.get_context().bool_type().const_int(1, false).into(),
        ],
        "",
    )?;
    let lz = lz
        .try_as_basic_value()
        .basic()
        .ok_or_else(|| anyhow::anyhow!("llvm.ctlz returns no value"))?
        .into_int_value();
    let log2 = b.build_int_sub(t.const_int(t.get_bit_width() as u64 - 1, false), lz, "")?;
    let parts = b.build_left_shift(one, log2, "ptxcc.parts")?;
    let len = b.build_int_add(b.build_right_shift(last_off, log2, false, "")?, one, "")?;
    Ok(Parts { parts, len })
}

/// Whether this block holds the thread that runs the last iteration of `[lb0, ub0]` when a
/// fused `for` in `space` deals it to the grid ([`cyclic`] over `Level::Grid(space)`): thread
/// `last_off % n` when the step cannot wrap, else the owner of the fallback's last part,
/// `last_off / len`. Its block is that thread's index over the block's count. The divisions
/// run only where a `lastprivate` (or `simd`'s final counter) reads the flag; otherwise the
/// optimiser drops them with the flag.
fn grid_last_block<'ctx>(
    device: &Module<'ctx>,
    b: &Builder<'ctx>,
    t: IntType<'ctx>,
    space: Space,
    unsigned: bool,
    lb0: IntValue<'ctx>,
    ub0: IntValue<'ctx>,
) -> anyhow::Result<IntValue<'ctx>> {
    let Position { n, last_off, .. } = position(device, b, t, Level::Grid(space), lb0, ub0)?;
    let nowrap = no_wrap(b, t, unsigned, ub0, n)?;
    let cyclic_owner = b.build_int_unsigned_rem(last_off, n, "")?;
    let Parts { len, .. } = fallback_parts(device, b, t, n, last_off)?;
    let part_owner = b.build_int_unsigned_div(last_off, len, "")?;
    let owner = b
        .build_select(nowrap, cyclic_owner, part_owner, "ptxcc.owner")?
        .into_int_value();
    let per_block = Level::Threads(space).count(device, b, t)?;
    let ctaid =
        b.build_int_z_extend_or_bit_cast(nvvm::read_sreg(device, b, nvvm::SReg::CtaidX)?, t, "")?;
    Ok(b.build_int_compare(
        IntPredicate::EQ,
        b.build_int_unsigned_div(owner, per_block, "")?,
        ctaid,
        "ptxcc.islast",
    )?)
}

fn basic_block<'ctx>(
    bb: llvm_sys::prelude::LLVMBasicBlockRef,
) -> anyhow::Result<inkwell::basic_block::BasicBlock<'ctx>> {
    unsafe { inkwell::basic_block::BasicBlock::new(bb) }.ok_or_else(|| anyhow::anyhow!("no block"))
}

/// Whether a cyclic loop at `level` usually runs one trip per thread: a grid-stride loop
/// ([`grid_stride`]), whose grid the runtime sizes from the trip count (one iteration per
/// thread, up to one wave of resident blocks). Such a loop is neither unrolled nor given a
/// 32-bit copy ([`narrow_iv`]): both pay once per thread (the unroller's trip count is a
/// division by the step, the copy's guard compares both bounds with INT_MAX) for savings per
/// extra trip, which the thread rarely makes. On ptxsim (saxpy, class S: 2^18 floats, one
/// element per thread) that is 69 → 39 PTX instructions per thread; nvcc's `if (i < n)` kernel
/// runs 22.
fn one_trip_per_thread(level: Level) -> bool {
    matches!(level, Level::Grid(_))
}

/// How many iterations of a cyclic thread loop one trip runs, as nvcc does for grid-stride
/// loops: the loads of four iterations are issued before the first of them is used, so a
/// thread covers memory latency with a quarter of the occupancy. LLVM adds the remainder loop.
pub const UNROLL: u32 = 4;

/// The body sizes up to which a cyclic thread loop is unrolled: a loop with an inner loop or a
/// call gains nothing from it, a long body only registers. Counted on clang's unoptimised IR, where
/// most instructions are loads and stores of locals that mem2reg removes.
const UNROLL_MAX_INSTRUCTIONS: usize = 160;

/// Whether the loop whose back edge is `latch` (clang's `br label %cond`) is small and flat.
fn unroll_worthwhile(latch: InstructionValue<'_>) -> bool {
    use llvm_sys::core as llvm;
    let latch = latch.as_value_ref();
    unsafe {
        let [header] = ir::successors(latch)[..] else {
            return false;
        };
        let body = ir::natural_loop(header, llvm::LLVMGetInstructionParent(latch));
        let mut count = 0;
        for &bb in &body {
            let mut inst = llvm::LLVMGetFirstInstruction(bb);
            while !inst.is_null() {
                count += 1;
                // Any call but an intrinsic (an indirect call has no callee name).
                if !llvm::LLVMIsACallInst(inst).is_null()
                    && !ir::callee_name(InstructionValue::new(inst))
                        .is_some_and(|n| n.starts_with("llvm."))
                {
                    return false;
                }
                inst = llvm::LLVMGetNextInstruction(inst);
            }
            // A branch to an earlier block of the body other than from the latch: an inner loop.
            let term = llvm::LLVMGetBasicBlockTerminator(bb);
            if term != latch
                && ir::successors(term)
                    .iter()
                    .any(|t| body.contains(t) && (*t == bb || ir::precedes(*t, bb)))
            {
                return false;
            }
        }
        count <= UNROLL_MAX_INSTRUCTIONS
    }
}

/// Where this thread stands in a split of `[lb0, ub0]` over a level, in the loop's type.
struct Position<'ctx> {
    /// This thread's index at the level, and the number of indices.
    id: IntValue<'ctx>,
    n: IntValue<'ctx>,
    /// The range's trip count, and that minus one (the offset of its last iteration).
    trip: IntValue<'ctx>,
    last_off: IntValue<'ctx>,
    /// See [`Ids::idle`].
    idle: Option<IntValue<'ctx>>,
}

fn position<'ctx>(
    device: &Module<'ctx>,
    b: &Builder<'ctx>,
    t: IntType<'ctx>,
    level: Level,
    lb0: IntValue<'ctx>,
    ub0: IntValue<'ctx>,
) -> anyhow::Result<Position<'ctx>> {
    let Ids { id, count: n, idle } = level.ids(device, b, t)?;
    let one = t.const_int(1, false);
    let trip = b.build_int_add(b.build_int_sub(ub0, lb0, "")?, one, "ptxcc.trip")?;
    let last_off = b.build_int_sub(trip, one, "")?;
    Ok(Position {
        id,
        n,
        trip,
        last_off,
        idle,
    })
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
    let Position {
        id,
        n,
        trip,
        last_off,
        idle,
    } = position(device, b, t, level, lb0, ub0)?;
    let one = t.const_int(1, false);
    let part = if chunked {
        // Chunks of `c` iterations dealt round-robin; clang's code loops over them with `stride`
        // and clamps each chunk's upper bound itself.
        let c_ok = b.build_int_compare(IntPredicate::SGT, chunk, t.const_zero(), "")?;
        let c = b
            .build_select(c_ok, chunk, one, "ptxcc.c")?
            .into_int_value();
        let off = b.build_int_mul(id, c, "")?;
        let lb = b.build_int_add(lb0, off, "ptxcc.lb")?;
        let ub = b.build_int_add(lb, b.build_int_sub(c, one, "")?, "ptxcc.ub")?;
        let stride = b.build_int_mul(n, c, "ptxcc.stride")?;
        let last_chunk = b.build_int_unsigned_div(last_off, c, "")?;
        let owner = b.build_int_unsigned_rem(last_chunk, n, "")?;
        let last = b.build_int_compare(IntPredicate::EQ, owner, id, "ptxcc.islast")?;
        Split {
            lb,
            ub,
            stride,
            last,
        }
    } else {
        // One contiguous block per id: ceil(trip / n) iterations each, the last ones shorter.
        let chunk =
            b.build_int_add(b.build_int_unsigned_div(last_off, n, "")?, one, "ptxcc.blk")?;
        contiguous(b, t, id, None, lb0, trip, chunk)?
    };
    without_idle(b, t, idle, lb0, part)
}

/// Part `id` of `[lb0, lb0 + trip)` cut into parts of `chunk` iterations (the last one shorter,
/// ids past the end empty), with no intermediate value that can wrap: `id * chunk` stays below
/// `trip + chunk`, and the part's end is its start plus `min(chunk - 1, iterations left)`.
/// `parts`, when given, makes the ids from it on empty (their `id * chunk` is not used).
fn contiguous<'ctx>(
    b: &Builder<'ctx>,
    t: IntType<'ctx>,
    id: IntValue<'ctx>,
    parts: Option<IntValue<'ctx>>,
    lb0: IntValue<'ctx>,
    trip: IntValue<'ctx>,
    chunk: IntValue<'ctx>,
) -> anyhow::Result<Split<'ctx>> {
    let one = t.const_int(1, false);
    let last_off = b.build_int_sub(trip, one, "")?;
    let off_lb = b.build_int_mul(id, chunk, "")?;
    let mut empty = b.build_int_compare(IntPredicate::UGE, off_lb, trip, "")?;
    if let Some(parts) = parts {
        let outside = b.build_int_compare(IntPredicate::UGE, id, parts, "")?;
        empty = b.build_or(empty, outside, "")?;
    }
    empty.set_name("ptxcc.empty");
    let left = b.build_int_sub(last_off, off_lb, "")?;
    let len_m1 = b.build_int_sub(chunk, one, "")?;
    let shorter = b.build_int_compare(IntPredicate::ULT, left, len_m1, "")?;
    let off_ub = b.build_int_add(
        off_lb,
        b.build_select(shorter, left, len_m1, "")?.into_int_value(),
        "",
    )?;
    let lb_full = b.build_int_add(lb0, off_lb, "")?;
    let ub_full = b.build_int_add(lb0, off_ub, "")?;
    // An id past the end gets [lb0+1, lb0]: empty whatever clang's code compares against.
    let lb = b
        .build_select(empty, b.build_int_add(lb0, one, "")?, lb_full, "ptxcc.lb")?
        .into_int_value();
    let ub = b
        .build_select(empty, lb0, ub_full, "ptxcc.ub")?
        .into_int_value();
    let ends_last = b.build_int_compare(IntPredicate::EQ, off_ub, last_off, "")?;
    let not_empty = b.build_not(empty, "")?;
    let last = b.build_and(not_empty, ends_last, "ptxcc.islast")?;
    // The stride takes a `distribute` loop (`iv += stride`) just past this id's part: its
    // length, not the trip count, so that `lb + stride` stays within the type (a trip count
    // over half the type's range would wrap and run the part again).
    let stride = b.build_int_add(b.build_int_sub(ub, lb, "")?, one, "ptxcc.len")?;
    Ok(Split {
        lb,
        ub,
        stride,
        last,
    })
}

//! Divisions of a cyclic loop's counter by a loop invariant become a running quotient.
//!
//! A `collapse(2)` loop recovers its indices from the one counter clang gives it, with a
//! division in every iteration (`i = iv / m`, `j = iv - i * m`), a 64-bit one for `long`
//! bounds: dozens of GPU instructions where the body has a handful (nvcc's versions of the same
//! stencils use a 2-D grid and divide nothing). The counter of a loop that [`super::cyclic`]
//! mapped steps by a fixed `step` from a start `lb >= 0`, so the quotient and the remainder can
//! follow it instead, with one division each before the loop:
//!
//! ```llvm
//! pre:    ...                               pre:   %m = <the divisor, recomputed>   ; m' = m > 0 ? m : 1
//!                                                  %q0 = udiv lb, m' ; %r0 = urem lb, m'
//!                                                  %sq = udiv step, m' ; %sr = urem step, m'
//! body:   %i = sdiv i64 (load %iv), %m  →   body:  %i = load i64, ptr %ptxcc.quot
//!         %j = sub (load %iv), (mul %i, %m)        %j = load i64, ptr %ptxcc.rem
//! latch:  store %next, ptr %iv              latch: store %next, ptr %iv
//!                                                  %r = r + sr ; %wrap = r >= m' ; r -= wrap ? m' : 0
//!                                                  %q = q + sq + wrap
//! ```
//!
//! clang's `j = iv - i * m` reads the running remainder instead. The divisor may be any expression of
//! constants, arguments, values from before the loop and stack slots the loop does not write
//! (clang reloads the captured trip count each time), with divisions only by non-zero constants;
//! it is recomputed before the loop. When it is not positive the loop has no iteration (clang
//! tests every collapsed trip count first), and the `1` only keeps the division before the loop
//! defined. `r + sr < 2 m'` fits in the unsigned type, so one correction per step is enough.
use super::grid_shape;
use super::single_trip;
use super::warp_tile::{self, Choice, Tile};
use crate::ir;
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMBuilderRef, LLVMValueRef};
use llvm_sys::{LLVMIntPredicate, LLVMOpcode};
use std::collections::HashMap;

/// The loop as [`super::cyclic`] left it.
pub(super) struct Counter {
    /// The `.omp.iv` stack slot.
    pub slot: LLVMValueRef,
    /// Its increment `add (load slot), %step`, in the latch.
    pub add: LLVMValueRef,
    /// The step, built before the loop (the latch's own copy is computed in the latch).
    pub step: LLVMValueRef,
    /// The divisions to replace: `udiv` for clang's unsigned loops, `sdiv` for signed ones
    /// (whose counter the caller knows starts at zero or above, so that both agree).
    pub unsigned: bool,
    /// The first and the last counter of the whole loop (every thread's together), before the
    /// loop: a warp tile ([`super::warp_tile`]) needs whole tiles of rows in it.
    pub first: LLVMValueRef,
    pub last: LLVMValueRef,
    /// The grid is sized for about one iteration per thread ([`super::one_trip_per_thread`]):
    /// the loop gets a copy for the threads that run it once ([`single_trip`]).
    pub one_trip: bool,
    /// The loop deals its counters to the threads of the whole grid and nothing reads which
    /// thread ran the last one: a grid of the loop's shape may give its indices ([`grid_shape`]).
    pub shape: bool,
}

/// What [`reduce`] did.
pub(super) struct Reduced {
    /// Divisions replaced.
    pub divisions: usize,
    /// The warp tile the counters are numbered in (when its rows fit, checked at run time).
    pub tile: Option<Choice>,
    /// The loop got a copy for the threads that run it once ([`single_trip`]).
    pub once: bool,
    /// The loop reads its indices from a grid of its shape when the launch gives one.
    pub shaped: Option<grid_shape::Shaped>,
}

/// Replaces the loop's divisions of its counter; returns how many.
///
/// # Safety
/// `c` must describe a loop of a function in clang's unoptimised form whose counter never
/// goes below zero.
pub(super) unsafe fn reduce(c: &Counter) -> anyhow::Result<Reduced> {
    let none = Reduced {
        divisions: 0,
        tile: None,
        once: false,
        shaped: None,
    };
    let latch = llvm::LLVMGetInstructionParent(c.add);
    let [header] = ir::successors(llvm::LLVMGetBasicBlockTerminator(latch))[..] else {
        return Ok(none);
    };
    let body = ir::natural_loop(header, latch);
    let outside: Vec<LLVMBasicBlockRef> = ir::predecessors(header)
        .into_iter()
        .filter(|p| !body.contains(p))
        .collect();
    let [preheader] = outside[..] else {
        return Ok(none);
    };
    let Some(store) = ir::users(c.add)
        .into_iter()
        .find(|u| ir::is_store_to(*u, c.slot) && llvm::LLVMGetInstructionParent(*u) == latch)
    else {
        return Ok(none);
    };
    if !ir::private_slot(c.slot) {
        return Ok(none);
    }
    let groups = division_groups(c, c.slot, &body);
    if groups.is_empty() {
        return Ok(none);
    }
    let tile = match &groups[..] {
        [(key, _, divisions)] => tile_for(c, &body, key, divisions),
        _ => None,
    };
    let ty = llvm::LLVMTypeOf(c.add);
    let ctx = llvm::LLVMGetTypeContext(ty);
    let b = llvm::LLVMCreateBuilderInContext(ctx);
    let tiled = tile.as_ref().map(|t| t.tile);
    let mut levels = Vec::new();
    let done = Setup::split(b, c, ty, preheader).and_then(|mut setup| {
        let divisions = build(b, c, ty, &setup, store, &body, &groups, tiled, &mut levels)?;
        let shaped = if c.shape && tiled.is_none() && groups.len() == 1 {
            grid_shape::shape(b, c, ty, &mut setup, &levels)?
        } else {
            None
        };
        Ok((divisions, setup, shaped))
    });
    llvm::LLVMDisposeBuilder(b);
    let (divisions, setup, shaped) = done?;
    let once = c.one_trip && single_trip::version(setup.join, &body, latch, setup.more)?;
    if once {
        setup.only_after_steps();
    }
    Ok(Reduced {
        divisions,
        tile,
        once,
        shaped,
    })
}

/// Divisions of the value in `slot` by loop-invariant divisors, grouped by divisor (the same
/// expression, reloaded, is one group): (its key, a divisor, the divisions), in the order of
/// their first appearance. `udiv` for clang's unsigned loops, `sdiv` for signed ones.
type Group = (String, LLVMValueRef, Vec<LLVMValueRef>);

unsafe fn division_groups(
    c: &Counter,
    slot: LLVMValueRef,
    body: &[LLVMBasicBlockRef],
) -> Vec<Group> {
    let wanted = if c.unsigned {
        LLVMOpcode::LLVMUDiv
    } else {
        LLVMOpcode::LLVMSDiv
    };
    let mut groups: Vec<Group> = Vec::new();
    for &bb in body {
        let mut inst = llvm::LLVMGetFirstInstruction(bb);
        while !inst.is_null() {
            if is_op(inst, wanted) && ir::is_load_of(llvm::LLVMGetOperand(inst, 0), slot) {
                let divisor = llvm::LLVMGetOperand(inst, 1);
                if let Some(key) = invariant_key(divisor, body) {
                    match groups.iter_mut().find(|g| g.0 == key) {
                        Some(g) => g.2.push(inst),
                        None => groups.push((key, divisor, vec![inst])),
                    }
                }
            }
            inst = llvm::LLVMGetNextInstruction(inst);
        }
    }
    groups
}

/// `divisor` (an expression [`invariant_key`] accepted) recomputed at the builder's position,
/// made 1 where it is not positive (the loop then has no iteration, and the divisions before
/// it stay defined), named `name`.
unsafe fn positive_divisor(
    b: LLVMBuilderRef,
    ty: llvm_sys::prelude::LLVMTypeRef,
    divisor: LLVMValueRef,
    body: &[LLVMBasicBlockRef],
    name: &str,
) -> LLVMValueRef {
    let m = rematerialize(b, divisor, body, &mut HashMap::new());
    let zero = llvm::LLVMConstInt(ty, 0, 0);
    let positive = llvm::LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntSGT, m, zero, c"".as_ptr());
    let name = std::ffi::CString::new(name).unwrap_or_default();
    llvm::LLVMBuildSelect(b, positive, m, llvm::LLVMConstInt(ty, 1, 0), name.as_ptr())
}

/// The warp tile of a `collapse(2)` loop (one divisor): only when every use of the counter in
/// the loop is a division, a remainder (`iv - q * m`), the increment or the loop's test, so
/// that the row and the column say which iteration runs.
unsafe fn tile_for(
    c: &Counter,
    body: &[LLVMBasicBlockRef],
    key: &str,
    divisions: &[LLVMValueRef],
) -> Option<Choice> {
    let rems: Vec<LLVMValueRef> = divisions
        .iter()
        .flat_map(|&d| remainders(d, key, body, c.slot))
        .collect();
    for &bb in body {
        let mut inst = llvm::LLVMGetFirstInstruction(bb);
        while !inst.is_null() {
            if ir::is_load_of(inst, c.slot) {
                let accounted = ir::users(inst).into_iter().all(|u| {
                    divisions.contains(&u)
                        || rems.contains(&u)
                        || u == c.add
                        || !llvm::LLVMIsAICmpInst(u).is_null()
                });
                if !accounted {
                    return None;
                }
            }
            inst = llvm::LLVMGetNextInstruction(inst);
        }
    }
    warp_tile::choose(
        body,
        &warp_tile::Seeds {
            rows: divisions,
            cols: &rems,
        },
    )
}

/// clang's remainders `iv - q * m` of division `q` (whose divisor has `key`).
unsafe fn remainders(
    q: LLVMValueRef,
    key: &str,
    body: &[LLVMBasicBlockRef],
    slot: LLVMValueRef,
) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    for product in ir::users(q) {
        if !is_op(product, LLVMOpcode::LLVMMul) {
            continue;
        }
        let (x, y) = (
            llvm::LLVMGetOperand(product, 0),
            llvm::LLVMGetOperand(product, 1),
        );
        let other = if x == q { y } else { x };
        if invariant_key(other, body).as_deref() != Some(key) {
            continue;
        }
        for rest in ir::users(product) {
            if is_op(rest, LLVMOpcode::LLVMSub)
                && llvm::LLVMGetOperand(rest, 1) == product
                && ir::is_load_of(llvm::LLVMGetOperand(rest, 0), slot)
            {
                out.push(rest);
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
unsafe fn build(
    b: LLVMBuilderRef,
    c: &Counter,
    ty: llvm_sys::prelude::LLVMTypeRef,
    setup: &Setup,
    store: LLVMValueRef,
    body: &[LLVMBasicBlockRef],
    groups: &[Group],
    tile: Option<Tile>,
    levels: &mut Vec<grid_shape::Level>,
) -> anyhow::Result<usize> {
    let name = |s: &str| std::ffi::CString::new(s).unwrap_or_default();
    let k = |v: u64| llvm::LLVMConstInt(ty, v, 0);
    let preheader = setup.pre;
    let mut replaced = 0;
    for (key, divisor, divisions) in groups {
        // Before the loop: the divisor, the start's and the step's quotient and remainder.
        llvm::LLVMPositionBuilderBefore(b, llvm::LLVMGetBasicBlockTerminator(preheader));
        let m = positive_divisor(b, ty, *divisor, body, "ptxcc.divisor");
        // A warp tile of `cols x rows` numbers the counters in bands of `rows` rows: the
        // running quotient is the band, the remainder the place in it (see below).
        let tiled = tile.map(|t| {
            let band = llvm::LLVMBuildMul(b, m, k(u64::from(t.rows)), name("ptxcc.band").as_ptr());
            let fits = tile_fits(b, c, ty, m, band, t);
            let by = llvm::LLVMBuildSelect(b, fits, band, m, name("ptxcc.tile.divisor").as_ptr());
            (t, fits, by)
        });
        let by = tiled.map_or(m, |(_, _, by)| by);
        let run = Running::begin(b, ty, setup, c.slot, c.step, by, "");
        let (qslot, rslot, sr) = (run.quot, run.rem, run.step_rem_computed);
        levels.push(grid_shape::Level {
            divisor: by,
            constant: key.parse().ok(),
            quot: qslot,
            rem: rslot,
        });
        // After the counter's increment: the remainder's, with its carry into the quotient.
        let next = llvm::LLVMGetNextInstruction(store);
        if next.is_null() {
            anyhow::bail!("the loop's latch has no terminator");
        }
        llvm::LLVMPositionBuilderBefore(b, next);
        let (wrap, qstore) = advance(b, ty, run, None, "ptxcc.carry");
        // Each division reads the quotient, and clang's remainder `iv - q * m` the remainder;
        // in a tile, the row and the column of the place in the band:
        //   row = band * rows + (place % 32) / cols,  col = (place / 32) * cols + place % cols
        for &div in divisions {
            let rems = remainders(div, key, body, c.slot);
            llvm::LLVMPositionBuilderBefore(b, div);
            let q = llvm::LLVMBuildLoad2(b, ty, qslot, name("ptxcc.q").as_ptr());
            let row = match tiled {
                Some((t, fits, _)) => {
                    let r = llvm::LLVMBuildLoad2(b, ty, rslot, name("ptxcc.r").as_ptr());
                    let lane = llvm::LLVMBuildAnd(b, r, k(31), c"".as_ptr());
                    let down =
                        llvm::LLVMBuildLShr(b, lane, k(u64::from(t.cols_log2())), c"".as_ptr());
                    let first = llvm::LLVMBuildMul(b, q, k(u64::from(t.rows)), c"".as_ptr());
                    let row = llvm::LLVMBuildAdd(b, first, down, c"".as_ptr());
                    llvm::LLVMBuildSelect(b, fits, row, q, name("ptxcc.row").as_ptr())
                }
                None => q,
            };
            llvm::LLVMReplaceAllUsesWith(div, row);
            llvm::LLVMInstructionEraseFromParent(div);
            for rest in rems {
                llvm::LLVMPositionBuilderBefore(b, rest);
                let r = llvm::LLVMBuildLoad2(b, ty, rslot, name("ptxcc.r").as_ptr());
                let col = match tiled {
                    Some((t, fits, _)) => {
                        let group = llvm::LLVMBuildLShr(b, r, k(5), c"".as_ptr());
                        let first =
                            llvm::LLVMBuildShl(b, group, k(u64::from(t.cols_log2())), c"".as_ptr());
                        let within =
                            llvm::LLVMBuildAnd(b, r, k(u64::from(t.cols - 1)), c"".as_ptr());
                        let col = llvm::LLVMBuildOr(b, first, within, c"".as_ptr());
                        llvm::LLVMBuildSelect(b, fits, col, r, name("ptxcc.col").as_ptr())
                    }
                    None => r,
                };
                llvm::LLVMReplaceAllUsesWith(rest, col);
                llvm::LLVMInstructionEraseFromParent(rest);
            }
            replaced += 1;
        }
        // One level down (collapse(3) and deeper): clang divides the running remainder next.
        if groups.len() == 1 && tiled.is_none() {
            let parent = Level {
                slot: rslot,
                divisor: by,
                factors: factors(*divisor, body),
                step: sr,
                wrap,
                after: llvm::LLVMGetNextInstruction(qstore),
            };
            replaced += nest(b, c, ty, setup, body, &parent, levels)?;
        }
    }
    Ok(replaced)
}

/// Where the running quotients start: the loop's preheader, split in five.
///
/// ```llvm
/// pre:    ... ; %m = <the divisors>                                ; what every thread needs
///         br label %ptxcc.divide          ; (grid_shape: br i1 %shaped, label %ptxcc.known, ...)
/// ptxcc.divide: %q0 = udiv %start, %m ; %r0 = urem %start, %m     ; the thread's first indices
///         br label %ptxcc.decide
/// ptxcc.decide: %ptxcc.more = and (icmp sle %start, %last), (icmp uge (sub %last, %start), %step)
///                                  ; (ule for clang's unsigned loops)
///         br i1 %ptxcc.more, label %ptxcc.steps, label %join
/// ptxcc.steps: %sq = udiv %step, %m ; %sr = urem %step, %m         ; what a step adds
///        br label %join
/// join:  %ptxcc.step.quot = phi [0, %ptxcc.decide], [%sq, %ptxcc.steps] ; ... ; br label %loop
/// ```
///
/// Only a thread with a second iteration needs the step's quotients; with 0 the latch's
/// update changes nothing before the loop's test ends it. A grid that covers the loop (one
/// iteration per thread, as a launch sized by the trip count gives) then divides only its
/// start: two divisions for `collapse(3)` where the steps took three more; a grid of the
/// loop's shape ([`grid_shape`]) none.
pub(super) struct Setup {
    pub pre: LLVMBasicBlockRef,
    pub divide: LLVMBasicBlockRef,
    pub decide: LLVMBasicBlockRef,
    pub steps: LLVMBasicBlockRef,
    pub join: LLVMBasicBlockRef,
    /// `%ptxcc.more`: the thread takes a second step.
    pub more: LLVMValueRef,
}

impl Setup {
    /// Splits `preheader` (whose last instructions compute the counter's start in `c.slot`).
    unsafe fn split(
        b: LLVMBuilderRef,
        c: &Counter,
        ty: llvm_sys::prelude::LLVMTypeRef,
        preheader: LLVMBasicBlockRef,
    ) -> anyhow::Result<Setup> {
        let term = llvm::LLVMGetBasicBlockTerminator(preheader);
        if term.is_null() {
            anyhow::bail!("the loop's preheader has no terminator");
        }
        let term = inkwell::values::InstructionValue::new(term);
        let join = preheader;
        let pre = ir::split_before(term, c"ptxcc.steps.join")?;
        let ctx = llvm::LLVMGetTypeContext(ty);
        let steps = llvm::LLVMInsertBasicBlockInContext(ctx, join, c"ptxcc.steps".as_ptr());
        let decide = llvm::LLVMInsertBasicBlockInContext(ctx, steps, c"ptxcc.decide".as_ptr());
        let divide = llvm::LLVMInsertBasicBlockInContext(ctx, decide, c"ptxcc.divide".as_ptr());
        llvm::LLVMPositionBuilderAtEnd(b, steps);
        llvm::LLVMBuildBr(b, join);
        llvm::LLVMPositionBuilderAtEnd(b, pre);
        llvm::LLVMBuildBr(b, divide);
        llvm::LLVMPositionBuilderAtEnd(b, divide);
        llvm::LLVMBuildBr(b, decide);
        llvm::LLVMPositionBuilderAtEnd(b, decide);
        let start = llvm::LLVMBuildLoad2(b, ty, c.slot, c"".as_ptr());
        // The counter compares as clang's loop does: an unsigned loop's last counter may be
        // above the signed maximum (a thread that compared it signed would leave after one
        // iteration of many).
        let at_most = if c.unsigned {
            LLVMIntPredicate::LLVMIntULE
        } else {
            LLVMIntPredicate::LLVMIntSLE
        };
        let runs = llvm::LLVMBuildICmp(b, at_most, start, c.last, c"".as_ptr());
        let left = llvm::LLVMBuildSub(b, c.last, start, c"".as_ptr());
        let again =
            llvm::LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntUGE, left, c.step, c"".as_ptr());
        let more = llvm::LLVMBuildAnd(b, runs, again, c"ptxcc.more".as_ptr());
        llvm::LLVMBuildCondBr(b, more, steps, join);
        Ok(Setup {
            pre,
            divide,
            decide,
            steps,
            join,
            more,
        })
    }

    /// `v` (computed in `steps`) where the loop starts: a phi in `join`, 0 from `pre`, named
    /// `name`.
    unsafe fn merged(
        &self,
        b: LLVMBuilderRef,
        ty: llvm_sys::prelude::LLVMTypeRef,
        v: LLVMValueRef,
        name: &std::ffi::CStr,
    ) -> LLVMValueRef {
        llvm::LLVMPositionBuilderBefore(b, llvm::LLVMGetFirstInstruction(self.join));
        let phi = llvm::LLVMBuildPhi(b, ty, name.as_ptr());
        let mut values = [llvm::LLVMConstInt(ty, 0, 0), v];
        let mut blocks = [self.decide, self.steps];
        llvm::LLVMAddIncoming(phi, values.as_mut_ptr(), blocks.as_mut_ptr(), 2);
        phi
    }

    /// Once the threads without a second step take a copy of the loop without the steps
    /// ([`single_trip`]), the loop reads `join`'s phis (all [`Setup::merged`]'s: `split` left
    /// the preheader's own in `pre`) only where `steps` ran: their value from the other edges
    /// (`decide`, and [`grid_shape`]'s `known`) is poison, which needs no register set. The
    /// grid shape's `%ptxcc.more.grid` (a phi of the edges) keeps its values.
    unsafe fn only_after_steps(&self) {
        let mut phi = llvm::LLVMGetFirstInstruction(self.join);
        while !phi.is_null() && !llvm::LLVMIsAPHINode(phi).is_null() {
            if phi != self.more {
                for i in 0..llvm::LLVMCountIncoming(phi) {
                    if llvm::LLVMGetIncomingBlock(phi, i) != self.steps {
                        llvm::LLVMSetOperand(phi, i, llvm::LLVMGetPoison(llvm::LLVMTypeOf(phi)));
                    }
                }
            }
            phi = llvm::LLVMGetNextInstruction(phi);
        }
    }
}

/// A running quotient and remainder: their slots, the step's quotient and remainder (where
/// the loop starts, and as `steps` computed the remainder, for the level below), the divisor.
struct Running {
    quot: LLVMValueRef,
    rem: LLVMValueRef,
    step_quot: LLVMValueRef,
    step_rem: LLVMValueRef,
    step_rem_computed: LLVMValueRef,
    divisor: LLVMValueRef,
}

impl Running {
    /// The running quotient and remainder by `divisor` (positive, computed in `setup.pre`) of
    /// the value in `counter` (a slot): their slots at the top of the entry block, with clang's
    /// (`ptxcc.quot{suffix}`, `ptxcc.rem{suffix}`); in `setup.divide`, the counter's
    /// first quotient and remainder stored in them; the step's computed in `setup.steps` and
    /// merged in `setup.join` (`ptxcc.step.quot{suffix}`, `ptxcc.step.rem{suffix}`). `step`
    /// must be available in `setup.steps`. The builder is left at the end of `setup.pre`.
    unsafe fn begin(
        b: LLVMBuilderRef,
        ty: llvm_sys::prelude::LLVMTypeRef,
        setup: &Setup,
        counter: LLVMValueRef,
        step: LLVMValueRef,
        divisor: LLVMValueRef,
        suffix: &str,
    ) -> Running {
        let name = |s: &str| std::ffi::CString::new(format!("{s}{suffix}")).unwrap_or_default();
        let entry = llvm::LLVMGetEntryBasicBlock(llvm::LLVMGetBasicBlockParent(setup.pre));
        llvm::LLVMPositionBuilderBefore(b, llvm::LLVMGetFirstInstruction(entry));
        let quot = llvm::LLVMBuildAlloca(b, ty, name("ptxcc.quot").as_ptr());
        let rem = llvm::LLVMBuildAlloca(b, ty, name("ptxcc.rem").as_ptr());
        llvm::LLVMPositionBuilderBefore(b, llvm::LLVMGetBasicBlockTerminator(setup.divide));
        let first = llvm::LLVMBuildLoad2(b, ty, counter, c"".as_ptr());
        llvm::LLVMBuildStore(
            b,
            llvm::LLVMBuildUDiv(b, first, divisor, c"".as_ptr()),
            quot,
        );
        llvm::LLVMBuildStore(b, llvm::LLVMBuildURem(b, first, divisor, c"".as_ptr()), rem);
        llvm::LLVMPositionBuilderBefore(b, llvm::LLVMGetBasicBlockTerminator(setup.steps));
        let sq = llvm::LLVMBuildUDiv(b, step, divisor, c"".as_ptr());
        let sr = llvm::LLVMBuildURem(b, step, divisor, c"".as_ptr());
        let step_quot = setup.merged(b, ty, sq, &name("ptxcc.step.quot"));
        let step_rem = setup.merged(b, ty, sr, &name("ptxcc.step.rem"));
        llvm::LLVMPositionBuilderBefore(b, llvm::LLVMGetBasicBlockTerminator(setup.pre));
        Running {
            quot,
            rem,
            step_quot,
            step_rem,
            step_rem_computed: sr,
            divisor,
        }
    }
}

/// One step of `v` at the builder's position (the latch): `r += sr`, with a carry when it
/// reaches the divisor, `q += sq + carry - back` (`back`: what a wrap of the level above takes
/// away, see [`nest`]). Returns the carry (named `carry`) and the store of `q`.
unsafe fn advance(
    b: LLVMBuilderRef,
    ty: llvm_sys::prelude::LLVMTypeRef,
    v: Running,
    back: Option<LLVMValueRef>,
    carry: &str,
) -> (LLVMValueRef, LLVMValueRef) {
    let name = std::ffi::CString::new(carry).unwrap_or_default();
    let r = llvm::LLVMBuildAdd(
        b,
        llvm::LLVMBuildLoad2(b, ty, v.rem, c"".as_ptr()),
        v.step_rem,
        c"".as_ptr(),
    );
    let wrap = llvm::LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntUGE, r, v.divisor, name.as_ptr());
    let r = llvm::LLVMBuildSelect(
        b,
        wrap,
        llvm::LLVMBuildSub(b, r, v.divisor, c"".as_ptr()),
        r,
        c"".as_ptr(),
    );
    llvm::LLVMBuildStore(b, r, v.rem);
    let q = llvm::LLVMBuildAdd(
        b,
        llvm::LLVMBuildLoad2(b, ty, v.quot, c"".as_ptr()),
        v.step_quot,
        c"".as_ptr(),
    );
    let mut q = llvm::LLVMBuildAdd(
        b,
        q,
        llvm::LLVMBuildZExt(b, wrap, ty, c"".as_ptr()),
        c"".as_ptr(),
    );
    if let Some(back) = back {
        q = llvm::LLVMBuildSub(b, q, back, c"".as_ptr());
    }
    (wrap, llvm::LLVMBuildStore(b, q, v.quot))
}

/// A running remainder, for [`nest`]: its slot, the (positive) divisor it wraps by, that
/// divisor's factors ([`factors`]), its step, its wrap in the latch, and where the latch's
/// updates of the next level go.
struct Level {
    slot: LLVMValueRef,
    divisor: LLVMValueRef,
    factors: Vec<String>,
    step: LLVMValueRef,
    wrap: LLVMValueRef,
    after: LLVMValueRef,
}

/// One level down a `collapse(3)` (or deeper) loop. clang recovers the next index from the
/// running remainder `r` of the level above (`r = iv - i * (J * K)`), dividing it by the next
/// extent: `j = r / K`, `k = r - j * K`. The level above's divisor `D` has `K` among its factors,
/// and `r` steps by `sr` and wraps by `D` (`r' = r + sr - wrap * D`), so `j` and `k` can run too,
/// with `J = D / K` exact:
///
/// ```text
/// carry = k + sr % K >= K
/// k' = k + sr % K - (carry ? K : 0)
/// j' = j + sr / K + carry - (wrap ? J : 0)
/// ```
///
/// (`r + sr = (j + sr / K + carry) * K + k'`, less `wrap * J * K`.) A Himeno-style stencil over
/// `collapse(3)` divided once per element before this, by a run-time extent (some twenty SASS
/// instructions). Returns the divisions replaced, at this level and below.
unsafe fn nest(
    b: LLVMBuilderRef,
    c: &Counter,
    ty: llvm_sys::prelude::LLVMTypeRef,
    setup: &Setup,
    body: &[LLVMBasicBlockRef],
    parent: &Level,
    levels: &mut Vec<grid_shape::Level>,
) -> anyhow::Result<usize> {
    if parent.after.is_null() {
        return Ok(0);
    }
    // The divisions of the running remainder by a factor of its divisor (the first such
    // divisor: another stays a division, which is right too).
    let found = division_groups(c, parent.slot, body)
        .into_iter()
        .find(|(_, divisor, _)| divides(&factors(*divisor, body), &parent.factors));
    let Some((key, divisor, divisions)) = found else {
        return Ok(0);
    };
    let name = |s: &str| std::ffi::CString::new(s).unwrap_or_default();
    // Before the loop: the extent (positive, as above), the quotient of the two divisors, the
    // start's and the step's quotient and remainder.
    llvm::LLVMPositionBuilderBefore(b, llvm::LLVMGetBasicBlockTerminator(setup.pre));
    let m = positive_divisor(b, ty, divisor, body, "ptxcc.divisor.inner");
    let run = Running::begin(b, ty, setup, parent.slot, parent.step, m, ".inner");
    let (qslot, rslot, sr) = (run.quot, run.rem, run.step_rem_computed);
    levels.push(grid_shape::Level {
        divisor: m,
        constant: key.parse().ok(),
        quot: qslot,
        rem: rslot,
    });
    // The extent is what a wrap of the level above takes back: only a step needs it.
    llvm::LLVMPositionBuilderBefore(b, llvm::LLVMGetBasicBlockTerminator(setup.steps));
    let above = llvm::LLVMBuildUDiv(b, parent.divisor, m, c"".as_ptr());
    let above = setup.merged(b, ty, above, c"ptxcc.extent");
    // In the latch, after the level above's update.
    llvm::LLVMPositionBuilderBefore(b, parent.after);
    let zero = llvm::LLVMConstInt(ty, 0, 0);
    let back = llvm::LLVMBuildSelect(b, parent.wrap, above, zero, c"".as_ptr());
    let (carry, qstore) = advance(b, ty, run, Some(back), "ptxcc.carry.inner");
    let mut replaced = 0;
    for &div in &divisions {
        let rems = remainders(div, &key, body, parent.slot);
        llvm::LLVMPositionBuilderBefore(b, div);
        let q = llvm::LLVMBuildLoad2(b, ty, qslot, name("ptxcc.q").as_ptr());
        llvm::LLVMReplaceAllUsesWith(div, q);
        llvm::LLVMInstructionEraseFromParent(div);
        for rest in rems {
            llvm::LLVMPositionBuilderBefore(b, rest);
            let r = llvm::LLVMBuildLoad2(b, ty, rslot, name("ptxcc.r").as_ptr());
            llvm::LLVMReplaceAllUsesWith(rest, r);
            llvm::LLVMInstructionEraseFromParent(rest);
        }
        replaced += 1;
    }
    let level = Level {
        slot: rslot,
        divisor: m,
        factors: factors(divisor, body),
        step: sr,
        wrap: carry,
        after: llvm::LLVMGetNextInstruction(qstore),
    };
    Ok(replaced + nest(b, c, ty, setup, body, &level, levels)?)
}

/// The keys ([`invariant_key`]) of the factors of a product (`J * K` → [J, K], through clang's
/// `* 1` and `/ 1`); a value that is not a product is its own one factor.
unsafe fn factors(v: LLVMValueRef, body: &[LLVMBasicBlockRef]) -> Vec<String> {
    let v = strip_identities(v);
    if is_op(v, LLVMOpcode::LLVMMul) && !llvm::LLVMIsAInstruction(v).is_null() {
        let mut out = factors(llvm::LLVMGetOperand(v, 0), body);
        out.extend(factors(llvm::LLVMGetOperand(v, 1), body));
        return out;
    }
    invariant_key(v, body).into_iter().collect()
}

/// Does the product of the factors `small` divide that of `big` (keys, [`factors`])? Its
/// other factors must be among `big`'s, as many times, and its constants' product must divide
/// that of `big`'s constants (clang folds a constant extent's product: `J * K` is `720` for
/// `K = 120`).
fn divides(small: &[String], big: &[String]) -> bool {
    let constant = |k: &String| k.parse::<i64>().ok();
    let product = |f: &[String]| -> Option<i64> {
        f.iter()
            .filter_map(constant)
            .try_fold(1i64, |p, c| p.checked_mul(c))
    };
    let symbols = |f: &[String]| -> Vec<String> {
        f.iter()
            .filter(|k| constant(k).is_none())
            .cloned()
            .collect()
    };
    let (Some(ps), Some(pb)) = (product(small), product(big)) else {
        return false;
    };
    let ss = symbols(small);
    !small.is_empty()
        && ps > 0
        && pb % ps == 0
        && (ss.is_empty() || sub_multiset(&ss, &symbols(big)))
}

/// Is every element of `small` in `big`, as many times?
fn sub_multiset(small: &[String], big: &[String]) -> bool {
    let mut rest: Vec<&String> = big.iter().collect();
    !small.is_empty()
        && small
            .iter()
            .all(|s| match rest.iter().position(|b| *b == s) {
                Some(i) => {
                    rest.swap_remove(i);
                    true
                }
                None => false,
            })
}

/// Whether the loop's counters are whole bands of `t.rows` rows of `m` columns, `m` a
/// multiple of `t.cols` (at run time: otherwise the loop keeps clang's order). The first
/// counter and the number of counters must be multiples of the band (`m * rows`, which must
/// not wrap).
unsafe fn tile_fits(
    b: LLVMBuilderRef,
    c: &Counter,
    ty: llvm_sys::prelude::LLVMTypeRef,
    m: LLVMValueRef,
    band: LLVMValueRef,
    t: Tile,
) -> LLVMValueRef {
    let k = |v: u64| llvm::LLVMConstInt(ty, v, 0);
    let eq0 = |v: LLVMValueRef| {
        llvm::LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntEQ, v, k(0), c"".as_ptr())
    };
    let bits = llvm::LLVMGetIntTypeWidth(ty);
    let most = (u64::MAX >> (64 - bits)) / u64::from(t.rows);
    let no_wrap = llvm::LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntULE, m, k(most), c"".as_ptr());
    let cols = eq0(llvm::LLVMBuildAnd(
        b,
        m,
        k(u64::from(t.cols - 1)),
        c"".as_ptr(),
    ));
    let first = eq0(llvm::LLVMBuildURem(b, c.first, band, c"".as_ptr()));
    let count = llvm::LLVMBuildAdd(
        b,
        llvm::LLVMBuildSub(b, c.last, c.first, c"".as_ptr()),
        k(1),
        c"".as_ptr(),
    );
    let whole = eq0(llvm::LLVMBuildURem(b, count, band, c"".as_ptr()));
    let ok = llvm::LLVMBuildAnd(b, no_wrap, cols, c"".as_ptr());
    let ok = llvm::LLVMBuildAnd(b, ok, first, c"".as_ptr());
    llvm::LLVMBuildAnd(b, ok, whole, c"ptxcc.tile".as_ptr())
}

fn is_op(v: LLVMValueRef, op: LLVMOpcode) -> bool {
    unsafe { !llvm::LLVMIsABinaryOperator(v).is_null() && llvm::LLVMGetInstructionOpcode(v) == op }
}

/// A key that two loop-invariant expressions computing the same value share (the same
/// operations on the same constants, arguments, outside values and slots), or None when `v`
/// is not one this pass can recompute before the loop.
unsafe fn invariant_key(v: LLVMValueRef, body: &[LLVMBasicBlockRef]) -> Option<String> {
    if let Some(k) = ir::const_int(v) {
        return Some(format!("{k}"));
    }
    if llvm::LLVMIsAInstruction(v).is_null() || !body.contains(&llvm::LLVMGetInstructionParent(v)) {
        // An argument, a global, or an instruction before the loop (which dominates it).
        return Some(format!("v{:p}", v));
    }
    if !llvm::LLVMIsALoadInst(v).is_null() {
        let slot = llvm::LLVMGetOperand(v, 0);
        let written = body.iter().any(|bb| {
            let mut i = llvm::LLVMGetFirstInstruction(*bb);
            while !i.is_null() {
                if ir::is_store_to(i, slot) {
                    return true;
                }
                i = llvm::LLVMGetNextInstruction(i);
            }
            false
        });
        return (ir::private_slot(slot) && !written).then(|| format!("load{:p}", slot));
    }
    if let Some(x) = identity_operand(v) {
        return invariant_key(x, body);
    }
    let op = llvm::LLVMGetInstructionOpcode(v);
    use LLVMOpcode::*;
    let allowed = match op {
        LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMSExt | LLVMZExt | LLVMTrunc => true,
        // Recomputed before the loop, where the loop might not run: only by a non-zero constant.
        LLVMSDiv | LLVMUDiv | LLVMSRem | LLVMURem => {
            ir::const_int(llvm::LLVMGetOperand(v, 1)).is_some_and(|d| d != 0)
        }
        _ => false,
    };
    if !allowed {
        return None;
    }
    let mut key = format!("({op:?}");
    for i in 0..llvm::LLVMGetNumOperands(v) as u32 {
        key.push(' ');
        key.push_str(&invariant_key(llvm::LLVMGetOperand(v, i), body)?);
    }
    key.push(')');
    Some(key)
}

/// The operand an instruction of clang's normalisation passes on unchanged (`x - 0`, `x / 1`,
/// `x * 1`, `1 * x`, `0 + x`, `x << 0`), if `v` is one.
unsafe fn identity_operand(v: LLVMValueRef) -> Option<LLVMValueRef> {
    use LLVMOpcode::*;
    if llvm::LLVMIsABinaryOperator(v).is_null() {
        return None;
    }
    let op = llvm::LLVMGetInstructionOpcode(v);
    let (a, b) = (llvm::LLVMGetOperand(v, 0), llvm::LLVMGetOperand(v, 1));
    match op {
        LLVMSub | LLVMAdd | LLVMShl if ir::const_int(b) == Some(0) => Some(a),
        LLVMSDiv | LLVMUDiv if ir::const_int(b) == Some(1) => Some(a),
        LLVMMul if ir::const_int(b) == Some(1) => Some(a),
        LLVMMul | LLVMAdd if ir::const_int(a) == Some(if op == LLVMMul { 1 } else { 0 }) => Some(b),
        _ => None,
    }
}

/// `v` past [`identity_operand`]s.
unsafe fn strip_identities(mut v: LLVMValueRef) -> LLVMValueRef {
    while let Some(x) = identity_operand(v) {
        v = x;
    }
    v
}

/// `v` (an expression [`invariant_key`] accepted) computed at the builder's position: the
/// instructions of the loop among it are copied, the rest used as they are.
unsafe fn rematerialize(
    b: LLVMBuilderRef,
    v: LLVMValueRef,
    body: &[LLVMBasicBlockRef],
    copies: &mut HashMap<LLVMValueRef, LLVMValueRef>,
) -> LLVMValueRef {
    if llvm::LLVMIsAInstruction(v).is_null() || !body.contains(&llvm::LLVMGetInstructionParent(v)) {
        return v;
    }
    if let Some(c) = copies.get(&v) {
        return *c;
    }
    let operands: Vec<LLVMValueRef> = (0..llvm::LLVMGetNumOperands(v) as u32)
        .map(|i| rematerialize(b, llvm::LLVMGetOperand(v, i), body, copies))
        .collect();
    let copy = llvm::LLVMInstructionClone(v);
    for (i, op) in operands.into_iter().enumerate() {
        llvm::LLVMSetOperand(copy, i as u32, op);
    }
    llvm::LLVMInsertIntoBuilder(b, copy);
    copies.insert(v, copy);
    copy
}

#[cfg(test)]
mod tests {
    use super::divides;

    fn keys(k: &[&str]) -> Vec<String> {
        k.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn inner_extents_divide_the_outer_divisor() {
        // J * K by K, symbolic or folded by clang.
        assert!(divides(&keys(&["vK"]), &keys(&["vJ", "vK"])));
        assert!(divides(&keys(&["120"]), &keys(&["720"])));
        assert!(divides(&keys(&["2", "vK"]), &keys(&["vK", "4", "vJ"])));
        // Not a factor: another extent, a constant that does not divide, an extent twice.
        assert!(!divides(&keys(&["vL"]), &keys(&["vJ", "vK"])));
        assert!(!divides(&keys(&["7"]), &keys(&["720"])));
        assert!(!divides(&keys(&["vK", "vK"]), &keys(&["vJ", "vK"])));
        assert!(!divides(&keys(&["0"]), &keys(&["720"])));
        assert!(!divides(&[], &keys(&["720"])));
    }
}

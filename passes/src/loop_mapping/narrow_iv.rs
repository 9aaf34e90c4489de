//! 32-bit iterations for 64-bit cyclic thread loops: a `long` loop whose bounds fit in an
//! `int` runs a copy of itself with 32-bit induction arithmetic.
//!
//! A GPU does 64-bit integer arithmetic in two instructions (add with carry, compare of both
//! halves), so a grid-stride loop over a `long` counter spends twice the instructions on its
//! bookkeeping that an `int` one does. Clang keeps the user's type in `.omp.iv`; this step
//! versions the loop that [`super::cyclic`] made, in clang's unoptimised form (every variable a
//! stack slot), on the loop's entry edge:
//!
//! ```llvm
//! pre:    store i64 %lb, ptr %iv ; br label %cond
//! cond:   %i = load i64, ptr %iv ; %ub = load i64, ptr %pub ; %c = icmp sle i64 %i, %ub ; br i1 %c, …
//! latch:  %next = add nsw i64 %i2, %step ; store i64 %next, ptr %iv ; br label %cond
//!   →
//! pre:    store i64 %lb, ptr %iv ; br label %ptxcc.fits
//! ptxcc.fits:  ; lb and ub in [INT_MIN, INT_MAX - ntid]
//!         br i1 %fits, label %ptxcc.loop32, label %cond         ; the 64-bit loop, not unrolled
//! ptxcc.loop32: store i32 (trunc %lb), ptr %iv32 ; store i32 (trunc %ub), ptr %ub32 ; br label %cond.copy
//! cond.i32:    %c = icmp sle i32 (load i32, ptr %iv32), (load i32, ptr %ub32) ; …
//!              (other loads of the counter and the bound: sext of their i32 slot)
//! latch.i32:   %next = sext (add nsw i32 (trunc %i2), (trunc %step)) ; store i32 (trunc %next), ptr %iv32
//! exit edges:  store i64 (sext (load i32, ptr %iv32)), ptr %iv ; br label %exit
//! ```
//!
//! After mem2reg and instcombine the copy's counter, step and compare are `i32` and its array
//! subscripts `sext` (one `mul.wide.s32` per unrolled trip), as for an `int` loop. The `nsw`
//! (and for clang's unsigned loops `nuw`) of the 32-bit increment holds because the copy runs
//! only when `ub + ntid` stays within `INT_MAX`, and the increment runs only while `i <= ub`.
//! Loops of another shape, whose values are used after them, or whose bound slot is written
//! inside them keep only the 64-bit version.
use super::level::Level;
use crate::ir;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, InstructionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::LLVMIntPredicate;
use std::collections::HashMap;

/// What the versioning needs to know of the loop [`super::cyclic`] rewrote.
pub(super) struct CyclicLoop<'ctx> {
    /// The loop's increment, `add nsw i64 (load slot), %step`.
    pub add: InstructionValue<'ctx>,
    /// The `.omp.iv` stack slot the loop counts in.
    pub slot: LLVMValueRef,
    /// The threads the iterations are dealt to (their count is the step).
    pub level: Level,
    /// Clang compares the counter unsigned (`__kmpc_for_static_init_8u`).
    pub unsigned: bool,
    /// Unroll the 32-bit copy [`super::UNROLL`] times.
    pub unroll: bool,
}

/// The loop's shape, as clang lays it out.
struct Shape {
    header: LLVMBasicBlockRef,
    latch: LLVMBasicBlockRef,
    preheader: LLVMBasicBlockRef,
    body: Vec<LLVMBasicBlockRef>,
    /// The slot of the upper bound the header compares against.
    ub_slot: LLVMValueRef,
    /// The header's `icmp` of the counter with the bound.
    cmp: LLVMValueRef,
    /// The compare is `iv < ub + 1` (clang's form when it counts trips unsigned), not `iv <= ub`.
    plus_one: bool,
}

/// Adds the 32-bit copy of the loop. Returns whether it did (false: the loop keeps only its
/// 64-bit form, which is correct).
pub(super) fn version(device: &Module<'_>, l: &CyclicLoop<'_>) -> anyhow::Result<bool> {
    let Some(shape) = (unsafe { shape(l) }) else {
        return Ok(false);
    };
    unsafe { add_copy(device, l, &shape)? };
    Ok(true)
}

fn instructions(bb: LLVMBasicBlockRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    unsafe {
        let mut i = llvm::LLVMGetFirstInstruction(bb);
        while !i.is_null() {
            out.push(i);
            i = llvm::LLVMGetNextInstruction(i);
        }
    }
    out
}

/// Recognises `cond: icmp sle/ule (load slot), (load ub)` entered from one preheader, with no
/// phi at the header or at an exit and no value of the loop used after it.
unsafe fn shape(l: &CyclicLoop<'_>) -> Option<Shape> {
    let latch = llvm::LLVMGetInstructionParent(l.add.as_value_ref());
    let [header] = ir::successors(llvm::LLVMGetBasicBlockTerminator(latch))[..] else {
        return None;
    };
    let body = ir::natural_loop(header, latch);
    let term = llvm::LLVMGetBasicBlockTerminator(header);
    if llvm::LLVMIsABranchInst(term).is_null() || llvm::LLVMIsConditional(term) == 0 {
        return None;
    }
    let cmp = llvm::LLVMGetCondition(term);
    if llvm::LLVMIsAICmpInst(cmp).is_null() {
        return None;
    }
    use LLVMIntPredicate::*;
    let (iv, mut ub) = (llvm::LLVMGetOperand(cmp, 0), llvm::LLVMGetOperand(cmp, 1));
    let plus_one = match (llvm::LLVMGetICmpPredicate(cmp), l.unsigned) {
        (LLVMIntSLE, false) | (LLVMIntULE, true) => false,
        (LLVMIntSLT, false) | (LLVMIntULT, true) => true,
        _ => return None,
    };
    if plus_one {
        // `add (load ub), 1`
        let is_add = !llvm::LLVMIsABinaryOperator(ub).is_null()
            && llvm::LLVMGetInstructionOpcode(ub) == llvm_sys::LLVMOpcode::LLVMAdd;
        if !is_add || ir::const_int(llvm::LLVMGetOperand(ub, 1)) != Some(1) {
            return None;
        }
        ub = llvm::LLVMGetOperand(ub, 0);
    }
    if !ir::is_load_of(iv, l.slot) || llvm::LLVMIsALoadInst(ub).is_null() {
        return None;
    }
    // The bound's slot and the counter's: stack slots that only loads, stores and lifetime
    // markers use, so that nothing but the stores the copy rewrites (or, for the bound, none in
    // the loop) can change them.
    let ub_slot = llvm::LLVMGetOperand(ub, 0);
    if ub_slot == l.slot || !ir::private_slot(ub_slot) || !ir::private_slot(l.slot) {
        return None;
    }
    // One way in, from a block that only branches to the header.
    let outside_preds: Vec<LLVMBasicBlockRef> = ir::predecessors(header)
        .into_iter()
        .filter(|p| !body.contains(p))
        .collect();
    let [preheader] = outside_preds[..] else {
        return None;
    };
    let pre_term = llvm::LLVMGetBasicBlockTerminator(preheader);
    if ir::successors(pre_term) != [header] || llvm::LLVMIsConditional(pre_term) != 0 {
        return None;
    }
    for &bb in &body {
        for inst in instructions(bb) {
            if ir::is_store_to(inst, ub_slot) {
                return None;
            }
            if bb == header && !llvm::LLVMIsAPHINode(inst).is_null() {
                return None;
            }
            let used_outside = ir::users(inst)
                .into_iter()
                .any(|u| !body.contains(&llvm::LLVMGetInstructionParent(u)));
            if used_outside {
                return None;
            }
        }
        for s in ir::successors(llvm::LLVMGetBasicBlockTerminator(bb)) {
            if !body.contains(&s)
                && instructions(s)
                    .first()
                    .is_some_and(|i| !llvm::LLVMIsAPHINode(*i).is_null())
            {
                return None;
            }
        }
    }
    Some(Shape {
        header,
        latch,
        preheader,
        body,
        ub_slot,
        cmp,
        plus_one,
    })
}

unsafe fn add_copy(device: &Module<'_>, l: &CyclicLoop<'_>, s: &Shape) -> anyhow::Result<()> {
    let ctx = device.get_context();
    let cx = llvm::LLVMGetModuleContext(device.as_mut_ptr());
    let i32t = llvm::LLVMInt32TypeInContext(cx);
    let i64t = llvm::LLVMInt64TypeInContext(cx);
    let f = llvm::LLVMGetBasicBlockParent(s.header);
    let b = ctx.create_builder();
    let raw = b.as_mut_ptr();
    let name = |s: &str| std::ffi::CString::new(s).unwrap_or_default();

    // The 32-bit counter's slot, at the top of the entry block with clang's.
    let entry = llvm::LLVMGetEntryBasicBlock(f);
    llvm::LLVMPositionBuilderBefore(raw, llvm::LLVMGetFirstInstruction(entry));
    let iv32 = llvm::LLVMBuildAlloca(raw, i32t, name("ptxcc.iv32").as_ptr());
    let ub32 = llvm::LLVMBuildAlloca(raw, i32t, name("ptxcc.ub32").as_ptr());

    // The test on the entry edge.
    let fits_bb = llvm::LLVMAppendBasicBlockInContext(cx, f, name("ptxcc.fits").as_ptr());
    llvm::LLVMMoveBasicBlockAfter(fits_bb, s.preheader);
    let narrow_bb = llvm::LLVMAppendBasicBlockInContext(cx, f, name("ptxcc.loop32").as_ptr());
    llvm::LLVMMoveBasicBlockAfter(narrow_bb, fits_bb);
    let pre_term = llvm::LLVMGetBasicBlockTerminator(s.preheader);
    llvm::LLVMSetOperand(pre_term, 0, llvm::LLVMBasicBlockAsValue(fits_bb));
    llvm::LLVMPositionBuilderAtEnd(raw, fits_bb);
    same_line_as(raw, pre_term);
    let lb = llvm::LLVMBuildLoad2(raw, i64t, l.slot, name("ptxcc.lb64").as_ptr());
    let ub = llvm::LLVMBuildLoad2(raw, i64t, s.ub_slot, name("ptxcc.ub64").as_ptr());
    let fits_block = inkwell::basic_block::BasicBlock::new(fits_bb)
        .ok_or_else(|| anyhow::anyhow!("no block"))?;
    b.position_at_end(fits_block);
    let n = l
        .level
        .count(device, &b, device.get_context().i64_type())?
        .as_value_ref();
    let c = |v: i64| llvm::LLVMConstInt(i64t, v as u64, 1);
    let fits = if l.unsigned {
        // Both in [0, INT_MAX - n]: the counter is never negative, so sext is zext.
        let room = llvm::LLVMBuildSub(raw, c(i32::MAX as i64), n, c"".as_ptr());
        let lb_ok = llvm::LLVMBuildICmp(
            raw,
            LLVMIntPredicate::LLVMIntULE,
            lb,
            c(i32::MAX as i64),
            c"".as_ptr(),
        );
        let ub_ok = llvm::LLVMBuildICmp(raw, LLVMIntPredicate::LLVMIntULE, ub, room, c"".as_ptr());
        llvm::LLVMBuildAnd(raw, lb_ok, ub_ok, name("ptxcc.fits32").as_ptr())
    } else {
        // lb in [INT_MIN, INT_MAX], ub in [INT_MIN, INT_MAX - n].
        let in_i32 = |v: LLVMValueRef, hi: LLVMValueRef| {
            let lo = llvm::LLVMBuildICmp(
                raw,
                LLVMIntPredicate::LLVMIntSGE,
                v,
                c(i32::MIN as i64),
                c"".as_ptr(),
            );
            let up = llvm::LLVMBuildICmp(raw, LLVMIntPredicate::LLVMIntSLE, v, hi, c"".as_ptr());
            llvm::LLVMBuildAnd(raw, lo, up, c"".as_ptr())
        };
        let room = llvm::LLVMBuildSub(raw, c(i32::MAX as i64), n, c"".as_ptr());
        let lb_ok = in_i32(lb, c(i32::MAX as i64));
        let ub_ok = in_i32(ub, room);
        llvm::LLVMBuildAnd(raw, lb_ok, ub_ok, name("ptxcc.fits32").as_ptr())
    };
    llvm::LLVMBuildCondBr(raw, fits, narrow_bb, s.header);

    // The copy, its exits through blocks that give `.omp.iv` its 64-bit value back.
    let mut exits: HashMap<LLVMBasicBlockRef, LLVMBasicBlockRef> = HashMap::new();
    let mut last = *s
        .body
        .iter()
        .max_by_key(|bb| block_index(**bb))
        .unwrap_or(&s.latch);
    for &bb in &s.body {
        for t in ir::successors(llvm::LLVMGetBasicBlockTerminator(bb)) {
            if s.body.contains(&t) || exits.contains_key(&t) {
                continue;
            }
            let land = llvm::LLVMAppendBasicBlockInContext(cx, f, name("ptxcc.iv64").as_ptr());
            llvm::LLVMMoveBasicBlockAfter(land, last);
            last = land;
            llvm::LLVMPositionBuilderAtEnd(raw, land);
            let v = llvm::LLVMBuildLoad2(raw, i32t, iv32, c"".as_ptr());
            let v = llvm::LLVMBuildSExt(raw, v, i64t, c"".as_ptr());
            llvm::LLVMBuildStore(raw, v, l.slot);
            llvm::LLVMBuildBr(raw, t);
            exits.insert(t, land);
        }
    }
    let mut in_order = s.body.clone();
    in_order.sort_by_key(|bb| block_index(*bb));
    let map = ir::clone_blocks(&in_order, last, &exits, ".i32");
    ir::mark_loop_copy(&map);
    let copy_of = |v: LLVMValueRef| map.get(&v).copied();
    let header_copy =
        copy_of(llvm::LLVMBasicBlockAsValue(s.header)).map(|v| llvm::LLVMValueAsBasicBlock(v));
    let Some(header_copy) = header_copy else {
        anyhow::bail!("loop header was not copied")
    };
    llvm::LLVMPositionBuilderAtEnd(raw, narrow_bb);
    let lb32 = llvm::LLVMBuildTrunc(raw, lb, i32t, c"".as_ptr());
    llvm::LLVMBuildStore(raw, lb32, iv32);
    let ub_32 = llvm::LLVMBuildTrunc(raw, ub, i32t, c"".as_ptr());
    llvm::LLVMBuildStore(raw, ub_32, ub32);
    llvm::LLVMBuildBr(raw, header_copy);

    // Narrow the copy: the counter's loads and stores, the bound's loads, the increment.
    let add_copy = copy_of(l.add.as_value_ref());
    for &bb in &in_order {
        for inst in instructions(bb) {
            let Some(copy) = copy_of(inst) else { continue };
            llvm::LLVMPositionBuilderBefore(raw, copy);
            same_line_as(raw, copy);
            let replacement = if ir::is_load_of(copy, l.slot) {
                let v = llvm::LLVMBuildLoad2(raw, i32t, iv32, c"".as_ptr());
                Some(llvm::LLVMBuildSExt(raw, v, i64t, c"".as_ptr()))
            } else if ir::is_load_of(copy, s.ub_slot) {
                let v = llvm::LLVMBuildLoad2(raw, i32t, ub32, c"".as_ptr());
                Some(llvm::LLVMBuildSExt(raw, v, i64t, c"".as_ptr()))
            } else if inst == s.cmp {
                // Compared in i32 here, not as sext of both sides: instcombine would turn the
                // bound's sext(trunc(ub)) into a shift pair, and the compare would stay i64.
                let i = llvm::LLVMBuildLoad2(raw, i32t, iv32, c"".as_ptr());
                let mut u = llvm::LLVMBuildLoad2(raw, i32t, ub32, c"".as_ptr());
                if s.plus_one {
                    u = llvm::LLVMBuildNSWAdd(raw, u, llvm::LLVMConstInt(i32t, 1, 0), c"".as_ptr());
                    llvm::LLVMSetNUW(u, 1);
                }
                Some(llvm::LLVMBuildICmp(
                    raw,
                    llvm::LLVMGetICmpPredicate(copy),
                    i,
                    u,
                    c"".as_ptr(),
                ))
            } else if Some(copy) == add_copy {
                let x =
                    llvm::LLVMBuildTrunc(raw, llvm::LLVMGetOperand(copy, 0), i32t, c"".as_ptr());
                let y =
                    llvm::LLVMBuildTrunc(raw, llvm::LLVMGetOperand(copy, 1), i32t, c"".as_ptr());
                let sum = llvm::LLVMBuildNSWAdd(raw, x, y, name("ptxcc.next32").as_ptr());
                llvm::LLVMSetNUW(sum, l.unsigned as i32);
                Some(llvm::LLVMBuildSExt(raw, sum, i64t, c"".as_ptr()))
            } else if ir::is_store_to(copy, l.slot) {
                let v =
                    llvm::LLVMBuildTrunc(raw, llvm::LLVMGetOperand(copy, 0), i32t, c"".as_ptr());
                llvm::LLVMBuildStore(raw, v, iv32);
                llvm::LLVMInstructionEraseFromParent(copy);
                None
            } else {
                None
            };
            if let Some(r) = replacement {
                llvm::LLVMReplaceAllUsesWith(copy, r);
                llvm::LLVMInstructionEraseFromParent(copy);
            }
        }
    }

    // The copy is the loop that runs; the 64-bit one only past INT_MAX, not worth unrolling.
    let latch_copy = copy_of(llvm::LLVMGetBasicBlockTerminator(s.latch));
    if let (true, Some(t)) = (l.unroll, latch_copy) {
        ir::set_loop_unroll_count(t, super::UNROLL);
    }
    ir::set_loop_unroll(llvm::LLVMGetBasicBlockTerminator(s.latch), None);
    Ok(())
}

/// Gives what the builder makes next the source line of `inst` (`!dbg`, metadata kind 0).
unsafe fn same_line_as(b: llvm_sys::prelude::LLVMBuilderRef, inst: LLVMValueRef) {
    let dbg = llvm::LLVMGetMetadata(inst, 0);
    if !dbg.is_null() {
        llvm::LLVMSetCurrentDebugLocation2(b, llvm::LLVMValueAsMetadata(dbg));
    }
}

/// The position of a block in its function.
fn block_index(bb: LLVMBasicBlockRef) -> usize {
    let mut i = 0;
    unsafe {
        let mut b = llvm::LLVMGetPreviousBasicBlock(bb);
        while !b.is_null() {
            i += 1;
            b = llvm::LLVMGetPreviousBasicBlock(b);
        }
    }
    i
}

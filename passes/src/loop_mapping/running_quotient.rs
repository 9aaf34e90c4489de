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
}

/// Replaces the loop's divisions of its counter; returns how many.
///
/// # Safety
/// `c` must describe a loop of a function in clang's unoptimised form whose counter never
/// goes below zero.
pub(super) unsafe fn reduce(c: &Counter) -> anyhow::Result<usize> {
    let latch = llvm::LLVMGetInstructionParent(c.add);
    let [header] = ir::successors(llvm::LLVMGetBasicBlockTerminator(latch))[..] else {
        return Ok(0);
    };
    let body = ir::natural_loop(header, latch);
    let outside: Vec<LLVMBasicBlockRef> = ir::predecessors(header)
        .into_iter()
        .filter(|p| !body.contains(p))
        .collect();
    let [preheader] = outside[..] else {
        return Ok(0);
    };
    let Some(store) = ir::users(c.add)
        .into_iter()
        .find(|u| ir::is_store_to(*u, c.slot) && llvm::LLVMGetInstructionParent(*u) == latch)
    else {
        return Ok(0);
    };
    if !ir::private_slot(c.slot) {
        return Ok(0);
    }
    // The divisions, grouped by divisor (the same expression, reloaded, is one group).
    let mut groups: Vec<(String, LLVMValueRef, Vec<LLVMValueRef>)> = Vec::new();
    for &bb in &body {
        let mut inst = llvm::LLVMGetFirstInstruction(bb);
        while !inst.is_null() {
            let wanted = if c.unsigned {
                LLVMOpcode::LLVMUDiv
            } else {
                LLVMOpcode::LLVMSDiv
            };
            let is_div = !llvm::LLVMIsABinaryOperator(inst).is_null()
                && llvm::LLVMGetInstructionOpcode(inst) == wanted;
            if is_div && ir::is_load_of(llvm::LLVMGetOperand(inst, 0), c.slot) {
                let divisor = llvm::LLVMGetOperand(inst, 1);
                if let Some(key) = invariant_key(divisor, &body) {
                    match groups.iter_mut().find(|g| g.0 == key) {
                        Some(g) => g.2.push(inst),
                        None => groups.push((key, divisor, vec![inst])),
                    }
                }
            }
            inst = llvm::LLVMGetNextInstruction(inst);
        }
    }
    if groups.is_empty() {
        return Ok(0);
    }
    let ty = llvm::LLVMTypeOf(c.add);
    let ctx = llvm::LLVMGetTypeContext(ty);
    let b = llvm::LLVMCreateBuilderInContext(ctx);
    let done = build(b, c, ty, preheader, store, &body, &groups);
    llvm::LLVMDisposeBuilder(b);
    done
}

#[allow(clippy::too_many_arguments)]
unsafe fn build(
    b: LLVMBuilderRef,
    c: &Counter,
    ty: llvm_sys::prelude::LLVMTypeRef,
    preheader: LLVMBasicBlockRef,
    store: LLVMValueRef,
    body: &[LLVMBasicBlockRef],
    groups: &[(String, LLVMValueRef, Vec<LLVMValueRef>)],
) -> anyhow::Result<usize> {
    let name = |s: &str| std::ffi::CString::new(s).unwrap_or_default();
    let zero = llvm::LLVMConstInt(ty, 0, 0);
    let one = llvm::LLVMConstInt(ty, 1, 0);
    let f = llvm::LLVMGetBasicBlockParent(preheader);
    let entry = llvm::LLVMGetEntryBasicBlock(f);
    let mut replaced = 0;
    for (key, divisor, divisions) in groups {
        // The slots, with clang's at the top of the entry block.
        llvm::LLVMPositionBuilderBefore(b, llvm::LLVMGetFirstInstruction(entry));
        let qslot = llvm::LLVMBuildAlloca(b, ty, name("ptxcc.quot").as_ptr());
        let rslot = llvm::LLVMBuildAlloca(b, ty, name("ptxcc.rem").as_ptr());
        // Before the loop: the divisor, the start's and the step's quotient and remainder.
        llvm::LLVMPositionBuilderBefore(b, llvm::LLVMGetBasicBlockTerminator(preheader));
        let mut copies = HashMap::new();
        let m = rematerialize(b, *divisor, body, &mut copies);
        let positive = llvm::LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntSGT, m, zero, c"".as_ptr());
        let m = llvm::LLVMBuildSelect(b, positive, m, one, name("ptxcc.divisor").as_ptr());
        let lb = llvm::LLVMBuildLoad2(b, ty, c.slot, c"".as_ptr());
        llvm::LLVMBuildStore(b, llvm::LLVMBuildUDiv(b, lb, m, c"".as_ptr()), qslot);
        llvm::LLVMBuildStore(b, llvm::LLVMBuildURem(b, lb, m, c"".as_ptr()), rslot);
        let sq = llvm::LLVMBuildUDiv(b, c.step, m, name("ptxcc.step.quot").as_ptr());
        let sr = llvm::LLVMBuildURem(b, c.step, m, name("ptxcc.step.rem").as_ptr());
        // After the counter's increment: the remainder's, with its carry into the quotient.
        let next = llvm::LLVMGetNextInstruction(store);
        if next.is_null() {
            anyhow::bail!("the loop's latch has no terminator");
        }
        llvm::LLVMPositionBuilderBefore(b, next);
        let r = llvm::LLVMBuildAdd(
            b,
            llvm::LLVMBuildLoad2(b, ty, rslot, c"".as_ptr()),
            sr,
            c"".as_ptr(),
        );
        let wrap = llvm::LLVMBuildICmp(
            b,
            LLVMIntPredicate::LLVMIntUGE,
            r,
            m,
            name("ptxcc.carry").as_ptr(),
        );
        let r = llvm::LLVMBuildSelect(
            b,
            wrap,
            llvm::LLVMBuildSub(b, r, m, c"".as_ptr()),
            r,
            c"".as_ptr(),
        );
        llvm::LLVMBuildStore(b, r, rslot);
        let q = llvm::LLVMBuildAdd(
            b,
            llvm::LLVMBuildLoad2(b, ty, qslot, c"".as_ptr()),
            sq,
            c"".as_ptr(),
        );
        let q = llvm::LLVMBuildAdd(
            b,
            q,
            llvm::LLVMBuildZExt(b, wrap, ty, c"".as_ptr()),
            c"".as_ptr(),
        );
        llvm::LLVMBuildStore(b, q, qslot);
        // Each division reads the quotient, and clang's remainder `iv - q * m` the remainder.
        for &div in divisions {
            llvm::LLVMPositionBuilderBefore(b, div);
            let q = llvm::LLVMBuildLoad2(b, ty, qslot, name("ptxcc.q").as_ptr());
            llvm::LLVMReplaceAllUsesWith(div, q);
            llvm::LLVMInstructionEraseFromParent(div);
            for product in ir::users(q) {
                if !is_op(product, LLVMOpcode::LLVMMul) {
                    continue;
                }
                let (x, y) = (
                    llvm::LLVMGetOperand(product, 0),
                    llvm::LLVMGetOperand(product, 1),
                );
                let other = if x == q { y } else { x };
                if invariant_key(other, body).as_deref() != Some(key.as_str()) {
                    continue;
                }
                for rest in ir::users(product) {
                    if is_op(rest, LLVMOpcode::LLVMSub)
                        && llvm::LLVMGetOperand(rest, 1) == product
                        && ir::is_load_of(llvm::LLVMGetOperand(rest, 0), c.slot)
                    {
                        llvm::LLVMPositionBuilderBefore(b, rest);
                        let r = llvm::LLVMBuildLoad2(b, ty, rslot, name("ptxcc.r").as_ptr());
                        llvm::LLVMReplaceAllUsesWith(rest, r);
                        llvm::LLVMInstructionEraseFromParent(rest);
                    }
                }
            }
            replaced += 1;
        }
    }
    Ok(replaced)
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
    let op = llvm::LLVMGetInstructionOpcode(v);
    use LLVMOpcode::*;
    // clang's normalisation writes `(x - 0) / 1 * 1`: those are x.
    let (a, b) = (llvm::LLVMGetOperand(v, 0), llvm::LLVMGetOperand(v, 1));
    let identity = match op {
        LLVMSub | LLVMAdd | LLVMShl if ir::const_int(b) == Some(0) => Some(a),
        LLVMSDiv | LLVMUDiv if ir::const_int(b) == Some(1) => Some(a),
        LLVMMul if ir::const_int(b) == Some(1) => Some(a),
        LLVMMul | LLVMAdd if ir::const_int(a) == Some(if op == LLVMMul { 1 } else { 0 }) => Some(b),
        _ => None,
    };
    if let Some(x) = identity {
        return invariant_key(x, body);
    }
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

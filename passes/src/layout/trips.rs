//! Loop trip counts for `-fptxcc-layout=auto`'s vote: how many times each basic block of a
//! kernel runs per iteration of the threads' own loop, as far as constants say. An access in
//! `for (c = 0; c < 16; c++)` weighs 16; one outside any loop, or in a loop whose trip count is
//! not a constant, weighs 1.
//!
//! Loops are the natural loops of the CFG's back edges (a DFS from the entry; a branch to a
//! block on the DFS stack). A loop's trip count is read from a conditional branch out of it
//! (its header's or its latch's) on `icmp PRED X, C` with C a constant, X a counter: a local
//! (`alloca`) loaded there, stored a constant once outside the loop and `load + step` inside it
//! (clang's form before mem2reg), or a phi of a constant from outside and `phi + step` from the
//! latch. Counters that count down, steps that are not constants, and the threads' own loop
//! (its counter starts from the thread index: `exclude`) weigh 1.
//!
//! ```llvm
//!   store i32 0, ptr %c              ; init 0, outside
//!   br label %h
//! h:
//!   %x = load i32, ptr %c
//!   %t = icmp slt i32 %x, 16         ; C = 16, continue while true
//!   br i1 %t, label %body, label %exit
//! body:                              ; weighs 16
//!   …
//!   %n = add nsw i32 %x1, 1          ; step 1
//!   store i32 %n, ptr %c
//!   br label %h                      ; the back edge
//! ```
use crate::ir::opcode;
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::{LLVMIntPredicate, LLVMOpcode};
use std::collections::{HashMap, HashSet};

/// The most a block weighs (nests of large constant loops stop counting there).
const MAX_WEIGHT: u64 = 1 << 24;

fn successors(bb: LLVMBasicBlockRef) -> Vec<LLVMBasicBlockRef> {
    let t = unsafe { llvm::LLVMGetBasicBlockTerminator(bb) };
    if t.is_null() {
        Vec::new()
    } else {
        crate::ir::successors(t)
    }
}

/// The weight of every block of `f` (blocks not listed weigh 1). `exclude`: the locals that
/// hold the threads' own loop counter.
pub fn block_weights(
    f: LLVMValueRef,
    exclude: &HashSet<LLVMValueRef>,
) -> HashMap<LLVMBasicBlockRef, u64> {
    if unsafe { llvm::LLVMCountBasicBlocks(f) } == 0 {
        return HashMap::new();
    }
    let entry = unsafe { llvm::LLVMGetEntryBasicBlock(f) };
    // Back edges: an edge to a block on the DFS stack (iterative DFS).
    let mut loops: HashMap<LLVMBasicBlockRef, HashSet<LLVMBasicBlockRef>> = HashMap::new();
    let mut state: HashMap<LLVMBasicBlockRef, u8> = HashMap::new(); // 1 on stack, 2 done
    let mut stack: Vec<(LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>)> =
        vec![(entry, successors(entry))];
    state.insert(entry, 1);
    while let Some((b, rest)) = stack.last_mut() {
        let b = *b;
        match rest.pop() {
            Some(s) => match state.get(&s) {
                Some(1) => {
                    // b -> s closes a loop headed by s (several latches: one body).
                    loops
                        .entry(s)
                        .or_default()
                        .extend(crate::ir::natural_loop(s, b));
                }
                Some(_) => {}
                None => {
                    state.insert(s, 1);
                    stack.push((s, successors(s)));
                }
            },
            None => {
                state.insert(b, 2);
                stack.pop();
            }
        }
    }
    let mut weights: HashMap<LLVMBasicBlockRef, u64> = HashMap::new();
    for body in loops.values() {
        let Some(trips) = trip_count(body, exclude) else {
            continue;
        };
        for &b in body {
            let w = weights.entry(b).or_insert(1);
            *w = (*w).saturating_mul(trips).min(MAX_WEIGHT);
        }
    }
    weights
}

/// The constant trip count of the loop of blocks `body`, if a branch out of it says so.
fn trip_count(body: &HashSet<LLVMBasicBlockRef>, exclude: &HashSet<LLVMValueRef>) -> Option<u64> {
    body.iter().find_map(|&b| unsafe {
        let t = llvm::LLVMGetBasicBlockTerminator(b);
        if t.is_null() || opcode(t) != Some(LLVMOpcode::LLVMBr) || llvm::LLVMIsConditional(t) == 0 {
            return None;
        }
        let (on_true, on_false) = (llvm::LLVMGetSuccessor(t, 0), llvm::LLVMGetSuccessor(t, 1));
        let stays_if = match (body.contains(&on_true), body.contains(&on_false)) {
            (true, false) => true,
            (false, true) => false,
            _ => return None,
        };
        let cmp = llvm::LLVMGetCondition(t);
        if opcode(cmp) != Some(LLVMOpcode::LLVMICmp) {
            return None;
        }
        let (a, c) = (llvm::LLVMGetOperand(cmp, 0), llvm::LLVMGetOperand(cmp, 1));
        let mut pred = llvm::LLVMGetICmpPredicate(cmp);
        let (x, limit) = match (crate::ir::const_int(a), crate::ir::const_int(c)) {
            (None, Some(l)) => (a, l),
            (Some(l), None) => {
                pred = crate::ir::swapped_predicate(pred);
                (c, l)
            }
            _ => return None,
        };
        if !stays_if {
            pred = crate::ir::inverse_predicate(pred);
        }
        let (init, step) = counter(x, body, exclude)?;
        count(pred, init, limit, step)
    })
}

/// (first value, step) of the counter `x` of the loop `body`.
fn counter(
    x: LLVMValueRef,
    body: &HashSet<LLVMBasicBlockRef>,
    exclude: &HashSet<LLVMValueRef>,
) -> Option<(i64, i64)> {
    unsafe {
        let x = strip_ext(x);
        let inside = |v: LLVMValueRef| body.contains(&llvm::LLVMGetInstructionParent(v));
        match opcode(x)? {
            LLVMOpcode::LLVMLoad => {
                let slot = llvm::LLVMGetOperand(x, 0);
                if llvm::LLVMIsAAllocaInst(slot).is_null() || exclude.contains(&slot) {
                    return None;
                }
                let stores: Vec<LLVMValueRef> = crate::ir::users(slot)
                    .into_iter()
                    .filter(|&u| {
                        opcode(u) == Some(LLVMOpcode::LLVMStore)
                            && llvm::LLVMGetOperand(u, 1) == slot
                    })
                    .collect();
                let (ins, outs): (Vec<_>, Vec<_>) = stores.iter().partition(|&&s| inside(s));
                let [init] = outs.as_slice() else { return None };
                let [inc] = ins.as_slice() else { return None };
                let init = crate::ir::const_int(llvm::LLVMGetOperand(*init, 0))?;
                let step = step_of(llvm::LLVMGetOperand(*inc, 0), &|v| {
                    opcode(v) == Some(LLVMOpcode::LLVMLoad) && llvm::LLVMGetOperand(v, 0) == slot
                })?;
                Some((init, step))
            }
            LLVMOpcode::LLVMPHI => {
                let n = llvm::LLVMCountIncoming(x);
                let mut init = None;
                let mut step = None;
                for k in 0..n {
                    let v = llvm::LLVMGetIncomingValue(x, k);
                    if body.contains(&llvm::LLVMGetIncomingBlock(x, k)) {
                        step = Some(step_of(v, &|u| u == x)?);
                    } else {
                        init = Some(crate::ir::const_int(v)?);
                    }
                }
                Some((init?, step?))
            }
            _ => None,
        }
    }
}

/// The constant `c` of `v = base + c` where `is_base(base)`.
fn step_of(v: LLVMValueRef, is_base: &dyn Fn(LLVMValueRef) -> bool) -> Option<i64> {
    unsafe {
        if opcode(v) != Some(LLVMOpcode::LLVMAdd) {
            return None;
        }
        let (a, b) = (llvm::LLVMGetOperand(v, 0), llvm::LLVMGetOperand(v, 1));
        match (crate::ir::const_int(a), crate::ir::const_int(b)) {
            (None, Some(c)) if is_base(strip_ext(a)) => Some(c),
            (Some(c), None) if is_base(strip_ext(b)) => Some(c),
            _ => None,
        }
    }
}

fn strip_ext(mut v: LLVMValueRef) -> LLVMValueRef {
    while matches!(
        opcode(v),
        Some(LLVMOpcode::LLVMSExt | LLVMOpcode::LLVMZExt | LLVMOpcode::LLVMTrunc)
    ) {
        v = unsafe { llvm::LLVMGetOperand(v, 0) };
    }
    v
}

/// How many times `x = init; while (x PRED limit) x += step;` runs its body (counting up).
fn count(pred: LLVMIntPredicate, init: i64, limit: i64, step: i64) -> Option<u64> {
    use LLVMIntPredicate::*;
    if step <= 0 {
        return None;
    }
    let span = match pred {
        LLVMIntSLT | LLVMIntULT => limit.checked_sub(init)?,
        LLVMIntSLE | LLVMIntULE => limit.checked_sub(init)?.checked_add(1)?,
        LLVMIntNE if (limit - init) % step == 0 => limit.checked_sub(init)?,
        _ => return None,
    };
    if span <= 0 {
        return Some(0);
    }
    u64::try_from((span + step - 1) / step).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use LLVMIntPredicate::*;

    #[test]
    fn counts() {
        assert_eq!(count(LLVMIntSLT, 0, 16, 1), Some(16));
        assert_eq!(count(LLVMIntSLE, 0, 16, 1), Some(17));
        assert_eq!(count(LLVMIntSLT, 0, 16, 3), Some(6));
        assert_eq!(count(LLVMIntNE, 2, 10, 2), Some(4));
        assert_eq!(count(LLVMIntNE, 0, 10, 3), None);
        assert_eq!(count(LLVMIntSLT, 5, 5, 1), Some(0));
        assert_eq!(count(LLVMIntSGT, 0, 16, 1), None);
        assert_eq!(count(LLVMIntSLT, 0, 16, 0), None);
        assert_eq!(crate::ir::inverse_predicate(LLVMIntSGE), LLVMIntSLT);
        assert_eq!(crate::ir::swapped_predicate(LLVMIntSGT), LLVMIntSLT);
    }
}

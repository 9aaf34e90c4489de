//! A copy of a grid-stride loop for the threads that run it once.
//!
//! The runtime sizes a grid-stride loop's grid from its trip count, so almost every thread
//! runs one iteration ([`super::one_trip_per_thread`]). A `collapse(2)` or `collapse(3)` loop's
//! running quotients ([`super::running_quotient`]) still step in its latch after that one
//! iteration, two dozen integer instructions whose results nothing reads, before the loop's test
//! sends the thread out. nvcc's hand-written kernels (`if (k < n) body`) have no latch at all.
//! The running quotients already know, before the loop, whether the thread takes a second step
//! (`%ptxcc.more`), so the loop is versioned on it: the copy's latch leaves the loop, and its
//! steps are dead code that LLVM removes.
//!
//! ```llvm
//! join:   ...                 ; br label %cond       →  join:   br i1 %ptxcc.more, label %cond, label %cond.once
//! cond:   %iv = load ptr %iv ; %ub = load ...           (the loop, unchanged)
//!         br i1 (icmp sle %iv, %ub), label %body, label %exit
//! body:   ...                                            cond.once:  (the same test)
//! latch:  store %next, ptr %iv ; <steps> ; br label %cond   body.once:  ...
//!                                                       latch.once: store %next, ptr %iv ; <steps> ; br label %exit
//! ```
//!
//! Without `%ptxcc.more` the next counter is past the whole loop's last one, so the test the
//! copy's latch skips would have failed: the copy is the loop, for those threads. The loop is
//! left alone when the test is not the header's only work (it is skipped on the way out), when
//! a value of the loop is used outside it or the exit has phis (which the copy's new edge would
//! have to feed), or when the body holds a call that may synchronise with other threads (a
//! barrier must not become control dependent on a per-thread condition) or is large (the copy
//! doubles it).
use crate::ir;
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use std::collections::HashMap;

/// The instructions (clang's unoptimised IR) above which the loop is not copied.
const MAX_INSTRUCTIONS: usize = 4000;

/// The loop `body` (header first, `latch` among them), entered from `join` (which ends in a
/// branch to the header), versioned on `more`. Returns whether it was.
///
/// # Safety
/// The blocks must be one natural loop of one function, `more` an `i1` that dominates `join`'s
/// end and is false only for threads whose counter after one step is past the loop's last.
pub(super) unsafe fn version(
    join: LLVMBasicBlockRef,
    body: &[LLVMBasicBlockRef],
    latch: LLVMBasicBlockRef,
    more: LLVMValueRef,
) -> anyhow::Result<bool> {
    let Some(&header) = body.first() else {
        return Ok(false);
    };
    let Some(exit) = copyable(body, header) else {
        return Ok(false);
    };
    let enter = llvm::LLVMGetBasicBlockTerminator(join);
    if enter.is_null() || ir::successors(enter) != [header] {
        return Ok(false);
    }
    let map = ir::clone_blocks(
        body,
        *body.last().unwrap_or(&header),
        &HashMap::new(),
        ".once",
    );
    ir::mark_loop_copy(&map);
    let copy = |bb: LLVMBasicBlockRef| {
        map.get(&llvm::LLVMBasicBlockAsValue(bb))
            .map(|v| llvm::LLVMValueAsBasicBlock(*v))
    };
    let (Some(once), Some(latch_once)) = (copy(header), copy(latch)) else {
        anyhow::bail!("the loop's copy lost its header or latch");
    };
    // The copy's back edge (the latch's one successor, as `reduce` found it) leaves the loop;
    // it is no loop's latch any more: no loop metadata.
    let back = llvm::LLVMGetBasicBlockTerminator(latch_once);
    llvm::LLVMSetSuccessor(back, 0, exit);
    let ctx = llvm::LLVMGetTypeContext(llvm::LLVMTypeOf(more));
    llvm::LLVMSetMetadata(
        back,
        ir::metadata_kind(ctx, "llvm.loop"),
        std::ptr::null_mut(),
    );
    let b = llvm::LLVMCreateBuilderInContext(ctx);
    llvm::LLVMPositionBuilderBefore(b, enter);
    llvm::LLVMBuildCondBr(b, more, header, once);
    llvm::LLVMInstructionEraseFromParent(enter);
    llvm::LLVMDisposeBuilder(b);
    Ok(true)
}

/// The loop's exit (the header's successor outside it) when the loop can be copied as
/// [`version`] says.
unsafe fn copyable(
    body: &[LLVMBasicBlockRef],
    header: LLVMBasicBlockRef,
) -> Option<LLVMBasicBlockRef> {
    // The header: loads, arithmetic, compares and the branch out (clang's `iv <= ub` or
    // `iv < ub + 1`), nothing the way out would miss.
    let mut inst = llvm::LLVMGetFirstInstruction(header);
    while !inst.is_null() {
        let plain = !llvm::LLVMIsALoadInst(inst).is_null()
            || !llvm::LLVMIsABinaryOperator(inst).is_null()
            || !llvm::LLVMIsACmpInst(inst).is_null()
            || !llvm::LLVMIsACastInst(inst).is_null()
            || !llvm::LLVMIsASelectInst(inst).is_null()
            || !llvm::LLVMIsABranchInst(inst).is_null();
        if !plain || (!llvm::LLVMIsALoadInst(inst).is_null() && llvm::LLVMGetVolatile(inst) != 0) {
            return None;
        }
        inst = llvm::LLVMGetNextInstruction(inst);
    }
    let exit = ir::single_exit(llvm::LLVMGetBasicBlockTerminator(header), body)?;
    let convergent = llvm::LLVMGetEnumAttributeKindForName(c"convergent".as_ptr(), 10);
    let mut count = 0;
    for &bb in body {
        let mut inst = llvm::LLVMGetFirstInstruction(bb);
        while !inst.is_null() {
            count += 1;
            if count > MAX_INSTRUCTIONS {
                return None;
            }
            if !llvm::LLVMIsACallInst(inst).is_null() && may_synchronise(inst, convergent) {
                return None;
            }
            let used_outside = ir::users(inst).into_iter().any(|u| {
                llvm::LLVMIsAInstruction(u).is_null()
                    || !body.contains(&llvm::LLVMGetInstructionParent(u))
            });
            if used_outside {
                return None;
            }
            inst = llvm::LLVMGetNextInstruction(inst);
        }
    }
    Some(exit)
}

/// Whether `call` may wait for other threads: inline assembly, an indirect call, or a call
/// marked `convergent` (at the call or on the callee).
unsafe fn may_synchronise(call: LLVMValueRef, convergent: u32) -> bool {
    let callee = llvm::LLVMGetCalledValue(call);
    if callee.is_null() || llvm::LLVMIsAFunction(callee).is_null() {
        return true;
    }
    let at_call =
        !llvm::LLVMGetCallSiteEnumAttribute(call, llvm_sys::LLVMAttributeFunctionIndex, convergent)
            .is_null();
    let on_callee = !llvm::LLVMGetEnumAttributeAtIndex(
        callee,
        llvm_sys::LLVMAttributeFunctionIndex,
        convergent,
    )
    .is_null();
    at_call || on_callee
}

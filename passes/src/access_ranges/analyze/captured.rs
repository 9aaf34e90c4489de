//! Variables an outlined region receives by reference. A `distribute` loop whose body is a
//! `parallel for` region (OpenACC's gang loop with inner worker and vector loops) hands the
//! inner outlined function its pointers, bounds and the gang index as slots of its own frame;
//! a load of one is what the owner stored before its call, and the inner worksharing loop's
//! variable ranges over every iteration its static-init was given.
//!
//! ```llvm
//! store ptr %a, ptr %a.slot                 ; kernel entry: once
//! store i32 %i, ptr %i.slot                 ; every gang iteration, before the call
//! call void @inner(ptr %a.slot, ptr %i.slot)
//! ; in @inner: load ptr %a.addr → %a; load i32 %i.addr → the gang index
//! ```

use inkwell::values::InstructionValue;
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;

use super::{bound_slot, is_load_from, last_store_before, param_index, Analysis};
use crate::ir;

impl Analysis {
    /// What a load in an outlined function reads when it reads a variable its caller captured
    /// by reference: `load (arg k)` where the function's one call site passes a slot of the
    /// caller for argument k, or the caller's own such argument (a region nested in a region:
    /// OpenACC's gang, worker and vector loops) up to the function that owns the slot. OpenACC's
    /// gang loop with an inner vector loop (OpenMP `distribute` + `parallel for`) hands the
    /// inner region its pointers and the gang index so. The value is the owner's last store to
    /// the slot before its call (the gang index, stored every iteration) or, failing that, its
    /// only store, made in the entry block (a pointer stored once). Only when nothing else can
    /// write the slot meanwhile: every function on the way only loads through the argument or
    /// passes it on, and the owner hands the slot to no other call.
    pub(super) fn forwarded(&self, load: LLVMValueRef) -> Option<LLVMValueRef> {
        unsafe {
            if llvm::LLVMIsALoadInst(load).is_null() {
                return None;
            }
            let mut arg = ir::strip_casts(llvm::LLVMGetOperand(load, 0));
            for _ in 0..8 {
                if llvm::LLVMIsAArgument(arg).is_null() {
                    return None;
                }
                let f = llvm::LLVMGetParamParent(arg);
                if f == self.kernel || !self.only_read(arg, 8) {
                    return None;
                }
                let k = param_index(f, arg)?;
                let call = (*self.call_site.get(&f)?)?;
                let passed = ir::strip_casts(llvm::LLVMGetOperand(call, k));
                if llvm::LLVMIsAAllocaInst(passed).is_null() {
                    arg = passed;
                    continue;
                }
                return stored_before(call, passed);
            }
            None
        }
    }

    /// Whether a pointer argument is only read through: loaded, or passed on (once) to a
    /// function of the kernel whose parameter is only read through.
    fn only_read(&self, arg: LLVMValueRef, depth: u32) -> bool {
        if depth == 0 {
            return false;
        }
        ir::users(arg).into_iter().all(|u| unsafe {
            if ir::is_load_of(u, arg) {
                return true;
            }
            if llvm::LLVMIsACallInst(u).is_null() {
                return false;
            }
            let callee = llvm::LLVMGetCalledValue(u);
            if !matches!(self.call_site.get(&callee), Some(Some(c)) if *c == u) {
                return false;
            }
            once_among_arguments(u, arg)
                .is_some_and(|i| self.only_read(llvm::LLVMGetParam(callee, i), depth - 1))
        })
    }

    /// `(lb0, ub0)` when a loop starts at the load of a static-init call's lower-bound slot and
    /// tests the load of its upper-bound slot, the call not the split loop's (nor one of its
    /// chunk's): the bounds stored before the call, which every thread's part lies within.
    pub(super) fn workshared(
        &mut self,
        start: LLVMValueRef,
        bound: LLVMValueRef,
    ) -> Option<(LLVMValueRef, LLVMValueRef)> {
        let lb = is_load_from(start)?;
        let ub = bound_slot(bound)?;
        for call in ir::users(lb) {
            unsafe {
                if llvm::LLVMIsACallInst(call).is_null()
                    || llvm::LLVMGetOperand(call, 4) != lb
                    || llvm::LLVMGetOperand(call, 5) != ub
                    || call == self.marked
                {
                    continue;
                }
                let name = ir::callee_name(InstructionValue::new(call)).unwrap_or_default();
                if !name.starts_with("__kmpc_for_static_init_") || self.is_chain_call(call) {
                    continue;
                }
                return Some((last_store_before(call, lb)?, last_store_before(call, ub)?));
            }
        }
        None
    }
}

/// What the alloca `slot` holds when `call` (which gets it as one argument) starts: the last
/// store before the call up its block's chain of single predecessors, or the slot's only store
/// when that is in the entry block. None when another call could write it (the slot is handed
/// to another call, or twice to this one).
fn stored_before(call: LLVMValueRef, slot: LLVMValueRef) -> Option<LLVMValueRef> {
    unsafe {
        let users = ir::users(slot);
        if !users
            .iter()
            .all(|&u| u == call || ir::is_slot_access(u, slot))
            || once_among_arguments(call, slot).is_none()
        {
            return None;
        }
        let stores: Vec<LLVMValueRef> = users
            .into_iter()
            .filter(|&u| ir::is_store_to(u, slot))
            .collect();
        if let Some(v) = last_store_before(call, slot) {
            return Some(v);
        }
        let [store] = stores.as_slice() else {
            return None;
        };
        let caller = llvm::LLVMGetBasicBlockParent(llvm::LLVMGetInstructionParent(call));
        let entry = llvm::LLVMGetEntryBasicBlock(caller);
        // An entry-block store reaches every later block; in the call's own block
        // last_store_before would have found it.
        (llvm::LLVMGetInstructionParent(*store) == entry
            && llvm::LLVMGetInstructionParent(call) != entry)
            .then(|| llvm::LLVMGetOperand(*store, 0))
    }
}

/// The index of the one argument of `call` that is `v` (casts aside); None when `v` is passed
/// twice or not at all (then the callee could also reach it through another argument).
fn once_among_arguments(call: LLVMValueRef, v: LLVMValueRef) -> Option<u32> {
    unsafe {
        let mut found = None;
        for i in 0..llvm::LLVMGetNumArgOperands(call) {
            if ir::strip_casts(llvm::LLVMGetOperand(call, i)) == v {
                if found.is_some() {
                    return None;
                }
                found = Some(i);
            }
        }
        found
    }
}

//! Whether code other than the region's own may find an array (`-fptxcc-layout=auto`, host IR):
//! a function of another file that the region calls could launch a kernel on it, compiled
//! without the region's layout. `auto` keeps such an array's layout when the region makes such
//! a call (`auto::reached_from_elsewhere`).
//!
//! Other code may find the array when one of its pointer's origins (`ir::pointer_origins`) is
//! something other code names or may hold — a global of external linkage, a pointer read from
//! memory, a parameter without `restrict` (the caller may have kept it anywhere), the result
//! of a call that is not an allocation — or when the object escapes: its address is stored
//! anywhere but the function's own slots, converted to an integer, returned, or passed to a
//! function of another file (or through a pointer); a function of this file it is passed to
//! is followed through its parameter.
//!
//! ```c
//! double *u;                      // external: another file may read u
//! double *p = malloc(n * 8);      // an allocation: other code finds it only if it escapes
//! keep(p);                        // keep() of another file: p escapes
//! ```
use super::auto::is_library;
use crate::ir;
use inkwell::values::InstructionValue;
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use std::collections::HashSet;

/// How many values the walk follows before it gives up (and says the array may escape).
const LIMIT: usize = 4096;
/// The same for a kernel's parameter (`parameter_escapes`): one walk per kernel parameter, and
/// a kernel such as NPB BT's block-tridiagonal solve touches its arrays in thousands of places.
const KERNEL_LIMIT: usize = 1 << 17;

/// Some(how) when code other than the region's may find the array at `v`.
pub(super) fn others_may_reach(v: LLVMValueRef) -> Option<String> {
    let Some(origins) = ir::pointer_origins(v) else {
        return Some("its pointer has too many origins to follow".into());
    };
    let mut walk = Walk::new(LIMIT);
    for o in origins {
        if let Some(how) = unsafe { named_by_others(o) } {
            return Some(how);
        }
        if let Some(how) = walk.escapes(o) {
            return Some(how);
        }
    }
    None
}

/// Some(how) when the pointer a function gets as its parameter `param` escapes from it (a
/// kernel's host fallback storing its argument in memory, say: `auto::stored_by_kernels`).
pub(super) fn parameter_escapes(param: LLVMValueRef) -> Option<String> {
    Walk::new(KERNEL_LIMIT).escapes(param)
}

/// Some(how) when the origin `o` itself is something other code may name or hold.
unsafe fn named_by_others(o: LLVMValueRef) -> Option<String> {
    if !llvm::LLVMIsAGlobalValue(o).is_null() {
        let internal = matches!(
            llvm::LLVMGetLinkage(o),
            llvm_sys::LLVMLinkage::LLVMInternalLinkage | llvm_sys::LLVMLinkage::LLVMPrivateLinkage
        );
        return (!internal)
            .then(|| format!("'{}' is a global other files can name", ir::value_name(o)));
    }
    if !llvm::LLVMIsAAllocaInst(o).is_null() {
        return None;
    }
    if !llvm::LLVMIsAArgument(o).is_null() {
        return (!ir::is_noalias_argument(o)).then(|| {
            "it comes from a parameter without 'restrict', which the caller may also keep elsewhere".into()
        });
    }
    if !llvm::LLVMIsALoadInst(o).is_null() {
        return Some("its pointer is read from memory, where other code may read it too".into());
    }
    if !llvm::LLVMIsACallInst(o).is_null() {
        return (!ir::is_allocation_call(o)).then(|| {
            format!(
                "its pointer is what '{}' returns, which may keep it",
                ir::callee_name_raw(o).unwrap_or_else(|| "a call".into())
            )
        });
    }
    Some("its pointer's origin is not one ptxcc follows".into())
}

/// A value the walk follows: the array's pointer itself, or memory that holds it (a slot), or
/// memory that holds the address of such memory (depth 2, …).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Item {
    Pointer(LLVMValueRef),
    Holder(LLVMValueRef, u8),
}

/// The OpenMP runtime's calls that run an outlined body on host threads with their trailing
/// arguments (`parallel`, `teams` in a host fallback).
const FORKS: &[&str] = &["__kmpc_fork_call", "__kmpc_fork_teams"];

/// How deep the walk follows memory holding memory holding the pointer.
const DEPTH: u8 = 3;

struct Walk {
    seen: HashSet<Item>,
    /// How many values it follows before it gives up.
    limit: usize,
}

impl Walk {
    fn new(limit: usize) -> Walk {
        Walk {
            seen: HashSet::new(),
            limit,
        }
    }

    /// Some(how) when the object `o` (or a pointer derived from it) escapes.
    fn escapes(&mut self, o: LLVMValueRef) -> Option<String> {
        let mut work = vec![Item::Pointer(o)];
        while let Some(item) = work.pop() {
            if !self.seen.insert(item) {
                continue;
            }
            if self.seen.len() > self.limit {
                return Some("its uses are too many to follow".into());
            }
            let (Item::Pointer(w) | Item::Holder(w, _)) = item;
            for u in ir::users(w) {
                let how = unsafe {
                    match item {
                        Item::Pointer(_) => pointer_use(w, u, &mut work),
                        Item::Holder(_, depth) => holder_use(w, depth, u, &mut work),
                    }
                };
                if how.is_some() {
                    return how;
                }
            }
        }
        None
    }
}

/// The function's own slots a store's address `dest` points into (`alloca`s only), or None
/// when it may be memory other code reads.
unsafe fn own_slots(dest: LLVMValueRef) -> Option<Vec<LLVMValueRef>> {
    ir::pointer_origins(dest).filter(|into| {
        !into.is_empty() && into.iter().all(|&s| !llvm::LLVMIsAAllocaInst(s).is_null())
    })
}

/// Address arithmetic on `u`'s operand: the result points where it does.
unsafe fn derives(u: LLVMValueRef) -> bool {
    !llvm::LLVMIsAGetElementPtrInst(u).is_null()
        || (!llvm::LLVMIsACastInst(u).is_null() && llvm::LLVMIsAPtrToIntInst(u).is_null())
        || !llvm::LLVMIsAPHINode(u).is_null()
        || !llvm::LLVMIsASelectInst(u).is_null()
        || !llvm::LLVMIsAConstantExpr(u).is_null()
}

/// The call `u` passes `w`: Some(how) when that lets it escape; a function of this file is
/// followed through the parameters that get it (as `wrap` says: the pointer or its holder).
unsafe fn passed(
    w: LLVMValueRef,
    u: LLVMValueRef,
    work: &mut Vec<Item>,
    wrap: impl Fn(LLVMValueRef) -> Item,
) -> Option<String> {
    let Some(name) = ir::callee_name_raw(u) else {
        return Some("its address is passed to a function through a pointer".into());
    };
    let call = InstructionValue::new(u);
    if FORKS.contains(&name.as_str()) {
        // `__kmpc_fork_call(loc, argc, body, args…)` runs `body(gtid, btid, args…)`.
        let body = ir::strip_casts(ir::call_arg_raw(call, 2));
        if llvm::LLVMIsAFunction(body).is_null() || llvm::LLVMCountBasicBlocks(body) == 0 {
            return Some(format!("its address is handed to '{name}'"));
        }
        for k in 3..ir::call_arg_count(call) {
            if ir::call_arg_raw(call, k) == w && k - 1 < llvm::LLVMCountParams(body) {
                work.push(wrap(llvm::LLVMGetParam(body, k - 1)));
            }
        }
        return None;
    }
    if is_library(&name) {
        // A function handed to the runtime with it (a task's entry) gets it where the walk
        // does not look.
        if let Some(f) = ir::passed_functions(call).first() {
            return Some(format!("its address is handed to '{name}' with '{f}'"));
        }
        return None;
    }
    let callee = ir::strip_casts(llvm::LLVMGetCalledValue(u));
    if llvm::LLVMCountBasicBlocks(callee) == 0 {
        return Some(format!("its address is passed to '{name}' of another file"));
    }
    for k in 0..ir::call_arg_count(call) {
        if ir::call_arg_raw(call, k) != w {
            continue;
        }
        if k >= llvm::LLVMCountParams(callee) {
            return Some(format!(
                "its address is passed to '{name}' as a variadic argument"
            ));
        }
        work.push(wrap(llvm::LLVMGetParam(callee, k)));
    }
    None
}

/// What the use `u` of the array's pointer `w` does (Some(how): it escapes).
unsafe fn pointer_use(w: LLVMValueRef, u: LLVMValueRef, work: &mut Vec<Item>) -> Option<String> {
    if derives(u) {
        work.push(Item::Pointer(u));
        return None;
    }
    if !llvm::LLVMIsALoadInst(u).is_null()
        || !llvm::LLVMIsAICmpInst(u).is_null()
        || !llvm::LLVMIsAFreezeInst(u).is_null()
    {
        return None;
    }
    if !llvm::LLVMIsAStoreInst(u).is_null() {
        if llvm::LLVMGetOperand(u, 0) != w {
            return None; // a store through it
        }
        // Stored into the function's own memory: follow what holds it.
        let Some(into) = own_slots(llvm::LLVMGetOperand(u, 1)) else {
            return Some("its address is stored where other code may read it".into());
        };
        work.extend(into.into_iter().map(|s| Item::Holder(s, 1)));
        return None;
    }
    // An atomic update or compare-and-swap at the address (a reduction's): only a pointer it
    // writes as the value escapes.
    if !llvm::LLVMIsAAtomicRMWInst(u).is_null() || !llvm::LLVMIsAAtomicCmpXchgInst(u).is_null() {
        let written =
            (1..llvm::LLVMGetNumOperands(u)).any(|k| llvm::LLVMGetOperand(u, k as u32) == w);
        return written.then(|| "its address is written to memory by an atomic operation".into());
    }
    if !llvm::LLVMIsAPtrToIntInst(u).is_null() {
        return Some("its address is converted to an integer".into());
    }
    if !llvm::LLVMIsAReturnInst(u).is_null() {
        return Some("its address is returned to the caller".into());
    }
    if !llvm::LLVMIsACallInst(u).is_null() || !llvm::LLVMIsAInvokeInst(u).is_null() {
        return passed(w, u, work, Item::Pointer);
    }
    Some("a use of its address is not one ptxcc follows".into())
}

/// What the use `u` of memory `w` that holds the array's pointer (at `depth`: 1 the pointer, 2
/// the address of memory holding it, …) does.
unsafe fn holder_use(
    w: LLVMValueRef,
    depth: u8,
    u: LLVMValueRef,
    work: &mut Vec<Item>,
) -> Option<String> {
    if derives(u) {
        work.push(Item::Holder(u, depth));
        return None;
    }
    if !llvm::LLVMIsALoadInst(u).is_null() {
        // What is read back may be the pointer (or another member: followed the same way).
        let ty = llvm::LLVMTypeOf(u);
        if llvm::LLVMGetTypeKind(ty) == llvm_sys::LLVMTypeKind::LLVMPointerTypeKind {
            work.push(if depth == 1 {
                Item::Pointer(u)
            } else {
                Item::Holder(u, depth - 1)
            });
        }
        return None;
    }
    if !llvm::LLVMIsAStoreInst(u).is_null() {
        if llvm::LLVMGetOperand(u, 0) != w {
            return None; // a store into it
        }
        // Its address kept in the function's own memory: follow that too.
        let into = own_slots(llvm::LLVMGetOperand(u, 1)).filter(|_| depth < DEPTH);
        let Some(into) = into else {
            return Some("the address of memory holding it is stored elsewhere".into());
        };
        work.extend(into.into_iter().map(|s| Item::Holder(s, depth + 1)));
        return None;
    }
    if !llvm::LLVMIsAICmpInst(u).is_null() {
        return None;
    }
    if !llvm::LLVMIsACallInst(u).is_null() || !llvm::LLVMIsAInvokeInst(u).is_null() {
        // Copies of the memory (memcpy) carry the pointer where the walk does not look.
        let name = ir::callee_name_raw(u).unwrap_or_default();
        if name.starts_with("llvm.memcpy") || name.starts_with("llvm.memmove") || name == "memcpy" {
            return Some("memory holding it is copied".into());
        }
        return passed(w, u, work, |p| Item::Holder(p, depth));
    }
    Some("a use of memory holding it is not one ptxcc follows".into())
}

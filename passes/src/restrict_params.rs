//! Restrict pointers reach the kernels (host IR, before device extraction): a kernel parameter
//! that receives a `restrict` parameter of the function around the `target` region becomes
//! `noalias`.
//!
//! Clang outlines a target region into a function of its own whose pointer parameters carry
//! nothing of what the enclosing function promised. In NPB CG's
//! `cg_conj_grad(…, double *restrict p, …, double *restrict r)` the first kernel stores `p[j]`
//! and reads `r[j]` after it, and without the promise LLVM must load `r[j]` again:
//!
//! ```llvm
//! define internal double @cg_conj_grad(i64 %n, ptr noalias %p, ptr noalias %r) {
//!   %p.addr = alloca ptr                ; stored once, from the parameter, and only loaded
//!   store ptr %p, ptr %p.addr
//!   …
//!   %0 = load ptr, ptr %p.addr
//!   %1 = load ptr, ptr %r.addr
//!   call void @__omp_offloading_…_l12(i64 %n, ptr %0, ptr %1)     ; the host fallback
//!
//! define internal void @__omp_offloading_…_l12(i64 %n, ptr %p, ptr %r)
//!   ; after:                                   (i64 %n, ptr noalias %p, ptr noalias %r)
//! ```
//!
//! Why it holds: C's `restrict` promises that, while `cg_conj_grad` runs, what is modified
//! through `p` is reached through no pointer not based on `p`; the region runs inside it, and
//! the device copies keep the host's non-overlap (distinct mappings are distinct device
//! memory; one mapping enclosing both keeps their offsets). The parameter must be based on an
//! argument of the enclosing function marked `noalias` (clang's `restrict`), passed directly
//! or through its own stack slot (`ir::private_slot`, the argument its one store: a slot whose
//! address escapes could be changed), at every call of the kernel function, and every
//! other pointer parameter of the call must be known to be based on something else — another
//! argument, a local or global object — since `p` and `p + n/2` are both based on `p` and may
//! overlap, and a pointer loaded from memory could be either. Inside, the kernel must take no
//! pointer from memory (`pointers_from_parameters_only`): `A->a`, or a pointer variable captured
//! by reference, may hold `p` without being that parameter.
use crate::ir;
use inkwell::attributes::AttributeLoc;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::LLVMOpcode;

/// What `v` is based on, as far as it can be told: through casts and address arithmetic, and
/// from a private stack slot (`ir::private_slot`: nothing but its stores can change it) that
/// holds one argument to that argument.
fn base_of(mut v: LLVMValueRef) -> LLVMValueRef {
    unsafe {
        loop {
            if !llvm::LLVMIsACastInst(v).is_null() || !llvm::LLVMIsAGetElementPtrInst(v).is_null() {
                v = llvm::LLVMGetOperand(v, 0);
                continue;
            }
            if !llvm::LLVMIsALoadInst(v).is_null() {
                if let Some(arg) = slot_argument(llvm::LLVMGetOperand(v, 0)) {
                    return arg;
                }
            }
            return v;
        }
    }
}

/// The argument a private stack slot holds: the one value stored into it, an argument.
fn slot_argument(slot: LLVMValueRef) -> Option<LLVMValueRef> {
    match ir::slot_values(slot)?[..] {
        [v] if unsafe { !llvm::LLVMIsAArgument(v).is_null() } => Some(v),
        _ => None,
    }
}

/// A private stack slot that only arguments are stored into (clang's spills of parameters).
fn is_spill_slot(slot: LLVMValueRef) -> bool {
    ir::slot_values(slot).is_some_and(|vs| {
        vs.iter()
            .all(|&v| unsafe { !llvm::LLVMIsAArgument(v).is_null() })
    })
}

/// Is a pointer with base `b` known not to be based on argument `a`: another argument, a local
/// or global object, or null? (Anything else — a pointer loaded from memory, a phi, a call's
/// result — might be.)
fn not_based_on(b: LLVMValueRef, a: LLVMValueRef) -> bool {
    unsafe {
        b != a
            && (!llvm::LLVMIsAArgument(b).is_null()
                || !llvm::LLVMIsAAllocaInst(b).is_null()
                || !llvm::LLVMIsAGlobalValue(b).is_null()
                || !llvm::LLVMIsAConstantPointerNull(b).is_null())
    }
}

/// The parameters of `kernel` (its host-fallback function) every call passes a distinct
/// `restrict` argument of the caller to.
fn restrict_params(kernel: FunctionValue<'_>) -> Vec<u32> {
    let calls: Vec<LLVMValueRef> = ir::users(kernel.as_value_ref())
        .into_iter()
        .filter(|&u| unsafe {
            !llvm::LLVMIsACallInst(u).is_null()
                && llvm::LLVMGetCalledValue(u) == kernel.as_value_ref()
        })
        .collect();
    // Every use of the function must be one of those calls (not its address taken).
    if calls.is_empty() || calls.len() != ir::users(kernel.as_value_ref()).len() {
        return Vec::new();
    }
    let n = kernel.count_params();
    let is_pointer = |k: u32| {
        kernel
            .get_nth_param(k)
            .is_some_and(|p| p.is_pointer_value())
    };
    (0..n)
        .filter(|&k| is_pointer(k))
        .filter(|&k| {
            calls.iter().all(|&call| unsafe {
                let args: Vec<LLVMValueRef> =
                    (0..n).map(|i| llvm::LLVMGetOperand(call, i)).collect();
                let origin = base_of(args[k as usize]);
                if !ir::is_noalias_argument(origin) {
                    return false;
                }
                // No other pointer of the call may be based on the same argument.
                (0..n)
                    .filter(|&i| i != k && is_pointer(i))
                    .all(|i| not_based_on(base_of(args[i as usize]), origin))
            })
        })
        .collect()
}

/// Does `ty` hold a pointer (itself, or an element or field of it)?
fn holds_pointer(ty: llvm_sys::prelude::LLVMTypeRef) -> bool {
    use llvm_sys::LLVMTypeKind::*;
    unsafe {
        match llvm::LLVMGetTypeKind(ty) {
            LLVMPointerTypeKind => true,
            LLVMArrayTypeKind | LLVMVectorTypeKind => holds_pointer(llvm::LLVMGetElementType(ty)),
            LLVMStructTypeKind => (0..llvm::LLVMCountStructElementTypes(ty))
                .any(|i| holds_pointer(llvm::LLVMStructGetTypeAtIndex(ty, i))),
            _ => false,
        }
    }
}

/// Does the kernel (`f` and the functions it calls, that the module defines) get every pointer
/// it uses from its parameters, its own objects and globals' addresses — never from memory? A
/// pointer loaded from memory (a struct member, `*pp`, a pointer variable captured by
/// reference) may be based on a restrict pointer without coming from that parameter, which
/// `noalias` would then wrongly separate from it. Loads from a function's own stack slots that
/// hold only its arguments (clang's spills) are the arguments; a call of an external function
/// that returns a pointer, `inttoptr` and pointer atomics count as loads.
fn pointers_from_parameters_only(f: FunctionValue<'_>) -> bool {
    let mut work = vec![f];
    let mut seen = std::collections::HashSet::new();
    while let Some(f) = work.pop() {
        if !seen.insert(f.as_value_ref()) {
            continue;
        }
        for i in ir::instructions(f) {
            let v = i.as_value_ref();
            unsafe {
                if !llvm::LLVMIsACallInst(v).is_null() {
                    match ir::called_function(i) {
                        Some(callee) if callee.count_basic_blocks() > 0 => work.push(callee),
                        _ if holds_pointer(llvm::LLVMTypeOf(v)) => return false,
                        _ => {}
                    }
                    continue;
                }
                let produces_pointer = holds_pointer(llvm::LLVMTypeOf(v));
                match ir::opcode(v) {
                    Some(LLVMOpcode::LLVMLoad)
                        if produces_pointer && !is_spill_slot(llvm::LLVMGetOperand(v, 0)) =>
                    {
                        return false;
                    }
                    Some(
                        LLVMOpcode::LLVMIntToPtr
                        | LLVMOpcode::LLVMAtomicRMW
                        | LLVMOpcode::LLVMAtomicCmpXchg
                        | LLVMOpcode::LLVMVAArg,
                    ) if produces_pointer => return false,
                    _ => {}
                }
            }
        }
    }
    true
}

/// Marks `noalias` the kernel parameters that receive a `restrict` pointer (see the module
/// comment); returns how many.
pub fn mark_restrict_params(host: &Module<'_>) -> usize {
    let ctx = host.get_context();
    let noalias = ctx.create_enum_attribute(
        inkwell::attributes::Attribute::get_named_enum_kind_id("noalias"),
        0,
    );
    let mut marked = 0;
    for k in crate::openmp::offload_entries(host).kernels {
        let Some(f) = host.get_function(&k.name) else {
            continue;
        };
        if !pointers_from_parameters_only(f) {
            continue;
        }
        for p in restrict_params(f) {
            if f.get_enum_attribute(AttributeLoc::Param(p), noalias.get_enum_kind_id())
                .is_none()
            {
                f.add_attribute(AttributeLoc::Param(p), noalias);
                marked += 1;
            }
        }
    }
    marked
}

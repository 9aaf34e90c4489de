//! The host half of grid shapes (`loop_mapping/grid_shape.rs`): before each launch of a kernel
//! whose `collapse(2)` / `collapse(3)` loop takes its indices from a grid of its shape, a call
//! that gives the runtime the loop's inner extents, from which it shapes the grid.
//!
//! ```llvm
//! %t = mul nsw i64 (mul nsw i64 %ni, %nj), %nk        ; clang's trip count, for KernelArgs
//! store i64 (add (sub %t, 1), 1), ptr %tripcount.field
//! call i32 @__tgt_target_kernel(ptr @loc, i64 -1, i32 0, i32 0, ptr @K.region_id, ptr %args)
//!   →
//! call void @__ptxrt_push_collapse_shape(ptr @K.region_id, i64 %nk, i64 %nj)
//! call i32 @__tgt_target_kernel(...)
//! ```
//!
//! The extents come from the factors of clang's trip count (one per collapsed loop, each its
//! `(ub - lb + step - 1) / step`), or, where clang folded the count to a constant, from the
//! kernel's own constant divisors (its inner extent `K` and `J * K`). A kernel checks the grid it
//! gets against its own extents, so a wrong or missing shape costs speed, never an answer.
use crate::ir;
use crate::loop_mapping::Shaped;
use crate::offload_launch::KernelArgsField;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, InstructionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::LLVMOpcode;
use std::collections::HashMap;

/// The runtime's entry (ptx-runtime `offload_abi.rs`).
pub const PUSH_SHAPE: &str = "__ptxrt_push_collapse_shape";

/// Inserts the push before every launch of the kernels in `shapes` (as
/// `loop_mapping::read_shapes` gives them). Returns the launches that got one.
pub fn push_shapes(host: &Module<'_>, shapes: &HashMap<String, Shaped>) -> usize {
    let mut pushed = 0;
    // A layout version is launched through its kernel's launches, whose push (the same shape:
    // the version is a copy of the kernel) serves it.
    let versions = crate::layout::versions::versions_of(host);
    for (kernel, shape) in shapes {
        if versions.contains_key(kernel) {
            continue;
        }
        for launch in crate::openmp::kernel_launches(host, kernel) {
            if unsafe { push_one(host, launch, shape) } {
                pushed += 1;
            }
        }
    }
    pushed
}

/// What the push passes: constants, or values of the host code to multiply there.
enum Extent {
    Const(u64),
    Product(Vec<LLVMValueRef>),
}

unsafe fn push_one(host: &Module<'_>, launch: InstructionValue<'_>, shape: &Shaped) -> bool {
    let factors = tripcount_factors(launch).unwrap_or_default();
    let launch = launch.as_value_ref();
    // (innermost, middle) extents.
    let (x, y) = match (shape.divisors.len(), &factors[..]) {
        (1, [_, rest @ ..]) if !rest.is_empty() => {
            (Extent::Product(rest.to_vec()), Extent::Const(0))
        }
        (2, [_, middle @ .., last]) if !middle.is_empty() => (
            Extent::Product(vec![*last]),
            Extent::Product(middle.to_vec()),
        ),
        (1, _) => match shape.inner() {
            Some(inner) => (Extent::Const(inner), Extent::Const(0)),
            None => return false,
        },
        (2, _) => match (shape.inner(), shape.outer()) {
            (Some(inner), Some(outer)) => {
                (Extent::Const(inner), Extent::Const(outer.div_ceil(inner)))
            }
            _ => return false,
        },
        _ => return false,
    };
    let ctx = llvm::LLVMGetModuleContext(host.as_mut_ptr());
    let i64t = llvm::LLVMInt64TypeInContext(ctx);
    let ptr = llvm::LLVMPointerTypeInContext(ctx, 0);
    let void = llvm::LLVMVoidTypeInContext(ctx);
    let mut params = [ptr, i64t, i64t];
    let fty = llvm::LLVMFunctionType(void, params.as_mut_ptr(), 3, 0);
    let name = std::ffi::CString::new(PUSH_SHAPE).unwrap_or_default();
    let mut f = llvm::LLVMGetNamedFunction(host.as_mut_ptr(), name.as_ptr());
    if f.is_null() {
        f = llvm::LLVMAddFunction(host.as_mut_ptr(), name.as_ptr(), fty);
    }
    let b = llvm::LLVMCreateBuilderInContext(ctx);
    llvm::LLVMPositionBuilderBefore(b, launch);
    let value = |e: &Extent| match e {
        Extent::Const(v) => llvm::LLVMConstInt(i64t, *v, 0),
        Extent::Product(vs) => vs
            .iter()
            .map(|&v| llvm::LLVMBuildSExtOrBitCast(b, v, i64t, c"".as_ptr()))
            .reduce(|a, v| llvm::LLVMBuildMul(b, a, v, c"".as_ptr()))
            .unwrap_or_else(|| llvm::LLVMConstInt(i64t, 0, 0)),
    };
    let mut args = [llvm::LLVMGetOperand(launch, 4), value(&x), value(&y)];
    llvm::LLVMBuildCall2(b, fty, f, args.as_mut_ptr(), 3, c"".as_ptr());
    llvm::LLVMDisposeBuilder(b);
    true
}

/// The factors of the trip count `launch` stores in its kernel arguments, when clang computed
/// it as a product (a collapsed loop nest: one factor per loop), each available at the launch.
unsafe fn tripcount_factors(launch: InstructionValue<'_>) -> Option<Vec<LLVMValueRef>> {
    let stored = crate::offload_launch::stored_field(launch, KernelArgsField::Tripcount);
    // clang: `%n = add nsw (load %ub.slot), 1` where the slot holds `sub nsw %product, 1`.
    let mut v = strip_ext(stored?);
    if let Some(x) = plus_one(v) {
        v = strip_ext(x);
        if !llvm::LLVMIsALoadInst(v).is_null() {
            let [only] = ir::slot_values(llvm::LLVMGetOperand(v, 0))?[..] else {
                return None;
            };
            v = strip_ext(only);
        }
        v = minus_one(v).map(strip_ext)?;
    }
    let mut factors = Vec::new();
    flatten_product(v, &mut factors);
    let block = llvm::LLVMGetInstructionParent(launch.as_value_ref());
    (factors.len() >= 2 && factors.iter().all(|&f| available_at(f, block))).then_some(factors)
}

fn strip_ext(v: LLVMValueRef) -> LLVMValueRef {
    match ir::opcode(v) {
        Some(LLVMOpcode::LLVMSExt | LLVMOpcode::LLVMZExt) => unsafe { llvm::LLVMGetOperand(v, 0) },
        _ => v,
    }
}

/// `x` when `v` is `x + 1`.
fn plus_one(v: LLVMValueRef) -> Option<LLVMValueRef> {
    (ir::opcode(v) == Some(LLVMOpcode::LLVMAdd)
        && ir::const_int(unsafe { llvm::LLVMGetOperand(v, 1) }) == Some(1))
    .then(|| unsafe { llvm::LLVMGetOperand(v, 0) })
}

/// `x` when `v` is `x - 1`.
fn minus_one(v: LLVMValueRef) -> Option<LLVMValueRef> {
    (ir::opcode(v) == Some(LLVMOpcode::LLVMSub)
        && ir::const_int(unsafe { llvm::LLVMGetOperand(v, 1) }) == Some(1))
    .then(|| unsafe { llvm::LLVMGetOperand(v, 0) })
}

/// The leaves of a tree of multiplications.
fn flatten_product(v: LLVMValueRef, out: &mut Vec<LLVMValueRef>) {
    if ir::opcode(v) == Some(LLVMOpcode::LLVMMul) {
        unsafe {
            flatten_product(llvm::LLVMGetOperand(v, 0), out);
            flatten_product(llvm::LLVMGetOperand(v, 1), out);
        }
    } else {
        out.push(v);
    }
}

/// Whether `v` (a constant, an argument, or an instruction) is computed before the end of
/// `block` on every path to it: in it, or in a block of the chain of single predecessors
/// that leads to it.
unsafe fn available_at(v: LLVMValueRef, block: LLVMBasicBlockRef) -> bool {
    if llvm::LLVMIsAInstruction(v).is_null() {
        return true;
    }
    let home = llvm::LLVMGetInstructionParent(v);
    let mut bb = block;
    for _ in 0..64 {
        if bb == home {
            return true;
        }
        let [only] = ir::predecessors(bb)[..] else {
            return false;
        };
        bb = only;
    }
    false
}

//! Declare variant for the device: calls of a base function become calls of its device variant.
//!
//! Clang chose the host's function at every call of the host IR, which ptxcc's device code
//! comes from. For each `declare variant(V) match(device={arch(nvptx64)})` (or `kind(gpu)`,
//! `kind(nohost)`) on a function `F` of the user's, the driver appended a marker to the
//! translation unit (`driver/src/stages/declare_variant.rs`), a host-only constant naming both:
//!
//! ```llvm
//! @__ptxcc_variant_0 = internal constant [2 x ptr] [ptr @impl, ptr @gpu_impl]
//! ```
//!
//! In the device module (before pruning, so that the variant's body comes along) every call of
//! `impl` outside `gpu_impl` itself becomes a call of `gpu_impl`:
//!
//! ```llvm
//! %r = call i32 @impl(i32 1)       →   %r = call i32 @gpu_impl(i32 1)
//! ```
//!
//! The markers themselves stay on the host (nothing on the device uses them).
use crate::ir;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use llvm_sys::core as llvm;

/// The name of the driver's marker arrays, numbered from 0.
pub const MARKER_PREFIX: &str = "__ptxcc_variant_";

/// The (base, variant) pairs the markers of `module` name.
pub fn device_variants<'ctx>(
    module: &Module<'ctx>,
) -> Vec<(FunctionValue<'ctx>, FunctionValue<'ctx>)> {
    let mut out = Vec::new();
    for g in module.get_globals() {
        if !ir::global_name(g).starts_with(MARKER_PREFIX) {
            continue;
        }
        let init = unsafe { llvm::LLVMGetInitializer(g.as_value_ref()) };
        if init.is_null() || unsafe { llvm::LLVMGetNumOperands(init) } != 2 {
            continue;
        }
        let f = |i| unsafe {
            let v = ir::strip_casts(llvm::LLVMGetOperand(init, i));
            if llvm::LLVMIsAFunction(v).is_null() {
                None
            } else {
                FunctionValue::new(v)
            }
        };
        if let (Some(base), Some(variant)) = (f(0), f(1)) {
            out.push((base, variant));
        }
    }
    out
}

/// Makes the calls of each base function call its device variant. Returns how many calls changed.
pub fn apply_device_variants(module: &Module<'_>) -> usize {
    let mut count = 0;
    for (base, variant) in device_variants(module) {
        for u in ir::users(base.as_value_ref()) {
            if unsafe { llvm::LLVMIsACallInst(u) }.is_null() {
                continue;
            }
            let call = unsafe { InstructionValue::new(u) };
            let n = unsafe { llvm::LLVMGetNumOperands(u) };
            // Only as the callee (the last operand), and not in the variant itself (which may
            // fall back on the base function).
            let in_variant = call.get_parent().and_then(|b| b.get_parent()) == Some(variant);
            if n > 0
                && unsafe { llvm::LLVMGetOperand(u, (n - 1) as u32) } == base.as_value_ref()
                && !in_variant
            {
                unsafe { llvm::LLVMSetOperand(u, (n - 1) as u32, variant.as_value_ref()) };
                count += 1;
            }
        }
    }
    count
}

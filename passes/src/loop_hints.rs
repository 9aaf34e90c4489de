//! Drop loop hints: removes the `!llvm.loop` metadata of device code (`simd`'s
//! `llvm.loop.vectorize.enable`, interleaving, clang's `llvm.loop.mustprogress`…) except the
//! user's unroll pragmas (`#pragma unroll 4`, `#pragma clang loop unroll(disable)`,
//! `#pragma nounroll`: `llvm.loop.unroll.*`), which nvcc honours on a GPU as clang does on a
//! CPU. A GPU thread does not vectorize, and each vectorizer hint the optimiser cannot honour
//! would print a 'loop not vectorized' warning per copy (PTX and emulator) on top of clang's
//! own for the host code. `mustprogress` goes too, as it always went: the loops ptxcc maps get
//! their own (`ir::set_loop_unroll`). ptxcc's own device helpers come without hints
//! (`device_rt` drops their -O2 compile's unroll marks, which kept the reduction trees of the
//! test-suite's dot, pi and Himeno rolled: 32% more warp instructions for dot).
//! Runs before loop mapping, which sets the unroll hints of the loops it maps.
//!
//! ```llvm
//! ; before                                                  ; after
//! br i1 %c, label %body, label %exit, !llvm.loop !7        br i1 %c, label %body, label %exit, !llvm.loop !9
//! !7 = distinct !{!7, !8, !10, !11}                         !9 = distinct !{!9, !11}
//! !8 = !{!"llvm.loop.vectorize.enable", i1 true}
//! !10 = !{!"llvm.loop.mustprogress"}
//! !11 = !{!"llvm.loop.unroll.count", i32 4}
//! ```
//!
//! A loop left with no unroll hint loses its `!llvm.loop`.
use inkwell::module::Module;
use inkwell::values::AsValueRef;
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMContextRef, LLVMMetadataRef, LLVMValueRef};

/// The hints device code keeps: the unroller's.
const KEPT: &str = "llvm.loop.unroll.";

/// Removes every hint but the unroller's from every `!llvm.loop` of `device`.
pub fn drop_loop_hints(device: &Module<'_>) {
    unsafe {
        let ctx = llvm::LLVMGetModuleContext(device.as_mut_ptr());
        let kind = crate::ir::metadata_kind(ctx, "llvm.loop");
        for f in device.get_functions() {
            for bb in f.get_basic_blocks() {
                let Some(term) = bb.get_terminator() else {
                    continue;
                };
                let term = term.as_value_ref();
                let id = llvm::LLVMGetMetadata(term, kind);
                if id.is_null() {
                    continue;
                }
                let kept = without_dropped(ctx, id);
                llvm::LLVMSetMetadata(term, kind, kept.unwrap_or(std::ptr::null_mut()));
            }
        }
    }
}

/// Removes every `!llvm.loop` of `module` (ptxcc's own device helpers, `device_rt`).
pub fn drop_all_loop_hints(module: &Module<'_>) {
    unsafe {
        let ctx = llvm::LLVMGetModuleContext(module.as_mut_ptr());
        let kind = crate::ir::metadata_kind(ctx, "llvm.loop");
        for f in module.get_functions() {
            for bb in f.get_basic_blocks() {
                if let Some(term) = bb.get_terminator() {
                    llvm::LLVMSetMetadata(term.as_value_ref(), kind, std::ptr::null_mut());
                }
            }
        }
    }
}

/// The first string of a hint node (`!{!"llvm.loop.unroll.count", i32 4}`), if it is one.
unsafe fn hint_name(node: LLVMValueRef) -> Option<String> {
    if node.is_null() || llvm::LLVMIsAMDNode(node).is_null() {
        return None;
    }
    let n = llvm::LLVMGetMDNodeNumOperands(node) as usize;
    if n == 0 {
        return None;
    }
    let mut ops = vec![std::ptr::null_mut(); n];
    llvm::LLVMGetMDNodeOperands(node, ops.as_mut_ptr());
    let mut len = 0;
    let s = llvm::LLVMGetMDString(ops[0], &mut len);
    if s.is_null() {
        return None;
    }
    let bytes = std::slice::from_raw_parts(s as *const u8, len as usize);
    Some(String::from_utf8_lossy(bytes).into_owned())
}

/// The loop ID `id` with only its unroll hints (and its source locations, which are no hints):
/// itself when it has nothing else, None when it has no unroll hint.
unsafe fn without_dropped(ctx: LLVMContextRef, id: LLVMValueRef) -> Option<LLVMValueRef> {
    let n = llvm::LLVMGetMDNodeNumOperands(id) as usize;
    let mut ops = vec![std::ptr::null_mut(); n];
    llvm::LLVMGetMDNodeOperands(id, ops.as_mut_ptr());
    // Operand 0 is the ID itself.
    let rest = ops.get(1..).unwrap_or(&[]);
    let keep: Vec<LLVMValueRef> = rest
        .iter()
        .copied()
        .filter(|&op| hint_name(op).is_none_or(|name| name.starts_with(KEPT)))
        .collect();
    if !keep
        .iter()
        .any(|&op| hint_name(op).is_some_and(|name| name.starts_with(KEPT)))
    {
        return None;
    }
    if keep.len() == rest.len() {
        return Some(id);
    }
    // A loop ID refers to itself: build it around a placeholder, then close the cycle.
    let placeholder = llvm_sys::debuginfo::LLVMTemporaryMDNode(ctx, std::ptr::null_mut(), 0);
    let mut new_ops: Vec<LLVMMetadataRef> = std::iter::once(placeholder)
        .chain(keep.iter().map(|&v| llvm::LLVMValueAsMetadata(v)))
        .collect();
    let new_id = llvm::LLVMMDNodeInContext2(ctx, new_ops.as_mut_ptr(), new_ops.len());
    llvm_sys::debuginfo::LLVMMetadataReplaceAllUsesWith(placeholder, new_id);
    Some(llvm::LLVMMetadataAsValue(ctx, new_id))
}

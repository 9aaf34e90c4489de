//! Drop loop hints: removes the vectorizer's hints (`simd`'s `llvm.loop.vectorize.enable`,
//! interleaving, loop distribution) from the `!llvm.loop` metadata of device code, and keeps the
//! rest: the user's unroll pragmas (`#pragma unroll 4`, `#pragma clang loop unroll(disable)`,
//! `#pragma nounroll`), `llvm.loop.mustprogress`, the debug locations. A GPU thread does not
//! vectorize, and each vectorizer hint the optimiser cannot honour would print a 'loop not
//! vectorized' warning per copy (PTX and emulator) on top of clang's own for the host code;
//! unrolling is as much the user's choice on a GPU as on a CPU (nvcc honours `#pragma unroll`).
//! Runs before loop mapping, which sets the unroll hints of the loops it maps.
//!
//! ```llvm
//! ; before                                                  ; after
//! br i1 %c, label %body, label %exit, !llvm.loop !7        br i1 %c, label %body, label %exit, !llvm.loop !9
//! !7 = distinct !{!7, !8, !10}                              !9 = distinct !{!9, !10}
//! !8 = !{!"llvm.loop.vectorize.enable", i1 true}
//! !10 = !{!"llvm.loop.unroll.count", i32 4}
//! ```
//!
//! A loop left with no hint loses its `!llvm.loop`.
use inkwell::module::Module;
use inkwell::values::AsValueRef;
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMContextRef, LLVMMetadataRef, LLVMValueRef};

/// Hints the device pipeline drops: those of the vectorizer and of loop distribution.
const DROPPED: &[&str] = &[
    "llvm.loop.vectorize.",
    "llvm.loop.interleave.",
    "llvm.loop.distribute.",
    "llvm.loop.isvectorized",
];

/// Removes the vectorizer's hints from every `!llvm.loop` of `device`.
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

/// The loop ID `id` without the dropped hints: itself when it has none, None when nothing but
/// its self-reference would be left.
unsafe fn without_dropped(ctx: LLVMContextRef, id: LLVMValueRef) -> Option<LLVMValueRef> {
    let n = llvm::LLVMGetMDNodeNumOperands(id) as usize;
    let mut ops = vec![std::ptr::null_mut(); n];
    llvm::LLVMGetMDNodeOperands(id, ops.as_mut_ptr());
    // Operand 0 is the ID itself.
    let rest = ops.get(1..).unwrap_or(&[]);
    let keep: Vec<LLVMValueRef> = rest
        .iter()
        .copied()
        .filter(|&op| {
            !hint_name(op).is_some_and(|name| DROPPED.iter().any(|d| name.starts_with(d)))
        })
        .collect();
    if keep.len() == rest.len() {
        return Some(id);
    }
    if keep.is_empty() {
        return None;
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

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
    rewrite_loop_ids(device, |ctx, id| unsafe { only_unroll_hints(ctx, id) });
}

/// Removes every `!llvm.loop` of `module` (ptxcc's own device helpers, `device_rt`).
pub fn drop_all_loop_hints(module: &Module<'_>) {
    rewrite_loop_ids(module, |_, _| None);
}

/// Replaces each terminator's `!llvm.loop` by what `rewrite` makes of it (None removes it).
fn rewrite_loop_ids(
    module: &Module<'_>,
    rewrite: impl Fn(LLVMContextRef, LLVMValueRef) -> Option<LLVMValueRef>,
) {
    unsafe {
        let ctx = llvm::LLVMGetModuleContext(module.as_mut_ptr());
        let kind = crate::ir::metadata_kind(ctx, "llvm.loop");
        for f in module.get_functions() {
            for bb in f.get_basic_blocks() {
                let Some(term) = bb.get_terminator() else {
                    continue;
                };
                let term = term.as_value_ref();
                let id = llvm::LLVMGetMetadata(term, kind);
                if id.is_null() {
                    continue;
                }
                let kept = rewrite(ctx, id);
                llvm::LLVMSetMetadata(term, kind, kept.unwrap_or(std::ptr::null_mut()));
            }
        }
    }
}

/// The first string of a hint node (`!{!"llvm.loop.unroll.count", i32 4}`), if it is one.
unsafe fn hint_name(node: LLVMValueRef) -> Option<String> {
    if node.is_null() {
        return None;
    }
    let first = *crate::ir::md_node_operands(node).first()?;
    let mut len = 0;
    let s = llvm::LLVMGetMDString(first, &mut len);
    if s.is_null() {
        return None;
    }
    let bytes = std::slice::from_raw_parts(s as *const u8, len as usize);
    Some(String::from_utf8_lossy(bytes).into_owned())
}

/// The loop ID `id` with only its unroll hints (and its source locations, which are no hints):
/// itself when it has nothing else, None when it has no unroll hint.
unsafe fn only_unroll_hints(ctx: LLVMContextRef, id: LLVMValueRef) -> Option<LLVMValueRef> {
    let ops = crate::ir::md_node_operands(id);
    // Operand 0 is the ID itself.
    let rest = ops.get(1..).unwrap_or(&[]);
    let names: Vec<Option<String>> = rest.iter().map(|&op| hint_name(op)).collect();
    let unroll = |name: &Option<String>| name.as_ref().is_some_and(|n| n.starts_with(KEPT));
    if !names.iter().any(unroll) {
        return None;
    }
    let keep: Vec<LLVMMetadataRef> = rest
        .iter()
        .zip(&names)
        .filter(|(_, name)| name.is_none() || unroll(name))
        .map(|(&op, _)| llvm::LLVMValueAsMetadata(op))
        .collect();
    if keep.len() == rest.len() {
        return Some(id);
    }
    Some(llvm::LLVMMetadataAsValue(
        ctx,
        crate::ir::loop_id(ctx, &keep),
    ))
}

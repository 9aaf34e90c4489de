//! Drop loop hints: removes the `!llvm.loop` metadata (`simd`'s vectorize.enable, ...) from
//! device code. A GPU thread does not vectorize, and each hint the optimiser cannot honour would
//! print a 'loop not vectorized' warning per copy (PTX and emulator) on top of clang's own for
//! the host code. Runs before loop mapping, which adds the unroll hints of its own.
//!
//! ```llvm
//! ; before                                       ; after
//! br i1 %c, label %body, label %exit, !llvm.loop !7   br i1 %c, label %body, label %exit
//! !7 = distinct !{!7, !8}
//! !8 = !{!"llvm.loop.vectorize.enable", i1 true}
//! ```
use inkwell::module::Module;
use inkwell::values::AsValueRef;

/// Removes `!llvm.loop` from every terminator of `device`.
pub fn drop_loop_hints(device: &Module<'_>) {
    unsafe {
        let kind = crate::ir::metadata_kind(
            llvm_sys::core::LLVMGetModuleContext(device.as_mut_ptr()),
            "llvm.loop",
        );
        for f in device.get_functions() {
            for bb in f.get_basic_blocks() {
                if let Some(term) = bb.get_terminator() {
                    llvm_sys::core::LLVMSetMetadata(
                        term.as_value_ref(),
                        kind,
                        std::ptr::null_mut(),
                    );
                }
            }
        }
    }
}

//! Unit tests: each rewrite on small modules parsed from text.

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::targets::TargetTriple;

use super::*;

pub(crate) const X86_DL: &str = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";
pub(crate) const X86_TRIPLE: &str = "x86_64-unknown-linux-gnu";

/// Lower `src`; the printed module or the error text.
fn lower(src: &str) -> (Result<EmuLowering>, String) {
    let ctx = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(src.as_bytes(), "test.ll");
    let m = ctx.create_module_from_ir(buf).expect("test input parses");
    let r = lower_for_emulator(&m, &TargetTriple::create(X86_TRIPLE), X86_DL);
    let text = m.print_to_string().to_string();
    (r, text)
}

fn lower_ok(src: &str) -> (EmuLowering, String) {
    let (r, text) = lower(src);
    match r {
        Ok(l) => (l, text),
        Err(e) => panic!("lowering failed: {e:#}\n{text}"),
    }
}

#[test]
fn sreg_becomes_emulator_call() {
    let (l, text) = lower_ok(
        r#"
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %t, ptr %out
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"#,
    );
    assert!(text.contains("%t = call i32 @__ptxemu_sreg(i32 0), !range"), "{text}");
    assert_eq!(l.kernels.len(), 1);
    assert_eq!(l.kernels[0].entry, "__ptxemu_entry.k");
}

; ptxcc-opt --verify-each runs LLVM's verifier after each pass (always in debug builds); a pass
; that left invalid IR (the test hook PTXCC_TEST_BREAK_IR_AFTER breaks it after the pass it
; names) is an error that names the pass. Without the hook the module verifies and prints.
; RUN: ptxcc-opt --verify-each --passes=device-builtins,drop-loop-hints %s | FileCheck %s
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NOT: !llvm.loop
; RUN: env PTXCC_TEST_BREAK_IR_AFTER=drop-loop-hints not ptxcc-opt --verify-each --passes=device-builtins,drop-loop-hints %s 2>&1 | FileCheck %s --check-prefix=BROKEN
; BROKEN: ptxcc-opt: error: internal error: the IR is invalid after pass 'drop-loop-hints'
; PTXCC_VERIFY_EACH=1 (set for the whole lit suite) does the same without the flag.
; RUN: env PTXCC_VERIFY_EACH=1 PTXCC_TEST_BREAK_IR_AFTER=drop-loop-hints not ptxcc-opt --passes=device-builtins,drop-loop-hints %s 2>&1 | FileCheck %s --check-prefix=BROKEN
target triple = "nvptx64-nvidia-cuda"

define i32 @loop(i32 %n) {
entry:
  %t = call i32 @omp_get_thread_num()
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %next = add i32 %i, 1
  %c = icmp slt i32 %next, %n
  br i1 %c, label %body, label %exit, !llvm.loop !0
exit:
  ret i32 %t
}

declare i32 @omp_get_thread_num()

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.vectorize.enable", i1 true}

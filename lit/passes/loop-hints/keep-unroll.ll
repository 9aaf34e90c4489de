; drop-loop-hints: every loop hint of device code goes (simd's vectorize.enable, an interleave
; count, clang's mustprogress) but the user's unroll pragmas; a loop left with no unroll hint
; loses its !llvm.loop, one that had none keeps having none.
; RUN: ptxcc-opt --passes=drop-loop-hints %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @k(
; CHECK: br i1 %c1, label %l1, label %e1, !llvm.loop [[L1:![0-9]+]]
; CHECK: br i1 %c2, label %l2, label %e2{{$}}
; CHECK: br i1 %c3, label %l3, label %e3, !llvm.loop [[L3:![0-9]+]]
; CHECK: br i1 %c4, label %l4, label %e4{{$}}
define void @k(ptr %p, i32 %n) {
entry:
  br label %l1
l1:
  %i1 = phi i32 [ 0, %entry ], [ %n1, %l1 ]
  store i32 %i1, ptr %p
  %n1 = add i32 %i1, 1
  %c1 = icmp slt i32 %n1, %n
  br i1 %c1, label %l1, label %e1, !llvm.loop !0
e1:
  br label %l2
l2:
  %i2 = phi i32 [ 0, %e1 ], [ %n2, %l2 ]
  store i32 %i2, ptr %p
  %n2 = add i32 %i2, 1
  %c2 = icmp slt i32 %n2, %n
  br i1 %c2, label %l2, label %e2, !llvm.loop !5
e2:
  br label %l3
l3:
  %i3 = phi i32 [ 0, %e2 ], [ %n3, %l3 ]
  store i32 %i3, ptr %p
  %n3 = add i32 %i3, 1
  %c3 = icmp slt i32 %n3, %n
  br i1 %c3, label %l3, label %e3, !llvm.loop !7
e3:
  br label %l4
l4:
  %i4 = phi i32 [ 0, %e3 ], [ %n4, %l4 ]
  store i32 %i4, ptr %p
  %n4 = add i32 %i4, 1
  %c4 = icmp slt i32 %n4, %n
  br i1 %c4, label %l4, label %e4
e4:
  ret void
}

; #pragma unroll 4 inside an omp simd loop: the count stays.
; CHECK-DAG: [[L1]] = distinct !{[[L1]], [[COUNT:![0-9]+]]}
; CHECK-DAG: [[COUNT]] = !{!"llvm.loop.unroll.count", i32 4}
; #pragma clang loop unroll(disable), untouched (nothing to drop).
; CHECK-DAG: [[L3]] = distinct !{[[L3]], [[DISABLE:![0-9]+]]}
; CHECK-DAG: [[DISABLE]] = !{!"llvm.loop.unroll.disable"}
; CHECK-NOT: llvm.loop.vectorize
; CHECK-NOT: llvm.loop.interleave
; CHECK-NOT: llvm.loop.mustprogress
!0 = distinct !{!0, !1, !2, !3, !4}
!1 = !{!"llvm.loop.mustprogress"}
!2 = !{!"llvm.loop.vectorize.enable", i1 true}
!3 = !{!"llvm.loop.unroll.count", i32 4}
!4 = !{!"llvm.loop.interleave.count", i32 2}
; simd and mustprogress alone: nothing is left.
!5 = distinct !{!5, !1, !2, !6}
!6 = !{!"llvm.loop.vectorize.width", i32 4}
!7 = distinct !{!7, !8}
!8 = !{!"llvm.loop.unroll.disable"}

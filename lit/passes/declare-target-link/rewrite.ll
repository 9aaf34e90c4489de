; Device uses of a 'declare target link' variable go through its reference pointer: one
; invariant load at the top of each function that names it, constant expressions over the
; variable rebuilt as instructions (a phi's at the end of its incoming block); the variable
; leaves the device module and the reference pointer starts null (the runtime sets it at the map).
; RUN: ptxcc-opt --passes=declare-target-link %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"
@g_decl_tgt_ref_ptr = global ptr @g, align 8
@g = internal global [100 x i32] zeroinitializer, align 16
@other = global i32 0, align 4

; CHECK: @g_decl_tgt_ref_ptr = global ptr null, align 8
; CHECK-NOT: @g =
; CHECK-LABEL: define i32 @get(i64 %i)
; CHECK-NEXT: %g.ref = load ptr, ptr @g_decl_tgt_ref_ptr, align 8, !invariant.load
; CHECK-NEXT: %p = getelementptr inbounds [100 x i32], ptr %g.ref, i64 0, i64 %i
; CHECK-NEXT: %v = load i32, ptr %p
; CHECK-NEXT: %[[E:.*]] = getelementptr inbounds i8, ptr %g.ref, i64 12
; CHECK-NEXT: %w = load i32, ptr %[[E]]
define i32 @get(i64 %i) {
  %p = getelementptr inbounds [100 x i32], ptr @g, i64 0, i64 %i
  %v = load i32, ptr %p
  %w = load i32, ptr getelementptr inbounds (i8, ptr @g, i64 12)
  %s = add i32 %v, %w
  ret i32 %s
}

; CHECK-LABEL: define ptr @pick(i1 %c)
; CHECK-NEXT: entry:
; CHECK-NEXT: %g.ref = load ptr, ptr @g_decl_tgt_ref_ptr
; CHECK: then:
; CHECK-NEXT: %[[T:.*]] = getelementptr inbounds i8, ptr %g.ref, i64 4
; CHECK-NEXT: br label %join
; CHECK: %r = phi ptr [ %[[T]], %then ], [ @other, %entry ]
define ptr @pick(i1 %c) {
entry:
  br i1 %c, label %then, label %join
then:
  br label %join
join:
  %r = phi ptr [ getelementptr inbounds (i8, ptr @g, i64 4), %then ], [ @other, %entry ]
  ret ptr %r
}

; A function that does not name the variable is left alone.
; CHECK-LABEL: define i32 @plain()
; CHECK-NEXT: load i32, ptr @other
define i32 @plain() {
  %v = load i32, ptr @other
  ret i32 %v
}

!ptxcc.declare_target_link = !{!0}
!0 = !{!"g_decl_tgt_ref_ptr"}

; The kernels launched between a trans block's begin and end calls get the "ptxcc-layout"
; attribute (which parameter carries which array) and a launch check; a kernel launched after
; the end is left alone. The pointer is loaded once for the marker and once for the launch.
; RUN: ptxcc-opt --passes=layout-plan %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@.str = private constant [22 x i8] c"a;8,6,5;1,3,2;l.c:3:9\00"
@.K1.region_id = weak constant i8 0
@.K2.region_id = weak constant i8 0

; CHECK-LABEL: define void @f(
define void @f(ptr %pa, ptr %args) {
  %slot = alloca ptr
  store ptr %pa, ptr %slot
  %a = load ptr, ptr %slot
  call void @__ptxcc_layout_begin(ptr %a, i64 0, ptr @.str)
  %a2 = load ptr, ptr %slot
; CHECK: call void @__ptxcc_layout_expect(i32 1, ptr %a)
; CHECK-NEXT: %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K1.region_id, ptr %args)
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K1.region_id, ptr %args)
  %failed = icmp ne i32 %r, 0
  br i1 %failed, label %fallback, label %done

fallback:
  call void @K1(i64 7, ptr %a2)
  br label %done

done:
  call void @__ptxcc_layout_end(ptr %a, ptr @.str)
; CHECK: call void @__ptxcc_layout_end
; CHECK-NOT: __ptxcc_layout_expect
; CHECK: %r2 = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K2.region_id, ptr %args)
  %r2 = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K2.region_id, ptr %args)
  call void @K2(ptr %a2)
  ret void
}

; CHECK: define internal void @K1(i64 %n, ptr %a) #[[ATTR:[0-9]+]]
define internal void @K1(i64 %n, ptr %a) {
  ret void
}

; CHECK: define internal void @K2(ptr %a) {
define internal void @K2(ptr %a) {
  ret void
}

declare void @__ptxcc_layout_begin(ptr, i64, ptr)
declare void @__ptxcc_layout_end(ptr, ptr)
declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr)
; CHECK: attributes #[[ATTR]] = { "ptxcc-layout"="1=a;8,6,5;1,3,2;l.c:3:9" }

; Run-time extents in the host plan: the begin call's null 5th argument becomes the layout's
; extents global ([rank x i64], internal), recorded in !omp_offload.info as a declare target
; global (device extraction registers it and gives the device module its copy); a begin of
; constant extents is left alone.
; RUN: ptxcc-opt --passes=layout-plan %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@.str = private constant [22 x i8] c"a;?,?,4;1,3,2;l.c:3:9\00"
@.str2 = private constant [22 x i8] c"b;8,6,5;1,3,2;l.c:9:9\00"
@.K1.region_id = weak constant i8 0

; CHECK: @__ptxcc_layout_ext_7c5baa72d9c73e0a = internal global [3 x i64] zeroinitializer, align 8

; CHECK-LABEL: define void @f(
define void @f(ptr %a, ptr %b, ptr %ext, ptr %args) {
; CHECK: call void @__ptxcc_layout_begin(ptr %a, i64 0, ptr @.str, ptr %ext, ptr @__ptxcc_layout_ext_7c5baa72d9c73e0a)
  call void @__ptxcc_layout_begin(ptr %a, i64 0, ptr @.str, ptr %ext, ptr null)
; CHECK: call void @__ptxcc_layout_expect(i32 0, ptr %a)
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K1.region_id, ptr %args)
  %failed = icmp ne i32 %r, 0
  br i1 %failed, label %fallback, label %done

fallback:
  call void @K1(ptr %a)
  br label %done

done:
  call void @__ptxcc_layout_end(ptr %a, ptr @.str)
; CHECK: call void @__ptxcc_layout_begin(ptr %b, i64 0, ptr @.str2, ptr null, ptr null)
  call void @__ptxcc_layout_begin(ptr %b, i64 0, ptr @.str2, ptr null, ptr null)
  call void @__ptxcc_layout_end(ptr %b, ptr @.str2)
  ret void
}

; CHECK: define internal void @K1(ptr %0) #[[A:[0-9]+]]
define internal void @K1(ptr %0) {
  ret void
}

declare void @__ptxcc_layout_begin(ptr, i64, ptr, ptr, ptr)
declare void @__ptxcc_layout_end(ptr, ptr)
declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr)

; CHECK: attributes #[[A]] = { "ptxcc-layout"="0=a;?,?,4;1,3,2;l.c:3:9" }
; CHECK: !omp_offload.info = !{![[N:[0-9]+]]}
; CHECK: ![[N]] = !{i32 1, !"__ptxcc_layout_ext_7c5baa72d9c73e0a", i32 0, i32 0}

; -fptxcc-layout=auto, host side, arrays mapped as pointer sections. @f: a data region maps
; p[0:n] (24-byte elements: the map size is n * 24) and q[0:n], both 'restrict' parameters
; (noalias: they cannot point into each other); p is bracketed with the description
; "p;?;auto:24" and its length n in the begin call's extents array (q, too). @g: the same
; region with plain pointer parameters: they may alias, both stay with a remark. @f's kernel
; runs in a loop inside the region, so the conversions at its start and end pay; @g's runs
; once. @h: a compute construct that maps p[0:n] itself (kernel level, no data region): one
; launch per conversion, p stays. @f's and @g's launches map nothing of their own (their
; kernel arguments count 0 entries).
; RUN: ptxcc-opt --passes=layout-auto %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

%struct.kargs = type { i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, [3 x i32], [3 x i32], i32 }

@.K.region_id = weak constant i8 0
@.H.region_id = weak constant i8 0
@0 = private constant [17 x i8] c";x.c;f;12;1;;\00\00\00\00"
@1 = private constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @0 }
@2 = private constant [17 x i8] c";x.c;h;30;1;;\00\00\00\00"
@3 = private constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @2 }
@np = private constant [16 x i8] c";p[0:n];x.c;9;1\00"
@nq = private constant [16 x i8] c";q[0:n];x.c;9;9\00"
@.offload_mapnames = private constant [2 x ptr] [ptr @np, ptr @nq]
@.offload_mapnames.h = private constant [1 x ptr] [ptr @np]

; CHECK: @.ptxcc.layout.auto = private constant [{{[0-9]+}} x i8] c"p;?;auto:24;x.c:12:1\00"
; CHECK: @.ptxcc.layout.auto.1 = private constant [{{[0-9]+}} x i8] c"q;?;auto:8;x.c:12:1\00"
; CHECK-NOT: @.ptxcc.layout.auto.2

; CHECK-LABEL: define void @f(
; CHECK-DAG: %[[EXT:layout.extents]] = alloca [1 x i64]
define void @f(ptr noalias %p, ptr noalias %q, i32 %n, ptr %args) {
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %bp = alloca [2 x ptr]
  %pp = alloca [2 x ptr]
  %sz = alloca [2 x i64]
  %len = sext i32 %n to i64
  %bytes = mul nuw i64 %len, 24
  %qbytes = mul nuw i64 %len, 8
  %p0 = getelementptr inbounds [2 x ptr], ptr %bp, i32 0, i32 0
  store ptr %p, ptr %p0
  %p1 = getelementptr inbounds [2 x ptr], ptr %pp, i32 0, i32 0
  store ptr %p, ptr %p1
  %p2 = getelementptr inbounds [2 x i64], ptr %sz, i32 0, i32 0
  store i64 %bytes, ptr %p2
  %q0 = getelementptr inbounds [2 x ptr], ptr %bp, i32 0, i32 1
  store ptr %q, ptr %q0
  %q1 = getelementptr inbounds [2 x ptr], ptr %pp, i32 0, i32 1
  store ptr %q, ptr %q1
  %q2 = getelementptr inbounds [2 x i64], ptr %sz, i32 0, i32 1
  store i64 %qbytes, ptr %q2
  %b = getelementptr inbounds [2 x ptr], ptr %bp, i32 0, i32 0
  %c = getelementptr inbounds [2 x ptr], ptr %pp, i32 0, i32 0
  %s = getelementptr inbounds [2 x i64], ptr %sz, i32 0, i32 0
; CHECK: store i64 %len, ptr %[[EXT]]
; CHECK-NEXT: call void @__ptxcc_layout_begin(ptr %p, i64 0, ptr @.ptxcc.layout.auto, ptr %[[EXT]], ptr null)
; CHECK: call void @__ptxcc_layout_begin(ptr %q, i64 0, ptr @.ptxcc.layout.auto.1, ptr %{{.*}}, ptr null)
; CHECK-NEXT: call void @__tgt_target_data_begin_mapper(
  call void @__tgt_target_data_begin_mapper(ptr @1, i64 -1, i32 2, ptr %b, ptr %c, ptr %s, ptr null, ptr @.offload_mapnames, ptr null)
  br label %loop

loop:
  %it = phi i32 [ 0, %0 ], [ %it.next, %loop ]
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %ka)
  call void @K(ptr %p, ptr %q)
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, %n
  br i1 %more, label %loop, label %exit

exit:
; CHECK: call void @__tgt_target_data_end_mapper(
; CHECK-NEXT: call void @__ptxcc_layout_end(ptr %q, ptr @.ptxcc.layout.auto.1)
; CHECK-NEXT: call void @__ptxcc_layout_end(ptr %p, ptr @.ptxcc.layout.auto)
  call void @__tgt_target_data_end_mapper(ptr @1, i64 -1, i32 2, ptr %b, ptr %c, ptr %s, ptr null, ptr @.offload_mapnames, ptr null)
  ret void
}

; CHECK-LABEL: define void @g(
; CHECK-NOT: __ptxcc_layout_begin
; CHECK: ret void
define void @g(ptr %p, ptr %q, i32 %n, ptr %args) {
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %bp = alloca [2 x ptr]
  %pp = alloca [2 x ptr]
  %sz = alloca [2 x i64]
  %len = sext i32 %n to i64
  %bytes = mul nuw i64 %len, 24
  %p0 = getelementptr inbounds [2 x ptr], ptr %bp, i32 0, i32 0
  store ptr %p, ptr %p0
  %p1 = getelementptr inbounds [2 x ptr], ptr %pp, i32 0, i32 0
  store ptr %p, ptr %p1
  %p2 = getelementptr inbounds [2 x i64], ptr %sz, i32 0, i32 0
  store i64 %bytes, ptr %p2
  %q0 = getelementptr inbounds [2 x ptr], ptr %bp, i32 0, i32 1
  store ptr %q, ptr %q0
  %q1 = getelementptr inbounds [2 x ptr], ptr %pp, i32 0, i32 1
  store ptr %q, ptr %q1
  %q2 = getelementptr inbounds [2 x i64], ptr %sz, i32 0, i32 1
  store i64 %bytes, ptr %q2
  call void @__tgt_target_data_begin_mapper(ptr @1, i64 -1, i32 2, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %ka)
  call void @K(ptr %p, ptr %q)
  call void @__tgt_target_data_end_mapper(ptr @1, i64 -1, i32 2, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  ret void
}

; CHECK-LABEL: define void @h(
define void @h(ptr %p, i32 %n) {
  %bp = alloca [1 x ptr]
  %pp = alloca [1 x ptr]
  %sz = alloca [1 x i64]
  %ka = alloca %struct.kargs
  %len = sext i32 %n to i64
  %bytes = mul nuw i64 %len, 24
  store ptr %p, ptr %bp
  store ptr %p, ptr %pp
  store i64 %bytes, ptr %sz
  %f1 = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 1, ptr %f1
  %f2 = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 2
  store ptr %bp, ptr %f2
  %f3 = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 3
  store ptr %pp, ptr %f3
  %f4 = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 4
  store ptr %sz, ptr %f4
  %f6 = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 6
  store ptr @.offload_mapnames.h, ptr %f6
; CHECK-NOT: __ptxcc_layout_begin
; CHECK: ret void
  %r = call i32 @__tgt_target_kernel(ptr @3, i64 -1, i32 0, i32 0, ptr @.H.region_id, ptr %ka)
  call void @H(ptr %p)
  ret void
}

define internal void @K(ptr %0, ptr %1) {
  ret void
}

define internal void @H(ptr %0) {
  ret void
}

declare void @__tgt_target_data_begin_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare void @__tgt_target_data_end_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr)

; CHECK-DAG: !{!"x.c:12:1: layout: p[?] stays: safety cannot be proved (kernel 'K' also gets pointer argument 1, which may point into the same memory; declare the pointers 'restrict', or map arrays this function allocates)"}
; CHECK-DAG: !{!"x.c:30:1: layout: p[?] stays: the compute construct maps it for its one launch: converting it before and back after would cost more than the launch gains (map it in a data region around a loop of launches)"}
; CHECK-DAG: !{!"x.c:12:1: layout: q[?] stays: safety cannot be proved (kernel 'K' also gets pointer argument 0, which may point into the same memory; declare the pointers 'restrict', or map arrays this function allocates)"}

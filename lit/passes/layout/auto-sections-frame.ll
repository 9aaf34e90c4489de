; -fptxcc-layout=auto, host side: a pointer section beside a local of the region's function.
; @f maps p[0:n] (a plain parameter, not 'restrict') and passes its kernel p and the address of
; a local (a reduction variable, %s): a parameter cannot point into a frame that did not exist
; when the caller computed it, so p is bracketed. @g passes a second plain parameter instead:
; it may point into p, and p stays with the reason.
; RUN: ptxcc-opt --passes=layout-auto %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

%struct.kargs = type { i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, [3 x i32], [3 x i32], i32 }

@.K.region_id = weak constant i8 0
@0 = private constant [17 x i8] c";x.c;f;12;1;;\00\00\00\00"
@1 = private constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @0 }
@2 = private constant [17 x i8] c";x.c;g;20;1;;\00\00\00\00"
@3 = private constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @2 }
@np = private constant [16 x i8] c";p[0:n];x.c;9;1\00"
@.offload_mapnames = private constant [1 x ptr] [ptr @np]

; CHECK: @.ptxcc.layout.auto = private constant [{{[0-9]+}} x i8] c"p;?;auto:8;x.c:12:1\00"
; CHECK-NOT: @.ptxcc.layout.auto.1

; CHECK-LABEL: define void @f(
; CHECK: call void @__ptxcc_layout_begin(ptr %p, i64 0, ptr @.ptxcc.layout.auto,
; CHECK-NEXT: call void @__tgt_target_data_begin_mapper(
; CHECK: call void @__tgt_target_data_end_mapper(
; CHECK-NEXT: call void @__ptxcc_layout_end(ptr %p, ptr @.ptxcc.layout.auto)
define void @f(ptr %p, i32 %n) {
  %sum = alloca double
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %bp = alloca [1 x ptr]
  %pp = alloca [1 x ptr]
  %sz = alloca [1 x i64]
  %len = sext i32 %n to i64
  %bytes = mul nuw i64 %len, 8
  store ptr %p, ptr %bp
  store ptr %p, ptr %pp
  store i64 %bytes, ptr %sz
  call void @__tgt_target_data_begin_mapper(ptr @1, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  br label %loop

loop:
  %it = phi i32 [ 0, %0 ], [ %it.next, %loop ]
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %ka)
  call void @K(ptr %p, ptr %sum)
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, %n
  br i1 %more, label %loop, label %exit

exit:
  call void @__tgt_target_data_end_mapper(ptr @1, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  ret void
}

; CHECK-LABEL: define void @g(
; CHECK-NOT: __ptxcc_layout_begin
; CHECK: ret void
define void @g(ptr %p, ptr %sum, i32 %n) {
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %bp = alloca [1 x ptr]
  %pp = alloca [1 x ptr]
  %sz = alloca [1 x i64]
  %len = sext i32 %n to i64
  %bytes = mul nuw i64 %len, 8
  store ptr %p, ptr %bp
  store ptr %p, ptr %pp
  store i64 %bytes, ptr %sz
  call void @__tgt_target_data_begin_mapper(ptr @3, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  br label %loop

loop:
  %it = phi i32 [ 0, %0 ], [ %it.next, %loop ]
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %ka)
  call void @K(ptr %p, ptr %sum)
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, %n
  br i1 %more, label %loop, label %exit

exit:
  call void @__tgt_target_data_end_mapper(ptr @3, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  ret void
}

define internal void @K(ptr %0, ptr %1) {
  ret void
}

declare void @__tgt_target_data_begin_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare void @__tgt_target_data_end_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr)

; CHECK-DAG: !{!"x.c:20:1: layout: p[?] stays: safety cannot be proved (kernel 'K' also gets pointer argument 1, which may point into the same memory; declare the pointers 'restrict', or map arrays this function allocates)"}
; CHECK-NOT: !{!"x.c:12:1: layout:

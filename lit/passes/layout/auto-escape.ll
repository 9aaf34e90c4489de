; -fptxcc-layout=auto, host side: an array that code of another file may find by itself stays
; when the data region calls a function of another file (`escape.rs`); the region passes it
; nothing, so only the array's origins and uses tell. A pointer section of 8-byte elements
; p[0:n] (the description "p;?;auto:8"), its kernel K run in a loop inside the region:
; @stored keeps the allocation in a global another file can read: it stays. @param's array
; comes from a parameter without 'restrict': it stays. @callee passes it (through a local
; slot) to a function of this file that stores it into a global: it stays. @private passes it
; to a function of this file that only reads through it: it is planned. @nocall stores it into
; a global but calls no function of another file: it is planned.
; RUN: ptxcc-opt --passes=layout-auto %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

%struct.kargs = type { i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, [3 x i32], [3 x i32], i32 }

@gp = global ptr null
@.K.region_id = weak constant i8 0
@np = private constant [16 x i8] c";p[0:n];x.c;9;1\00"
@.offload_mapnames = private constant [1 x ptr] [ptr @np]

@s.stored = private constant [19 x i8] c";x.c;stored;10;1;;\00"
@i.stored = private constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @s.stored }
@s.param = private constant [18 x i8] c";x.c;param;20;1;;\00"
@i.param = private constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @s.param }
@s.callee = private constant [19 x i8] c";x.c;callee;30;1;;\00"
@i.callee = private constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @s.callee }
@s.private = private constant [20 x i8] c";x.c;private;40;1;;\00"
@i.private = private constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @s.private }
@s.nocall = private constant [19 x i8] c";x.c;nocall;50;1;;\00"
@i.nocall = private constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @s.nocall }

; CHECK: @.ptxcc.layout.auto = private constant [{{[0-9]+}} x i8] c"p;?;auto:8;x.c:40:1\00"
; CHECK: @.ptxcc.layout.auto.1 = private constant [{{[0-9]+}} x i8] c"p;?;auto:8;x.c:50:1\00"
; CHECK-NOT: @.ptxcc.layout.auto.2

; CHECK-LABEL: define void @stored(
; CHECK-NOT: __ptxcc_layout_begin
define void @stored(i32 %n) {
entry:
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %len = sext i32 %n to i64
  %bytes = mul nuw i64 %len, 8
  %p = call noalias ptr @malloc(i64 %bytes)
  store ptr %p, ptr @gp
  %bp = alloca [1 x ptr]
  %pp = alloca [1 x ptr]
  %sz = alloca [1 x i64]
  store ptr %p, ptr %bp
  store ptr %p, ptr %pp
  store i64 %bytes, ptr %sz
  call void @__tgt_target_data_begin_mapper(ptr @i.stored, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  br label %loop

loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %ka)
  call void @K(ptr %p)
  call void @tick()
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, 10
  br i1 %more, label %loop, label %exit

exit:
  call void @__tgt_target_data_end_mapper(ptr @i.stored, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  ret void
}

; CHECK-LABEL: define void @param(
; CHECK-NOT: __ptxcc_layout_begin
define void @param(ptr %p, i32 %n) {
entry:
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %len = sext i32 %n to i64
  %bytes = mul nuw i64 %len, 8
  %bp = alloca [1 x ptr]
  %pp = alloca [1 x ptr]
  %sz = alloca [1 x i64]
  store ptr %p, ptr %bp
  store ptr %p, ptr %pp
  store i64 %bytes, ptr %sz
  call void @__tgt_target_data_begin_mapper(ptr @i.param, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  br label %loop

loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %ka)
  call void @K(ptr %p)
  call void @tick()
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, 10
  br i1 %more, label %loop, label %exit

exit:
  call void @__tgt_target_data_end_mapper(ptr @i.param, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  ret void
}

; CHECK-LABEL: define void @callee(
; CHECK-NOT: __ptxcc_layout_begin
define void @callee(i32 %n) {
entry:
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %len = sext i32 %n to i64
  %bytes = mul nuw i64 %len, 8
  %p = call noalias ptr @malloc(i64 %bytes)
  %slot = alloca ptr
  store ptr %p, ptr %slot
  %r0 = load ptr, ptr %slot
  call void @keep(ptr %r0)
  %bp = alloca [1 x ptr]
  %pp = alloca [1 x ptr]
  %sz = alloca [1 x i64]
  store ptr %p, ptr %bp
  store ptr %p, ptr %pp
  store i64 %bytes, ptr %sz
  call void @__tgt_target_data_begin_mapper(ptr @i.callee, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  br label %loop

loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %ka)
  call void @K(ptr %p)
  call void @tick()
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, 10
  br i1 %more, label %loop, label %exit

exit:
  call void @__tgt_target_data_end_mapper(ptr @i.callee, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  ret void
}

; CHECK-LABEL: define void @private(
; CHECK: call void @__ptxcc_layout_begin(ptr %p
define void @private(i32 %n) {
entry:
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %len = sext i32 %n to i64
  %bytes = mul nuw i64 %len, 8
  %p = call noalias ptr @malloc(i64 %bytes)
  %slot = alloca ptr
  store ptr %p, ptr %slot
  %r0 = load ptr, ptr %slot
  call void @use(ptr %r0)
  %bp = alloca [1 x ptr]
  %pp = alloca [1 x ptr]
  %sz = alloca [1 x i64]
  store ptr %p, ptr %bp
  store ptr %p, ptr %pp
  store i64 %bytes, ptr %sz
  call void @__tgt_target_data_begin_mapper(ptr @i.private, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  br label %loop

loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %ka)
  call void @K(ptr %p)
  call void @tick()
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, 10
  br i1 %more, label %loop, label %exit

exit:
  call void @__tgt_target_data_end_mapper(ptr @i.private, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  ret void
}

; CHECK-LABEL: define void @nocall(
; CHECK: call void @__ptxcc_layout_begin(ptr %p
define void @nocall(i32 %n) {
entry:
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %len = sext i32 %n to i64
  %bytes = mul nuw i64 %len, 8
  %p = call noalias ptr @malloc(i64 %bytes)
  store ptr %p, ptr @gp
  %bp = alloca [1 x ptr]
  %pp = alloca [1 x ptr]
  %sz = alloca [1 x i64]
  store ptr %p, ptr %bp
  store ptr %p, ptr %pp
  store i64 %bytes, ptr %sz
  call void @__tgt_target_data_begin_mapper(ptr @i.nocall, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  br label %loop

loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %ka)
  call void @K(ptr %p)
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, 10
  br i1 %more, label %loop, label %exit

exit:
  call void @__tgt_target_data_end_mapper(ptr @i.nocall, i64 -1, i32 1, ptr %bp, ptr %pp, ptr %sz, ptr null, ptr @.offload_mapnames, ptr null)
  ret void
}

define void @keep(ptr %q) {
  %slot = alloca ptr
  store ptr %q, ptr %slot
  %v = load ptr, ptr %slot
  store ptr %v, ptr @gp
  ret void
}

define void @use(ptr %q) {
  %x = load double, ptr %q
  ret void
}

define internal void @K(ptr %0) {
  ret void
}

declare noalias ptr @malloc(i64)
declare void @tick()
declare void @__tgt_target_data_begin_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare void @__tgt_target_data_end_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr)

; CHECK-DAG: !{!"x.c:10:1: layout: p[?] stays: safety cannot be proved (the region calls 'tick', a function of another file, which may find it (its address is stored where other code may read it) and launch kernels not compiled for its layout)"}
; CHECK-DAG: !{!"x.c:20:1: layout: p[?] stays: safety cannot be proved (the region calls 'tick', a function of another file, which may find it (it comes from a parameter without 'restrict', which the caller may also keep elsewhere) and launch kernels not compiled for its layout)"}
; CHECK-DAG: !{!"x.c:30:1: layout: p[?] stays: safety cannot be proved (the region calls 'tick', a function of another file, which may find it (its address is stored where other code may read it) and launch kernels not compiled for its layout)"}

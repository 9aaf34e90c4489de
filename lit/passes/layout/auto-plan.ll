; -fptxcc-layout=auto, host side: a data region whose kernel gets a global array of constant
; shape is bracketed with the directive's markers, the permutation written 'auto' (the
; device side decides); so is a one-dimensional array of structs (an SoA candidate: the
; device side looks at its fields); a 1-D array of scalars and a region that calls a function launching kernels
; (whose kernels the rewrite would not see) are left alone. @f's kernel runs in a loop inside
; the region (the conversions at its start and end are paid once for every trip); @h's runs
; once, and its array stays with a remark; so does @k's, whose loop is around the region
; (each trip converts again). @m's kernel runs in a loop, but a store puts @e's address in a
; field of the global @hold (whose device copy would point into the converted array): it stays.
; @n's region maps @d and, attached to a local struct the kernel gets, s.p[0:n] with s.p
; pointing into @d: the kernel would follow s.p into the converted copy in the host's layout,
; so @d stays (the map entries say so; the kernel's own arguments, @d and %s, do not). The
; launches here map nothing of their own (their kernel arguments count 0 entries).
; RUN: ptxcc-opt --passes=layout-auto %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

@a = global [8 x [40 x [4 x float]]] zeroinitializer
@b = global [64 x float] zeroinitializer
@c = global [8 x [8 x double]] zeroinitializer
@e = global [8 x [8 x double]] zeroinitializer
@d = global [8 x [8 x double]] zeroinitializer
@hold = global { i32, [2 x ptr] } zeroinitializer
%struct.P = type { double, double }
%struct.kargs = type { i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, [3 x i32], [3 x i32], i32 }
@s = global [100 x %struct.P] zeroinitializer
@.K1.region_id = weak constant i8 0
@.K2.region_id = weak constant i8 0
@.K3.region_id = weak constant i8 0
@ne = private constant [9 x i8] c";d;x.c;9\00"
@ns = private constant [9 x i8] c";s;x.c;9\00"
@nsp = private constant [17 x i8] c";s.p[0:n];x.c;9\00\00"
@.offload_mapnames.n = private constant [3 x ptr] [ptr @ne, ptr @ns, ptr @nsp]
; tofrom, to, and s.p attached: PTR_AND_OBJ | MEMBER_OF(2) | tofrom
@.offload_maptypes.n = private constant [3 x i64] [i64 3, i64 1, i64 562949953421331]
@0 = private constant [17 x i8] c";x.c;main;12;1;;\00"
@1 = private constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @0 }

; CHECK: @.ptxcc.layout.auto = private constant [23 x i8] c"a;8,40,4;auto;x.c:12:1\00"
; CHECK: @.ptxcc.layout.auto.1 = private constant [20 x i8] c"s;100;auto;x.c:12:1\00"
; CHECK-NOT: @.ptxcc.layout.auto.

; CHECK-LABEL: define void @f(
define void @f(ptr %args) {
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %bp = alloca [2 x ptr]
  %g0 = getelementptr [2 x ptr], ptr %bp, i32 0, i32 0
  store ptr @a, ptr %g0
  %g0.1 = getelementptr [2 x ptr], ptr %bp, i32 0, i32 1
  store ptr @s, ptr %g0.1
; CHECK: call void @__ptxcc_layout_begin(ptr @a, i64 0, ptr @.ptxcc.layout.auto, ptr null, ptr null)
; CHECK-NEXT: call void @__ptxcc_layout_begin(ptr @s, i64 0, ptr @.ptxcc.layout.auto.1, ptr null, ptr null)
; CHECK-NEXT: call void @__tgt_target_data_begin_mapper(
  call void @__tgt_target_data_begin_mapper(ptr @1, i64 -1, i32 2, ptr %g0, ptr %g0, ptr null, ptr null, ptr null, ptr null)
  br label %loop

loop:
  %it = phi i32 [ 0, %0 ], [ %it.next, %done ]
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K1.region_id, ptr %ka)
  %failed = icmp ne i32 %r, 0
  br i1 %failed, label %fallback, label %done

fallback:
  call void @K1(ptr @a, ptr @b, ptr @s)
  br label %done

done:
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, 10
  br i1 %more, label %loop, label %exit

exit:
  %g1 = getelementptr [2 x ptr], ptr %bp, i32 0, i32 0
; CHECK: call void @__tgt_target_data_end_mapper(
; CHECK-NEXT: call void @__ptxcc_layout_end(ptr @s, ptr @.ptxcc.layout.auto.1)
; CHECK-NEXT: call void @__ptxcc_layout_end(ptr @a, ptr @.ptxcc.layout.auto)
  call void @__tgt_target_data_end_mapper(ptr @1, i64 -1, i32 2, ptr %g1, ptr %g1, ptr null, ptr null, ptr null, ptr null)
  ret void
}

; The region calls @launches, which launches a kernel through a further call (@deeper), where
; layout versions (auto-versions.ll) do not reach: nothing is bracketed, and a remark says why.
; CHECK-LABEL: define void @g(
define void @g(ptr %args) {
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %bp = alloca [1 x ptr]
  store ptr @c, ptr %bp
; CHECK-NOT: __ptxcc_layout_begin
  call void @__tgt_target_data_begin_mapper(ptr @1, i64 -1, i32 1, ptr %bp, ptr %bp, ptr null, ptr null, ptr null, ptr null)
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K2.region_id, ptr %ka)
  call void @K2(ptr @c)
  call void @launches(ptr %args)
  call void @__tgt_target_data_end_mapper(ptr @1, i64 -1, i32 1, ptr %bp, ptr %bp, ptr null, ptr null, ptr null, ptr null)
; CHECK: ret void
  ret void
}

; The region's kernel runs once: @c stays.
; CHECK-LABEL: define void @h(
define void @h(ptr %args) {
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %bp = alloca [1 x ptr]
  store ptr @c, ptr %bp
; CHECK-NOT: __ptxcc_layout_begin
  call void @__tgt_target_data_begin_mapper(ptr @1, i64 -1, i32 1, ptr %bp, ptr %bp, ptr null, ptr null, ptr null, ptr null)
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K2.region_id, ptr %ka)
  call void @K2(ptr @c)
  call void @__tgt_target_data_end_mapper(ptr @1, i64 -1, i32 1, ptr %bp, ptr %bp, ptr null, ptr null, ptr null, ptr null)
; CHECK: ret void
  ret void
}

; The loop is around the region: each trip would convert @c again, and it stays.
; CHECK-LABEL: define void @k(
define void @k(ptr %args, i32 %n) {
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %bp = alloca [1 x ptr]
  store ptr @c, ptr %bp
  br label %loop
; CHECK-NOT: __ptxcc_layout_begin
loop:
  %it = phi i32 [ 0, %0 ], [ %it.next, %loop ]
  call void @__tgt_target_data_begin_mapper(ptr @1, i64 -1, i32 1, ptr %bp, ptr %bp, ptr null, ptr null, ptr null, ptr null)
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K2.region_id, ptr %ka)
  call void @K2(ptr @c)
  call void @__tgt_target_data_end_mapper(ptr @1, i64 -1, i32 1, ptr %bp, ptr %bp, ptr null, ptr null, ptr null, ptr null)
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, %n
  br i1 %more, label %loop, label %exit
exit:
; CHECK: ret void
  ret void
}

; CHECK-LABEL: define void @m(
define void @m(ptr %args, i32 %n) {
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %bp = alloca [1 x ptr]
  store ptr @e, ptr %bp
  store ptr @e, ptr getelementptr inbounds ({ i32, [2 x ptr] }, ptr @hold, i32 0, i32 1, i64 1)
; CHECK-NOT: __ptxcc_layout_begin
  call void @__tgt_target_data_begin_mapper(ptr @1, i64 -1, i32 1, ptr %bp, ptr %bp, ptr null, ptr null, ptr null, ptr null)
  br label %loop
loop:
  %it = phi i32 [ 0, %0 ], [ %it.next, %loop ]
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K2.region_id, ptr %ka)
  call void @K2(ptr @e)
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, %n
  br i1 %more, label %loop, label %exit
exit:
  call void @__tgt_target_data_end_mapper(ptr @1, i64 -1, i32 1, ptr %bp, ptr %bp, ptr null, ptr null, ptr null, ptr null)
; CHECK: ret void
  ret void
}

; CHECK-LABEL: define void @n(
define void @n(i32 %n) {
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %s = alloca { ptr, i32 }
  store ptr getelementptr inbounds ([8 x [8 x double]], ptr @d, i64 0, i64 2, i64 0), ptr %s
  %bp = alloca [3 x ptr]
  %pp = alloca [3 x ptr]
  store ptr @d, ptr %bp
  store ptr @d, ptr %pp
  %b1 = getelementptr inbounds [3 x ptr], ptr %bp, i32 0, i32 1
  store ptr %s, ptr %b1
  %p1 = getelementptr inbounds [3 x ptr], ptr %pp, i32 0, i32 1
  store ptr %s, ptr %p1
  %b2 = getelementptr inbounds [3 x ptr], ptr %bp, i32 0, i32 2
  store ptr %s, ptr %b2
  %sp = load ptr, ptr %s
  %p2 = getelementptr inbounds [3 x ptr], ptr %pp, i32 0, i32 2
  store ptr %sp, ptr %p2
; CHECK-NOT: __ptxcc_layout_begin
  call void @__tgt_target_data_begin_mapper(ptr @1, i64 -1, i32 3, ptr %bp, ptr %pp, ptr null, ptr @.offload_maptypes.n, ptr @.offload_mapnames.n, ptr null)
  br label %loop
loop:
  %it = phi i32 [ 0, %0 ], [ %it.next, %loop ]
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K3.region_id, ptr %ka)
  call void @K3(ptr @d, ptr %s)
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, %n
  br i1 %more, label %loop, label %exit
exit:
  call void @__tgt_target_data_end_mapper(ptr @1, i64 -1, i32 3, ptr %bp, ptr %pp, ptr null, ptr null, ptr @.offload_mapnames.n, ptr null)
; CHECK: ret void
  ret void
}

; CHECK-DAG: !{!"x.c:12:1: layout: the data region's arrays stay: it calls 'launches', which launches kernels through further calls or through a pointer, from a task ('nowait'), or inside a data region of its own, where -fptxcc-layout=auto does not follow them"}
; CHECK-DAG: !{!"x.c:12:1: layout: c[8][8] stays: no kernel that uses it runs in a loop inside the data region: converting it at the region's start and back at its end would cost more than one launch of each gains"}
; CHECK-DAG: !{!"x.c:12:1: layout: e[8][8] stays: safety cannot be proved (its address is kept in 'hold', a pointer the device may follow into the converted copy)"}
; CHECK-DAG: !{!"x.c:12:1: layout: d[8][8] stays: safety cannot be proved (the data clause 's.p[0:n]' attaches a pointer that may point into it, which the kernels would follow into the converted copy and read in the host's layout; the kernels must reach the converted copy through the array's own name)"}

define void @launches(ptr %args) {
  call void @deeper()
  ret void
}

define void @deeper() {
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K2.region_id, ptr %ka)
  ret void
}

define internal void @K1(ptr %0, ptr %1, ptr %2) {
  ret void
}

define internal void @K3(ptr %0, ptr %1) {
  ret void
}

define internal void @K2(ptr %0) {
  ret void
}

declare void @__tgt_target_data_begin_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare void @__tgt_target_data_end_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr)

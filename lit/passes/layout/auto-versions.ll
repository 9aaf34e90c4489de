; -fptxcc-layout=auto, host side, where the compute construct is in a function the data region
; calls (layout/versions.rs). @main's region maps the global @v and, in a loop, calls @sweep,
; whose kernel K gets @v by name, and @step with the pointer %p, which @step keeps in its
; parameter's slot (clang's unoptimised code) and passes to its kernel S. The region is
; bracketed as usual; each kernel gets a version (a copy of its host-fallback function and of
; the outlined function it forks, the copies calling each other) with its own region id and
; offload entry and the 'ptxcc-layout' attribute the device rewrite follows, and each launch
; offers its version to libptxrt before it runs: kernel region id, version region id, the
; parameter, the array's host address at the launch (@v; @step's parameter), the description.
; The kernels themselves stay as they are (@sweep and @step may run outside the region).
; RUN: ptxcc-opt --passes=layout-auto %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

%struct.__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }
%struct.kargs = type { i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, [3 x i32], [3 x i32], i32 }
%struct.P = type { double, double, double, double }

@v = global [64 x [48 x double]] zeroinitializer
@.K.region_id = weak constant i8 0
@.S.region_id = weak constant i8 0
@kname = private constant [2 x i8] c"K\00"
@sname = private constant [2 x i8] c"S\00"
@.offloading.entry.K = weak constant %struct.__tgt_offload_entry { ptr @.K.region_id, ptr @kname, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
@.offloading.entry.S = weak constant %struct.__tgt_offload_entry { ptr @.S.region_id, ptr @sname, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
@0 = private constant [17 x i8] c";x.c;main;20;1;;\00"
@1 = private constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @0 }
@.types.main = private constant [2 x i64] [i64 3, i64 3]

; CHECK-DAG: @.ptxcc.layout.auto = private constant {{.*}} c"v;64,48;auto;x.c:20:1\00"
; CHECK-DAG: @.ptxcc.layout.auto.1 = private constant {{.*}} c"p0;?;auto:32;x.c:20:1\00"
; CHECK-DAG: @.K_layout1.region_id = weak constant i8 0
; CHECK-DAG: @.offloading.entry.K_layout1 = weak constant %struct.__tgt_offload_entry { ptr @.K_layout1.region_id, ptr @.ptxcc.layout.kname{{.*}}, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
; CHECK-DAG: @.S_layout1.region_id = weak constant i8 0
; CHECK-DAG: @.offloading.entry.S_layout1 = weak constant %struct.__tgt_offload_entry { ptr @.S_layout1.region_id, ptr @.ptxcc.layout.kname{{.*}}, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1

; CHECK-LABEL: define void @main(
define void @main(i32 %n) {
  %p.slot = alloca ptr
  %bp = alloca [2 x ptr]
  %sz = alloca [2 x i64]
  %len = sext i32 %n to i64
  %bytes = mul nuw i64 %len, 32
  %p = call noalias ptr @malloc(i64 %bytes)
  store ptr %p, ptr %p.slot
  %p0 = load ptr, ptr %p.slot
  store ptr @v, ptr %bp
  %b1 = getelementptr inbounds [2 x ptr], ptr %bp, i32 0, i32 1
  store ptr %p0, ptr %b1
  store i64 24576, ptr %sz
  %s1 = getelementptr inbounds [2 x i64], ptr %sz, i32 0, i32 1
  store i64 %bytes, ptr %s1
; CHECK: call void @__ptxcc_layout_begin(ptr @v, i64 0, ptr @.ptxcc.layout.auto, ptr null, ptr null)
; CHECK: call void @__ptxcc_layout_begin(ptr %p0, i64 0, ptr @.ptxcc.layout.auto.1,
; CHECK: call void @__tgt_target_data_begin_mapper(
  call void @__tgt_target_data_begin_mapper(ptr @1, i64 -1, i32 2, ptr %bp, ptr %bp, ptr %sz, ptr @.types.main, ptr null, ptr null)
  br label %loop

loop:
  %it = phi i32 [ 0, %0 ], [ %it.next, %loop ]
  call void @sweep()
  %p1 = load ptr, ptr %p.slot
  call void @step(ptr %p1, i32 %n)
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, 10
  br i1 %more, label %loop, label %exit

exit:
; CHECK: call void @__tgt_target_data_end_mapper(
; CHECK: call void @__ptxcc_layout_end(
; CHECK: call void @__ptxcc_layout_end(
  call void @__tgt_target_data_end_mapper(ptr @1, i64 -1, i32 2, ptr %bp, ptr %bp, ptr %sz, ptr @.types.main, ptr null, ptr null)
  ret void
}

; CHECK-LABEL: define void @sweep(
; CHECK: call void @__ptxcc_layout_variant(ptr @.K.region_id, ptr @.K_layout1.region_id, i32 0, ptr @v, ptr @.ptxcc.layout.auto, i64 0)
; CHECK-NEXT: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id,
define void @sweep() {
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %ka)
  %failed = icmp ne i32 %r, 0
  br i1 %failed, label %fallback, label %done
fallback:
  call void @K(ptr @v)
  br label %done
done:
  ret void
}

; CHECK-LABEL: define void @step(
; CHECK: call void @__ptxcc_layout_variant(ptr @.S.region_id, ptr @.S_layout1.region_id, i32 1, ptr %q, ptr @.ptxcc.layout.auto.1, i64 0)
; CHECK-NEXT: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.S.region_id,
define void @step(ptr %q, i32 %n) {
  %q.addr = alloca ptr
  store ptr %q, ptr %q.addr
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.S.region_id, ptr %ka)
  %failed = icmp ne i32 %r, 0
  br i1 %failed, label %fallback, label %done
fallback:
  %q1 = load ptr, ptr %q.addr
  %n64 = sext i32 %n to i64
  call void @S(i64 %n64, ptr %q1)
  br label %done
done:
  ret void
}

; The kernels stay; the versions copy them and their outlined functions.
; CHECK-LABEL: define internal void @K(ptr %0)
; CHECK-NOT: ptxcc-layout
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 1, ptr @K.omp_outlined, ptr %0)
define internal void @K(ptr %0) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 1, ptr @K.omp_outlined, ptr %0)
  ret void
}

define internal void @K.omp_outlined(ptr %gtid, ptr %btid, ptr %v) {
  %e = getelementptr inbounds [64 x [48 x double]], ptr %v, i64 0, i64 1, i64 2
  store double 1.0, ptr %e
  ret void
}

define internal void @S(i64 %n, ptr %q) {
  %e = getelementptr inbounds %struct.P, ptr %q, i64 %n, i32 1
  store double 1.0, ptr %e
  ret void
}

; CHECK-LABEL: define internal void @K_layout1(ptr %0)
; CHECK-SAME: #[[KV:[0-9]+]]
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 1, ptr @K.omp_outlined.K_layout1, ptr %0)
; CHECK-LABEL: define internal void @K.omp_outlined.K_layout1(
; CHECK-LABEL: define internal void @S_layout1(i64 %n, ptr %q)
; CHECK-SAME: #[[SV:[0-9]+]]

; CHECK-DAG: attributes #[[KV]] = { "ptxcc-layout"="0=v;64,48;auto;x.c:20:1" }
; CHECK-DAG: attributes #[[SV]] = { "ptxcc-layout"="1=p0;?;auto:32;x.c:20:1" }
; CHECK-DAG: !ptxcc.layout.variants = !{![[V1:[0-9]+]], ![[V2:[0-9]+]]}
; CHECK-DAG: ![[V1]] = !{!"K_layout1", !"K"}
; CHECK-DAG: ![[V2]] = !{!"S_layout1", !"S"}

declare ptr @malloc(i64)
declare void @__kmpc_fork_teams(ptr, i32, ptr, ...)
declare void @__tgt_target_data_begin_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare void @__tgt_target_data_end_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr)

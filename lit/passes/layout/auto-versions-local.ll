; -fptxcc-layout=auto, host side, where the compute construct is written inside the data
; region (layout/versions.rs, auto.rs `Region::version_local`). The kernel K, launched in a
; loop of @main's region with the global @v, stays as it is and gets a version K_layout1
; compiled for the layout, which the launch offers with @v, the value the region's start
; passes. libptxrt then chooses at each launch whether the layout pays (ptx-runtime's
; layout/tune.rs); the layout plan leaves the offered launch alone (no in-place rewrite, no
; `__ptxcc_layout_expect`). A launch whose kernel cannot be versioned (L: no offload entry) is
; rewritten in place, as a trans block's launches are.
; RUN: ptxcc-opt --passes=layout-auto %s | FileCheck %s
; RUN: ptxcc-opt --passes=layout-auto %s | ptxcc-opt --passes=layout-plan - | FileCheck %s --check-prefix=PLAN
target triple = "x86_64-pc-linux-gnu"

%struct.__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }
%struct.kargs = type { i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, [3 x i32], [3 x i32], i32 }

@v = global [64 x [48 x double]] zeroinitializer
@.K.region_id = weak constant i8 0
@.L.region_id = weak constant i8 0
@kname = private constant [2 x i8] c"K\00"
@.offloading.entry.K = weak constant %struct.__tgt_offload_entry { ptr @.K.region_id, ptr @kname, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
@0 = private constant [17 x i8] c";x.c;main;20;1;;\00"
@1 = private constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 22, ptr @0 }
@.types.main = private constant [1 x i64] [i64 3]

; CHECK-DAG: @.ptxcc.layout.auto = private constant {{.*}} c"v;64,48;auto;x.c:20:1\00"
; CHECK-DAG: @.K_layout1.region_id = weak constant i8 0
; CHECK-DAG: @.offloading.entry.K_layout1 = weak constant %struct.__tgt_offload_entry { ptr @.K_layout1.region_id,

; CHECK-LABEL: define void @main(
; PLAN-LABEL: define void @main(
define void @main() {
  %ka = alloca %struct.kargs
  %ka.n = getelementptr inbounds %struct.kargs, ptr %ka, i32 0, i32 1
  store i32 0, ptr %ka.n
  %bp = alloca [1 x ptr]
  %sz = alloca [1 x i64]
  store ptr @v, ptr %bp
  store i64 24576, ptr %sz
; CHECK: call void @__ptxcc_layout_begin(ptr @v, i64 0, ptr @.ptxcc.layout.auto, ptr null, ptr null)
; CHECK-NEXT: call void @__tgt_target_data_begin_mapper(
  call void @__tgt_target_data_begin_mapper(ptr @1, i64 -1, i32 1, ptr %bp, ptr %bp, ptr %sz, ptr @.types.main, ptr null, ptr null)
  br label %loop

loop:
  %it = phi i32 [ 0, %0 ], [ %it.next, %after ]
; CHECK: call void @__ptxcc_layout_variant(ptr @.K.region_id, ptr @.K_layout1.region_id, i32 0, ptr @v, ptr @.ptxcc.layout.auto, i64 0)
; CHECK-NEXT: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id,
; PLAN: call void @__ptxcc_layout_variant(ptr @.K.region_id, ptr @.K_layout1.region_id, i32 0, ptr @v,
; PLAN-NEXT: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id,
  %r = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %ka)
  %failed = icmp ne i32 %r, 0
  br i1 %failed, label %fallback, label %next
fallback:
  call void @K(ptr @v)
  br label %next
next:
; CHECK-NOT: @__ptxcc_layout_variant(ptr @.L.region_id
; PLAN: call void @__ptxcc_layout_expect(i32 0, ptr @v)
; PLAN-NEXT: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.L.region_id,
  %r2 = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.L.region_id, ptr %ka)
  %failed2 = icmp ne i32 %r2, 0
  br i1 %failed2, label %fallback2, label %after
fallback2:
  call void @L(ptr @v)
  br label %after
after:
  %it.next = add i32 %it, 1
  %more = icmp slt i32 %it.next, 10
  br i1 %more, label %loop, label %exit

exit:
; CHECK: call void @__tgt_target_data_end_mapper(
; CHECK-NEXT: call void @__ptxcc_layout_end(ptr @v, ptr @.ptxcc.layout.auto)
  call void @__tgt_target_data_end_mapper(ptr @1, i64 -1, i32 1, ptr %bp, ptr %bp, ptr %sz, ptr @.types.main, ptr null, ptr null)
  ret void
}

; The kernel stays; its version carries the layout. L, not versioned, is rewritten in place.
; CHECK-LABEL: define internal void @K(ptr %0)
; CHECK-NOT: ptxcc-layout
; CHECK: ret void
; PLAN-LABEL: define internal void @K(ptr %0) {
define internal void @K(ptr %0) {
  %e = getelementptr inbounds [64 x [48 x double]], ptr %0, i64 0, i64 1, i64 2
  store double 1.0, ptr %e
  ret void
}

; PLAN-LABEL: define internal void @L(ptr %0)
; PLAN-SAME: #[[LA:[0-9]+]]
define internal void @L(ptr %0) {
  %e = getelementptr inbounds [64 x [48 x double]], ptr %0, i64 0, i64 3, i64 2
  store double 2.0, ptr %e
  ret void
}

; CHECK-LABEL: define internal void @K_layout1(ptr %0)
; CHECK-SAME: #[[KV:[0-9]+]]
; CHECK-DAG: attributes #[[KV]] = { "ptxcc-layout"="0=v;64,48;auto;x.c:20:1" }
; CHECK-DAG: !ptxcc.layout.variants = !{![[V1:[0-9]+]]}
; CHECK-DAG: ![[V1]] = !{!"K_layout1", !"K"}
; PLAN-DAG: attributes #[[LA]] = { "ptxcc-layout"="0=v;64,48;auto;x.c:20:1" }

declare void @__tgt_target_data_begin_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare void @__tgt_target_data_end_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr)
declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr)

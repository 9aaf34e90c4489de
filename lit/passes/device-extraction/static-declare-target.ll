; A `static` declare target global has no offload entry in clang's host IR, only its
; !omp_offload.info record: device extraction gives it a name of the unit's own, keeps it on the
; device (external, for the runtime to find) and reports it like an entry's global, with the
; size from the data layout.
; RUN: ptxcc-opt --passes=device-extraction %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }

; CHECK: @__ptxcc_static_[[UNIT:[0-9a-f]+]]_field = dso_local global [100 x double] zeroinitializer
@field = internal global [100 x double] zeroinitializer, align 16
; CHECK: @__ptxcc_static_[[UNIT]]_offset = dso_local global i32 5
@offset = internal global i32 5, align 4
; Not declare target: an ordinary internal global the kernel does not reach is dropped.
; CHECK-NOT: @unused
@unused = internal global i32 1, align 4
@.__omp_offloading_10_20_f_l3.region_id = weak constant i8 0
@.entry_name = internal unnamed_addr constant [28 x i8] c"__omp_offloading_10_20_f_l3\00"
@.offloading.entry.__omp_offloading_10_20_f_l3 = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_10_20_f_l3.region_id, ptr @.entry_name, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1

define dso_local void @host_main() {
  call void @__omp_offloading_10_20_f_l3(ptr null)
  %u = load i32, ptr @unused
  ret void
}

; CHECK: define dso_local void @__omp_offloading_10_20_f_l3
; CHECK: load i32, ptr @__ptxcc_static_[[UNIT]]_offset
; CHECK: store double {{.*}}, ptr @__ptxcc_static_[[UNIT]]_field
define internal void @__omp_offloading_10_20_f_l3(ptr %p) {
  %o = load i32, ptr @offset
  %f = sitofp i32 %o to double
  store double %f, ptr @field
  ret void
}

!omp_offload.info = !{!0, !1, !2}
!0 = !{i32 0, i32 16, i32 32, !"f", i32 3, i32 0, i32 0}
!1 = !{i32 1, !"field", i32 0, i32 1}
!2 = !{i32 1, !"offset", i32 2, i32 2}

; A device variant the driver recorded (__ptxcc_variant_N = {base, variant}, from 'declare
; variant(gpu_impl) match(device={kind(gpu)})') replaces its base function at every device call,
; except in the variant itself; the variant comes along with the kernel, the marker stays on the host.
; RUN: ptxcc-opt --passes=device-extraction %s | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }
@.__omp_offloading_10_20_f_l3.region_id = weak constant i8 0
@.entry_name = internal unnamed_addr constant [28 x i8] c"__omp_offloading_10_20_f_l3\00"
@.offloading.entry.__omp_offloading_10_20_f_l3 = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_10_20_f_l3.region_id, ptr @.entry_name, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
@__ptxcc_variant_0 = internal constant [2 x ptr] [ptr @impl, ptr @gpu_impl]
@llvm.compiler.used = appending global [1 x ptr] [ptr @__ptxcc_variant_0], section "llvm.metadata"

; CHECK-NOT: __ptxcc_variant_0
; CHECK-LABEL: define dso_local void @__omp_offloading_10_20_f_l3(ptr %p)
; CHECK-NEXT: %x = call i32 @gpu_impl(i32 1)
define internal void @__omp_offloading_10_20_f_l3(ptr %p) {
  %x = call i32 @impl(i32 1)
  store i32 %x, ptr %p
  ret void
}
; CHECK-LABEL: define internal i32 @impl(
define dso_local i32 @impl(i32 %x) {
  ret i32 %x
}
; CHECK-LABEL: define internal i32 @gpu_impl(
; CHECK-NEXT: %b = call i32 @impl(i32 %x)
define dso_local i32 @gpu_impl(i32 %x) {
  %b = call i32 @impl(i32 %x)
  %r = add i32 %b, 1000
  ret i32 %r
}
!omp_offload.info = !{!0}
!0 = !{i32 0, i32 16, i32 32, !"f", i32 3, i32 0, i32 0}

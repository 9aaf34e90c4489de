; A kernel whose host version keeps a pointer argument in memory (here in a global: the kernel
; stores it in device memory) is flagged PTXRT_KERNEL_STORES_POINTERS (16) in its descriptor's
; flags: libptxrt then never moves a device copy (layout conversions go in place). One that
; only reads and writes through its pointer is not flagged (register.ll: flags 0).
; RUN: ptxcc-opt --passes=host-registration --device=%S/Inputs/device.ll --ptx=%S/Inputs/image.ptx %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"
%struct.__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }

@keep = internal global ptr null
@.__omp_offloading_1_2_f_l3.region_id = weak constant i8 0
@.name = internal constant [26 x i8] c"__omp_offloading_1_2_f_l3\00"
@.offloading.entry.f = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_1_2_f_l3.region_id, ptr @.name, i64 0, i32 0, i32 0 }, section "omp_offloading_entries"

define internal void @__omp_offloading_1_2_f_l3(ptr %p, i64 %n) {
  %q = getelementptr inbounds i32, ptr %p, i64 %n
  store ptr %q, ptr @keep
  ret void
}

; CHECK: @__ptxcc.kernels = private constant [1 x {{.*}}] [{{.*}} { ptr @.__omp_offloading_1_2_f_l3.region_id, ptr @__ptxcc.kname, ptr @__ptxemu_entry.__omp_offloading_1_2_f_l3, ptr @__ptxcc.ksource, i32 2, i32 0, i32 16, i32 0,

; An atomic update at the address a kernel gets (a reduction's `atomicrmw fadd`) keeps no
; pointer: the kernel is not flagged PTXRT_KERNEL_STORES_POINTERS (flags 0), so libptxrt may
; still move device copies (stores-pointers.ll is the flagged case). An atomic that writes the
; pointer itself as the value would be.
; RUN: ptxcc-opt --passes=host-registration --device=%S/Inputs/device.ll --ptx=%S/Inputs/image.ptx %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"
%struct.__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }

@.__omp_offloading_1_2_f_l3.region_id = weak constant i8 0
@.name = internal constant [26 x i8] c"__omp_offloading_1_2_f_l3\00"
@.offloading.entry.f = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_1_2_f_l3.region_id, ptr @.name, i64 0, i32 0, i32 0 }, section "omp_offloading_entries"

define internal void @__omp_offloading_1_2_f_l3(ptr %p, i64 %n) {
  %q = getelementptr inbounds double, ptr %p, i64 %n
  %old = atomicrmw fadd ptr %q, double 1.0 monotonic, align 8
  %pair = cmpxchg ptr %p, i64 0, i64 %n monotonic monotonic, align 8
  ret void
}

; CHECK: @__ptxcc.kernels = private constant [1 x {{.*}}] [{{.*}} { ptr @.__omp_offloading_1_2_f_l3.region_id, ptr @__ptxcc.kname, ptr @__ptxemu_entry.__omp_offloading_1_2_f_l3, ptr @__ptxcc.ksource, i32 2, i32 0, i32 0, i32 0,

; The device module keeps the kernel, what it reaches and the declare-target globals; it drops
; host-only code and data and is retargeted to nvptx64.
; RUN: ptxcc-opt --passes=device-extraction %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }

; CHECK: target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
; CHECK: target triple = "nvptx64-nvidia-cuda"

; CHECK: @tab = dso_local global [2 x double]
@tab = dso_local global [2 x double] [double 1.0, double 2.0], align 16
; CHECK-NOT: @host_only
@host_only = dso_local global i32 7, align 4
; CHECK: @lut = internal constant
@lut = dso_local constant [2 x i32] [i32 3, i32 4], align 4
; CHECK-NOT: region_id
@.__omp_offloading_10_20_f_l3.region_id = weak constant i8 0
@.entry_name = internal unnamed_addr constant [28 x i8] c"__omp_offloading_10_20_f_l3\00"
@.offloading.entry.__omp_offloading_10_20_f_l3 = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_10_20_f_l3.region_id, ptr @.entry_name, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
@.tab_name = internal unnamed_addr constant [4 x i8] c"tab\00"
@.offloading.entry.tab = weak constant %struct.__tgt_offload_entry { ptr @tab, ptr @.tab_name, i64 16, i32 0, i32 0 }, section "omp_offloading_entries", align 1

; CHECK-NOT: define {{.*}} @host_main
define dso_local i32 @host_main() #0 {
  %v = load i32, ptr @host_only
  call void @__omp_offloading_10_20_f_l3(ptr null)
  ret i32 %v
}

; The kernel keeps external linkage (its name is the PTX entry) and loses x86 attributes.
; CHECK: define dso_local void @__omp_offloading_10_20_f_l3(ptr %p) [[ATTR:#[0-9]+]]
define internal void @__omp_offloading_10_20_f_l3(ptr %p) #0 {
  %x = call double @helper(i32 1)
  store double %x, ptr %p
  ret void
}

; CHECK: define internal double @helper(i32 %i)
define dso_local double @helper(i32 %i) #0 {
  %a = getelementptr [2 x double], ptr @tab, i32 0, i32 %i
  %v = load double, ptr %a
  %l = getelementptr [2 x i32], ptr @lut, i32 0, i32 %i
  %w = load i32, ptr %l
  %f = sitofp i32 %w to double
  %s = fadd double %v, %f
  ret double %s
}

; CHECK: attributes [[ATTR]] = { nounwind }
attributes #0 = { noinline nounwind optnone "target-cpu"="x86-64" "target-features"="+cmov,+cx8" "tune-cpu"="generic" }

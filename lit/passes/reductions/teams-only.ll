; The reduction lowering alone (ptxcc-opt --passes=reductions) on a teams-only kernel
; (`target teams distribute reduction(+: c)`, one thread per block): the one thread of each
; team takes the atomic branch (`switch i32 2`): one atomicrmw per block, no tree and no
; __kmpc_reduce/__kmpc_end_reduce left.
; Made from this C with `ptxcc -save-temps -O1 -c`, `ptxcc-opt --passes=device-extraction`,
; `opt -strip-debug` (tbaa and loop metadata removed):
;   long count(const int *a, int n) {
;     long c = 0;
;   #pragma omp target teams distribute reduction(+ : c) map(to : a[0:n])
;     for (int i = 0; i < n; i++) c += a[i] > 0;
;     return c;
;   }
; RUN: ptxcc-opt --verify-each --passes=reductions %s | FileCheck %s
; CHECK-NOT: @__ptxcc_block_reduce
; CHECK-LABEL: define internal void @__omp_offloading_fe00_98e1bd_count_l3.omp_outlined(
; CHECK-NOT: call i32 @__kmpc_reduce
; CHECK: switch i32 2, label
; CHECK: atomicrmw add ptr
; CHECK-NOT: call void @__kmpc_end_reduce
; CHECK-LABEL: define internal void @__omp_offloading_fe00_98e1bd_count_l3.omp_outlined.omp.reduction.reduction_func(
source_filename = "tonly.c"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [21 x i8] c";tonly.c;count;3;1;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2050, i32 0, i32 20, ptr @0 }, align 8
@2 = private unnamed_addr constant [22 x i8] c";tonly.c;count;3;70;;\00", align 1
@3 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2050, i32 0, i32 21, ptr @2 }, align 8
@.gomp_critical_user_.reduction.var = internal global [8 x i32] zeroinitializer, align 8
@4 = private unnamed_addr constant %struct.ident_t { i32 0, i32 18, i32 0, i32 21, ptr @2 }, align 8
@5 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 20, ptr @0 }, align 8

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #0

; Function Attrs: alwaysinline norecurse nounwind uwtable
define dso_local void @__omp_offloading_fe00_98e1bd_count_l3(i64 noundef %0, ptr noundef nonnull align 8 dereferenceable(8) %1, ptr noundef %2) #1 {
  %4 = alloca i64, align 8
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca i64, align 8
  store i64 %0, ptr %4, align 8
  store ptr %1, ptr %5, align 8
  store ptr %2, ptr %6, align 8
  %8 = load ptr, ptr %5, align 8
  %9 = load i32, ptr %4, align 4
  store i32 %9, ptr %7, align 4
  %10 = load i64, ptr %7, align 8
  %11 = load ptr, ptr %6, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr @5, i32 3, ptr @__omp_offloading_fe00_98e1bd_count_l3.omp_outlined, i64 %10, ptr %8, ptr %11)
  ret void
}

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @__omp_offloading_fe00_98e1bd_count_l3.omp_outlined(ptr noalias noundef %0, ptr noalias noundef %1, i64 noundef %2, ptr noundef nonnull align 8 dereferenceable(8) %3, ptr noundef %4) #1 {
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca i64, align 8
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
  %11 = alloca i64, align 8
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca i32, align 4
  %20 = alloca i32, align 4
  %21 = alloca i32, align 4
  %22 = alloca [1 x ptr], align 8
  store ptr %0, ptr %6, align 8
  store ptr %1, ptr %7, align 8
  store i64 %2, ptr %8, align 8
  store ptr %3, ptr %9, align 8
  store ptr %4, ptr %10, align 8
  %23 = load ptr, ptr %9, align 8
  call void @llvm.lifetime.start.p0(i64 8, ptr %11) #2
  store i64 0, ptr %11, align 8
  call void @llvm.lifetime.start.p0(i64 4, ptr %12) #2
  call void @llvm.lifetime.start.p0(i64 4, ptr %14) #2
  %24 = load i32, ptr %8, align 4
  store i32 %24, ptr %14, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %15) #2
  %25 = load i32, ptr %14, align 4
  %26 = sub nsw i32 %25, 0
  %27 = sdiv i32 %26, 1
  %28 = sub nsw i32 %27, 1
  store i32 %28, ptr %15, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %16) #2
  store i32 0, ptr %16, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %16) #2
  %29 = load i32, ptr %14, align 4
  %30 = icmp slt i32 0, %29
  br i1 %30, label %31, label %72

31:                                               ; preds = %5
  call void @llvm.lifetime.start.p0(i64 4, ptr %17) #2
  store i32 0, ptr %17, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %18) #2
  %32 = load i32, ptr %15, align 4
  store i32 %32, ptr %18, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %19) #2
  store i32 1, ptr %19, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %20) #2
  store i32 0, ptr %20, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %21) #2
  %33 = load ptr, ptr %6, align 8
  %34 = load i32, ptr %33, align 4
  call void @__kmpc_for_static_init_4(ptr @1, i32 %34, i32 92, ptr %20, ptr %17, ptr %18, ptr %19, i32 1, i32 1)
  %35 = load i32, ptr %18, align 4
  %36 = load i32, ptr %15, align 4
  %37 = icmp sgt i32 %35, %36
  br i1 %37, label %38, label %40

38:                                               ; preds = %31
  %39 = load i32, ptr %15, align 4
  br label %42

40:                                               ; preds = %31
  %41 = load i32, ptr %18, align 4
  br label %42

42:                                               ; preds = %40, %38
  %43 = phi i32 [ %39, %38 ], [ %41, %40 ]
  store i32 %43, ptr %18, align 4
  %44 = load i32, ptr %17, align 4
  store i32 %44, ptr %12, align 4
  br label %45

45:                                               ; preds = %65, %42
  %46 = load i32, ptr %12, align 4
  %47 = load i32, ptr %18, align 4
  %48 = icmp sle i32 %46, %47
  br i1 %48, label %50, label %49

49:                                               ; preds = %45
  br label %68

50:                                               ; preds = %45
  %51 = load i32, ptr %12, align 4
  %52 = mul nsw i32 %51, 1
  %53 = add nsw i32 0, %52
  store i32 %53, ptr %21, align 4
  %54 = load ptr, ptr %10, align 8
  %55 = load i32, ptr %21, align 4
  %56 = sext i32 %55 to i64
  %57 = getelementptr inbounds i32, ptr %54, i64 %56
  %58 = load i32, ptr %57, align 4
  %59 = icmp sgt i32 %58, 0
  %60 = zext i1 %59 to i32
  %61 = sext i32 %60 to i64
  %62 = load i64, ptr %11, align 8
  %63 = add nsw i64 %62, %61
  store i64 %63, ptr %11, align 8
  br label %64

64:                                               ; preds = %50
  br label %65

65:                                               ; preds = %64
  %66 = load i32, ptr %12, align 4
  %67 = add nsw i32 %66, 1
  store i32 %67, ptr %12, align 4
  br label %45

68:                                               ; preds = %49
  br label %69

69:                                               ; preds = %68
  %70 = load ptr, ptr %6, align 8
  %71 = load i32, ptr %70, align 4
  call void @__kmpc_for_static_fini(ptr @3, i32 %71)
  call void @llvm.lifetime.end.p0(i64 4, ptr %21) #2
  br label %72

72:                                               ; preds = %69, %5
  call void @llvm.lifetime.end.p0(i64 4, ptr %20) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %19) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %18) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %17) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %15) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %14) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %12) #2
  %73 = getelementptr inbounds [1 x ptr], ptr %22, i64 0, i64 0
  store ptr %11, ptr %73, align 8
  %74 = load ptr, ptr %6, align 8
  %75 = load i32, ptr %74, align 4
  %76 = call i32 @__kmpc_reduce(ptr @4, i32 %75, i32 1, i64 8, ptr %22, ptr @__omp_offloading_fe00_98e1bd_count_l3.omp_outlined.omp.reduction.reduction_func, ptr @.gomp_critical_user_.reduction.var)
  switch i32 %76, label %84 [
    i32 1, label %77
    i32 2, label %81
  ]

77:                                               ; preds = %72
  %78 = load i64, ptr %23, align 8
  %79 = load i64, ptr %11, align 8
  %80 = add nsw i64 %78, %79
  store i64 %80, ptr %23, align 8
  call void @__kmpc_end_reduce(ptr @4, i32 %75, ptr @.gomp_critical_user_.reduction.var)
  br label %84

81:                                               ; preds = %72
  %82 = load i64, ptr %11, align 8
  %83 = atomicrmw add ptr %23, i64 %82 monotonic, align 8
  call void @__kmpc_end_reduce(ptr @4, i32 %75, ptr @.gomp_critical_user_.reduction.var)
  br label %84

84:                                               ; preds = %81, %77, %72
  call void @llvm.lifetime.end.p0(i64 8, ptr %11) #2
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #0

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) #2

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) #2

; Function Attrs: norecurse nounwind uwtable
define internal void @__omp_offloading_fe00_98e1bd_count_l3.omp_outlined.omp.reduction.reduction_func(ptr noundef %0, ptr noundef %1) #3 {
  %3 = alloca ptr, align 8
  %4 = alloca ptr, align 8
  store ptr %0, ptr %3, align 8
  store ptr %1, ptr %4, align 8
  %5 = load ptr, ptr %3, align 8
  %6 = load ptr, ptr %4, align 8
  %7 = getelementptr inbounds [1 x ptr], ptr %6, i64 0, i64 0
  %8 = load ptr, ptr %7, align 8
  %9 = getelementptr inbounds [1 x ptr], ptr %5, i64 0, i64 0
  %10 = load ptr, ptr %9, align 8
  %11 = load i64, ptr %10, align 8
  %12 = load i64, ptr %8, align 8
  %13 = add nsw i64 %11, %12
  store i64 %13, ptr %10, align 8
  ret void
}

; Function Attrs: convergent nounwind
declare i32 @__kmpc_reduce(ptr, i32, i32, i64, ptr, ptr, ptr) #4

; Function Attrs: convergent nounwind
declare void @__kmpc_end_reduce(ptr, i32, ptr) #4

; Function Attrs: nounwind
declare void @__kmpc_fork_teams(ptr, i32, ptr, ...) #2

attributes #0 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #1 = { alwaysinline norecurse nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" }
attributes #2 = { nounwind }
attributes #3 = { norecurse nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" }
attributes #4 = { convergent nounwind }



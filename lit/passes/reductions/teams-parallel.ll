; The reduction lowering alone (ptxcc-opt --passes=reductions; kernel formation runs it inside):
; `target teams distribute parallel for reduction(+: s)` on a double. The parallel level
; combines the block's threads with __ptxcc_block_reduce_all (every thread gets the block's
; value; the fork call's destination is a local of the teams code), then every thread takes
; the plain branch; the teams level's value is then the block's in every thread, and thread 0
; alone takes the atomic branch: one atomicrmw per block. No __kmpc_reduce* call is left; the
; fork calls stay (the rest of kernel formation does not run).
; Made from red.c below with `ptxcc -save-temps -O1 -c`, then `ptxcc-opt --passes=device-extraction`
; and `opt -strip-debug` (tbaa and loop metadata removed):
;   double dot(const double *a, const double *b, int n) {
;     double s = 0;
;   #pragma omp target teams distribute parallel for reduction(+ : s) map(to : a[0:n], b[0:n])
;     for (int i = 0; i < n; i++) s += a[i] * b[i];
;     return s;
;   }
; RUN: ptxcc-opt --verify-each --passes=reductions %s | FileCheck %s
; CHECK: @__ptxcc.red_smem = internal addrspace(3) global
; CHECK-NOT: call i32 @__kmpc_reduce
; CHECK-LABEL: define internal void @__omp_offloading_fe00_98e331_dot_l3.omp_outlined(
; CHECK: call void {{.*}} @__kmpc_fork_call(
; CHECK: %[[TID:[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NEXT: %[[T0:[0-9]+]] = icmp eq i32 %[[TID]], 0
; CHECK-NEXT: %ptxcc.red.branch = select i1 %[[T0]], i32 2, i32 0
; CHECK-NEXT: switch i32 %ptxcc.red.branch
; CHECK: atomicrmw fadd ptr
; CHECK-LABEL: define internal void @__omp_offloading_fe00_98e331_dot_l3.omp_outlined.omp_outlined(
; CHECK: %ptxcc.red.first = call i32 @__ptxcc_block_reduce_all(ptr %ptxcc.red.priv, ptr %ptxcc.red.tmp, i32 2, ptr %ptxcc.red.lhs, ptr %ptxcc.red.rhs, ptr @__omp_offloading_fe00_98e331_dot_l3.omp_outlined.omp_outlined.omp.reduction.reduction_func
; CHECK-NOT: call void @__kmpc_end_reduce
; CHECK-LABEL: define internal void @__omp_offloading_fe00_98e331_dot_l3.omp_outlined.omp_outlined.omp.reduction.reduction_func(
source_filename = "red.c"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@0 = private unnamed_addr constant [17 x i8] c";red.c;dot;3;1;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2050, i32 0, i32 16, ptr @0 }, align 8
@2 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 16, ptr @0 }, align 8
@3 = private unnamed_addr constant [18 x i8] c";red.c;dot;3;91;;\00", align 1
@4 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 17, ptr @3 }, align 8
@.gomp_critical_user_.reduction.var = internal global [8 x i32] zeroinitializer, align 8
@5 = private unnamed_addr constant %struct.ident_t { i32 0, i32 18, i32 0, i32 17, ptr @3 }, align 8
@6 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 16, ptr @0 }, align 8
@7 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2050, i32 0, i32 17, ptr @3 }, align 8

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #0

; Function Attrs: alwaysinline norecurse nounwind uwtable
define dso_local void @__omp_offloading_fe00_98e331_dot_l3(i64 noundef %0, ptr noundef nonnull align 8 dereferenceable(8) %1, ptr noundef %2, ptr noundef %3) #1 {
  %5 = alloca i64, align 8
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca i64, align 8
  store i64 %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store ptr %2, ptr %7, align 8
  store ptr %3, ptr %8, align 8
  %10 = load ptr, ptr %6, align 8
  %11 = load i32, ptr %5, align 4
  store i32 %11, ptr %9, align 4
  %12 = load i64, ptr %9, align 8
  %13 = load ptr, ptr %7, align 8
  %14 = load ptr, ptr %8, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr @6, i32 4, ptr @__omp_offloading_fe00_98e331_dot_l3.omp_outlined, i64 %12, ptr %10, ptr %13, ptr %14)
  ret void
}

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @__omp_offloading_fe00_98e331_dot_l3.omp_outlined(ptr noalias noundef %0, ptr noalias noundef %1, i64 noundef %2, ptr noundef nonnull align 8 dereferenceable(8) %3, ptr noundef %4, ptr noundef %5) #1 {
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca i64, align 8
  %10 = alloca ptr, align 8
  %11 = alloca ptr, align 8
  %12 = alloca ptr, align 8
  %13 = alloca double, align 8
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca i32, align 4
  %20 = alloca i32, align 4
  %21 = alloca i32, align 4
  %22 = alloca i32, align 4
  %23 = alloca i32, align 4
  %24 = alloca i64, align 8
  %25 = alloca [1 x ptr], align 8
  store ptr %0, ptr %7, align 8
  store ptr %1, ptr %8, align 8
  store i64 %2, ptr %9, align 8
  store ptr %3, ptr %10, align 8
  store ptr %4, ptr %11, align 8
  store ptr %5, ptr %12, align 8
  %26 = load ptr, ptr %10, align 8
  call void @llvm.lifetime.start.p0(i64 8, ptr %13) #2
  store double 0.000000e+00, ptr %13, align 8
  call void @llvm.lifetime.start.p0(i64 4, ptr %14) #2
  call void @llvm.lifetime.start.p0(i64 4, ptr %16) #2
  %27 = load i32, ptr %9, align 4
  store i32 %27, ptr %16, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %17) #2
  %28 = load i32, ptr %16, align 4
  %29 = sub nsw i32 %28, 0
  %30 = sdiv i32 %29, 1
  %31 = sub nsw i32 %30, 1
  store i32 %31, ptr %17, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %18) #2
  store i32 0, ptr %18, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %18) #2
  %32 = load i32, ptr %16, align 4
  %33 = icmp slt i32 0, %32
  br i1 %33, label %34, label %70

34:                                               ; preds = %6
  call void @llvm.lifetime.start.p0(i64 4, ptr %19) #2
  store i32 0, ptr %19, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %20) #2
  %35 = load i32, ptr %17, align 4
  store i32 %35, ptr %20, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %21) #2
  store i32 1, ptr %21, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %22) #2
  store i32 0, ptr %22, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %23) #2
  %36 = load ptr, ptr %7, align 8
  %37 = load i32, ptr %36, align 4
  call void @__kmpc_for_static_init_4(ptr @1, i32 %37, i32 92, ptr %22, ptr %19, ptr %20, ptr %21, i32 1, i32 1)
  %38 = load i32, ptr %20, align 4
  %39 = load i32, ptr %17, align 4
  %40 = icmp sgt i32 %38, %39
  br i1 %40, label %41, label %43

41:                                               ; preds = %34
  %42 = load i32, ptr %17, align 4
  br label %45

43:                                               ; preds = %34
  %44 = load i32, ptr %20, align 4
  br label %45

45:                                               ; preds = %43, %41
  %46 = phi i32 [ %42, %41 ], [ %44, %43 ]
  store i32 %46, ptr %20, align 4
  %47 = load i32, ptr %19, align 4
  store i32 %47, ptr %14, align 4
  br label %48

48:                                               ; preds = %62, %45
  %49 = load i32, ptr %14, align 4
  %50 = load i32, ptr %20, align 4
  %51 = icmp sle i32 %49, %50
  br i1 %51, label %53, label %52

52:                                               ; preds = %48
  br label %66

53:                                               ; preds = %48
  %54 = load i32, ptr %19, align 4
  %55 = zext i32 %54 to i64
  %56 = load i32, ptr %20, align 4
  %57 = zext i32 %56 to i64
  %58 = load i32, ptr %9, align 4
  store i32 %58, ptr %24, align 4
  %59 = load i64, ptr %24, align 8
  %60 = load ptr, ptr %11, align 8
  %61 = load ptr, ptr %12, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @6, i32 6, ptr @__omp_offloading_fe00_98e331_dot_l3.omp_outlined.omp_outlined, i64 %55, i64 %57, i64 %59, ptr %13, ptr %60, ptr %61)
  br label %62

62:                                               ; preds = %53
  %63 = load i32, ptr %14, align 4
  %64 = load i32, ptr %21, align 4
  %65 = add nsw i32 %63, %64
  store i32 %65, ptr %14, align 4
  br label %48

66:                                               ; preds = %52
  br label %67

67:                                               ; preds = %66
  %68 = load ptr, ptr %7, align 8
  %69 = load i32, ptr %68, align 4
  call void @__kmpc_for_static_fini(ptr @7, i32 %69)
  call void @llvm.lifetime.end.p0(i64 4, ptr %23) #2
  br label %70

70:                                               ; preds = %67, %6
  call void @llvm.lifetime.end.p0(i64 4, ptr %22) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %21) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %20) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %19) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %17) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %16) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %14) #2
  %71 = getelementptr inbounds [1 x ptr], ptr %25, i64 0, i64 0
  store ptr %13, ptr %71, align 8
  %72 = load ptr, ptr %7, align 8
  %73 = load i32, ptr %72, align 4
  %74 = call i32 @__kmpc_reduce_nowait(ptr @5, i32 %73, i32 1, i64 8, ptr %25, ptr @__omp_offloading_fe00_98e331_dot_l3.omp_outlined.omp.reduction.reduction_func, ptr @.gomp_critical_user_.reduction.var)
  switch i32 %74, label %82 [
    i32 1, label %75
    i32 2, label %79
  ]

75:                                               ; preds = %70
  %76 = load double, ptr %26, align 8
  %77 = load double, ptr %13, align 8
  %78 = fadd double %76, %77
  store double %78, ptr %26, align 8
  call void @__kmpc_end_reduce_nowait(ptr @5, i32 %73, ptr @.gomp_critical_user_.reduction.var)
  br label %82

79:                                               ; preds = %70
  %80 = load double, ptr %13, align 8
  %81 = atomicrmw fadd ptr %26, double %80 monotonic, align 8
  br label %82

82:                                               ; preds = %79, %75, %70
  call void @llvm.lifetime.end.p0(i64 8, ptr %13) #2
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #0

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) #2

; Function Attrs: alwaysinline norecurse nounwind uwtable
define internal void @__omp_offloading_fe00_98e331_dot_l3.omp_outlined.omp_outlined(ptr noalias noundef %0, ptr noalias noundef %1, i64 noundef %2, i64 noundef %3, i64 noundef %4, ptr noundef nonnull align 8 dereferenceable(8) %5, ptr noundef %6, ptr noundef %7) #1 {
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
  %11 = alloca i64, align 8
  %12 = alloca i64, align 8
  %13 = alloca i64, align 8
  %14 = alloca ptr, align 8
  %15 = alloca ptr, align 8
  %16 = alloca ptr, align 8
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca i32, align 4
  %20 = alloca i32, align 4
  %21 = alloca i32, align 4
  %22 = alloca i32, align 4
  %23 = alloca i32, align 4
  %24 = alloca i32, align 4
  %25 = alloca i32, align 4
  %26 = alloca double, align 8
  %27 = alloca i32, align 4
  %28 = alloca [1 x ptr], align 8
  store ptr %0, ptr %9, align 8
  store ptr %1, ptr %10, align 8
  store i64 %2, ptr %11, align 8
  store i64 %3, ptr %12, align 8
  store i64 %4, ptr %13, align 8
  store ptr %5, ptr %14, align 8
  store ptr %6, ptr %15, align 8
  store ptr %7, ptr %16, align 8
  %29 = load ptr, ptr %14, align 8
  call void @llvm.lifetime.start.p0(i64 4, ptr %17) #2
  call void @llvm.lifetime.start.p0(i64 4, ptr %19) #2
  %30 = load i32, ptr %13, align 4
  store i32 %30, ptr %19, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %20) #2
  %31 = load i32, ptr %19, align 4
  %32 = sub nsw i32 %31, 0
  %33 = sdiv i32 %32, 1
  %34 = sub nsw i32 %33, 1
  store i32 %34, ptr %20, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %21) #2
  store i32 0, ptr %21, align 4
  call void @llvm.lifetime.end.p0(i64 4, ptr %21) #2
  %35 = load i32, ptr %19, align 4
  %36 = icmp slt i32 0, %35
  br i1 %36, label %37, label %96

37:                                               ; preds = %8
  call void @llvm.lifetime.start.p0(i64 4, ptr %22) #2
  store i32 0, ptr %22, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %23) #2
  %38 = load i32, ptr %20, align 4
  store i32 %38, ptr %23, align 4
  %39 = load i64, ptr %11, align 8
  %40 = trunc i64 %39 to i32
  %41 = load i64, ptr %12, align 8
  %42 = trunc i64 %41 to i32
  store i32 %40, ptr %22, align 4
  store i32 %42, ptr %23, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %24) #2
  store i32 1, ptr %24, align 4
  call void @llvm.lifetime.start.p0(i64 4, ptr %25) #2
  store i32 0, ptr %25, align 4
  call void @llvm.lifetime.start.p0(i64 8, ptr %26) #2
  store double 0.000000e+00, ptr %26, align 8
  call void @llvm.lifetime.start.p0(i64 4, ptr %27) #2
  %43 = load ptr, ptr %9, align 8
  %44 = load i32, ptr %43, align 4
  call void @__kmpc_for_static_init_4(ptr @2, i32 %44, i32 34, ptr %25, ptr %22, ptr %23, ptr %24, i32 1, i32 1)
  %45 = load i32, ptr %23, align 4
  %46 = load i32, ptr %20, align 4
  %47 = icmp sgt i32 %45, %46
  br i1 %47, label %48, label %50

48:                                               ; preds = %37
  %49 = load i32, ptr %20, align 4
  br label %52

50:                                               ; preds = %37
  %51 = load i32, ptr %23, align 4
  br label %52

52:                                               ; preds = %50, %48
  %53 = phi i32 [ %49, %48 ], [ %51, %50 ]
  store i32 %53, ptr %23, align 4
  %54 = load i32, ptr %22, align 4
  store i32 %54, ptr %17, align 4
  br label %55

55:                                               ; preds = %77, %52
  %56 = load i32, ptr %17, align 4
  %57 = load i32, ptr %23, align 4
  %58 = icmp sle i32 %56, %57
  br i1 %58, label %60, label %59

59:                                               ; preds = %55
  br label %80

60:                                               ; preds = %55
  %61 = load i32, ptr %17, align 4
  %62 = mul nsw i32 %61, 1
  %63 = add nsw i32 0, %62
  store i32 %63, ptr %27, align 4
  %64 = load ptr, ptr %15, align 8
  %65 = load i32, ptr %27, align 4
  %66 = sext i32 %65 to i64
  %67 = getelementptr inbounds double, ptr %64, i64 %66
  %68 = load double, ptr %67, align 8
  %69 = load ptr, ptr %16, align 8
  %70 = load i32, ptr %27, align 4
  %71 = sext i32 %70 to i64
  %72 = getelementptr inbounds double, ptr %69, i64 %71
  %73 = load double, ptr %72, align 8
  %74 = load double, ptr %26, align 8
  %75 = call double @llvm.fmuladd.f64(double %68, double %73, double %74)
  store double %75, ptr %26, align 8
  br label %76

76:                                               ; preds = %60
  br label %77

77:                                               ; preds = %76
  %78 = load i32, ptr %17, align 4
  %79 = add nsw i32 %78, 1
  store i32 %79, ptr %17, align 4
  br label %55

80:                                               ; preds = %59
  br label %81

81:                                               ; preds = %80
  %82 = load ptr, ptr %9, align 8
  %83 = load i32, ptr %82, align 4
  call void @__kmpc_for_static_fini(ptr @4, i32 %83)
  %84 = getelementptr inbounds [1 x ptr], ptr %28, i64 0, i64 0
  store ptr %26, ptr %84, align 8
  %85 = load ptr, ptr %9, align 8
  %86 = load i32, ptr %85, align 4
  %87 = call i32 @__kmpc_reduce_nowait(ptr @5, i32 %86, i32 1, i64 8, ptr %28, ptr @__omp_offloading_fe00_98e331_dot_l3.omp_outlined.omp_outlined.omp.reduction.reduction_func, ptr @.gomp_critical_user_.reduction.var)
  switch i32 %87, label %95 [
    i32 1, label %88
    i32 2, label %92
  ]

88:                                               ; preds = %81
  %89 = load double, ptr %29, align 8
  %90 = load double, ptr %26, align 8
  %91 = fadd double %89, %90
  store double %91, ptr %29, align 8
  call void @__kmpc_end_reduce_nowait(ptr @5, i32 %86, ptr @.gomp_critical_user_.reduction.var)
  br label %95

92:                                               ; preds = %81
  %93 = load double, ptr %26, align 8
  %94 = atomicrmw fadd ptr %29, double %93 monotonic, align 8
  br label %95

95:                                               ; preds = %92, %88, %81
  call void @llvm.lifetime.end.p0(i64 4, ptr %27) #2
  call void @llvm.lifetime.end.p0(i64 8, ptr %26) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %25) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %24) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %23) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %22) #2
  br label %96

96:                                               ; preds = %95, %8
  call void @llvm.lifetime.end.p0(i64 4, ptr %20) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %19) #2
  call void @llvm.lifetime.end.p0(i64 4, ptr %17) #2
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #3

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) #2

; Function Attrs: norecurse nounwind uwtable
define internal void @__omp_offloading_fe00_98e331_dot_l3.omp_outlined.omp_outlined.omp.reduction.reduction_func(ptr noundef %0, ptr noundef %1) #4 {
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
  %11 = load double, ptr %10, align 8
  %12 = load double, ptr %8, align 8
  %13 = fadd double %11, %12
  store double %13, ptr %10, align 8
  ret void
}

; Function Attrs: convergent nounwind
declare i32 @__kmpc_reduce_nowait(ptr, i32, i32, i64, ptr, ptr, ptr) #5

; Function Attrs: convergent nounwind
declare void @__kmpc_end_reduce_nowait(ptr, i32, ptr) #5

; Function Attrs: nounwind
declare void @__kmpc_fork_call(ptr, i32, ptr, ...) #2

; Function Attrs: norecurse nounwind uwtable
define internal void @__omp_offloading_fe00_98e331_dot_l3.omp_outlined.omp.reduction.reduction_func(ptr noundef %0, ptr noundef %1) #4 {
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
  %11 = load double, ptr %10, align 8
  %12 = load double, ptr %8, align 8
  %13 = fadd double %11, %12
  store double %13, ptr %10, align 8
  ret void
}

; Function Attrs: nounwind
declare void @__kmpc_fork_teams(ptr, i32, ptr, ...) #2

attributes #0 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #1 = { alwaysinline norecurse nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" }
attributes #2 = { nounwind }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { norecurse nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" }
attributes #5 = { convergent nounwind }



; Every definition is renamed __ptxemu.<name> so that the lowered module links into the host
; module of the same translation unit, which has its own @helper, @tab and kernel-named host
; fallback: functions become internal; globals with external linkage (declare target) stay
; exported, hidden and writable; declarations of globals defined by other translation units
; are renamed the same way. Library functions (libm, printf) and libc globals keep their names.
; RUN: ptxcc-opt --passes=simt-lowering %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-DAG: @__ptxemu.tab = hidden global [2 x double] [double 1.000000e+00, double 2.000000e+00], align 8
; CHECK-DAG: @__ptxemu.ro = hidden global i32 3, align 4
; CHECK-DAG: @__ptxemu.lut = internal constant [2 x i32] [i32 1, i32 2], align 4
; CHECK-DAG: @__ptxemu..str = private unnamed_addr constant [3 x i8] c"%d\00", align 1
; CHECK-DAG: @__ptxemu.ext = external hidden global i32, align 4
; CHECK-DAG: @stderr = external global ptr, align 8
@tab = global [2 x double] [double 1.0, double 2.0], align 8
@ro = constant i32 3, align 4
@lut = internal constant [2 x i32] [i32 1, i32 2], align 4
@.str = private unnamed_addr constant [3 x i8] c"%d\00", align 1
@ext = external global i32, align 4
@stderr = external global ptr, align 8

; CHECK-LABEL: define internal double @__ptxemu.helper(double %x)
; CHECK-NEXT:    %s = call double @sin(double %x)
; CHECK-NEXT:    %p = call double @pow(double %s, double 2.000000e+00)
define double @helper(double %x) {
  %s = call double @sin(double %x)
  %p = call double @pow(double %s, double 2.0)
  ret double %p
}

; CHECK-LABEL: define internal i32 @__ptxemu.inl()
define linkonce_odr i32 @inl() {
  ret i32 1
}

; CHECK-LABEL: define internal void @__ptxemu.__omp_offloading_fe00_1_f_l3(ptr %out)
; CHECK-NEXT:    %h = call double @__ptxemu.helper(double 1.000000e+00)
; CHECK-NEXT:    %t = load double, ptr @__ptxemu.tab, align 8
; CHECK-NEXT:    %e = load i32, ptr @__ptxemu.ext, align 4
; CHECK-NEXT:    %i = call i32 @__ptxemu.inl()
; CHECK-NEXT:    %f = load ptr, ptr @stderr, align 8
; CHECK-NEXT:    %n = call i32 (ptr, ...) @printf(ptr @__ptxemu..str, i32 %e)
define void @__omp_offloading_fe00_1_f_l3(ptr %out) {
  %h = call double @helper(double 1.0)
  %t = load double, ptr @tab, align 8
  %e = load i32, ptr @ext, align 4
  %i = call i32 @inl()
  %f = load ptr, ptr @stderr, align 8
  %n = call i32 (ptr, ...) @printf(ptr @.str, i32 %e)
  store double %h, ptr %out, align 8
  ret void
}

; CHECK: declare double @sin(double)
; CHECK: declare double @pow(double, double)
; CHECK: declare i32 @printf(ptr, ...)
; CHECK-LABEL: define hidden void @__ptxemu_entry.__omp_offloading_fe00_1_f_l3(ptr noundef %args)
; CHECK-NOT: define {{.*}}@helper
; CHECK-NOT: define {{.*}}@__omp_offloading
declare double @sin(double)
declare double @pow(double, double)
declare i32 @printf(ptr, ...)

!nvvm.annotations = !{!0}
!0 = !{ptr @__omp_offloading_fe00_1_f_l3, !"kernel", i32 1}

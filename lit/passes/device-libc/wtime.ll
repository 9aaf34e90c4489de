; omp_get_wtime() in device code reads the GPU's nanosecond timer, in seconds; omp_get_wtick()
; is that unit.
; RUN: ptxcc-opt --passes=device-libc %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define double @k()
; CHECK-NEXT: %ptxcc.ns = call i64 @llvm.nvvm.read.ptx.sreg.globaltimer()
; CHECK-NEXT: %[[F:[0-9]+]] = uitofp i64 %ptxcc.ns to double
; CHECK-NEXT: %ptxcc.wtime = fmul double %[[F]], 1.000000e-09
; CHECK-NEXT: %s = fadd double %ptxcc.wtime, 1.000000e-09
; CHECK-NOT: @omp_get_wt
define double @k() {
  %t = call double @omp_get_wtime()
  %u = call double @omp_get_wtick()
  %s = fadd double %t, %u
  ret double %s
}
declare double @omp_get_wtime()
declare double @omp_get_wtick()

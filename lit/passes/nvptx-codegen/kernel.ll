; The NVPTX back end turns an annotated kernel into a PTX .entry for the chosen architecture.
; RUN: ptxcc-opt --passes=optimize,nvptx-codegen %s | FileCheck %s --check-prefix=SM90
; RUN: ptxcc-opt --passes=optimize,nvptx-codegen --arch=sm_80 %s | FileCheck %s --check-prefix=SM80
; RUN: not ptxcc-opt --passes=nvptx-codegen --arch=sm_20 %s 2>&1 | FileCheck %s --check-prefix=OLD
; RUN: not ptxcc-opt --passes=nvptx-codegen --arch=gfx90a %s 2>&1 | FileCheck %s --check-prefix=BAD
; SM90: .version {{[0-9]+\.[0-9]+}}
; SM90: .target sm_90
; SM90: .address_size 64
; SM90: .visible .entry k(
; SM90: mov.u32 {{.*}}%tid.x
; SM90-NOT: call
; SM90: ret;
; SM80: .target sm_80
; OLD: ptxcc-opt: error: offload architecture 'sm_20' is too old: NVPTX supports sm_35 and newer
; BAD: ptxcc-opt: error: invalid offload architecture 'gfx90a' (expected sm_NN, e.g. sm_90)
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr %p) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %e = zext i32 %t to i64
  %a = getelementptr float, ptr %p, i64 %e
  store float 1.0, ptr %a
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

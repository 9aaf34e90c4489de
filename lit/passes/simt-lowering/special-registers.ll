; Special registers become __ptxemu_sreg(<enum ptxemu_sreg>) with the range the GPU guarantees,
; declared memory(none) so that LLVM can hoist and CSE the reads; lane masks are computed from
; the lane id and clocks read the host's cycle counter.
; RUN: ptxcc-opt --passes=simt-lowering %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define internal void @__ptxemu.k(ptr %out)
; CHECK-NEXT:    %tx = call i32 @__ptxemu_sreg(i32 0), !range [[TID:![0-9]+]]
; CHECK-NEXT:    %ty = call i32 @__ptxemu_sreg(i32 1), !range [[TID]]
; CHECK-NEXT:    %tz = call i32 @__ptxemu_sreg(i32 2), !range [[TIDZ:![0-9]+]]
; CHECK-NEXT:    %nx = call i32 @__ptxemu_sreg(i32 3), !range [[NTID:![0-9]+]]
; CHECK-NEXT:    %ny = call i32 @__ptxemu_sreg(i32 4), !range [[NTID]]
; CHECK-NEXT:    %nz = call i32 @__ptxemu_sreg(i32 5), !range [[NTIDZ:![0-9]+]]
; CHECK-NEXT:    %bx = call i32 @__ptxemu_sreg(i32 6), !range [[CTAIDX:![0-9]+]]
; CHECK-NEXT:    %by = call i32 @__ptxemu_sreg(i32 7), !range [[CTAIDY:![0-9]+]]
; CHECK-NEXT:    %bz = call i32 @__ptxemu_sreg(i32 8), !range [[CTAIDY]]
; CHECK-NEXT:    %gx = call i32 @__ptxemu_sreg(i32 9), !range [[NCTAIDX:![0-9]+]]
; CHECK-NEXT:    %gy = call i32 @__ptxemu_sreg(i32 10), !range [[NCTAIDY:![0-9]+]]
; CHECK-NEXT:    %gz = call i32 @__ptxemu_sreg(i32 11), !range [[NCTAIDY]]
; CHECK-NEXT:    %lane = call i32 @__ptxemu_sreg(i32 12), !range [[LANE:![0-9]+]]
; CHECK-NEXT:    %ws = call i32 @__ptxemu_sreg(i32 13), !range [[WS:![0-9]+]]
; CHECK-NEXT:    %laneid = call i32 @__ptxemu_sreg(i32 12), !range [[LANE]]
; CHECK-NEXT:    %lanemask = shl i32 1, %laneid
; CHECK-NEXT:    %lt = sub i32 %lanemask, 1
; CHECK:         %clk = call i64 @llvm.readcyclecounter()
; CHECK-NOT:     llvm.nvvm
; CHECK:         ret void
define void @k(ptr %out) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %tz = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ny = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %nz = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %bz = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %gy = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
  %gz = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %ws = call i32 @llvm.nvvm.read.ptx.sreg.warpsize()
  %lt = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  %clk = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  %s1 = add i32 %tx, %ty
  %s2 = add i32 %s1, %tz
  %s3 = add i32 %s2, %nx
  %s4 = add i32 %s3, %ny
  %s5 = add i32 %s4, %nz
  %s6 = add i32 %s5, %bx
  %s7 = add i32 %s6, %by
  %s8 = add i32 %s7, %bz
  %s9 = add i32 %s8, %gx
  %s10 = add i32 %s9, %gy
  %s11 = add i32 %s10, %gz
  %s12 = add i32 %s11, %lane
  %s13 = add i32 %s12, %ws
  %s14 = add i32 %s13, %lt
  %c32 = trunc i64 %clk to i32
  %s15 = add i32 %s14, %c32
  store i32 %s15, ptr %out, align 4
  ret void
}

; CHECK: declare noundef i32 @__ptxemu_sreg(i32) [[SREG:#[0-9]+]]
; CHECK: attributes [[SREG]] = { nosync nounwind speculatable willreturn memory(none) }
; CHECK-DAG: [[TID]] = !{i32 0, i32 1024}
; CHECK-DAG: [[TIDZ]] = !{i32 0, i32 64}
; CHECK-DAG: [[NTID]] = !{i32 1, i32 1025}
; CHECK-DAG: [[NTIDZ]] = !{i32 1, i32 65}
; CHECK-DAG: [[CTAIDX]] = !{i32 0, i32 2147483647}
; CHECK-DAG: [[CTAIDY]] = !{i32 0, i32 65535}
; CHECK-DAG: [[NCTAIDX]] = !{i32 1, i32 -2147483648}
; CHECK-DAG: [[NCTAIDY]] = !{i32 1, i32 65536}
; CHECK-DAG: [[LANE]] = !{i32 0, i32 32}
; CHECK-DAG: [[WS]] = !{i32 32, i32 33}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.warpsize()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
declare i64 @llvm.nvvm.read.ptx.sreg.clock64()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

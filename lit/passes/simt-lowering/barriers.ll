; Block barriers (every spelling, inline "bar.sync 0" included) become convergent calls of
; __ptxemu_barrier, __syncwarp becomes __ptxemu_warp_sync, membar a system-scope fence, and
; llvm.trap the runtime's noreturn __ptxemu_trap. __syncthreads_count counts through a hidden
; shared word between barriers. GPU sync scopes on atomics become system scope.
; RUN: ptxcc-opt --passes=simt-lowering %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define internal void @__ptxemu.k(ptr %out, i32 %x)
; CHECK-NEXT:    %ptxemu.shared = call ptr @__ptxemu_shared_base()
; CHECK-NEXT:    %__ptxemu.barrier_reduce = getelementptr inbounds i8, ptr %ptxemu.shared, i64 0
; CHECK-NEXT:    call void @__ptxemu_barrier() [[CONV:#[0-9]+]]
; CHECK-NEXT:    call void @__ptxemu_barrier() [[CONV]]
; CHECK-NEXT:    call void @__ptxemu_barrier() [[CONV]]
; CHECK-NEXT:    call void @__ptxemu_barrier() [[CONV]]
; CHECK-NEXT:    call void @__ptxemu_warp_sync(i32 -1) [[CONV]]
; CHECK-NEXT:    fence seq_cst
; CHECK-NEXT:    fence seq_cst
; CHECK-NEXT:    atomicrmw add ptr %out, i32 1 monotonic, align 4
; CHECK-NEXT:    call void @__ptxemu_barrier() [[CONV]]
; CHECK-NEXT:    store atomic i32 0, ptr %__ptxemu.barrier_reduce monotonic, align 4
; CHECK-NEXT:    call void @__ptxemu_barrier() [[CONV]]
; CHECK-NEXT:    %reduce.p = icmp ne i32 %x, 0
; CHECK-NEXT:    %reduce.p32 = zext i1 %reduce.p to i32
; CHECK-NEXT:    atomicrmw add ptr %__ptxemu.barrier_reduce, i32 %reduce.p32 monotonic, align 4
; CHECK-NEXT:    call void @__ptxemu_barrier() [[CONV]]
; CHECK-NEXT:    %count = load atomic i32, ptr %__ptxemu.barrier_reduce monotonic, align 4
; CHECK-NEXT:    store i32 %count, ptr %out, align 4
; CHECK-NEXT:    call void asm sideeffect "", "~{memory}"()
; CHECK-NEXT:    call void @__ptxemu_trap()
; CHECK-NEXT:    unreachable
define void @k(ptr %out, i32 %x) {
  call void @llvm.nvvm.barrier0()
  call void @llvm.nvvm.barrier.sync(i32 0)
  call void @llvm.nvvm.bar.sync(i32 0)
  call void asm sideeffect "bar.sync 0;", ""()
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  call void @llvm.nvvm.membar.gl()
  call void asm sideeffect "membar.cta;", "~{memory}"()
  %old = atomicrmw add ptr %out, i32 1 syncscope("device") monotonic, align 4
  %count = call i32 @llvm.nvvm.barrier0.popc(i32 %x)
  store i32 %count, ptr %out, align 4
  call void asm sideeffect "", "~{memory}"()
  call void @llvm.trap()
  unreachable
}

; CHECK: declare void @__ptxemu_barrier() [[BAR:#[0-9]+]]
; CHECK: declare void @__ptxemu_warp_sync(i32) [[BAR]]
; CHECK: declare void @__ptxemu_trap() [[TRAP:#[0-9]+]]
; CHECK-NOT: llvm.nvvm
; CHECK-DAG: attributes [[CONV]] = { convergent }
; CHECK-DAG: attributes [[BAR]] = { convergent nounwind }
; CHECK-DAG: attributes [[TRAP]] = { cold noreturn nounwind }

declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.barrier.sync(i32)
declare void @llvm.nvvm.bar.sync(i32)
declare void @llvm.nvvm.bar.warp.sync(i32)
declare void @llvm.nvvm.membar.gl()
declare i32 @llvm.nvvm.barrier0.popc(i32)
declare void @llvm.trap()

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

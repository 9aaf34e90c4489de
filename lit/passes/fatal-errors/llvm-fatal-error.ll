; An LLVM fatal error (here NVPTX's "Cannot select" on a fence the atomic-orderings pass did not
; see) is ptxcc's internal error with the stage that ran, status 70 — not an abort and a core dump.
; RUN: not ptxcc-opt --passes=nvptx-codegen %s 2>&1 | FileCheck %s
; RUN: %python %S/../../driver/Inputs/expect-status.py 70 -- ptxcc-opt --passes=nvptx-codegen %s
; CHECK: ptxcc: internal error in nvptx-codegen: Cannot select: {{.*}}AtomicFence
; CHECK: ptxcc: note: please report this
target triple = "nvptx64-nvidia-cuda"

define void @f() {
  fence acquire
  ret void
}

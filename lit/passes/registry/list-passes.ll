; ptxcc-opt lists the passes of the registry (passes/src/registry.rs), the one list the
; pipeline runs from too, and refuses a name that is not in it.
; RUN: ptxcc-opt --list-passes | FileCheck %s
; CHECK: {{^}}device-extraction 
; CHECK-NEXT: {{^}}declare-target-link 
; CHECK-NEXT: {{^}}tasks 
; CHECK-NEXT: {{^}}kernel-formation 
; CHECK-NEXT: {{^}}reductions 
; CHECK-NEXT: {{^}}allocators 
; CHECK-NEXT: {{^}}device-builtins 
; CHECK-NEXT: {{^}}complex-math 
; CHECK-NEXT: {{^}}atomic-orderings 
; CHECK-NEXT: {{^}}drop-loop-hints 
; CHECK-NEXT: {{^}}split-range 
; CHECK-NEXT: {{^}}access-ranges 
; CHECK-NEXT: {{^}}loop-mapping 
; CHECK-NEXT: {{^}}device-check 
; CHECK-NEXT: {{^}}layout-auto 
; CHECK-NEXT: {{^}}layout-plan 
; CHECK-NEXT: {{^}}restrict-params 
; CHECK-NEXT: {{^}}layout 
; CHECK-NEXT: {{^}}device 
; CHECK-NEXT: {{^}}device-libc 
; CHECK-NEXT: {{^}}math-library 
; CHECK-NEXT: {{^}}optimize 
; CHECK-NEXT: {{^}}nvptx-codegen 
; CHECK-NEXT: {{^}}simt-lowering 
; CHECK-NEXT: {{^}}host-part 
; CHECK-NEXT: {{^}}host-registration 
; CHECK-NEXT: {{^}}offload 
; RUN: not ptxcc-opt --passes=no-such-pass %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
; UNKNOWN: ptxcc-opt: error: unknown pass 'no-such-pass' (known: device-extraction, declare-target-link, tasks, kernel-formation,
target triple = "nvptx64-nvidia-cuda"

define void @f() {
  ret void
}

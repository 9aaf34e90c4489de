; A module without offload entries has no device module.
; RUN: not ptxcc-opt --passes=device-extraction %s 2>&1 | FileCheck %s
; CHECK: ptxcc-opt: error: the input has no offload entries
target triple = "x86_64-pc-linux-gnu"
define i32 @main() {
  ret i32 0
}

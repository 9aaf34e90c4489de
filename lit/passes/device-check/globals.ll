; A writable internal global the device code uses must be 'declare target' (extraction keeps those
; external), except a function's static local (clang names it function.variable[.N]; no C
; identifier has a dot): that one is implicitly 'declare target', with a device copy of its own.
; RUN: not ptxcc-opt --passes=device-check %s 2>&1 | FileCheck %s
; CHECK: error: variable 'plain' is used on the device (in 'f') but is not 'declare target'
; CHECK-NOT: counter.calls
; CHECK-NOT: f.v.1
; CHECK-NOT: main.inreg
; CHECK-NOT: error:
target triple = "nvptx64-nvidia-cuda"
@plain = internal global i32 0
@counter.calls = internal global i32 0
@f.v.1 = internal global i32 2
@main.inreg = internal global i32 5
@declared = global i32 0
define void @f() {
  %a = load i32, ptr @plain
  %b = load i32, ptr @counter.calls
  %c = add i32 %a, %b
  store i32 %c, ptr @counter.calls
  store i32 %c, ptr @f.v.1
  store i32 %c, ptr @main.inreg
  store i32 %c, ptr @declared
  ret void
}

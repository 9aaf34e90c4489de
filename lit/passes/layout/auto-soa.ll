; -fptxcc-layout=auto, device side, arrays of structs: a one-dimensional array whose accesses
; select struct fields is seen as the grid [n][fields]. Lanes that move along the struct
; index (a[iv].x: the worksharing counter) touch one field 24 bytes apart, so 'a' becomes one
; array per field (soa: a[3][64]) and its accesses are rewritten to field * 64 + index. 'q'
; (a double and a float) stays: its fields differ in size; 'r' stays: every lane reads the
; same struct (r[0].y); 's' stays: it is copied as whole structs (a 24-byte load); 't'
; stays: an element's address escapes to a function the pass cannot see into.
; RUN: ptxcc-opt --passes=layout %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.P = type { double, double, double }
%struct.Q = type { double, float }

define void @kernel(ptr %a, ptr %q, ptr %r, ptr %s, ptr %t) #0 {
entry:
  %iv = alloca i32
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tid, ptr %iv
  br label %loop

loop:
  %n = load i32, ptr %iv
  %i = sext i32 %n to i64
  %ax = getelementptr inbounds [64 x %struct.P], ptr %a, i64 0, i64 %i
  %ax.f = getelementptr inbounds %struct.P, ptr %ax, i32 0, i32 0
; CHECK: %[[X:.*]] = getelementptr inbounds [64 x double], ptr %a, i64 0, i64 %i
; CHECK-NEXT: %x = load double, ptr %[[X]], align 8
  %x = load double, ptr %ax.f, align 8
  %ay = getelementptr inbounds [64 x %struct.P], ptr %a, i64 0, i64 %i
  %ay.f = getelementptr inbounds %struct.P, ptr %ay, i32 0, i32 1
; CHECK: %[[Y:.*]] = getelementptr inbounds [64 x double], ptr %a, i64 1, i64 %i
; CHECK-NEXT: %y = load double, ptr %[[Y]], align 8
  %y = load double, ptr %ay.f, align 8
  %sum = fadd double %x, %y
  %az = getelementptr inbounds [64 x %struct.P], ptr %a, i64 0, i64 %i
  %az.f = getelementptr inbounds %struct.P, ptr %az, i32 0, i32 2
; CHECK: %[[Z:.*]] = getelementptr inbounds [64 x double], ptr %a, i64 2, i64 %i
; CHECK-NEXT: store double %sum, ptr %[[Z]], align 8
  store double %sum, ptr %az.f, align 8
  %qm = getelementptr inbounds [64 x %struct.Q], ptr %q, i64 0, i64 %i
; CHECK: store double %sum, ptr %qm
  store double %sum, ptr %qm, align 8
  %r0 = getelementptr inbounds [64 x %struct.P], ptr %r, i64 0, i64 0
  %r0.y = getelementptr inbounds %struct.P, ptr %r0, i32 0, i32 1
; CHECK: %ry = load double, ptr %r0.y
  %ry = load double, ptr %r0.y, align 8
  %si = getelementptr inbounds [64 x %struct.P], ptr %s, i64 0, i64 %i
; CHECK: %whole = load %struct.P, ptr %si
  %whole = load %struct.P, ptr %si, align 8
  %sj = getelementptr inbounds [64 x %struct.P], ptr %s, i64 0, i64 %i
  %sj.f = getelementptr inbounds %struct.P, ptr %sj, i32 0, i32 1
  store double %ry, ptr %sj.f, align 8
  %ti = getelementptr inbounds [64 x %struct.P], ptr %t, i64 0, i64 %i
  %ti.f = getelementptr inbounds %struct.P, ptr %ti, i32 0, i32 1
; CHECK: call void @use(ptr %ti.f)
  call void @use(ptr %ti.f)
  %next = add i32 %n, 128
  store i32 %next, ptr %iv
  %more = icmp slt i32 %next, 64
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare void @use(ptr)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "ptxcc-layout"="0=a;64;auto;x.c:3:1|1=q;64;auto;x.c:3:1|2=r;64;auto;x.c:3:1|3=s;64;auto;x.c:3:1|4=t;64;auto;x.c:3:1" }

; CHECK-DAG: !{!"x.c:3:1: layout: a[64] (structs) -> one array per field, a[3][64] (3 fields of 8 bytes; coalesced on the struct index: 3 of 3 accesses)"}
; CHECK-DAG: !{!"x.c:3:1: trans: 'a' is a[3][64] on the device; 3 accesses in 1 kernel rewritten"}
; CHECK-DAG: !{!"x.c:3:1: layout: q[64] (structs) stays: fields of different sizes (ptxcc's soa needs one size for every field)"}
; CHECK-DAG: !{!"x.c:3:1: layout: r[64] (structs) stays: in none of its 1 accesses do consecutive threads move along one of its dimensions"}
; CHECK-DAG: !{!"x.c:3:1: layout: s[64] (structs) stays: it is accessed as 24-byte units, not field by field (8-byte fields): whole structs copied, say"}
; CHECK-DAG: !{!"x.c:3:1: layout: t[64] stays: safety cannot be proved ({{.*}}is passed to a function{{.*}})"}

; -fptxcc-layout=auto, device side, arrays of structs mapped as pointer sections: the
; description's extent counts the section's elements of the map size (auto:C). 'p' (auto:24,
; length at run time) holds 24-byte structs: one array per field, p[3][?]; p[i].y is at
; i + 1 * n, n read from the layout's extents global (C's subscripts: no division). 'v' (auto:8) is a
; section of 8-byte elements that the kernel reads as 24-byte structs: it stays. 'c' (a
; constant 2400-byte section, auto:1) holds 100 structs: c[3][100]. 'q' (auto:8*4: a flat
; section of doubles whose length the host proved a multiple of 4) read as q[i*4 + 3]: the
; grid [?][4] as [4][?]; 'r' (auto:8*2) read the same way stays.
; RUN: ptxcc-opt --passes=layout %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.P = type { double, double, double }

@__ptxcc_layout_ext_b46071508b3fe017 = internal global [1 x i64] zeroinitializer, align 8
@__ptxcc_layout_ext_b82b6e69bc2c14a4 = internal global [1 x i64] zeroinitializer, align 8

define void @kernel(ptr %p, ptr %v, ptr %c, ptr %q, ptr %r) #0 {
entry:
  %iv = alloca i32
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tid, ptr %iv
  br label %loop

loop:
  %n = load i32, ptr %iv
  %i = sext i32 %n to i64
  %py = getelementptr inbounds %struct.P, ptr %p, i64 %i, i32 1
; CHECK: %layout.ext = load i64, ptr @__ptxcc_layout_ext_b46071508b3fe017, align 8, !invariant.load
; CHECK-NEXT: %[[I:.*]] = add i64 0, %i
; CHECK-NEXT: %[[OFF:.*]] = add i64 %[[I]], %layout.ext
; CHECK-NEXT: %[[E:.*]] = getelementptr inbounds double, ptr %p, i64 %[[OFF]]
; CHECK-NEXT: %y = load double, ptr %[[E]], align 8
  %y = load double, ptr %py, align 8
  %vz = getelementptr inbounds %struct.P, ptr %v, i64 %i, i32 2
; CHECK: store double %y, ptr %vz
  store double %y, ptr %vz, align 8
  %cx = getelementptr inbounds %struct.P, ptr %c, i64 %i, i32 2
; CHECK: %[[C:.*]] = getelementptr inbounds [100 x double], ptr %c, i64 2, i64 %i
; CHECK-NEXT: store double %y, ptr %[[C]]
  store double %y, ptr %cx, align 8
  %i4 = mul nsw i64 %i, 4
  %i4c = add nsw i64 %i4, 3
  %qe = getelementptr inbounds double, ptr %q, i64 %i4c
; CHECK: %[[QX:.*]] = load i64, ptr @__ptxcc_layout_ext_b82b6e69bc2c14a4, align 8, !invariant.load
; CHECK: %[[QQ:.*]] = udiv i64 %{{.*}}, 4
; CHECK: %[[QR:.*]] = urem i64 %{{.*}}, 4
; CHECK: %[[QM:.*]] = mul i64 %[[QR]], %[[QX]]
; CHECK: store double %y, ptr %layout.elem
  store double %y, ptr %qe, align 8
  %re = getelementptr inbounds double, ptr %r, i64 %i4c
; CHECK: store double %y, ptr %re
  store double %y, ptr %re, align 8
  %next = add i32 %n, 128
  store i32 %next, ptr %iv
  %more = icmp slt i32 %next, 100
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "ptxcc-layout"="0=p;?;auto:24;x.c:5:1|1=v;?;auto:8;x.c:5:1|2=c;2400;auto:1;x.c:5:1|3=q;?;auto:8*4;x.c:5:1|4=r;?;auto:8*2;x.c:5:1" }

; CHECK-DAG: !{!"x.c:5:1: layout: p[?] (structs) -> one array per field, p[3][?] (3 fields of 8 bytes; coalesced on the struct index: 1 of 1 accesses)"}
; CHECK-DAG: !{!"x.c:5:1: trans: 'p' is p[3][?] on the device; 1 access in 1 kernel rewritten"}
; CHECK-DAG: !{!"x.c:5:1: layout: v[?] (structs) stays: its data clause maps a section of 8-byte elements, not of its 24-byte structs"}
; CHECK-DAG: !{!"x.c:5:1: layout: q[?] -> [4][?] (seen as [?][4]: consecutive threads step 4 elements in 1 of 1 accesses)"}
; CHECK-DAG: !{!"x.c:5:1: layout: r[?] stays: consecutive threads step 4 elements, but its length is proved a multiple of 2 only"}
; CHECK-DAG: !{!"x.c:5:1: layout: c[2400] (structs) -> one array per field, c[3][100] (3 fields of 8 bytes; coalesced on the struct index: 1 of 1 accesses)"}

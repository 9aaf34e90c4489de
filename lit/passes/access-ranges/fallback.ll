; access-ranges: what the analysis cannot express falls back to the whole mapped section of
; that argument (correct, not minimal), and the remark says why and where:
;  - squares: a[i*i] (not affine in i); out[i] keeps its range
;  - indirect: out[idx[i]] (the subscript is loaded from memory); idx[i] keeps its range
;  - escapes: a pointer argument handed to a function the kernel does not define
; RUN: ptxcc-opt --multi-device --passes=split-range,access-ranges %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [13 x i8] c";g.c;k;3;1;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 12, ptr @.str }

; CHECK-DAG: @__ptxcc_access_squares = internal constant [{{[0-9]+}} x i64] [i64 2, i64 1, i64 2, i64 1, i64 2, i64 5, i64 8, i64 1, i64 2, i64 8, i64 1, i64 8, i64 1, i64 2199023255552]
; CHECK-DAG: access ranges of kernel 'squares': argument 3: read: whole section (a subscript that is not affine in the loop variables at g.c:7); argument 2: written [8*i, 8*i + 8)
; CHECK-DAG: access ranges of kernel 'indirect': argument 2: read [4*i, 4*i + 4); argument 3: written: whole section (a subscript that is not affine in the loop variables at g.c:9)
; CHECK-DAG: access ranges of kernel 'escapes': argument 2: read and written: whole section (a pointer passed to 'opaque')

define void @squares(i32 %ub0, ptr %out, ptr %a) "ptxcc-threads"="team" {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  %u0 = load i32, ptr %ub
  br label %cond
cond:
  %i = phi i32 [ %l0, %entry ], [ %next, %body ]
  %in = icmp sle i32 %i, %u0
  br i1 %in, label %body, label %exit
body:
  %i64 = sext i32 %i to i64
  %sq = mul nsw i32 %i, %i
  %sq64 = sext i32 %sq to i64
  %p = getelementptr inbounds double, ptr %a, i64 %sq64, !dbg !20
  %x = load double, ptr %p, !dbg !20
  %q = getelementptr inbounds double, ptr %out, i64 %i64
  store double %x, ptr %q
  %next = add nsw i32 %i, 1
  br label %cond
exit:
  ret void
}

define void @indirect(i32 %ub0, ptr %idx, ptr %out) "ptxcc-threads"="team" {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  %u0 = load i32, ptr %ub
  br label %cond
cond:
  %i = phi i32 [ %l0, %entry ], [ %next, %body ]
  %in = icmp sle i32 %i, %u0
  br i1 %in, label %body, label %exit
body:
  %i64 = sext i32 %i to i64
  %pi = getelementptr inbounds i32, ptr %idx, i64 %i64
  %k = load i32, ptr %pi
  %k64 = sext i32 %k to i64
  %q = getelementptr inbounds double, ptr %out, i64 %k64, !dbg !21
  store double 1.0, ptr %q, !dbg !21
  %next = add nsw i32 %i, 1
  br label %cond
exit:
  ret void
}

define void @escapes(i32 %ub0, ptr %a) "ptxcc-threads"="team" {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  store i32 0, ptr %lb
  store i32 %ub0, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  %u0 = load i32, ptr %ub
  br label %cond
cond:
  %i = phi i32 [ %l0, %entry ], [ %next, %body ]
  %in = icmp sle i32 %i, %u0
  br i1 %in, label %body, label %exit
body:
  %i64 = sext i32 %i to i64
  call void @opaque(ptr %a)
  %next = add nsw i32 %i, 1
  br label %cond
exit:
  ret void
}

declare void @opaque(ptr)
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)

!llvm.module.flags = !{!30}
!llvm.dbg.cu = !{!31}
!nvvm.annotations = !{!0, !1, !2}
!ptxcc.kernels = !{!3, !4, !5}
!0 = !{ptr @squares, !"kernel", i32 1}
!1 = !{ptr @indirect, !"kernel", i32 1}
!2 = !{ptr @escapes, !"kernel", i32 1}
!3 = !{!"squares", i32 0, !""}
!4 = !{!"indirect", i32 0, !""}
!5 = !{!"escapes", i32 0, !""}
!30 = !{i32 2, !"Debug Info Version", i32 3}
!31 = distinct !DICompileUnit(language: DW_LANG_C11, file: !32, emissionKind: LineTablesOnly)
!32 = !DIFile(filename: "g.c", directory: "/")
!33 = distinct !DISubprogram(name: "k", scope: !32, file: !32, line: 1, unit: !31, spFlags: DISPFlagDefinition)
!20 = !DILocation(line: 7, column: 5, scope: !33)
!21 = !DILocation(line: 9, column: 5, scope: !33)

; What the rewrite cannot follow is a located error naming the array, never a wrong address.
; RUN: not ptxcc-opt --passes=layout %s 2>&1 | FileCheck %s
; CHECK-DAG: l.c:10:3: error: the address of 'a' (laid out by the trans at l.c:3:9) is merged with other pointers (a phi or a select)
; CHECK-DAG: l.c:11:3: error: the address of 'a' (laid out by the trans at l.c:3:9) is passed to 'ext', which ptxcc cannot see into
; CHECK-DAG: l.c:12:3: error: the address of 'a' (laid out by the trans at l.c:3:9) (an element's address) is stored to memory
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @ext(ptr)

define void @kernel(ptr %a, ptr %other, i1 %c, ptr %out) #0 {
  %s = select i1 %c, ptr %a, ptr %other, !dbg !10
  call void @ext(ptr %a), !dbg !11
  %e = getelementptr inbounds double, ptr %a, i64 3
  store ptr %e, ptr %out, !dbg !12
  ret void
}

attributes #0 = { "ptxcc-layout"="0=a;8,6,5;1,3,2;l.c:3:9" }

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_C11, file: !2, emissionKind: LineTablesOnly)
!2 = !DIFile(filename: "l.c", directory: "/")
!3 = distinct !DISubprogram(name: "kernel", scope: !2, file: !2, line: 1, unit: !1, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 10, column: 3, scope: !3)
!11 = !DILocation(line: 11, column: 3, scope: !3)
!12 = !DILocation(line: 12, column: 3, scope: !3)

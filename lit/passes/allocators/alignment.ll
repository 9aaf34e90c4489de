; An alignment the device heap does not guarantee (more than 16, or not a constant) is an error
; at the call.
; RUN: not ptxcc-opt --passes=allocators %s 2>&1 | FileCheck %s
; CHECK: a.c:4:7: error: ptxcc does not support an alignment other than a constant power of two up to 16 for allocations in target regions (the device heap's alignment)
target triple = "nvptx64-nvidia-cuda"
define void @k(i64 %n) {
  %d = call ptr @omp_aligned_alloc(i64 64, i64 %n, i64 1), !dbg !5
  ret void
}
declare ptr @omp_aligned_alloc(i64, i64, i64)
!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_C11, file: !2, emissionKind: LineTablesOnly)
!2 = !DIFile(filename: "a.c", directory: "/tmp")
!3 = distinct !DISubprogram(name: "k", scope: !2, file: !2, line: 1, unit: !1, spFlags: DISPFlagDefinition)
!5 = !DILocation(line: 4, column: 7, scope: !3)

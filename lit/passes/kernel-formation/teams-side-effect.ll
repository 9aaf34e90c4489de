; Code between 'teams' and 'parallel' runs in every thread in SPMD mode, so a call with unknown
; effects there would happen once per thread: ptxcc refuses it with the source line.
; RUN: not ptxcc-opt --passes=kernel-formation %s 2>&1 | FileCheck %s
; CHECK-NOT: t.c:5:3
; CHECK: t.c:6:3: error: ptxcc does not support a call to 'side_effect' between 'target teams' and its parallel loop; move it into the loop or use a combined 'target teams distribute parallel for'
target triple = "nvptx64-nvidia-cuda"

define void @__omp_offloading_1_2_f_l4(ptr %p) {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr null, i32 1, ptr @teams, ptr %p)
  ret void
}
define internal void @teams(ptr %g, ptr %b, ptr %p) {
  store i32 1, ptr %p, !dbg !10
  call void @side_effect(), !dbg !11
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr null, i32 1, ptr @par, ptr %p)
  ret void
}
define internal void @par(ptr %g, ptr %b, ptr %p) {
  ret void
}
declare void @side_effect()
declare void @__kmpc_fork_teams(ptr, i32, ptr, ...)
declare void @__kmpc_fork_call(ptr, i32, ptr, ...)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "teams", scope: !1, file: !1, line: 4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 5, column: 3, scope: !3)
!11 = !DILocation(line: 6, column: 3, scope: !3)

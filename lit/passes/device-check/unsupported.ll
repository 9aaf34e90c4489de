; Calls the device cannot make are reported, each with its source line: OpenMP features that are
; not implemented name the feature; unknown external functions say what to do.
; RUN: not ptxcc-opt --passes=device-check %s 2>&1 | FileCheck %s
; CHECK: r.c:7:3: error: ptxcc does not support reduction clauses in target regions yet
; CHECK: r.c:9:5: error: function 'puts' called in a target region is not available on the device; define it in this translation unit
; CHECK: r.c:9:5: error: ptxcc does not support the OpenMP routine 'omp_get_initial_device' in target regions yet; move the call out of the region
; CHECK: r.c:11:1: error: ptxcc does not support schedule(dynamic), schedule(guided), schedule(auto) and schedule(runtime) in target regions yet; use schedule(static) or schedule(static, N)
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [13 x i8] c";r.c;f;7;3;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 20, ptr @.str }
@.str2 = private constant [14 x i8] c";r.c;f;11;1;;\00"
@loc2 = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 20, ptr @.str2 }
@fmt = private constant [3 x i8] c"%d\00"
define void @f(ptr %p) {
  %r = call i32 @__kmpc_reduce_nowait(ptr @loc, i32 0, i32 1, i64 8, ptr %p, ptr null, ptr null)
  %x = call i32 @puts(ptr @fmt), !dbg !10
  %w = call i32 @omp_get_initial_device(), !dbg !10
  call void @__kmpc_dispatch_init_4(ptr @loc2, i32 0, i32 35, i32 0, i32 9, i32 1, i32 1)
  ; math and LLVM intrinsics are fine
  %s = call double @sin(double 1.0)
  %q = call double @llvm.sqrt.f64(double 2.0)
  ret void
}
declare i32 @__kmpc_reduce_nowait(ptr, i32, i32, i64, ptr, ptr, ptr)
declare void @__kmpc_dispatch_init_4(ptr, i32, i32, i32, i32, i32, i32)
declare i32 @puts(ptr)
declare i32 @omp_get_initial_device()
declare double @sin(double)
declare double @llvm.sqrt.f64(double)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "r.c", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 4, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 9, column: 5, scope: !3)

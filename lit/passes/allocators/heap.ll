; The predefined allocators take device heap memory: omp_alloc / __kmpc_alloc (allocate
; directive and clause) → malloc, omp_calloc → a helper that zeroes what malloc gave,
; omp_aligned_alloc with a constant alignment up to 16 → malloc, omp_free / __kmpc_free → free.
; RUN: ptxcc-opt --passes=allocators %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @k(i64 %n)
; CHECK-NEXT: %ptxcc.heap = call ptr @malloc(i64 %n)
; CHECK-NEXT: %ptxcc.heap1 = call ptr @malloc(i64 4)
; CHECK-NEXT: %ptxcc.bytes = mul i64 %n, 8
; CHECK-NEXT: %ptxcc.heap2 = call ptr @__ptxcc_omp_calloc(i64 %ptxcc.bytes)
; CHECK-NEXT: %ptxcc.heap3 = call ptr @malloc(i64 %n)
; CHECK-NEXT: call void @free(ptr %ptxcc.heap)
; CHECK-NEXT: call void @free(ptr %ptxcc.heap1)
; CHECK-NEXT: call void @free(ptr %ptxcc.heap2)
; CHECK-NEXT: call void @free(ptr %ptxcc.heap3)
; CHECK-NEXT: ret void
; CHECK-LABEL: define internal ptr @__ptxcc_omp_calloc(i64 %0)
; CHECK: %p = call ptr @malloc(i64 %0)
; CHECK: call void @llvm.memset.p0.i64(ptr align 16 %p, i8 0, i64 %0, i1 false)
; CHECK-NOT: @omp_alloc
; CHECK-NOT: @__kmpc_alloc
define void @k(i64 %n) {
  %a = call ptr @omp_alloc(i64 %n, i64 1)
  %b = call ptr @__kmpc_alloc(i32 0, i64 4, ptr inttoptr (i64 7 to ptr))
  %c = call ptr @omp_calloc(i64 %n, i64 8, i64 2)
  %d = call ptr @omp_aligned_alloc(i64 16, i64 %n, i64 0)
  call void @omp_free(ptr %a, i64 1)
  call void @__kmpc_free(i32 0, ptr %b, ptr inttoptr (i64 7 to ptr))
  call void @omp_free(ptr %c, i64 2)
  call void @omp_free(ptr %d, i64 0)
  ret void
}
declare ptr @omp_alloc(i64, i64)
declare ptr @__kmpc_alloc(i32, i64, ptr)
declare ptr @omp_calloc(i64, i64, i64)
declare ptr @omp_aligned_alloc(i64, i64, i64)
declare void @omp_free(ptr, i64)
declare void @__kmpc_free(i32, ptr, ptr)

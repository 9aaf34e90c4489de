; Every allocator routine in device code becomes a call of ptxcc's device helpers (alloc.c),
; which take device heap memory: omp_alloc / __kmpc_alloc (allocate directive and clause),
; omp_calloc, omp_aligned_alloc (any power of two), omp_realloc, omp_free / __kmpc_free, and the
; user-defined allocators of omp_init_allocator / uses_allocators (__kmpc_init_allocator).
; Allocator handles pass as i64 whichever way clang gave them.
; RUN: ptxcc-opt --passes=allocators %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define void @k(i64 %n, ptr %t)
; CHECK-NEXT: %[[A:.*]] = call ptr @__ptxcc_omp_alloc(i64 0, i64 %n, i64 1)
; CHECK-NEXT: %[[B:.*]] = call ptr @__ptxcc_omp_alloc(i64 0, i64 4, i64 7)
; CHECK-NEXT: %[[C:.*]] = call ptr @__ptxcc_omp_calloc(i64 0, i64 %n, i64 8, i64 2)
; CHECK-NEXT: %[[D:.*]] = call ptr @__ptxcc_omp_alloc(i64 64, i64 %n, i64 0)
; CHECK-NEXT: %[[U:.*]] = call i64 @__ptxcc_omp_init_allocator(i64 0, i32 2, ptr %t)
; CHECK-NEXT: %[[UP:.*]] = inttoptr i64 %[[U]] to ptr
; CHECK-NEXT: %[[UI:.*]] = ptrtoint ptr %[[UP]] to i64
; CHECK-NEXT: %[[E:.*]] = call ptr @__ptxcc_omp_alloc(i64 0, i64 %n, i64 %[[UI]])
; CHECK-NEXT: %[[F:.*]] = call ptr @__ptxcc_omp_realloc(ptr %[[E]], i64 8, i64 0, i64 0)
; CHECK-NEXT: %[[V:.*]] = call i64 @__ptxcc_omp_init_allocator(i64 0, i32 1, ptr %t)
; CHECK-NEXT: call void @__ptxcc_omp_free(ptr %[[A]])
; CHECK-NEXT: call void @__ptxcc_omp_free(ptr %[[B]])
; CHECK-NEXT: call void @__ptxcc_omp_free(ptr %[[C]])
; CHECK-NEXT: call void @__ptxcc_omp_free(ptr %[[D]])
; CHECK-NEXT: call void @__ptxcc_omp_free(ptr %[[F]])
; CHECK-NEXT: %[[UI2:.*]] = ptrtoint ptr %[[UP]] to i64
; CHECK-NEXT: call void @__ptxcc_omp_destroy_allocator(i64 %[[UI2]])
; CHECK-NEXT: call void @__ptxcc_omp_destroy_allocator(i64 %[[V]])
; CHECK-NEXT: ret void
; CHECK-LABEL: define internal ptr @__ptxcc_omp_alloc(
; CHECK: call ptr @malloc(
; CHECK-LABEL: define internal void @__ptxcc_omp_free(
; CHECK: call void @free(
; CHECK-NOT: @omp_alloc(
; CHECK-NOT: @__kmpc_
define void @k(i64 %n, ptr %t) {
  %a = call ptr @omp_alloc(i64 %n, i64 1)
  %b = call ptr @__kmpc_alloc(i32 0, i64 4, ptr inttoptr (i64 7 to ptr))
  %c = call ptr @omp_calloc(i64 %n, i64 8, i64 2)
  %d = call ptr @omp_aligned_alloc(i64 64, i64 %n, i64 0)
  %u = call ptr @__kmpc_init_allocator(i32 0, ptr null, i32 2, ptr %t)
  %e = call ptr @__kmpc_alloc(i32 0, i64 %n, ptr %u)
  %f = call ptr @omp_realloc(ptr %e, i64 8, i64 0, i64 0)
  %v = call i64 @omp_init_allocator(i64 0, i32 1, ptr %t)
  call void @omp_free(ptr %a, i64 1)
  call void @__kmpc_free(i32 0, ptr %b, ptr inttoptr (i64 7 to ptr))
  call void @omp_free(ptr %c, i64 2)
  call void @omp_free(ptr %d, i64 0)
  call void @omp_free(ptr %f, i64 %v)
  call void @__kmpc_destroy_allocator(i32 0, ptr %u)
  call void @omp_destroy_allocator(i64 %v)
  ret void
}
declare ptr @omp_alloc(i64, i64)
declare ptr @__kmpc_alloc(i32, i64, ptr)
declare ptr @omp_calloc(i64, i64, i64)
declare ptr @omp_aligned_alloc(i64, i64, i64)
declare ptr @omp_realloc(ptr, i64, i64, i64)
declare void @omp_free(ptr, i64)
declare void @__kmpc_free(i32, ptr, ptr)
declare ptr @__kmpc_init_allocator(i32, ptr, i32, ptr)
declare void @__kmpc_destroy_allocator(i32, ptr)
declare i64 @omp_init_allocator(i64, i32, ptr)
declare void @omp_destroy_allocator(i64)

; restrict-params (host IR): a kernel parameter that receives a restrict (noalias) parameter of
; the function around the target region becomes noalias, when every other pointer the kernel
; gets is known to be based on something else.
; @f: p and r, each through its own stack slot: both noalias (n is no pointer).
; @g: the kernel gets p and p + n: both based on p, neither is marked.
; @h: p is not restrict, r is: only r's parameter is marked.
; @i: p's slot escapes (its address is passed on), so its value may change: not marked.
; @j: the other pointer is loaded from memory (it could point into p's array): not marked.
; @k, @l: a kernel that loads a pointer from memory gets no mark (below).
; RUN: ptxcc-opt --passes=restrict-params %s | FileCheck %s
target triple = "x86_64-pc-linux-gnu"

%struct.__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }
@.__omp_offloading_10_20_f_l3.region_id = weak constant i8 0
@.name.__omp_offloading_10_20_f_l3 = internal unnamed_addr constant [28 x i8] c"__omp_offloading_10_20_f_l3\00"
@.offloading.entry.__omp_offloading_10_20_f_l3 = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_10_20_f_l3.region_id, ptr @.name.__omp_offloading_10_20_f_l3, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
@.__omp_offloading_10_20_g_l9.region_id = weak constant i8 0
@.name.__omp_offloading_10_20_g_l9 = internal unnamed_addr constant [28 x i8] c"__omp_offloading_10_20_g_l9\00"
@.offloading.entry.__omp_offloading_10_20_g_l9 = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_10_20_g_l9.region_id, ptr @.name.__omp_offloading_10_20_g_l9, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
@.__omp_offloading_10_20_h_l15.region_id = weak constant i8 0
@.name.__omp_offloading_10_20_h_l15 = internal unnamed_addr constant [29 x i8] c"__omp_offloading_10_20_h_l15\00"
@.offloading.entry.__omp_offloading_10_20_h_l15 = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_10_20_h_l15.region_id, ptr @.name.__omp_offloading_10_20_h_l15, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
@.__omp_offloading_10_20_i_l21.region_id = weak constant i8 0
@.name.__omp_offloading_10_20_i_l21 = internal unnamed_addr constant [29 x i8] c"__omp_offloading_10_20_i_l21\00"
@.offloading.entry.__omp_offloading_10_20_i_l21 = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_10_20_i_l21.region_id, ptr @.name.__omp_offloading_10_20_i_l21, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
@.__omp_offloading_10_20_j_l27.region_id = weak constant i8 0
@.name.__omp_offloading_10_20_j_l27 = internal unnamed_addr constant [29 x i8] c"__omp_offloading_10_20_j_l27\00"
@.offloading.entry.__omp_offloading_10_20_j_l27 = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_10_20_j_l27.region_id, ptr @.name.__omp_offloading_10_20_j_l27, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
@.__omp_offloading_10_20_k_l33.region_id = weak constant i8 0
@.name.__omp_offloading_10_20_k_l33 = internal unnamed_addr constant [29 x i8] c"__omp_offloading_10_20_k_l33\00"
@.offloading.entry.__omp_offloading_10_20_k_l33 = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_10_20_k_l33.region_id, ptr @.name.__omp_offloading_10_20_k_l33, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1
@.__omp_offloading_10_20_l_l39.region_id = weak constant i8 0
@.name.__omp_offloading_10_20_l_l39 = internal unnamed_addr constant [29 x i8] c"__omp_offloading_10_20_l_l39\00"
@.offloading.entry.__omp_offloading_10_20_l_l39 = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_10_20_l_l39.region_id, ptr @.name.__omp_offloading_10_20_l_l39, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1

; CHECK-LABEL: define internal void @__omp_offloading_10_20_f_l3(i64 %n, ptr noalias %p, ptr noalias %r)
define internal void @__omp_offloading_10_20_f_l3(i64 %n, ptr %p, ptr %r) {
  ret void
}
define void @f(i64 %n, ptr noalias %p, ptr noalias %r) {
  %p.addr = alloca ptr
  %r.addr = alloca ptr
  store ptr %p, ptr %p.addr
  store ptr %r, ptr %r.addr
  %v0 = load ptr, ptr %p.addr
  %v1 = load ptr, ptr %r.addr
  call void @__omp_offloading_10_20_f_l3(i64 %n, ptr %v0, ptr %v1)
  ret void
}

; CHECK-LABEL: define internal void @__omp_offloading_10_20_g_l9(ptr %a, ptr %b)
define internal void @__omp_offloading_10_20_g_l9(ptr %a, ptr %b) {
  ret void
}
define void @g(i64 %n, ptr noalias %p) {
  %p.addr = alloca ptr
  store ptr %p, ptr %p.addr
  %v0 = load ptr, ptr %p.addr
  %v1 = load ptr, ptr %p.addr
  %half = getelementptr inbounds double, ptr %v1, i64 %n
  call void @__omp_offloading_10_20_g_l9(ptr %v0, ptr %half)
  ret void
}

; CHECK-LABEL: define internal void @__omp_offloading_10_20_h_l15(ptr %p, ptr noalias %r)
define internal void @__omp_offloading_10_20_h_l15(ptr %p, ptr %r) {
  ret void
}
define void @h(ptr %p, ptr noalias %r) {
  call void @__omp_offloading_10_20_h_l15(ptr %p, ptr %r)
  ret void
}

; CHECK-LABEL: define internal void @__omp_offloading_10_20_i_l21(ptr %p, ptr %q)
define internal void @__omp_offloading_10_20_i_l21(ptr %p, ptr %q) {
  ret void
}
declare void @escape(ptr)
define void @i(ptr noalias %p, ptr noalias %q) {
  %p.addr = alloca ptr
  store ptr %p, ptr %p.addr
  call void @escape(ptr %p.addr)
  %v0 = load ptr, ptr %p.addr
  call void @__omp_offloading_10_20_i_l21(ptr %v0, ptr %q)
  ret void
}

; CHECK-LABEL: define internal void @__omp_offloading_10_20_j_l27(ptr %p, ptr %s)
define internal void @__omp_offloading_10_20_j_l27(ptr %p, ptr %s) {
  ret void
}
define void @j(ptr noalias %p, ptr %holder) {
  %s = load ptr, ptr %holder
  call void @__omp_offloading_10_20_j_l27(ptr %p, ptr %s)
  ret void
}

; @k: the slot holding p is also passed (p captured by reference), and the kernel loads a
; pointer from it: that pointer may be p without being the first parameter. Nothing is marked.
; CHECK-LABEL: define internal void @__omp_offloading_10_20_k_l33(ptr %p, ptr %s)
define internal void @__omp_offloading_10_20_k_l33(ptr %p, ptr %s) {
  %m = load ptr, ptr %s
  store double 1.0, ptr %m
  ret void
}
define void @k(ptr noalias %p) {
  %s = alloca ptr
  store ptr %p, ptr %s
  call void @__omp_offloading_10_20_k_l33(ptr %p, ptr %s)
  ret void
}

; @l: the same kernel shape, but the kernel only spills its parameters to its own slots and
; loads them back (clang's code before optimisation): p is marked.
; CHECK-LABEL: define internal void @__omp_offloading_10_20_l_l39(ptr noalias %p, ptr %d)
define internal void @__omp_offloading_10_20_l_l39(ptr %p, ptr %d) {
  %p.addr = alloca ptr
  store ptr %p, ptr %p.addr
  %v = load ptr, ptr %p.addr
  store double 1.0, ptr %v
  store double 2.0, ptr %d
  ret void
}
define void @l(ptr noalias %p) {
  %d = alloca double
  call void @__omp_offloading_10_20_l_l39(ptr %p, ptr %d)
  ret void
}

; Global (1), constant (4) and local (5) pointers become generic: globals and allocas are
; re-created in address space 0, signatures flattened, and every instruction producing or
; consuming such a pointer rebuilt; the front end's addrspacecasts to generic disappear.
; Intrinsics overloaded on the pointer type switch to their p0 overloads.
; RUN: ptxcc-opt --passes=simt-lowering %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: addrspace
; CHECK: @__ptxemu.g = hidden global [4 x i32] zeroinitializer, align 4
; CHECK: @__ptxemu.c = internal constant i32 42, align 4
@g = addrspace(1) global [4 x i32] zeroinitializer, align 4
@c = internal addrspace(4) constant i32 42, align 4

; CHECK-LABEL: define internal ptr @__ptxemu.pick(ptr %p, i1 %which)
; CHECK-NEXT:    %q = getelementptr inbounds i32, ptr %p, i64 1
; CHECK-NEXT:    %r = select i1 %which, ptr %p, ptr %q
; CHECK-NEXT:    ret ptr %r
define internal ptr addrspace(1) @pick(ptr addrspace(1) %p, i1 %which) {
  %q = getelementptr inbounds i32, ptr addrspace(1) %p, i64 1
  %r = select i1 %which, ptr addrspace(1) %p, ptr addrspace(1) %q
  ret ptr addrspace(1) %r
}

; CHECK-LABEL: define internal void @__ptxemu.k(ptr %out, i1 %w)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %slot = alloca ptr, align 8
; CHECK-NEXT:    store ptr %out, ptr %slot, align 8
; CHECK-NEXT:    %ld = load ptr, ptr %slot, align 8
; CHECK-NEXT:    %p = call ptr @__ptxemu.pick(ptr %ld, i1 %w)
; CHECK:       b:
; CHECK-NEXT:    %phi = phi ptr [ %p, %entry ], [ getelementptr inbounds ([4 x i32], ptr @__ptxemu.g, i64 0, i64 2), %a ]
; CHECK-NEXT:    %cv = load i32, ptr @__ptxemu.c, align 4
; CHECK-NEXT:    store i32 %cv, ptr %phi, align 4
; CHECK-NEXT:    %isnull = icmp eq ptr %phi, null
; CHECK-NEXT:    %int = ptrtoint ptr %phi to i64
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr @__ptxemu.c, i64 4, i1 false)
; CHECK-NEXT:    ret void
define void @k(ptr addrspace(1) %out, i1 %w) {
entry:
  %slot = alloca ptr addrspace(1), align 8, addrspace(5)
  %gen = addrspacecast ptr addrspace(5) %slot to ptr
  store ptr addrspace(1) %out, ptr %gen, align 8
  %ld = load ptr addrspace(1), ptr addrspace(5) %slot, align 8
  %p = call ptr addrspace(1) @pick(ptr addrspace(1) %ld, i1 %w)
  br i1 %w, label %a, label %b
a:
  br label %b
b:
  %phi = phi ptr addrspace(1) [ %p, %entry ], [ getelementptr inbounds ([4 x i32], ptr addrspace(1) @g, i64 0, i64 2), %a ]
  %cv = load i32, ptr addrspace(4) @c, align 4
  store i32 %cv, ptr addrspace(1) %phi, align 4
  %isnull = icmp eq ptr addrspace(1) %phi, null
  %int = ptrtoint ptr addrspace(1) %phi to i64
  call void @llvm.memcpy.p1.p4.i64(ptr addrspace(1) %out, ptr addrspace(4) @c, i64 4, i1 false)
  ret void
}

; The entry wrapper loads the (now generic) pointer like any other parameter.
; CHECK-LABEL: define hidden void @__ptxemu_entry.k(ptr noundef %args)
; CHECK:         %out = load ptr, ptr %out.addr, align 8
; CHECK:         %w = load i1, ptr %w.addr, align 1
; CHECK-NEXT:    call void @__ptxemu.k(ptr %out, i1 %w)
declare void @llvm.memcpy.p1.p4.i64(ptr addrspace(1), ptr addrspace(4), i64, i1)

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

; access-ranges: loop shapes clang writes for unsigned counters and reversed indices.
;  - unsigned: clang tests `iv < ub + 1` (ult), not `iv <= ub`; the bound is still the split
;    loop's upper-bound slot, so iv is the iteration;
;  - `y[n - 1 - i]` is `~i + n` after instcombine: `xor i, -1` is -i - 1 at every width.
; RUN: ptxcc-opt --multi-device --passes=split-range,access-ranges %s | FileCheck %s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%struct.ident_t = type { i32, i32, i32, i32, ptr }
@.str = private constant [13 x i8] c";g.c;k;3;1;;\00"
@loc = private constant %struct.ident_t { i32 0, i32 2, i32 0, i32 12, ptr @.str }

;  - the unsigned `~i + n` is zero-extended: two guards, that it stays in the int range and
;    that it is not negative (n - 1 - i - 2^31 in the int range): 32 bits, 3 terms each.
; CHECK: @__ptxcc_access_unsigned_rev = {{.*}}, i64 2, i64 32, i64 3, i64 -1, i64 0, {{.*}}, i64 32, i64 3, i64 -2147483649, i64 0,
; CHECK: access ranges of kernel 'unsigned_rev': argument 3: read [4*arg1 - 4*i - 4, 4*arg1 - 4*i); argument 2: written [4*i, 4*i + 4); 2 narrow integer values checked at run time

define void @unsigned_rev(i64 %n.arg, ptr %y, ptr %x) "ptxcc-threads"="team" {
entry:
  %lb = alloca i32
  %ub = alloca i32
  %st = alloca i32
  %last = alloca i32
  %n = trunc i64 %n.arg to i32
  %trip = add i32 %n, -1
  store i32 0, ptr %lb
  store i32 %trip, ptr %ub
  store i32 1, ptr %st
  store i32 0, ptr %last
  call void @__kmpc_for_static_init_4u(ptr @loc, i32 0, i32 92, ptr %last, ptr %lb, ptr %ub, ptr %st, i32 1, i32 1)
  %l0 = load i32, ptr %lb
  br label %cond
cond:
  %iv = phi i32 [ %l0, %entry ], [ %ivn, %body ]
  %u = load i32, ptr %ub
  %u1 = add i32 %u, 1
  %in = icmp ult i32 %iv, %u1
  br i1 %in, label %body, label %exit
body:
  %not = xor i32 %iv, -1
  %r = add i32 %not, %n
  %r64 = zext i32 %r to i64
  %p = getelementptr inbounds float, ptr %x, i64 %r64
  %v = load float, ptr %p
  %i64 = zext i32 %iv to i64
  %q = getelementptr inbounds float, ptr %y, i64 %i64
  store float %v, ptr %q
  %ivn = add i32 %iv, 1
  br label %cond
exit:
  ret void
}

declare void @__kmpc_for_static_init_4u(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32)

!nvvm.annotations = !{!0}
!ptxcc.kernels = !{!1}
!0 = !{ptr @unsigned_rev, !"kernel", i32 1}
!1 = !{!"unsigned_rev", i32 0, !""}

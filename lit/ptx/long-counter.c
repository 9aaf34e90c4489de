// A loop over a `long` counts in 32 bits when its trip count fits in an int: the unrolled
// grid-stride loop steps and compares in .s32 (one instruction each in SASS, not two), its
// addresses from one mul.wide.s32 per trip; the 64-bit loop stays for larger trip counts, not
// unrolled.
// RUN: %ptxcc -fopenmp -O2 --emit=ptx %s -o - | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -fptxcc-info -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=INFO
// INFO: long-counter.c:[[@LINE+17]]:1: loop: 'for' iterations → threads of the whole grid, cyclically (start ctaid.x * ntid.x + tid.x, stride nctaid.x * ntid.x): coalesced, unrolled 4x; 64-bit counter: 32-bit copy of the loop when its bounds fit in an int
// CHECK: .entry __omp_offloading_{{.*}}_scale_l[[#@LINE+16]](
// CHECK-NOT: call
// The 32-bit copy: its remainder loop, then the loop unrolled four times.
// CHECK: "nounroll"
// CHECK: "nounroll"
// CHECK-NEXT: mul.wide.s32
// CHECK-COUNT-4: st.global.f64
// CHECK-NEXT: add.s32 [[IV:%r[0-9]+]], {{%r[0-9]+}}, {{%r[0-9]+}};
// CHECK-NEXT: setp.le.s32 [[P:%p[0-9]+]], [[IV]], {{%r[0-9]+}};
// CHECK-NEXT: @[[P]] bra
// The 64-bit loop: one iteration per trip.
// CHECK: "nounroll"
// CHECK: st.global.f64
// CHECK-NEXT: add.s64 [[IV64:%rd[0-9]+]], [[IV64]], {{%rd[0-9]+}};
// CHECK-NEXT: setp.{{..}}.s64
void scale(double *x, long n, double a) {
#pragma omp target teams distribute parallel for map(tofrom : x[0:n])
  for (long i = 0; i < n; i++)
    x[i] *= a;
}

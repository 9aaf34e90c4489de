// A loop over a `long` dealt to a block's threads counts in 32 bits when its trip count fits in
// an int: the unrolled loop steps and compares in .s32 (one instruction each in SASS, not two),
// its addresses from one mul.wide.s32 per trip; the 64-bit loop stays for larger trip counts, not
// unrolled. A grid-stride loop (teams distribute parallel for) runs about one trip per thread:
// it gets neither the unrolling (no division counts its trips) nor the 32-bit copy.
// RUN: %ptxcc -fopenmp -O2 --emit=ptx %s -o - | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -fptxcc-info -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=INFO
// INFO: long-counter.c:[[@LINE+18]]:1: loop: 'for' iterations → threads of a block, cyclically (start tid.x, stride ntid.x): coalesced, unrolled 4x; 64-bit counter: 32-bit copy of the loop when its bounds fit in an int
// INFO: long-counter.c:[[@LINE+37]]:1: loop: 'for' iterations → threads of the whole grid, cyclically (start ctaid.x * ntid.x + tid.x, stride nctaid.x * ntid.x): coalesced, not unrolled (about one iteration per thread){{$}}
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
#pragma omp target parallel for map(tofrom : x[0:n])
  for (long i = 0; i < n; i++)
    x[i] *= a;
}

// The grid-stride loop: one loop, over the 64-bit counter, one store a trip, no division.
// CHECK: .entry __omp_offloading_{{.*}}_grid_l[[#@LINE+14]](
// CHECK-NOT: div
// CHECK-NOT: .s32
// CHECK: "nounroll"
// CHECK-NOT: div
// CHECK: st.global.f64
// CHECK-NEXT: add.s64 [[GIV:%rd[0-9]+]], [[GIV]], {{%rd[0-9]+}};
// CHECK-NEXT: setp.le.s64 [[GP:%p[0-9]+]], [[GIV]], {{%rd[0-9]+}};
// CHECK-NEXT: @[[GP]] bra
// CHECK-NOT: "nounroll"
// CHECK-NOT: st.global
// CHECK-NOT: div
// CHECK: }
void grid(double *x, long n, double a) {
#pragma omp target teams distribute parallel for map(tofrom : x[0:n])
  for (long i = 0; i < n; i++)
    x[i] *= a;
}

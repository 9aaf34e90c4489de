// collapse(3): after the counter's division by J*K became a running quotient, clang divides
// the running remainder by K for the middle index (j = r / K, k = r - j * K); loop mapping makes
// that a running quotient too (running_quotient.rs, `nest`): K before the loop, and where
// the thread takes a second step the step's quotients and J = (J*K) / K, then in the latch the inner remainder steps with its own carry and the inner quotient
// gives back J when the outer remainder wraps. No division is left in the loop.
// RUN: %ptxcc -fopenmp -O2 --emit=host-ir %s -o %t.ll
// RUN: %ptxcc-opt --passes=device-extraction,kernel-formation,loop-mapping %t.ll | FileCheck %s
// CHECK-LABEL: define {{.*}}@__omp_offloading_{{.*}}copy3_l{{[0-9]+}}
// CHECK: %ptxcc.quot.inner = alloca i64
// CHECK: %ptxcc.divisor.inner = select i1 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 1
// CHECK: br i1 %ptxcc.more, label %ptxcc.steps, label %ptxcc.steps.join
// CHECK: ptxcc.steps:
// CHECK-NEXT: %[[SQ:[0-9]+]] = udiv i64 %ptxcc.step0, %ptxcc.divisor
// CHECK-NEXT: %[[SR:[0-9]+]] = urem i64 %ptxcc.step0, %ptxcc.divisor
// CHECK-NEXT: %[[SQI:[0-9]+]] = udiv i64 %[[SR]], %ptxcc.divisor.inner
// CHECK-NEXT: %[[SRI:[0-9]+]] = urem i64 %[[SR]], %ptxcc.divisor.inner
// CHECK-NEXT: %[[E:[0-9]+]] = udiv i64 %ptxcc.divisor, %ptxcc.divisor.inner
// CHECK-NEXT: br label %ptxcc.steps.join
// The grid-stride loop has a copy for the threads that take no second step, so the loop
// reads the steps only where they were computed.
// CHECK: ptxcc.steps.join:
// CHECK-NEXT: %ptxcc.more.grid = phi i1 [ false, %ptxcc.decide ], [ true, %ptxcc.steps ], [ false, %ptxcc.known ]
// CHECK-NEXT: %ptxcc.extent = phi i64 [ poison, %ptxcc.decide ], [ %[[E]], %ptxcc.steps ], [ poison, %ptxcc.known ]
// CHECK-NEXT: %ptxcc.step.rem.inner = phi i64 [ poison, %ptxcc.decide ], [ %[[SRI]], %ptxcc.steps ], [ poison, %ptxcc.known ]
// CHECK-NEXT: %ptxcc.step.quot.inner = phi i64 [ poison, %ptxcc.decide ], [ %[[SQI]], %ptxcc.steps ], [ poison, %ptxcc.known ]
// CHECK-NEXT: %ptxcc.step.rem = phi i64 [ poison, %ptxcc.decide ], [ %[[SR]], %ptxcc.steps ], [ poison, %ptxcc.known ]
// CHECK-NEXT: %ptxcc.step.quot = phi i64 [ poison, %ptxcc.decide ], [ %[[SQ]], %ptxcc.steps ], [ poison, %ptxcc.known ]
// CHECK-NEXT: br i1 %ptxcc.more.grid, label %{{[0-9]+}}, label %{{[0-9]+}}
// CHECK-NOT: sdiv i64 %ptxcc.r
// CHECK: %ptxcc.carry = icmp uge i64 %{{[0-9]+}}, %ptxcc.divisor
// CHECK: store i64 %{{[0-9]+}}, ptr %ptxcc.quot,
// CHECK-NEXT: %[[BACK:[0-9]+]] = select i1 %ptxcc.carry, i64 %ptxcc.extent, i64 0
// CHECK-NEXT: %[[R:[0-9]+]] = load i64, ptr %ptxcc.rem.inner
// CHECK-NEXT: %[[R1:[0-9]+]] = add i64 %[[R]], %ptxcc.step.rem.inner
// CHECK-NEXT: %ptxcc.carry.inner = icmp uge i64 %[[R1]], %ptxcc.divisor.inner
// CHECK-NEXT: %[[R2:[0-9]+]] = sub i64 %[[R1]], %ptxcc.divisor.inner
// CHECK-NEXT: %[[R3:[0-9]+]] = select i1 %ptxcc.carry.inner, i64 %[[R2]], i64 %[[R1]]
// CHECK-NEXT: store i64 %[[R3]], ptr %ptxcc.rem.inner
// CHECK-NEXT: %[[Q:[0-9]+]] = load i64, ptr %ptxcc.quot.inner
// CHECK-NEXT: %[[Q1:[0-9]+]] = add i64 %[[Q]], %ptxcc.step.quot.inner
// CHECK-NEXT: %[[C:[0-9]+]] = zext i1 %ptxcc.carry.inner to i64
// CHECK-NEXT: %[[Q2:[0-9]+]] = add i64 %[[Q1]], %[[C]]
// CHECK-NEXT: %[[Q3:[0-9]+]] = sub i64 %[[Q2]], %[[BACK]]
// CHECK-NEXT: store i64 %[[Q3]], ptr %ptxcc.quot.inner
void copy3(long mi, long mj, long mk, float *restrict p, const float *restrict w) {
#pragma omp target teams distribute parallel for collapse(3) map(tofrom : p[0 : mi * mj * mk]) map(to : w[0 : mi * mj * mk])
  for (long i = 1; i < mi - 1; i++)
    for (long j = 1; j < mj - 1; j++)
      for (long k = 1; k < mk - 1; k++)
        p[(i * mj + j) * mk + k] = w[(i * mj + j) * mk + k];
}

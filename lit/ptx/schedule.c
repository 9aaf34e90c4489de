// schedule(static, 1) deals iterations to threads cyclically (stride = ntid), schedule(static)
// hands out contiguous blocks (a division by ntid).
// RUN: %ptxcc -fopenmp -O2 --emit=device-ir %s -o - | FileCheck %s
// CHECK-LABEL: define {{.*}}void @__omp_offloading_{{.*}}_cyclic_l
// CHECK: tail call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
// CHECK-NOT: udiv i32 %{{.*}}, %{{.*}}ntid
// CHECK: ret void
// CHECK-LABEL: define {{.*}}void @__omp_offloading_{{.*}}_block_l
// CHECK: udiv
// CHECK: ret void
void cyclic(int n, float *y) {
#pragma omp target parallel for map(tofrom: y[0:n]) schedule(static, 1)
  for (int i = 0; i < n; i++)
    y[i] += 1;
}
void block(int n, float *y) {
#pragma omp target parallel for map(tofrom: y[0:n]) schedule(static)
  for (int i = 0; i < n; i++)
    y[i] += 1;
}

// Without a schedule clause the threads of the grid take iterations cyclically (coalesced):
// the loop starts at lb + ctaid.x * ntid.x + tid.x and steps by nctaid.x * ntid.x (1 in the
// fallback for a range that ends within that of INT_MAX), no division by ntid.x splits the
// range, and the loop is not unrolled: the grid is sized to give each thread about one
// iteration, so no remainder loop and no division by the step count its trips.
// CHECK-LABEL: define {{.*}}void @__omp_offloading_{{.*}}_by_default_l
// CHECK: %[[N:.*]] = tail call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
// CHECK-NOT: udiv
// CHECK: %[[STEP:ptxcc.step.*]] = select i1 %{{.*}}, i32 {{%[0-9a-z.]+, i32 1|1, i32 %[0-9a-z.]+}}
// CHECK-NOT: {{^}}.prol
// CHECK: add nsw i32 %{{.*}}, %[[STEP]]
// CHECK-NOT: add nsw i32 %{{.*}}, %[[STEP]]
// CHECK: br i1 %{{.*}}, !llvm.loop
// CHECK-NOT: udiv
// CHECK: ret void
void by_default(int n, float *y) {
#pragma omp target teams distribute parallel for map(tofrom: y[0:n])
  for (int i = 0; i < n; i++)
    y[i] += 1;
}

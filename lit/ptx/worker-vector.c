// OpenACC worker + vector: the worker loop is spread over the warps of the block (tid.x >> 5),
// its vector loop over the lanes (tid.x & 31); the vector reduction is a shuffle tree within the
// warp, broadcast to every lane (shfl.idx), with warp barriers only: no block barrier, no
// shared memory and no call in the kernel. The region's block is num_workers warps.
// RUN: %ptxcc -fopenacc -O2 --emit=ptx %s -o - | FileCheck %s
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s --check-prefix=OMP
// OMP: #pragma omp target teams distribute thread_limit((4) * 32)
// OMP: #pragma omp parallel for
// OMP: #pragma omp parallel for num_threads(32) reduction(+: s)
// CHECK: .visible .entry __omp_offloading_{{.*}}_rowsums_l[[#@LINE+10]](
// CHECK-NOT: call
// CHECK-NOT: .shared
// CHECK-NOT: bar.sync
// CHECK: shr.u32 {{.*}}, 5;
// CHECK: and.b32 {{.*}}, 31;
// CHECK: shfl.sync.down.b32 {{.*}}, 16, 31,
// CHECK: shfl.sync.idx.b32
// CHECK: bar.warp.sync
void rowsums(int n, int m, const float *restrict a, float *restrict out) {
#pragma acc parallel loop gang num_workers(4) vector_length(32) copyin(a[0:n*m]) copyout(out[0:n])
  for (int i = 0; i < n; i++) {
#pragma acc loop worker
    for (int j = 0; j < 8; j++) {
      float s = 0;
#pragma acc loop vector reduction(+: s)
      for (int k = 0; k < m; k++)
        s += a[(i * 8 + j) * m + k];
      out[i * 8 + j] = s;
    }
  }
}

// restrict parameters reach the kernel (restrict-params): in a function whose pointers are
// restrict, a target region's kernel gets them noalias, so LLVM keeps what it stored and reads
// what is only read through the non-coherent cache (ld.global.nc, nvcc's code for
// const __restrict__); without restrict, each store may change what the others point at.
// RUN: %ptxcc -fopenmp -O2 --emit=ptx %s -o - | FileCheck %s
// CHECK-LABEL: .entry {{.*}}_scaled_l[[#]](
// CHECK: ld.global.nc.f64
// CHECK-NOT: ld.global.f64
// CHECK: ret;
// CHECK-LABEL: .entry {{.*}}_scaled_plain_l[[#]](
// CHECK-NOT: ld.global.nc
// CHECK: ld.global.f64
// CHECK: ret;
// CHECK-LABEL: .entry {{.*}}_halves_l[[#]](
// CHECK-NOT: ld.global.nc
// CHECK: ret;

// y = 2x, z = y + x: with restrict, x is loaded once and y is not read back.
void scaled(long n, const double *restrict x, double *restrict y, double *restrict z) {
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(from : y[0:n], z[0:n])
  for (long i = 0; i < n; i++) {
    y[i] = 2 * x[i];
    z[i] = y[i] + x[i];
  }
}

void scaled_plain(long n, const double *x, double *y, double *z) {
#pragma omp target teams distribute parallel for map(to : x[0:n]) map(from : y[0:n], z[0:n])
  for (long i = 0; i < n; i++) {
    y[i] = 2 * x[i];
    z[i] = y[i] + x[i];
  }
}

// a and b are both based on p: the kernel's two pointers may overlap, neither is noalias.
void halves(long n, double *restrict p) {
  double *a = p, *b = p + n / 2;
#pragma omp target teams distribute parallel for map(tofrom : p[0:n])
  for (long i = 0; i < n / 2; i++)
    a[i] = a[i] + b[i];
}

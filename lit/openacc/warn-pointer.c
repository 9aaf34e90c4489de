// copy/copyin/copyout/create of a pointer without a section move the pointer, not its data
// (OpenACC 3.3, 2.7.1): valid, but a device that follows it reads host memory (the emulator
// shares the host's address space, a GPU faults), so a warning; -w silences it. Sections,
// present, deviceptr, arrays and scalars get none. A parameter declared as an array is a
// pointer in C: the warning gives its declared extent.
// RUN: %ptxcc -fopenacc -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %ptxcc -fopenacc -fsyntax-only -w %s 2>&1 | count 0

void f(int n, double *a, double *b, double *d) {
  double s = 0, arr[4];
  // CHECK: warn-pointer.c:[[@LINE+1]]:34: warning: 'copy(a)' moves the pointer 'a', not the data it points to; a device that follows it reads host memory (give the data's extent, e.g. 'copy(a[0:n])')
  #pragma acc parallel loop copy(a) copyin(b[0:n], s, arr) deviceptr(d)
  for (int i = 0; i < n; i++) a[i] = b[i] + d[i] + s + arr[i % 4];
  // CHECK: warn-pointer.c:[[@LINE+1]]:33: warning: 'copyin(b)' moves the pointer 'b'
  #pragma acc enter data copyin(b)
  #pragma acc data present(a) create(arr)
  {
  }
}

void g(double tmp[16], double A[16][4], int n, double v[n], double w[]) {
  // CHECK: warn-pointer.c:[[@LINE+2]]:27: warning: 'copyin(A)' moves the pointer 'A' (a parameter declared as an array is a pointer in C), not the data it points to; a device that follows it reads host memory (give the data's extent, e.g. 'copyin(A[0:16])')
  // CHECK: warn-pointer.c:[[@LINE+1]]:38: warning: 'copyout(tmp)' moves the pointer 'tmp' (a parameter declared as an array is a pointer in C), not the data it points to; a device that follows it reads host memory (give the data's extent, e.g. 'copyout(tmp[0:16])')
  #pragma acc data copyin(A) copyout(tmp)
  {
  }
  // CHECK: warn-pointer.c:[[@LINE+2]]:33: warning: 'create(v)' moves the pointer 'v' (a parameter declared as an array is a pointer in C), not the data it points to; a device that follows it reads host memory (give the data's extent, e.g. 'create(v[0:n])')
  // CHECK: warn-pointer.c:[[@LINE+1]]:43: warning: 'copyin(w)' moves the pointer 'w' (a parameter declared as an array is a pointer in C)
  #pragma acc enter data create(v) copyin(w)
}

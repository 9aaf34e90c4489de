// copy/copyin/copyout/create of a pointer without a section move the pointer, not its data
// (OpenACC 3.3, 2.7.1): valid, but a device that follows it reads host memory (the emulator
// shares the host's address space, a GPU faults), so a warning; -w silences it. Sections,
// present, deviceptr, arrays and scalars get none.
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

// -fptxcc-math-library=: the C math functions device code links. libdevice (CUDA's, the default
// where one is found) makes __nv_ calls of the device IR, libclc its OpenCL overloads; a value
// ptxcc does not know, or libdevice asked for where there is none, is an error saying what to do.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-math-library=libclc --emit=device-ir %s -o - | FileCheck %s --check-prefix=CLC
// CLC-NOT: @__nv_sin
// RUN: %if libdevice %{ %ptxcc -fopenmp -O2 -fptxcc-math-library=libdevice --emit=device-ir %s -o - | FileCheck %s --check-prefix=NV %}
// RUN: %if libdevice %{ %ptxcc -fopenmp -O2 --emit=device-ir %s -o - | FileCheck %s --check-prefix=NV %}
// NV-NOT: _Z3sind
// RUN: not %ptxcc -fopenmp -fptxcc-math-library=cuda -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=BADVALUE
// BADVALUE: ptxcc: error: unknown value in '-fptxcc-math-library=cuda' (expected -fptxcc-math-library=auto, libdevice or libclc)
// RUN: env PTXCC_LIBDEVICE=/nonexistent/libdevice.10.bc not %ptxcc -fopenmp -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: PTXCC_LIBDEVICE names '/nonexistent/libdevice.10.bc', which does not exist
// libclc needs no libdevice.
// RUN: env PTXCC_LIBDEVICE=/nonexistent/libdevice.10.bc %ptxcc -fopenmp -fptxcc-math-library=libclc -c %s -o %t.o
#include <math.h>

void wave(double *y, int n) {
#pragma omp target teams distribute parallel for map(tofrom : y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = sin(y[i]);
}

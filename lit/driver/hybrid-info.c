// -fptxcc-info says which split loops -fptxcc-hybrid also gives a host part, and why a loop
// stays on the devices: a `declare target` global (its host and device copies are different
// variables) or a question about where it runs (omp_is_initial_device) or how its teams and
// threads are shaped (omp_get_num_threads). -fptxcc-hybrid
// implies -fptxcc-multi-device; without it no loop is hybrid.
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -fptxcc-info -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: %ptxcc -fopenmp -fptxcc-multi-device -fptxcc-info -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %ptxcc -fopenmp -fptxcc-hybrid -fno-ptxcc-hybrid -fptxcc-info -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NONE
// OFF-NOT: {{: (not )?hybrid}}
// NONE-NOT: split over devices
#include <omp.h>
#define N 1000
double a[N], b[N];
#pragma omp declare target
int calls;
#pragma omp end declare target

void kernels(int *where) {
  // CHECK: hybrid-info.c:[[#@LINE+2]]:1: split over devices: each device runs a contiguous part of the loop's iterations (-fptxcc-multi-device)
  // CHECK-NEXT: hybrid-info.c:[[#@LINE+1]]:1: hybrid: the host's threads run a part of the loop's iterations next to the devices (-fptxcc-hybrid)
#pragma omp target teams distribute parallel for map(to : a) map(from : b)
  for (int i = 0; i < N; i++)
    b[i] = 2 * a[i];

  // CHECK: hybrid-info.c:[[#@LINE+1]]:1: not hybrid (devices only): it uses the global variable 'calls', whose host and device copies are different variables
#pragma omp target teams distribute parallel for map(to : a) map(from : b)
  for (int i = 0; i < N; i++) {
    b[i] = a[i] + calls;
  }

  // CHECK: hybrid-info.c:[[#@LINE+1]]:1: not hybrid (devices only): it calls 'omp_is_initial_device', whose answer on the host differs from a device's
#pragma omp target teams distribute parallel for map(from : where[0 : N])
  for (int i = 0; i < N; i++)
    where[i] = omp_is_initial_device();

  // The host's teams and threads are not a GPU's: a loop that stores their shape stays on the
  // devices (a host part would store the host's thread count).
  // CHECK: hybrid-info.c:[[#@LINE+1]]:1: not hybrid (devices only): it calls 'omp_get_num_threads', whose answer on the host differs from a device's
#pragma omp target teams distribute parallel for map(from : where[0 : N])
  for (int i = 0; i < N; i++)
    where[i] = omp_get_num_threads();
}

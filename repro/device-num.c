// omp_get_device_num() in a target region: expected the number of the device that runs the region
// (0 with one GPU or the emulator); ptxcc reports that it does not support the routine there.
#include <omp.h>
#include <stdio.h>
int main(void) {
  int d = -1;
#pragma omp target map(from : d)
  d = omp_get_device_num();
  printf("%d\n", d);
  return d != 0;
}

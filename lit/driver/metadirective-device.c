// A metadirective that selects on device traits the device and the host answer differently
// (kind(nohost), kind(gpu), arch(nvptx), isa) is refused: clang resolves it for the host, and
// ptxcc's device code comes from the host's code, so the device would silently run the host's
// choice. Selectors both answer alike (kind(any), another vendor's arch) and user conditions
// compile, and so does a `device` selector in host code, where it asks about the host (the
// functions a target region calls are device code: the selector is refused there too).
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
int a[64];
int g(int x) {
  int y = x;
  // CHECK: metadirective-device.c:[[@LINE+1]]:1: error: ptxcc does not support 'metadirective'
#pragma omp metadirective when(device = {arch(nvptx64)} : nothing) default(parallel for)
  for (int i = 0; i < 4; i++)
    y += i;
  return y;
}
void f(int n) {
#pragma omp target map(tofrom : a)
  {
    // CHECK: metadirective-device.c:[[@LINE+1]]:1: error: ptxcc does not support 'metadirective' selecting on a device trait (kind, arch, isa) that the device and the host answer differently: ptxcc compiles device code from the host's code, in which clang has chosen the host's directive; write the directive for the device in the target region
#pragma omp metadirective when(device = {kind(nohost)} : nothing) default(parallel for)
    for (int i = 0; i < 64; i++)
      a[i] += g(i);
  }
  // CHECK-NOT: error:
#pragma omp metadirective when(device = {arch(amdgcn)} : nothing) when(user = {condition(n > 4)} : parallel for) default(parallel for)
  for (int i = 0; i < 64; i++)
    a[i] += 1;
#pragma omp metadirective when(device = {kind(host)} : target teams distribute parallel for map(tofrom : a)) default(parallel for)
  for (int i = 0; i < 64; i++)
    a[i] += 1;
}

// A metadirective in device code (a target region, or a function a target region calls) that
// selects on device traits is resolved for the device when ptxcc can answer every selector
// (device kind/arch, implementation vendor) and one choice remains
// (lit/e2e/metadirective-device.c runs that). Otherwise it is refused: clang resolves it for
// the host, and ptxcc's device code comes from the host's code, so the device would silently
// run the host's choice. A `device` selector in host code asks about the host and compiles;
// `target_device` asks about the offload device and is refused anywhere.
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
int a[64];
int g(int x) {
  int y = x;
  // CHECK: metadirective-device.c:[[@LINE+1]]:1: error: ptxcc does not support 'metadirective'
#pragma omp metadirective when(device = {isa("sm_90")} : nothing) default(parallel for)
  for (int i = 0; i < 4; i++)
    y += i;
  return y;
}
void f(int n) {
#pragma omp target map(tofrom : a)
  {
    // CHECK: metadirective-device.c:[[@LINE+1]]:1: error: ptxcc does not support 'metadirective' selecting on a device trait (kind, arch, isa) that the device and the host answer differently: ptxcc compiles device code from the host's code, in which clang has chosen the host's directive; write the directive for the device in the target region
#pragma omp metadirective when(device = {kind(gpu)} : parallel for) when(device = {arch(nvptx64)} : simd) default(parallel for)
    for (int i = 0; i < 64; i++)
      a[i] += g(i);
  }
  // CHECK: metadirective-device.c:[[@LINE+1]]:1: error: ptxcc does not support 'metadirective'
#pragma omp metadirective when(target_device = {kind(gpu)} : target teams distribute parallel for map(tofrom : a)) default(parallel for)
  for (int i = 0; i < 64; i++)
    a[i] += 1;
  // CHECK-NOT: error:
#pragma omp target map(tofrom : a)
  {
#pragma omp metadirective when(device = {kind(nohost)} : nothing) default(parallel for)
    for (int i = 0; i < 64; i++)
      a[i] += 1;
  }
#pragma omp metadirective when(device = {arch(amdgcn)} : nothing) when(user = {condition(n > 4)} : parallel for) default(parallel for)
  for (int i = 0; i < 64; i++)
    a[i] += 1;
#pragma omp metadirective when(device = {kind(host)} : target teams distribute parallel for map(tofrom : a)) default(parallel for)
  for (int i = 0; i < 64; i++)
    a[i] += 1;
}

// Constructs ptxcc cannot compile yet are reported at their source line, with exit status 1.
// RUN: not %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: {{^.*}}unsupported.c:[[#@LINE+4]]:{{[0-9]+}}: error: ptxcc does not support schedule(dynamic), schedule(guided), schedule(auto) and schedule(runtime) in target regions yet; use schedule(static) or schedule(static, N)
// CHECK-DAG: {{^.*}}unsupported.c:[[#@LINE+7]]:{{[0-9]+}}: error: function 'external_fn' called in a target region is not available on the device
int external_fn(int);
void f(int n, int *y) {
#pragma omp target teams distribute parallel for map(tofrom: y[0:n]) schedule(dynamic)
  for (int i = 0; i < n; i++)
    y[i] += 1;
#pragma omp target map(tofrom: y[0:n])
  y[0] = external_fn(y[0]);
}

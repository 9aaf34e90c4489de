/* Math functions in a kernel (double and float), compared with the host's libm to 6 digits. */
#include <math.h>
#include <stdio.h>
int main(void) {
  enum { N = 1000 };
  double d[N];
  float f[N];
#pragma omp target teams distribute parallel for map(from: d, f)
  for (int i = 0; i < N; i++) {
    double x = i / 100.0;
    d[i] = sin(x) + cos(x) * exp(-x) + sqrt(x) + pow(x, 1.5) + log(x + 1.0) + fabs(x - 5) + tanh(x - 3) + atan2(x, 2.0);
    float y = (float)x;
    f[i] = sinf(y) + expf(-y) + sqrtf(y) + powf(y, 0.5f) + floorf(y * 3.0f) + fmaxf(y, 2.0f);
  }
  double sd = 0, sf = 0;
  for (int i = 0; i < N; i++) { sd += d[i]; sf += f[i]; }
  printf("d %.6e f %.5e d[123] %.6e f[456] %.5e\n", sd, sf, d[123], (double)f[456]);
  return 0;
}

/* enter/exit data reference counts: data stays on the device until its count drops to 0, and is
 * copied back only then. The checks in between only run when offloading; the printed results are
 * those of the serial program. */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif
static int fails;
#define CHECK(c) do { if (!(c)) { fails++; fprintf(stderr, "check failed at line %d\n", __LINE__); } } while (0)
int main(void) {
  enum { N = 64 };
  double x[N];
  for (int i = 0; i < N; i++) x[i] = i;
#pragma omp target enter data map(to: x)
#pragma omp target enter data map(to: x)
#ifdef _OPENMP
  CHECK(omp_target_is_present(x, omp_get_default_device()));
#endif
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++) x[i] *= 2;
#pragma omp target exit data map(from: x)
#ifdef _OPENMP
  /* count 1 left: not copied back yet, still present */
  CHECK(x[5] == 5);
  CHECK(omp_target_is_present(x, omp_get_default_device()));
#endif
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; i++) x[i] += 1;
#pragma omp target exit data map(from: x)
#ifdef _OPENMP
  CHECK(!omp_target_is_present(x, omp_get_default_device()));
#endif
  /* a structured region inside an unstructured one does not copy back at its end */
#pragma omp target enter data map(to: x)
#pragma omp target data map(tofrom: x)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) x[i] -= 3;
  }
#ifdef _OPENMP
  CHECK(x[7] == 15);
#endif
#pragma omp target exit data map(delete: x)
#ifdef _OPENMP
  CHECK(!omp_target_is_present(x, omp_get_default_device()));
  CHECK(x[7] == 15); /* delete: no copy back */
  for (int i = 0; i < N; i++) x[i] -= 3; /* what the serial program computed */
#endif
  double s = 0;
  for (int i = 0; i < N; i++) s += x[i];
  printf("sum %.1f x[7] %.1f %s\n", s, x[7], fails ? "FAIL" : "checks ok");
  return fails != 0;
}

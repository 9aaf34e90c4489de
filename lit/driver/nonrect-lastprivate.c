// lastprivate of the iteration variable of a collapsed loop whose lower bound reads an outer
// loop's variable (a non-rectangular nest): clang 19 computes its value after the loop from the
// bound at the outer variable one past its last iteration (10 where sequential execution
// leaves 6), on the host as on the device. A warning at the directive names the variable and
// the outer one; the program still compiles, and -w silences it. Rectangular nests, bounds
// that only the upper limit ties to an outer variable (clang's value is right) and variables
// not in lastprivate give none.
// RUN: %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %ptxcc -fopenmp -w -c %s -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: warning
int a[4][12];

void lower(void) {
  int i, j;
  // CHECK: nonrect-lastprivate.c:[[#@LINE+1]]:13: warning: lastprivate 'j' is the iteration variable of a collapsed loop whose lower bound reads 'i' (a non-rectangular nest): clang 19 gives it a wrong value after the loop (it evaluates the bound at 'i' past its last iteration); assign 'j' after the construct instead of listing it in lastprivate
#pragma omp target teams distribute parallel for collapse(2) lastprivate(i, j) map(tofrom : a)
  for (i = 0; i < 4; i++)
    for (j = i + 1; j < 6; j++)
      a[i][j] = 1;
}

void deeper(void) {
  int i, j, k;
  // CHECK: nonrect-lastprivate.c:[[#@LINE+1]]:13: warning: lastprivate 'k' is the iteration variable of a collapsed loop whose lower bound reads 'j'
#pragma omp parallel for collapse(3) lastprivate(k)
  for (i = 0; i < 4; i++) {
    for (j = 0; j < 3; j++) {
      for (k = j; k < 5; k++)
        a[i][k] = 1;
    }
  }
}

void quiet(void) {
  int i, j;
#pragma omp target teams distribute parallel for collapse(2) lastprivate(i, j) map(tofrom : a)
  for (i = 0; i < 4; i++)
    for (j = 0; j < 6; j++)
      a[i][j] = 1;
#pragma omp target teams distribute parallel for collapse(2) lastprivate(i, j) map(tofrom : a)
  for (i = 0; i < 4; i++)
    for (j = 0; j < i + 2; j++)
      a[i][j] = 1;
#pragma omp target teams distribute parallel for collapse(2) lastprivate(i) map(tofrom : a)
  for (i = 0; i < 4; i++)
    for (j = i; j < 6; j++)
      a[i][j] = 1;
}

// An atomic write or capture that assigns a variable an expression reading it, in a form that
// is not one of OpenMP's read-modify-write forms (x = x op expr, x = expr op x), reads it
// outside the atomic operation: clang 19 compiles a plain load and an atomic exchange, and
// concurrent updates are lost. A warning at the directive, with what to write instead; the
// program still compiles, and -w silences it. The read-modify-write forms, compound
// assignments, increments, compare and plain writes give none.
// RUN: %ptxcc -fopenmp -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %ptxcc -fopenmp -w -c %s -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: warning
int x, v, h[8];

void maximum(int e) {
  // CHECK: atomic-self-read.c:[[@LINE+1]]:13: warning: atomic capture assigns 'x' an expression that reads 'x' outside the atomic operation (only 'x = x op expr' and 'x = expr op x' are read atomically, op one of + * - / & ^ | << >>): concurrent updates are lost; for a maximum or minimum use a max/min reduction, or OpenMP's 'atomic compare capture' with '{ v = x; if (x < e) x = e; }'
#pragma omp atomic capture
  { v = x; x = x > e ? x : e; }
}

void not_an_update_form(int a, int b) {
  // CHECK: atomic-self-read.c:[[@LINE+1]]:13: warning: atomic capture assigns 'x' an expression that reads 'x'
#pragma omp atomic capture
  { v = x; x = x * a + b; }
  // CHECK: atomic-self-read.c:[[@LINE+1]]:13: warning: atomic capture assigns 'x' an expression that reads 'x'
#pragma omp atomic capture
  { v = x; x = a + x * 2; }
  // CHECK: atomic-self-read.c:[[@LINE+1]]:13: warning: atomic write assigns 'x' an expression that reads 'x' outside the atomic operation (an atomic write reads nothing atomically): concurrent updates are lost; for 'x = x op expr' write '#pragma omp atomic update'
#pragma omp atomic write
  x = x + a;
  // CHECK: atomic-self-read.c:[[@LINE+1]]:13: warning: atomic capture assigns 'h[a]' an expression that reads 'h[a]'
#pragma omp atomic capture
  { v = h[a]; h[a] = h[a] - (b + h[a]); }
}

void fine(int a, int b) {
#pragma omp atomic capture
  { v = x; x = x + a; }
#pragma omp atomic capture
  { v = x; x = b + a + x; }
#pragma omp atomic capture
  { v = x; x = (x << a); }
#pragma omp atomic capture
  v = x += a;
#pragma omp atomic capture
  v = x++;
#pragma omp atomic write
  x = a + b;
#pragma omp atomic compare capture
  { v = x; if (x < a) x = a; }
#pragma omp atomic update
  h[a] = h[a] | b;
}

// The converted pragma replaces the original line in place: clang's diagnostics on the translated
// text, and the runtime's source locations, name the user's lines.
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for -Wunused-variable -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for -fptxcc-print-translated %s | FileCheck %s --check-prefix=TEXT
// RUN: %ptxcc -fopenmp -fptxcc-print-translated %s > %t.plain.i
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for -fptxcc-print-translated %s > %t.offload.i
// Same number of lines as the plain preprocessed text.
// RUN: %python -c "import sys; a, b = (open(f).read().splitlines() for f in sys.argv[1:]); sys.exit(len(a) != len(b))" %t.plain.i %t.offload.i

#define N 100
double a[N];

int main(void) {
  // TEXT: #pragma omp target teams distribute parallel for
  // CHECK: line-numbers.c:[[@LINE+3]]:9: warning: unused variable 'unused'
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    int unused;
    a[i] = i;
  }
  // CHECK: line-numbers.c:[[@LINE+1]]:7: warning: unused variable 'after'
  int after;
  return 0;
}

// An atomic update of a variable mapped `from` only (OpenACC copyout, OpenMP map(from:)) that
// nothing in the construct assigns first reads a device copy that was never initialised: a
// warning at the atomic directive. copy/tofrom, or an assignment earlier in the construct, is
// fine. The program still compiles.
// RUN: %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONCE
// ONCE-COUNT-2: warning: atomic update
// ONCE-NOT: warning: atomic update
unsigned hist[6], other[6];
void acc(const int *d, int n) {
#pragma acc parallel loop copyin(d[0:n]) copyout(hist)
  for (int i = 0; i < n; i++) {
    // CHECK: warn-atomic-copyout.c:[[@LINE+1]]:13: warning: atomic update of 'hist', which the enclosing construct maps 'from' only (OpenACC copyout): its device copy is not initialised before the update reads it; map it 'tofrom' (OpenACC copy)
#pragma acc atomic
    hist[d[i]]++;
  }
#pragma acc parallel loop copyin(d[0:n]) copy(other)
  for (int i = 0; i < n; i++) {
#pragma acc atomic update
    other[d[i]] += 1;
  }
#pragma acc data copyout(other)
  {
#pragma acc parallel loop
    for (int j = 0; j < 6; j++)
      other[j] = 0;
#pragma acc parallel loop copyin(d[0:n])
    for (int i = 0; i < n; i++) {
#pragma acc atomic
      other[d[i]]++;
    }
  }
}
void omp(const int *d, int n) {
#pragma omp target teams distribute parallel for map(to : d[0:n]) map(from : hist)
  for (int i = 0; i < n; i++) {
    // CHECK: warn-atomic-copyout.c:[[@LINE+1]]:13: warning: atomic update of 'hist'
#pragma omp atomic
    hist[d[i]] += 2;
  }
}

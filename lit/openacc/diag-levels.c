// OpenACC 3.3, 2.9.2-2.9.4: no gang loop in the region of a gang loop (without gang(dim:)), no
// gang or worker loop in that of a worker loop, no loop with a level in that of a vector loop;
// in parallel and kernels regions alike, except gang in gang in kernels. Levels the compiler
// chose do not count.
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, double *a) {
  #pragma acc parallel loop gang
  for (int i = 0; i < n; i++) {
    // CHECK: diag-levels.c:[[@LINE+1]]:22: error: a 'gang' loop may not be inside the 'gang' loop of line [[@LINE-2]] (OpenACC: the region of a gang loop contains no loop of its level or an outer one); use 'seq' or another level
    #pragma acc loop gang
    for (int j = 0; j < n; j++) a[j] = i;
  }
  #pragma acc parallel
  {
    #pragma acc loop gang worker
    for (int i = 0; i < n; i++) {
      // CHECK: diag-levels.c:[[@LINE+1]]:24: error: a 'worker' loop may not be inside the 'worker' loop of line [[@LINE-2]]
      #pragma acc loop worker vector
      for (int j = 0; j < n; j++) a[j] = i;
    }
  }
  #pragma acc kernels
  {
    #pragma acc loop vector
    for (int i = 0; i < n; i++) {
      #pragma acc loop seq
      for (int j = 0; j < n; j++) {
        // CHECK: diag-levels.c:[[@LINE+1]]:26: error: a 'gang' loop may not be inside the 'vector' loop of line [[@LINE-4]]
        #pragma acc loop gang
        for (int k = 0; k < n; k++) a[k] = j;
      }
    }
  }
  // Allowed: levels the compiler chose, gang(dim:) nests, gang in gang in a kernels region
  // (PGI-style code; the inner loop keeps its vector level).
  #pragma acc kernels
  {
    #pragma acc loop independent gang
    for (int i = 0; i < n; i++) {
      #pragma acc loop independent gang vector(32)
      for (int j = 0; j < n; j++) a[i * n + j] = j;
    }
  }
  #pragma acc parallel loop
  for (int i = 0; i < n; i++) {
    #pragma acc loop vector
    for (int j = 0; j < n; j++) a[j] = i;
  }
  #pragma acc parallel num_gangs(4, 4)
  {
    #pragma acc loop gang(dim:2)
    for (int i = 0; i < n; i++) {
      #pragma acc loop gang(dim:1)
      for (int j = 0; j < n; j++) a[i * n + j] = j;
    }
  }
}

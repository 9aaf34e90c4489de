// Multi-dimensional gangs (OpenACC 3.3): num_gangs(a, b, c) gives a*b*c teams; a gang(dim:2)
// loop tightly nested around a gang(dim:1) loop distributes both (collapse), a gang loop that is
// not tightly nested runs in the gang of the enclosing iteration; errors for what the
// specification forbids and what ptxcc does not support.
// RUN: %ptxcc -fopenacc -fopenacc-print=omp %s | FileCheck %s
// RUN: %ptxcc -fopenacc -fopenacc-print=omp -fptxcc-info %s 2>&1 >/dev/null | FileCheck --check-prefix=INFO %s
// RUN: not %ptxcc -fopenacc -fopenacc-print=omp -DBAD %s 2>&1 | FileCheck --check-prefix=BAD %s

#define M 64
void f(int n, float (*b)[M]) {
  int t;
  // CHECK: #pragma omp target teams num_teams((4) * (8)) map(ompx_hold, tofrom: b[0:n][0:64])
  #pragma acc parallel num_gangs(4, 8) copy(b[0:n][0:M])
  {
    // CHECK: #pragma omp distribute collapse(2) private(t)
    // INFO: gang-dim.c:[[@LINE+2]]: loop parallelized: gang(blockIdx.x) gang dimensions collapse(2)
    #pragma acc loop gang(dim:2)
    for (int i = 0; i < n; i++) {
      // CHECK: /* acc loop gang(dim:1) private(t): in the collapse of the gang loop of line [[@LINE-2]] */
      // INFO: gang-dim.c:[[@LINE+2]]: loop parallelized: gang(blockIdx.x), collapsed with the gang loop of line [[@LINE-3]]
      #pragma acc loop gang(dim:1) private(t)
      for (int j = 0; j < M; j++) { t = i + j; b[i][j] += t; }
    }
  }
  // Three dimensions on a combined construct; a plain gang loop is dimension 1.
  // CHECK: #pragma omp target teams distribute num_teams((2) * (2) * (2)) map(ompx_hold, tofrom: b[0:n][0:64]) collapse(3)
  #pragma acc parallel loop gang(dim:3) num_gangs(2, 2, 2) copy(b[0:n][0:M])
  for (int k = 0; k < 2; k++)
    // CHECK: /* acc loop gang(dim:2): in the collapse of the gang loop of line [[@LINE-2]] */
    #pragma acc loop gang(dim:2)
    for (int i = 0; i < n; i++)
      // CHECK: /* acc loop gang: in the collapse of the gang loop of line [[@LINE-5]] */
      #pragma acc loop gang
      for (int j = 0; j < M; j++) b[i][j] += k;
  // Not tightly nested (a statement between): the inner gang loop runs in the gang of the
  // enclosing iteration, over its threads when it is also a vector loop.
  // CHECK: #pragma omp target teams distribute num_teams(16) map(ompx_hold, tofrom: b[0:n][0:64])
  #pragma acc parallel loop gang(dim:2) num_gangs(16) copy(b[0:n][0:M])
  for (int i = 0; i < n; i++) {
    float s = i;
    // CHECK: #pragma omp parallel for
    #pragma acc loop gang(dim:1) vector
    for (int j = 0; j < M; j++) b[i][j] += s;
  }
  // CHECK: #pragma omp target teams distribute map(ompx_hold, tofrom: b[0:n][0:64])
  #pragma acc parallel loop gang(dim:2) copy(b[0:n][0:M])
  for (int i = 0; i < n; i++) {
    b[i][0] = 0;
    // CHECK: /* acc loop gang(dim:1): sequential (gang loop not tightly nested in the enclosing gang loop: run by the gang that runs the enclosing iteration) */
    #pragma acc loop gang(dim:1)
    for (int j = 1; j < M; j++) b[i][j] += 1;
  }
  // Bounds that use the outer variable: no collapse.
  // CHECK: #pragma omp target teams distribute map(ompx_hold, tofrom: b[0:n][0:64]){{$}}
  #pragma acc parallel loop gang(dim:2) copy(b[0:n][0:M])
  for (int i = 0; i < n; i++)
    // CHECK: /* acc loop gang(dim:1): sequential
    #pragma acc loop gang(dim:1)
    for (int j = 0; j < i % M; j++) b[i][j] += 1;
}

#ifdef BAD
void g(int n, float (*b)[M]) {
  #pragma acc parallel loop gang(dim:1) copy(b[0:n][0:M])
  for (int i = 0; i < n; i++)
    // BAD: gang-dim.c:[[@LINE+1]]:22: error: a 'gang(dim:2)' loop cannot be inside the 'gang(dim:1)' loop of line [[@LINE-2]]: the inner dimension must be lower
    #pragma acc loop gang(dim:2)
    for (int j = 0; j < M; j++) b[i][j] = 0;
  // BAD: gang-dim.c:[[@LINE+1]]:38: error: the 'dim' argument of 'gang' must be the constant 1, 2 or 3
  #pragma acc parallel loop gang(dim:4)
  for (int i = 0; i < n; i++) b[i][0] = 0;
  // BAD: gang-dim.c:[[@LINE+1]]:38: error: the 'dim' argument of 'gang' must be the constant 1, 2 or 3
  #pragma acc parallel loop gang(dim:n)
  for (int i = 0; i < n; i++) b[i][0] = 0;
  // BAD: gang-dim.c:[[@LINE+1]]:36: error: 'num_gangs' on a kernels construct takes one argument
  #pragma acc kernels num_gangs(2, 2)
  for (int i = 0; i < n; i++) b[i][0] = 0;
  #pragma acc kernels
  {
    // BAD: gang-dim.c:[[@LINE+1]]:22: error: ptxcc does not support 'gang(dim:2)' in a kernels region; use a parallel region
    #pragma acc loop gang(dim:2)
    for (int i = 0; i < n; i++) b[i][0] = 0;
  }
}
#endif

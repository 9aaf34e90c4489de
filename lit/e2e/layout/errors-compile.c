// What the trans directive rejects at compile time, each a located error naming the array.
// RUN: not %ptxcc -fopenmp -O2 -DPERM -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=PERM
// PERM: errors-compile.c:28:{{[0-9]+}}: error: invalid trans directive: the permutation of 'a' is not a permutation of 1..3 (each position once)
// RUN: not %ptxcc -fopenmp -O2 -DRANK -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: errors-compile.c:33:{{[0-9]+}}: error: invalid trans directive: the permutation of 'a' has 3 entries but its section has 2 dimensions
// RUN: not %ptxcc -fopenmp -O2 -DSHAPE -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: errors-compile.c:38:{{[0-9]+}}: error: the trans directive describes 'a' as [8][6][4] elements of 8 bytes (1536 bytes), but the array has 1920 bytes
// RUN: not %ptxcc -fopenmp -O2 -DESCAPE -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ESCAPE
// ESCAPE: errors-compile.c:48:{{[0-9]+}}: error: the address of 'a' (laid out by the trans at {{.*}}errors-compile.c:44:{{[0-9]+}}) (an element's address) is stored to memory, where ptxcc cannot rewrite it
// RUN: not %ptxcc -fopenmp -O2 -DJUMP -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=JUMP
// JUMP: errors-compile.c:57:{{[0-9]+}}: error: 'return' leaves the trans block of 'a'
// RUN: not %ptxcc -fopenmp -O2 -DSOA -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=SOA
// SOA: errors-compile.c:80:{{[0-9]+}}: error: ptxcc cannot lay out 'q' as one array per field: fields of different sizes
// RUN: not %ptxcc -fopenmp -O2 -DDECLARE -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DECLARE
// DECLARE: errors-compile.c:61:{{[0-9]+}}: error: ptxcc does not support a trans of 'd', a 'declare target' global
// RUN: not %ptxcc -fopenmp -O2 -DNOWAIT -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOWAIT
// NOWAIT: errors-compile.c:69:{{[0-9]+}}: error: ptxcc does not support 'nowait' (or OpenACC 'async') target regions inside the trans block of 'a'
#define I 8
#define J 6
#define K 5
double a[I][J][K];
#pragma omp declare target
double d[4][4];
#pragma omp end declare target

int f(int n) {
#ifdef PERM
#pragma ptxcc trans transpose(a[0:I][0:J][0:K], [1,3,3])
  {
  }
#endif
#ifdef RANK
#pragma ptxcc trans transpose(a[0:I][0:J*K], [1,3,2])
  {
  }
#endif
#ifdef SHAPE
#pragma ptxcc trans transpose(a[0:I][0:J][0:4], [1,3,2])
#pragma omp target teams distribute parallel for map(tofrom : a)
  for (int i = 0; i < I; i++)
    a[i][0][0] += 1;
#endif
#ifdef ESCAPE
#pragma ptxcc trans transpose(a[0:I][0:J][0:K], [1,3,2])
  {
#pragma omp target teams distribute parallel for map(tofrom : a)
    for (int i = 0; i < I; i++) {
      double *row = &a[i][0][0];
      row[1] = 2;
    }
  }
#endif
#ifdef JUMP
#pragma ptxcc trans transpose(a[0:I][0:J][0:K], [1,3,2])
  {
    if (n)
      return 1;
  }
#endif
#ifdef DECLARE
#pragma ptxcc trans transpose(d[0:4][0:4], [2,1])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < 4; i++)
    d[i][1] = 2;
#endif
#ifdef NOWAIT
#pragma ptxcc trans transpose(a[0:I][0:J][0:K], [1,3,2])
  {
#pragma omp target teams distribute parallel for map(tofrom : a) nowait
    for (int i = 0; i < I; i++)
      a[i][1][0] = 2;
#pragma omp taskwait
  }
#endif
#ifdef SOA
  struct {
    int id;
    double v;
  } *q = 0;
#pragma ptxcc trans soa(q[0:100])
#pragma omp target teams distribute parallel for map(tofrom : q[0:100])
  for (int i = 0; i < 100; i++)
    q[i].v = q[i].id;
#endif
  return 0;
}

// Clang's errors inside a translated pragma point at the user's OpenACC text: the column of the
// piece of the clause clang complains about, the user's line quoted and the caret under it (not
// the OpenMP text the pragma became). A diagnostic clang gives once per copy of the piece in
// the OpenMP is shown once. Without a piece to point at (clang complains about text the
// translation made up, or the pragma came through a macro), the pragma itself.
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | FileCheck %s --strict-whitespace
// RUN: not %ptxcc -fopenacc -fsyntax-only %s 2>&1 | FileCheck %s --strict-whitespace
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null -fcolor-diagnostics 2>&1 | sed 's/\x1b\[[0-9;]*m//g' | FileCheck %s --strict-whitespace
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null -fno-diagnostics-show-line-numbers 2>&1 | FileCheck %s --check-prefix=BARE --strict-whitespace
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null -fno-caret-diagnostics 2>&1 | FileCheck %s --check-prefix=NOCARET
// RUN: not %ptxcc -fopenacc -c %s -o /dev/null 2>&1 | sed 's|^.*diag-clang-columns\.c:|diag-clang-columns.c:|' | FileCheck %s --check-prefix=NOOMP
// NOOMP-NOT: omp

#define NN nn
#define PAR _Pragma("acc parallel loop copy(b3[0:n])")
struct S { double *v; int k; };

void f(double *a, int n, struct S s) {
  double sum = 0;
  // CHECK: diag-clang-columns.c:[[@LINE+8]]:34: error: use of undeclared identifier 'b'
  // CHECK-NEXT: {{^}}   [[@LINE+7]] |   #pragma acc parallel loop copy(b[0:n])
  // CHECK-NEXT: {{^}}      |                                  ^{{$}}
  // BARE: diag-clang-columns.c:[[@LINE+5]]:34: error: use of undeclared identifier 'b'
  // BARE-NEXT: {{^}}  #pragma acc parallel loop copy(b[0:n])
  // BARE-NEXT: {{^}}                                 ^{{$}}
  // NOCARET: diag-clang-columns.c:[[@LINE+2]]:34: error: use of undeclared identifier 'b'
  // NOCARET-NEXT: diag-clang-columns.c:[[@LINE+10]]:54: error: expression must have integral
  #pragma acc parallel loop copy(b[0:n])
  for (int i = 0; i < n; i++) a[i] = i;

  // CHECK: diag-clang-columns.c:[[@LINE+6]]:54: error: expression must have integral or unscoped enumeration type, not 'struct S'
  // CHECK-NEXT: {{^}}   [[@LINE+5]] |   #pragma acc parallel loop copyin(a[0:m]) num_gangs(s)
  // CHECK-NEXT: {{^}}      |                                                      ^{{$}}
  // CHECK: diag-clang-columns.c:[[@LINE+3]]:40: error: use of undeclared identifier 'm'
  // CHECK-NEXT: {{^}}   [[@LINE+2]] |   #pragma acc parallel loop copyin(a[0:m]) num_gangs(s)
  // CHECK-NEXT: {{^}}      |                                        ^{{$}}
  #pragma acc parallel loop copyin(a[0:m]) num_gangs(s)
  for (int i = 0; i < n; i++) a[i] = i;

  // The fix-it follows the caret; the note is on the user's own line and stays as clang wrote it.
  // CHECK-NEXT: diag-clang-columns.c:[[@LINE+5]]:41: error: use of undeclared identifier 'sum2'; did you mean 'sum'?
  // CHECK-NEXT: {{^}}   [[@LINE+4]] |   #pragma acc parallel loop reduction(+:sum2)
  // CHECK-NEXT: {{^}}      |                                         ^{{$}}
  // CHECK-NEXT: {{^}}      |                                         sum{{$}}
  // CHECK-NEXT: diag-clang-columns.c:19:10: note: 'sum' declared here
  #pragma acc parallel loop reduction(+:sum2)
  for (int i = 0; i < n; i++) sum += a[i];

  // A tab before the pragma: the column counts it as one, the quote shows it as clang does.
  // The OpenMP of a kernels region names kk and q several times: each error is shown once.
  // NOCARET: diag-clang-columns.c:[[@LINE+8]]:27: error: use of undeclared identifier 'kk'
  // NOCARET-NEXT: diag-clang-columns.c:[[@LINE+7]]:42: error: use of undeclared identifier 'q'
  // CHECK: diag-clang-columns.c:[[@LINE+6]]:27: error: use of undeclared identifier 'kk'
  // CHECK-NEXT: {{^}}   [[@LINE+5]] |         #pragma acc kernels copy(kk[0:n]) async(q)
  // CHECK-NEXT: {{^}}      |                                  ^{{$}}
  // CHECK-NEXT: diag-clang-columns.c:[[@LINE+3]]:42: error: use of undeclared identifier 'q'
  // CHECK-NEXT: {{^}}   [[@LINE+2]] |         #pragma acc kernels copy(kk[0:n]) async(q)
  // CHECK-NEXT: {{^}}      |                                                 ^{{$}}
	#pragma acc kernels copy(kk[0:n]) async(q)
  for (int i = 0; i < n; i++) a[i] = i;

  // CHECK-NEXT: diag-clang-columns.c:[[@LINE+3]]:20: error: use of undeclared identifier 'q2'
  // CHECK-NEXT: {{^}}   [[@LINE+2]] |   #pragma acc wait(q2)
  // CHECK-NEXT: {{^}}      |                    ^{{$}}
  #pragma acc wait(q2)

  // CHECK-NEXT: diag-clang-columns.c:[[@LINE+3]]:35: error: no member named 'w' in 'struct S'
  // CHECK-NEXT: {{^}}   [[@LINE+2]] |   #pragma acc enter data copyin(s.w[0:n], s.v[0:n])
  // CHECK-NEXT: {{^}}      |                                   ^{{$}}
  #pragma acc enter data copyin(s.w[0:n], s.v[0:n])

  // On the continuation line.
  // CHECK-NEXT: diag-clang-columns.c:[[@LINE+4]]:15: error: use of undeclared identifier 'cont'
  // CHECK-NEXT: {{^}}   [[@LINE+3]] |       present(cont[0:n])
  // CHECK-NEXT: {{^}}      |               ^{{$}}
  #pragma acc parallel loop copy(a[0:n]) \
      present(cont[0:n])
  for (int i = 0; i < n; i++) a[i] = i;

  // A macro inside the pragma: the expanded text is not the user's, so the pragma.
  // CHECK-NEXT: diag-clang-columns.c:[[@LINE+3]]:3: error: use of undeclared identifier 'nn'
  // CHECK-NEXT: {{^}}   [[@LINE+2]] |   #pragma acc parallel loop copy(a[0:NN])
  // CHECK-NEXT: {{^}}      |   ^{{$}}
  #pragma acc parallel loop copy(a[0:NN])
  for (int i = 0; i < n; i++) a[i] = i;

  // A pragma from _Pragma in a macro: no column to give, nothing true to quote.
  // CHECK-NEXT: diag-clang-columns.c:[[@LINE+2]]: error: use of undeclared identifier 'b3'
  // CHECK-NEXT: errors generated.
  PAR
  for (int i = 0; i < n; i++) a[i] = i;
}

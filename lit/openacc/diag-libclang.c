// Every libclang failure is an error, never a translation made from part of a tree (which could
// lack, say, an inserted taskwait): PTXCC_TEST_LIBCLANG_FAULT makes the front end see each kind of
// failure; errors in the program itself are reported at their line. Nothing is written.
// RUN: rm -f %t.o
// RUN: env PTXCC_TEST_LIBCLANG_FAULT=load not %ptxcc -fopenacc -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: not test -e %t.o
// LOAD: ptxcc: error: cannot translate the OpenACC directives of '{{.*}}diag-libclang.c': cannot load libclang
// RUN: env PTXCC_TEST_LIBCLANG_FAULT=index not %ptxcc -fopenacc -fopenacc-print=omp %s 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: ptxcc: error: cannot translate the OpenACC directives of '{{.*}}diag-libclang.c': libclang could not create an index
// RUN: env PTXCC_TEST_LIBCLANG_FAULT=parse not %ptxcc -fopenacc -fopenacc-print=omp %s 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: ptxcc: error: cannot translate the OpenACC directives of '{{.*}}': libclang could not parse the translation unit (libclang failed, error 1
// RUN: env PTXCC_TEST_LIBCLANG_FAULT=crash not %ptxcc -fopenacc -fopenacc-print=omp %s 2>&1 | FileCheck %s --check-prefix=CRASH
// CRASH: ptxcc: error: cannot translate the OpenACC directives of '{{.*}}': libclang could not parse the translation unit (libclang crashed, error 2
// RUN: env PTXCC_TEST_LIBCLANG_FAULT=cursor not %ptxcc -fopenacc -fopenacc-print=omp %s 2>&1 | FileCheck %s --check-prefix=CURSOR
// CURSOR: ptxcc: error: {{.*}}: libclang gave a null translation-unit cursor
// RUN: env PTXCC_TEST_LIBCLANG_FAULT=tree not %ptxcc -fopenacc -fopenacc-print=omp %s 2>&1 | FileCheck %s --check-prefix=TREE
// TREE: ptxcc: error: {{.*}}: incomplete tree from libclang: cannot read the statement at offset
// RUN: env PTXCC_TEST_LIBCLANG_FAULT=hang PTXCC_LIBCLANG_TIMEOUT=0.5 not %ptxcc -fopenacc -fopenacc-print=omp %s 2>&1 | FileCheck %s --check-prefix=HANG
// HANG: ptxcc: error: {{.*}}: libclang did not finish reading the translation unit within 0.5 s (PTXCC_LIBCLANG_TIMEOUT sets the limit)
// RUN: env PTXCC_LIBCLANG_TIMEOUT=soon not %ptxcc -fopenacc -fopenacc-print=omp %s 2>&1 | FileCheck %s --check-prefix=BADENV
// BADENV: ptxcc: error: {{.*}}: PTXCC_LIBCLANG_TIMEOUT='soon' is not a positive number of seconds
//
// Each failure stops the translation: no translated text, and no error per directive after it.
// RUN: env PTXCC_TEST_LIBCLANG_FAULT=parse not %ptxcc -fopenacc -fopenacc-print=omp %s > %t.out 2> %t.err
// RUN: count 0 < %t.out
// RUN: count 1 < %t.err
//
// Errors in the program: at their line, then why the translation stopped.
// RUN: not %ptxcc -fopenacc -DBROKEN -fopenacc-print=omp %s 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: diag-libclang.c:[[@LINE+15]]:38: error: use of undeclared identifier 'undeclared'
// BROKEN-NEXT: diag-libclang.c:[[@LINE+23]]:11: error: expected expression
// BROKEN-NEXT: ptxcc: error: cannot translate the OpenACC directives of '{{.*}}diag-libclang.c': clang found 2 errors in it
// BROKEN-NEXT: 2 errors generated.
// BROKEN-NOT: error
//
// Warnings that are errors by default leave the tree whole: the compile reports them.
// RUN: %ptxcc -fopenacc -DIMPLICIT -fopenacc-print=omp %s | FileCheck %s --check-prefix=IMPLICIT
// IMPLICIT: #pragma omp target teams distribute parallel for

void f(int n, float *a) {
  #pragma acc parallel loop copy(a[0:n]) async(1)
  for (int i = 0; i < n; i++) a[i] += 1;
#ifdef BROKEN
  #pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] = undeclared + 1;
#endif
#ifdef IMPLICIT
  implicitly_declared(a);
#endif
  #pragma acc wait(1)
}
#ifdef BROKEN
int g(void) {
  int x = ;
  return x;
}
#endif

// ptxcc's own errors: `ptxcc: error: ...` on stderr and exit status 1 (never a panic).
//
// RUN: not %ptxcc 2>&1 | FileCheck %s --check-prefix=NOINPUT
// NOINPUT: ptxcc: error: no input files
// RUN: %python %S/Inputs/expect-status.py 1 -- %ptxcc
// RUN: not %ptxcc -c %s.missing.c 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: ptxcc: error: no such file or directory: '{{.*}}errors.c.missing.c'
// RUN: not %ptxcc %s -o 2>&1 | FileCheck %s --check-prefix=NOARG
// NOARG: ptxcc: error: argument to '-o' is missing (expected 1 value)
// RUN: not %ptxcc %s -I 2>&1 | FileCheck %s --check-prefix=NOARGI
// NOARGI: ptxcc: error: argument to '-I' is missing (expected 1 value)
// RUN: not %ptxcc -c - 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: ptxcc: error: reading the source from standard input ('-') is not supported; name a file
// RUN: not %ptxcc -c %S/Inputs/no-such.cpp 2>&1 | FileCheck %s --check-prefix=CXX
// CXX: ptxcc: error: '{{.*}}no-such.cpp': ptxcc compiles C only (.c, .i, .ll, .bc, .s and linker inputs)
// RUN: not %ptxcc -x c++ -c %s 2>&1 | FileCheck %s --check-prefix=LANG
// LANG: ptxcc: error: language 'c++' given with -x is not supported: ptxcc compiles C
// RUN: not %ptxcc -fno-openmp -c %s 2>&1 | FileCheck %s --check-prefix=NOOMP
// NOOMP: ptxcc: error: '-fno-openmp' is not supported: ptxcc always compiles OpenMP
// RUN: not %ptxcc -fopenmp=libgomp -c %s 2>&1 | FileCheck %s --check-prefix=GOMP
// GOMP: ptxcc: error: '-fopenmp=libgomp' is not supported: ptxcc uses LLVM's OpenMP runtime (-fopenmp)
// RUN: not %ptxcc -fopenacc-print=acc %s 2>&1 | FileCheck %s --check-prefix=PRINT
// PRINT: ptxcc: error: invalid value 'acc' in '-fopenacc-print=': ptxcc prints 'omp' only
// RUN: not %ptxcc -fsyntax-only %S/Inputs/bad.ll 2>&1 | FileCheck %s --check-prefix=SYNTAXIR
// SYNTAXIR: ptxcc: error: '{{.*}}bad.ll': -fsyntax-only needs a C source
// RUN: not %ptxcc -fopenacc-print=omp %S/Inputs/bad.ll 2>&1 | FileCheck %s --check-prefix=PRINTIR
// PRINTIR: ptxcc: error: '{{.*}}bad.ll': -fopenacc-print=omp needs a C source
//
// An LLVM IR input that does not parse.
// RUN: not %ptxcc -c %S/Inputs/bad.ll -o %t.o 2>&1 | FileCheck %s --check-prefix=BADIR
// BADIR: ptxcc: error: '{{.*}}bad.ll' is not valid LLVM IR: {{.*}}
//
// Files ptxcc cannot write.
// RUN: not %ptxcc --emit=host-ir %s -o %t.nodir/x.ll 2>&1 | FileCheck %s --check-prefix=WRITE
// WRITE: ptxcc: error: cannot write '{{.*}}.nodir/x.ll': No such file or directory
// RUN: not env TMPDIR=%t.nodir %ptxcc -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=TMP
// TMP: ptxcc: error: cannot create a temporary directory: {{.*}}
//
// The clang ptxcc runs: PTXCC_CLANG must name one that runs.
// RUN: not env PTXCC_CLANG=%t.nodir/clang %ptxcc -c %s 2>&1 | FileCheck %s --check-prefix=NOCLANG
// NOCLANG: ptxcc: error: PTXCC_CLANG names '{{.*}}.nodir/clang', which does not exist
// RUN: not env PTXCC_CLANG=no-such-clang-ptxcc %ptxcc -c %s 2>&1 | FileCheck %s --check-prefix=NOTONPATH
// NOTONPATH: ptxcc: error: PTXCC_CLANG names 'no-such-clang-ptxcc', which is not on PATH
// RUN: not env PTXCC_CLANG=%s %ptxcc -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOEXEC
// NOEXEC: ptxcc: error: cannot run '{{.*}}errors.c': Permission denied
// RUN: not env PTXCC_CLANG=%S/Inputs/crashing-clang.sh %ptxcc -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=SIGNAL
// SIGNAL: ptxcc: error: crashing-clang.sh terminated by signal 11
int main(void) { return 0; }

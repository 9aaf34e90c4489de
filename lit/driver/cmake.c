// CMake with CC=ptxcc: the compiler is identified as Clang 19, find_package(OpenMP) finds
// -fopenmp, and find_package(OpenACC) finds -fopenacc (spec date 201811) once ACC_FLAG_Clang
// names it: CMake's FindOpenACC (3.25) has no flag for Clang-identified compilers and its
// fallback list never reaches the caller, so without it CMake reports "Could NOT find
// OpenACC_C" for any Clang-based compiler (README: Using it with CMake).
// REQUIRES: cmake
// RUN: rm -rf %t && mkdir -p %t
// RUN: env CC=%ptxcc cmake -S %S/Inputs/cmake-project -B %t -DACC_FLAG_Clang=-fopenacc 2>&1 | FileCheck %s --check-prefix=CONFIGURE
// CONFIGURE: The C compiler identification is Clang 19
// CONFIGURE: Found OpenMP_C: -fopenmp{{(=libomp)?}}
// CONFIGURE: Found OpenACC_C: -fopenacc
// CONFIGURE: ptxcc OpenMP flags: -fopenmp{{(=libomp)?}}; OpenACC flags: -fopenacc; OpenACC spec date: 201811
// RUN: cmake --build %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t/omp_prog | FileCheck %s --check-prefix=OMP
// OMP: omp PASS
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t/acc_prog | FileCheck %s --check-prefix=ACC
// ACC: acc PASS

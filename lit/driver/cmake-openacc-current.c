// find_package(OpenACC) with CC=ptxcc and a current CMake (3.31 on, whose FindOpenACC gives
// Clang-identified compilers -fopenacc): found with no extra definition, and the OpenACC program
// it builds offloads. Debian's CMake 3.25 needs -DACC_FLAG_Clang=-fopenacc (lit/driver/cmake.c);
// scripts/setup-cmake-current.sh (run by setup.sh and CI) installs one from PyPI into .cmake-venv.
// REQUIRES: cmake-openacc-clang
// RUN: rm -rf %t && mkdir -p %t
// RUN: env CC=%ptxcc %cmake_current -S %S/Inputs/cmake-project -B %t 2>&1 | FileCheck %s --check-prefix=CONFIGURE
// CONFIGURE: The C compiler identification is Clang 19
// CONFIGURE: Found OpenACC_C: -fopenacc
// CONFIGURE: OpenACC flags: -fopenacc; OpenACC spec date: 201811
// RUN: %cmake_current --build %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t/acc_prog | FileCheck %s --check-prefix=ACC
// ACC: acc PASS

// Questions about the toolchain (-print-*, -dumpversion, -dumpmachine) are clang's to answer;
// build systems ask them of $CC.
// RUN: %ptxcc -dumpmachine | FileCheck %s --check-prefix=MACHINE
// MACHINE: x86_64
// RUN: %ptxcc -dumpversion | FileCheck %s --check-prefix=VERSION
// VERSION: 19.
// RUN: %ptxcc -print-file-name=libomp.so | FileCheck %s --check-prefix=FILE
// FILE: libomp.so
// RUN: %ptxcc -### --offload-arch=sm_80 -print-search-dirs 2>&1 | FileCheck %s --check-prefix=CMD
// CMD: "-print-search-dirs"
// CMD-NOT: offload-arch
int main(void) { return 0; }

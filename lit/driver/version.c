// --version names ptxcc and the clang it runs; --help lists the flags.
// RUN: %ptxcc --version | FileCheck %s
// CHECK: ptxcc version {{[0-9]+\.[0-9]+\.[0-9]+}}
// CHECK-SAME: default --offload-arch=sm_90
// CHECK: clang: {{.*}}clang
// CHECK: clang version 19.
//
// RUN: env PTXCC_CLANG=/usr/lib/llvm-19/bin/clang %ptxcc --version | FileCheck %s --check-prefix=ENV
// ENV: clang: /usr/lib/llvm-19/bin/clang
//
// RUN: %ptxcc --help | FileCheck %s --check-prefix=HELP
// HELP: USAGE: ptxcc [options] file...
// HELP: --offload-arch=sm_<NN>
// HELP: --emit=ptx|device-ir|host-ir
// HELP: -save-temps
// HELP: -fptxcc-layout=auto|none
// HELP: Default: auto at -O2 and above
//
// -v alone prints the version and succeeds, like clang.
// RUN: %ptxcc -v 2>&1 | FileCheck %s --check-prefix=V
// V: ptxcc version
// V: clang:
int main(void) { return 0; }

// -l, -L, -Wl, and -Xlinker keep their places among the inputs; the runtime and the libraries it
// needs come after all of them; link-only flags reach only the link.
// REQUIRES: libptxrt
// RUN: rm -rf %t && mkdir -p %t && touch %t/x.o
// RUN: %ptxcc -### %s -lm %t/x.o -L/some/dir -Wl,--as-needed -Xlinker --no-undefined -static -o out 2>&1 | FileCheck %s
// CHECK: "-E"
// CHECK-NOT: "-static"
// CHECK: "-fopenmp" "-static" "{{[^"]*}}link-flags.o" "-lm" "{{[^"]*}}/x.o" "-L/some/dir" "-Wl,--as-needed" "-Xlinker" "--no-undefined" "{{[^"]*}}libptxrt.a" "-lpthread" "-ldl" "-lm" {{.*}}"-o" "out"
//
// They work: -lm resolves sqrt of a run-time value, -Wl,-Map writes the map file.
// RUN: %ptxcc %s -o %t/prog -lm -Wl,-Map=%t/prog.map
// RUN: %t/prog 2 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=MAP < %t/prog.map
// OUT: sqrt(2) = 1.414
// MAP: main
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  double x = argc > 1 ? atof(argv[1]) : 4.0;
  printf("sqrt(%g) = %.3f\n", x, sqrt(x));
  return 0;
}

// PTXRT_LAYOUT_AUTO says what libptxrt does with the layouts -fptxcc-layout=auto chose
// (ptx-runtime/src/layout/tune.rs): `tune` (the default) chooses at each launch between the
// kernel and its version by their times, and PTXRT_PROFILE reports how many launches ran in
// each layout (which, by the host's clock, depends on the machine: the sum is checked);
// `never` keeps the original layout (no launch in auto's, nothing converted); `always`
// converts and runs every version. A value it does not know stops the
// program with what it accepts. The answers are the serial ones each time.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto %s -o %t
// RUN: env PTXRT_PROFILE=json:%t.json %run %t | FileCheck %s
// RUN: %python -c "import json,sys; [print('launches', l['original_launches'] + l['layout_launches'], l['original_launches'] >= 1) for l in json.load(open(sys.argv[1]))['layouts']]" %t.json | FileCheck %s --check-prefix=TUNE
// RUN: env PTXRT_LAYOUT_AUTO=never PTXRT_PROFILE=json:%t.never.json PTXRT_DEBUG=1 %run %t 2>%t.never.err | FileCheck %s
// RUN: %python -c "import json,sys; [print('never', l['original_launches'], l['layout_launches']) for l in json.load(open(sys.argv[1]))['layouts']]" %t.never.json | FileCheck %s --check-prefix=NEVER
// RUN: FileCheck %s --check-prefix=NOCONV < %t.never.err
// RUN: env PTXRT_LAYOUT_AUTO=always PTXRT_PROFILE=json:%t.always.json PTXRT_DEBUG=1 %run %t 2>&1 | FileCheck %s --check-prefix=ALWAYS
// RUN: %python -c "import json,sys; [print('always', l['original_launches'], l['layout_launches']) for l in json.load(open(sys.argv[1]))['layouts']]" %t.always.json | FileCheck %s --check-prefix=ALWAYS-JSON
// RUN: env PTXRT_LAYOUT_AUTO=sometimes %run not %t 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: sums: ok
// TUNE: launches 12 True
// NEVER: never 12 0
// NOCONV-NOT: ptxrt: layout:
// NOCONV: launch {{.*}}_l{{[0-9]+}}'
// NOCONV-NOT: ptxrt: layout:
// NOCONV-NOT: _layout1'
// ALWAYS-NOT: _l{{[0-9]+}}',
// ALWAYS: launch {{.*}}_layout1'
// ALWAYS: sums: ok
// ALWAYS-JSON: always 0 12
// BAD: PTXRT_LAYOUT_AUTO="sometimes" is not one of tune {{.*}}, always {{.*}} or never
#include <stdio.h>

#define R 512
#define C 64
static double a[R][C], sum[R];

int main(void) {
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      a[i][j] = (i % 5) + 0.5 * j;
#pragma omp target data map(to : a) map(tofrom : sum)
  for (int it = 0; it < 12; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < R; i++) {
      double s = 0;
      for (int j = 0; j < C; j++)
        s += a[i][j];
      sum[i] += s;
    }
  }
  int bad = 0;
  for (int i = 0; i < R; i++) {
    double s = 0;
    for (int j = 0; j < C; j++)
      s += a[i][j];
    bad += sum[i] != 12 * s;
  }
  printf("sums: %s\n", bad ? "WRONG" : "ok");
  return bad;
}

// The layouts -fptxcc-layout=auto chose are a choice libptxrt makes at each launch, on what
// they measured (ptx-runtime/src/layout/tune.rs): auto's begin converts nothing, the kernel
// runs in the original layout until its launches took longer than converting the array there
// and back (before a conversion ran, reading and writing the array at the bandwidth the
// device reports: ptxsim's H100, 3.35 TB/s), then its version in auto's layout once
// (converting the array), and then the state that costs less stays, a switch waiting until
// the savings of one run of the region pay for two conversions. On ptxsim with PTXSIM_STATS
// the times are the H100 model's estimates, so the choices are the same on every machine:
// * `pays`: a[4096][256] of doubles summed along rows, a thread a row (each warp load touches
//   32 sectors; in auto's [256][4096] 8), 8 launches in one data region: the model gives
//   8.1 us a launch in the original layout, 4.8 in auto's; converting the 8 MB array there and
//   back is estimated at 10 us, so 2 launches run in the original layout, 6 in auto's.
// * `costs`: a 64x64x64 array of which the kernel reads one element per i, 64 doubles, in 10
//   launches per run of its region, the region run 4 times: the version saves nothing
//   measurable and a conversion moves 2 MB (2.5 us there and back, estimated: two launches).
//   The probe converts at the third launch of the first run (which then stays converted:
//   going back would cost more than staying), the other runs never convert: 32 launches in
//   the original layout, 8 in auto's. Each array is converted once (the
//   copies die with their regions: nothing converts back), where PTXRT_LAYOUT_AUTO=always
//   converts `b` as it arrives in each of the 4 runs.
// A conversion at a launch writes the converted array into new device memory, which the entry
// then owns, and the launch's parameters follow it (layout::convert_by_moving): no copy back
// (ptxsim's device_copies stay 0). PTXRT_PROFILE reports the launches of each kernel in each
// layout. Answers are the serial ones.
// REQUIRES: ptxsim
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: rm -f %t.json
// RUN: env PTXSIM_STATS=json:%t.stats PTXRT_PROFILE=json:%t.json %run %t | FileCheck %s
// RUN: %python -c "import json,sys; [print(l['name'].split('_')[-2], l['original_launches'], l['layout_launches'], l['modeled_clock']) for l in json.load(open(sys.argv[1]))['layouts']]" %t.json | FileCheck %s --check-prefix=TUNED
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('conversions', sum(k['launches'] for k in d['kernels'] if 'ptxrt_layout' in k['name']), 'copies', d['device_copies']['count'])" %t.stats | FileCheck %s --check-prefix=CONV
// RUN: env PTXSIM_STATS=json:%t.always PTXRT_LAYOUT_AUTO=always %run %t | FileCheck %s
// RUN: %python -c "import json,sys; print('conversions', sum(k['launches'] for k in json.load(open(sys.argv[1]))['kernels'] if 'ptxrt_layout' in k['name']))" %t.always | FileCheck %s --check-prefix=ALWAYS
// INFO-DAG: auto-tuning-ptxsim.c:[[#COSTS:]]:1: layout: b[64][64][64] -> [64][64][64]
// INFO-DAG: auto-tuning-ptxsim.c:[[#PAYS:]]:1: layout: a[4096][256] -> [256][4096]
// CHECK: pays: ok
// CHECK: costs: ok
// CHECK: PASS
// TUNED-DAG: costs 32 8 True
// TUNED-DAG: main 2 6 True
// CONV: conversions 2 copies 0
// ALWAYS: conversions 5
#define LAUNCHES 8
#include <math.h>
#include <stdio.h>

#define R 4096
#define C 256
static double a[R][C], sum[R];
#define N 64
static double b[N][N][N], row[N];

static void costs(int runs_in_region) {
#pragma omp target data map(to : b) map(tofrom : row)
  for (int r = 0; r < runs_in_region; r++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      row[i] += b[i][3][5];
  }
}

int main(void) {
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      a[i][j] = (i % 7) + 0.25 * j;
#pragma omp target data map(to : a) map(tofrom : sum)
  for (int it = 0; it < LAUNCHES; it++) {
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
    bad += fabs(sum[i] - LAUNCHES * s) > 1e-9 * fabs(LAUNCHES * s);
  }
  printf("pays: %s\n", bad ? "WRONG" : "ok");
  int bad2 = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        b[i][j][k] = i - j + 0.5 * k;
  for (int run = 0; run < 4; run++)
    costs(10);
  for (int i = 0; i < N; i++)
    bad2 += row[i] != 40 * b[i][3][5];
  printf("costs: %s\n", bad2 ? "WRONG" : "ok");
  printf("%s\n", bad || bad2 ? "FAIL" : "PASS");
  return 0;
}

// The tuning counts no way back for a copy that dies in auto's layout (layout::way_back_free:
// the region's own data clauses made the copy, without asking for it back): once a kernel's
// version is known to pay, a later run of the region switches to it when its savings pass one
// conversion instead of two. Two arrays of 4096x256 doubles summed along rows, a thread a row
// (the model: 8.1 us a launch in the original layout, 4.8 in auto's, 3.3 saved; a conversion
// of the 8 MB array 7.6 us), each in a region of 8 launches run 3 times: `a` mapped `to` (it
// dies converted), `c` mapped `tofrom` (its copy-out converts it back). The first run of each
// tries the version at its third launch (a probe always counts the way back: the version might
// be slower; 16.2 us of launches against 2 x 5.0 estimated). In the later runs `a` switches at
// the third launch (9.9 us saved > 7.6), `c` at the fifth (16.5 > 2 x 7.6): 6 launches of 24 in
// the original layout against 10. Conversions: `a` one a run, `c` two (9 in all). Answers are
// the serial ones.
// REQUIRES: ptxsim
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto -fptxcc-info %s -o %t 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: rm -f %t.json
// RUN: env PTXSIM_STATS=json:%t.stats PTXRT_PROFILE=json:%t.json %run %t | FileCheck %s
// RUN: %python -c "import json,sys; [print(l['name'].split('_')[-2], l['original_launches'], l['layout_launches']) for l in json.load(open(sys.argv[1]))['layouts']]" %t.json | FileCheck %s --check-prefix=TUNED
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('conversions', sum(k['launches'] for k in d['kernels'] if 'ptxrt_layout' in k['name']), 'copies', d['device_copies']['count'])" %t.stats | FileCheck %s --check-prefix=CONV
// INFO-DAG: auto-tuning-dies-ptxsim.c:[[#]]:1: layout: a[4096][256] -> [256][4096]
// INFO-DAG: auto-tuning-dies-ptxsim.c:[[#]]:1: layout: c[4096][256] -> [256][4096]
// CHECK: to: ok
// CHECK: tofrom: ok
// CHECK: PASS
// TUNED-DAG: dies 6 18
// TUNED-DAG: back 10 14
// CONV: conversions 9 copies 0
#include <math.h>
#include <stdio.h>

#define R 4096
#define C 256
static double a[R][C], c[R][C], sa[R], sc[R];

static void dies(void) {
#pragma omp target data map(to : a) map(tofrom : sa)
  for (int it = 0; it < 8; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < R; i++) {
      double s = 0;
      for (int j = 0; j < C; j++)
        s += a[i][j];
      sa[i] += s;
    }
  }
}

static void back(void) {
#pragma omp target data map(tofrom : c) map(tofrom : sc)
  for (int it = 0; it < 8; it++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < R; i++) {
      double s = 0;
      for (int j = 0; j < C; j++)
        s += c[i][j];
      sc[i] += s;
    }
  }
}

static int check(double (*m)[C], const double *s) {
  int bad = 0;
  for (int i = 0; i < R; i++) {
    double t = 0;
    for (int j = 0; j < C; j++)
      t += m[i][j];
    bad += fabs(s[i] - 24 * t) > 1e-9 * fabs(24 * t);
  }
  return bad;
}

int main(void) {
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      a[i][j] = c[i][j] = (i % 7) + 0.25 * j;
  for (int r = 0; r < 3; r++) {
    dies();
    back();
  }
  int bad = check(a, sa), bad2 = check(c, sc);
  printf("to: %s\n", bad ? "WRONG" : "ok");
  printf("tofrom: %s\n", bad2 ? "WRONG" : "ok");
  printf("%s\n", bad || bad2 ? "FAIL" : "PASS");
  return 0;
}

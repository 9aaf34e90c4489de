/*
 * ts_common.h — shared by every test-suite program (serial, OpenMP, OpenACC and CUDA versions).
 *
 *  - the problem class: argv[1] is one of S W A B C (or the environment variable TS_CLASS; default S);
 *    further arguments are key=value options read with ts_opt_long ("iters=5", "w=16");
 *  - a monotonic timer (ts_now);
 *  - the result line the harness parses, one per measured kernel:
 *      RESULT name=stream_triad class=S variant=omp iters=10 calls=11 time_s=1.2e-05 metric=GB/s
 *             value=12.3 bytes=2.4e+06 flops=0 bwbound=1 verified=1 rtol=1e-12 checksum=... kernel=stream_triad stat=min
 *    time_s is the time of one iteration (the program's own timer; stat says whether it is the mean or, as
 *    STREAM reports, the best of the timed iterations); calls is how many times the iteration
 *    body ran in all (warm-up included), so that the harness can divide PTXRT_PROFILE kernel totals by it;
 *    kernel is a substring of the offload kernel names (the function holding the target region) whose time
 *    PTXRT_PROFILE reports; checksum is compared with the serial version's within rtol.
 *  - the verification line, as NPB prints it: VERIFICATION SUCCESSFUL / VERIFICATION FAILED.
 *
 * Header-only on purpose: a program is one .c (or .cu) file plus its own header, so every compiler in the
 * comparison builds it with one command line and nothing else to link.
 */
#ifndef TS_COMMON_H
#define TS_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TS_VARIANT
#error "define TS_VARIANT (\"serial\", \"omp\", \"acc\" or \"cuda\") before including ts_common.h"
#endif

/* GCC, clang and nvcc (C and C++, any standard) */
#define TS_UNUSED __attribute__((unused))

TS_UNUSED static double ts_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Class index 0..4 for S W A B C; exits with a message on anything else. */
TS_UNUSED static int ts_class_index(char c) {
  switch (c) {
  case 'S': return 0;
  case 'W': return 1;
  case 'A': return 2;
  case 'B': return 3;
  case 'C': return 4;
  default:
    fprintf(stderr, "unknown class '%c' (expected S, W, A, B or C)\n", c);
    exit(2);
  }
}

TS_UNUSED static char ts_class(int argc, char **argv) {
  const char *s = NULL;
  if (argc > 1 && strchr(argv[1], '=') == NULL)
    s = argv[1];
  else
    s = getenv("TS_CLASS");
  char c = (s && s[0]) ? s[0] : 'S';
  if (c >= 'a' && c <= 'z')
    c = (char)(c - 'a' + 'A');
  (void)ts_class_index(c);
  return c;
}

/* Value of a "key=value" argument, or def. */
TS_UNUSED static long ts_opt_long(int argc, char **argv, const char *key, long def) {
  size_t n = strlen(key);
  for (int i = 1; i < argc; i++)
    if (strncmp(argv[i], key, n) == 0 && argv[i][n] == '=')
      return strtol(argv[i] + n + 1, NULL, 10);
  return def;
}

typedef struct ts_result {
  const char *name;    /* e.g. "stream_triad" (a program may report several)          */
  char cls;            /* S W A B C                                                    */
  long iters;          /* timed iterations                                             */
  long calls;          /* executions of the iteration body, warm-up included           */
  double time_s;       /* seconds per iteration                                        */
  const char *metric;  /* "GB/s", "GFLOP/s" or "Mop/s"                                 */
  double value;        /* the metric at time_s                                         */
  double bytes;        /* bytes moved per iteration (for bandwidth-bound programs)     */
  double flops;        /* floating-point operations per iteration                      */
  int bwbound;         /* 1 when memory bandwidth bounds the kernel                    */
  int verified;        /* 1 passed, 0 failed                                           */
  double rtol;         /* tolerance for comparing checksum with the serial version     */
  double checksum;     /* a number that summarises the result                          */
  const char *kernel;  /* substring of the kernel names that time this result         */
  const char *stat;    /* "mean" (default when NULL) or "min": how time_s summarises    */
} ts_result;

TS_UNUSED static void ts_print_result(const ts_result *r) {
  printf("RESULT name=%s class=%c variant=%s iters=%ld calls=%ld time_s=%.6e metric=%s value=%.6g "
         "bytes=%.6g flops=%.6g bwbound=%d verified=%d rtol=%.3g checksum=%.17g kernel=%s stat=%s\n",
         r->name, r->cls, TS_VARIANT, r->iters, r->calls, r->time_s, r->metric, r->value, r->bytes, r->flops,
         r->bwbound, r->verified, r->rtol, r->checksum, r->kernel ? r->kernel : r->name, r->stat ? r->stat : "mean");
  fflush(stdout);
}

TS_UNUSED static void ts_print_verification(int ok) {
  printf(ok ? " VERIFICATION SUCCESSFUL\n" : " VERIFICATION FAILED\n");
  fflush(stdout);
}

/* |a - b| <= rtol * max(|a|, |b|), or both tiny. */
TS_UNUSED static int ts_close(double a, double b, double rtol) {
  double d = fabs(a - b), m = fmax(fabs(a), fabs(b));
  return d <= rtol * m || d < 1e-300;
}

/* Aborts with a message when an allocation fails. */
TS_UNUSED static void *ts_alloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
    exit(3);
  }
  return p;
}

/* Prints the header every program starts with. */
TS_UNUSED static void ts_banner(const char *program, char cls, const char *sizes) {
  printf(" %s (%s) class %c: %s\n", program, TS_VARIANT, cls, sizes);
  fflush(stdout);
}

#endif

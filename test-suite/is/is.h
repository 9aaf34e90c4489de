/*
 * NPB IS (integer sort), written from the NAS Parallel Benchmarks specification: NUM_KEYS integer keys in
 * [0, MAX_KEY), each the scaled mean of four NPB pseudo-random numbers (seed 314159265, a = 5^13), are
 * ranked MAX_ITERATIONS = 10 times. Before ranking in iteration it, key[it] = it and
 * key[it + 10] = MAX_KEY - it. Ranking is a counting sort: count the keys (a histogram, which needs atomic
 * increments in parallel), prefix-sum the counts (the rank of key k is the number of keys below k).
 * Partial verification after each ranking compares the ranks of five keys at indices fixed by the
 * specification with its values (shifted by the iteration number in the pattern it prescribes per
 * class); full verification at the end sorts the keys by their ranks and checks the order.
 * Classes (keys, max key): S (2^16, 2^11), W (2^20, 2^16), A (2^23, 2^19), B (2^25, 2^21), C (2^27, 2^23).
 * Metric: Mop/s = 10 NUM_KEYS / time / 10^6, as NPB reports it.
 */
#ifndef IS_H
#define IS_H
#include "../common/ts_common.h"
#include "../common/npb_random.h"

#define IS_MAX_ITERATIONS 10
#define IS_TEST_SIZE 5
#define IS_SCAN_CHUNK 1024 /* counts per chunk of the parallel prefix sum */

typedef struct {
  char cls;
  long num_keys, max_key;
  long test_index[IS_TEST_SIZE], test_rank[IS_TEST_SIZE];
} is_params;

static is_params is_setup(int argc, char **argv) {
  static const int keys_log2[5] = {16, 20, 23, 25, 27}, max_log2[5] = {11, 16, 19, 21, 23};
  static const long index[5][IS_TEST_SIZE] = {{48427, 17148, 23627, 62548, 4431},
                                              {357773, 934767, 875723, 898999, 404505},
                                              {2112377, 662041, 5336171, 3642833, 4250760},
                                              {41869, 812306, 5102857, 18232239, 26860214},
                                              {44172927, 72999161, 74326391, 129606274, 21736814}};
  static const long rank[5][IS_TEST_SIZE] = {{0, 18, 346, 64917, 65463},
                                             {1249, 11698, 1039987, 1043896, 1048018},
                                             {104, 17523, 123928, 8288932, 8388264},
                                             {33422937, 10244, 59149, 33135281, 99},
                                             {61147, 882988, 266290, 133997595, 133525895}};
  is_params p;
  p.cls = ts_class(argc, argv);
  int c = ts_class_index(p.cls);
  p.num_keys = 1L << keys_log2[c];
  p.max_key = 1L << max_log2[c];
  for (int i = 0; i < IS_TEST_SIZE; i++) {
    p.test_index[i] = index[c][i];
    p.test_rank[i] = rank[c][i];
  }
  char buf[96];
  snprintf(buf, sizeof buf, "%ld keys in [0, %ld), %d iterations", p.num_keys, p.max_key, IS_MAX_ITERATIONS);
  ts_banner("NPB IS", p.cls, buf);
  return p;
}

/* The specification's key sequence. */
static void is_create_keys(const is_params *p, int *key) {
  double seed = 314159265.0, a = 1220703125.0;
  double k = (double)(p->max_key / 4);
  for (long i = 0; i < p->num_keys; i++) {
    double x = npb_randlc(&seed, a);
    x += npb_randlc(&seed, a);
    x += npb_randlc(&seed, a);
    x += npb_randlc(&seed, a);
    key[i] = (int)(k * x);
  }
}

/* Partial verification of iteration `it` (1-based): ranks[i] is the rank of the key found at
 * test_index[i] before ranking (vals[i]). Returns the number of the five tests passed. */
static int is_partial_verify(const is_params *p, int it, const int *vals, const int *ranks) {
  int passed = 0;
  for (int i = 0; i < IS_TEST_SIZE; i++) {
    long k = vals[i];
    if (k <= 0 || k > p->num_keys - 1)
      continue;
    long r = ranks[i], want;
    switch (p->cls) {
    case 'S': want = i <= 2 ? p->test_rank[i] + it : p->test_rank[i] - it; break;
    case 'W': want = i < 2 ? p->test_rank[i] + (it - 2) : p->test_rank[i] - it; break;
    case 'A': want = i <= 2 ? p->test_rank[i] + (it - 1) : p->test_rank[i] - (it - 1); break;
    case 'B': want = (i == 1 || i == 2 || i == 4) ? p->test_rank[i] + it : p->test_rank[i] - it; break;
    default: want = i <= 2 ? p->test_rank[i] + it : p->test_rank[i] - it; break;
    }
    if (r == want)
      passed++;
    else
      printf(" iteration %d: rank of key %ld is %ld, expected %ld\n", it, k, r, want);
  }
  return passed;
}

/* Full verification: place every key at its rank (cum[k] = number of keys <= k, as left by the last
 * ranking) and check that the result is sorted. */
static int is_full_verify(const is_params *p, const int *key, const int *cum) {
  long n = p->num_keys;
  int *pos = (int *)ts_alloc(p->max_key * sizeof(int)), *sorted = (int *)ts_alloc(n * sizeof(int));
  memcpy(pos, cum, p->max_key * sizeof(int));
  for (long i = 0; i < n; i++)
    sorted[--pos[key[i]]] = key[i];
  long bad = 0;
  for (long i = 1; i < n; i++)
    if (sorted[i - 1] > sorted[i])
      bad++;
  free(pos);
  free(sorted);
  if (bad)
    printf(" full verification: %ld keys out of order\n", bad);
  return bad == 0;
}

static int is_report(const is_params *p, int passed, double seconds) {
  int ok = passed == IS_TEST_SIZE * IS_MAX_ITERATIONS + 1;
  printf(" tests passed %d of %d\n", passed, IS_TEST_SIZE * IS_MAX_ITERATIONS + 1);
  double t = seconds / IS_MAX_ITERATIONS;
  ts_result r = {"is", p->cls, IS_MAX_ITERATIONS, IS_MAX_ITERATIONS + 1, t, "Mop/s", 1e-6 * (double)p->num_keys / t,
                 0, 0, 0, ok, 0, (double)passed, "is", NULL};
  ts_print_result(&r);
  ts_print_verification(ok);
  return ok;
}

#endif

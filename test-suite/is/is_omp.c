/* NPB IS, OpenMP target offload: the keys and counts stay on the device (target data); per ranking a
 * plain `target` region edits the keys, a histogram kernel counts with `omp atomic`, a three-phase
 * prefix sum (chunk scans, a one-thread scan of the chunk totals, chunk offsets) turns counts into ranks,
 * and a plain `target` region gathers the five test ranks. */
#define TS_VARIANT "omp"
#include "is.h"

static void is_rank(long n, long mk, int it, const long *ti, int *restrict key, int *restrict cum,
                    int *restrict part, int *vals, int *ranks) {
  long nch = (mk + IS_SCAN_CHUNK - 1) / IS_SCAN_CHUNK;
#pragma omp target map(to : ti[0:IS_TEST_SIZE]) map(from : vals[0:IS_TEST_SIZE])
  {
    key[it] = it;
    key[it + IS_MAX_ITERATIONS] = (int)(mk - it);
    for (int i = 0; i < IS_TEST_SIZE; i++)
      vals[i] = key[ti[i]];
  }
#pragma omp target teams distribute parallel for
  for (long k = 0; k < mk; k++)
    cum[k] = 0;
#pragma omp target teams distribute parallel for
  for (long i = 0; i < n; i++) {
#pragma omp atomic update
    cum[key[i]]++;
  }
#pragma omp target teams distribute parallel for
  for (long c = 0; c < nch; c++) {
    long end = (c + 1) * IS_SCAN_CHUNK < mk ? (c + 1) * IS_SCAN_CHUNK : mk;
    int s = 0;
    for (long k = c * IS_SCAN_CHUNK; k < end; k++) {
      s += cum[k];
      cum[k] = s;
    }
    part[c] = s;
  }
#pragma omp target
  for (long c = 1; c < nch; c++)
    part[c] += part[c - 1];
#pragma omp target teams distribute parallel for
  for (long k = IS_SCAN_CHUNK; k < mk; k++)
    cum[k] += part[k / IS_SCAN_CHUNK - 1];
#pragma omp target map(to : vals[0:IS_TEST_SIZE]) map(from : ranks[0:IS_TEST_SIZE])
  for (int i = 0; i < IS_TEST_SIZE; i++)
    ranks[i] = vals[i] >= 1 ? cum[vals[i] - 1] : 0;
}

int main(int argc, char **argv) {
  is_params p = is_setup(argc, argv);
  long n = p.num_keys, mk = p.max_key, nch = (mk + IS_SCAN_CHUNK - 1) / IS_SCAN_CHUNK;
  int *key = (int *)ts_alloc(n * sizeof(int)), *cum = (int *)ts_alloc(mk * sizeof(int)),
      *part = (int *)ts_alloc(nch * sizeof(int));
  int vals[IS_TEST_SIZE], ranks[IS_TEST_SIZE];
  long *ti = p.test_index;
  is_create_keys(&p, key);
  int passed = 0;
  double t;
#pragma omp target data map(tofrom : key[0:n]) map(from : cum[0:mk]) map(alloc : part[0:nch])
  {
    is_rank(n, mk, 1, ti, key, cum, part, vals, ranks); /* untimed, as NPB does */
    double t0 = ts_now();
    for (int it = 1; it <= IS_MAX_ITERATIONS; it++) {
      is_rank(n, mk, it, ti, key, cum, part, vals, ranks);
      passed += is_partial_verify(&p, it, vals, ranks);
    }
    t = ts_now() - t0;
  }
  passed += is_full_verify(&p, key, cum);
  free(key);
  free(cum);
  free(part);
  return is_report(&p, passed, t) ? 0 : 1;
}

/* NPB IS, serial C: the CPU baseline. */
#define TS_VARIANT "serial"
#include "is.h"

/* One ranking: modifies two keys, records the five test keys (vals), counts and prefix-sums into cum
 * (cum[k] = number of keys <= k), and returns in ranks the rank of each test key (keys below it). */
static void is_rank(long n, long mk, int it, const long *ti, int *restrict key, int *restrict cum, int *vals,
                    int *ranks) {
  key[it] = it;
  key[it + IS_MAX_ITERATIONS] = (int)(mk - it);
  for (int i = 0; i < IS_TEST_SIZE; i++)
    vals[i] = key[ti[i]];
  for (long k = 0; k < mk; k++)
    cum[k] = 0;
  for (long i = 0; i < n; i++)
    cum[key[i]]++;
  for (long k = 1; k < mk; k++)
    cum[k] += cum[k - 1];
  for (int i = 0; i < IS_TEST_SIZE; i++)
    ranks[i] = vals[i] >= 1 ? cum[vals[i] - 1] : 0;
}

int main(int argc, char **argv) {
  is_params p = is_setup(argc, argv);
  long n = p.num_keys, mk = p.max_key;
  int *key = (int *)ts_alloc(n * sizeof(int)), *cum = (int *)ts_alloc(mk * sizeof(int));
  int vals[IS_TEST_SIZE], ranks[IS_TEST_SIZE];
  is_create_keys(&p, key);
  is_rank(n, mk, 1, p.test_index, key, cum, vals, ranks); /* untimed, as NPB does */
  int passed = 0;
  double t0 = ts_now();
  for (int it = 1; it <= IS_MAX_ITERATIONS; it++) {
    is_rank(n, mk, it, p.test_index, key, cum, vals, ranks);
    passed += is_partial_verify(&p, it, vals, ranks);
  }
  double t = ts_now() - t0;
  passed += is_full_verify(&p, key, cum);
  free(key);
  free(cum);
  return is_report(&p, passed, t) ? 0 : 1;
}

// NPB IS, hand-written CUDA: the same steps as the other versions (key edit, histogram with atomicAdd,
// three-phase prefix sum, gather of the test ranks), 256 threads per block; timed with CUDA events.
#define TS_VARIANT "cuda"
#include "is.h"
#include "../common/ts_cuda.h"

struct is_tests {
  long index[IS_TEST_SIZE];
  int vals[IS_TEST_SIZE], ranks[IS_TEST_SIZE];
};

__global__ void is_edit(long mk, int it, int *key, is_tests *t) {
  key[it] = it;
  key[it + IS_MAX_ITERATIONS] = (int)(mk - it);
  for (int i = 0; i < IS_TEST_SIZE; i++)
    t->vals[i] = key[t->index[i]];
}
__global__ void is_zero(long mk, int *cum) {
  long k = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k < mk)
    cum[k] = 0;
}
__global__ void is_count(long n, const int *__restrict__ key, int *cum) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&cum[key[i]], 1);
}
__global__ void is_scan_chunks(long mk, long nch, int *cum, int *part) {
  long c = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c < nch) {
    long end = (c + 1) * IS_SCAN_CHUNK < mk ? (c + 1) * IS_SCAN_CHUNK : mk;
    int s = 0;
    for (long k = c * IS_SCAN_CHUNK; k < end; k++) {
      s += cum[k];
      cum[k] = s;
    }
    part[c] = s;
  }
}
__global__ void is_scan_parts(long nch, int *part) {
  for (long c = 1; c < nch; c++)
    part[c] += part[c - 1];
}
__global__ void is_add_offsets(long mk, int *cum, const int *part) {
  long k = IS_SCAN_CHUNK + (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k < mk)
    cum[k] += part[k / IS_SCAN_CHUNK - 1];
}
__global__ void is_ranks(const int *cum, is_tests *t) {
  int i = threadIdx.x;
  if (i < IS_TEST_SIZE)
    t->ranks[i] = t->vals[i] >= 1 ? cum[t->vals[i] - 1] : 0;
}

static void is_rank(long n, long mk, int it, int *key, int *cum, int *part, is_tests *dt, is_tests *ht) {
  long nch = (mk + IS_SCAN_CHUNK - 1) / IS_SCAN_CHUNK;
  const unsigned bs = 256;
  is_edit<<<1, 1>>>(mk, it, key, dt);
  is_zero<<<ts_blocks(mk, bs), bs>>>(mk, cum);
  is_count<<<ts_blocks(n, bs), bs>>>(n, key, cum);
  is_scan_chunks<<<ts_blocks(nch, bs), bs>>>(mk, nch, cum, part);
  is_scan_parts<<<1, 1>>>(nch, part);
  if (mk > IS_SCAN_CHUNK)
    is_add_offsets<<<ts_blocks(mk - IS_SCAN_CHUNK, bs), bs>>>(mk, cum, part);
  is_ranks<<<1, 32>>>(cum, dt);
  CUDA_LAUNCH_CHECK();
  ts_to_host(ht, dt, 1);
}

int main(int argc, char **argv) {
  is_params p = is_setup(argc, argv);
  ts_print_device();
  long n = p.num_keys, mk = p.max_key, nch = (mk + IS_SCAN_CHUNK - 1) / IS_SCAN_CHUNK;
  int *key = (int *)ts_alloc(n * sizeof(int)), *cum = (int *)ts_alloc(mk * sizeof(int));
  is_create_keys(&p, key);
  is_tests ht;
  memset(&ht, 0, sizeof ht);
  for (int i = 0; i < IS_TEST_SIZE; i++)
    ht.index[i] = p.test_index[i];
  int *dkey = ts_dev_alloc<int>(n), *dcum = ts_dev_alloc<int>(mk), *dpart = ts_dev_alloc<int>(nch);
  is_tests *dt = ts_dev_alloc<is_tests>(1);
  ts_to_dev(dkey, key, n);
  ts_to_dev(dt, &ht, 1);
  is_rank(n, mk, 1, dkey, dcum, dpart, dt, &ht); // untimed, as NPB does
  int passed = 0;
  double t = 0;
  ts_gpu_timer tm;
  ts_gpu_timer_init(&tm);
  for (int it = 1; it <= IS_MAX_ITERATIONS; it++) {
    ts_gpu_timer_start(&tm);
    is_rank(n, mk, it, dkey, dcum, dpart, dt, &ht);
    t += ts_gpu_timer_stop(&tm);
    passed += is_partial_verify(&p, it, ht.vals, ht.ranks);
  }
  ts_to_host(key, dkey, n);
  ts_to_host(cum, dcum, mk);
  passed += is_full_verify(&p, key, cum);
  cudaFree(dkey);
  cudaFree(dcum);
  cudaFree(dpart);
  cudaFree(dt);
  free(key);
  free(cum);
  return is_report(&p, passed, t) ? 0 : 1;
}

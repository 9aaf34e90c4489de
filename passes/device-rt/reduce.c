/*
 * Device-side helpers the reduction pass (passes/src/reductions.rs) calls. Compiled by
 * passes/build.rs with clang-19 for nvptx64 into bitcode that ptxcc links into device modules
 * that need it; the functions are always inlined, so after optimisation each reduction is
 * straight-line shuffles with the combine function inlined, and no call remains.
 *
 * A reduction's private values are laid out by the pass in one buffer of 32-bit words
 * (`priv`, one per variable at fixed offsets) with the combine function clang generated,
 * `combine(lhs_list, rhs_list)`, whose lists point into `priv` and `tmp`. Combining is
 * therefore generic: any operator, any type, several variables, array sections.
 *
 * The words are read back as doubles, floats, ... by the combine function: build.rs compiles
 * this file with -fno-strict-aliasing so that no type-based alias information lets the
 * optimiser move those reads across the stores made here.
 */
typedef void (*ptxcc_combine_fn)(void **lhs, void **rhs);

#define PTXCC_WARP 32u

static inline unsigned ptxcc_lanes(unsigned n) { return n >= PTXCC_WARP ? 0xffffffffu : ((1u << n) - 1u); }

/*
 * One tree step per halving: lane i takes lane i+off's words and combines them into its own
 * when lane i+off holds a value (i + off < active). `mask` names the lanes that execute the
 * shuffles: all lanes of the warp, which may be more than the `active` ones holding values.
 */
static inline __attribute__((always_inline)) void ptxcc_warp_tree(unsigned *priv, unsigned *tmp, int words,
                                                                    void **lhs, void **rhs, ptxcc_combine_fn combine,
                                                                    unsigned lane, unsigned active, unsigned mask) {
  if (active >= PTXCC_WARP) {
    /* A whole warp (the common case, a uniform branch): lane 0's value only depends on lanes
     * i < off combining lane i + off < 2 off <= 32, all holding values, so every lane combines
     * without the test and the mask is the whole warp; what lanes >= off compute (from their
     * own or a shifted value) is never read. Per step: a shuffle and the combine, as a
     * hand-written CUDA warp reduction. */
    for (unsigned off = PTXCC_WARP / 2; off > 0; off >>= 1) {
      for (int w = 0; w < words; w++)
        tmp[w] = __nvvm_shfl_sync_down_i32(0xffffffffu, priv[w], off, 0x1f);
      combine(lhs, rhs);
    }
    return;
  }
  for (unsigned off = PTXCC_WARP / 2; off > 0; off >>= 1) {
    for (int w = 0; w < words; w++)
      tmp[w] = __nvvm_shfl_sync_down_i32(mask, priv[w], off, 0x1f);
    if (lane + off < active)
      combine(lhs, rhs);
  }
}

/*
 * Every lane of a warp holds its warp's value (a worker whose vector loops use the lanes, or a
 * warp after its shuffle tree): each warp contributes once, through lane 0 and `smem`
 * (32 * words words), and warp 0 combines them into thread 0's `priv`. With `to_all`, every
 * thread then receives that value: thread 0 leaves it in the first `words` words of `smem`
 * (lane 0 has read its own slot, the other lanes' slots are elsewhere) before the barrier that
 * ends the combine, so the broadcast costs one barrier, not two; a block of one warp takes it
 * by a shuffle. Every thread of the block must call it.
 */
static inline __attribute__((always_inline)) void ptxcc_warps_combine(unsigned *priv, unsigned *tmp, int words,
                                                                        void **lhs, void **rhs,
                                                                        ptxcc_combine_fn combine, unsigned *smem,
                                                                        int to_all) {
  unsigned tid = __nvvm_read_ptx_sreg_tid_x();
  unsigned nthreads = __nvvm_read_ptx_sreg_ntid_x();
  unsigned lane = tid % PTXCC_WARP, warp = tid / PTXCC_WARP;
  if (nthreads <= PTXCC_WARP) {
    if (to_all)
      for (int w = 0; w < words; w++)
        priv[w] = __nvvm_shfl_sync_idx_i32(ptxcc_lanes(nthreads), priv[w], 0, 0x1f);
    return;
  }
  unsigned nwarps = (nthreads + PTXCC_WARP - 1) / PTXCC_WARP;
  if (lane == 0)
    for (int w = 0; w < words; w++)
      smem[warp * words + w] = priv[w];
  __syncthreads();
  if (warp == 0) {
    /* Warp 0 is whole here (the block has more than 32 threads); its lanes past the number of
     * warps only relay shuffles. */
    if (lane < nwarps)
      for (int w = 0; w < words; w++)
        priv[w] = smem[lane * words + w];
    ptxcc_warp_tree(priv, tmp, words, lhs, rhs, combine, lane, nwarps, 0xffffffffu);
    if (to_all && lane == 0)
      for (int w = 0; w < words; w++)
        smem[w] = priv[w];
  }
  __syncthreads();
  if (to_all) {
    for (int w = 0; w < words; w++)
      priv[w] = smem[w];
    /* Nobody may overwrite the slots before everyone has read them. */
    __syncthreads();
  }
  /* Without to_all the barrier above already keeps the next reduction of the block from
   * overwriting slots warp 0 still reads. */
}

/* Returns 1 in thread 0, whose `priv` holds the block's value (see ptxcc_warps_combine). */
__attribute__((always_inline)) int __ptxcc_warps_reduce(unsigned *priv, unsigned *tmp, int words, void **lhs,
                                                        void **rhs, ptxcc_combine_fn combine, unsigned *smem) {
  ptxcc_warps_combine(priv, tmp, words, lhs, rhs, combine, smem, 0);
  return __nvvm_read_ptx_sreg_tid_x() == 0;
}

/* As __ptxcc_warps_reduce, then every thread of the block receives the result. Returns 1. */
__attribute__((always_inline)) int __ptxcc_warps_reduce_all(unsigned *priv, unsigned *tmp, int words, void **lhs,
                                                            void **rhs, ptxcc_combine_fn combine, unsigned *smem) {
  ptxcc_warps_combine(priv, tmp, words, lhs, rhs, combine, smem, 1);
  return 1;
}

/* Each warp's shuffle tree: lane 0 of each warp then holds the warp's value. */
static inline __attribute__((always_inline)) void ptxcc_warp_trees(unsigned *priv, unsigned *tmp, int words,
                                                                     void **lhs, void **rhs,
                                                                     ptxcc_combine_fn combine) {
  unsigned tid = __nvvm_read_ptx_sreg_tid_x();
  unsigned nthreads = __nvvm_read_ptx_sreg_ntid_x();
  unsigned lane = tid % PTXCC_WARP, warp = tid / PTXCC_WARP;
  unsigned in_warp = nthreads - warp * PTXCC_WARP;
  if (in_warp > PTXCC_WARP)
    in_warp = PTXCC_WARP;
  ptxcc_warp_tree(priv, tmp, words, lhs, rhs, combine, lane, in_warp, ptxcc_lanes(in_warp));
}

/*
 * Reduces the private values of every thread of the block into thread 0's `priv`: within
 * each warp by shuffles, then across warps through `smem` (32 * words words of shared memory).
 * Every thread of the block must call it. Returns 1 in thread 0, 0 elsewhere.
 */
__attribute__((always_inline)) int __ptxcc_block_reduce(unsigned *priv, unsigned *tmp, int words, void **lhs,
                                                        void **rhs, ptxcc_combine_fn combine, unsigned *smem) {
  ptxcc_warp_trees(priv, tmp, words, lhs, rhs, combine);
  return __ptxcc_warps_reduce(priv, tmp, words, lhs, rhs, combine, smem);
}

/*
 * As __ptxcc_block_reduce, then every thread of the block receives the result in `priv`, so
 * that state the region keeps per thread stays the same in every thread (uniform). Returns 1
 * everywhere.
 */
__attribute__((always_inline)) int __ptxcc_block_reduce_all(unsigned *priv, unsigned *tmp, int words, void **lhs,
                                                            void **rhs, ptxcc_combine_fn combine, unsigned *smem) {
  ptxcc_warp_trees(priv, tmp, words, lhs, rhs, combine);
  return __ptxcc_warps_reduce_all(priv, tmp, words, lhs, rhs, combine, smem);
}

/* Threads of the calling thread's warp: 32, or fewer in the last warp of a block whose size is
 * not a multiple of 32. */
static inline unsigned ptxcc_warp_threads(void) {
  unsigned tid = __nvvm_read_ptx_sreg_tid_x();
  unsigned left = __nvvm_read_ptx_sreg_ntid_x() - (tid & ~(PTXCC_WARP - 1));
  return left < PTXCC_WARP ? left : PTXCC_WARP;
}

/*
 * Vector level (a parallel region nested in a worker, on the lanes of the worker's warp):
 * reduces the private values of the first `nlanes` lanes of the calling warp into lane 0's
 * `priv`, by shuffles only. Every lane of the warp must call it. Returns 1 in lane 0.
 */
__attribute__((always_inline)) int __ptxcc_lane_reduce(unsigned *priv, unsigned *tmp, int words, void **lhs,
                                                       void **rhs, ptxcc_combine_fn combine, unsigned nlanes) {
  unsigned lane = __nvvm_read_ptx_sreg_tid_x() % PTXCC_WARP;
  unsigned in_warp = ptxcc_warp_threads();
  unsigned active = nlanes < in_warp ? nlanes : in_warp;
  ptxcc_warp_tree(priv, tmp, words, lhs, rhs, combine, lane, active, ptxcc_lanes(in_warp));
  return lane == 0;
}

/*
 * As __ptxcc_lane_reduce, then every lane of the warp receives lane 0's result, so that the
 * worker's copies of the variable (one per lane) stay the same. Returns 1 everywhere.
 */
__attribute__((always_inline)) int __ptxcc_lane_reduce_all(unsigned *priv, unsigned *tmp, int words, void **lhs,
                                                           void **rhs, ptxcc_combine_fn combine, unsigned nlanes) {
  __ptxcc_lane_reduce(priv, tmp, words, lhs, rhs, combine, nlanes);
  unsigned mask = ptxcc_lanes(ptxcc_warp_threads());
  for (int w = 0; w < words; w++)
    priv[w] = __nvvm_shfl_sync_idx_i32(mask, priv[w], 0, 0x1f);
  return 1;
}

/*
 * npb_random.h — the NAS Parallel Benchmarks pseudo-random number generator, as the NPB specification
 * defines it: x_{k+1} = a x_k mod 2^46 (a = 5^13 in the benchmarks), returning x_{k+1} 2^-46 in (0, 1).
 * The product is formed exactly in double precision by splitting a and x into 23-bit halves, so every
 * target (CPU, GPU, with or without fused multiply-adds: each step is exact) produces the same sequence.
 * Usable in device code: declared `omp declare target` / `acc routine seq` / __host__ __device__.
 */
#ifndef NPB_RANDOM_H
#define NPB_RANDOM_H

#if defined(__CUDACC__) || defined(TS_CUDA_CPU_SHIM)
#define NPB_HD __host__ __device__
#else
#define NPB_HD
#endif

#define NPB_R23 (1.0 / 8388608.0) /* 2^-23 */
#define NPB_T23 8388608.0         /* 2^23 */
#define NPB_R46 (NPB_R23 * NPB_R23)
#define NPB_T46 (NPB_T23 * NPB_T23)

#if defined(_OPENACC)
#pragma acc routine seq
#elif defined(_OPENMP)
#pragma omp declare target
#endif
/* x <- a x mod 2^46; returns the new x scaled to (0, 1). Both a and x are integers below 2^46. */
NPB_HD static inline double npb_randlc(double *x, double a) {
  /* a = a1 2^23 + a2, x = x1 2^23 + x2 */
  double a1 = (double)(long)(NPB_R23 * a);
  double a2 = a - NPB_T23 * a1;
  double x1 = (double)(long)(NPB_R23 * *x);
  double x2 = *x - NPB_T23 * x1;
  /* a x mod 2^46 = ((a1 x2 + a2 x1) mod 2^23) 2^23 + a2 x2, reduced mod 2^46 */
  double t1 = a1 * x2 + a2 * x1;
  double t2 = (double)(long)(NPB_R23 * t1);
  double z = t1 - NPB_T23 * t2;
  double t3 = NPB_T23 * z + a2 * x2;
  double t4 = (double)(long)(NPB_R46 * t3);
  *x = t3 - NPB_T46 * t4;
  return NPB_R46 * *x;
}
#if !defined(_OPENACC) && defined(_OPENMP)
#pragma omp end declare target
#endif

/* a^(2^k) mod 2^46 by k squarings. */
static inline double npb_pow2k(double a, int k) {
  double t = a;
  for (int i = 0; i < k; i++)
    npb_randlc(&t, t);
  return t;
}

#if defined(_OPENACC)
#pragma acc routine seq
#elif defined(_OPENMP)
#pragma omp declare target
#endif
/* The seed after k steps from s: s an^k mod 2^46 where an is the multiplier of one step (binary powers). */
NPB_HD static inline double npb_skip(double s, double an, long k) {
  double t1 = s, t2 = an;
  while (k > 0) {
    long ik = k / 2;
    if (2 * ik != k)
      npb_randlc(&t1, t2);
    if (ik == 0)
      break;
    npb_randlc(&t2, t2);
    k = ik;
  }
  return t1;
}
#if !defined(_OPENACC) && defined(_OPENMP)
#pragma omp end declare target
#endif

#endif

/*
 * STREAM on 2-D arrays: the data-layout study's variant of STREAM. The N doubles of each array are stored
 * as L = N/W structures of W components, in one of two layouts (row major):
 *     AoS  x[i][j] at i*W + j   (an array of W-element structures)
 *     SoA  x[j][i] at j*L + i   (W arrays of L elements)
 * and every kernel runs one thread per structure i, looping over its W components. In the AoS layout
 * neighbouring threads are W elements apart (strided access, slow on a GPU for large W); in the SoA
 * layout they are adjacent (coalesced). Same kernels, checks and byte counts as STREAM (../stream).
 * Option w=W (default 16).
 */
#ifndef STREAM2D_H
#define STREAM2D_H
#include "../stream/stream.h"

typedef void (*stream2d_kernel)(double *a, double *b, double *c, double q, long L, long W);

/* Runs the four kernels of one layout NTIMES times; times[k][t] filled by the caller's loop. */
static long stream2d_width(int argc, char **argv, long n) {
  long w = ts_opt_long(argc, argv, "w", 16);
  if (w < 1 || n % w != 0) {
    fprintf(stderr, "w=%ld must be positive and divide N=%ld\n", w, n);
    exit(2);
  }
  printf(" structures of W=%ld doubles, L=%ld structures\n", w, n / w);
  return w;
}

#endif

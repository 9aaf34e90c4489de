// Conversions of a batch of short transposes (Himeno's [I][J][K][4] -> [I][J][4][K]), in
// every unit width (1, 4 and 8 bytes), there and back. On a GPU and on ptxsim libptxrt's short-dimension kernel
// runs the long side on across the batch dimension that continues it (k with j: the source
// side on the way there, the destination side on the way back, layout::plan::ShortWalk),
// splitting the index for the other side; on the emulator the same walk runs on the host.
// K = 33 leaves a 4 x 256 tile of one (j) mostly idle, and the merged j*k ends mid-tile. Each
// kernel reads every element through the transposed layout and writes it back changed; the
// host checks every element after the block. The directive is written by a macro with
// `_Pragma`, its extents macros too (which the driver expands as in a `#pragma` line).
// RUN: %ptxcc -fopenmp -O2 %s -o %t
// RUN: %run %t | FileCheck %s
// CHECK: char PASS
// CHECK: float PASS
// CHECK: double PASS
#include <stdio.h>
#define I 3
#define J 5
#define K 33

#define CASE(T, NAME)                                                                      \
  static int NAME##_run(void) {                                                            \
    static T a[I][J][K][4];                                                                \
    for (int i = 0; i < I; i++)                                                            \
      for (int j = 0; j < J; j++)                                                          \
        for (int k = 0; k < K; k++)                                                        \
          for (int l = 0; l < 4; l++)                                                      \
            a[i][j][k][l] = (T)((i * 7 + j * 5 + k * 3 + l) % 100);                \
    _Pragma("ptxcc trans transpose(a[0:I][0:J][0:K][0:4], [1,2,4,3])")                      \
    _Pragma("omp target data map(tofrom : a)")                                               \
    {                                                                                      \
      _Pragma("omp target teams distribute parallel for collapse(3)")                      \
      for (int i = 0; i < I; i++)                                                          \
        for (int j = 0; j < J; j++)                                                        \
          for (int k = 0; k < K; k++)                                                      \
            for (int l = 0; l < 4; l++)                                                    \
              a[i][j][k][l] = a[i][j][k][l] + (T)(l + 1);                    \
    }                                                                                      \
    int bad = 0;                                                                           \
    for (int i = 0; i < I; i++)                                                            \
      for (int j = 0; j < J; j++)                                                          \
        for (int k = 0; k < K; k++)                                                        \
          for (int l = 0; l < 4; l++)                                                      \
            bad += a[i][j][k][l] != (T)((i * 7 + j * 5 + k * 3 + l) % 100 + l + 1); \
    printf("%s %s\n", #NAME, bad ? "FAIL" : "PASS");                                       \
    return bad;                                                                            \
  }

CASE(char, char)
CASE(float, float)
CASE(double, double)

int main(void) {
  int bad = char_run() + float_run() + double_run();
  return bad != 0;
}

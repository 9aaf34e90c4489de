#include <stdio.h>
int main(void) {
  long s = 0;
#pragma acc parallel loop reduction(+ : s)
  for (long i = 0; i < 100000; i++)
    s += i;
  printf("acc %s\n", s == 4999950000L ? "PASS" : "FAIL");
  return s != 4999950000L;
}

// Reference counters (OpenACC 3.3 §2.6.7): a structured data construct holds a structured
// reference that acc_copyout / acc_delete / exit data called inside the region cannot drop; the
// data stays until the region ends, and only then is it copied out. Unstructured data (enter
// data, acc_copyin) uses the dynamic counter. The emulator's device memory is separate and
// poisoned, so data deleted too early, or copied at the wrong time, shows as a wrong value.
// exit data copyout(...) finalize sets the dynamic counter to zero (and copies out when the
// structured one is zero too).
// REQUIRES: libptxrt
// RUN: %ptxcc -fopenacc %s -o %t && %run %t | FileCheck %s
// CHECK: PASS
#include <stdio.h>
#include <openacc.h>
#define N 256
static double a[N], b[N];

static void set(double *p, double v) { for (int i = 0; i < N; i++) p[i] = v; }
static int all(const double *p, double v) { for (int i = 0; i < N; i++) if (p[i] != v) return 0; return 1; }
#define CHECK(c, what) do { if (!(c)) { printf("FAIL %d: %s\n", __LINE__, what); bad++; } } while (0)

// Called from a region: the caller's data must survive the exit data and acc_copyout here.
static void drop(double *p) {
  #pragma acc exit data copyout(p[0:N])
  acc_copyout(p, N * sizeof *p);
  acc_delete(p, N * sizeof *p);
}

int main(void) {
  int bad = 0;

  // 1. acc_copyout inside a data region: no copy, no delete; the end of the region copies.
  set(a, 1);
  #pragma acc data copy(a)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) a[i] = 2;
    acc_copyout(a, sizeof a);
    CHECK(acc_is_present(a, sizeof a), "data deleted by acc_copyout inside the region");
    CHECK(all(a, 1), "acc_copyout copied out data the region still holds");
    #pragma acc parallel loop present(a)
    for (int i = 0; i < N; i++) a[i] += 1;
  }
  CHECK(!acc_is_present(a, sizeof a), "still present after the region");
  CHECK(all(a, 3), "region end did not copy out");

  // 2. exit data copyout / delete and acc_delete from a function called in the region.
  set(b, 5);
  #pragma acc data copyin(b)
  {
    drop(b);
    CHECK(acc_is_present(b, sizeof b), "data deleted by a callee's exit data");
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) b[i] *= 2; // device copy only
    CHECK(all(b, 5), "copyin region's data copied out");
  }
  CHECK(!acc_is_present(b, sizeof b) && all(b, 5), "copyin region end");

  // 3. A compute construct's data clause holds its data too (the spec's compute-construct rule).
  set(a, 0);
  #pragma acc parallel loop copy(a)
  for (int i = 0; i < N; i++) a[i] = i;
  for (int i = 0; i < N; i++) if (a[i] != i) { CHECK(0, "parallel loop copy"); break; }

  // 4. Dynamic then structured: enter data, then a region on the same data. The region's end
  //    does not copy out or delete (the dynamic count still holds it); exit data does.
  set(a, 7);
  #pragma acc enter data copyin(a)
  set(a, -1);
  #pragma acc data copy(a)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) a[i] += 1; // 8 on the device
  }
  CHECK(acc_is_present(a, sizeof a), "region end deleted data that enter data holds");
  CHECK(all(a, -1), "region end copied out data that enter data holds");
  #pragma acc exit data copyout(a)
  CHECK(!acc_is_present(a, sizeof a) && all(a, 8), "exit data after the region");

  // 5. Structured then dynamic: enter data inside a region keeps the data after it.
  set(b, 1);
  #pragma acc data copyin(b)
  {
    #pragma acc enter data copyin(b)
    acc_copyin(b, sizeof b); // dynamic count 2
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) b[i] = 4;
  }
  CHECK(acc_is_present(b, sizeof b) && all(b, 1), "enter data inside a region");
  acc_copyout(b, sizeof b); // dynamic 2 -> 1: no copy
  CHECK(acc_is_present(b, sizeof b) && all(b, 1), "acc_copyout with dynamic count 2");
  #pragma acc exit data copyout(b)
  CHECK(!acc_is_present(b, sizeof b) && all(b, 4), "last exit data copies out");

  // 6. Nested data regions: only the outermost end copies out.
  set(a, 0);
  #pragma acc data copy(a)
  {
    #pragma acc data copy(a)
    {
      #pragma acc parallel loop
      for (int i = 0; i < N; i++) a[i] = 9;
      acc_delete(a, sizeof a);
    }
    CHECK(acc_is_present(a, sizeof a) && all(a, 0), "inner region end");
  }
  CHECK(!acc_is_present(a, sizeof a) && all(a, 9), "outer region end");

  // 7. create + acc_delete_finalize / acc_copyout_finalize inside: the data stays.
  set(a, 2);
  #pragma acc data create(a)
  {
    acc_copyin(a, sizeof a);
    acc_copyin(a, sizeof a);
    acc_delete_finalize(a, sizeof a);
    acc_copyout_finalize(a, sizeof a);
    CHECK(acc_is_present(a, sizeof a), "finalize inside a region");
  }
  CHECK(!acc_is_present(a, sizeof a), "create region end");

  // 8. present holds a reference as well: data entered dynamically, deleted inside a present
  //    region, lives until the region ends.
  set(b, 3);
  #pragma acc enter data copyin(b)
  #pragma acc data present(b)
  {
    #pragma acc exit data delete(b)
    CHECK(acc_is_present(b, sizeof b), "present region lost its data");
    #pragma acc parallel loop present(b)
    for (int i = 0; i < N; i++) b[i] += 1;
  }
  CHECK(!acc_is_present(b, sizeof b), "present region end did not delete");

  // 9. exit data copyout finalize: the dynamic count goes to zero at once, so the data is
  //    copied out and deleted however many enter data came before.
  set(a, 1);
  #pragma acc enter data copyin(a)
  #pragma acc enter data copyin(a)
  acc_copyin(a, sizeof a);
  #pragma acc parallel loop present(a)
  for (int i = 0; i < N; i++) a[i] = 6;
  #pragma acc exit data copyout(a) finalize
  CHECK(!acc_is_present(a, sizeof a), "exit data copyout finalize left the data present");
  CHECK(all(a, 6), "exit data copyout finalize did not copy out");

  // 10. ... but not the structured reference: inside a data region nothing is copied or deleted.
  set(b, 1);
  #pragma acc data create(b)
  {
    #pragma acc enter data copyin(b)
    #pragma acc enter data copyin(b)
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) b[i] = 2;
    #pragma acc exit data copyout(b) finalize
    CHECK(acc_is_present(b, sizeof b), "finalize inside a data region deleted its data");
    CHECK(all(b, 1), "finalize inside a data region copied out");
  }
  CHECK(!acc_is_present(b, sizeof b) && all(b, 1), "create region end after finalize");

  // 11. finalize with async and if, and with a section.
  set(a, 0);
  #pragma acc enter data copyin(a)
  #pragma acc enter data copyin(a[0:N])
  #pragma acc parallel loop present(a) async(1)
  for (int i = 0; i < N; i++) a[i] = 3;
  int yes = 1, no = 0;
  #pragma acc exit data copyout(a[0:N]) finalize if(no) async(1)
  #pragma acc wait(1)
  CHECK(acc_is_present(a, sizeof a) && all(a, 0), "exit data finalize if(0) did something");
  #pragma acc exit data copyout(a[0:N]) finalize if(yes) async(1)
  #pragma acc wait(1)
  CHECK(!acc_is_present(a, sizeof a) && all(a, 3), "exit data copyout finalize async");

  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}

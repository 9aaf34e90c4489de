/* The OpenACC runtime API of libptxrt, on the emulator. Usage: openacc_test TEST */
#include "openacc.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(c, ...) do { if (!(c)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static int t_api(void) {
  CHECK(acc_get_num_devices(acc_device_nvidia) == 1, "one device");
  CHECK(acc_get_num_devices(acc_device_host) == 1, "host");
  CHECK(acc_get_device_type() == acc_device_nvidia, "current type");
  CHECK(acc_on_device(acc_device_host) == 1 && acc_on_device(acc_device_nvidia) == 0, "on host");
  acc_init(acc_device_nvidia);
  const char *name = acc_get_property_string(0, acc_device_nvidia, acc_property_name);
  CHECK(name && strstr(name, "emulator"), "name %s", name ? name : "(null)");
  CHECK(acc_get_property(0, acc_device_nvidia, acc_property_memory) > 0, "memory size");

  double x[8];
  for (int i = 0; i < 8; i++) x[i] = i;
  double *d = acc_copyin(x, sizeof x);
  CHECK(d != NULL && (void *)d != (void *)x, "device copy %p", (void *)d);
  CHECK(acc_is_present(x, sizeof x) && acc_is_present(&x[3], 8), "present");
  CHECK(acc_deviceptr(&x[2]) == (void *)(d + 2), "deviceptr");
  CHECK(acc_hostptr(d + 5) == (void *)&x[5], "hostptr");
  double v = 42;
  acc_memcpy_to_device(d + 1, &v, 8);
  acc_copyin(x, sizeof x); /* count 2 */
  acc_copyout(x, sizeof x); /* count 1: no copy */
  CHECK(x[1] == 1, "no copy back while referenced: %g", x[1]);
  acc_update_self(&x[1], 8);
  CHECK(x[1] == 42, "update self: %g", x[1]);
  x[2] = -2;
  acc_update_device(x, sizeof x);
  double back = 0;
  acc_memcpy_from_device(&back, d + 2, 8);
  CHECK(back == -2, "update device: %g", back);
  acc_copyin(x, sizeof x);
  acc_copyout_finalize(x, sizeof x);
  CHECK(!acc_is_present(x, sizeof x), "finalize removes");

  double y[4] = {1, 2, 3, 4};
  double *dy = acc_create(y, sizeof y);
  double p = 0;
  acc_memcpy_from_device(&p, dy, 8);
  CHECK(isnan(p), "create leaves poison: %g", p);
  acc_delete(y, sizeof y);
  CHECK(!acc_is_present(y, sizeof y), "delete");

  double *m = acc_malloc(64);
  CHECK(m != NULL, "malloc");
  double z[8] = {0};
  acc_map_data(z, m, sizeof z);
  CHECK(acc_deviceptr(z) == (void *)m, "map_data");
  acc_copyin(z, sizeof z); /* present: no copy, count unchanged (infinite) */
  acc_copyout(z, sizeof z);
  CHECK(acc_is_present(z, sizeof z), "mapped data stays");
  acc_unmap_data(z);
  CHECK(!acc_is_present(z, sizeof z), "unmapped");
  acc_free(m);
  /* async routines: on the emulator they have completed when they return */
  double q[16];
  for (int i = 0; i < 16; i++) q[i] = i;
  acc_copyin_async(q, sizeof q, 3);
  q[0] = -1;
  acc_wait(3);
  CHECK(acc_is_present(q, sizeof q), "copyin_async");
  double *dq = acc_deviceptr(q), v5 = 0;
  acc_memcpy_from_device_async(&v5, dq + 5, 8, acc_async_noval);
  acc_wait(acc_async_noval);
  CHECK(v5 == 5, "memcpy_from_device_async: %g", v5);
  double w = 77;
  acc_memcpy_to_device_async(dq + 6, &w, 8, 4);
  acc_wait_async(4, 3);
  acc_update_self_async(q, sizeof q, 3);
  acc_wait_all_async(5);
  acc_wait_all();
  CHECK(q[0] == 0 && q[6] == 77, "update_self_async: %g %g", q[0], q[6]);
  q[1] = 11;
  acc_update_device_async(q, sizeof q, acc_async_sync);
  acc_copyout_async(q, sizeof q, 3);
  CHECK(acc_async_test(3) == 1 && acc_async_test_all() == 1, "queues idle");
  acc_wait(3);
  CHECK(!acc_is_present(q, sizeof q) && q[1] == 11, "copyout_async");
  CHECK(acc_async_test(1) == 1, "async");
  acc_wait_all();
  acc_shutdown(acc_device_nvidia);
  return 0;
}

static int t_host(void) {
  CHECK(acc_get_device_type() == acc_device_host, "ACC_DEVICE_TYPE=host: %d", acc_get_device_type());
  double x[2] = {1, 2};
  CHECK(acc_copyin(x, sizeof x) == (void *)x, "host copyin is identity");
  CHECK(acc_is_present(x, sizeof x), "host data is present");
  acc_set_device_type(acc_device_nvidia);
  CHECK(acc_get_device_type() == acc_device_nvidia, "switched to the device");
  return 0;
}

/* The OpenACC 3.3 per-device routines, on the emulator (device 0) and the host (ACC_DEVICE_TYPE=host). */
static int t_device_api(void) {
  acc_init_device(0, acc_device_nvidia);
  acc_init_device(0, acc_device_host);
  double x[64], y[64];
  for (int i = 0; i < 64; i++) x[i] = i, y[i] = 0;
  acc_copyin_async(x, sizeof x, 2);
  acc_copyin(y, sizeof y);
  acc_wait_device(2, 0);
  CHECK(acc_async_test_device(2, 0) == 1 && acc_async_test_all_device(0) == 1, "idle after wait");
  int q[3] = {acc_async_sync, 2, 5};
  int k = acc_wait_any(3, q);
  CHECK(k == 1 || k == 2, "acc_wait_any: %d", k);
  CHECK(acc_wait_any_device(1, q, 0) == -1 && acc_wait_any(0, NULL) == -1, "nothing to wait for");
  acc_memcpy_d2d(y, x, 32 * sizeof(double), 0, 0);
  acc_memcpy_d2d_async(y + 32, x + 32, 16 * sizeof(double), 0, 0, 3);
  acc_wait_device_async(3, 4, 0);
  acc_wait_all_device_async(4, 0);
  acc_wait_all_device(0);
  acc_copyout(y, sizeof y);
  CHECK(y[31] == 31 && y[47] == 47 && y[48] == 0, "d2d: %g %g %g", y[31], y[47], y[48]);
  acc_delete(x, sizeof x);
  acc_shutdown_device(0, acc_device_host);
  acc_shutdown_device(0, acc_device_nvidia);
  return 0;
}

/* Errors: each ends the program with status 1 and a message naming the routine. */
static int t_bad_device_num(void) { acc_wait_device(1, 3); return 0; }
static int t_bad_device_type(void) { acc_init_device(0, (acc_device_t)9); return 0; }
static int t_bad_async(void) {
  int q[2] = {1, -7};
  return acc_wait_any(2, q);
}
static int t_d2d_absent(void) {
  double x[4], y[4];
  acc_create(y, sizeof y);
  acc_memcpy_d2d(y, x, sizeof x, 0, 0);
  return 0;
}

static int t_update_absent(void) {
  double x[3];
  acc_update_device(x, sizeof x);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  if (!strcmp(argv[1], "api")) t_api();
  else if (!strcmp(argv[1], "host")) t_host();
  else if (!strcmp(argv[1], "update_absent")) t_update_absent();
  else if (!strcmp(argv[1], "device_api")) t_device_api();
  else if (!strcmp(argv[1], "bad_device_num")) t_bad_device_num();
  else if (!strcmp(argv[1], "bad_device_type")) t_bad_device_type();
  else if (!strcmp(argv[1], "bad_async")) t_bad_async();
  else if (!strcmp(argv[1], "d2d_absent")) t_d2d_absent();
  else return 2;
  if (failures) return 1;
  printf("ok\n");
  return 0;
}

// The test-suite harness's own unit tests: PTXRT_PROFILE parsing, kernel time per iteration, the
// statuses (PASS, FAIL with the wrong value named, CRASH, TIMEOUT, BUILD-FAIL, UNSUPPORTED for "does not
// support reduction clauses"), the cross-check against the serial checksum, ratios to nvcc/GCC and % of
// peak bandwidth, and quick mode with a compiler that refuses reductions (UNSUPPORTED allowed, --strict
// fails).
// RUN: %python -m unittest discover -s %S/../../test-suite/harness -p 'test_*.py' 2>&1 | FileCheck %s
// CHECK: Ran {{[0-9]+}} tests
// CHECK: OK

// Every test-suite program (OpenMP and OpenACC versions, class S) built with
// -fptxcc-multi-device and run on 3 emulated devices: each gives the answer its verification
// expects (the serial result or the published NPB values) with its loops split over the three
// (an uneven count: parts of different sizes, halos between them), and each run split at least
// one launch (PTXRT_DEBUG=1's `ptxrt: split` lines in its log). The same programs on ptxsim at 1,
// 2 and 4 devices, with bytes and the model's times: test-suite/harness/multidev.py.
// UNSUPPORTED: ptxsim
// RUN: rm -rf %t.dir
// RUN: env PTXRT_EMU_DEVICES=3 PTXRT_DEBUG=1 %python %S/../../../test-suite/harness/harness.py quick \
// RUN:   --variants ptxcc-omp,ptxcc-acc --ptxcc %ptxcc --ptxcc-flag=-fptxcc-multi-device \
// RUN:   --build-dir tmp --out %t.dir 2>&1 | FileCheck %s
// CHECK-NOT: {{BUILD-FAIL|CRASH|TIMEOUT|UNSUPPORTED}}
// CHECK: {{[0-9]+}} results: {{[0-9]+}} pass, 0 unsupported, 0 bad
// RUN: ls %t.dir/logs | wc -l | FileCheck %s --check-prefix=RUNS
// RUN: grep -l 'ptxrt: split' %t.dir/logs/*.log | wc -l | FileCheck %s --check-prefix=RUNS
// RUNS: 28

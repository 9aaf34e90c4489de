// The test-suite's GPU mode, rehearsed without a GPU: `harness.py pack` builds two programs every
// way this machine can into one folder (executables, the libraries a bare GPU node may lack, the
// sources and the harness), then the pack's own harness runs `gpu-run --ptxsim` inside it, with
// ptxsim standing in for the node's libcuda.so.1: the ptxcc versions go through libptxrt's CUDA
// path and, where gcc-12 offloads to nvptx, GCC's through the packed libgomp and nvptx plugin.
// Every result must be verified and the report written.
// REQUIRES: libptxrt
// UNSUPPORTED: ptxsim
// RUN: rm -rf %t.pack %t.res
// RUN: %python %S/../../test-suite/harness/harness.py pack --ptxcc %ptxcc --programs saxpy,pi \
// RUN:   --out %t.pack 2>&1 | FileCheck %s --check-prefix=PACK
// PACK-NOT: BUILD-FAIL
// PACK: packed {{[1-9][0-9]*}} executables and {{[0-9]+}} libraries into
// RUN: cd %t.pack && %python test-suite/harness/harness.py gpu-run --ptxsim --ptxcc %ptxcc --classes S \
// RUN:   --out %t.res 2>&1 | FileCheck %s
// CHECK: device ptxsim; versions serial,ptxcc-omp,ptxcc-acc
// CHECK-DAG: saxpy ptxcc-omp S PASS
// CHECK-DAG: saxpy ptxcc-acc S PASS
// CHECK-DAG: pi ptxcc-omp S PASS
// CHECK-DAG: pi ptxcc-acc S PASS
// CHECK-NOT: {{FAIL|CRASH|TIMEOUT}}
// CHECK: report: {{.*}}report.md
// CHECK: {{[0-9]+}} results: {{[0-9]+}} pass, 0 unsupported, 0 bad
// RUN: FileCheck %s --check-prefix=REPORT < %t.res/report.md
// REPORT: - device: ptxsim
// REPORT: | saxpy | saxpy | S |  | ptxcc-omp | PASS |

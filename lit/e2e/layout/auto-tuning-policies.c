// PTXRT_LAYOUT_AUTO says what libptxrt does with the layouts -fptxcc-layout=auto chose
// (ptx-runtime/src/layout/tune.rs), on the program of auto-tuning-ptxsim.c (8 launches of `main`'s
// kernel in one region, 4 runs of a region of 10 launches of `costs`'s): `tune` (the default)
// chooses at each launch between the kernel and its version by their times, and PTXRT_PROFILE
// reports how many launches ran in each layout (which, by the host's clock, depends on the
// machine: the sums and the one probe are checked); `never` keeps the original layout (no launch
// in auto's, nothing converted); `always` converts and runs every version. A value it does not
// know stops the program with what it accepts. The answers are the serial ones each time.
// RUN: %ptxcc -fopenmp -O2 -fptxcc-layout=auto %S/auto-tuning-ptxsim.c -o %t
// RUN: env PTXRT_PROFILE=json:%t.json %run %t | FileCheck %s
// RUN: %python -c "import json,sys; [print(l['name'].split('_')[-2], l['original_launches'] + l['layout_launches'], l['original_launches'] >= 1) for l in json.load(open(sys.argv[1]))['layouts']]" %t.json | FileCheck %s --check-prefix=TUNE
// RUN: env PTXRT_LAYOUT_AUTO=never PTXRT_PROFILE=json:%t.never.json PTXRT_DEBUG=1 %run %t 2>%t.never.err | FileCheck %s
// RUN: %python -c "import json,sys; [print(l['name'].split('_')[-2], l['original_launches'], l['layout_launches']) for l in json.load(open(sys.argv[1]))['layouts']]" %t.never.json | FileCheck %s --check-prefix=NEVER
// RUN: FileCheck %s --check-prefix=NOCONV < %t.never.err
// RUN: env PTXRT_LAYOUT_AUTO=always PTXRT_PROFILE=json:%t.always.json %run %t | FileCheck %s
// RUN: %python -c "import json,sys; [print(l['name'].split('_')[-2], l['original_launches'], l['layout_launches']) for l in json.load(open(sys.argv[1]))['layouts']]" %t.always.json | FileCheck %s --check-prefix=ALWAYS
// RUN: env PTXRT_LAYOUT_AUTO=sometimes %run not %t 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: pays: ok
// CHECK: costs: ok
// CHECK: PASS
// TUNE-DAG: costs 40 True
// TUNE-DAG: main 8 True
// NEVER-DAG: costs 40 0
// NEVER-DAG: main 8 0
// NOCONV-NOT: ptxrt: layout:
// NOCONV: launch {{.*}}_l{{[0-9]+}}'
// NOCONV-NOT: ptxrt: layout:
// NOCONV-NOT: _layout1'
// ALWAYS-DAG: costs 0 40
// ALWAYS-DAG: main 0 8
// BAD: PTXRT_LAYOUT_AUTO="sometimes" is not one of tune {{.*}}, always {{.*}} or never

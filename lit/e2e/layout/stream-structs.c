// The layout study's STREAM on arrays of structs (test-suite/stream2d/stream2d_struct.c, small):
// every form — AoS, `trans soa`, -fptxcc-layout=auto (which chooses soa for the three malloc'd
// pointer sections), hand-written SoA — verifies against its serial computation.
// RUN: %ptxcc -fopenmp -O2 -DN=1000 %S/../../../test-suite/stream2d/stream2d_struct.c -o %t.aos
// RUN: %run %t.aos | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -DN=1000 -DTRANS %S/../../../test-suite/stream2d/stream2d_struct.c -o %t.trans
// RUN: %run %t.trans | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -DN=1000 -fptxcc-layout=auto -fptxcc-info %S/../../../test-suite/stream2d/stream2d_struct.c -o %t.auto 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %run %t.auto | FileCheck %s
// RUN: %ptxcc -fopenmp -O2 -DN=1000 -DHAND_SOA %S/../../../test-suite/stream2d/stream2d_struct.c -o %t.hand
// RUN: %run %t.hand | FileCheck %s
// INFO-DAG: layout: a[?] (structs) -> one array per field, a[4][?]
// INFO-DAG: layout: b[?] (structs) -> one array per field, b[4][?]
// INFO-DAG: layout: c[?] (structs) -> one array per field, c[4][?]
// CHECK: VERIFICATION SUCCESSFUL

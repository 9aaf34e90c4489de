// test-suite/mpi_jacobi's OpenACC version under mpirun: one device per rank, chosen as OpenACC users
// write it (the rank in MPI_COMM_TYPE_SHARED modulo acc_get_num_devices, then acc_set_device_num),
// halos by `update self` / `update device` of single rows, the residual by MPI_Allreduce, the grid
// checked bit for bit against rank 0's serial run. Each rank's profile (its own file, from
// --output-filename) shows its kernels on device = its rank, and that each sweep moves one 50-double
// row (400 bytes) each way per neighbour: 6 sweeps, 2400 bytes in 6 copies per update construct.
// REQUIRES: mpi
// RUN: env OMPI_CC=%ptxcc mpicc -fopenacc -O2 %S/../../../test-suite/mpi_jacobi/mpi_jacobi_acc.c -o %t -lm
//
// RUN: rm -rf %t.np2 && env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_PROFILE=1 %run %mpirun -np 2 --output-filename %t.np2 %t n=48 iters=6 | FileCheck %s --check-prefix=NP2
// RUN: cat %t.np2/*/rank.0/stderr | FileCheck %s --check-prefix=EDGE -DDEV=0
// RUN: cat %t.np2/*/rank.1/stderr | FileCheck %s --check-prefix=EDGE -DDEV=1
// NP2: MPI Jacobi 5-point 2-D (acc): 48 x 48 interior points, 6 sweeps, 2 ranks
// NP2-NEXT: rank 0: device 0 of 2
// NP2-NEXT: rank 1: device 1 of 2
// NP2-NEXT: residual {{.*}}, serial {{[0-9.e+-]+$}}
// NP2-NEXT: grid: 0 of 2400 points differ from the serial run (max difference 0)
// NP2-NEXT: VERIFICATION SUCCESSFUL
//
// RUN: rm -rf %t.np4 && env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 PTXRT_PROFILE=1 %run %mpirun -np 4 --output-filename %t.np4 %t n=48 iters=6 | FileCheck %s --check-prefix=NP4
// RUN: cat %t.np4/*/rank.0/stderr | FileCheck %s --check-prefix=EDGE -DDEV=0
// RUN: cat %t.np4/*/rank.1/stderr | FileCheck %s --check-prefix=MIDDLE -DDEV=1
// RUN: cat %t.np4/*/rank.2/stderr | FileCheck %s --check-prefix=MIDDLE -DDEV=2
// RUN: cat %t.np4/*/rank.3/stderr | FileCheck %s --check-prefix=EDGE -DDEV=3
// NP4: 4 ranks
// NP4-NEXT: rank 0: device 0 of 4
// NP4-NEXT: rank 1: device 1 of 4
// NP4-NEXT: rank 2: device 2 of 4
// NP4-NEXT: rank 3: device 3 of 4
// NP4: grid: 0 of 2400 points differ from the serial run (max difference 0)
// NP4-NEXT: VERIFICATION SUCCESSFUL
//
// A rank at either end has one neighbour: one row up, one row down per sweep.
// EDGE: ptxrt profile: {{[24]}} devices
// EDGE: mj_sweep_l{{[0-9]+}} (device [[DEV]])
// EDGE-NEXT: launches: 6
// EDGE: (mj_exchange) (device [[DEV]])
// EDGE-NEXT: host->device: 0 bytes in 0 copies, {{.*}} device->host: 2400 bytes in 6 copies
// EDGE-NEXT: (mj_exchange) (device [[DEV]])
// EDGE-NEXT: host->device: 2400 bytes in 6 copies, {{.*}} device->host: 0 bytes in 0 copies
// EDGE-NEXT: (main) (device [[DEV]])
// A rank in the middle has two: two rows each way per sweep.
// MIDDLE: ptxrt profile: 4 devices
// MIDDLE: mj_sweep_l{{[0-9]+}} (device [[DEV]])
// MIDDLE-NEXT: launches: 6
// MIDDLE-COUNT-2: host->device: 0 bytes in 0 copies, {{.*}} device->host: 2400 bytes in 6 copies
// MIDDLE-COUNT-2: host->device: 2400 bytes in 6 copies, {{.*}} device->host: 0 bytes in 0 copies
// MIDDLE-NEXT: (main) (device [[DEV]])
//
// device=runtime: no acc_set_device_num; acc_get_device_num reports libptxrt's default, the rank's.
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %mpirun -np 2 %t n=48 iters=2 device=runtime | FileCheck %s --check-prefix=RUNTIME
// RUNTIME: rank 0: device 0 of 2
// RUNTIME-NEXT: rank 1: device 1 of 2
// RUNTIME: VERIFICATION SUCCESSFUL

// test-suite/mpi_jacobi builds with `make CC=ptxcc` (its Makefile runs OMPI_CC=$(CC) mpicc), and
// what it builds runs under mpirun.
// REQUIRES: mpi
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: make -s -C %S/../../../test-suite/mpi_jacobi CC=%ptxcc O=%t.d all
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %mpirun -np 2 %t.d/mpi_jacobi_acc n=32 iters=2 | FileCheck %s --check-prefix=ACC
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 %run %mpirun -np 2 %t.d/mpi_jacobi_omp n=32 iters=2 | FileCheck %s --check-prefix=OMP
// ACC: (acc): 32 x 32 interior points, 2 sweeps, 2 ranks
// ACC: rank 1: device 1 of 2
// ACC: VERIFICATION SUCCESSFUL
// OMP: (omp): 32 x 32 interior points, 2 sweeps, 2 ranks
// OMP: rank 1: device 1 of 2
// OMP: VERIFICATION SUCCESSFUL

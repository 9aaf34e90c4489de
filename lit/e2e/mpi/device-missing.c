// A rank that asks for a device that does not exist (test-suite/mpi_jacobi's device=rank:
// acc_set_device_num(local rank) without the modulo) with fewer devices than ranks: the runtime's
// error names the device number, how many there are, the rank, and what to set; the job fails.
// REQUIRES: mpi
// RUN: env OMPI_CC=%ptxcc mpicc -fopenacc -O2 %S/../../../test-suite/mpi_jacobi/mpi_jacobi_acc.c -o %t -lm
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run not %mpirun -np 2 %t n=48 iters=2 device=rank > %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// CHECK: ptxrt: error: acc_set_device_num: device number 1 does not exist: there is one acc_device_nvidia device, number 0; ask for a number below the count (acc_get_num_devices / omp_get_num_devices); this process is MPI local rank 1 (OMPI_COMM_WORLD_LOCAL_RANK): use local_rank % count, or leave the device unset and the runtime takes that one; {{PTXRT_EMU_DEVICES=N makes the emulator present N devices|CUDA_VISIBLE_DEVICES lists the GPUs a process sees \(PTXSIM_DEVICES=N under ptxsim\)}}

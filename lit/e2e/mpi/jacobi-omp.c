// test-suite/mpi_jacobi's OpenMP version under mpirun: the program never chooses a device, so
// libptxrt's default applies: a process an MPI launcher started uses device local_rank % devices
// (OMPI_COMM_WORLD_LOCAL_RANK here), and PTXRT_DEBUG=1 says so. Halos by `target update from/to`
// of single rows (400 bytes per row per sweep, each way per neighbour), the residual by
// MPI_Allreduce, the grid checked bit for bit against rank 0's serial run.
// REQUIRES: mpi
// RUN: env OMPI_CC=%ptxcc mpicc -fopenmp -O2 %S/../../../test-suite/mpi_jacobi/mpi_jacobi_omp.c -o %t -lm
//
// RUN: rm -rf %t.np2 && env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 PTXRT_PROFILE=1 %run %mpirun -np 2 --output-filename %t.np2 %t n=48 iters=6 | FileCheck %s --check-prefix=NP2
// RUN: cat %t.np2/*/rank.0/stderr | FileCheck %s --check-prefix=RANK -DDEV=0 -DSIZE=2
// RUN: cat %t.np2/*/rank.1/stderr | FileCheck %s --check-prefix=RANK -DDEV=1 -DSIZE=2
// NP2: MPI Jacobi 5-point 2-D (omp): 48 x 48 interior points, 6 sweeps, 2 ranks
// NP2-NEXT: rank 0: device 0 of 2
// NP2-NEXT: rank 1: device 1 of 2
// NP2-NEXT: residual {{.*}}, serial {{[0-9.e+-]+$}}
// NP2-NEXT: grid: 0 of 2400 points differ from the serial run (max difference 0)
// NP2-NEXT: VERIFICATION SUCCESSFUL
//
// RUN: rm -rf %t.np4 && env PTXRT_EMU_DEVICES=4 PTXSIM_DEVICES=4 PTXRT_DEBUG=1 PTXRT_PROFILE=1 %run %mpirun -np 4 --output-filename %t.np4 %t n=48 iters=6 | FileCheck %s --check-prefix=NP4
// RUN: cat %t.np4/*/rank.0/stderr | FileCheck %s --check-prefix=RANK -DDEV=0 -DSIZE=4
// RUN: cat %t.np4/*/rank.1/stderr | FileCheck %s --check-prefix=RANK -DDEV=1 -DSIZE=4
// RUN: cat %t.np4/*/rank.2/stderr | FileCheck %s --check-prefix=RANK -DDEV=2 -DSIZE=4
// RUN: cat %t.np4/*/rank.3/stderr | FileCheck %s --check-prefix=RANK -DDEV=3 -DSIZE=4
// NP4: 4 ranks
// NP4-NEXT: rank 0: device 0 of 4
// NP4-NEXT: rank 1: device 1 of 4
// NP4-NEXT: rank 2: device 2 of 4
// NP4-NEXT: rank 3: device 3 of 4
// NP4: grid: 0 of 2400 points differ from the serial run (max difference 0)
// NP4-NEXT: VERIFICATION SUCCESSFUL
// RANK: ptxrt: default device [[DEV]]: OMPI_COMM_WORLD_LOCAL_RANK=[[DEV]] (MPI local rank of [[SIZE]] on this node), [[DEV]] % [[SIZE]] devices = [[DEV]] (
// RANK: ptxrt: launch {{.*}}mj_sweep{{.*}} on device [[DEV]] (
// RANK: ptxrt profile: [[SIZE]] devices
// RANK: mj_sweep_l{{[0-9]+}} (device [[DEV]])
// RANK-NEXT: launches: 6
// RANK: device->host: 2400 bytes in 6 copies
// RANK: host->device: 2400 bytes in 6 copies
//
// Explicit settings win over the rank: OMP_DEFAULT_DEVICE puts both ranks on device 0.
// RUN: rm -rf %t.env && env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 OMP_DEFAULT_DEVICE=0 %run %mpirun -np 2 --output-filename %t.env %t n=48 iters=2 | FileCheck %s --check-prefix=ENV
// RUN: cat %t.env/*/rank.1/stderr | FileCheck %s --check-prefix=ENV-RANK1
// ENV: rank 0: device 0 of 2
// ENV-NEXT: rank 1: device 0 of 2
// ENV: VERIFICATION SUCCESSFUL
// ENV-RANK1: ptxrt: default device 0: OMP_DEFAULT_DEVICE =
// ENV-RANK1: on device 0 (
//
// device=shared: the program sets it itself (omp_set_default_device(local rank % devices)); two
// ranks on one device share it.
// RUN: env PTXRT_EMU_DEVICES=1 PTXSIM_DEVICES=1 %run %mpirun -np 2 %t n=48 iters=2 device=shared | FileCheck %s --check-prefix=SHARED
// SHARED: rank 0: device 0 of 1
// SHARED-NEXT: rank 1: device 0 of 1
// SHARED: VERIFICATION SUCCESSFUL
//
// -fptxcc-multi-device: a rank's device is its own, so its loops are not split over the others'
// devices; a single rank on the node splits over all of them.
// RUN: env OMPI_CC=%ptxcc mpicc -fopenmp -fptxcc-multi-device -O2 %S/../../../test-suite/mpi_jacobi/mpi_jacobi_omp.c -o %t.md -lm
// RUN: rm -rf %t.md2 && env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %mpirun -np 2 --output-filename %t.md2 %t.md n=48 iters=2 | FileCheck %s --check-prefix=NP2-MD
// RUN: cat %t.md2/*/rank.1/stderr | FileCheck %s --check-prefix=NOSPLIT
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_DEBUG=1 %run %mpirun -np 1 %t.md n=48 iters=2 2> %t.md1.err | FileCheck %s --check-prefix=NP2-MD
// RUN: FileCheck %s --check-prefix=SPLIT < %t.md1.err
// NP2-MD: VERIFICATION SUCCESSFUL
// NOSPLIT: runs on one device: the default device is this MPI rank's (OMPI_COMM_WORLD_LOCAL_RANK=1)
// SPLIT: ptxrt: default device 0: OMPI_COMM_WORLD_LOCAL_RANK=0 (MPI local rank of 1 on this node)
// SPLIT: kernel '{{.*}}mj_sweep{{.*}}', 2304 iterations: [0, 1152) on device 0, [1152, 2304) on device 1
//
// PTXRT_PROFILE=json:NAME with %r: one file per rank (%r = OMPI_COMM_WORLD_RANK). Rank 1 owns rows
// 25..48 of 48: its device received both blocks with their halo rows (2 x 26 x 50 doubles = 20800
// bytes), 6 halo rows (2400) and the reduction variable 6 times (48); it sent 6 edge rows (2400),
// the reduction variable (48) and its 24 rows at the end (9600). Device 0 of rank 1 did nothing.
// RUN: rm -f %t.rank*.json && env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_PROFILE=json:%t.rank%r.json %run %mpirun -np 2 %t n=48 iters=6 | FileCheck %s --check-prefix=NP2
// RUN: FileCheck %s --check-prefix=JSON1 < %t.rank1.json
// RUN: FileCheck %s --check-prefix=JSON0 < %t.rank0.json
// JSON1: "devices": [
// JSON1-NEXT: {"id": 0, {{.*}}"h2d_bytes": 0, "d2h_bytes": 0, "peer_bytes": 0, "kernels": 0,
// JSON1-NEXT: {"id": 1, {{.*}}"h2d_bytes": 23248, "d2h_bytes": 12048, "peer_bytes": 0, "kernels": 6,
// JSON0: "devices": [
// JSON0-NEXT: {"id": 0, {{.*}}"h2d_bytes": 23248, "d2h_bytes": 12048, "peer_bytes": 0, "kernels": 6,
// JSON0-NEXT: {"id": 1, {{.*}}"h2d_bytes": 0, "d2h_bytes": 0, "peer_bytes": 0, "kernels": 0,
// Without %r every rank would write the same file: a warning says so.
// RUN: env PTXRT_EMU_DEVICES=2 PTXSIM_DEVICES=2 PTXRT_PROFILE=json:%t.all.json %run %mpirun -np 2 %t n=48 iters=2 > %t.all.out 2> %t.all.err
// RUN: FileCheck %s --check-prefix=SHAREDFILE < %t.all.err
// SHAREDFILE: ptxrt: warning: PTXRT_PROFILE=json:{{.*}}.all.json: every MPI rank writes this file (OMPI_COMM_WORLD_RANK={{[01]}}); put %r in the name

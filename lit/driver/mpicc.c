// OpenMPI's wrapper compiles and links with ptxcc (OMPI_CC=ptxcc mpicc): each rank offloads its
// own reduction, and the ranks' partial sums meet in MPI_Allreduce.
// REQUIRES: mpi
// RUN: env OMPI_CC=%ptxcc mpicc -fopenmp -O2 %s -o %t
// RUN: env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_TARGET_OFFLOAD=MANDATORY mpirun --oversubscribe -np 2 %t | FileCheck %s
// CHECK: ranks 2 total 1000000 PASS
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < 1000; i++)
    s += i + rank;
  double t = 0;
  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double expect = 499500.0 * size + 1000.0 * size * (size - 1) / 2;
  if (rank == 0)
    printf("ranks %d total %.0f %s\n", size, t, t == expect ? "PASS" : "FAIL");
  MPI_Finalize();
  return 0;
}

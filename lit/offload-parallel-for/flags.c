// The flag's spellings, and how the stage shows in -### / -save-temps.
// RUN: not %ptxcc -fopenmp-offload-parallel-for=all -c %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: ptxcc: error: invalid value 'all' in '-fopenmp-offload-parallel-for=': expected 'report'
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for -### -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DRY
// DRY: "-E"
// DRY: offload-parallel-for: {{.*}}flags.i -> {{.*}}flags.opf.i
// DRY: "-emit-llvm" {{.*}}flags.opf.i
// The last of -f / -fno- wins.
// RUN: %ptxcc -fopenmp -fopenmp-offload-parallel-for -fno-openmp-offload-parallel-for -fptxcc-print-translated %s | FileCheck %s --check-prefix=NO
// NO: #pragma omp parallel for
// -save-temps keeps the translated text as NAME.opf.i.
// RUN: rm -rf %t.dir && mkdir %t.dir && cd %t.dir && %ptxcc -fopenmp -fopenmp-offload-parallel-for -save-temps -c %s
// RUN: FileCheck %s --check-prefix=TEMP < %t.dir/flags.opf.i
// TEMP: #pragma omp target teams distribute parallel for
// Queries do not see the flag.
// RUN: %ptxcc -fopenmp-offload-parallel-for -print-file-name=libomp.so | FileCheck %s --check-prefix=QUERY
// QUERY: libomp.so

double a[64];

void fill(void) {
#pragma omp parallel for
  for (int i = 0; i < 64; i++) a[i] = i;
}

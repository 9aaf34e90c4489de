// A misspelled variable in a data clause is reported by clang on the translated OpenMP text:
// the line is the user's, but the column and the quoted source line are those of the OpenMP
// pragma ('undeclared-in-clause.c:9:73: error: use of undeclared identifier 'b'' with '#pragma omp target teams
// distribute parallel for map(ompx_hold, tofrom: b[0:n])' shown). The front end does not
// check clause names against the declarations itself (a global named only in a pragma and
// declared in a header is not in its tree), so it cannot say it at the user's column yet.
// Build: target/release/ptxcc -fopenacc -c repro/undeclared-in-clause.c -o /tmp/x.o
void f(double *a, int n) {
  #pragma acc parallel loop copy(b[0:n])
  for (int i = 0; i < n; i++) a[i] = i;
}

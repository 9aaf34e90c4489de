use super::*;

fn tr(src: &str) -> Translation {
    match translate(src, Path::new("t.c")) {
        Ok(t) => t,
        Err(d) => panic!("translation failed: {d:?}"),
    }
}

/// The pragma lines of the result.
fn pragmas(t: &Translation) -> Vec<String> {
    t.text
        .lines()
        .filter(|l| l.trim_start().starts_with("#pragma"))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn converts_in_place_and_keeps_lines() {
    let src = "double a[100];\nint main(void) {\n  int n = 100;\n#pragma omp parallel for schedule(static) num_threads(64)\n  for (int i = 0; i < n; i++)\n    a[i] = i;\n  return 0;\n}\n";
    let t = tr(src);
    assert_eq!(t.text.lines().count(), src.lines().count());
    assert_eq!(
        pragmas(&t),
        ["#pragma omp target teams distribute parallel for schedule(static) thread_limit(64)"]
    );
    assert_eq!(
        t.text.replace(
            "target teams distribute parallel for schedule(static) thread_limit(64)",
            ""
        ),
        src.replace("parallel for schedule(static) num_threads(64)", "")
    );
    assert_eq!(t.report(), ["t.c:4: parallel for offloaded: target teams distribute parallel for (num_threads(64) became thread_limit(64))"]);
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
}

#[test]
fn no_parallel_for_no_change() {
    let src = "int main(void) {\n#pragma omp target\n  { }\n  return 0;\n}\n";
    let t = tr(src);
    assert_eq!(t.text, src);
    assert!(t.report().is_empty());
}

#[test]
fn device_code_is_left_alone() {
    let src = "\
void helper(double *a, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] = 0;
}
#pragma omp declare target
void dt(double *a, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] = 1;
}
#pragma omp end declare target
int main(void) {
  double a[10];
#pragma omp target teams map(a)
  {
    helper(a, 10);
#pragma omp parallel for
    for (int i = 0; i < 10; i++) a[i] = 2;
  }
  return 0;
}
";
    let t = tr(src);
    assert_eq!(t.text, src);
    assert!(t.report().is_empty(), "{:?}", t.report());
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
}

#[test]
fn host_reasons() {
    let src = "\
#include_not_needed
void ext(double *);
double coef[10];
static double use_coef(int i) { return coef[i]; }
static double lock_it(double x) {
#pragma omp critical
  { x += 1; }
  return x;
}
int omp_get_thread_num(void);
int main(void) {
  double a[10];
  double (*fp)(double) = 0;
  int last = 0;
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < 10; i++) a[i] = 0;
#pragma omp parallel for
  for (int i = 0; i < 10; i++) ext(&a[i]);
#pragma omp parallel for
  for (int i = 0; i < 10; i++) a[i] = fp(a[i]);
#pragma omp parallel for
  for (int i = 0; i < 10; i++) a[i] = omp_get_thread_num();
#pragma omp parallel for
  for (int i = 0; i < 10; i++) a[i] = use_coef(i);
#pragma omp parallel for
  for (int i = 0; i < 10; i++) a[i] = lock_it(a[i]);
#pragma omp parallel for lastprivate(last)
  for (int i = 0; i < 10; i++) last = i;
#pragma omp parallel for
  for (int i = 0; i < 10; i++) {
#pragma omp critical
    a[0] += 1;
  }
#pragma omp parallel
  {
#pragma omp parallel for
    for (int i = 0; i < 10; i++) a[i] = 3;
  }
  return 0;
}
";
    let src = src.replacen("#include_not_needed\n", "\n", 1);
    let t = tr(&src);
    assert_eq!(t.text, src, "nothing is converted");
    let expect = [
        "t.c:15: parallel for stays on the host: schedule(dynamic) (ptxcc offloads static schedules only)",
        "t.c:17: parallel for stays on the host: it calls 'ext', which is not defined in this translation unit",
        "t.c:19: parallel for stays on the host: it calls a function through a pointer",
        "t.c:21: parallel for stays on the host: it calls 'omp_get_thread_num' (OpenMP runtime routines answer differently on the device)",
        "t.c:23: parallel for stays on the host: it calls 'use_coef', which uses the global 'coef'",
        "t.c:25: parallel for stays on the host: it calls 'lock_it', which contains 'critical'",
        "t.c:27: parallel for stays on the host: its lastprivate clause",
        "t.c:29: parallel for stays on the host: it contains 'critical'",
        "t.c:36: parallel for stays on the host: it is nested in a 'parallel' construct",
    ];
    assert_eq!(t.report().len(), expect.len(), "{:#?}", t.report());
    for (got, want) in t.report().iter().zip(expect) {
        assert!(
            got.starts_with(want),
            "{got}\n  does not start with\n{want}"
        );
    }
    assert!(t
        .diagnostics()
        .iter()
        .all(|d| d.contains(": remark: parallel for stays on the host: ")));
    assert!(
        t.diagnostics()[0].starts_with("t.c:15:13: remark:"),
        "{}",
        t.diagnostics()[0]
    );
}

#[test]
fn pointers_without_extent_are_reported_and_listed() {
    let src = "\
double *gp;
void f(double *p, double q[], int n) {
  double *loc = p;
#pragma omp parallel for
  for (int i = 0; i < n; i++) p[i] = q[i];
#pragma omp target data map(tofrom: p[0:n]) map(to: q[0:n])
  {
#pragma omp parallel for
    for (int i = 0; i < n; i++) p[i] = q[i] + loc[i];
  }
#pragma omp target enter data map(to: gp[0:n])
}
void g(int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) gp[i] = 0;
}
";
    let t = tr(src);
    assert_eq!(
        pragmas(&t)
            .iter()
            .filter(|p| p.contains("target teams distribute parallel for"))
            .count(),
        3
    );
    // No warning: the runtime maps them by the loops' access ranges.
    assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
    let by_ranges = ": mapped at each launch by the loop's access ranges unless present)";
    assert_eq!(
        t.report(),
        [
            format!("t.c:4: parallel for offloaded: target teams distribute parallel for (pointers 'p', 'q'{by_ranges}"),
            format!("t.c:8: parallel for offloaded: target teams distribute parallel for (pointer 'loc'{by_ranges}"),
            "t.c:14: parallel for offloaded: target teams distribute parallel for".to_string(),
        ]
    );
    // Every offloaded directive is listed for the passes' access_maps hints.
    let lines: Vec<u32> = t.offloaded.iter().map(|l| l.line).collect();
    assert_eq!(lines, [4, 8, 14]);
}

#[test]
fn written_shared_scalars_are_mapped() {
    let src = "\
int main(void) {
  double a[100], s = 0;
  int found = 0, j, k = 0;
#pragma omp parallel for collapse(2) reduction(+:s) private(k)
  for (int i = 0; i < 10; i++)
    for (j = 0; j < 10; j++) {
      double t = a[i * 10 + j];
      k = 1;
      s += t;
      if (t > 3) found++;
    }
  return found + (int)s + k;
}
";
    let t = tr(src);
    assert_eq!(
        pragmas(&t),
        ["#pragma omp target teams distribute parallel for collapse(2) reduction(+:s) private(k) map(tofrom: found)"]
    );
}

#[test]
fn clauses_and_simd() {
    let src = "\
int main(void) {
  double a[100];
  int n = 100;
#pragma omp parallel for simd if(n > 10) proc_bind(close) simdlen(4)
  for (int i = 0; i < n; i++) a[i] = i;
#pragma omp parallel for if(parallel: n > 10) default(none) shared(a, n)
  for (int i = 0; i < n; i++) a[i] = i;
#pragma omp parallel for linear(n)
  for (int i = 0; i < 100; i++) a[i] = i;
  return 0;
}
";
    let t = tr(src);
    assert_eq!(
        pragmas(&t),
        [
            "#pragma omp target teams distribute parallel for simd if(target: n > 10) simdlen(4)",
            "#pragma omp target teams distribute parallel for if(target: n > 10) default(none) shared(a, n)",
            "#pragma omp parallel for linear(n)",
        ]
    );
    assert!(
        t.report()[0].contains("proc_bind(close) dropped"),
        "{}",
        t.report()[0]
    );
    assert!(
        t.report()[2].contains("stays on the host: its linear clause"),
        "{}",
        t.report()[2]
    );
}

#[test]
fn odd_input_never_panics() {
    let cases = [
        "#pragma omp parallel for",
        "#pragma omp parallel for\n",
        "#pragma omp parallel for schedule(\nint x;\n",
        "int main(void) {\n#pragma omp parallel for reduction(\n  for (;;) ;\n}\n",
        "int main(void) {\n#pragma omp parallel for\n  return 0;\n}\n",
        "int main(void) {\n#pragma omp parallel for collapse(9) reduction(: x) if() num_threads()\n  for (int i = 0; i < 3; i++) ;\n}\n",
        "void f(void) {\n#pragma omp parallel for ,,, )(  private(\n  for (int i = 0; i < 3; i++) { é = 1; }\n}\n",
        "#pragma omp end declare target\n#pragma omp declare target\nint main(void) {\n#pragma omp parallel for\n  for (int i = 0; i < 3; i++) ;\n}\n",
        "int main(void) { int i;\n#pragma omp parallel for\nfor (i = 0; i < 3; i++)\n#pragma omp parallel for\nfor (int j = 0; j < 3; j++) ;\n}\n",
    ];
    for src in cases {
        let t = translate(src, Path::new("odd.c"));
        if let Ok(t) = t {
            assert_eq!(t.text.lines().count(), src.lines().count(), "{src:?}");
        }
    }
}

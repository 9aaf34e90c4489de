use super::*;

const HEAD: &str = "# 1 \"x.c\"\n";

fn ok(src: &str) -> Translation {
    translate(&format!("{HEAD}{src}"), "x.c", false).expect("translates")
}

fn errors(src: &str) -> Vec<String> {
    translate(&format!("{HEAD}{src}"), "x.c", true)
        .expect_err("must fail")
        .iter()
        .map(|d| d.to_string())
        .collect()
}

#[test]
fn brackets_the_block_on_the_same_lines() {
    let src = "#define N 8\nvoid f(double *a) {\n#pragma ptxcc trans transpose(a[0:N][0:6][0:5], [1,3,2])\n{\n  g(a);\n}\n}\n";
    let t = ok(src);
    assert_eq!(t.text.lines().count(), src.lines().count() + 1);
    let lines: Vec<&str> = t.text.lines().collect();
    assert!(lines[3].starts_with("{ extern void __ptxcc_layout_begin"));
    assert!(
        lines[3].contains("__ptxcc_layout_begin((const void *)(a), 0UL, \"a;8,6,5;1,3,2;x.c:3:")
    );
    assert!(lines[6].starts_with("} __ptxcc_layout_end((const void *)(a), \"a;8,6,5;1,3,2;x.c:3:"));
    assert!(lines[6].ends_with("); }"));
    assert_eq!(t.report.len(), 1);
    assert!(
        t.report[0].contains("'a'[8][6][5] is laid out as [8][5][6]"),
        "{:?}",
        t.report
    );
}

#[test]
fn run_time_extents() {
    let src = "#define NC 4\nvoid f(double *a, int nx, int ny) {\n#pragma ptxcc trans transpose(a[0:nx][0:ny * 2][0:NC], [1,3,2])\n{ }\n}\n";
    let t = ok(src);
    let lines: Vec<&str> = t.text.lines().collect();
    assert!(lines[3].contains("\"a;?,?,4;1,3,2;x.c:3:"), "{}", lines[3]);
    assert!(
        lines[3].contains(
            "(const unsigned long[]){(unsigned long)(nx), (unsigned long)(ny * 2), 4UL}, (unsigned long *)0);"
        ),
        "{}",
        lines[3]
    );
    assert!(
        t.report[0].contains(
            "'a'[nx][ny * 2][4] is laid out as [nx][4][ny * 2] on the device (extents evaluated"
        ),
        "{:?}",
        t.report
    );
    // Constant extents pass no values.
    let t = ok("void f(double *a) {\n#pragma ptxcc trans transpose(a[0:4][0:2], [2,1])\n{ }\n}\n");
    assert!(t
        .text
        .contains(", (const unsigned long *)0, (unsigned long *)0);"));
}

#[test]
fn paper_spelling_and_openacc() {
    let src = "void f(void) {\n#pragma acc trans transpose { a[0:4][0:3], [2,1] }\n#pragma acc data copy(a)\nfor (int i = 0; i < 4; i++) a[i][0] = 1;\n}\n";
    let t = translate(&format!("{HEAD}{src}"), "x.c", true).expect("ok");
    assert!(t.text.contains("a[i][0] = 1; __ptxcc_layout_end"));
    // Not under -fopenmp alone.
    let t = ok(src);
    assert!(!t.text.contains("__ptxcc_layout_begin"));
}

#[test]
fn located_errors() {
    let e =
        errors("void f(double *a) {\n#pragma ptxcc trans transpose(a[0:4][n:4], [1,2])\n{ }\n}\n");
    assert!(e[0].starts_with("x.c:2:"), "{e:?}");
    assert!(
        e[0].contains("'n' is not an integer constant expression"),
        "{e:?}"
    );
    let e =
        errors("void f(double *a) {\n#pragma ptxcc trans transpose(a[0:4][0:], [1,2])\n{ }\n}\n");
    assert!(e[0].starts_with("x.c:2:"), "{e:?}");
    let e =
        errors("void f(double *a) {\n#pragma ptxcc trans transpose(a[0:4][0:4], [1,3])\n{ }\n}\n");
    assert!(e[0].contains("not a permutation of 1..2"), "{e:?}");
    let e = errors(
        "void f(double *a) {\n#pragma ptxcc trans transpose(a[0:4][0:4], [1,2,3])\n{ }\n}\n",
    );
    assert!(
        e[0].contains("has 3 entries but its section has 2 dimensions"),
        "{e:?}"
    );
    let e =
        errors("void f(double *a) {\n#pragma ptxcc trans transpose(a[1:4][0:4], [2,1])\n{ }\n}\n");
    assert!(e[0].contains("must start at 0"), "{e:?}");
    let e = errors("int f(double *a) {\n#pragma ptxcc trans transpose(a[0:4][0:4], [2,1])\n{ if (a) return 1; }\nreturn 0; }\n");
    assert!(
        e[0].starts_with("x.c:3:10: error: 'return' leaves the trans block of 'a'"),
        "{e:?}"
    );
    let e = errors("void f(double *a) {\nfor (;;) {\n#pragma ptxcc trans transpose(a[0:4][0:4], [2,1])\n{ for (;;) break; break; }\n}\n}\n");
    assert!(e[0].contains("'break' leaves"), "{e:?}");
    let e = errors("void f(double *a) {\n#pragma ptxcc trans transpose(a[0:4][0:4], [2,1])\n{\n#pragma ptxcc trans transpose(a[0:16], [1])\n{ }\n}\n}\n");
    assert!(e[0].starts_with("x.c:4:"), "{e:?}");
    assert!(
        e[0].contains("already laid out by the trans directive at x.c:2"),
        "{e:?}"
    );
    let e = errors("void f(double *a) {\n#pragma ptxcc trans soa(a[0:4][0:2])\n{ }\n}\n");
    assert!(
        e[0].contains("soa takes a one-dimensional section"),
        "{e:?}"
    );
    let e = errors("void f(double *a) {\n#pragma ptxcc trans transpose(a[0:4], [1])\n}\n");
    assert!(
        e[0].contains("must be followed by a structured block"),
        "{e:?}"
    );
    let e = errors("void f(double *a) {\n#pragma ptxcc trans transpose(s.a[0:4], [1])\n{}\n}\n");
    assert!(e[0].contains("must be a variable"), "{e:?}");
    let e = errors("void f(double *a) {\n#pragma ptxcc trans transpose(a, [1])\n{}\n}\n");
    assert!(e[0].contains("needs an array section"), "{e:?}");
}

#[test]
fn constant_extents() {
    assert_eq!(parse::eval("(4+2)*3 - 10 / 2 % 3"), Ok(16));
    assert_eq!(parse::eval("0x10u"), Ok(16));
    assert!(parse::eval("n*2").is_err());
    assert!(parse::eval("1/0").is_err());
}

#[test]
fn statements() {
    let t = b"for (i = 0; i < n; i++) { x; } y;";
    assert_eq!(block::statement_end(t, 0), Some(30));
    let t = b"if (a) b; else { c; } d;";
    assert_eq!(block::statement_end(t, 0), Some(21));
    let t = b"do { x; } while (y); z;";
    assert_eq!(block::statement_end(t, 0), Some(20));
    let t = b"#pragma omp target data map(a)\n{ s = \"}\"; }";
    assert_eq!(block::statement_end(t, 0), Some(t.len()));
}

#[test]
fn the_pragma_operator_is_a_mention_too() {
    // A macro that writes the directive with `_Pragma` needs the #define lines kept as much
    // as a `#pragma` line does: its extents are macros too.
    assert!(super::mentions_directive(
        "#define RUN() _Pragma(\"ptxcc trans transpose(a[0:I][0:K], [2,1])\") { f(); }\n"
    ));
    assert!(super::mentions_directive(
        "  _Pragma ( \"acc trans soa(p[0:N])\")\n"
    ));
    assert!(super::mentions_directive(
        "#pragma ptxcc trans soa(p[0:n])\n"
    ));
    assert!(!super::mentions_directive(
        "_Pragma(\"omp target data map(tofrom : a)\") _Pragma(\"ptxcc transform\")\n"
    ));
    assert!(!super::mentions_directive("int _Pragma_count;\n"));
}

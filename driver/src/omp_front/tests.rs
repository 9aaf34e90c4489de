use super::*;

fn run_ok(text: &str) -> Output {
    match run(text, "t.c", OmpVersion::DEFAULT) {
        Ok(o) => o,
        Err(e) => panic!("unexpected errors: {e:?}"),
    }
}

#[test]
fn contiguous_updates_are_left_to_clang() {
    let text = "#pragma omp target update from(r[0:8], x, m[2][0:4]) nowait\nint y;\n";
    let o = run_ok(text);
    assert_eq!(o.text, text);
    assert!(o.warnings.is_empty());
}

#[test]
fn strided_item_becomes_a_runtime_call_on_the_same_line() {
    let text = "int a;\n#pragma omp target update from(r[0:8:2], x) device(d) if(c)\nint b;\n";
    let o = run_ok(text);
    let lines: Vec<&str> = o.text.lines().collect();
    assert_eq!(lines.len(), 3, "line numbers must not move: {}", o.text);
    assert_eq!(lines[0], "int a;");
    assert_eq!(lines[2], "int b;");
    let l = lines[1];
    assert!(
        l.starts_with("{ extern void __ptxcc_target_update_strided("),
        "{l}"
    );
    assert!(l.contains(" if (c) {"), "{l}");
    assert!(l.contains("long long __ptxcc_n[1] = {(8)};"), "{l}");
    assert!(
        l.contains("long long __ptxcc_s[1] = {(2) * (long long)sizeof((r)[0])};"),
        "{l}"
    );
    assert!(
        l.contains("__ptxcc_target_update_strided(\"t.c:2:32\", (d), \"r[0:8:2]\", &(r)[(0)], (long long)sizeof((r)[0]), 1, __ptxcc_n, __ptxcc_s, 2);"),
        "{l}"
    );
    // The rest stays with clang, with its other clauses.
    assert!(
        l.ends_with("_Pragma(\"omp target update from( x) device(d) if(c)\") }"),
        "{l}"
    );
}

#[test]
fn multidimensional_and_present() {
    let text = "#pragma omp target update to(present: m[1:2][0:n:3]) depend(in: m)\n";
    let l = run_ok(text).text;
    assert!(l.contains("_Pragma(\"omp taskwait depend(in: m)\")"), "{l}");
    assert!(l.contains("__ptxcc_n[2] = {(2), (n)}"), "{l}");
    assert!(
        l.contains(
            "__ptxcc_s[2] = {(1) * (long long)sizeof((m)[0]), (3) * (long long)sizeof((m)[0][0])}"
        ),
        "{l}"
    );
    assert!(l.contains("&(m)[(1)][(0)]"), "{l}");
    // to | present
    assert!(l.contains("__ptxcc_s, 4097);"), "{l}");
    // The second dimension must be an array.
    assert!(
        l.contains("_Static_assert(__builtin_types_compatible_p(__typeof__((m)[0])"),
        "{l}"
    );
    // Nothing is left for clang's pragma.
    assert!(!l.contains("omp target update"), "{l}");
}

#[test]
fn omitted_length_defaults_to_the_extent_over_the_stride() {
    let l = run_ok("#pragma omp target update from(v[1::2])\n").text;
    assert!(
        l.contains("(((long long)(sizeof((v)) / sizeof((v)[0])) - (1) + (2) - 1) / (2))"),
        "{l}"
    );
    assert!(l.contains("needs a length"), "{l}");
}

#[test]
fn mapper_modifier_updates_each_element_through_clang() {
    let l = run_ok("#pragma omp target update to(present, mapper(m): s[1:n:2]) device(d)\n").text;
    assert!(l.contains("long long __ptxcc_n[1] = {(n)};"), "{l}");
    assert!(
        l.contains(
            "for (long long __ptxcc_i0 = 0; __ptxcc_i0 < __ptxcc_n[0]; __ptxcc_i0++) \
             { _Pragma(\"omp target update to(present, mapper(m): s[(1) + __ptxcc_i0 * (2) : 1]) device(d)\") }"
        ),
        "{l}"
    );
    assert!(!l.contains("__ptxcc_target_update_strided(\"t.c"), "{l}");
}

#[test]
fn mapper_modifier_on_a_multidimensional_section() {
    let l = run_ok("#pragma omp target update from(mapper(m): g[0:2:2][3][1:4])\n").text;
    assert!(
        l.contains("_Pragma(\"omp target update from(mapper(m): g[(0) + __ptxcc_i0 * (2)][(3)][(1) + __ptxcc_i2 * (1) : 1])\")"),
        "{l}"
    );
    // The index dimension has no loop.
    assert!(!l.contains("__ptxcc_i1"), "{l}");
}

#[test]
fn iterator_modifier_is_refused_with_its_location() {
    let e = run(
        "#pragma omp target update to(iterator(i = 0:2): s[0:n:2])\n",
        "t.c",
        OmpVersion::DEFAULT,
    );
    // iterator_section may take it first; either way, no strided copy of it.
    if let Err(e) = e {
        assert!(e.iter().any(|d| d.message.contains("iterator")), "{e:?}");
    }
}

#[test]
fn declared_mappers_make_struct_sections_go_element_by_element() {
    let text = "#pragma omp declare mapper(struct S s) map(s.x[0:s.n])\n\
                #pragma omp target update to(arr[0:n:2])\n";
    let l = run_ok(text).text;
    assert!(
        l.contains("if (__builtin_classify_type((arr)[0]) == 12 || __builtin_classify_type((arr)[0]) == 13)"),
        "{l}"
    );
    assert!(
        l.contains("_Pragma(\"omp target update to(arr[(0) + __ptxcc_i0 * (2) : 1])\")"),
        "{l}"
    );
    assert!(l.contains("} else { "), "{l}");
    assert!(l.contains("__ptxcc_target_update_strided(\"t.c:2:"), "{l}");
}

#[test]
fn reduction_mapped_from_only_warns_at_the_map_item() {
    let text =
        "#pragma omp target teams distribute parallel for map(from: sum, s) reduction(+: s)\n";
    let o = run_ok(text);
    assert_eq!(o.text, text);
    assert_eq!(o.warnings.len(), 1, "{:?}", o.warnings);
    assert!(
        o.warnings[0]
            .starts_with("t.c:1:65: warning: reduction variable 's' is mapped 'from' only"),
        "{}",
        o.warnings[0]
    );
    // tofrom, or another variable: nothing.
    let ok = "#pragma omp target teams distribute parallel for map(tofrom: s) map(from: y) reduction(+: s)\n";
    assert!(run_ok(ok).warnings.is_empty());
}

#[test]
fn lastprivate_of_a_combined_target_construct_is_mapped_tofrom() {
    let text = "#pragma omp target teams distribute parallel for lastprivate(conditional: a, b) lastprivate(a)\nint y;\n";
    let o = run_ok(text);
    assert_eq!(
        o.text,
        "#pragma omp target teams distribute parallel for lastprivate(conditional: a, b) lastprivate(a) map(tofrom: a, b)\nint y;\n"
    );
}

#[test]
fn lastprivate_the_construct_maps_or_privatises_is_left_alone() {
    for text in [
        "#pragma omp target teams distribute parallel for lastprivate(a) map(from: a)\n",
        "#pragma omp target parallel for firstprivate(a) lastprivate(a)\n",
        "#pragma omp parallel for lastprivate(a)\n",
        "#pragma omp teams distribute lastprivate(a)\n",
    ] {
        assert_eq!(run_ok(text).text, text);
    }
    let o = run_ok("#pragma omp target parallel for lastprivate(a, b) map(to: b)\n");
    assert_eq!(
        o.text,
        "#pragma omp target parallel for lastprivate(a, b) map(to: b) map(tofrom: a)\n"
    );
}

#[test]
fn defaultmap_present_over_scalars_is_refused_at_the_clause() {
    for clause in [
        "defaultmap(present)",
        "defaultmap(present: scalar)",
        "defaultmap( present :all)",
    ] {
        let text = format!("int a;\n#pragma omp target map(tofrom: e) {clause}\n");
        let e = run(&text, "t.c", OmpVersion::DEFAULT).expect_err(clause);
        assert_eq!(e.len(), 1);
        let loc = e[0].loc.as_ref().unwrap();
        assert_eq!((loc.line, loc.col), (2, 35), "{clause}");
        assert!(e[0].message.contains("scalar"), "{}", e[0].message);
    }
}

#[test]
fn defaultmap_present_of_aggregates_and_pointers_is_left_to_clang() {
    let text = "#pragma omp target defaultmap(present: aggregate) defaultmap(tofrom: scalar)\n";
    assert_eq!(run_ok(text).text, text);
    // A region that uses only arrays: every category is clang's (libclang reads the types).
    let text = "int a[4];\nvoid f(int n) {\n#pragma omp target defaultmap(present:pointer) defaultmap(present)\n  \
                { int k = 2; a[k] = 1; }\n}\n";
    assert_eq!(run_ok(text).text, text);
    // The same region using the parameter n: refused, naming it.
    let text = "int a[4];\nvoid f(int n, int *p) {\n#pragma omp target defaultmap(present)\n  a[n] = *p;\n}\n";
    let e = run(text, "t.c", OmpVersion::DEFAULT).expect_err("n and p");
    assert_eq!(e.len(), 1);
    assert!(
        e[0].message
            .contains("the scalar and pointer variables 'n', 'p' that this region uses"),
        "{}",
        e[0].message
    );
}

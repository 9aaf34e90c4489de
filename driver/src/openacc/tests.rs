//! Unit tests of the OpenACC front end: the directive parser, the source map, the translation,
//! and a bounded fuzz run of the parser and of the whole translation (seeded, so reproducible).
use super::ast::*;
use super::parser::{acc_pragma_start, parse_directive};
use super::srcmap::{expand_macros, parse_define, SourceMap};
use std::collections::HashMap;
use std::path::Path;

fn parse(s: &str) -> Result<Directive, super::parser::ParseError> {
    let line = format!("#pragma acc {s}");
    let at = acc_pragma_start(&line).expect("an acc pragma");
    parse_directive(&line, at)
}

fn err(s: &str) -> String {
    match parse(s) {
        Ok(d) => panic!("expected an error for '{s}', got {d:?}"),
        Err(e) => e.message,
    }
}

#[test]
fn recognises_pragma_lines() {
    assert_eq!(acc_pragma_start("#pragma acc parallel"), Some(11));
    assert_eq!(acc_pragma_start("  #  pragma   acc loop"), Some(17));
    assert_eq!(acc_pragma_start("#pragma accel"), None);
    assert_eq!(acc_pragma_start("#pragma omp parallel"), None);
    assert_eq!(acc_pragma_start("int x;"), None);
}

#[test]
fn directive_names() {
    use DirectiveKind as D;
    for (s, k) in [
        ("parallel", D::Parallel),
        ("parallel loop", D::ParallelLoop),
        ("serial", D::Serial),
        ("serial loop", D::SerialLoop),
        ("kernels", D::Kernels),
        ("kernels loop", D::KernelsLoop),
        ("loop", D::Loop),
        ("data copy(a)", D::Data),
        ("enter data copyin(a)", D::EnterData),
        ("exit data delete(a)", D::ExitData),
        ("host_data use_device(p)", D::HostData),
        ("update self(a)", D::Update),
        ("declare create(a)", D::Declare),
        ("routine seq", D::Routine),
        ("atomic", D::Atomic),
        ("wait", D::Wait),
        ("cache(a[0:4])", D::Cache),
        ("init", D::Init),
        ("shutdown", D::Shutdown),
        ("set device_num(0)", D::Set),
    ] {
        assert_eq!(
            parse(s).unwrap_or_else(|e| panic!("{s}: {e:?}")).kind,
            k,
            "{s}"
        );
    }
}

#[test]
fn data_clauses_with_sections_members_and_modifiers() {
    let d = parse("data copy(a[0:n], b[:m][2:3], s.x[1:k], p->q) copyin(readonly: c) create(zero: z[0:4]) pcopyin(w)")
        .unwrap();
    let ClauseKind::Data {
        kind,
        vars,
        modifier,
    } = &d.clauses[0].kind
    else {
        panic!()
    };
    assert_eq!(*kind, DataKind::Copy);
    assert!(modifier.is_none());
    let r: Vec<String> = vars.iter().map(|v| v.render()).collect();
    assert_eq!(r, ["a[0:n]", "b[:m][2:3]", "s.x[1:k]", "p->q"]);
    assert!(vars[0].has_section() && vars[3].has_member() && !vars[3].has_section());
    assert!(matches!(
        &d.clauses[1].kind,
        ClauseKind::Data {
            kind: DataKind::CopyIn,
            modifier: Some(DataModifier::ReadOnly),
            ..
        }
    ));
    assert!(matches!(
        &d.clauses[2].kind,
        ClauseKind::Data {
            kind: DataKind::Create,
            modifier: Some(DataModifier::Zero),
            ..
        }
    ));
    assert!(matches!(
        &d.clauses[3].kind,
        ClauseKind::Data {
            kind: DataKind::CopyIn,
            ..
        }
    ));
    // Expressions with nested brackets, calls and the ternary operator inside sections.
    let d = parse("enter data copyin(a[f(1, 2):n ? 3 : 4], b[idx[i]])").unwrap();
    let ClauseKind::Data { vars, .. } = &d.clauses[0].kind else {
        panic!()
    };
    assert_eq!(vars[0].render(), "a[f(1, 2):n ? 3 : 4]");
    assert_eq!(vars[1].render(), "b[idx[i]]");
}

#[test]
fn loop_clauses() {
    let d = parse("parallel loop gang(num: 8, static: *) worker(4) vector(length: 128) collapse(force: 2) private(t, u) reduction(max: m)").unwrap();
    let ClauseKind::Gang(g) = &d.find(ClauseName::Gang).unwrap().kind else {
        panic!()
    };
    assert_eq!(g.num.as_ref().unwrap().text, "8");
    assert_eq!(g.static_, Some(GangStatic::Star));
    assert!(matches!(
        d.find(ClauseName::Collapse).unwrap().kind,
        ClauseKind::Collapse {
            force: true,
            count: 2
        }
    ));
    assert!(matches!(
        &d.find(ClauseName::Reduction).unwrap().kind,
        ClauseKind::Reduction {
            op: ReductionOp::Max,
            ..
        }
    ));
    let d = parse("loop tile(32, *) independent").unwrap();
    let ClauseKind::Tile(t) = &d.find(ClauseName::Tile).unwrap().kind else {
        panic!()
    };
    assert_eq!(t.len(), 2);
    assert_eq!(t[1], TileSize::Star);
    let d = parse("loop gang(static: 4)").unwrap();
    let ClauseKind::Gang(g) = &d.clauses[0].kind else {
        panic!()
    };
    assert!(matches!(&g.static_, Some(GangStatic::Size(e)) if e.text == "4"));
}

#[test]
fn compute_clauses() {
    let d = parse("parallel num_gangs(n*2) num_workers(4) vector_length(128) if(x > 1) self async(q) wait(devnum: 1: queues: 2, 3) default(present)").unwrap();
    assert!(d.has(ClauseName::NumGangs) && d.has(ClauseName::SelfCond));
    let ClauseKind::Wait(Some(w)) = &d.find(ClauseName::Wait).unwrap().kind else {
        panic!()
    };
    assert_eq!(w.devnum.as_ref().unwrap().text, "1");
    assert_eq!(w.queues.len(), 2);
    assert!(matches!(
        d.find(ClauseName::Default).unwrap().kind,
        ClauseKind::Default(DefaultKind::Present)
    ));
    let d = parse("wait(1, 2) async(3) if(c)").unwrap();
    assert!(matches!(&d.arg, DirectiveArg::Wait(Some(w)) if w.queues.len() == 2));
    let d = parse("atomic capture").unwrap();
    assert_eq!(d.arg, DirectiveArg::Atomic(AtomicKind::Capture));
    let d = parse("routine(foo) worker bind(\"foo_dev\") nohost").unwrap();
    assert_eq!(d.arg, DirectiveArg::Routine(Some("foo".into())));
    assert!(
        matches!(&d.find(ClauseName::Bind).unwrap().kind, ClauseKind::Bind(n) if n == "foo_dev")
    );
    let d = parse("update self(a[0:n]) host(b) device(c) if_present").unwrap();
    assert_eq!(
        d.all(ClauseName::SelfList).count() + d.all(ClauseName::Host).count(),
        2
    );
}

#[test]
fn device_type_groups_apply_to_nvidia() {
    let d = parse(
        "parallel loop vector_length(32) device_type(nvidia) vector_length(64) device_type(radeon) vector_length(256)",
    )
    .unwrap();
    let v: Vec<&Clause> = d.all(ClauseName::VectorLength).collect();
    assert_eq!(v.len(), 1);
    assert!(matches!(&v[0].kind, ClauseKind::VectorLength(e) if e.text == "64"));
    let d = parse("parallel loop device_type(host) num_gangs(2) dtype(*) num_gangs(8)").unwrap();
    assert!(
        matches!(&d.find(ClauseName::NumGangs).unwrap().kind, ClauseKind::NumGangs(v) if v[0].text == "8")
    );
    let d = parse("loop device_type(radeon) gang").unwrap();
    assert!(!d.has(ClauseName::Gang));
    // init/shutdown/set: device_type is an ordinary clause.
    let d = parse("init device_type(nvidia) device_num(1)").unwrap();
    assert!(d.has(ClauseName::DeviceType) && d.has(ClauseName::DeviceNum));
    assert!(err("parallel device_type(nvidia) copy(a)")
        .contains("may not follow a 'device_type' clause"));
}

#[test]
fn diagnostics() {
    assert_eq!(err("paralel"), "unknown OpenACC directive 'paralel'");
    assert_eq!(err("parallel gangg"), "unknown OpenACC clause 'gangg'");
    assert_eq!(
        err("kernels gang"),
        "clause 'gang' is not allowed on '#pragma acc kernels'"
    );
    assert_eq!(
        err("serial num_gangs(2)"),
        "clause 'num_gangs' is not allowed on '#pragma acc serial'"
    );
    assert!(err("data copy(a[0:n)").starts_with("malformed array section '[0:n)'"));
    assert!(err("data copy(a[0:n:2])").starts_with("malformed array section"));
    assert!(err("data copy(a[0:n].x)").contains("a member cannot follow an array section"));
    assert!(err("parallel loop reduction(%:x)").starts_with("unknown reduction operator '%'"));
    assert!(err("loop collapse(n)").contains("positive integer constant"));
    assert!(err("loop seq gang").contains("cannot be combined with 'seq'"));
    assert!(err("loop auto independent").contains("cannot be combined with 'auto'"));
    assert!(err("loop collapse(2) tile(2,2)").contains("cannot be combined with 'collapse'"));
    assert!(err("parallel if(a) if(b)").contains("appears more than once"));
    assert!(err("enter data").contains("requires at least one data clause"));
    assert!(err("enter data copyin(zero: a)").contains("modifier 'zero' is not allowed"));
    assert!(err("parallel copy(").contains("expected a variable name"));
    assert!(err("parallel copy(a").contains("expected ')'"));
    assert!(err("parallel default(shared)").contains("expected 'none' or 'present'"));
    assert!(
        err("parallel seq(1)").contains("not allowed")
            || err("loop seq(1)").contains("takes no argument")
    );
    assert!(err("loop seq(1)").contains("takes no argument"));
    assert!(err("update").contains("requires a 'self', 'host' or 'device' clause"));
    assert!(err("routine seq vector").contains("cannot be combined with 'seq'"));
    assert!(err("routine gang worker").contains("exactly one"));
    assert!(err("").contains("expected an OpenACC directive name"));
    assert!(err("\"str\"").contains("expected an OpenACC directive name"));
}

#[test]
fn line_markers_and_locations() {
    let text = "# 1 \"a.c\"\nint x;\n# 10 \"b.h\" 1 3 4\nint y;\nint z;\n# 3 \"a.c\" 2\nint w;\n";
    let sm = SourceMap::new(text, "fallback.c");
    let off_z = text.find("int z").unwrap();
    let l = sm.loc(off_z + 4);
    assert_eq!((l.file.as_str(), l.line, l.col), ("b.h", 11, 5));
    assert_eq!(sm.origin(sm.line_of(off_z)).flags, "3 4");
    let off_w = text.find("int w").unwrap();
    assert_eq!(sm.loc(off_w).line, 3);
    assert_eq!(sm.loc(off_w).file, "a.c");
    let no_markers = SourceMap::new("a\nb\n", "f.c");
    assert_eq!(no_markers.loc(2).line, 2);
}

#[test]
fn macros_in_pragmas() {
    let mut t = HashMap::new();
    for d in [
        "#define N 100",
        "#define M (N*2)",
        "#define SEC(a, n) a[0:n]",
        "#define CAT(a, b) a ## b",
        "#define STR(x) #x",
        "#define SELF SELF+1",
    ] {
        let (n, m) = parse_define(d).unwrap();
        t.insert(n, m.unwrap());
    }
    assert_eq!(
        expand_macros("copy(a[0:N], b[0:M])", &t),
        "copy(a[0:100], b[0:(100*2)])"
    );
    assert_eq!(expand_macros("copy(SEC(x, N))", &t), "copy(x[0:100])");
    assert_eq!(expand_macros("copy(CAT(x, y))", &t), "copy(xy)");
    assert_eq!(expand_macros("bind(STR(f))", &t), "bind(\"f\")");
    assert_eq!(expand_macros("if(SELF)", &t), "if(SELF+1)");
    assert_eq!(expand_macros("copy(\"N\")", &t), "copy(\"N\")");
    assert!(matches!(parse_define("#undef N"), Some((n, None)) if n == "N"));
}

/// A preprocessed translation unit as clang -E writes it.
fn tu(body: &str) -> String {
    format!("# 1 \"t.c\"\n# 1 \"<built-in>\" 1\n# 1 \"t.c\" 2\n{body}")
}

fn translate(body: &str) -> super::Translation {
    match super::translate_full(&tu(body), Path::new("t.c")) {
        Ok(t) => t,
        Err(d) => panic!(
            "unexpected errors: {}",
            d.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

fn libclang() -> bool {
    match super::cast::ensure_loaded() {
        Ok(()) => true,
        Err(e) => {
            eprintln!("libclang not available, translation tests skipped: {e}");
            false
        }
    }
}

#[test]
fn translation_keeps_lines() {
    if !libclang() {
        return;
    }
    let src = "void f(int n, float *a) {\n#pragma acc kernels copy(a[0:n])\n{\nfor (int i = 0; i < n; i++) a[i] = 1;\nfor (int i = 1; i < n; i++) a[i] += a[i-1];\n}\n}\n";
    let t = translate(src);
    // Every original line is still at its line number once markers are applied.
    let sm = SourceMap::new(&t.text, "t.c");
    let off = t.text.find("a[i] += a[i-1]").unwrap();
    assert_eq!(sm.loc(off).line, 5);
    let off = t.text.find("a[i] = 1;").unwrap();
    assert_eq!(sm.loc(off).line, 4);
    assert!(t
        .text
        .contains("#pragma omp target data map(ompx_hold, tofrom: a[0:n])"));
    assert!(
        t.report()
            .iter()
            .any(|l| l
                == "t.c:4: loop parallelized: gang(blockIdx.x) vector(threadIdx.x) (independent iterations proven)"),
        "{:?}",
        t.report()
    );
    assert!(
        t.report()
            .iter()
            .any(|l| l == "t.c:5: loop not parallelized: loop-carried dependence on a"),
        "{:?}",
        t.report()
    );
}

#[test]
fn translation_of_parallel_loop_and_report() {
    if !libclang() {
        return;
    }
    let t = translate("void f(int n, float x, float *y) {\n#pragma acc parallel loop copy(y[0:n]) vector_length(128)\nfor (int i = 0; i < n; i++) y[i] *= x;\n}\n");
    assert!(t
        .text
        .contains("#pragma omp target teams distribute parallel for thread_limit(128) map(ompx_hold, tofrom: y[0:n])\n"));
    assert_eq!(
        t.report()[0],
        "t.c:3: loop parallelized: gang(blockIdx.x) vector(threadIdx.x, 128)"
    );
    assert!(t
        .report()
        .iter()
        .any(|l| l.contains("y[0:n] copied to the device at entry and back at exit")));
}

#[test]
fn compute_lines_name_the_combined_loop_kernels() {
    if !libclang() {
        return;
    }
    let src = "void f(int n, float *a, float *b) {
#pragma acc parallel loop
for (int i = 0; i < n; i++) a[i] = 1;
#pragma acc serial
for (int i = 0; i < n; i++) a[i] = 2;
#pragma acc parallel
{
#pragma acc loop
for (int i = 0; i < n; i++) b[i] = 3;
}
#pragma acc kernels
{
for (int i = 0; i < n; i++) a[i] = 1;
for (int i = 1; i < n; i++) a[i] += a[i-1];
}
}
";
    let t = translate(src);
    // The parallel loop and the kernels region's parallel loop: their launches pass a trip count.
    let lines: Vec<u32> = t.compute_lines.iter().map(|l| l.line).collect();
    assert_eq!(lines, vec![2, 13], "{}", t.text);
    assert!(t.compute_lines.iter().all(|l| l.file == "t.c"));
    let report = t.report();
    let data = |line: &str| {
        report
            .iter()
            .find(|l| l.starts_with(line) && l.contains("data:"))
            .cloned()
            .unwrap_or_default()
    };
    assert!(
        data("t.c:3:").contains("implicit copy(a[lo:hi]) from the loop bounds"),
        "{report:?}"
    );
    assert!(
        data("t.c:5:").contains("no implicit copy from the loop bounds for 'a'"),
        "{report:?}"
    );
    assert!(
        data("t.c:7:").contains("a parallel region runs gang-redundant code"),
        "{report:?}"
    );
    assert!(
        data("t.c:12:").contains("not in its parts that run as one thread"),
        "{report:?}"
    );
}

#[test]
fn dependence_test() {
    if !libclang() {
        return;
    }
    let cases = [
        ("for (int i = 0; i < n; i++) a[i] = b[i] + 1;", true),
        ("for (int i = 0; i < n; i++) a[i+1] = a[i];", false),
        ("for (int i = 0; i < n; i++) a[2*i] = a[2*i] + b[i];", true),
        ("for (int i = 0; i < n; i++) a[0] += b[i];", false),
        ("for (int i = 0; i < n; i++) s += b[i];", true),
        (
            "for (int i = 0; i < n; i++) { t = b[i]; a[i] = t * t; }",
            true,
        ),
        ("for (int i = 0; i < n; i++) { a[i] = t; t = b[i]; }", false),
        ("for (int i = 0; i < n; i++) if (b[i] > 0) break;", false),
        (
            "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) m[i][j] = m[i][j] * 2;",
            true,
        ),
        (
            "for (int i = 0; i < n; i++) for (int j = 1; j < n; j++) m[i][j] = m[i][j-1];",
            true,
        ),
        (
            "for (int i = 1; i < n; i++) for (int j = 0; j < n; j++) m[i][j] = m[i-1][j];",
            false,
        ),
        ("for (int i = 0; i < n; i++) s = s > b[i] ? s : b[i];", true),
        ("for (int i = 0; i < n; i++) g(a);", false),
        (
            "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i * n + j] = b[j];",
            true,
        ),
        (
            "for (int i = 0; i < n; i++) for (int j = 0; j < 8; j++) a[8 * i + j] = 0;",
            true,
        ),
        (
            "for (int i = 0; i < n; i++) for (int j = 0; j < 9; j++) a[8 * i + j] = 0;",
            false,
        ),
        (
            "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i + j] = 1;",
            false,
        ),
        (
            "for (int i = 0; i < n; i++) for (int j = 0; j <= n; j++) a[i * n + j] = 1;",
            false,
        ),
    ];
    for (lp, parallel) in cases {
        let src = format!("void g(float*);\nvoid f(int n, float *a, float *b, float m[8][8]) {{\nfloat s = 0, t = 0;\n#pragma acc kernels\n{{\n{lp}\n}}\n}}\n");
        let t = translate(&src);
        // The outer loop is parallel when nothing is reported as not parallelized.
        let got = !t.report().iter().any(|l| l.contains("not parallelized"));
        assert_eq!(got, parallel, "{lp}: {:?}", t.report());
    }
}

#[test]
fn default_none_and_reduction_type_errors() {
    if !libclang() {
        return;
    }
    let src = "void f(int n, float *a, double d, float k) {\n#pragma acc parallel loop default(none) copy(a[0:n]) firstprivate(n)\nfor (int i = 0; i < n; i++) a[i] = k;\n#pragma acc parallel loop reduction(|:d)\nfor (int i = 0; i < n; i++) d += 1;\n}\n";
    let e = super::translate_full(&tu(src), Path::new("t.c")).unwrap_err();
    let s: Vec<String> = e.iter().map(|d| d.to_string()).collect();
    assert_eq!(s[0], "t.c:3:36: error: variable 'k' is used in the '#pragma acc parallel loop' region with default(none) but appears in no data clause");
    assert!(
        s[1].starts_with("t.c:4:39: error: reduction operator '|' is not allowed for variable 'd' of type 'double'"),
        "{}",
        s[1]
    );
}

#[test]
fn text_without_openacc_is_unchanged() {
    let src = tu("int main(void) { return 0; }\n#pragma omp declare target\nint x;\n#pragma omp end declare target\n");
    assert_eq!(super::translate(&src, Path::new("t.c")).unwrap(), src);
}

/// xorshift64*: a tiny seeded generator, so every fuzz run is the same.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const WORDS: &[&str] = &[
    "parallel",
    "serial",
    "kernels",
    "loop",
    "data",
    "enter",
    "exit",
    "host_data",
    "update",
    "declare",
    "routine",
    "atomic",
    "wait",
    "cache",
    "init",
    "shutdown",
    "set",
    "copy",
    "copyin",
    "copyout",
    "create",
    "no_create",
    "present",
    "deviceptr",
    "attach",
    "detach",
    "delete",
    "private",
    "firstprivate",
    "reduction",
    "gang",
    "worker",
    "vector",
    "seq",
    "independent",
    "auto",
    "collapse",
    "tile",
    "num_gangs",
    "num_workers",
    "vector_length",
    "if",
    "self",
    "default",
    "async",
    "device_type",
    "readonly",
    "zero",
    "num",
    "static",
    "dim",
    "force",
    "devnum",
    "queues",
    "none",
    "present",
    "nvidia",
    "*",
    "+",
    "max",
    "&&",
    "(",
    ")",
    "[",
    "]",
    ":",
    ",",
    "a",
    "b",
    "s.x",
    "p->q",
    "0",
    "n",
    "1",
    "?",
    "\"",
    "'",
    "\\",
    "é",
    "/*",
    "*/",
    "//",
    "->",
    ".",
    "#",
    "{",
    "}",
    "-",
    "::",
    "dtype",
    "bind",
    "nohost",
    "finalize",
    "if_present",
    "use_device",
    "host",
    "device",
    "capture",
    "read",
    "write",
    "link",
    "device_resident",
    "default_async",
    "device_num",
];

const SEEDS: &[&str] = &[
    "parallel loop copy(a[0:n]) reduction(+:s) gang vector vector_length(128)",
    "data copyin(readonly: a[:n][0:m], s.v[1:k]) create(zero: b) async(1) wait(devnum: 0: queues: 1, 2)",
    "loop gang(num: 4, static: *) worker(2) vector(length: 32) collapse(force: 2) private(t)",
    "kernels loop independent device_type(nvidia) num_gangs(8) device_type(*) vector_length(64)",
    "update self(a[0:n]) device(b[2:3]) if(n > 1) if_present async",
    "wait(1, 2) async(3) if(c)",
    "routine(f) seq bind(\"g\") nohost",
    "atomic capture if(x)",
    "cache(readonly: a[i:4])",
    "set device_type(nvidia) device_num(1) default_async(2) if(c)",
];

fn random_directive(r: &mut Rng) -> String {
    if r.below(3) == 0 {
        let n = 1 + r.below(12);
        (0..n)
            .map(|_| WORDS[r.below(WORDS.len())])
            .collect::<Vec<_>>()
            .join(if r.below(2) == 0 { " " } else { "" })
    } else {
        // Mutate a valid directive: delete, duplicate, insert or swap bytes at char boundaries.
        let mut s: Vec<char> = SEEDS[r.below(SEEDS.len())].chars().collect();
        for _ in 0..1 + r.below(4) {
            let len = s.len().max(1);
            match r.below(4) {
                0 if !s.is_empty() => {
                    let at = r.below(len);
                    let n = 1 + r.below(6);
                    s.drain(at..(at + n).min(s.len()));
                }
                1 => {
                    let at = r.below(len + 1).min(s.len());
                    let w: Vec<char> = WORDS[r.below(WORDS.len())].chars().collect();
                    for (k, c) in w.into_iter().enumerate() {
                        s.insert(at + k, c);
                    }
                }
                2 if s.len() > 2 => {
                    let a = r.below(s.len());
                    let b = r.below(s.len());
                    s.swap(a, b);
                }
                _ => {
                    let at = r.below(len).min(s.len().saturating_sub(1));
                    let c = ['(', ')', '[', ']', ':', ',', '"', '\\', '\0', '\t', '*'][r.below(11)];
                    if at < s.len() {
                        s[at] = c;
                    }
                }
            }
        }
        s.into_iter().collect()
    }
}

/// Bounded fuzz run of the directive parser (the CI budget: a few seconds). PTXCC_FUZZ_ITERS
/// raises the count for a longer local run.
#[test]
fn fuzz_parser_never_panics() {
    let iters: usize = std::env::var("PTXCC_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50_000);
    let mut r = Rng(0x9E3779B97F4A7C15);
    let mut ok = 0;
    for _ in 0..iters {
        let d = random_directive(&mut r);
        let line = format!("#pragma acc {d}");
        if let Some(at) = acc_pragma_start(&line) {
            match parse_directive(&line, at) {
                Ok(_) => ok += 1,
                Err(e) => {
                    assert!(
                        e.span.start <= e.span.end || e.span.end == 0,
                        "{line}: bad span {:?}",
                        e.span
                    );
                    assert!(!e.message.is_empty());
                }
            }
        }
    }
    assert!(ok > 0, "the mutations never produce a valid directive");
}

/// Bounded fuzz run of the whole translation: random directives (valid and not) placed in a
/// small program; the front end must answer Ok or diagnostics, never panic.
#[test]
fn fuzz_translation_never_panics() {
    if !libclang() {
        return;
    }
    let iters: usize = std::env::var("PTXCC_FUZZ_TU_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    let mut r = Rng(0xD1B54A32D192ED03);
    let places = [
        "void f(int n, float *a, float s) {\n#pragma acc {D}\nfor (int i = 0; i < n; i++) a[i] += s;\n}\n",
        "void f(int n, float *a, float s) {\n#pragma acc {D}\n{\n#pragma acc {E}\nfor (int i = 0; i < n; i++) { a[i] += s; s = a[i]; }\n}\n}\n",
        "#pragma acc {D}\nfloat g(float x) { return x; }\n",
        "void f(int n, float *a) {\n#pragma acc {D}\nif (n) return;\n#pragma acc {E}\n}\n",
        "void f(int n, float *a) {\n#pragma acc {D}\n",
        "void f(int n, float *a) {\n#pragma acc {D}\nfor (;;) { if (n--) break; }\n#pragma acc {E}\nwhile (n--) a[n] = 0;\n}\n",
        "void f(int n, float *a, float m[4][4]) {\nint i, j; float t;\n#pragma acc {D}\nfor (i = n; i > 0; i -= 2) {\n#pragma acc {E}\nfor (j = 0; j < i; j++) { t = m[i][j]; m[j][i] = t; a[i*j] += t; }\n}\n}\n",
        "struct S { float *v; int n; };\nvoid f(struct S s, float *restrict p) {\n#pragma acc {D}\n{\nint k = 0;\nfor (int i = 0; i < s.n; i++) { s.v[i] = p[i]; k += i; }\n}\n#pragma acc {E}\nreturn;\n}\n",
    ];
    for _ in 0..iters {
        let d = random_directive(&mut r);
        let e = if r.below(2) == 0 {
            random_directive(&mut r)
        } else {
            SEEDS[r.below(SEEDS.len())].to_string()
        };
        let body = places[r.below(places.len())]
            .replace("{D}", &d)
            .replace("{E}", &e);
        let res = super::translate_full(&tu(&body), Path::new("t.c"));
        if let Err(diags) = &res {
            assert!(
                diags
                    .iter()
                    .all(|d| !d.message.starts_with("internal error")),
                "internal error on:\n{body}\n{:?}",
                diags
            );
        }
    }
}

#[test]
fn parse_options_follow_the_preprocessor() {
    use super::cast::ParseOptions;
    let o = |t: &str| ParseOptions::from_text(t).args;
    assert!(o("int x;\n").is_empty());
    assert_eq!(o("#define __STDC_VERSION__ 201710L\n"), ["-std=gnu17"]);
    assert_eq!(
        o("#define __STRICT_ANSI__ 1\n#define __STDC_VERSION__ 199901L\n"),
        ["-std=c99"]
    );
    assert_eq!(
        o("#define __STDC_VERSION__ 202311L\n#define __CHAR_UNSIGNED__ 1\n"),
        ["-std=gnu23", "-funsigned-char"]
    );
    assert_eq!(o("#define __STDC_VERSION__ 202000L\n"), ["-std=gnu2x"]);
}

#[test]
fn libclang_errors_are_errors_not_a_partial_tree() {
    if !libclang() {
        return;
    }
    use super::cast::{parse_with, ParseError, ParseOptions};
    let text = "void f(int n) {\n#pragma acc parallel\n  n = m + 1;\n}\n";
    let at = text.find("m + 1").unwrap();
    match parse_with(text, &[16], &ParseOptions::default()) {
        Err(ParseError::Source(e)) => {
            assert_eq!(e.len(), 1, "{e:?}");
            assert_eq!(e[0].0, Some(at));
            assert!(e[0].1.contains("undeclared identifier 'm'"), "{e:?}");
        }
        other => panic!("expected the source error, got {other:?}"),
    }
    // Through the front end: the user's line, and no translation.
    let d = super::translate_full(text, Path::new("t.c")).unwrap_err();
    assert_eq!(
        d[0].to_string(),
        "t.c:3:7: error: use of undeclared identifier 'm'"
    );
    assert!(d[1]
        .to_string()
        .starts_with("ptxcc: error: cannot translate the OpenACC directives of 't.c'"));
    // A warning that is an error by default (an implicit declaration) leaves the tree whole.
    let text = "void f(int n) {\n#pragma acc parallel\n  g(n);\n}\n";
    assert!(parse_with(text, &[16], &ParseOptions::default()).is_ok());
}

#[test]
fn gang_dimensions() {
    assert!(parse("loop gang(dim:2)").is_ok());
    assert!(parse("loop gang(dim: 3, static: *)").is_ok());
    assert!(parse("parallel num_gangs(2, 4, 8)").is_ok());
    assert!(err("loop gang(dim:0)").contains("must be the constant 1, 2 or 3"));
    assert!(err("loop gang(dim:n)").contains("must be the constant 1, 2 or 3"));
    assert!(err("kernels num_gangs(2, 4)").contains("takes one argument"));
    assert!(err("kernels loop num_gangs(2, 4)").contains("takes one argument"));
}

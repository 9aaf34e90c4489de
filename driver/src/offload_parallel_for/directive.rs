//! `#pragma omp` lines of the preprocessed text, read as text: the directive's name words and its
//! clauses (name and parenthesised argument), and the variable names of clause lists. Nothing
//! here needs libclang; the clause arguments are kept as written.

/// One `#pragma omp …` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pragma {
    /// Index of the line in the preprocessed text.
    pub line: usize,
    /// Byte offsets of the line (end excludes the newline).
    pub start: usize,
    pub end: usize,
    /// The directive name, one word each (`["parallel", "for", "simd"]`).
    pub words: Vec<String>,
    /// Offset of the first directive word in the line (for diagnostics).
    pub words_rel: usize,
    pub clauses: Vec<Clause>,
}

impl Pragma {
    /// A test's pragma: `line` (one line, at offset 0 of the text) parsed.
    #[cfg(test)]
    pub(crate) fn for_test(line: &str) -> Pragma {
        let (words, words_rel, clauses) = parse_line(line).expect("a pragma");
        Pragma {
            line: 0,
            start: 0,
            end: line.len(),
            words,
            words_rel,
            clauses,
        }
    }

    /// A test's pragmas: every `#pragma omp` line of `text`.
    #[cfg(test)]
    pub(crate) fn scan_for_test(text: &str) -> Vec<Pragma> {
        let mut lines = Vec::new();
        let mut at = 0;
        for l in text.split_inclusive('\n') {
            lines.push((at, at + l.trim_end_matches('\n').len()));
            at += l.len();
        }
        scan(text, &lines)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    pub name: String,
    /// The text between the parentheses, when the clause has them.
    pub args: Option<String>,
}

impl Clause {
    /// The clause as it would be written back.
    pub fn render(&self) -> String {
        match &self.args {
            Some(a) => format!("{}({})", self.name, a),
            None => self.name.clone(),
        }
    }
}

/// The directive names of OpenMP 5.2 (and the combined constructs), longest first where one is
/// a prefix of another does not matter: the longest match of the line's leading words wins.
const DIRECTIVES: &[&str] = &[
    "parallel",
    "parallel for",
    "parallel for simd",
    "parallel sections",
    "parallel loop",
    "parallel masked",
    "parallel master",
    "parallel masked taskloop",
    "parallel masked taskloop simd",
    "parallel master taskloop",
    "parallel master taskloop simd",
    "parallel workshare",
    "for",
    "for simd",
    "simd",
    "sections",
    "section",
    "single",
    "scope",
    "master",
    "masked",
    "critical",
    "barrier",
    "taskwait",
    "taskyield",
    "taskgroup",
    "task",
    "taskloop",
    "taskloop simd",
    "masked taskloop",
    "masked taskloop simd",
    "master taskloop",
    "master taskloop simd",
    "atomic",
    "flush",
    "ordered",
    "cancel",
    "cancellation point",
    "threadprivate",
    "requires",
    "loop",
    "tile",
    "unroll",
    "error",
    "nothing",
    "assume",
    "assumes",
    "begin assumes",
    "end assumes",
    "metadirective",
    "depobj",
    "scan",
    "interop",
    "dispatch",
    "allocate",
    "target",
    "target data",
    "target enter data",
    "target exit data",
    "target update",
    "target parallel",
    "target parallel for",
    "target parallel for simd",
    "target parallel loop",
    "target simd",
    "target teams",
    "target teams distribute",
    "target teams distribute simd",
    "target teams distribute parallel for",
    "target teams distribute parallel for simd",
    "target teams loop",
    "teams",
    "teams distribute",
    "teams distribute simd",
    "teams distribute parallel for",
    "teams distribute parallel for simd",
    "teams loop",
    "distribute",
    "distribute simd",
    "distribute parallel for",
    "distribute parallel for simd",
    "declare target",
    "begin declare target",
    "end declare target",
    "declare simd",
    "declare reduction",
    "declare mapper",
    "declare variant",
    "begin declare variant",
    "end declare variant",
    "declare induction",
];

/// Directives whose name is followed by a parenthesised argument that is not a clause.
const WITH_ARGUMENT: &[&str] = &[
    "critical",
    "threadprivate",
    "flush",
    "allocate",
    "depobj",
    "declare target",
    "declare reduction",
    "declare mapper",
    "declare variant",
    "declare simd",
    "cancel",
    "scan",
];

/// Reads `line` (one line of preprocessed text) as an OpenMP pragma: the directive name's words,
/// the offset of the first one in the line, and the clauses. None when it is not one.
pub fn parse_line(line: &str) -> Option<(Vec<String>, usize, Vec<Clause>)> {
    let t = line.trim_start();
    let rest = t.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("pragma")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let rest = rest.trim_start().strip_prefix("omp")?;
    if rest
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_')
    {
        return None;
    }
    let s = rest.trim_start();
    let words_rel = line.len() - s.len();
    // The leading identifiers, then the longest of them that names a directive.
    let mut idents: Vec<(&str, usize)> = Vec::new(); // (word, offset in s after it)
    let mut at = 0;
    loop {
        let r = &s[at..];
        let r2 = r.trim_start();
        let id = ident(r2);
        if id.is_empty() {
            break;
        }
        at += (r.len() - r2.len()) + id.len();
        idents.push((id, at));
        if s[at..].trim_start().starts_with('(') {
            break;
        }
    }
    let mut best = 0;
    for n in 1..=idents.len() {
        let name = idents[..n]
            .iter()
            .map(|(w, _)| *w)
            .collect::<Vec<_>>()
            .join(" ");
        if DIRECTIVES.contains(&name.as_str()) {
            // A word followed by `(` is a clause, unless the directive takes an argument.
            let paren = s[idents[n - 1].1..].trim_start().starts_with('(');
            if !paren || WITH_ARGUMENT.contains(&name.as_str()) {
                best = n;
            }
        }
    }
    if best == 0 {
        // Unknown directive: its first word, so that it is at least told apart.
        let Some(&(w, end)) = idents.first() else {
            return Some((Vec::new(), words_rel, parse_clauses(s)));
        };
        return Some((vec![w.to_string()], words_rel, parse_clauses(&s[end..])));
    }
    let words = idents[..best].iter().map(|(w, _)| w.to_string()).collect();
    let clauses = parse_clauses(&s[idents[best - 1].1..]);
    Some((words, words_rel, clauses))
}

/// The leading identifier of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// Clauses: `name` or `name(args)`, separated by blanks or commas.
pub fn parse_clauses(mut s: &str) -> Vec<Clause> {
    let mut out = Vec::new();
    loop {
        s = s.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if s.is_empty() {
            break;
        }
        let id = ident(s);
        if id.is_empty() {
            // Something that is not a clause (e.g. `(name)` of `critical`): kept as its own item.
            if s.starts_with('(') {
                let (args, rest) = balanced(s);
                out.push(Clause {
                    name: String::new(),
                    args: Some(args.to_string()),
                });
                s = rest;
            } else {
                let c = s.chars().next().map(|c| c.len_utf8()).unwrap_or(1);
                s = &s[c..];
            }
            continue;
        }
        s = &s[id.len()..];
        let t = s.trim_start();
        if t.starts_with('(') {
            let (args, rest) = balanced(t);
            out.push(Clause {
                name: id.to_string(),
                args: Some(args.to_string()),
            });
            s = rest;
        } else {
            out.push(Clause {
                name: id.to_string(),
                args: None,
            });
        }
    }
    out
}

/// `s` starts with `(`: the text inside the matching parenthesis, and what follows it.
fn balanced(s: &str) -> (&str, &str) {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return (&s[1..i], &s[i + 1..]);
                }
            }
            _ => {}
        }
    }
    (&s[1..], "")
}

/// The index of the bracket closing the one at `open`.
pub fn matching_close(t: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in t.char_indices().skip_while(|&(i, _)| i < open) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits at the commas outside parentheses and brackets.
pub fn split_top(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut from = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&s[from..i]);
                from = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&s[from..]);
    out
}

/// The variables a clause lists, by their base name (`p[0:n]` → `p`, `s.x` → `s`). For `map`,
/// `reduction`, `to`/`from` and the like the list follows the modifiers' `:`; for `linear`,
/// `aligned` it precedes the step's or alignment's `:`.
pub fn list_names(clause: &Clause) -> Vec<String> {
    let Some(args) = &clause.args else {
        return Vec::new();
    };
    let colon = split_top(args, ':');
    let list = match clause.name.as_str() {
        "linear" | "aligned" => colon[0],
        _ if colon.len() > 1 => colon.last().copied().unwrap_or(""),
        _ => args.as_str(),
    };
    split_top(list, ',')
        .into_iter()
        .map(|item| {
            let item = item.trim().trim_start_matches(['*', '(', '&']).trim_start();
            ident(item).to_string()
        })
        .filter(|n| !n.is_empty() && !n.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .collect()
}

/// The schedule kind of a `schedule(...)` argument (`monotonic: static, 4` → `static`).
pub fn schedule_kind(args: &str) -> String {
    let kind_part = match split_top(args, ':').as_slice() {
        [_, rest @ ..] if !rest.is_empty() => rest.join(":"),
        _ => args.to_string(),
    };
    split_top(&kind_part, ',')[0].trim().to_string()
}

/// The modifier of a clause argument (`parallel: c` → (Some("parallel"), "c")), for `if`.
pub fn directive_name_modifier(args: &str) -> (Option<String>, String) {
    let parts = split_top(args, ':');
    if parts.len() == 2 {
        let m = parts[0].trim();
        let m = m.split_whitespace().collect::<Vec<_>>().join(" ");
        if DIRECTIVES.contains(&m.as_str()) {
            return (Some(m), parts[1].trim().to_string());
        }
    }
    (None, args.trim().to_string())
}

/// Every `#pragma omp` line of `text`, given the line offsets.
pub fn scan(text: &str, lines: &[(usize, usize)]) -> Vec<Pragma> {
    let mut out = Vec::new();
    for (i, &(start, end)) in lines.iter().enumerate() {
        let Some(line) = text.get(start..end) else {
            continue;
        };
        if !line.trim_start().starts_with('#') || !line.contains("omp") {
            continue;
        }
        if let Some((words, words_rel, clauses)) = parse_line(line) {
            out.push(Pragma {
                line: i,
                start,
                end,
                words,
                words_rel,
                clauses,
            });
        }
    }
    out
}

/// The text as libclang reads it: `text` with the OpenMP pragma lines `pragmas` blanked (same
/// offsets), and what `begin/end declare variant` encloses.
pub fn blank_for_libclang(text: &str, pragmas: &[Pragma]) -> String {
    // libclang reads the text with the OpenMP pragmas blanked (same offsets): with -fopenmp it
    // would show the bodies of OpenMP constructs as captured statements without their contents.
    let mut bytes = text.as_bytes().to_vec();
    for p in pragmas {
        for b in &mut bytes[p.start..p.end] {
            *b = b' ';
        }
    }
    // What `begin/end declare variant` encloses too (newlines kept): without its pragmas it would
    // be a second definition of the functions it specialises (clang's <omp.h> has
    // `static omp_is_initial_device` for the device), and libclang would refuse the file. A
    // loop calling only a variant then looks like a call of an undefined function: it stays on
    // the host, with the remark saying so.
    let mut depth = 0usize;
    let mut from = 0usize;
    for p in pragmas {
        if p.words == ["begin", "declare", "variant"] {
            if depth == 0 {
                from = p.end;
            }
            depth += 1;
        } else if p.words == ["end", "declare", "variant"] && depth > 0 {
            depth -= 1;
            if depth == 0 {
                for b in &mut bytes[from..p.start] {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        parse_line(line).map(|(w, _, _)| w).unwrap_or_default()
    }

    #[test]
    fn directive_words_and_clauses() {
        let (w, rel, c) =
            parse_line("#pragma omp parallel for reduction(+:s) schedule(static, 4) nowait")
                .unwrap();
        assert_eq!(w, ["parallel", "for"]);
        assert_eq!(rel, 12);
        assert_eq!(
            c.iter().map(|c| c.render()).collect::<Vec<_>>(),
            ["reduction(+:s)", "schedule(static, 4)", "nowait"]
        );
        assert_eq!(
            words("  #  pragma   omp parallel for simd collapse(2)"),
            ["parallel", "for", "simd"]
        );
        assert_eq!(
            words("#pragma omp target data map(tofrom: p[0:n])"),
            ["target", "data"]
        );
        assert_eq!(
            words("#pragma omp target enter data map(to: p[0:n])"),
            ["target", "enter", "data"]
        );
        assert_eq!(
            words("#pragma omp declare target(f, g)"),
            ["declare", "target"]
        );
        assert_eq!(words("#pragma omp declare target"), ["declare", "target"]);
        assert_eq!(words("#pragma omp critical(lock) hint(1)"), ["critical"]);
        assert_eq!(words("#pragma omp threadprivate(x)"), ["threadprivate"]);
        assert_eq!(
            words("#pragma omp end declare target"),
            ["end", "declare", "target"]
        );
        assert_eq!(
            words("#pragma omp parallel for ordered"),
            ["parallel", "for"]
        );
        assert_eq!(
            words("#pragma omp parallel for allocate(x) private(x)"),
            ["parallel", "for"]
        );
        assert_eq!(
            words("#pragma omp target teams distribute parallel for simd"),
            ["target", "teams", "distribute", "parallel", "for", "simd"]
        );
        assert!(parse_line("#pragma acc parallel loop").is_none());
        assert!(parse_line("#pragma ompx foo").is_none());
        assert!(parse_line("int x; // #pragma omp parallel for").is_none());
        let (_, _, c) = parse_line("#pragma omp declare target(f, g)").unwrap();
        assert_eq!(
            c,
            [Clause {
                name: String::new(),
                args: Some("f, g".into())
            }]
        );
    }

    #[test]
    fn clause_lists() {
        let names = |s: &str| {
            let c = &parse_clauses(s)[0];
            list_names(c)
        };
        assert_eq!(
            names("map(always, tofrom: p[0:n], q, s.x[0:2])"),
            ["p", "q", "s"]
        );
        assert_eq!(names("map(p[0:n])"), ["p"]);
        assert_eq!(names("reduction(+: a, b[0:3])"), ["a", "b"]);
        assert_eq!(names("reduction(max:m)"), ["m"]);
        assert_eq!(names("linear(x, y: 2)"), ["x", "y"]);
        assert_eq!(names("private(i, j)"), ["i", "j"]);
        assert_eq!(schedule_kind("monotonic: static"), "static");
        assert_eq!(schedule_kind("static, 4"), "static");
        assert_eq!(schedule_kind("monotonic, simd: dynamic, 2"), "dynamic");
        assert_eq!(schedule_kind(" guided "), "guided");
        assert_eq!(
            directive_name_modifier("parallel: n > 10"),
            (Some("parallel".into()), "n > 10".into())
        );
        assert_eq!(
            directive_name_modifier("n > 10 ? a : b"),
            (None, "n > 10 ? a : b".into())
        );
        assert_eq!(directive_name_modifier("n > 10"), (None, "n > 10".into()));
    }
}

//! Which lines of a preprocessed text are device code: the structured block of every `target`
//! construct (not `target data`, `enter data`, `exit data`, `update`: their code runs on the
//! host), `declare target` … `end declare target` and `begin declare target` blocks, and the
//! bodies of the functions defined in the file that those name (`declare target(f)`,
//! `enter(f)`, `to(f)`) or call, and of the functions those call in turn.
//!
//! ```c
//! int twice(int x) { return 2 * x; }         // device code: called in a target region
//! void f(int *a) {
//!   #pragma omp metadirective when(device={kind(gpu)}: …) default(…)   // host code
//!   #pragma omp target map(tofrom: a[0:8])
//!   { a[0] = twice(a[0]); }                   // device code
//! }
//! ```
//!
//! A lexical approximation (a call through a pointer or to a function of another file is not
//! seen), used where the cost of a miss is an error that would have been right: the
//! device-trait metadirective check (`declare_variant`).
use std::collections::BTreeSet;

use crate::layout_directive::block;

/// For each line of the text (`str::lines` order), whether it is device code.
#[derive(Debug)]
pub struct DeviceLines(Vec<bool>);

impl DeviceLines {
    pub fn of(text: &str) -> DeviceLines {
        let t = text.as_bytes();
        let mut starts = Vec::new();
        let mut off = 0;
        for l in text.split_inclusive('\n') {
            starts.push(off);
            off += l.len();
        }
        let line_end = |i: usize| starts.get(i + 1).copied().unwrap_or(t.len());
        let mut regions: Vec<(usize, usize)> = Vec::new();
        let mut names: BTreeSet<String> = BTreeSet::new();
        let mut open_declare: Option<usize> = None;
        for (i, line) in text.lines().enumerate() {
            let w = pragma_words(line);
            let w: Vec<&str> = w.iter().map(String::as_str).collect();
            match w.as_slice() {
                ["target", next, ..] if matches!(*next, "data" | "enter" | "exit" | "update") => {}
                ["target", ..] => {
                    let start = line_end(i);
                    let end = block::statement_end(t, start).unwrap_or(t.len());
                    regions.push((start, end));
                }
                ["declare", "target"] | ["begin", "declare", "target", ..] => {
                    open_declare = Some(line_end(i));
                }
                ["end", "declare", "target", ..] => {
                    if let Some(s) = open_declare.take() {
                        regions.push((s, starts[i]));
                    }
                }
                ["declare", "target", rest @ ..] => {
                    names.extend(
                        rest.iter()
                            .filter(|w| is_identifier(w) && !is_clause(w))
                            .map(|w| w.to_string()),
                    );
                }
                _ => {}
            }
        }
        if let Some(s) = open_declare {
            regions.push((s, t.len()));
        }
        for &(s, e) in &regions {
            names.extend(calls(&t[s..e]));
        }
        // Functions named or called from device code are device code, transitively.
        let functions = function_bodies(t);
        let mut done: BTreeSet<&str> = BTreeSet::new();
        loop {
            let mut grew = false;
            for (name, s, e) in &functions {
                if names.contains(name.as_str()) && done.insert(name.as_str()) {
                    regions.push((*s, *e));
                    names.extend(calls(&t[*s..*e]));
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        // A line is device code when it holds some of a region (a function's first line holds
        // its `{`).
        DeviceLines(
            (0..starts.len())
                .map(|i| {
                    let (s, e) = (starts[i], line_end(i));
                    regions.iter().any(|&(a, b)| s < b && a < e)
                })
                .collect(),
        )
    }

    /// Whether line `idx` (0-based, `str::lines` order) is device code.
    pub fn contains(&self, idx: usize) -> bool {
        self.0.get(idx).copied().unwrap_or(false)
    }
}

/// The words after `#pragma omp` of a pragma line (none for other lines).
fn pragma_words(line: &str) -> Vec<String> {
    let mut it = line.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '#'));
    let mut words = Vec::new();
    for w in it.by_ref() {
        if !w.is_empty() {
            words.push(w.to_string());
        }
    }
    match words.as_slice() {
        [hash, pragma, omp, ..] if hash == "#" && pragma == "pragma" && omp == "omp" => {
            words.drain(..3);
            words
        }
        [hp, omp, ..] if hp == "#pragma" && omp == "omp" => {
            words.drain(..2);
            words
        }
        _ => Vec::new(),
    }
}

fn is_identifier(w: &str) -> bool {
    w.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

fn is_clause(w: &str) -> bool {
    matches!(
        w,
        "to" | "enter" | "link" | "device_type" | "host" | "nohost" | "any" | "indirect"
    )
}

/// The names called in `t` (an identifier followed by `(`), keywords left out.
fn calls(t: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let c = t[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < t.len() && (t[i].is_ascii_alphanumeric() || t[i] == b'_') {
                i += 1;
            }
            let mut j = i;
            while j < t.len() && t[j].is_ascii_whitespace() {
                j += 1;
            }
            let w = String::from_utf8_lossy(&t[s..i]);
            if t.get(j) == Some(&b'(')
                && !matches!(
                    w.as_ref(),
                    "if" | "for" | "while" | "switch" | "return" | "sizeof" | "pragma"
                )
            {
                out.push(w.into_owned());
            }
        } else if c.is_ascii_digit() {
            while i < t.len() && (t[i].is_ascii_alphanumeric() || t[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The functions defined at file scope: (name, body start, body end).
fn function_bodies(t: &[u8]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            b'"' | b'\'' => i = block::skip_literal(t, i),
            b'#' if block::at_line_start(t, i) => i = block::skip_trivia(t, i),
            b'/' if matches!(t.get(i + 1), Some(b'/') | Some(b'*')) => i = block::skip_trivia(t, i),
            b'{' => {
                let end = block::statement_end(t, i).unwrap_or(t.len());
                if let Some(name) = defined_name(t, i) {
                    out.push((name, i, end));
                }
                i = end.max(i + 1);
            }
            _ => i += 1,
        }
    }
    out
}

/// The function name of a definition whose body opens at `brace`: the identifier before the
/// parameter list that ends just before it.
fn defined_name(t: &[u8], brace: usize) -> Option<String> {
    let mut j = brace;
    while j > 0 && t[j - 1].is_ascii_whitespace() {
        j -= 1;
    }
    if j == 0 || t[j - 1] != b')' {
        return None;
    }
    let mut depth = 0i32;
    let mut k = j;
    while k > 0 {
        k -= 1;
        match t[k] {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    while k > 0 && t[k - 1].is_ascii_whitespace() {
        k -= 1;
    }
    let e = k;
    while k > 0 && (t[k - 1].is_ascii_alphanumeric() || t[k - 1] == b'_') {
        k -= 1;
    }
    (k < e).then(|| String::from_utf8_lossy(&t[k..e]).into_owned())
}

#[cfg(test)]
mod tests {
    use super::DeviceLines;

    fn device(text: &str) -> Vec<usize> {
        let d = DeviceLines::of(text);
        (0..text.lines().count())
            .filter(|&i| d.contains(i))
            .collect()
    }

    #[test]
    fn target_blocks_and_what_they_call() {
        let text = "int twice(int x) {\n  return 2 * x;\n}\nint host_only(int x) {\n  return x;\n}\n\
                    void f(int *a) {\n  #pragma omp metadirective when(device={kind(gpu)}: parallel)\n\
                    #pragma omp target map(tofrom: a[0:8])\n  {\n    a[0] = twice(a[0]);\n  }\n\
                    #pragma omp target data map(a[0:8])\n  { host_only(1); }\n}\n";
        // twice's body (lines 0-2: from its `{`), the target block (9-11); not host_only, not
        // the metadirective before the target, not the target data block.
        assert_eq!(device(text), vec![0, 1, 2, 9, 10, 11]);
    }

    #[test]
    fn declare_target_blocks_and_lists() {
        let text =
            "#pragma omp declare target\nint g;\nint h(void);\n#pragma omp end declare target\n\
                    int named(void) {\n  return 1;\n}\n#pragma omp declare target enter(named)\n\
                    int other(void) {\n  return 2;\n}\n";
        assert_eq!(device(text), vec![1, 2, 4, 5, 6]);
    }

    #[test]
    fn a_loop_statement_after_target() {
        let text =
            "void f(int *a) {\n#pragma omp target teams distribute parallel for map(a[0:8])\n\
                    for (int i = 0; i < 8; i++)\n  a[i] = i;\n  a[0] = 1;\n}\n";
        assert_eq!(device(text), vec![2, 3]);
    }
}

//! The driver's hints to the passes ([`DriverHints`], `ptxcc_passes::driver_hints`), read from
//! the preprocessed text clang compiles: what that text says and clang's IR no longer does.
//!
//! - `dist_schedule(static)` without a chunk: OpenMP gives each team one contiguous part of the
//!   `distribute` loop. Without the clause the division is the implementation's, and ptxcc
//!   fuses `distribute parallel for` into one grid-stride loop over every thread of the grid.
//! - `schedule(static)` without a chunk: one contiguous block per thread. Without a schedule
//!   clause ptxcc deals a worksharing loop's iterations to the threads of a block cyclically,
//!   so that adjacent threads touch adjacent elements (what clang's own GPU code generation
//!   does too).
//!
//! Clang's IR is the same with and without either clause, so the passes are told where the
//! clauses are: the (file, line) of each directive, from the text's line markers, as clang's
//! location strings will name them.
use ptxcc_passes::driver_hints::{DriverHints, SourceLine};

/// The hints for preprocessed `text`.
pub fn read(text: &str) -> DriverHints {
    let mut hints = DriverHints::default();
    let (mut file, mut line) = (String::new(), 1u32);
    for l in text.lines() {
        let directive = l.trim_start().strip_prefix('#').map(str::trim_start);
        if let Some((n, f)) = directive.and_then(line_marker) {
            (file, line) = (f, n);
            continue;
        }
        let is_omp = directive
            .and_then(|d| d.strip_prefix("pragma"))
            .is_some_and(|r| r.trim_start().starts_with("omp"));
        if is_omp {
            let here = || SourceLine {
                file: file.clone(),
                line,
            };
            if has_unchunked_static(l, "dist_schedule") {
                hints.dist_schedule_static.push(here());
            }
            if has_unchunked_static(l, "schedule") {
                hints.schedule_static.push(here());
            }
        }
        line += 1;
    }
    hints
}

/// `N "file" flags` or `line N "file"` (after the `#`): the next line's number and file.
fn line_marker(rest: &str) -> Option<(u32, String)> {
    let rest = rest
        .strip_prefix("line")
        .map(str::trim_start)
        .unwrap_or(rest);
    let (n, after) = rest.split_once(char::is_whitespace)?;
    let n: u32 = n.parse().ok()?;
    let name = after.trim_start().strip_prefix('"')?;
    // The name as clang escapes it: \ and " inside.
    let mut file = String::new();
    let mut chars = name.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some((n, file)),
            '\\' => file.push(chars.next()?),
            c => file.push(c),
        }
    }
    None
}

/// Whether a directive line has the clause `name(static)` (any spacing) without a chunk size:
/// `name` as a whole word (`schedule` is not the end of `dist_schedule`).
fn has_unchunked_static(line: &str, name: &str) -> bool {
    let mut rest = line;
    while let Some(pos) = rest.find(name) {
        let before = &rest[..pos];
        let boundary = before
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        rest = &rest[pos + name.len()..];
        let arg = rest
            .trim_start()
            .strip_prefix('(')
            .map(str::trim_start)
            .and_then(|a| a.strip_prefix("static"))
            .map(str::trim_start);
        if boundary && arg.is_some_and(|a| a.starts_with(')')) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(file: &str, line: u32) -> SourceLine {
        SourceLine {
            file: file.into(),
            line,
        }
    }

    #[test]
    fn explicit_dist_schedules_are_located_by_the_line_markers() {
        let text = "# 1 \"t.c\"\nint x;\n# 5 \"dir/t.c\" 2\nvoid f(void) {\n#pragma omp target teams distribute parallel for dist_schedule( static )\n\
                    #pragma omp distribute dist_schedule(static, 4)\n#pragma omp distribute parallel for\n#pragma omp for my_dist_schedule(static)\n\
                    #line 40 \"a \\\"q\\\".c\"\n  #pragma omp distribute dist_schedule(static)\n";
        let h = read(text);
        assert_eq!(
            h.dist_schedule_static,
            vec![at("dir/t.c", 6), at("a \"q\".c", 40)]
        );
        assert_eq!(h.schedule_static, vec![]);
    }

    #[test]
    fn explicit_static_schedules_are_listed() {
        let text = "# 3 \"t.c\"\n#pragma omp target teams distribute parallel for schedule(static) map(to: x)\nint schedule(static);\n\
                    \x20 # pragma omp for schedule ( static )\n#pragma omp for schedule(monotonic: static)\n";
        let h = read(text);
        assert_eq!(h.schedule_static, vec![at("t.c", 3), at("t.c", 5)]);
        assert!(h.dist_schedule_static.is_empty());
    }

    #[test]
    fn other_schedules_and_code_are_not_hints() {
        for text in [
            "#pragma omp for schedule(static, 4)\n",
            "#pragma omp for schedule(dynamic)\n",
            "#pragma omp distribute dist_schedule(static, 2)\n",
            "#pragma acc loop\nx = schedule(static);\n",
            "#pragma omp for myschedule(static)\n",
        ] {
            assert!(read(text).is_empty(), "{text}");
        }
        let h = read("#pragma omp distribute dist_schedule(static)\n");
        assert!(h.schedule_static.is_empty() && h.dist_schedule_static.len() == 1);
    }
}

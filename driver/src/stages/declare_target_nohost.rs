//! `declare target … device_type(nohost)` functions, on the preprocessed source.
//!
//! For the host, clang does not emit a function that is declared target for the device only
//! (`device_type(nohost)`): its body is missing from the host IR, and ptxcc makes its device code
//! from the host IR, so a target region that calls it (directly or as a `declare variant` for
//! `kind(nohost)`) could not be compiled ("function … is not available on the device"). The
//! directives of the user's files therefore say `device_type(any)` for clang, padded with spaces
//! so that every column after it stays the user's:
//!
//! ```c
//! #pragma omp declare target to(f) device_type(nohost)
//!   →
//! #pragma omp declare target to(f) device_type(any)   
//! ```
//!
//! The host then has a body it never calls (a conforming program does not call a `nohost`
//! function from host code). System headers are left alone.
use super::declare_variant::line_marker;

/// The text with the `nohost` device types of `declare target` directives in user files made
/// `any`; None when there is none.
pub fn keep_nohost_bodies(preprocessed: &str) -> Option<String> {
    let mut system = false;
    let mut changed = false;
    let mut out = String::with_capacity(preprocessed.len());
    for line in preprocessed.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some((_, _, is_system)) = line_marker(trimmed) {
            system = is_system;
        } else if !system && is_declare_target(trimmed) {
            if let Some(new) = any_device_type(line) {
                out.push_str(&new);
                changed = true;
                continue;
            }
        }
        out.push_str(line);
    }
    changed.then_some(out)
}

/// `#pragma omp declare target …` or `#pragma omp begin declare target …`.
fn is_declare_target(line: &str) -> bool {
    let Some(rest) = line.strip_prefix('#') else {
        return false;
    };
    let mut words = rest
        .split(|c: char| c.is_whitespace() || c == '(')
        .filter(|w| !w.is_empty());
    if words.next() != Some("pragma") || words.next() != Some("omp") {
        return false;
    }
    let mut w = words.next();
    if w == Some("begin") {
        w = words.next();
    }
    w == Some("declare") && words.next() == Some("target")
}

/// The line with `device_type( nohost )` made `device_type(any)` and as many spaces as it was
/// longer; None when the line has no such clause.
fn any_device_type(line: &str) -> Option<String> {
    let start = line.find("device_type")?;
    let after = &line[start + "device_type".len()..];
    let open = after.find('(')?;
    if !after[..open].trim().is_empty() {
        return None;
    }
    let close = open + after[open..].find(')')?;
    if after[open + 1..close].trim() != "nohost" {
        return None;
    }
    let clause_end = start + "device_type".len() + close + 1;
    let old = &line[start..clause_end];
    let new = "device_type(any)";
    Some(format!(
        "{}{new}{}{}",
        &line[..start],
        " ".repeat(old.len().saturating_sub(new.len())),
        &line[clause_end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nohost_becomes_any_with_the_columns_kept() {
        let src =
            "# 1 \"t.c\"\n#pragma omp declare target to(f) device_type(nohost) indirect\nint x;\n";
        let out = keep_nohost_bodies(src).unwrap();
        let line = out.lines().nth(1).unwrap();
        assert_eq!(
            line,
            "#pragma omp declare target to(f) device_type(any)    indirect"
        );
        assert_eq!(line.len(), src.lines().nth(1).unwrap().len());
        assert_eq!(out.lines().nth(2), Some("int x;"));
    }

    #[test]
    fn begin_declare_target_and_spacing() {
        let src = "#pragma omp begin declare target device_type ( nohost )\n";
        assert_eq!(
            keep_nohost_bodies(src).unwrap(),
            "#pragma omp begin declare target device_type(any)      \n"
        );
    }

    #[test]
    fn other_device_types_and_directives_are_left_alone() {
        assert_eq!(
            keep_nohost_bodies("#pragma omp declare target to(f) device_type(host)\n"),
            None
        );
        assert_eq!(
            keep_nohost_bodies("#pragma omp declare target to(f) device_type(any)\n"),
            None
        );
        assert_eq!(
            keep_nohost_bodies("#pragma omp target device_type(nohost)\n"),
            None
        );
        assert_eq!(keep_nohost_bodies("int device_type(nohost);\n"), None);
    }

    #[test]
    fn system_headers_are_left_alone() {
        let src =
            "# 1 \"/usr/include/x.h\" 1 3\n#pragma omp declare target to(f) device_type(nohost)\n";
        assert_eq!(keep_nohost_bodies(src), None);
    }
}

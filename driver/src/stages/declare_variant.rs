//! A check on the preprocessed source: `declare variant` directives that select on device traits.
//!
//! ptxcc compiles device code from clang's host IR, in which clang has already chosen, at every
//! call, the variant for the host: a variant selected by `match(device={arch(nvptx64)})` (or
//! `kind(gpu)`, `isa(...)`, and the same under `target_device`) is never called on the device,
//! and one selected by `kind(host)`/`kind(cpu)` would be. Either would silently run the wrong
//! function, so such a directive in the user's code is an error:
//!
//! ```text
//! x.c:4:1: error: ptxcc does not support 'declare variant' selecting on device traits (kind, arch, isa) yet: …
//! ```
//!
//! System headers are not checked: `omp.h` selects `omp_is_initial_device`'s body by
//! `kind(host)`, and device_builtins lowers that routine itself.
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

/// The directives of `preprocessed` (text with line markers; `file` names it when it has none)
/// that select on device traits.
pub fn check(preprocessed: &str, file: &str) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut current = file.to_string();
    let mut line_no: u32 = 1;
    let mut system = false;
    for line in preprocessed.lines() {
        let trimmed = line.trim_start();
        if let Some((n, name, is_system)) = line_marker(trimmed) {
            line_no = n;
            current = name;
            system = is_system;
            continue;
        }
        if !system {
            if let Some(col) = device_trait_variant(line) {
                diags.push(Diagnostic {
                    loc: Some(SourceLoc { file: current.clone(), line: line_no, col }),
                    message: "ptxcc does not support 'declare variant' selecting on device traits (kind, arch, isa) yet: \
                              ptxcc compiles device code from the host's code, in which clang has chosen the host's variant"
                        .into(),
                });
            }
        }
        line_no += 1;
    }
    diags
}

/// `# 12 "file.c" 1 3` → (12, "file.c", whether flag 3 — a system header — is set).
fn line_marker(line: &str) -> Option<(u32, String, bool)> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: u32 = digits.parse().ok()?;
    let rest = rest[digits.len()..].trim_start();
    let quoted = rest.strip_prefix('"')?;
    let end = quoted.find('"')?;
    let name = quoted[..end].to_string();
    let flags = &quoted[end + 1..];
    Some((n, name, flags.split_whitespace().any(|f| f == "3")))
}

/// The 1-based column of a `#pragma omp [begin] declare variant` line whose `match` clause has a
/// `device` or `target_device` selector naming `kind`, `arch` or `isa`.
fn device_trait_variant(line: &str) -> Option<u32> {
    let words = words(line);
    let at = |i: usize| words.get(i).map(|(_, w)| w.as_str());
    if at(0) != Some("#") || at(1) != Some("pragma") || at(2) != Some("omp") {
        return None;
    }
    let d = if at(3) == Some("begin") { 4 } else { 3 };
    if at(d) != Some("declare") || at(d + 1) != Some("variant") {
        return None;
    }
    // The selector sets after `match`: `device = { kind(gpu), arch(...) }`.
    let m = words.iter().position(|(_, w)| w == "match")?;
    let mut in_device = false;
    let mut depth = 0;
    for (i, (_, w)) in words.iter().enumerate().skip(m + 1) {
        match w.as_str() {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    in_device = false;
                }
            }
            "device" | "target_device"
                if depth == 0 && words.get(i + 1).map(|(_, w)| w == "=").unwrap_or(false) =>
            {
                in_device = true
            }
            "kind" | "arch" | "isa" if in_device && depth == 1 => {
                return Some(words[0].0 as u32 + 1)
            }
            _ => {}
        }
    }
    None
}

/// The identifiers and punctuation of a line, with their byte offsets.
fn words(line: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut w = c.to_string();
            while let Some(&(_, d)) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    w.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push((i, w));
        } else if !c.is_whitespace() {
            out.push((i, c.to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn device_selectors_in_user_code_are_errors() {
        let text = "# 1 \"x.c\"\nint f(void);\n#pragma omp declare variant(g) match(device={arch(nvptx64)})\nint h(void);\n\
                    # 10 \"x.c\"\n  #pragma omp begin declare variant match(device = {kind(gpu)}, implementation={vendor(llvm)})\n";
        let d = check(text, "x.c");
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].loc.as_ref().map(|l| (l.line, l.col)), Some((2, 1)));
        assert_eq!(d[1].loc.as_ref().map(|l| (l.line, l.col)), Some((10, 3)));
    }

    #[test]
    fn other_selectors_and_system_headers_are_fine() {
        let text = "# 1 \"x.c\"\n#pragma omp declare variant(g) match(construct={target})\n\
                    #pragma omp declare variant(g) match(implementation={vendor(llvm)}, user={condition(1)})\n\
                    # 496 \"/usr/lib/clang/include/omp.h\" 3\n#pragma omp begin declare variant match(device={kind(host)})\n\
                    # 5 \"x.c\" 2\n#pragma omp declare target\nint kind(int arch);\n";
        assert!(check(text, "x.c").is_empty());
    }
}

//! A `metadirective` in a target region whose `when` clauses select on what ptxcc knows of the
//! device (`device={kind(…), arch(…)}`, `implementation={vendor(…)}`) is replaced, on its own
//! line, by the directive the device selects:
//!
//! ```c
//! #pragma omp target map(tofrom: v)
//! {
//!   #pragma omp metadirective when(device={arch("nvptx")}: teams distribute parallel for) \
//!                             default(parallel for)
//!   for (…)                     // becomes: #pragma omp teams distribute parallel for
//! }
//! ```
//!
//! clang resolves a metadirective for the host only, and ptxcc compiles device code from the
//! host's code: left alone, the device would run the host's choice. The region's code runs on
//! the device (a host fallback runs the device's choice too, which is a valid directive there).
//! The selection: every `when` whose selector ptxcc can answer for the device is evaluated; if
//! exactly one matches (or several that select the same directive), it is chosen; if none,
//! `default`/`otherwise` (or nothing). Anything else — another selector set (`user`,
//! `construct`, `target_device`), `isa`, `score`, several different matches (their scores
//! would decide) — returns None, and the caller keeps its located error.

/// The directive the device selects, as a pragma line of the same source position (`None`:
/// ptxcc cannot decide; `Some("")`: the `nothing` directive, an empty line).
pub fn resolve_for_device(line: &str) -> Option<String> {
    let start = line.find("metadirective")? + "metadirective".len();
    let indent = &line[..line.len() - line.trim_start().len()];
    let mut chosen: Vec<String> = Vec::new();
    let mut default: Option<String> = None;
    for (name, args) in clauses(&line[start..])? {
        match name.as_str() {
            "when" => {
                let colon = top_level(&args, ':')?;
                let (selector, directive) = (&args[..colon], args[colon + 1..].trim());
                if selector_matches(selector)? {
                    chosen.push(directive.to_string());
                }
            }
            "default" | "otherwise" => default = Some(args.trim().to_string()),
            _ => return None,
        }
    }
    chosen.dedup();
    let directive = match chosen.as_slice() {
        [] => default.unwrap_or_default(),
        [one] => one.clone(),
        _ => return None,
    };
    if directive.is_empty() || directive == "nothing" {
        Some(String::new())
    } else {
        Some(format!("{indent}#pragma omp {directive}"))
    }
}

/// `name(args)` clauses of a directive's rest (None when the parentheses do not balance).
fn clauses(rest: &str) -> Option<Vec<(String, String)>> {
    let b = rest.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let name = rest[s..i].to_string();
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if b.get(i) != Some(&b'(') {
                return None;
            }
            let open = i;
            let mut depth = 0;
            loop {
                match b.get(i)? {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            out.push((name, rest[open + 1..i].to_string()));
        }
        i += 1;
    }
    Some(out)
}

/// The offset of the first `c` outside parentheses and braces.
fn top_level(s: &str, c: char) -> Option<usize> {
    let mut depth = 0i32;
    for (i, ch) in s.char_indices() {
        match ch {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            _ if ch == c && depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// Splits at the top-level commas.
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut from = 0;
    for (i, ch) in s.char_indices() {
        match ch {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[from..]);
    out.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// Whether the device matches a context selector (`device={…}, implementation={…}`); None when
/// ptxcc cannot answer it.
fn selector_matches(selector: &str) -> Option<bool> {
    let mut all = true;
    for set in split_top(selector) {
        let eq = set.find('=')?;
        let name = set[..eq].trim();
        let body = set[eq + 1..].trim().strip_prefix('{')?.strip_suffix('}')?;
        for t in split_top(body) {
            let t = t.trim();
            let open = t.find('(')?;
            let trait_name = t[..open].trim();
            let props: Vec<String> = t[open + 1..]
                .strip_suffix(')')?
                .split(',')
                .map(|p| p.trim().trim_matches('"').to_string())
                .collect();
            if props.iter().any(|p| p.is_empty() || p.contains(':')) {
                return None;
            }
            let m = match (name, trait_name) {
                ("device", "kind") => props
                    .iter()
                    .all(|p| matches!(p.as_str(), "gpu" | "nohost" | "any")),
                ("device", "arch") => props
                    .iter()
                    .all(|p| matches!(p.as_str(), "nvptx" | "nvptx64")),
                // clang, for the host and the device alike.
                ("implementation", "vendor") => props.iter().all(|p| p == "llvm"),
                _ => return None,
            };
            all &= m;
        }
    }
    Some(all)
}

#[cfg(test)]
mod tests {
    use super::resolve_for_device;

    #[test]
    fn the_device_choice() {
        let l = "   #pragma omp metadirective when(device={arch(\"nvptx\")}: teams distribute parallel for) default(parallel for)";
        assert_eq!(
            resolve_for_device(l).as_deref(),
            Some("   #pragma omp teams distribute parallel for")
        );
        let nothing = "#pragma omp metadirective when( device={kind(nohost)}: nothing ) when( device={arch(\"nvptx\")}: nothing) when( implementation={vendor(amd)}: nothing ) default( teams distribute parallel for thread_limit(n+1) )";
        assert_eq!(resolve_for_device(nothing).as_deref(), Some(""));
        let none =
            "#pragma omp metadirective when(device={kind(host)}: parallel) default(teams loop)";
        assert_eq!(
            resolve_for_device(none).as_deref(),
            Some("#pragma omp teams loop")
        );
        // Undecidable: a user condition, isa, two different matches.
        for l in [
            "#pragma omp metadirective when(user={condition(n>4)}: parallel for) default(simd)",
            "#pragma omp metadirective when(device={isa(sm_90)}: parallel for) default(simd)",
            "#pragma omp metadirective when(device={kind(gpu)}: parallel for) when(device={arch(nvptx)}: simd)",
        ] {
            assert_eq!(resolve_for_device(l), None, "{l}");
        }
    }
}

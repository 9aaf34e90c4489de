//! An atomic update of a variable that an enclosing construct maps `from` only, before anything
//! in the construct assigns it:
//!
//! ```c
//! unsigned hist[6] = {0};
//! #pragma acc kernels copyin(data) copyout(hist)     // → map(from: hist)
//! for (int i = 0; i < 20; i++) {
//!   #pragma acc atomic
//!   hist[data[i]]++;                                 // reads the device copy: never initialised
//! }
//! ```
//! The device copy of `hist` is allocated, not copied in (`copyout`, `map(from:)`), so the
//! updates start from whatever that memory holds: the emulator's poison (0x7FFFA5A5) shows as
//! huge counts, a GPU gives whatever its allocator left there (often zeros, which hides the bug
//! until it does not). Valid OpenMP and OpenACC, and the program's fault, but certainly not what
//! was meant: a warning at the atomic directive, saying to map it `tofrom` (`copy`). An
//! assignment to the variable earlier in the construct (`hist[i] = 0` in a loop before) counts
//! as its initialisation: no warning then.
use crate::layout_directive::block;
use crate::offload_parallel_for::directive::{list_names, split_top, Pragma};

/// The names `p` maps `from` only (in no `to`/`tofrom` map of `p` as well).
fn from_only(p: &Pragma) -> Vec<String> {
    let mut from = Vec::new();
    let mut to = Vec::new();
    for c in p.clauses.iter().filter(|c| c.name == "map") {
        let Some(args) = &c.args else { continue };
        let parts = split_top(args, ':');
        let kinds: Vec<&str> = if parts.len() > 1 {
            split_top(parts[0], ',')
                .into_iter()
                .map(str::trim)
                .collect()
        } else {
            vec!["tofrom"]
        };
        let names = list_names(c);
        if kinds.contains(&"from") {
            from.extend(names);
        } else if kinds.iter().any(|k| matches!(*k, "to" | "tofrom")) {
            to.extend(names);
        }
    }
    from.retain(|n| !to.contains(n));
    from
}

/// Whether `p` is an atomic update (not read, write, capture or compare).
fn is_atomic_update(p: &Pragma) -> bool {
    let mut all = p
        .words
        .iter()
        .map(String::as_str)
        .chain(p.clauses.iter().map(|c| c.name.as_str()));
    p.words.first().map(String::as_str) == Some("atomic")
        && !all.any(|w| matches!(w, "read" | "write" | "capture" | "compare"))
}

/// The variable an update statement writes: `x++`, `++x[i]`, `x[i][j] += e`, `x = x * e`.
fn updated_base(stmt: &str) -> Option<&str> {
    let s = stmt
        .trim_start()
        .trim_start_matches(['+', '-', '(', '*', ' ', '\t', '\n']);
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (end > 0).then(|| &s[..end])
}

/// Whether `t` assigns `name` (`name = …`, `name[…] = …`, not `==`).
fn assigns(t: &str, name: &str) -> bool {
    let b = t.as_bytes();
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut from = 0;
    while let Some(i) = t[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        if (at > 0 && is_ident(b[at - 1])) || b.get(from).is_some_and(|&c| is_ident(c)) {
            continue;
        }
        let mut j = from;
        loop {
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if b.get(j) != Some(&b'[') {
                break;
            }
            let mut depth = 0;
            while j < b.len() {
                match b[j] {
                    b'[' => depth += 1,
                    b']' => {
                        depth -= 1;
                        if depth == 0 {
                            j += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        if b.get(j) == Some(&b'=') && b.get(j + 1) != Some(&b'=') {
            return true;
        }
    }
    false
}

/// The warnings (located at the atomic directives) for the `target`/`target data` construct `p`
/// of `text`, whose pragmas are `pragmas`; `loc_of(q)` locates pragma `q`.
pub fn check(
    p: &Pragma,
    text: &str,
    pragmas: &[Pragma],
    loc_of: &dyn Fn(&Pragma) -> String,
) -> Vec<String> {
    let w: Vec<&str> = p.words.iter().map(String::as_str).collect();
    if w.first() != Some(&"target") || matches!(w.get(1), Some(&("enter" | "exit" | "update"))) {
        return Vec::new();
    }
    let names = from_only(p);
    if names.is_empty() {
        return Vec::new();
    }
    let Some(end) = block::statement_end(text.as_bytes(), p.end) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for q in pragmas
        .iter()
        .filter(|q| q.start > p.end && q.start < end && is_atomic_update(q))
    {
        let stmt_end = block::statement_end(text.as_bytes(), q.end).unwrap_or(end);
        let Some(x) = updated_base(&text[q.end..stmt_end]) else {
            continue;
        };
        if names.iter().any(|n| n == x) && !assigns(&text[p.end..q.start], x) {
            out.push(format!(
                "{}: warning: atomic update of '{x}', which the enclosing construct maps 'from' only \
                 (OpenACC copyout): its device copy is not initialised before the update reads it; \
                 map it 'tofrom' (OpenACC copy)",
                loc_of(q)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{assigns, updated_base};

    #[test]
    fn update_statements_and_assignments() {
        assert_eq!(updated_base("\n  hist[j]++;"), Some("hist"));
        assert_eq!(updated_base(" ++count;"), Some("count"));
        assert_eq!(updated_base(" s += a[i];"), Some("s"));
        assert!(assigns("for (i = 0; i < 6; i++) hist[i] = 0;", "hist"));
        assert!(assigns("h [i] [j]= 1;", "h"));
        assert!(!assigns("if (hist[i] == 0) x = hist[i];", "hist"));
        assert!(!assigns("histogram[i] = 0;", "hist"));
    }
}

//! A reduction variable that its own construct maps `from` only:
//!
//! ```c
//! #pragma omp target teams distribute parallel for map(from: sum) reduction(+: sum)
//! ```
//! The device copy of `sum` is allocated, not copied in, so the reduction starts from whatever
//! that memory holds (the emulator's poison shows it as NaN; a GPU gives garbage). Valid
//! OpenMP, and the program's fault, but certainly not what was meant: a warning at the map
//! item, saying to map it `tofrom`.
use ptxcc_passes::diagnostics::SourceLoc;

use crate::offload_parallel_for::directive::{list_names, split_top, Pragma};

/// The warnings for one pragma line.
pub fn check(p: &Pragma, line: &str, loc_of: &dyn Fn(usize) -> SourceLoc) -> Vec<String> {
    if p.words.first().map(String::as_str) != Some("target") {
        return Vec::new();
    }
    let reduced: Vec<String> = p
        .clauses
        .iter()
        .filter(|c| matches!(c.name.as_str(), "reduction" | "in_reduction"))
        .flat_map(list_names)
        .collect();
    if reduced.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut search_from = p.words_rel;
    for c in &p.clauses {
        if let Some(i) = line[search_from..].find(&c.name) {
            search_from += i;
        }
        if c.name != "map" {
            continue;
        }
        let Some(args) = &c.args else { continue };
        let parts = split_top(args, ':');
        let from_only =
            parts.len() > 1 && split_top(parts[0], ',').iter().any(|m| m.trim() == "from");
        if !from_only {
            continue;
        }
        for name in list_names(c) {
            if !reduced.contains(&name) {
                continue;
            }
            let rel =
                find_word(&line[search_from..], &name).map_or(p.words_rel, |i| search_from + i);
            out.push(format!(
                "{}: warning: reduction variable '{name}' is mapped 'from' only: its device copy \
                 is not initialised before the reduction combines into it; map it 'tofrom'",
                loc_of(rel)
            ));
        }
    }
    out
}

/// The offset of `word` in `s` as a whole identifier.
fn find_word(s: &str, word: &str) -> Option<usize> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(i) = s[from..].find(word) {
        let at = from + i;
        let before = s[..at].chars().next_back().is_some_and(is_ident);
        let after = s[at + word.len()..].chars().next().is_some_and(is_ident);
        if !before && !after {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

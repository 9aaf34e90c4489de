//! `defaultmap(present)` where it covers scalars (no category, `scalar` or `all`):
//!
//! ```c
//! #pragma omp target enter data map(to: s)
//! #pragma omp target defaultmap(present)
//! { use(s); s = 7; }
//! ```
//! Clang 19 maps such a scalar as present (the runtime finds its device copy and passes its
//! device address) but compiles the kernel to take the scalar by value: the region reads the
//! low bits of an address, a silently wrong answer. Until that can be repaired, the directive is
//! refused at the clause, with the forms that work: the scalars the region uses mapped
//! explicitly (`map(present, tofrom: s)`) and the `aggregate` and `pointer` categories.
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

use crate::offload_parallel_for::directive::Pragma;

/// The errors for one pragma line.
pub fn check(p: &Pragma, line: &str, loc_of: &dyn Fn(usize) -> SourceLoc) -> Vec<Diagnostic> {
    if p.words.first().map(String::as_str) != Some("target") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for c in p.clauses.iter().filter(|c| c.name == "defaultmap") {
        let Some(args) = &c.args else { continue };
        let (behaviour, category) = match args.split_once(':') {
            Some((b, c)) => (b.trim(), Some(c.trim())),
            None => (args.trim(), None),
        };
        if behaviour != "present" || !matches!(category, None | Some("scalar") | Some("all")) {
            continue;
        }
        let rel = line[p.words_rel..]
            .find("defaultmap")
            .map_or(p.words_rel, |i| p.words_rel + i);
        out.push(Diagnostic {
            loc: Some(loc_of(rel)),
            message: format!(
                "ptxcc does not support 'defaultmap({})' for scalar variables: clang 19 passes a \
                 scalar to the kernel by value, so the region would not use its device copy; map \
                 the scalars the region uses explicitly (map(present, tofrom: x)) and write \
                 defaultmap(present: aggregate) defaultmap(present: pointer) for the rest",
                args.trim()
            ),
        });
    }
    out
}

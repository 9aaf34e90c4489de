//! The `assume` directive of OpenMP 5.1 (section 8.3.3 of OpenMP 5.2), which clang 19 does not
//! parse ("expected an OpenMP directive"):
//!
//! ```c
//! #pragma omp assume holds(n % 4 == 0) no_parallelism absent(target)
//! { … }
//! ```
//! Its clauses are assumptions the program promises for the structured block that follows; the
//! implementation may use them and must not change the block's meaning. The pragma line becomes
//! ```c
//! for (int __ptxcc_assume_once = (__builtin_assume(n % 4 == 0), 0); !__ptxcc_assume_once; __ptxcc_assume_once = 1)
//! { … }
//! ```
//! so that `holds` reaches LLVM as `llvm.assume` at the start of the block (a statement prefix,
//! so the block stays the one statement it was, also as the body of an `if` with an `else`). The
//! other clauses (`no_openmp`, `no_openmp_routines`, `no_parallelism`, `absent`, `contains`)
//! promise what the block does not do; ptxcc's code for the block does not depend on them, so
//! they are read, checked and have no further effect. Without `holds` the line is left empty: the
//! block is then a plain statement. A clause OpenMP does not define for `assume` is an error at
//! the clause.
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

use crate::offload_parallel_for::directive::Pragma;

/// The clauses of `assume` (OpenMP 5.2, section 8.3.1, "assumption clauses").
const CLAUSES: &[&str] = &[
    "absent",
    "contains",
    "holds",
    "no_openmp",
    "no_openmp_routines",
    "no_parallelism",
];

/// The text that replaces an `assume` pragma line, or None when `p` is not one. Clause errors go
/// to `errors`.
pub fn rewrite(
    p: &Pragma,
    line: &str,
    loc_of: &dyn Fn(usize) -> SourceLoc,
    errors: &mut Vec<Diagnostic>,
) -> Option<String> {
    if p.words != ["assume"] {
        return None;
    }
    let mut holds: Vec<&str> = Vec::new();
    let mut search_from = p.words_rel;
    for c in &p.clauses {
        let rel = line[search_from..]
            .find(c.name.as_str())
            .map_or(p.words_rel, |i| search_from + i);
        search_from = rel.max(search_from);
        let takes_args = matches!(c.name.as_str(), "absent" | "contains" | "holds");
        if !CLAUSES.contains(&c.name.as_str()) || takes_args != c.args.is_some() {
            let what = if c.name.is_empty() {
                "text".to_string()
            } else {
                format!("clause '{}'", c.render())
            };
            errors.push(Diagnostic {
                loc: Some(loc_of(rel)),
                message: format!(
                    "unexpected {what} on '#pragma omp assume'; its clauses are holds(expression), \
                     absent(directive names), contains(directive names), no_openmp, \
                     no_openmp_routines and no_parallelism"
                ),
            });
            continue;
        }
        if c.name == "holds" {
            if let Some(e) = c.args.as_deref() {
                holds.push(e.trim());
            }
        }
    }
    if holds.is_empty() {
        return Some(String::new());
    }
    let assumed: Vec<String> = holds
        .iter()
        .map(|e| format!("__builtin_assume({e}), "))
        .collect();
    Some(format!(
        "for (int __ptxcc_assume_once = ({}0); !__ptxcc_assume_once; __ptxcc_assume_once = 1)",
        assumed.concat()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rw(line: &str) -> (Option<String>, Vec<Diagnostic>) {
        let p = Pragma::for_test(line);
        let mut errors = Vec::new();
        let loc = |rel: usize| SourceLoc {
            file: "t.c".into(),
            line: 1,
            col: rel as u32 + 1,
        };
        let out = rewrite(&p, line, &loc, &mut errors);
        (out, errors)
    }

    #[test]
    fn holds_becomes_builtin_assume_before_the_block() {
        let (out, errors) = rw("#pragma omp assume holds(N == 1024) no_openmp holds(k > 0)");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            out.as_deref(),
            Some(
                "for (int __ptxcc_assume_once = (__builtin_assume(N == 1024), \
                 __builtin_assume(k > 0), 0); !__ptxcc_assume_once; __ptxcc_assume_once = 1)"
            )
        );
    }

    #[test]
    fn other_clauses_leave_the_block_as_it_is() {
        let (out, errors) =
            rw("#pragma omp assume no_parallelism absent(target, parallel) contains(simd)");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(out.as_deref(), Some(""));
        assert_eq!(rw("#pragma omp assumes no_openmp").0, None);
    }

    #[test]
    fn unknown_clause_is_an_error_at_the_clause() {
        let (_, errors) = rw("#pragma omp assume no_openmp sometimes(x)");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].loc.as_ref().map(|l| l.col), Some(30));
        assert!(errors[0].message.contains("'sometimes(x)'"), "{errors:?}");
        let (_, errors) = rw("#pragma omp assume holds");
        assert_eq!(errors.len(), 1, "holds needs its expression");
    }
}

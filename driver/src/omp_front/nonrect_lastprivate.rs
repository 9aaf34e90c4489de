//! `lastprivate` of the iteration variable of a collapsed loop whose lower bound depends on an
//! outer loop's variable (a non-rectangular nest, OpenMP 5.0):
//!
//! ```c
//! #pragma omp target teams distribute parallel for collapse(2) lastprivate(i, j)
//! for (i = 0; i < 4; i++)
//!   for (j = i; j < 6; j++)      // j's lower bound reads i
//! ```
//!
//! After the loop OpenMP gives `j` the value sequential execution leaves (6). Clang 19 computes
//! the final value from a lower bound evaluated at `i` one past its last iteration and the
//! nest's widest row (10 here; also for `j = i + 1`, and at any depth of `collapse(3)`), on the
//! host as on the device: a silent wrong answer in the program's own variable. The loop's
//! iterations and `i`'s value are right, and so is a `j` whose upper bound alone reads `i`
//! (checked against clang 19 and GCC 12; SOLLVE V&V's `test_target_parallel_loop_lastprivate.c`
//! fails on it). Nothing ptxcc can correct in clang's code, so a warning at the directive
//! names the variable and what to do.
use crate::offload_parallel_for::directive::{list_names, matching_close, split_top, Pragma};

/// Words of directives whose associated loops `collapse` and `lastprivate` apply to.
const LOOP_WORDS: &[&str] = &["for", "distribute", "loop", "simd", "taskloop"];

/// One `for (init; cond; incr)` header of the nest: its variable and its lower bound's text.
struct Header {
    var: String,
    lower: String,
}

/// The warnings for pragma `p`, whose associated loops follow it in `text`.
pub fn check(p: &Pragma, text: &str, loc_of: &dyn Fn(&Pragma) -> String) -> Vec<String> {
    if !p.words.iter().any(|w| LOOP_WORDS.contains(&w.as_str())) {
        return Vec::new();
    }
    let depth = p
        .clauses
        .iter()
        .find(|c| c.name == "collapse")
        .and_then(|c| c.args.as_deref())
        .and_then(|a| a.trim().parse::<usize>().ok())
        .unwrap_or(1);
    let last: Vec<String> = p
        .clauses
        .iter()
        .filter(|c| c.name == "lastprivate")
        .flat_map(list_names)
        .collect();
    if depth < 2 || last.is_empty() {
        return Vec::new();
    }
    let nest = headers(&text[p.end..], depth);
    let mut out = Vec::new();
    for (level, h) in nest.iter().enumerate().skip(1) {
        let Some(outer) = nest[..level].iter().find(|o| mentions(&h.lower, &o.var)) else {
            continue;
        };
        if last.contains(&h.var) {
            out.push(format!(
                "{}: warning: lastprivate '{}' is the iteration variable of a collapsed loop whose \
                 lower bound reads '{}' (a non-rectangular nest): clang 19 gives it a wrong value \
                 after the loop (it evaluates the bound at '{}' past its last iteration); assign '{}' \
                 after the construct instead of listing it in lastprivate",
                loc_of(p),
                h.var,
                outer.var,
                outer.var,
                h.var
            ));
        }
    }
    out
}

/// The headers of up to `depth` perfectly nested `for` loops at the start of `s` (fewer where
/// the nest is not one clang would collapse, or a header is not `var = lower; …`).
fn headers(s: &str, depth: usize) -> Vec<Header> {
    let mut out = Vec::new();
    let mut rest = s;
    while out.len() < depth {
        let t = rest.trim_start().trim_start_matches('{').trim_start();
        let Some(after) = t.strip_prefix("for") else {
            break;
        };
        let after = after.trim_start();
        if !after.starts_with('(') {
            break;
        }
        let Some(close) = matching_close(after, 0) else {
            break;
        };
        let parts = split_top(&after[1..close], ';');
        let Some(init) = parts.first() else {
            break;
        };
        let Some((lhs, lower)) = init.split_once('=') else {
            break;
        };
        let Some(var) = lhs.split(|c: char| !is_ident(c)).rfind(|w| !w.is_empty()) else {
            break;
        };
        out.push(Header {
            var: var.to_string(),
            lower: lower.to_string(),
        });
        rest = &after[close + 1..];
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Does `expr` name the identifier `var` (as a whole token)?
fn mentions(expr: &str, var: &str) -> bool {
    expr.split(|c: char| !is_ident(c)).any(|w| w == var)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warnings(src: &str) -> Vec<String> {
        Pragma::scan_for_test(src)
            .iter()
            .flat_map(|p| check(p, src, &|_| "t.c:1:9".to_string()))
            .collect()
    }

    #[test]
    fn a_lower_bound_that_reads_an_outer_variable() {
        let w = warnings(
            "#pragma omp target teams distribute parallel for collapse(2) lastprivate(i, j)\n\
             for (i = 0; i < 4; i++)\n  for (j = i + 1; j < 6; j++) a[i][j] = 1;\n",
        );
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("t.c:1:9: warning: lastprivate 'j' is the iteration variable"));
        assert!(w[0].contains("lower bound reads 'i'"));
        // collapse(3), braces between the loops, a declared counter, the middle variable.
        let w = warnings(
            "#pragma omp parallel for collapse(3) lastprivate(k)\n\
             for (int i = 0; i < 4; i++) {\n for (int j = 0; j < 3; j++) {\n for (long k = j; k < 5; k++) {}}}\n",
        );
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("lastprivate 'k'") && w[0].contains("reads 'j'"));
    }

    #[test]
    fn rectangular_nests_upper_bounds_and_other_variables_stay_quiet() {
        for src in [
            // Rectangular.
            "#pragma omp parallel for collapse(2) lastprivate(i, j)\nfor (i = 0; i < 4; i++)\nfor (j = 0; j < 6; j++) ;\n",
            // Only the upper bound reads i: clang's value is right.
            "#pragma omp parallel for collapse(2) lastprivate(i, j)\nfor (i = 0; i < 4; i++)\nfor (j = 0; j < i + 2; j++) ;\n",
            // j is not lastprivate.
            "#pragma omp parallel for collapse(2) lastprivate(i)\nfor (i = 0; i < 4; i++)\nfor (j = i; j < 6; j++) ;\n",
            // No collapse: the inner loop is not associated.
            "#pragma omp parallel for lastprivate(j)\nfor (i = 0; i < 4; i++)\nfor (j = i; j < 6; j++) ;\n",
            // A token that only contains the outer name.
            "#pragma omp parallel for collapse(2) lastprivate(j)\nfor (i = 0; i < 4; i++)\nfor (j = ii; j < 6; j++) ;\n",
        ] {
            assert!(warnings(src).is_empty(), "{src}");
        }
    }
}

//! The `doacross` clause of OpenMP 5.2 (section 15.9.6) on stand-alone `ordered` constructs,
//! which clang 19 parses only under `-fopenmp-version=52`, and a doacross loop whose `ordered`
//! clause has no parameter, which clang 19 refuses in every mode:
//!
//! ```c
//! #pragma omp parallel for ordered
//! for (i = 1; i < n; i++) {
//!   #pragma omp ordered doacross(sink: i - 1)
//!   a[i] += a[i - 1];
//!   #pragma omp ordered doacross(source: omp_cur_iteration)
//! }
//! ```
//! becomes, in place,
//! ```c
//! #pragma omp parallel for ordered(1)
//! for (i = 1; i < n; i++) {
//!   #pragma omp ordered depend(sink: i - 1)
//!   a[i] += a[i - 1];
//!   #pragma omp ordered depend(source)
//! }
//! ```
//! OpenMP 5.2 spells `depend(sink: v)` / `depend(source)` of stand-alone `ordered` as
//! `doacross(sink: v)` / `doacross(source:)` (`source: omp_cur_iteration` is the same), and an
//! `ordered` clause without parameter on a doacross loop nest means `ordered(n)` with n the
//! `collapse` depth (section 11.4, "the doacross-affected loops"). Under
//! `-fopenmp-version=52` the clauses are left to clang; only the loop's parameter is added.
//! `doacross(sink: omp_cur_iteration - 1)` needs the loop's iteration vector, which ptxcc does
//! not derive from the text: a located error says to write it (`sink: i - 1`).
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

use crate::layout_directive::block;
use crate::offload_parallel_for::directive::{split_top, Clause, Pragma};
use crate::omp_front::OmpVersion;

/// Whether `p` is a stand-alone `ordered` with doacross dependences (either spelling).
fn is_doacross_ordered(p: &Pragma) -> bool {
    p.words == ["ordered"]
        && p.clauses.iter().any(|c| {
            c.name == "doacross"
                || (c.name == "depend"
                    && c.args.as_deref().is_some_and(|a| {
                        let k = split_top(a, ':')[0].trim();
                        k == "sink" || k == "source"
                    }))
        })
}

/// Whether `p` is a loop construct that takes an `ordered` clause.
fn is_worksharing_loop(p: &Pragma) -> bool {
    p.words.last().is_some_and(|w| w == "for")
        || p.words.ends_with(&["for".to_string(), "simd".to_string()])
}

/// The indices (into `pragmas`) of the worksharing loops with a parameterless `ordered` clause
/// that enclose a doacross `ordered`, with the depth their `ordered(n)` takes.
pub fn loops_to_number(text: &str, pragmas: &[Pragma]) -> Vec<(usize, String)> {
    let t = text.as_bytes();
    let mut out: Vec<(usize, String)> = Vec::new();
    for (i, p) in pragmas.iter().enumerate() {
        if !is_doacross_ordered(p) {
            continue;
        }
        let enclosing = pragmas[..i].iter().enumerate().rev().find(|(_, q)| {
            is_worksharing_loop(q)
                && block::statement_end(t, q.end).is_some_and(|end| p.start > q.end && p.end <= end)
        });
        let Some((j, q)) = enclosing else { continue };
        let bare = q
            .clauses
            .iter()
            .any(|c| c.name == "ordered" && c.args.is_none());
        if !bare || out.iter().any(|(k, _)| *k == j) {
            continue;
        }
        let depth = q
            .clauses
            .iter()
            .find(|c| c.name == "collapse")
            .and_then(|c| c.args.as_deref())
            .map_or("1".to_string(), |a| a.trim().to_string());
        out.push((j, depth));
    }
    out
}

/// The loop pragma line with `ordered` given its depth.
pub fn numbered_loop(p: &Pragma, line: &str, depth: &str) -> String {
    let clauses: Vec<String> = p
        .clauses
        .iter()
        .map(|c| match (c.name.as_str(), &c.args) {
            ("ordered", None) => format!("ordered({depth})"),
            _ => c.render(),
        })
        .collect();
    format!(
        "{}{} {}",
        &line[..p.words_rel],
        p.words.join(" "),
        clauses.join(" ")
    )
}

/// The stand-alone `ordered` line with `doacross` written as `depend`, or None when `p` has no
/// `doacross` clause or clang reads it itself.
pub fn rewrite(
    p: &Pragma,
    line: &str,
    version: OmpVersion,
    loc_of: &dyn Fn(usize) -> SourceLoc,
    errors: &mut Vec<Diagnostic>,
) -> Option<String> {
    if version.0 >= 52 || p.words != ["ordered"] || !p.clauses.iter().any(|c| c.name == "doacross")
    {
        return None;
    }
    let mut clauses: Vec<Clause> = Vec::new();
    for c in &p.clauses {
        let Some(args) = c.args.as_deref().filter(|_| c.name == "doacross") else {
            clauses.push(c.clone());
            continue;
        };
        let rel = line
            .find("doacross")
            .map_or(p.words_rel, |i| i + "doacross".len());
        let parts = split_top(args, ':');
        let kind = parts[0].trim();
        let vector = parts.get(1).map_or("", |v| v.trim());
        let depend = match kind {
            "source" if vector.is_empty() || vector == "omp_cur_iteration" => "source".to_string(),
            "sink" if vector.contains("omp_cur_iteration") => {
                errors.push(Diagnostic {
                    loc: Some(loc_of(rel)),
                    message: format!(
                        "ptxcc does not support 'doacross(sink: {vector})'; write the iteration \
                         vector with the loop variables (for the previous iteration of a loop \
                         over i with step 1: 'doacross(sink: i - 1)')"
                    ),
                });
                continue;
            }
            "sink" if !vector.is_empty() => format!("sink: {vector}"),
            _ => {
                errors.push(Diagnostic {
                    loc: Some(loc_of(rel)),
                    message: format!(
                        "unexpected 'doacross({args})': OpenMP 5.2 takes 'doacross(sink: \
                         vector)' or 'doacross(source:)'"
                    ),
                });
                continue;
            }
        };
        clauses.push(Clause {
            name: "depend".to_string(),
            args: Some(depend),
        });
    }
    let rendered: Vec<String> = clauses.iter().map(Clause::render).collect();
    Some(format!(
        "{}ordered {}",
        &line[..p.words_rel],
        rendered.join(" ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pragmas(text: &str) -> Vec<Pragma> {
        Pragma::scan_for_test(text)
    }

    fn loc(rel: usize) -> SourceLoc {
        SourceLoc {
            file: "t.c".into(),
            line: 1,
            col: rel as u32 + 1,
        }
    }

    const LOOP: &str = "#pragma omp parallel for ordered schedule(static)\n\
                        for (i = 1; i < n; i++) {\n\
                        #pragma omp ordered doacross(sink: i-1)\n\
                        a[i] += a[i-1];\n\
                        #pragma omp ordered doacross(source: omp_cur_iteration)\n\
                        }\n";

    #[test]
    fn the_enclosing_loop_gets_its_depth() {
        let ps = pragmas(LOOP);
        assert_eq!(loops_to_number(LOOP, &ps), vec![(0, "1".to_string())]);
        let line = &LOOP[ps[0].start..ps[0].end];
        assert_eq!(
            numbered_loop(&ps[0], line, "1"),
            "#pragma omp parallel for ordered(1) schedule(static)"
        );
        // A loop with a parameter, or without doacross inside, is left alone.
        let text = LOOP.replace("ordered schedule", "ordered(1) schedule");
        assert!(loops_to_number(&text, &pragmas(&text)).is_empty());
        let text =
            "#pragma omp for ordered\nfor (i = 0; i < n; i++) {\n#pragma omp ordered\nf(i);\n}\n";
        assert!(loops_to_number(text, &pragmas(text)).is_empty());
    }

    #[test]
    fn doacross_is_depend_under_openmp_51() {
        let ps = pragmas(LOOP);
        let mut errors = Vec::new();
        let l1 = &LOOP[ps[1].start..ps[1].end];
        let l2 = &LOOP[ps[2].start..ps[2].end];
        assert_eq!(
            rewrite(&ps[1], l1, OmpVersion(51), &loc, &mut errors).as_deref(),
            Some("#pragma omp ordered depend(sink: i-1)")
        );
        assert_eq!(
            rewrite(&ps[2], l2, OmpVersion(51), &loc, &mut errors).as_deref(),
            Some("#pragma omp ordered depend(source)")
        );
        assert_eq!(rewrite(&ps[2], l2, OmpVersion(52), &loc, &mut errors), None);
        assert!(errors.is_empty());
    }

    #[test]
    fn omp_cur_iteration_in_a_sink_is_refused_at_the_clause() {
        let line = "#pragma omp ordered doacross(sink: omp_cur_iteration - 1)";
        let ps = pragmas(line);
        let mut errors = Vec::new();
        rewrite(&ps[0], line, OmpVersion(51), &loc, &mut errors);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.contains("'doacross(sink: i - 1)'"));
    }
}

//! `parallel masked` with a task reduction, which crashes clang 19 (a segmentation fault in its
//! code generation, with or without offloading):
//!
//! ```c
//! #pragma omp parallel masked reduction(task, +: sum) filter(0) num_threads(4)
//! { … #pragma omp target in_reduction(+: sum) nowait … }
//! ```
//! OpenMP 5.2 (section 17.2, combined constructs) defines `parallel masked` as a `parallel`
//! construct immediately followed by a `masked` construct, the clauses going to the construct
//! that takes them (`filter` to `masked`, every other clause to `parallel`). Clang 19 compiles
//! that pair, so the line becomes (in place; `_Pragma` keeps it one line):
//!
//! ```c
//! _Pragma("omp parallel reduction(task, +: sum) num_threads(4)") _Pragma("omp masked filter(0)")
//! ```
//! Only the form that crashes is split; every other `parallel masked` is clang's.
use crate::offload_parallel_for::directive::{split_top, Clause, Pragma};

/// Whether `c` is a reduction clause with the `task` modifier.
fn is_task_reduction(c: &Clause) -> bool {
    c.name == "reduction"
        && c.args.as_deref().is_some_and(|a| {
            let parts = split_top(a, ':');
            parts.len() > 1 && split_top(parts[0], ',').iter().any(|m| m.trim() == "task")
        })
}

/// The text of a clause list inside a `_Pragma("…")` string.
fn in_string(clauses: &[&Clause]) -> String {
    clauses
        .iter()
        .map(|c| c.render())
        .collect::<Vec<_>>()
        .join(" ")
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// The replacement of the pragma line, or None when `p` is not a `parallel masked` with a task
/// reduction.
pub fn rewrite(p: &Pragma, line: &str) -> Option<String> {
    if p.words != ["parallel", "masked"] || !p.clauses.iter().any(is_task_reduction) {
        return None;
    }
    let (masked, parallel): (Vec<&Clause>, Vec<&Clause>) =
        p.clauses.iter().partition(|c| c.name == "filter");
    let indent = &line[..line.len() - line.trim_start().len()];
    Some(format!(
        "{indent}_Pragma(\"omp parallel {}\") _Pragma(\"omp masked {}\")",
        in_string(&parallel),
        in_string(&masked)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rw(line: &str) -> Option<String> {
        let p = Pragma::for_test(line);
        rewrite(&p, line)
    }

    #[test]
    fn task_reduction_splits_the_combined_construct() {
        assert_eq!(
            rw("  #pragma omp parallel masked reduction(task, +:sum) filter(1) num_threads(4)")
                .as_deref(),
            Some(
                "  _Pragma(\"omp parallel reduction(task, +:sum) num_threads(4)\") \
                 _Pragma(\"omp masked filter(1)\")"
            )
        );
    }

    #[test]
    fn other_parallel_masked_constructs_are_clangs() {
        assert_eq!(rw("#pragma omp parallel masked reduction(+:sum)"), None);
        assert_eq!(
            rw("#pragma omp parallel master reduction(task, +:sum)"),
            None
        );
        assert_eq!(rw("#pragma omp masked"), None);
    }
}

//! OpenMP 5.1/5.2 spellings that clang 19 (whose default is OpenMP 5.1) rejects, written the way
//! clang 19 accepts with the same meaning. The pragma line is rewritten in place:
//!
//! ```c
//! #pragma omp declare target enter(f, x) device_type(any)   // 5.2: `enter` is 5.1's `to`
//! #pragma omp target enter data map(a[:n], present: b)      // 5.2: no map type means `to`
//! #pragma omp target exit data map(a[:n])                   // 5.2: no map type means `from`
//! #pragma omp flush seq_cst                                 // 5.1: same as a flush without list
//! #pragma omp target defaultmap(to: all)                    // 5.2: every variable category
//! #pragma omp target uses_allocators(traits(t): a)          // 5.2: modifier syntax
//! ```
//! becomes
//! ```c
//! #pragma omp declare target to(f, x) device_type(any)
//! #pragma omp target enter data map(to: a[:n]) map(present, to: b)
//! #pragma omp target exit data map(from: a[:n])
//! #pragma omp flush
//! #pragma omp target defaultmap(to: scalar) defaultmap(to: aggregate) defaultmap(to: pointer)
//! #pragma omp target uses_allocators(a(t))
//! ```
//! OpenMP 5.2 (section 7.8.1, "declare target") renamed the `to` clause of `declare target` to
//! `enter`; clang 19 accepts `enter` only under `-fopenmp-version=52`, where it refuses `to`. The
//! map-type defaults of `target enter data` (`to`) and `target exit data` (`from`) are OpenMP 5.2
//! (section 5.8.3); clang 19 knows them only under `-fopenmp-version=52` too. So both rewrites are
//! made only when the user did not ask for OpenMP 5.2 (then clang reads the 5.2 spellings itself).
//! `flush seq_cst` (OpenMP 5.1, section 2.19.8: a flush with the seq_cst clause and no list is a
//! strong flush of every variable, which is what a flush without clauses is) is rejected by
//! clang 19 in every mode, so it is always rewritten; so is the `all` category of `defaultmap`
//! (OpenMP 5.2, section 5.8.7: the clause applies to every category), which clang 19 does not
//! know: it becomes one clause per category clang knows (scalar, aggregate, pointer); and the
//! modifier form of `uses_allocators` (OpenMP 5.2, section 6.8: `traits(t): a`, with
//! `memspace(omp_default_mem_space)`, the default, or no memory space), which clang 19 reads
//! as a call of a function `traits`, becomes the 5.1 form `a(t)`.
use crate::offload_parallel_for::directive::{split_top, Clause, Pragma};

/// The map types of OpenMP 5.2 (a map clause naming none of them has no map type).
const MAP_TYPES: &[&str] = &["to", "from", "tofrom", "alloc", "release", "delete"];

/// The OpenMP version the user asked clang for (`-fopenmp-version=N`), as 51 or 52 and so on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OmpVersion(pub u32);

impl OmpVersion {
    /// Clang 19's default.
    pub const DEFAULT: OmpVersion = OmpVersion(51);

    /// From the flags forwarded to clang (the last `-fopenmp-version=` wins, as in clang).
    pub fn from_flags<'a>(flags: impl Iterator<Item = &'a str>) -> OmpVersion {
        flags
            .filter_map(|f| f.strip_prefix("-fopenmp-version="))
            .filter_map(|v| v.trim().parse::<u32>().ok())
            .map(OmpVersion)
            .last()
            .unwrap_or(OmpVersion::DEFAULT)
    }

    fn reads_52_spellings(self) -> bool {
        self.0 >= 52
    }
}

/// The rewritten pragma line, or None when `p` has nothing of the above.
pub fn rewrite(p: &Pragma, line: &str, version: OmpVersion) -> Option<String> {
    let words: Vec<&str> = p.words.iter().map(String::as_str).collect();
    let clauses: Option<Vec<Clause>> = match words.as_slice() {
        ["flush"] if p.clauses.iter().any(|c| c.name == "seq_cst") => Some(
            p.clauses
                .iter()
                .filter(|c| c.name != "seq_cst")
                .cloned()
                .collect(),
        ),
        _ if p.clauses.iter().any(is_defaultmap_all) => Some(
            p.clauses
                .iter()
                .flat_map(|c| {
                    if !is_defaultmap_all(c) {
                        return vec![c.clone()];
                    }
                    let behaviour = c
                        .args
                        .as_deref()
                        .and_then(|a| a.split_once(':'))
                        .map_or("", |(b, _)| b.trim());
                    ["scalar", "aggregate", "pointer"]
                        .iter()
                        .map(|cat| Clause {
                            name: "defaultmap".to_string(),
                            args: Some(format!("{behaviour}: {cat}")),
                        })
                        .collect()
                })
                .collect(),
        ),
        [first, ..]
            if *first == "target"
                && p.clauses
                    .iter()
                    .any(|c| c.name == "uses_allocators" && uses_allocators_51(c).is_some()) =>
        {
            Some(
                p.clauses
                    .iter()
                    .map(|c| match uses_allocators_51(c) {
                        Some(args) if c.name == "uses_allocators" => Clause {
                            name: c.name.clone(),
                            args: Some(args),
                        },
                        _ => c.clone(),
                    })
                    .collect(),
            )
        }
        _ if version.reads_52_spellings() => None,
        ["declare", "target"] if p.clauses.iter().any(|c| c.name == "enter") => Some(
            p.clauses
                .iter()
                .map(|c| match c.name.as_str() {
                    "enter" => Clause {
                        name: "to".to_string(),
                        args: c.args.clone(),
                    },
                    _ => c.clone(),
                })
                .collect(),
        ),
        ["target", "enter", "data"] => with_map_type(&p.clauses, "to"),
        ["target", "exit", "data"] => with_map_type(&p.clauses, "from"),
        _ => None,
    };
    let clauses = clauses?;
    let head = &line[..p.words_rel];
    let rendered: Vec<String> = clauses.iter().map(Clause::render).collect();
    Some(format!("{head}{} {}", words.join(" "), rendered.join(" ")))
}

/// The OpenMP 5.1 form of a `uses_allocators` clause written with 5.2's modifiers
/// (`traits(t): a, b` → `a(t), b(t)`), or None when it has none or names a memory space the
/// 5.1 form cannot say.
fn uses_allocators_51(c: &Clause) -> Option<String> {
    let args = c.args.as_deref()?;
    let parts = split_top(args, ':');
    let [mods, list] = parts.as_slice() else {
        return None;
    };
    let mut traits: Option<&str> = None;
    for m in split_top(mods, ',') {
        let m = m.trim();
        let (name, arg) = m.split_once('(')?;
        let arg = arg.strip_suffix(')')?.trim();
        match name.trim() {
            "traits" => traits = Some(arg),
            "memspace" if arg == "omp_default_mem_space" => {}
            _ => return None,
        }
    }
    let items: Vec<String> = split_top(list, ',')
        .iter()
        .map(|a| match traits {
            Some(t) => format!("{}({t})", a.trim()),
            None => a.trim().to_string(),
        })
        .collect();
    Some(items.join(", "))
}

/// Whether `c` is `defaultmap(behaviour: all)`.
fn is_defaultmap_all(c: &Clause) -> bool {
    c.name == "defaultmap"
        && c.args
            .as_deref()
            .and_then(|a| a.split_once(':'))
            .is_some_and(|(_, cat)| cat.trim() == "all")
}

/// The clauses with `map_type` written into every map clause that has none; None when every
/// map clause has one.
fn with_map_type(clauses: &[Clause], map_type: &str) -> Option<Vec<Clause>> {
    let mut changed = false;
    let out = clauses
        .iter()
        .map(|c| {
            let Some(args) = c.args.as_deref().filter(|_| c.name == "map") else {
                return c.clone();
            };
            let parts = split_top(args, ':');
            let (modifiers, list) = match parts.as_slice() {
                [list] => (None, *list),
                [m, list] => (Some(*m), *list),
                // `a[b ? 0 : 1]`-like text ptxcc does not read: clang's to judge.
                _ => return c.clone(),
            };
            let has_type = modifiers.is_some_and(|m| {
                split_top(m, ',')
                    .iter()
                    .any(|w| MAP_TYPES.contains(&w.trim()))
            });
            if has_type {
                return c.clone();
            }
            changed = true;
            let args = match modifiers {
                Some(m) => format!("{}, {map_type}: {}", m.trim(), list.trim()),
                None => format!("{map_type}: {}", list.trim()),
            };
            Clause {
                name: "map".to_string(),
                args: Some(args),
            }
        })
        .collect();
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rw(line: &str, v: OmpVersion) -> Option<String> {
        let p = Pragma::for_test(line);
        rewrite(&p, line, v)
    }

    #[test]
    fn declare_target_enter_is_to_under_openmp_51() {
        assert_eq!(
            rw(
                "#pragma omp declare target enter(f, x) device_type(nohost)",
                OmpVersion::DEFAULT
            )
            .as_deref(),
            Some("#pragma omp declare target to(f, x) device_type(nohost)")
        );
        assert_eq!(
            rw("  #pragma omp declare target enter(g)", OmpVersion(51)).as_deref(),
            Some("  #pragma omp declare target to(g)")
        );
        // Under 5.2 clang reads `enter` itself (and refuses `to`).
        assert_eq!(
            rw("#pragma omp declare target enter(f)", OmpVersion(52)),
            None
        );
        assert_eq!(rw("#pragma omp declare target to(f)", OmpVersion(51)), None);
    }

    #[test]
    fn enter_and_exit_data_get_their_default_map_types() {
        assert_eq!(
            rw(
                "#pragma omp target enter data map(A[:N], B[0:n]) map(present: c) map(alloc: d) nowait",
                OmpVersion(51)
            )
            .as_deref(),
            Some("#pragma omp target enter data map(to: A[:N], B[0:n]) map(present, to: c) map(alloc: d) nowait")
        );
        assert_eq!(
            rw(
                "#pragma omp target exit data map(B[:N]) map(always, delete: e)",
                OmpVersion(51)
            )
            .as_deref(),
            Some("#pragma omp target exit data map(from: B[:N]) map(always, delete: e)")
        );
        assert_eq!(
            rw("#pragma omp target enter data map(to: a)", OmpVersion(51)),
            None
        );
        assert_eq!(
            rw("#pragma omp target enter data map(a)", OmpVersion(52)),
            None
        );
        // `target data` keeps clang's tofrom default.
        assert_eq!(rw("#pragma omp target data map(a)", OmpVersion(51)), None);
    }

    #[test]
    fn flush_seq_cst_is_a_plain_flush_in_every_version() {
        for v in [OmpVersion(51), OmpVersion(52)] {
            assert_eq!(
                rw("    #pragma omp flush seq_cst", v).as_deref(),
                Some("    #pragma omp flush ")
            );
        }
        assert_eq!(rw("#pragma omp flush acquire", OmpVersion(51)), None);
    }

    #[test]
    fn defaultmap_all_is_one_clause_per_category() {
        assert_eq!(
            rw(
                "#pragma omp target defaultmap(to: all) map(from: s3)",
                OmpVersion(52)
            )
            .as_deref(),
            Some(
                "#pragma omp target defaultmap(to: scalar) defaultmap(to: aggregate) \
                 defaultmap(to: pointer) map(from: s3)"
            )
        );
        assert_eq!(
            rw(
                "#pragma omp target defaultmap(tofrom: scalar)",
                OmpVersion(51)
            ),
            None
        );
    }

    #[test]
    fn uses_allocators_modifiers_are_the_51_form() {
        assert_eq!(
            rw(
                "#pragma omp target uses_allocators(traits(tr): a) uses_allocators(omp_pteam_mem_alloc)",
                OmpVersion(51)
            )
            .as_deref(),
            Some("#pragma omp target uses_allocators(a(tr)) uses_allocators(omp_pteam_mem_alloc)")
        );
        assert_eq!(
            rw(
                "#pragma omp target uses_allocators(memspace(omp_default_mem_space), traits(t): a, b)",
                OmpVersion(52)
            )
            .as_deref(),
            Some("#pragma omp target uses_allocators(a(t), b(t))")
        );
        // A memory space the 5.1 form cannot name: clang's to judge.
        assert_eq!(
            rw(
                "#pragma omp target uses_allocators(memspace(omp_high_bw_mem_space): a)",
                OmpVersion(51)
            ),
            None
        );
    }

    #[test]
    fn version_flags() {
        assert_eq!(OmpVersion::from_flags(["-O2"].into_iter()), OmpVersion(51));
        assert_eq!(
            OmpVersion::from_flags(["-fopenmp-version=52", "-fopenmp-version=45"].into_iter()),
            OmpVersion(45)
        );
    }
}

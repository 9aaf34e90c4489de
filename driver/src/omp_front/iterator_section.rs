//! The `iterator` modifier of `map`, `to` and `from` (OpenMP 5.1; OpenMP 5.2 section 3.2.6,
//! "iterators"), which clang 19 parses only on `depend` and `affinity`:
//!
//! ```c
//! #pragma omp target map(iterator(it = 0:n), tofrom: a[it])
//! #pragma omp target update to(iterator(int i = lo:hi): s.data[i])
//! #pragma omp declare mapper(vec_t v) map(iterator(it = 0:v.len), tofrom: v.data[it])
//! ```
//! An iterator expands a list item into one list item per value of the iterator; when the item
//! is `base[it]` and the iterator runs over `lo:hi` with step 1, the items are the elements
//! `base[lo]` … `base[hi - 1]`, which are the array section `base[lo : hi - lo]`:
//!
//! ```c
//! #pragma omp target map(tofrom: a[0 : (n) - (0)])
//! #pragma omp target update to(s.data[lo : (hi) - (lo)])
//! #pragma omp declare mapper(vec_t v) map(tofrom: v.data[0 : (v.len) - (0)])
//! ```
//! Other forms (several iterators, a step, the iterator used elsewhere than as the last
//! subscript) are refused with a located error: ptxcc would otherwise have to move a set of
//! elements that is not one section.
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

use crate::offload_parallel_for::directive::{split_top, Clause, Pragma};

/// One iterator definition `[type] name = begin:end[:step]`.
struct Iterator {
    name: String,
    begin: String,
    end: String,
    step: Option<String>,
}

fn parse_iterator(def: &str) -> Option<Iterator> {
    let (lhs, range) = def.split_once('=')?;
    let name = lhs.split_whitespace().last()?.trim_start_matches('*');
    let parts = split_top(range, ':');
    let (begin, end, step) = match parts.as_slice() {
        [b, e] => (b, e, None),
        [b, e, s] => (b, e, Some(s.trim().to_string())),
        _ => return None,
    };
    Some(Iterator {
        name: name.to_string(),
        begin: begin.trim().to_string(),
        end: end.trim().to_string(),
        step,
    })
}

/// Whether `s` uses the identifier `name`.
fn uses(s: &str, name: &str) -> bool {
    s.match_indices(name).any(|(i, _)| {
        let before = s[..i].chars().next_back();
        let after = s[i + name.len()..].chars().next();
        let id = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !id(before) && !id(after)
    })
}

/// The clause's list with the iterator turned into sections: Ok(None) when the clause has no
/// iterator modifier; Err(message) when ptxcc cannot.
fn expand(args: &str) -> Result<Option<String>, String> {
    let parts = split_top(args, ':');
    if parts.len() < 2 {
        return Ok(None);
    }
    let list = parts[parts.len() - 1];
    let modifiers = parts[..parts.len() - 1].join(":");
    let mods = split_top(&modifiers, ',');
    let Some(iter_mod) = mods.iter().find(|m| m.trim().starts_with("iterator")) else {
        return Ok(None);
    };
    let inner = iter_mod
        .trim()
        .strip_prefix("iterator")
        .map(str::trim)
        .and_then(|s| s.strip_prefix('('))
        .and_then(|s| s.strip_suffix(')'))
        .ok_or_else(|| format!("cannot read '{}'", iter_mod.trim()))?;
    let defs = split_top(inner, ',');
    let [def] = defs.as_slice() else {
        return Err(format!(
            "ptxcc does not support an iterator modifier with several iterators ('{}'); \
             map each dimension as an array section",
            iter_mod.trim()
        ));
    };
    let it = parse_iterator(def).ok_or_else(|| format!("cannot read the iterator '{def}'"))?;
    if it.step.as_deref().is_some_and(|s| s != "1") {
        return Err(format!(
            "ptxcc does not support an iterator with a step ('{}'); the elements it names are \
             not one array section",
            def.trim()
        ));
    }
    let mut items = Vec::new();
    for item in split_top(list, ',') {
        let item = item.trim();
        let base = item.strip_suffix(']').and_then(|s| {
            let open = s.rfind('[')?;
            (s[open + 1..].trim() == it.name).then_some(&s[..open])
        });
        match base {
            Some(b) if !uses(b, &it.name) => {
                items.push(format!("{b}[{} : ({}) - ({})]", it.begin, it.end, it.begin))
            }
            _ => {
                return Err(format!(
                    "ptxcc supports an iterator modifier only on list items of the form \
                     'base[{}]' (they are one array section), not '{item}'",
                    it.name
                ))
            }
        }
    }
    let rest: Vec<&str> = mods
        .iter()
        .filter(|m| !m.trim().starts_with("iterator"))
        .map(|m| m.trim())
        .collect();
    Ok(Some(if rest.is_empty() {
        items.join(", ")
    } else {
        format!("{}: {}", rest.join(", "), items.join(", "))
    }))
}

/// The pragma line with its iterator modifiers expanded, or None when it has none (or on an
/// error, which goes to `errors`).
pub fn rewrite(
    p: &Pragma,
    line: &str,
    loc_of: &dyn Fn(usize) -> SourceLoc,
    errors: &mut Vec<Diagnostic>,
) -> Option<String> {
    let on_target = p.words.first().is_some_and(|w| w == "target");
    let on_mapper = p.words == ["declare", "mapper"];
    if !(on_target || on_mapper) || !line.contains("iterator") {
        return None;
    }
    let names: &[&str] = if p.words == ["target", "update"] {
        &["to", "from"]
    } else {
        &["map"]
    };
    let mut changed = false;
    let mut clauses: Vec<Clause> = Vec::new();
    for c in &p.clauses {
        let Some(args) = c
            .args
            .as_deref()
            .filter(|_| names.contains(&c.name.as_str()))
        else {
            clauses.push(c.clone());
            continue;
        };
        match expand(args) {
            Ok(None) => clauses.push(c.clone()),
            Ok(Some(a)) => {
                changed = true;
                clauses.push(Clause {
                    name: c.name.clone(),
                    args: Some(a),
                });
            }
            Err(message) => {
                let rel = line.find("iterator").unwrap_or(p.words_rel);
                errors.push(Diagnostic {
                    loc: Some(loc_of(rel)),
                    message,
                });
                return None;
            }
        }
    }
    if !changed {
        return None;
    }
    let mut out = format!("{}{}", &line[..p.words_rel], p.words.join(" "));
    for c in &clauses {
        // The directive's own argument (`declare mapper(…)`) follows its name directly.
        if !c.name.is_empty() {
            out.push(' ');
        }
        out.push_str(&c.render());
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rw(line: &str) -> Result<Option<String>, Vec<Diagnostic>> {
        let p = Pragma::for_test(line);
        let mut errors = Vec::new();
        let loc = |rel: usize| SourceLoc {
            file: "t.c".into(),
            line: 1,
            col: rel as u32 + 1,
        };
        let out = rewrite(&p, line, &loc, &mut errors);
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    #[test]
    fn an_iterator_over_the_last_subscript_is_a_section() {
        assert_eq!(
            rw("#pragma omp target map(iterator(it = 0:N), tofrom: test_lst[it]) map(to: x)")
                .unwrap()
                .as_deref(),
            Some("#pragma omp target map(tofrom: test_lst[0 : (N) - (0)]) map(to: x)")
        );
        assert_eq!(
            rw("#pragma omp target update to(iterator(int i = lo:hi:1): s.data[i], t[i])")
                .unwrap()
                .as_deref(),
            Some("#pragma omp target update to(s.data[lo : (hi) - (lo)], t[lo : (hi) - (lo)])")
        );
        assert_eq!(
            rw("#pragma omp declare mapper(myvec_t v) map(iterator(it = 0:v.len), tofrom: v.data[it])")
                .unwrap()
                .as_deref(),
            Some("#pragma omp declare mapper(myvec_t v) map(tofrom: v.data[0 : (v.len) - (0)])")
        );
        assert_eq!(
            rw("#pragma omp target map(always, iterator(k=1:n), from: a[k])")
                .unwrap()
                .as_deref(),
            Some("#pragma omp target map(always, from: a[1 : (n) - (1)])")
        );
        assert_eq!(rw("#pragma omp target map(tofrom: a[0:n])").unwrap(), None);
        assert_eq!(
            rw("#pragma omp task depend(iterator(i=0:n), in: a[i])").unwrap(),
            None
        );
    }

    #[test]
    fn other_iterators_are_refused_at_the_modifier() {
        for (line, what) in [
            (
                "#pragma omp target map(iterator(i=0:n:2), to: a[i])",
                "a step",
            ),
            (
                "#pragma omp target map(iterator(i=0:n, j=0:m), to: a[i][j])",
                "several iterators",
            ),
            (
                "#pragma omp target map(iterator(i=0:n), to: a[i][0:4])",
                "'a[i][0:4]'",
            ),
            (
                "#pragma omp target map(iterator(i=0:n), to: a[b[i]])",
                "'a[b[i]]'",
            ),
        ] {
            let e = rw(line).expect_err(line);
            assert_eq!(e.len(), 1);
            assert_eq!(e[0].loc.as_ref().map(|l| l.col), Some(24), "{line}");
            assert!(e[0].message.contains(what), "{line}: {}", e[0].message);
        }
    }
}

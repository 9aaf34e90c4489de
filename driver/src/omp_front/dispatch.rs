//! The `dispatch` construct of OpenMP 5.1 (section 7.6 of OpenMP 5.2), which clang 19 parses but
//! cannot compile ("cannot compile this OpenMP dispatch directive yet"):
//!
//! ```c
//! #pragma omp declare variant(add_dev) match(construct={dispatch}) adjust_args(need_device_ptr: a)
//! void add(int *a, int n);
//! …
//! #pragma omp dispatch device(d) novariants(c1) nocontext(c2) depend(in: x) is_device_ptr(q)
//!   add(p, n);
//! ```
//! The call is made in a context whose construct set holds `dispatch`, so a variant of the
//! called function that selects on `construct={dispatch}` replaces it, unless `novariants` is
//! true (no variant) or `nocontext` is true (`dispatch` is not added to the context). The
//! arguments of the variant's `need_device_ptr` parameters are converted as `use_device_ptr`
//! converts a pointer (its device address when the data it points to is mapped, the value
//! unchanged otherwise), except those named in `is_device_ptr`/`has_device_addr`. `device(d)`
//! is the default device while the call runs; `depend` orders the call after the sibling tasks
//! it names (a `taskwait` with those dependences). `nowait` allows the call to be deferred;
//! ptxcc makes it at once, which is one of the executions `nowait` allows. The pragma line and
//! the end of the statement become (line numbers do not move):
//!
//! ```c
//! { extern … omp_get_default_device, omp_set_default_device, omp_get_mapped_ptr;
//!   _Pragma("omp taskwait depend(in: x)") int __ptxcc_dispatch_dev = omp_get_default_device();
//!   omp_set_default_device(d); if (!(c1) && !(c2)) add_dev(DEVICE_PTR(p), n); else
//!   add(p, n);  omp_set_default_device(__ptxcc_dispatch_dev); }
//! ```
//! Refused with a located error: a statement other than a call (`f(…);` or `x = f(…);`), the
//! `interop` clause, and a dispatch variant that selects on more than `construct={dispatch}`,
//! has `append_args`, or is one of several for the function.
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

use crate::layout_directive::block;
use crate::offload_parallel_for::directive::{split_top, Clause, Pragma};

/// A `declare variant` of a function that selects on `construct={dispatch}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DispatchVariant {
    pub base: String,
    pub variant: String,
    /// The positions of the parameters named in `adjust_args(need_device_ptr: …)`.
    pub need_device_ptr: Vec<usize>,
    /// Why ptxcc cannot call it for a dispatch (a selector beyond `construct={dispatch}`,
    /// `append_args`), if it cannot.
    pub refused: Option<String>,
}

/// The last identifier of `s` (a parameter declaration's name: `const int *restrict a` → `a`).
fn last_ident(s: &str) -> &str {
    let s = s.trim_end();
    let s = match s.find('[') {
        Some(i) => s[..i].trim_end(),
        None => s,
    };
    let start = s
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    &s[start..]
}

/// The offset of the `)` matching the `(` at `open`.
fn close_paren(t: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in t[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The function declared after `from` (further pragmas and line markers skipped): its name and
/// its parameters' names.
fn declaration_after(text: &str, from: usize) -> Option<(String, Vec<String>)> {
    let t = text.as_bytes();
    let start = block::skip_trivia(t, from);
    let open = start + text[start..].find('(')?;
    let head = &text[start..open];
    if head.contains([';', '{', '}']) {
        return None;
    }
    let name = last_ident(head);
    if name.is_empty() {
        return None;
    }
    let close = close_paren(text, open)?;
    let params = split_top(&text[open + 1..close], ',')
        .into_iter()
        .map(|p| last_ident(p).to_string())
        .collect();
    Some((name.to_string(), params))
}

/// Whether a `match(…)` argument is exactly `construct={dispatch}` (blanks aside).
fn only_dispatch(selector: &str) -> bool {
    let s: String = selector.chars().filter(|c| !c.is_whitespace()).collect();
    s == "construct={dispatch}"
}

/// The dispatch variants the text declares.
pub fn collect(text: &str, pragmas: &[Pragma]) -> Vec<DispatchVariant> {
    let mut out = Vec::new();
    for p in pragmas {
        if p.words != ["declare", "variant"] {
            continue;
        }
        let Some(variant) = p
            .clauses
            .iter()
            .find(|c| c.name.is_empty())
            .and_then(|c| c.args.as_deref())
        else {
            continue;
        };
        let Some(selector) = p
            .clauses
            .iter()
            .find(|c| c.name == "match")
            .and_then(|c| c.args.as_deref())
        else {
            continue;
        };
        let compact: String = selector.chars().filter(|c| !c.is_whitespace()).collect();
        if !compact.contains("dispatch") {
            continue;
        }
        let Some((base, params)) = declaration_after(text, p.end) else {
            continue;
        };
        let mut refused = None;
        if !only_dispatch(selector) {
            refused = Some(format!("selects on 'match({})'", selector.trim()));
        }
        if p.clauses.iter().any(|c| c.name == "append_args") {
            refused = Some("has 'append_args' (interop objects)".to_string());
        }
        let mut need_device_ptr = Vec::new();
        for c in p.clauses.iter().filter(|c| c.name == "adjust_args") {
            let args = c.args.as_deref().unwrap_or("");
            let parts = split_top(args, ':');
            let [modifier, list] = parts.as_slice() else {
                continue;
            };
            match modifier.trim() {
                "need_device_ptr" => {
                    for name in split_top(list, ',') {
                        match params.iter().position(|p| p == name.trim()) {
                            Some(i) => need_device_ptr.push(i),
                            None => {
                                refused = Some(format!(
                                    "names '{}' in adjust_args, which is not a parameter",
                                    name.trim()
                                ))
                            }
                        }
                    }
                }
                "nothing" => {}
                m => refused = Some(format!("has 'adjust_args({m}: …)'")),
            }
        }
        out.push(DispatchVariant {
            base,
            variant: variant.trim().to_string(),
            need_device_ptr,
            refused,
        });
    }
    out
}

/// The rewrite of a `dispatch` pragma: the text replacing the pragma line, where the statement
/// ends, and the text inserted there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewrite {
    pub head: String,
    pub end: usize,
    pub tail: String,
}

/// The call of a dispatch statement: `[lhs =] f(args);`, as offsets into the text.
struct Call<'a> {
    /// The statement up to the function name (`x = ` or nothing).
    lhs: &'a str,
    name: &'a str,
    args: Vec<&'a str>,
}

fn read_call(stmt: &str) -> Option<Call<'_>> {
    let s = stmt.trim();
    let s = s.strip_suffix(';')?.trim_end();
    let open = s.find('(')?;
    let before = s[..open].trim_end();
    let name = last_ident(before);
    if name.is_empty() {
        return None;
    }
    let lhs = &before[..before.len() - name.len()];
    // Nothing, or an assignment's left side.
    let lhs_ok = lhs.trim().is_empty()
        || (lhs.trim_end().ends_with('=')
            && !lhs.trim_end().ends_with("==")
            && !lhs.contains(['(', ')']));
    let close = close_paren(s, open)?;
    if !lhs_ok || close + 1 != s.len() {
        return None;
    }
    let inner = &s[open + 1..close];
    let args = if inner.trim().is_empty() {
        Vec::new()
    } else {
        split_top(inner, ',')
    };
    Some(Call { lhs, name, args })
}

/// The rewrite of the `dispatch` pragma `p`, or None when `p` is not one (or on an error, which
/// goes to `errors`).
pub fn rewrite(
    p: &Pragma,
    text: &str,
    variants: &[DispatchVariant],
    loc_of: &dyn Fn(usize) -> SourceLoc,
    errors: &mut Vec<Diagnostic>,
) -> Option<Rewrite> {
    if p.words != ["dispatch"] {
        return None;
    }
    let line = &text[p.start..p.end];
    let clause_rel = |c: &Clause| {
        line[p.words_rel..]
            .find(c.name.as_str())
            .map_or(p.words_rel, |i| p.words_rel + i)
    };
    let mut err = |rel: usize, message: String| {
        errors.push(Diagnostic {
            loc: Some(loc_of(rel)),
            message,
        })
    };
    let mut device: Option<&str> = None;
    let mut no_variant: Vec<&str> = Vec::new();
    let mut depends: Vec<&str> = Vec::new();
    let mut device_ptrs: Vec<String> = Vec::new();
    let mut bad = false;
    for c in &p.clauses {
        let args = c.args.as_deref();
        match (c.name.as_str(), args) {
            ("device", Some(d)) => device = Some(d.trim()),
            ("novariants" | "nocontext", Some(e)) => no_variant.push(e.trim()),
            ("depend", Some(d)) => depends.push(d.trim()),
            ("is_device_ptr" | "has_device_addr", Some(l)) => {
                device_ptrs.extend(split_top(l, ',').iter().map(|n| n.trim().to_string()))
            }
            ("nowait", None) => {}
            ("interop", _) => {
                err(
                    clause_rel(c),
                    "ptxcc does not support the 'interop' clause of 'dispatch' (it has no \
                     foreign runtimes to give interop objects for); leave it out"
                        .to_string(),
                );
                bad = true;
            }
            _ => {
                err(
                    clause_rel(c),
                    format!(
                        "unexpected clause '{}' on '#pragma omp dispatch'; its clauses are \
                         device, depend, nowait, novariants, nocontext, is_device_ptr and \
                         has_device_addr",
                        c.render()
                    ),
                );
                bad = true;
            }
        }
    }
    let t = text.as_bytes();
    let start = block::skip_trivia(t, p.end);
    let Some(end) = block::statement_end(t, p.end) else {
        err(
            p.words_rel,
            "the statement after 'dispatch' must be a function call ('f(…);' or 'x = f(…);')"
                .to_string(),
        );
        return None;
    };
    let stmt = &text[start..end];
    let Some(call) = read_call(stmt) else {
        err(
            p.words_rel,
            "the statement after 'dispatch' must be a function call ('f(…);' or 'x = f(…);')"
                .to_string(),
        );
        return None;
    };
    let mut dispatch_variants = variants.iter().filter(|v| v.base == call.name);
    let variant = dispatch_variants.next();
    if let Some(v) = variant {
        if dispatch_variants.next().is_some() {
            err(
                p.words_rel,
                format!(
                    "ptxcc does not support 'dispatch' of '{}', which has several variants for \
                     construct={{dispatch}}; keep one",
                    call.name
                ),
            );
            bad = true;
        } else if let Some(why) = &v.refused {
            err(
                p.words_rel,
                format!(
                    "ptxcc does not support 'dispatch' of '{}' through its variant '{}', which \
                     {why}; ptxcc calls variants that select on construct={{dispatch}} alone",
                    call.name, v.variant
                ),
            );
            bad = true;
        }
    }
    if bad {
        return None;
    }
    let mut head = String::from(
        "{ extern int omp_get_default_device(void); extern void omp_set_default_device(int); \
         extern void *omp_get_mapped_ptr(const void *, int); ",
    );
    if !depends.is_empty() {
        let d: Vec<String> = depends.iter().map(|d| format!("depend({d})")).collect();
        head.push_str(&format!("_Pragma(\"omp taskwait {}\") ", d.join(" ")));
    }
    let mut tail = String::from(" ");
    if let Some(d) = device {
        head.push_str(&format!(
            "int __ptxcc_dispatch_dev = omp_get_default_device(); omp_set_default_device({d}); "
        ));
        tail.push_str("omp_set_default_device(__ptxcc_dispatch_dev); ");
    }
    tail.push('}');
    if let Some(v) = variant {
        let args: Vec<String> = call
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let a = a.trim();
                if v.need_device_ptr.contains(&i) && !device_ptrs.iter().any(|d| d == a) {
                    format!(
                        "({{ __typeof__(({a}) + 0) __ptxcc_p = ({a}); void *__ptxcc_m = \
                         omp_get_mapped_ptr(__ptxcc_p, omp_get_default_device()); \
                         __ptxcc_m ? (__typeof__(__ptxcc_p))__ptxcc_m : __ptxcc_p; }})"
                    )
                } else {
                    a.to_string()
                }
            })
            .collect();
        let lhs = call.lhs.replace('\n', " ");
        let cond = if no_variant.is_empty() {
            "1".to_string()
        } else {
            no_variant
                .iter()
                .map(|e| format!("!({e})"))
                .collect::<Vec<_>>()
                .join(" && ")
        };
        head.push_str(&format!(
            "if ({cond}) {lhs}{}({}); else ",
            v.variant,
            args.join(", ").replace('\n', " ")
        ));
    }
    Some(Rewrite { head, end, tail })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pragmas(text: &str) -> Vec<Pragma> {
        Pragma::scan_for_test(text)
    }

    fn rw(text: &str) -> Result<Rewrite, Vec<Diagnostic>> {
        let ps = pragmas(text);
        let vs = collect(text, &ps);
        let p = ps
            .iter()
            .find(|p| p.words == ["dispatch"])
            .expect("dispatch");
        let mut errors = Vec::new();
        let loc = |rel: usize| SourceLoc {
            file: "t.c".into(),
            line: 1,
            col: rel as u32 + 1,
        };
        match rewrite(p, text, &vs, &loc, &mut errors) {
            Some(r) if errors.is_empty() => Ok(r),
            _ => Err(errors),
        }
    }

    const DECL: &str = "#pragma omp declare variant(add_dev) match(construct = {dispatch}) \
                        adjust_args(need_device_ptr: a)\nvoid add(int *a, int n);\n";

    #[test]
    fn variants_are_collected_with_their_device_pointer_parameters() {
        let vs = collect(DECL, &pragmas(DECL));
        assert_eq!(
            vs,
            vec![DispatchVariant {
                base: "add".into(),
                variant: "add_dev".into(),
                need_device_ptr: vec![0],
                refused: None
            }]
        );
    }

    #[test]
    fn the_call_becomes_the_variant_unless_novariants() {
        let text = format!(
            "{DECL}#pragma omp dispatch novariants(k > 1) device(d)\n  r = add(p, n);\nx();\n"
        );
        let r = rw(&text).expect("no error");
        assert!(text[..r.end].ends_with("r = add(p, n);"));
        assert!(
            r.head.contains("omp_set_default_device(d); if (!(k > 1)) r = add_dev(({ __typeof__((p) + 0) __ptxcc_p = (p);"),
            "{}",
            r.head
        );
        assert!(
            r.head.ends_with("__ptxcc_m : __ptxcc_p; }), n); else "),
            "{}",
            r.head
        );
        assert_eq!(r.tail, " omp_set_default_device(__ptxcc_dispatch_dev); }");
    }

    #[test]
    fn is_device_ptr_arguments_are_passed_unchanged() {
        let text = format!(
            "{DECL}#pragma omp dispatch is_device_ptr(p) depend(in: x) nowait\nadd(p, 4);\n"
        );
        let r = rw(&text).expect("no error");
        assert!(
            r.head.contains("_Pragma(\"omp taskwait depend(in: x)\") "),
            "{}",
            r.head
        );
        assert!(
            r.head.ends_with("if (1) add_dev(p, 4); else "),
            "{}",
            r.head
        );
        assert_eq!(r.tail, " }");
    }

    #[test]
    fn a_function_without_dispatch_variant_is_called_as_it_is() {
        let r = rw("#pragma omp dispatch\nf(1);\n").expect("no error");
        assert!(!r.head.contains(" if ("), "{}", r.head);
    }

    #[test]
    fn refused_forms_are_located() {
        for (text, what) in [
            ("#pragma omp dispatch\nx = a + b;\n".to_string(), "must be a function call"),
            ("#pragma omp dispatch interop(o)\nf();\n".to_string(), "'interop'"),
            (
                "#pragma omp declare variant(g) match(construct={dispatch}, device={arch(nvptx)})\nvoid f(void);\n#pragma omp dispatch\nf();\n".to_string(),
                "selects on 'match(construct={dispatch}, device={arch(nvptx)})'",
            ),
        ] {
            let e = rw(&text).expect_err(&text);
            assert_eq!(e.len(), 1, "{text}: {e:?}");
            assert!(e[0].message.contains(what), "{text}: {}", e[0].message);
        }
    }
}

//! The `scope` construct of OpenMP 5.1 (section 11.2 of OpenMP 5.2), which clang 19 parses but
//! cannot compile ("cannot compile this scope with FE outlining yet"; its 5.2 clauses
//! `firstprivate` and `allocate` it does not parse):
//!
//! ```c
//! #pragma omp scope private(t) firstprivate(f) reduction(+: s) allocate(align(64): t)
//! { S }
//! ```
//! Every thread of the team runs S once with its own `t`, `f` (initialised from the original)
//! and `s` (initialised to the operator's identity); at the end each thread's `s` is combined
//! into the original, and the threads wait for each other (no barrier under `nowait`). The
//! pragma line and the end of S are rewritten in place (line numbers do not move):
//!
//! ```c
//! { __typeof__(f) *__ptxcc_scope_f = &f; __typeof__(s) *__ptxcc_scope_s = &s; {
//!   __typeof__(t) t __attribute__((aligned(64))); __typeof__(f) f;
//!   __builtin_memcpy(&f, __ptxcc_scope_f, sizeof(f)); __typeof__(s) s = 0;
//! { S } _Pragma("omp atomic") *__ptxcc_scope_s += s; } _Pragma("omp barrier") }
//! ```
//! `__typeof__(x) x` declares the private copy with the original's type (the new name's scope
//! starts after its declarator, so `__typeof__` still reads the original). Reductions combine
//! with `omp atomic` where OpenMP's atomic update has the operator (`+ - * & | ^`) and in one
//! named `critical` otherwise (`&& || min max`), before the barrier, so every thread sees the
//! result after the construct. `allocate` names where the private copies live: `align(n)` is
//! honoured; an allocator must be one of OpenMP's predefined ones (`omp_*_mem_alloc`), and the
//! copy is the thread's own variable, in the memory of the thread's other private variables
//! (what a predefined allocator falls back to); a user-defined allocator is refused.
//! Reductions over array sections, user-defined reduction identifiers and reduction modifiers
//! (`task`, `inscan`) are refused with a located error, as is a block that ptxcc cannot
//! delimit or that a jump could leave.
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

use crate::layout_directive::block;
use crate::offload_parallel_for::directive::{list_names, split_top, Pragma};

/// How a reduction operator's per-thread results are combined into the original.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Combine {
    /// `omp atomic` update with this compound assignment.
    Atomic(&'static str),
    /// In the construct's `critical`: `*orig = *orig OP x`.
    Binary(&'static str),
    /// In the construct's `critical`: keep the larger / the smaller.
    Max,
    Min,
}

/// A reduction operator of OpenMP 5.2 (section 5.5.5): its identity and how it combines.
fn operator(op: &str) -> Option<(&'static str, Combine)> {
    Some(match op {
        "+" => ("0", Combine::Atomic("+=")),
        // OpenMP 5.2 combines `-` partial results with `+`.
        "-" => ("0", Combine::Atomic("+=")),
        "*" => ("1", Combine::Atomic("*=")),
        "&" => ("~0", Combine::Atomic("&=")),
        "|" => ("0", Combine::Atomic("|=")),
        "^" => ("0", Combine::Atomic("^=")),
        "&&" => ("1", Combine::Binary("&&")),
        "||" => ("0", Combine::Binary("||")),
        "max" => ("", Combine::Max),
        "min" => ("", Combine::Min),
        _ => return None,
    })
}

/// The identity of `max` (the least value of the type) or `min` (the greatest), by the type of
/// `x`, for C's arithmetic types.
fn extreme(x: &str, least: bool) -> String {
    let neg = if least { "-" } else { "" };
    let int = |max: &str| {
        if least {
            format!("-{max} - 1")
        } else {
            max.to_string()
        }
    };
    let uint = |max: &str| {
        if least {
            "0".to_string()
        } else {
            max.to_string()
        }
    };
    format!(
        "_Generic(({x}), char: (char)((char)-1 < 0 ? {c_signed} : {c_unsigned}), \
         signed char: {schar}, unsigned char: {uchar}, short: {short}, \
         unsigned short: {ushort}, int: {int_}, unsigned: {uint_}, long: {long}, \
         unsigned long: {ulong}, long long: {llong}, unsigned long long: {ullong}, \
         float: {neg}__builtin_inff(), double: {neg}__builtin_inf(), \
         long double: {neg}__builtin_infl())",
        c_signed = int("__SCHAR_MAX__"),
        c_unsigned = uint("(2 * __SCHAR_MAX__ + 1)"),
        schar = int("__SCHAR_MAX__"),
        uchar = uint("(2 * __SCHAR_MAX__ + 1)"),
        short = int("__SHRT_MAX__"),
        ushort = uint("(2 * __SHRT_MAX__ + 1)"),
        int_ = int("__INT_MAX__"),
        uint_ = uint("(2U * __INT_MAX__ + 1U)"),
        long = int("__LONG_MAX__"),
        ulong = uint("(2UL * __LONG_MAX__ + 1UL)"),
        llong = int("__LONG_LONG_MAX__"),
        ullong = uint("(2ULL * __LONG_LONG_MAX__ + 1ULL)"),
    )
}

/// The clause of the construct that names a variable's private copy.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Copy {
    Private,
    Firstprivate,
    Reduction { identity: String, combine: Combine },
}

/// Two edits: the text that replaces the pragma line, and the text inserted at `end` (just
/// after the structured block).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewrite {
    pub head: String,
    pub end: usize,
    pub tail: String,
}

/// A variable name as a C identifier.
fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The rewrite of a `scope` pragma `p` of `text`, or None when `p` is not one (or on an error,
/// which goes to `errors`).
pub fn rewrite(
    p: &Pragma,
    text: &str,
    loc_of: &dyn Fn(usize) -> SourceLoc,
    errors: &mut Vec<Diagnostic>,
) -> Option<Rewrite> {
    if p.words != ["scope"] {
        return None;
    }
    let line = &text[p.start..p.end];
    let clause_rel = |name: &str| {
        line[p.words_rel..]
            .find(name)
            .map_or(p.words_rel, |i| p.words_rel + i)
    };
    let before = errors.len();
    let mut err = |rel: usize, message: String| {
        errors.push(Diagnostic {
            loc: Some(loc_of(rel)),
            message,
        })
    };
    let mut copies: Vec<(String, Copy)> = Vec::new();
    let mut aligned: Vec<(String, String)> = Vec::new();
    let mut nowait = false;
    for c in &p.clauses {
        let rel = clause_rel(&c.name);
        let args = c.args.as_deref().unwrap_or("");
        match c.name.as_str() {
            "nowait" if c.args.is_none() => nowait = true,
            "private" | "firstprivate" => {
                for item in split_top(args, ',') {
                    let item = item.trim();
                    if !is_ident(item) {
                        err(
                            rel,
                            format!("'{item}' in '{}' of 'scope' is not a variable name", c.name),
                        );
                        continue;
                    }
                    let copy = if c.name == "private" {
                        Copy::Private
                    } else {
                        Copy::Firstprivate
                    };
                    copies.push((item.to_string(), copy));
                }
            }
            "reduction" => {
                let parts = split_top(args, ':');
                let (head, list) = match parts.as_slice() {
                    [h, l] => (h.trim(), *l),
                    _ => {
                        err(
                            rel,
                            format!("'reduction({args})' of 'scope' has no 'operator: list'"),
                        );
                        continue;
                    }
                };
                let mods: Vec<&str> = split_top(head, ',').into_iter().map(str::trim).collect();
                let (op, modifiers) = mods.split_last().unwrap_or((&"", &[]));
                if let Some(m) = modifiers.iter().find(|m| **m != "default") {
                    err(
                        rel,
                        format!(
                            "ptxcc does not support the reduction modifier '{m}' on 'scope'; \
                             leave it out or reduce in a worksharing loop"
                        ),
                    );
                    continue;
                }
                let Some((identity, combine)) = operator(op) else {
                    err(
                        rel,
                        format!(
                            "ptxcc does not support the reduction identifier '{op}' on 'scope' \
                             (it supports + - * & | ^ && || min max); reduce with one of those"
                        ),
                    );
                    continue;
                };
                for item in split_top(list, ',') {
                    let item = item.trim();
                    if !is_ident(item) {
                        err(
                            rel,
                            format!(
                                "ptxcc does not support the reduction item '{item}' on 'scope' \
                                 (an array section or element); reduce into a scalar variable"
                            ),
                        );
                        continue;
                    }
                    let identity = match combine {
                        Combine::Max => extreme(item, true),
                        Combine::Min => extreme(item, false),
                        _ if identity == "~0" => format!("(__typeof__({item}))~0"),
                        _ => identity.to_string(),
                    };
                    copies.push((item.to_string(), Copy::Reduction { identity, combine }));
                }
            }
            "allocate" => {
                let parts = split_top(args, ':');
                let (mods, list) = match parts.as_slice() {
                    [l] => ("", *l),
                    [m, l] => (*m, *l),
                    _ => ("", args),
                };
                let mut align: Option<String> = None;
                for m in split_top(mods, ',') {
                    let m = m.trim();
                    if m.is_empty() {
                        continue;
                    }
                    let (name, arg) = match m.split_once('(') {
                        Some((n, a)) => (n.trim(), a.trim_end_matches(')').trim()),
                        // The allocator as the 5.0 `allocate(allocator: list)` form.
                        None => ("allocator", m),
                    };
                    match name {
                        "align" => align = Some(arg.to_string()),
                        "allocator" if arg.starts_with("omp_") && arg.ends_with("_mem_alloc") => {}
                        _ => err(
                            rel,
                            format!(
                                "ptxcc does not support '{m}' in 'allocate' on 'scope': the \
                                 private copies of a scope can use OpenMP's predefined \
                                 allocators (omp_*_mem_alloc) and align(n)"
                            ),
                        ),
                    }
                }
                for name in list_names(&crate::offload_parallel_for::directive::Clause {
                    name: "allocate".into(),
                    args: Some(list.to_string()),
                }) {
                    if let Some(a) = &align {
                        aligned.push((name, a.clone()));
                    }
                }
            }
            _ => err(
                rel,
                format!(
                    "unexpected clause '{}' on '#pragma omp scope'; its clauses are private, \
                     firstprivate, reduction, allocate and nowait",
                    c.render()
                ),
            ),
        }
    }
    let t = text.as_bytes();
    let Some(end) = block::statement_end(t, p.end) else {
        err(
            p.words_rel,
            "ptxcc cannot find the end of the structured block of this 'scope'; put the block in \
             braces"
                .to_string(),
        );
        return None;
    };
    if let Some((_, word)) = block::escaping_jump(t, p.end, end) {
        err(
            p.words_rel,
            format!(
                "a '{word}' in the structured block of this 'scope' would leave it; a structured \
                 block is left only at its end"
            ),
        );
    }
    if errors.len() > before {
        return None;
    }
    let ptr = |v: &str| format!("__ptxcc_scope_{v}");
    let mut head = String::from("{ ");
    for (v, c) in &copies {
        if matches!(c, Copy::Firstprivate | Copy::Reduction { .. }) {
            head.push_str(&format!("__typeof__({v}) *{} = &{v}; ", ptr(v)));
        }
    }
    head.push_str("{ ");
    let mut tail = String::from(" ");
    let mut critical: Vec<String> = Vec::new();
    for (v, c) in &copies {
        let attr = aligned
            .iter()
            .find(|(n, _)| n == v)
            .map(|(_, a)| format!(" __attribute__((aligned({a})))"))
            .unwrap_or_default();
        match c {
            Copy::Private => head.push_str(&format!("__typeof__({v}) {v}{attr}; ")),
            Copy::Firstprivate => head.push_str(&format!(
                "__typeof__({v}) {v}{attr}; __builtin_memcpy(&{v}, {}, sizeof({v})); ",
                ptr(v)
            )),
            Copy::Reduction { identity, combine } => {
                head.push_str(&format!("__typeof__({v}) {v}{attr} = {identity}; "));
                let p = ptr(v);
                match combine {
                    Combine::Atomic(op) => {
                        tail.push_str(&format!("_Pragma(\"omp atomic\") *{p} {op} {v}; "))
                    }
                    Combine::Binary(op) => critical.push(format!("*{p} = *{p} {op} {v};")),
                    Combine::Max => critical.push(format!("if ({v} > *{p}) *{p} = {v};")),
                    Combine::Min => critical.push(format!("if ({v} < *{p}) *{p} = {v};")),
                }
            }
        }
    }
    if !critical.is_empty() {
        tail.push_str(&format!(
            "_Pragma(\"omp critical(__ptxcc_scope_reduction)\") {{ {} }} ",
            critical.join(" ")
        ));
    }
    tail.push('}');
    if !nowait {
        tail.push_str(" _Pragma(\"omp barrier\")");
    }
    tail.push_str(" }");
    Some(Rewrite { head, end, tail })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rw(text: &str) -> Result<Rewrite, Vec<Diagnostic>> {
        let line_end = text.find('\n').unwrap_or(text.len());
        let p = Pragma::for_test(&text[..line_end]);
        let mut errors = Vec::new();
        let loc = |rel: usize| SourceLoc {
            file: "t.c".into(),
            line: 1,
            col: rel as u32 + 1,
        };
        match rewrite(&p, text, &loc, &mut errors) {
            Some(r) if errors.is_empty() => Ok(r),
            _ => Err(errors),
        }
    }

    #[test]
    fn private_firstprivate_and_a_barrier() {
        let text = "#pragma omp scope private(t) firstprivate(f)\n{ t = f; }\nint x;\n";
        let r = rw(text).expect("no error");
        assert_eq!(
            r.head,
            "{ __typeof__(f) *__ptxcc_scope_f = &f; { __typeof__(t) t; __typeof__(f) f; \
             __builtin_memcpy(&f, __ptxcc_scope_f, sizeof(f)); "
        );
        assert_eq!(
            &text[..r.end],
            "#pragma omp scope private(t) firstprivate(f)\n{ t = f; }"
        );
        assert_eq!(r.tail, " } _Pragma(\"omp barrier\") }");
    }

    #[test]
    fn reductions_combine_before_the_barrier_and_nowait_drops_it() {
        let text = "#pragma omp scope reduction(+: s) reduction(max: m) nowait\n  s += 1;\n";
        let r = rw(text).expect("no error");
        assert!(r.head.contains("__typeof__(s) s = 0; "), "{}", r.head);
        assert!(
            r.head.contains("__typeof__(m) m = _Generic((m), "),
            "{}",
            r.head
        );
        assert!(r.head.contains("int: -__INT_MAX__ - 1"), "{}", r.head);
        assert!(r.head.contains("double: -__builtin_inf()"), "{}", r.head);
        assert_eq!(
            r.tail,
            " _Pragma(\"omp atomic\") *__ptxcc_scope_s += s; \
             _Pragma(\"omp critical(__ptxcc_scope_reduction)\") \
             { if (m > *__ptxcc_scope_m) *__ptxcc_scope_m = m; } } }"
        );
        assert_eq!(&text[r.end - 7..r.end], "s += 1;");
    }

    #[test]
    fn the_block_after_nested_pragmas_is_the_loop() {
        let text =
            "#pragma omp scope\n#pragma omp for\nfor (i = 0; i < n; i++) a[i] = 0;\nx = 1;\n";
        let r = rw(text).expect("no error");
        assert!(text[..r.end].ends_with("a[i] = 0;"));
        assert_eq!(r.head, "{ { ");
    }

    #[test]
    fn allocate_with_align_and_a_predefined_allocator() {
        let text = "#pragma omp scope private(a) allocate(align(64), allocator(omp_low_lat_mem_alloc): a)\n{}\n";
        let r = rw(text).expect("no error");
        assert!(
            r.head
                .contains("__typeof__(a) a __attribute__((aligned(64))); "),
            "{}",
            r.head
        );
        let text = "#pragma omp scope private(a) allocate(my_alloc: a)\n{}\n";
        let e = rw(text).expect_err("a user-defined allocator");
        assert!(e[0].message.contains("'my_alloc'"), "{e:?}");
    }

    #[test]
    fn refused_forms_are_located() {
        for (text, what) in [
            (
                "#pragma omp scope reduction(+: a[0:4])\n{}\n",
                "array section",
            ),
            ("#pragma omp scope reduction(myop: s)\n{}\n", "'myop'"),
            ("#pragma omp scope reduction(task, +: s)\n{}\n", "'task'"),
            ("#pragma omp scope copyin(s)\n{}\n", "'copyin(s)'"),
            ("#pragma omp scope\n{ return; }\n", "'return'"),
        ] {
            let e = rw(text).expect_err(text);
            assert_eq!(e.len(), 1, "{text}: {e:?}");
            assert!(e[0].message.contains(what), "{text}: {}", e[0].message);
        }
    }
}

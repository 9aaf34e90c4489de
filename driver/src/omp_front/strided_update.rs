//! `target update to/from` of strided and multi-dimensional array sections.
//!
//! Clang 19 keeps a section's stride only where its Sema marks the item non-contiguous: a
//! section after another non-whole section (`m[0:4][0:4:2]`). Everywhere else it drops the
//! stride and copies `length` contiguous elements: `target update from(r[0:8:2])` copies
//! r[0..8] instead of r[0], r[2], …, r[14] — a silently wrong answer. So ptxcc takes every item
//! of a `target update` that has a stride other than 1, or more than one section subscript, out
//! of the pragma before clang sees it and performs it through libptxrt's
//! `__ptxcc_target_update_strided` with a descriptor of the section (first element, element
//! size, and per dimension a count and a byte stride); the runtime copies each contiguous run
//! once (a whole-row section is one copy).
//!
//! ```c
//! #pragma omp target update from(r[0:8:2], x) device(d)
//! ```
//! becomes, on the same line:
//! ```c
//! { extern void __ptxcc_target_update_strided(…); { long long __ptxcc_n[1] = {(8)};
//!   long long __ptxcc_s[1] = {(2) * (long long)sizeof((r)[0])};
//!   __ptxcc_target_update_strided("f.c:3:32", (d), "r[0:8:2]", &(r)[(0)],
//!       (long long)sizeof((r)[0]), 1, __ptxcc_n, __ptxcc_s, 2); }
//!   _Pragma("omp target update from( x) device(d)") }
//! ```
//! * `if(c)` guards the call (and stays on the remaining pragma); `device(d)` is passed on;
//!   `nowait` is dropped (the copy is done when the call returns, which `nowait` allows);
//!   `depend(…)` becomes a `taskwait depend(…)` before the call, so earlier sibling tasks the
//!   update depends on have finished.
//! * The byte stride of dimension d is the stride times the size of `base[0]…[0]` (d+1
//!   subscripts): every dimension after the first must be an array, not a pointer (a
//!   `double **`'s rows are separate objects). A `_Static_assert` says so at compile time;
//!   likewise for an omitted length, which needs the dimension's extent.
//! * Refused with a located error: a `mapper(…)` or `iterator(…)` modifier on such an item;
//!   any such item while the translation unit declares a mapper and the element is a struct or
//!   union (a default mapper may apply to it; checked at compile time).
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

use super::section::{ArraySection, SectionError, Subscript};
use crate::offload_parallel_for::directive::{split_top, Pragma};

/// The map-type bits the runtime entry takes (libomptarget's, see ptx-runtime map_type.rs).
const MAP_TO: u64 = 0x1;
const MAP_FROM: u64 = 0x2;
const MAP_PRESENT: u64 = 0x1000;

/// The runtime entry, declared in the block that calls it (no header needed).
const DECL: &str = "extern void __ptxcc_target_update_strided(const char *, long long, \
const char *, const void *, long long, long long, const long long *, const long long *, \
long long);";

/// One item taken out of a pragma.
struct Taken {
    section: ArraySection,
    text: String,
    flags: u64,
    loc: SourceLoc,
}

/// The replacement text of one `target update` line, or None when no item needs it.
/// `has_mappers`: the translation unit has a `declare mapper`.
pub fn rewrite(
    p: &Pragma,
    line: &str,
    loc_of: &dyn Fn(usize) -> SourceLoc,
    has_mappers: bool,
    errors: &mut Vec<Diagnostic>,
) -> Option<String> {
    if p.words != ["target", "update"] {
        return None;
    }
    let mut taken: Vec<Taken> = Vec::new();
    let mut kept: Vec<String> = Vec::new();
    let mut cond: Option<String> = None;
    let mut device: Option<String> = None;
    let mut depends: Vec<String> = Vec::new();
    let mut search_from = p.words_rel;
    for c in &p.clauses {
        match (c.name.as_str(), &c.args) {
            ("to" | "from", Some(args)) => {
                let dir = if c.name == "to" { MAP_TO } else { MAP_FROM };
                let parts = split_top(args, ':');
                let (modifiers, list) = match parts.split_last() {
                    Some((list, mods)) if !mods.is_empty() => (mods.join(":"), *list),
                    _ => (String::new(), args.as_str()),
                };
                let mut rest: Vec<&str> = Vec::new();
                for item in split_top(list, ',') {
                    let rel = line[search_from..]
                        .find(item.trim())
                        .map_or(p.words_rel, |i| search_from + i);
                    let loc = loc_of(rel);
                    match ArraySection::parse(item) {
                        Ok(Some(s)) if s.is_strided_or_multidimensional() => {
                            if let Some(m) = ["mapper", "iterator"]
                                .into_iter()
                                .find(|m| modifiers.contains(m))
                            {
                                errors.push(Diagnostic {
                                    loc: Some(loc),
                                    message: format!(
                                        "ptxcc does not support a '{m}' modifier on the strided \
                                         or multi-dimensional section '{}' in 'target update'; \
                                         update the section without the modifier",
                                        item.trim()
                                    ),
                                });
                                continue;
                            }
                            let present = split_top(&modifiers, ',')
                                .iter()
                                .any(|m| m.trim() == "present");
                            taken.push(Taken {
                                section: s,
                                text: item.trim().to_string(),
                                flags: dir | if present { MAP_PRESENT } else { 0 },
                                loc,
                            });
                        }
                        Ok(_) => rest.push(item),
                        Err(SectionError::Unreadable(sub)) => errors.push(Diagnostic {
                            loc: Some(loc),
                            message: format!(
                                "ptxcc cannot read the subscript '[{sub}]' of '{}'; put a \
                                 conditional expression in parentheses",
                                item.trim()
                            ),
                        }),
                    }
                }
                if !rest.is_empty() {
                    let mods = if modifiers.is_empty() {
                        String::new()
                    } else {
                        format!("{modifiers}:")
                    };
                    kept.push(format!("{}({mods}{})", c.name, rest.join(",")));
                }
            }
            ("if", Some(args)) => {
                let parts = split_top(args, ':');
                cond = Some(parts.last().copied().unwrap_or(args).trim().to_string());
                kept.push(c.render());
            }
            ("device", Some(args)) => {
                device = Some(args.trim().to_string());
                kept.push(c.render());
            }
            ("depend", Some(args)) => {
                depends.push(args.trim().to_string());
                kept.push(c.render());
            }
            _ => kept.push(c.render()),
        }
        if let Some(i) = line[search_from..].find(&c.name) {
            search_from += i + c.name.len();
        }
    }
    if taken.is_empty() {
        return None;
    }
    let mut out = format!("{{ {DECL}");
    for d in &depends {
        out.push_str(&format!(" _Pragma(\"omp taskwait depend({})\")", escape(d)));
    }
    if let Some(c) = &cond {
        out.push_str(&format!(" if ({c})"));
    }
    out.push_str(" {");
    for t in &taken {
        out.push(' ');
        out.push_str(&call(t, device.as_deref(), has_mappers));
    }
    out.push_str(" }");
    // The items clang handles, with the other clauses.
    let lists = kept
        .iter()
        .filter(|k| k.starts_with("to(") || k.starts_with("from("))
        .count();
    if lists > 0 {
        out.push_str(&format!(
            " _Pragma(\"omp target update {}\")",
            escape(&kept.join(" "))
        ));
    }
    out.push_str(" }");
    Some(out)
}

/// The call for one item: its descriptor and the runtime entry.
fn call(t: &Taken, device: Option<&str>, has_mappers: bool) -> String {
    let base = &t.section.base;
    let subs = &t.section.subscripts;
    let rank = subs.len();
    // `(base)[0]…[0]` with `k` subscripts.
    let zeros = |k: usize| format!("({base}){}", "[0]".repeat(k));
    let mut asserts = String::new();
    let mut counts = Vec::with_capacity(rank);
    let mut strides = Vec::with_capacity(rank);
    let mut first = format!("({base})");
    for (d, s) in subs.iter().enumerate() {
        // The unit of dimension d, and that dimension as an object (d subscripts).
        let unit = format!("(long long)sizeof({})", zeros(d + 1));
        let dim = zeros(d);
        let extent = format!("(long long)(sizeof({dim}) / sizeof({}))", zeros(d + 1));
        if d > 0 {
            asserts.push_str(&array_assert(
                &dim,
                &format!(
                    "ptxcc: a strided or multi-dimensional section in target update needs \
                     every dimension after the first to be an array, not a pointer: update \
                     each row of '{}' on its own",
                    t.text
                ),
            ));
        }
        match s {
            Subscript::Index(i) => {
                first.push_str(&format!("[({i})]"));
                counts.push("1".to_string());
                strides.push(unit);
            }
            Subscript::Section {
                lower,
                length,
                stride,
            } => {
                let lower = lower.as_deref().unwrap_or("0");
                first.push_str(&format!("[({lower})]"));
                let stride_e = stride.as_deref().unwrap_or("1");
                let count = match length {
                    Some(l) => format!("({l})"),
                    None => {
                        if d == 0 {
                            asserts.push_str(&array_assert(
                                &dim,
                                &format!(
                                    "ptxcc: the section '{}' of a pointer needs a length",
                                    t.text
                                ),
                            ));
                        }
                        // OpenMP: the length defaults to ceil((extent - lower) / stride).
                        format!("(({extent} - ({lower}) + ({stride_e}) - 1) / ({stride_e}))")
                    }
                };
                counts.push(count);
                strides.push(format!("({stride_e}) * {unit}"));
            }
        }
    }
    let elem = zeros(rank);
    if has_mappers {
        asserts.push_str(&format!(
            "_Static_assert(__builtin_classify_type({elem}) != 12 && \
             __builtin_classify_type({elem}) != 13, \"{}\"); ",
            escape(&format!(
                "ptxcc: '{}' is a strided or multi-dimensional section of structs and this file \
                 declares a mapper: ptxcc cannot apply a mapper to such a section; update it \
                 without a stride",
                t.text
            ))
        ));
    }
    format!(
        "{{ {asserts}long long __ptxcc_n[{rank}] = {{{}}}; long long __ptxcc_s[{rank}] = {{{}}}; \
         __ptxcc_target_update_strided(\"{}\", {}, \"{}\", &{first}, (long long)sizeof({elem}), \
         {rank}, __ptxcc_n, __ptxcc_s, {}); }}",
        counts.join(", "),
        strides.join(", "),
        escape(&t.loc.to_string()),
        device.map_or("-1".to_string(), |d| format!("({d})")),
        escape(&t.text),
        t.flags,
    )
}

/// `_Static_assert` that the expression `e` is an array, with `message`.
fn array_assert(e: &str, message: &str) -> String {
    format!(
        "_Static_assert(__builtin_types_compatible_p(__typeof__({e}), \
         __typeof__(({e})[0])[sizeof({e}) / sizeof(({e})[0])]), \"{}\"); ",
        escape(message)
    )
}

/// `s` inside a C string literal.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

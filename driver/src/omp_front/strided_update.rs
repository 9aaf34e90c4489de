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
//! * An item with a `mapper(…)` modifier, and any item whose element is a struct or union while
//!   the translation unit declares a mapper (a default mapper may apply to it; told apart at
//!   compile time by `__builtin_classify_type`), is updated element by element instead: a loop
//!   over the section's elements (in the order the descriptor lists them) runs clang's own
//!   `target update` of `base[i]…[j:1]` with the item's modifiers, so the mapper moves what it
//!   names for each element the stride selects (OpenMP 5.2 §5.8.8 `declare mapper`, §13.9).
//! * Refused with a located error: an `iterator(…)` modifier on such an item.
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
    /// `to` or `from`, and the modifiers as written (`mapper(id), present`; empty if none).
    motion: &'static str,
    modifiers: String,
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
                let (dir, motion) = if c.name == "to" {
                    (MAP_TO, "to")
                } else {
                    (MAP_FROM, "from")
                };
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
                            if modifiers.contains("iterator") {
                                errors.push(Diagnostic {
                                    loc: Some(loc),
                                    message: format!(
                                        "ptxcc does not support an 'iterator' modifier on the \
                                         strided or multi-dimensional section '{}' in 'target \
                                         update'; update the section without the modifier",
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
                                motion,
                                modifiers: modifiers.trim().to_string(),
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

/// The code for one item: the runtime entry with its descriptor, or the update of each element
/// where a mapper applies or may apply.
fn call(t: &Taken, device: Option<&str>, has_mappers: bool) -> String {
    let d = Descriptor::of(t);
    let elem = &d.elem;
    let by_descriptor = format!(
        "{{ {}long long __ptxcc_n[{rank}] = {{{}}}; long long __ptxcc_s[{rank}] = {{{}}}; \
         __ptxcc_target_update_strided(\"{}\", {}, \"{}\", &{}, (long long)sizeof({elem}), \
         {rank}, __ptxcc_n, __ptxcc_s, {}); }}",
        d.asserts,
        d.counts.join(", "),
        d.strides.join(", "),
        escape(&t.loc.to_string()),
        device.map_or("-1".to_string(), |d| format!("({d})")),
        escape(&t.text),
        d.first,
        t.flags,
        rank = d.counts.len(),
    );
    if t.modifiers.contains("mapper") {
        by_elements(t, &d, device)
    } else if has_mappers {
        // record_type_class and union_type_class of __builtin_classify_type.
        format!(
            "if (__builtin_classify_type({elem}) == 12 || __builtin_classify_type({elem}) == 13) \
             {} else {by_descriptor}",
            by_elements(t, &d, device)
        )
    } else {
        by_descriptor
    }
}

/// A section as the runtime's descriptor sees it, in C expressions.
struct Descriptor {
    /// `_Static_assert`s the section needs (arrays after the first dimension, a length).
    asserts: String,
    /// Per dimension: how many elements, and their distance in bytes.
    counts: Vec<String>,
    strides: Vec<String>,
    /// Per dimension: the first subscript and the step between the ones taken (None: an index).
    lowers: Vec<String>,
    steps: Vec<Option<String>>,
    /// The first element, and an element (`(base)[0]…[0]`).
    first: String,
    elem: String,
}

impl Descriptor {
    fn of(t: &Taken) -> Descriptor {
        let base = &t.section.base;
        let subs = &t.section.subscripts;
        let rank = subs.len();
        // `(base)[0]…[0]` with `k` subscripts.
        let zeros = |k: usize| format!("({base}){}", "[0]".repeat(k));
        let mut d = Descriptor {
            asserts: String::new(),
            counts: Vec::with_capacity(rank),
            strides: Vec::with_capacity(rank),
            lowers: Vec::with_capacity(rank),
            steps: Vec::with_capacity(rank),
            first: format!("({base})"),
            elem: zeros(rank),
        };
        for (k, s) in subs.iter().enumerate() {
            // The unit of dimension k, and that dimension as an object (k subscripts).
            let unit = format!("(long long)sizeof({})", zeros(k + 1));
            let dim = zeros(k);
            let extent = format!("(long long)(sizeof({dim}) / sizeof({}))", zeros(k + 1));
            if k > 0 {
                d.asserts.push_str(&array_assert(
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
                    d.first.push_str(&format!("[({i})]"));
                    d.counts.push("1".to_string());
                    d.strides.push(unit);
                    d.lowers.push(format!("({i})"));
                    d.steps.push(None);
                }
                Subscript::Section {
                    lower,
                    length,
                    stride,
                } => {
                    let lower = lower.as_deref().unwrap_or("0");
                    d.first.push_str(&format!("[({lower})]"));
                    let stride_e = stride.as_deref().unwrap_or("1");
                    let count = match length {
                        Some(l) => format!("({l})"),
                        None => {
                            if k == 0 {
                                d.asserts.push_str(&array_assert(
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
                    d.counts.push(count);
                    d.strides.push(format!("({stride_e}) * {unit}"));
                    d.lowers.push(format!("({lower})"));
                    d.steps.push(Some(format!("({stride_e})")));
                }
            }
        }
        d
    }
}

/// The section element by element: nested loops over its dimensions, each element updated by
/// clang's `target update` of a one-element section with the item's modifiers.
fn by_elements(t: &Taken, d: &Descriptor, device: Option<&str>) -> String {
    let rank = d.counts.len();
    let mut item = t.section.base.clone();
    let mut loops = String::new();
    for k in 0..rank {
        let index = match &d.steps[k] {
            Some(step) => {
                loops.push_str(&format!(
                    "for (long long __ptxcc_i{k} = 0; __ptxcc_i{k} < __ptxcc_n[{k}]; __ptxcc_i{k}++) "
                ));
                format!("{} + __ptxcc_i{k} * {step}", d.lowers[k])
            }
            None => d.lowers[k].clone(),
        };
        if k + 1 == rank {
            item.push_str(&format!("[{index} : 1]"));
        } else {
            item.push_str(&format!("[{index}]"));
        }
    }
    let mods = if t.modifiers.is_empty() {
        String::new()
    } else {
        format!("{}: ", t.modifiers)
    };
    let device = device.map_or(String::new(), |d| format!(" device({d})"));
    let pragma = format!("omp target update {}({mods}{item}){device}", t.motion);
    format!(
        "{{ {}long long __ptxcc_n[{rank}] = {{{}}}; {loops}{{ _Pragma(\"{}\") }} }}",
        d.asserts,
        d.counts.join(", "),
        escape(&pragma)
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

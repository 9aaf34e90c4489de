//! `defaultmap(present)` where it covers scalars or pointers (no category, `scalar`, `pointer`
//! or `all`) and the region uses such a variable that no clause of the construct names:
//!
//! ```c
//! #pragma omp target enter data map(to: s)
//! #pragma omp target defaultmap(present)
//! { use(s); s = 7; }
//! ```
//! Clang 19 maps such a scalar as present (the runtime finds its device copy and passes its
//! device address) but compiles the kernel to take the scalar by value: the region reads the
//! low bits of an address, a silently wrong answer. Until that can be repaired, the directive is
//! refused at the clause, naming the scalar, with the forms that work: the scalar mapped
//! explicitly (`map(present, tofrom: s)`) and the `aggregate` category. A pointer variable
//! (`defaultmap(present: pointer)`, or no category) is the same: clang maps the pointer as
//! present and passes the address of its device copy where the kernel takes the pointer's value
//! (the kernel writes through the wrong address), so it is refused too.
//!
//! A region that uses only arrays and structs (and scalars and pointers declared inside it,
//! named in the construct's clauses, or the associated loop's variable; pointers it assigns
//! before reading them) is left to clang: there
//! `defaultmap(present)` means what the aggregate category means, which clang compiles right. Which variables the region uses, and their types, come from libclang's tree
//! of the text (the OpenMP pragmas blanked), read only when such a clause appears; without it
//! (libclang missing, a region ptxcc cannot delimit) every such clause is refused.
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

use crate::layout_directive::block;
use crate::offload_parallel_for::directive::{self, Pragma};
use crate::openacc::cast::{self, Ast, DeclKind, TypeClass, NK};

/// What a variable is to `defaultmap`: the categories clang 19 passes to the kernel by value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ByValue {
    Scalar,
    Pointer,
}

/// The `defaultmap(present…)` clauses of `p` that cover scalars or pointers: (their arguments,
/// whether they cover scalars, whether they cover pointers).
fn by_value_present_clauses(p: &Pragma) -> Vec<(&str, bool, bool)> {
    if p.words.first().map(String::as_str) != Some("target") {
        return Vec::new();
    }
    p.clauses
        .iter()
        .filter(|c| c.name == "defaultmap")
        .filter_map(|c| c.args.as_deref())
        .filter_map(|args| {
            let (behaviour, category) = match args.split_once(':') {
                Some((b, c)) => (b.trim(), Some(c.trim())),
                None => (args.trim(), None),
            };
            if behaviour != "present" {
                return None;
            }
            match category {
                None | Some("all") => Some((args, true, true)),
                Some("scalar") => Some((args, true, false)),
                Some("pointer") => Some((args, false, true)),
                _ => None,
            }
        })
        .collect()
}

/// libclang's tree of the text, read when some pragma has a clause this check looks at.
pub struct RegionTypes {
    ast: Option<Ast>,
}

impl RegionTypes {
    pub fn new(text: &str, pragmas: &[Pragma]) -> RegionTypes {
        let at: Vec<usize> = pragmas
            .iter()
            .filter(|p| !by_value_present_clauses(p).is_empty())
            .map(|p| p.end)
            .collect();
        if at.is_empty() {
            return RegionTypes { ast: None };
        }
        let blank = directive::blank_for_libclang(text, pragmas);
        RegionTypes {
            ast: cast::parse(&blank, &at).ok(),
        }
    }

    /// The scalar and pointer variables declared outside the block of the construct `p` that the
    /// block uses and no clause of `p` names, each once, in order (None: not known).
    fn unnamed_by_value(&self, text: &str, p: &Pragma) -> Option<Vec<(String, ByValue)>> {
        let ast = self.ast.as_ref()?;
        let t = text.as_bytes();
        let start = p.end;
        let end = block::statement_end(t, start)?;
        let named: Vec<&str> = p
            .clauses
            .iter()
            .filter(|c| c.name != "defaultmap")
            .filter_map(|c| c.args.as_deref())
            .flat_map(|a| a.split(|c: char| !(c.is_alphanumeric() || c == '_')))
            .collect();
        // The associated loop's variable is private (a `for` right after the pragma).
        let loop_var = ast
            .nodes
            .iter()
            .find(|n| n.kind == NK::For && n.start >= start && n.start < end)
            .filter(|n| text[start..n.start].trim().is_empty())
            .and_then(|f| {
                ast.nodes
                    .iter()
                    .find(|n| n.kind == NK::DeclRef && n.start > f.start && n.start < f.end)
                    .and_then(|n| n.decl)
            });
        // A pointer the region assigns before anything reads it (`p = &a[0]; … p[i]`): the
        // value clang passes is never used.
        let assigned_first = |id: usize| {
            ast.nodes
                .iter()
                .filter(|n| n.kind == NK::DeclRef && n.decl == Some(id))
                .filter(|n| n.start >= start && n.start < end)
                .min_by_key(|n| n.start)
                .is_some_and(|n| {
                    let after = text[n.end.min(text.len())..].trim_start();
                    after.starts_with('=') && !after.starts_with("==")
                })
        };
        let mut out: Vec<(String, ByValue)> = Vec::new();
        for n in &ast.nodes {
            if n.kind != NK::DeclRef || n.start < start || n.start >= end {
                continue;
            }
            let Some(id) = n.decl else { continue };
            if Some(id) == loop_var {
                continue;
            }
            let d = ast.decl(id);
            let inside = d.loc != usize::MAX && d.loc >= start && d.loc < end;
            let kind = match d.ty {
                t if t.is_scalar() => ByValue::Scalar,
                TypeClass::Pointer { .. } if !assigned_first(id) => ByValue::Pointer,
                _ => continue,
            };
            if matches!(d.kind, DeclKind::Var | DeclKind::Param)
                && !inside
                && !named.contains(&d.name.as_str())
                && !out.iter().any(|(n, _)| *n == d.name)
            {
                out.push((d.name.clone(), kind));
            }
        }
        Some(out)
    }
}

/// The errors for one pragma line.
pub fn check(
    p: &Pragma,
    text: &str,
    types: &RegionTypes,
    loc_of: &dyn Fn(usize) -> SourceLoc,
) -> Vec<Diagnostic> {
    let clauses = by_value_present_clauses(p);
    if clauses.is_empty() {
        return Vec::new();
    }
    let used = types.unnamed_by_value(text, p);
    let line = &text[p.start..p.end];
    let rel = line[p.words_rel..]
        .find("defaultmap")
        .map_or(p.words_rel, |i| p.words_rel + i);
    let mut out = Vec::new();
    for (args, scalars, pointers) in clauses {
        let covered =
            |k: ByValue| (k == ByValue::Scalar && scalars) || (k == ByValue::Pointer && pointers);
        let (what, example) = match &used {
            Some(vars) => {
                let hit: Vec<&(String, ByValue)> =
                    vars.iter().filter(|(_, k)| covered(*k)).collect();
                let Some((first, first_kind)) = hit.first().map(|(n, k)| (n.clone(), *k)) else {
                    continue;
                };
                let names = hit
                    .iter()
                    .map(|(n, _)| format!("'{n}'"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let kinds = match (
                    hit.iter().any(|(_, k)| *k == ByValue::Scalar),
                    hit.iter().any(|(_, k)| *k == ByValue::Pointer),
                ) {
                    (true, true) => "scalar and pointer variables",
                    (true, false) if hit.len() > 1 => "scalar variables",
                    (true, false) => "scalar variable",
                    (false, _) if hit.len() > 1 => "pointers",
                    (false, _) => "pointer",
                };
                let example = match first_kind {
                    ByValue::Scalar => format!("map(present, tofrom: {first})"),
                    ByValue::Pointer => {
                        format!("map(present, alloc: {first}[0:n]) for what it points to")
                    }
                };
                (
                    format!("the {kinds} {names} that this region uses"),
                    example,
                )
            }
            None => (
                "scalar and pointer variables".to_string(),
                "map(present, tofrom: x)".to_string(),
            ),
        };
        out.push(Diagnostic {
            loc: Some(loc_of(rel)),
            message: format!(
                "ptxcc does not support 'defaultmap({})' for {what}: clang 19 passes scalars and \
                 pointers to the kernel by value, so the region would not use their device copies; \
                 map them explicitly ({example}) and write defaultmap(present: aggregate) for the \
                 rest",
                args.trim()
            ),
        });
    }
    out
}

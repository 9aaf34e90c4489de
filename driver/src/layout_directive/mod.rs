//! The array data-layout directive (issue 18; the `acc trans` extension of the data-layout
//! paper in ../shared/seeds/000_*.txt), on the preprocessed text:
//!
//! ```c
//! #pragma ptxcc trans transpose(a[0:I][0:J][0:K], [1,3,2])   // also `#pragma acc trans` (-fopenacc)
//! { ... data regions, compute constructs ... }
//! ```
//!
//! becomes, on the same lines (line numbers do not move):
//!
//! ```c
//! { extern void __ptxcc_layout_begin(…); extern void __ptxcc_layout_end(…); __ptxcc_layout_begin((const void *)(a), 0UL, "a;8,6,5;1,3,2;x.c:3:9", (const unsigned long *)0, (unsigned long *)0);
//! { ... } __ptxcc_layout_end((const void *)(a), "a;…"); }
//! ```
//!
//! The description (`ptxcc_passes::layout::desc::LayoutDesc`) carries the array's logical shape
//! (constant extents, macros expanded; `?` for a run-time extent) and the permutation (where
//! each dimension goes, 1-based). With run-time extents (`a[0:nx][0:ny][0:4]`), the 4th
//! argument is the array of every extent's value, computed once at the block's start:
//! `(const unsigned long[]){(unsigned long)(nx), (unsigned long)(ny), 4UL}`; the 5th, a null
//! pointer here, becomes the extents global of the layout-plan pass. The host IR keeps the two calls; the `layout` pass (passes/src/layout/) finds the
//! kernels launched between them, rewrites their address computations of `a` and writes the
//! element size into the first call (0 stays when no kernel uses `a`); libptxrt converts the
//! device copy at every transfer (ptx-runtime/src/layout/).
//!
//! Errors (`file:line:col: error:` naming the array): a malformed clause, a section that does not start at 0, a permutation that is
//! not one of 1..rank or whose length is not the rank, no statement after the pragma, a jump
//! out of the block (`return`, `goto`, `break`/`continue` of an outer loop: it would skip the
//! conversion back), a `trans` of an array inside another `trans` of the same array.
//! `soa(p[0:n])` takes a one-dimensional section of structs.
pub(crate) mod block;
mod parse;
#[cfg(test)]
mod tests;

use crate::openacc::srcmap::{self, SourceMap};
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};
use ptxcc_passes::layout::desc::{Extent, LayoutDesc};
use std::collections::HashMap;

/// The begin/end marker functions (libptxrt defines them).
pub const BEGIN: &str = "__ptxcc_layout_begin";
pub const END: &str = "__ptxcc_layout_end";

/// The translated text and the report lines for -fptxcc-info.
#[derive(Clone, Debug, Default)]
pub struct Translation {
    pub text: String,
    pub report: Vec<String>,
}

/// Does the (unpreprocessed) source mention a trans directive, as a `#pragma` line or as a
/// `_Pragma("ptxcc trans …")` operator (in a macro's body, say)? Then the preprocessing keeps
/// the `#define` lines (-dD), so that the macros inside the pragma can be expanded.
pub fn mentions_directive(source: &str) -> bool {
    source.lines().any(|l| {
        pragma_kind(l, true).is_some()
            || pragma_operators(l)
                .any(|text| pragma_kind(&format!("#pragma {text}"), true).is_some())
    })
}

/// The string of each `_Pragma("…")` operator on `line` (up to its closing quote).
fn pragma_operators(line: &str) -> impl Iterator<Item = &str> {
    line.match_indices("_Pragma").filter_map(|(at, op)| {
        let r = line[at + op.len()..].trim_start().strip_prefix('(')?;
        let r = r.trim_start().strip_prefix('"')?;
        Some(&r[..r.find('"').unwrap_or(r.len())])
    })
}

/// `Some(rest)` (the text after `trans`) when `line` is a trans pragma this invocation reads.
fn pragma_kind(line: &str, openacc: bool) -> Option<usize> {
    let t = line.trim_start();
    let lead = line.len() - t.len();
    let r = t.strip_prefix('#')?.trim_start();
    let r = r.strip_prefix("pragma")?;
    if !r.starts_with([' ', '\t']) {
        return None;
    }
    let r = r.trim_start();
    let r = if let Some(x) = r.strip_prefix("ptxcc") {
        x
    } else if openacc {
        r.strip_prefix("acc")?
    } else {
        return None;
    };
    if !r.starts_with([' ', '\t']) {
        return None;
    }
    let r = r.trim_start();
    let rest = r.strip_prefix("trans")?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t', '(', '{'])) {
        return None;
    }
    Some(line.len() - rest.len() - lead + lead)
}

struct Found {
    line: usize,
    /// Byte offset of the block's end in the text.
    block_end: usize,
    name: String,
}

/// Translates every trans pragma of `text` (preprocessed, of the user's `source`).
pub fn translate(text: &str, source: &str, openacc: bool) -> Result<Translation, Vec<Diagnostic>> {
    let map = SourceMap::new(text, source);
    let bytes = text.as_bytes();
    let mut macros: HashMap<String, srcmap::Macro> = HashMap::new();
    let mut diags = Vec::new();
    let mut found: Vec<Found> = Vec::new();
    // (line index, replacement) and (offset, insertion).
    let mut line_repl: Vec<(usize, String)> = Vec::new();
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let mut report = Vec::new();
    for (li, l) in map.lines.iter().enumerate() {
        let line = &text[l.start..l.end];
        if let Some((name, m)) = srcmap::parse_define(line) {
            match m {
                Some(m) => {
                    macros.insert(name, m);
                }
                None => {
                    macros.remove(&name);
                }
            }
            continue;
        }
        let Some(rest_at) = pragma_kind(line, openacc) else {
            continue;
        };
        let loc_at = |rel: usize| map.pragma_loc(text, li, rel);
        let raw = &line[rest_at..];
        let expanded = srcmap::expand_macros(raw, &macros);
        // Offsets in the expanded text map to the raw text only where nothing was expanded.
        let to_raw = |at: usize| {
            if expanded == raw {
                rest_at + at
            } else {
                rest_at
            }
        };
        let clause = match parse::parse(&expanded) {
            Ok(c) => c,
            Err(e) => {
                diags.push(Diagnostic {
                    loc: Some(loc_at(to_raw(e.at))),
                    message: format!("invalid trans directive: {}", e.message),
                });
                continue;
            }
        };
        let (name, name_at, dims, goes_to, soa): (
            String,
            usize,
            Vec<parse::Dim>,
            Vec<usize>,
            bool,
        ) = match clause {
            parse::Clause::Transpose {
                name,
                name_at,
                dims,
                goes_to,
                ..
            } => (name, name_at, dims, goes_to, false),
            parse::Clause::Soa { name, name_at, n } => (name, name_at, vec![n], Vec::new(), true),
        };
        let loc = loc_at(to_raw(name_at));
        let Some(block_end) = block::statement_end(bytes, l.end) else {
            diags.push(Diagnostic {
                loc: Some(loc),
                message: format!(
                    "the trans directive of '{name}' must be followed by a structured block"
                ),
            });
            continue;
        };
        if let Some((at, word)) = block::escaping_jump(bytes, l.end, block_end) {
            diags.push(Diagnostic {
                loc: Some(map.loc(at)),
                message: format!(
                    "'{word}' leaves the trans block of '{name}' (at {loc}) without passing its end, where the device \
                     copy goes back to its layout; restructure the block so that control leaves it at its end"
                ),
            });
            continue;
        }
        let pos = l.start;
        if let Some(outer) = found
            .iter()
            .find(|f| f.name == name && map.lines[f.line].end < pos && pos < f.block_end)
        {
            let outer_loc = map.pragma_loc(text, outer.line, 0);
            diags.push(Diagnostic {
                loc: Some(loc),
                message: format!(
                    "'{name}' is already laid out by the trans directive at {}:{}; nested trans directives of the same \
                     array are not supported",
                    outer_loc.file, outer_loc.line
                ),
            });
            continue;
        }
        let desc = LayoutDesc {
            name: name.clone(),
            dims: dims.iter().map(|d| d.extent).collect(),
            goes_to: goes_to.clone(),
            soa,
            auto: false,
            section: None,
            base_align: None,
            loc: loc.clone(),
        };
        report.push(report_line(&loc, &desc, &dims));
        let enc = c_string(&desc.encode());
        let extents = if desc.has_runtime_extents() {
            let values: Vec<String> = dims
                .iter()
                .map(|d| match d.extent {
                    Extent::Const(n) => format!("{n}UL"),
                    Extent::Runtime => format!("(unsigned long)({})", d.text),
                })
                .collect();
            format!("(const unsigned long[]){{{}}}", values.join(", "))
        } else {
            "(const unsigned long *)0".to_string()
        };
        line_repl.push((
            li,
            format!(
                "{{ extern void {BEGIN}(const void *, unsigned long, const char *, const unsigned long *, unsigned long *); \
                 extern void {END}(const void *, const char *); {BEGIN}((const void *)({name}), 0UL, {enc}, {extents}, \
                 (unsigned long *)0);"
            ),
        ));
        inserts.push((
            block_end,
            format!(" {END}((const void *)({name}), {enc}); }}"),
        ));
        found.push(Found {
            line: li,
            block_end,
            name,
        });
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    // Apply: line replacements and insertions, from the end backwards.
    let mut edits: Vec<(usize, usize, String)> = line_repl
        .into_iter()
        .map(|(li, s)| (map.lines[li].start, map.lines[li].end, s))
        .chain(inserts.into_iter().map(|(at, s)| (at, at, s)))
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse((e.0, e.1)));
    let mut out = text.to_string();
    for (s, e, r) in edits {
        out.replace_range(s..e, &r);
    }
    Ok(Translation { text: out, report })
}

/// `[nx][ny][4]`: the extents as written (constants evaluated).
fn shape_of(dims: &[&parse::Dim]) -> String {
    dims.iter().map(|d| format!("[{}]", d.text)).collect()
}

fn report_line(loc: &SourceLoc, d: &LayoutDesc, dims: &[parse::Dim]) -> String {
    let written: Vec<&parse::Dim> = dims.iter().collect();
    if d.soa {
        return format!(
            "{}:{}: trans: '{}'{} (structs) is laid out as one array per field on the device",
            loc.file,
            loc.line,
            d.name,
            shape_of(&written)
        );
    }
    let device: Vec<&parse::Dim> = d
        .order()
        .unwrap_or_default()
        .iter()
        .filter_map(|&o| dims.get(o))
        .collect();
    format!(
        "{}:{}: trans: '{}'{} is laid out as {} on the device{}",
        loc.file,
        loc.line,
        d.name,
        shape_of(&written),
        shape_of(&device),
        if d.has_runtime_extents() {
            " (extents evaluated at the start of the block)"
        } else {
            ""
        }
    )
}

/// A C string literal of `s`.
fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

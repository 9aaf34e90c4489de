//! OpenMP pragmas that ptxcc handles itself before clang compiles the text: where clang 19 would
//! compile a construct to something other than what the user wrote, or accept a construct whose
//! result is certainly not what the user meant. Runs on the final preprocessed text (after the
//! OpenACC front end and -fopenmp-offload-parallel-for), replacing pragma lines in place, so
//! line numbers do not move.
//!
//! * `strided_update`: `target update` items with a stride or several section subscripts are
//!   performed through libptxrt instead of clang's codegen, which drops the stride.
//! * `reduction_map`: a warning for a reduction variable that the same construct maps `from`
//!   only (its device copy is never initialised, and the reduction combines into it).
//! * `atomic_from_only`: a warning for an atomic update of a variable an enclosing construct
//!   maps `from` only (OpenACC `copyout`) and does not assign before it.
//! * `atomic_self_read`: a warning for an atomic `write` or `capture` that assigns a variable an
//!   expression reading it in a form OpenMP does not read atomically (`x = x > e ? x : e`).
//! * `nonrect_lastprivate`: a warning for `lastprivate` of a collapsed loop's variable whose
//!   lower bound reads an outer loop's (clang 19 computes its final value wrongly).
//! * `lastprivate_map`: a `lastprivate` variable of a combined `target` construct is mapped
//!   `tofrom`, as OpenMP says and clang 19 does not do.
//! * `defaultmap_present`: `defaultmap(present)` over the scalars a region uses is refused
//!   (clang 19 passes the scalar by value while mapping it as present: the region would read an
//!   address); over a region that uses only arrays, structs and pointers it is clang's.
//! * `omp52_spellings`: OpenMP 5.1/5.2 spellings clang 19 refuses (`declare target enter`, map
//!   clauses without a map type on `target enter/exit data`, `flush seq_cst`) in the form it
//!   accepts with the same meaning.
//! * `assume`: the `assume` directive, which clang 19 does not parse (`holds` becomes
//!   `__builtin_assume` before the block).
//! * `scope`: the `scope` construct, which clang 19 cannot compile, written out as the private
//!   copies, reductions and barrier it stands for.
//! * `parallel_masked_split`: `parallel masked` with a task reduction, which crashes clang 19,
//!   as the `parallel` and `masked` constructs it is defined as.
//! * `doacross`: OpenMP 5.2's `doacross` clause as 5.1's `depend(sink/source)`, and the depth
//!   of a doacross loop's parameterless `ordered` clause.
//! * `iterator_section`: an `iterator` modifier of map/to/from over `base[it]` (which clang 19
//!   does not parse there) as the array section it names.
//! * `interop`: the `interop` construct is refused at the directive (libptxrt has none of the
//!   foreign runtime objects it asks for).
//! * `mapper_items`: map and motion items over multi-dimensional arrays of structs that a
//!   mapper applies to, which clang 19 maps without the mapper in most spellings, are written
//!   the way it maps them right, or refused where there is none (runs first, on the whole text).
//! * `dispatch`: the `dispatch` construct, which clang 19 cannot compile: the call of a function
//!   with a `construct={dispatch}` variant becomes the variant's (arguments adjusted), under
//!   the construct's device, dependences, novariants and nocontext.
mod assume;
mod atomic_from_only;
mod atomic_self_read;
mod defaultmap_present;
mod dispatch;
mod doacross;
mod interop;
mod iterator_section;
mod lastprivate_map;
mod mapper_items;
mod nonrect_lastprivate;
mod omp52_spellings;
mod parallel_masked_split;
mod reduction_map;
mod scope;
mod section;
mod strided_update;

pub use omp52_spellings::OmpVersion;

use ptxcc_passes::diagnostics::Diagnostic;

use crate::offload_parallel_for::directive;
use crate::openacc::srcmap::SourceMap;

/// The text clang compiles, and the warnings to print (unless -w).
#[derive(Debug, Default)]
pub struct Output {
    pub text: String,
    pub warnings: Vec<String>,
}

/// Applies the rewrites and checks of this module to `text` (preprocessed, with line markers;
/// `file` names it where there are none), for clang in OpenMP `version`. Errors are the user's,
/// located.
pub fn run(text: &str, file: &str, version: OmpVersion) -> Result<Output, Vec<Diagnostic>> {
    if !text.contains("mapper") {
        return rewrite(text, file, version);
    }
    let sm = SourceMap::new(text, file);
    let lines: Vec<(usize, usize)> = sm.lines.iter().map(|l| (l.start, l.end)).collect();
    let pragmas = directive::scan(text, &lines);
    let checked = mapper_items::check(text, &pragmas, &|p, rel| sm.pragma_loc(text, p.line, rel))?;
    let mut out = match &checked.text {
        Some(new) => rewrite(new, file, version)?,
        None => rewrite_scanned(text, &sm, &pragmas, version)?,
    };
    out.warnings.splice(0..0, checked.warnings);
    Ok(out)
}

/// [`run`] after the mapper items: the per-pragma rewrites and checks.
fn rewrite(text: &str, file: &str, version: OmpVersion) -> Result<Output, Vec<Diagnostic>> {
    let quick = [
        "target update",
        "reduction",
        "atomic",
        "lastprivate",
        "defaultmap",
        "enter",
        "exit data",
        "seq_cst",
        "assume",
        "scope",
        "dispatch",
        "doacross",
        "iterator",
        "interop",
        "uses_allocators",
    ]
    .iter()
    .any(|w| text.contains(w));
    if !quick {
        return Ok(Output {
            text: text.to_string(),
            warnings: Vec::new(),
        });
    }
    let sm = SourceMap::new(text, file);
    let lines: Vec<(usize, usize)> = sm.lines.iter().map(|l| (l.start, l.end)).collect();
    let pragmas = directive::scan(text, &lines);
    rewrite_scanned(text, &sm, &pragmas, version)
}

/// [`rewrite`] on the text's source map and pragmas.
fn rewrite_scanned(
    text: &str,
    sm: &SourceMap,
    pragmas: &[directive::Pragma],
    version: OmpVersion,
) -> Result<Output, Vec<Diagnostic>> {
    let has_mappers = pragmas.iter().any(|p| p.words == ["declare", "mapper"]);
    let region_types = defaultmap_present::RegionTypes::new(text, pragmas);
    let dispatch_variants = dispatch::collect(text, pragmas);
    let doacross_loops = doacross::loops_to_number(text, pragmas);
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    // (offset, end, text, order): replace text[offset..end]; insertions at one offset go in
    // `order` (an inner construct's closing text before an outer one's).
    let mut edits: Vec<(usize, usize, String, usize)> = Vec::new();
    for (i, p) in pragmas.iter().enumerate() {
        let line = &text[p.start..p.end];
        let loc_of = |rel: usize| sm.pragma_loc(text, p.line, rel);
        warnings.extend(reduction_map::check(p, line, &loc_of));
        warnings.extend(atomic_from_only::check(
            p,
            text,
            pragmas,
            &|q: &directive::Pragma| sm.pragma_loc(text, q.line, q.words_rel).to_string(),
        ));
        warnings.extend(atomic_self_read::check(
            p,
            text,
            &|q: &directive::Pragma| sm.pragma_loc(text, q.line, q.words_rel).to_string(),
        ));
        warnings.extend(nonrect_lastprivate::check(
            p,
            text,
            &|q: &directive::Pragma| sm.pragma_loc(text, q.line, q.words_rel).to_string(),
        ));
        errors.extend(defaultmap_present::check(p, text, &region_types, &loc_of));
        errors.extend(interop::check(p, &loc_of));
        if let Some(s) = scope::rewrite(p, text, &loc_of, &mut errors) {
            edits.push((p.start, p.end, s.head, 0));
            edits.push((s.end, s.end, s.tail, usize::MAX - p.start));
            continue;
        }
        if let Some(d) = dispatch::rewrite(p, text, &dispatch_variants, &loc_of, &mut errors) {
            edits.push((p.start, p.end, d.head, 0));
            edits.push((d.end, d.end, d.tail, usize::MAX - p.start));
            continue;
        }
        let new = strided_update::rewrite(p, line, &loc_of, has_mappers, &mut errors)
            .or_else(|| iterator_section::rewrite(p, line, &loc_of, &mut errors))
            .or_else(|| lastprivate_map::rewrite(p, line))
            .or_else(|| omp52_spellings::rewrite(p, line, version))
            .or_else(|| parallel_masked_split::rewrite(p, line))
            .or_else(|| assume::rewrite(p, line, &loc_of, &mut errors))
            .or_else(|| doacross::rewrite(p, line, version, &loc_of, &mut errors))
            .or_else(|| {
                let (_, depth) = doacross_loops.iter().find(|(k, _)| *k == i)?;
                Some(doacross::numbered_loop(p, line, depth))
            });
        if let Some(new) = new {
            edits.push((p.start, p.end, new, 0));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    edits.sort_by_key(|e| (e.0, e.3));
    Ok(Output {
        text: apply_edits(text, edits.into_iter().map(|(s, e, new, _)| (s, e, new))),
        warnings,
    })
}

/// `text` with each `(start, end, new)` of `edits` (in order, not overlapping) replacing
/// `text[start..end]`.
fn apply_edits(text: &str, edits: impl IntoIterator<Item = (usize, usize, String)>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (start, end, new) in edits {
        out.push_str(&text[copied..start]);
        out.push_str(&new);
        copied = end;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests;

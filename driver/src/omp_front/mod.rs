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
//! * `lastprivate_map`: a `lastprivate` variable of a combined `target` construct is mapped
//!   `tofrom`, as OpenMP says and clang 19 does not do.
//! * `defaultmap_present`: `defaultmap(present)` over the scalars a region uses is refused
//!   (clang 19 passes the scalar by value while mapping it as present: the region would read an
//!   address); over a region that uses only arrays, structs and pointers it is clang's.
mod atomic_from_only;
mod defaultmap_present;
mod lastprivate_map;
mod reduction_map;
mod section;
mod strided_update;

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
/// `file` names it where there are none). Errors are the user's, located.
pub fn run(text: &str, file: &str) -> Result<Output, Vec<Diagnostic>> {
    let quick = text.contains("target update")
        || text.contains("reduction")
        || text.contains("atomic")
        || text.contains("lastprivate")
        || text.contains("defaultmap");
    if !quick {
        return Ok(Output {
            text: text.to_string(),
            warnings: Vec::new(),
        });
    }
    let sm = SourceMap::new(text, file);
    let lines: Vec<(usize, usize)> = sm.lines.iter().map(|l| (l.start, l.end)).collect();
    let pragmas = directive::scan(text, &lines);
    let has_mappers = pragmas.iter().any(|p| p.words == ["declare", "mapper"]);
    let region_types = defaultmap_present::RegionTypes::new(text, &pragmas);
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for p in &pragmas {
        let line = &text[p.start..p.end];
        let loc_of = |rel: usize| sm.pragma_loc(text, p.line, rel);
        warnings.extend(reduction_map::check(p, line, &loc_of));
        warnings.extend(atomic_from_only::check(
            p,
            text,
            &pragmas,
            &|q: &directive::Pragma| sm.pragma_loc(text, q.line, q.words_rel).to_string(),
        ));
        errors.extend(defaultmap_present::check(p, text, &region_types, &loc_of));
        let new = strided_update::rewrite(p, line, &loc_of, has_mappers, &mut errors)
            .or_else(|| lastprivate_map::rewrite(p, line));
        if let Some(new) = new {
            out.push_str(&text[copied..p.start]);
            out.push_str(&new);
            copied = p.end;
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    out.push_str(&text[copied..]);
    Ok(Output {
        text: out,
        warnings,
    })
}

#[cfg(test)]
mod tests;

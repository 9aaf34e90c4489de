//! `-fopenmp-offload-parallel-for`: every `#pragma omp parallel for [simd]` loop of the host code
//! becomes `#pragma omp target teams distribute parallel for [simd]` with the same clauses, so
//! that unmodified OpenMP programs run their parallel loops on the GPU (how the OpenMP→CUDA
//! research system of DESIGN.md ran them). It runs on the preprocessed text, after the OpenACC
//! front end when both are on, and replaces each converted pragma line in place: line numbers
//! do not move.
//!
//! * Which loops: not those already in device code — inside a `target` construct, in a
//!   `declare target` function, or in a function a target region or such a function calls
//!   (transitively); those stay as written and are not reported.
//! * Data: OpenMP's implicit rules do the rest. Arrays of visible size and globals the loop
//!   names are mapped tofrom, scalars are firstprivate, reduction variables tofrom; pointers are
//!   passed as zero-length array sections: data already present (an enclosing `target data`, a
//!   `target enter data`, a caller's data region) is used as it is, and a pointer whose data is
//!   not present is mapped at each launch by the loop's access ranges (the bytes the whole loop
//!   reads and writes, from the `access-ranges` pass; ptx-runtime `split/access_maps.rs`), so
//!   the converted directives are listed in [`Translation::offloaded`] for the passes. The
//!   report names the pointers no lexically enclosing `target data` (or `target enter data`
//!   earlier in the same function, anywhere for a global) maps.
//!   Scalars the loop writes and that are shared (no data-sharing clause, not a loop variable)
//!   get `map(tofrom: …)`: as firstprivate the host would never see the write.
//! * Clauses: kept (private, firstprivate, shared, reduction, collapse, schedule(static…),
//!   default, order, and the simd clauses); `num_threads(n)` → `thread_limit(n)`; `if(c)` and
//!   `if(parallel: c)` → `if(target: c)` (false: the loop runs on the host); `proc_bind` dropped.
//! * Loops stay on the host, with a remark, when a quick syntactic check finds what ptxcc cannot
//!   offload: a non-static schedule, `lastprivate`, `ordered`, `copyin`, `linear` without simd,
//!   `allocate`, inscan/task/user-defined reductions; an OpenMP directive inside other than
//!   `atomic` and `simd`; a call to a function not defined in the translation unit (libclc's math
//!   and compiler builtins excepted), through a pointer, or to an `omp_*` routine; a function it
//!   calls that does any of that or uses a global that is not `declare target` (only the globals
//!   the loop names itself are mapped); a threadprivate variable; a loop nested in another
//!   OpenMP construct (other than `target data`).
//!
//! The report (`-fopenmp-offload-parallel-for=report` or `-fptxcc-info`) has one line per loop:
//! `x.c:12: parallel for offloaded: target teams distribute parallel for` or
//! `x.c:20: parallel for stays on the host: it calls 'log_step', which is not defined in this
//! translation unit`.
mod analysis;
pub mod directive;
#[cfg(test)]
mod tests;

use std::path::Path;

use ptxcc_passes::diagnostics::Diagnostic;

/// The translated text and what the translation says about it.
#[derive(Clone, Debug, Default)]
pub struct Translation {
    /// The preprocessed text with the converted pragma lines replaced (same lines).
    pub text: String,
    /// What the translation says, in source order.
    pub messages: Vec<Message>,
    /// The directives it offloaded, as clang's location strings will name them: their pointers
    /// without an extent are mapped by the kernels' access ranges (the passes' `access_maps`
    /// hints).
    pub offloaded: Vec<ptxcc_passes::driver_hints::SourceLine>,
}

/// One line for standard error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// A report line, one per `parallel for` of host code: `x.c:12: parallel for offloaded: …`,
    /// printed when the report is asked for.
    Report(String),
    /// A warning (unmapped pointer) or remark (loop left on the host), formatted as clang's
    /// (`x.c:14:5: warning: …`), printed unless -w.
    Diagnostic(String),
}

#[cfg(test)]
impl Translation {
    pub fn report(&self) -> Vec<&str> {
        self.messages
            .iter()
            .filter_map(|m| {
                if let Message::Report(s) = m {
                    Some(s.as_str())
                } else {
                    None
                }
            })
            .collect()
    }

    pub fn diagnostics(&self) -> Vec<&str> {
        self.messages
            .iter()
            .filter_map(|m| {
                if let Message::Diagnostic(s) = m {
                    Some(s.as_str())
                } else {
                    None
                }
            })
            .collect()
    }
}

/// Translates the `parallel for` loops of `preprocessed`; `file` names the translation unit when
/// the text has no line markers.
pub fn translate(preprocessed: &str, file: &Path) -> Result<Translation, Vec<Diagnostic>> {
    let name = file.to_string_lossy().into_owned();
    crate::error::front_end_guard("-fopenmp-offload-parallel-for", || {
        analysis::translate(preprocessed, &name)
    })
}

//! The OpenACC front end: translates the `#pragma acc` directives of a preprocessed
//! translation unit into OpenMP offload directives (DESIGN.md, "OpenACC → OpenMP").
//!
//! * `parser` turns one pragma line into a typed [`ast::Directive`], checking each clause
//!   against the OpenACC 3.3 tables and resolving `device_type` groups for nvidia.
//! * `srcmap` maps preprocessed lines back to the user's file:line (line markers) and expands
//!   macros used inside pragmas when the preprocessor kept them (`-dD`).
//! * `cast` reads statement extents, references and types with libclang (clang-sys, loaded at
//!   run time); `analysis` answers questions on that tree (dependence test, loop shape).
//! * `emit` writes the OpenMP, keeping the user's line numbers with line markers.
//!
//! Choices worth knowing (see also the report of each translation, `Translation::info`):
//! * `async(q)` becomes `nowait depend(inout: __ptxcc_acc_queue[q % 64])`, so the work of one
//!   queue runs in order; `wait(q)` becomes `taskwait depend(inout: …)`, `wait` a `taskwait`.
//!   Queues that share a slot (q ≡ q' mod 64) are serialised together, which is correct.
//! * vector maps to threads (`parallel for`) unless a worker level exists, then to `simd`.
//! * `no_create` maps as `alloc`; `cache` is a no-op; the `if` clause of `atomic` is dropped
//!   (atomic execution is always a correct one).
#![allow(dead_code)]

pub mod analysis;
pub mod ast;
pub mod cast;
mod emit;
pub mod parser;
pub mod srcmap;
#[cfg(test)]
mod tests;

use std::fmt;
use std::path::Path;

use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

/// What a line of the `-fptxcc-info` report is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoKind {
    /// How a loop was mapped to the GPU, or why it was not parallelised.
    Loop,
    /// A reduction and how it is combined.
    Reduction,
    /// Data movement of a data clause.
    Data,
    /// A function compiled for the device (`routine`).
    Routine,
}

/// One line of the `-fptxcc-info` report, printed as `file:line: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub loc: SourceLoc,
    pub kind: InfoKind,
    pub message: String,
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.loc.file, self.loc.line, self.message)
    }
}

/// The translated translation unit and what the translation decided.
#[derive(Clone, Debug, Default)]
pub struct Translation {
    /// The preprocessed text with OpenACC replaced by OpenMP; same line numbering via line markers.
    pub text: String,
    /// Per-loop, reduction, data and routine decisions, in source order.
    pub info: Vec<Info>,
}

impl Translation {
    /// The `-fptxcc-info` lines (`saxpy.c:12: loop parallelized: gang(blockIdx.x) vector(threadIdx.x, 128)`).
    pub fn report(&self) -> Vec<String> {
        self.info.iter().map(|i| i.to_string()).collect()
    }
}

/// Translates the OpenACC directives of `preprocessed` (the output of `clang -E -fopenmp
/// -D_OPENACC=201811`, ideally with `-dD` so that macros inside pragmas can be expanded) into
/// OpenMP. `file` names the translation unit when the text has no line markers.
pub fn translate(preprocessed: &str, file: &Path) -> Result<String, Vec<Diagnostic>> {
    translate_full(preprocessed, file).map(|t| t.text)
}

/// Like [`translate`], with the per-loop report the driver prints for `-fptxcc-info`.
pub fn translate_full(preprocessed: &str, file: &Path) -> Result<Translation, Vec<Diagnostic>> {
    let name = file.to_string_lossy().into_owned();
    // The front end must never take the driver down: a bug becomes a diagnostic.
    match std::panic::catch_unwind(|| emit::translate(preprocessed, &name)) {
        Ok(r) => r,
        Err(p) => {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown".into());
            Err(vec![Diagnostic { loc: None, message: format!("internal error in the OpenACC front end: {what}") }])
        }
    }
}

/// The `-fptxcc-info` lines of a translation.
pub fn loop_report(t: &Translation) -> Vec<String> {
    t.report()
}

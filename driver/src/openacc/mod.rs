//! The OpenACC front end: translates the `#pragma acc` directives of a preprocessed
//! translation unit into OpenMP offload directives (DESIGN.md, "OpenACC → OpenMP").
//!
//! * `parser` turns one pragma line into a typed [`ast::Directive`], checking each clause
//!   against the OpenACC 3.3 tables and resolving `device_type` groups for nvidia.
//! * `srcmap` maps preprocessed lines back to the user's file:line (line markers) and expands
//!   macros used inside pragmas when the preprocessor kept them (`-dD`).
//! * `cast` reads statement extents, references and types with libclang (clang-sys, loaded at
//!   run time); `analysis` answers questions on that tree (dependence test, loop shape). A file
//!   with `#pragma acc` gets the whole tree or an error (libclang missing, crashed, timed out —
//!   PTXCC_LIBCLANG_TIMEOUT —, errors in the program, a partial tree): the front end never
//!   translates from part of a tree. A file without one is not read by libclang at all.
//! * `emit` writes the OpenMP, keeping the user's line numbers with line markers.
//!
//! Choices worth knowing (the per-construct decisions are in `Translation::info`):
//! * Mapping: parallel → `target teams` (one team when the region has no gang loop and no
//!   num_gangs), serial → `target`, gang → `distribute`, worker/vector → `parallel for` (threads),
//!   vector under a worker level → `simd`; num_gangs → num_teams, vector_length (or num_workers
//!   when workers are used) → thread_limit; `tile(a,b)` → `collapse(2)`; loops with no level get
//!   gang+vector at the top of a region and vector below a gang loop; `auto` loops and kernels
//!   loops are parallel when the dependence test (analysis.rs) proves it.
//! * kernels: a `target data` for the region's clauses (and the visible-size arrays and written
//!   scalars it uses), then one `target teams distribute parallel for` per parallel loop nest,
//!   one single-thread `target` per sequential nest or run of other statements; a sequential loop
//!   whose body is only loop nests stays on the host and launches its inner kernels.
//! * `async(q)` becomes `nowait depend(inout: __ptxcc_acc_queue[q % 64])`, so the work of one
//!   queue runs in order; `wait(q)` becomes `taskwait depend(inout: …)`, `wait` a `taskwait`;
//!   queues that share a slot are serialised together, which is correct. The runtime's
//!   `acc_wait*` and `acc_async_test*` first wait for those tasks themselves (libomp's taskwait),
//!   so calls from any code are right and user code is left alone. A bare `async` takes the
//!   runtime's `acc_get_default_async()` (set by `acc_set_default_async` or `set default_async`,
//!   which calls it). async on data and kernels regions runs synchronously.
//! * Reference counters: the data clauses of `data`, compute constructs and kernels regions map
//!   with `ompx_hold` (libomptarget's hold count = OpenACC's structured reference counter, as
//!   Clacc does; clang's -fopenmp-extensions is on by default), so `exit data`, `acc_copyout`,
//!   `acc_delete` inside the region only lower the dynamic count and the data stays until the
//!   region ends. enter/exit data and the `acc_*` routines use the dynamic count. A `declare`
//!   in a function is an enter/exit data pair (clang allows no ompx_hold there), so dynamic.
//!   `finalize` makes `delete` a `map(delete:)`; `copyout` with finalize first calls the runtime's
//!   `__ptxrt_acc_finalize` (dynamic count down to one) so the exit data's `from` ends it.
//! * `no_create` maps as `alloc`; `present(p)`/`no_create(p)` of a pointer and default(present)
//!   on an indexed pointer check the pointed-to data (`p[0:0]`); `zero:` zeroes only the device
//!   copies its clause creates; `declare link` maps through data clauses (no declare target
//!   link in ptxcc); `routine nohost` and `bind` are dropped (device code is made from the host
//!   version); `cache` is a no-op; `atomic`'s `if` is dropped (atomic is always correct);
//!   init/shutdown/set call the OpenACC runtime (prototypes added when openacc.h is missing).
//! * Macros inside pragmas are expanded from the `#define` lines `-dD` keeps; those lines are
//!   blanked. Every inserted line is followed by a line marker, so line numbers stay the user's.
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

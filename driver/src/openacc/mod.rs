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
//! * `translate` writes the OpenMP, keeping the user's line numbers with line markers; its
//!   phases (scan, regions, plan, sharing, lower per directive family, check, report,
//!   rewrite) are modules under `translate/` (its mod.rs lists them in order).
//! * `diagmap` says where clang's diagnostics on the generated text are in the user's pragma
//!   (columns, which line markers cannot keep); the driver rewrites them (diag_relay.rs).
//!
//! Choices worth knowing (the per-construct decisions are in `Translation::info`):
//! * Mapping: parallel → `target teams` (one team when the region has no gang loop and no
//!   num_gangs), serial → `target`, gang → `distribute`, worker/vector → `parallel for` (threads),
//!   vector under a worker level → a nested `parallel for num_threads(vector length)` on the
//!   lanes of the worker's warp (`simd`, sequential, where that cannot be expressed);
//!   num_gangs → num_teams, vector_length (or num_workers when workers are used, num_workers * 32
//!   when vector loops run on their lanes) → thread_limit; `tile(a,b)` → `collapse(2)`; loops with no level get
//!   gang+vector at the top of a region and vector below a gang loop; `auto` loops and kernels
//!   loops are parallel when the dependence test (analysis.rs) proves it.
//! * Multi-dimensional gangs: `num_gangs(a, b, c)` → `num_teams(a*b*c)` (every gang of every
//!   dimension is a team). A `gang(dim:d)` loop is distributed over them; `gang(dim:e<d)` loops
//!   tightly nested in it (nothing else in its body, bounds not using the outer variables, no
//!   other level) join its `distribute` as `collapse(n)`, so every dimension is spread over the
//!   gangs; one that is not tightly nested runs in the gang of the enclosing iteration. Errors:
//!   `dim` not the constant 1, 2 or 3, `gang(dim:e)` inside `gang(dim:d)` with e >= d,
//!   `num_gangs` with several arguments on kernels, `gang(dim:d>1)` in a kernels region.
//! * kernels: a `target data` for the region's clauses (and the visible-size arrays and written
//!   scalars it uses), then one `target teams distribute parallel for` per parallel loop nest
//!   (the levels written on its loops honoured as in a parallel region, the region's
//!   num_gangs / num_workers / vector_length sizing each kernel; perfectly nested loops with no
//!   written inner level collapse),
//!   one single-thread `target` per sequential nest or run of other statements; a sequential loop
//!   whose body is only loop nests stays on the host and launches its inner kernels.
//! * `async(q)` becomes `nowait depend(inout: __ptxcc_acc_queue[q % 64])`, so the work of one
//!   queue runs in order (compute constructs, `enter data`, `exit data`, `update`); a `wait(w)`
//!   clause adds `depend(in: …w…)` (without async: a `taskwait depend` first); queues that share
//!   a slot are serialised together, which is correct. A bare `async` takes the runtime's
//!   `acc_get_default_async()` (set by `acc_set_default_async` or `set default_async`, which
//!   calls it). `kernels async(q)`: each kernel of the region is a target task on q, in order,
//!   and the region's data moves on q as well, as a `target enter data` / `target exit data` pair
//!   (dynamic counts: the region holds no host code that could release the data in between)
//!   around them. `data async(q)` keeps `target data` (OpenMP has no nowait there): its entry
//!   comes after q's earlier work and its exit after the region's work on q (`taskwait depend`
//!   on q's slot before the region and at the end of its body), so the host waits at both ends.
//!   `enter data` with a `zero:` modifier and async maps synchronously after q's earlier work
//!   (its zeroing kernels need the data). A `data` region (without async) whose body holds
//!   async directives ends with a `taskwait`: the work they queued may not have started, and
//!   the region's data must stay until it has run.
//! * The `wait` directive: `wait(q)` → `taskwait depend(inout: …q…)` (q's async constructs) and
//!   `__ptxrt_acc_wait_queue(q)` (what the `acc_*_async` routines put on q's device queue);
//!   `wait` → `taskwait` and `__ptxrt_acc_wait_all_queues()`; `wait(q) async(r)` → an empty task
//!   ordered after q and before r's next work, and `__ptxrt_acc_wait_queue_async(q, r)`; `wait
//!   async(r)` → `taskwait` (the host waits for every async construct) and
//!   `__ptxrt_acc_wait_all_queues_async(r)`. The runtime's `acc_wait*` and `acc_async_test*`
//!   first wait for the async constructs themselves (libomp's taskwait), and its `acc_*_async`
//!   routines first wait for the async constructs of their own queue (`taskwait depend` on its
//!   slot), so calls from any code are right and user code is left alone.
//! * Reference counters: the data clauses of `data`, compute constructs and kernels regions map
//!   with `ompx_hold` (libomptarget's hold count = OpenACC's structured reference counter, as
//!   Clacc does; clang's -fopenmp-extensions is on by default), so `exit data`, `acc_copyout`,
//!   `acc_delete` inside the region only lower the dynamic count and the data stays until the
//!   region ends. enter/exit data and the `acc_*` routines use the dynamic count. A `declare`
//!   in a function is an enter/exit data pair (clang allows no ompx_hold there), so dynamic;
//!   the exit also comes before each return (after its value is computed) and each break or
//!   continue that leaves the scope (lower/declare.rs).
//!   `finalize` makes `delete` a `map(delete:)`; `copyout` with finalize first calls the runtime's
//!   `__ptxrt_acc_finalize` (dynamic count down to one) so the exit data's `from` ends it.
//! * `no_create(x[lo:len])` → `map(ompx_hold, alloc: x[lo:__ptxrt_acc_no_create_len(&x[lo],
//!   bytes, len)])`: the runtime answers `len` when the data is present (used and held like
//!   `present`) and 0 when not, and a zero-length section that is not mapped allocates and copies
//!   nothing and keeps the host address (OpenMP 5.1), which the region then uses. A whole array
//!   is `a[0:…]`, an element `a[i:1]`, `a[lo:]` of a known-size array its rest, a pointer `p` the
//!   data it points to (`p[0:0]`); a kernels region's kernels map the same sections. A scalar,
//!   struct or member without subscript has no section form: when absent the region works on a
//!   copy of the host value (`tofrom`; `-fptxcc-info` says so).
//! * Sections through arrays of pointers (`a[0:n][0:m]` with `double **a` or `double *a[N]`,
//!   or a struct member of such a type, `s->rows[0:n][0:m]`; translate/jagged.rs): clang's OpenMP
//!   refuses them (not contiguous). The pointer array is entered (`alloc`), then each row in a
//!   loop, which libomptarget's pointer attachment points the device's row pointer at; they
//!   exit rows first, and the pointer array is never copied back. On structured constructs
//!   that happens in enter/exit data lines around the construct (its if and queue), which
//!   holds the pointer array as `present`, a struct the construct maps whole entered first;
//!   `update` moves the rows. The levels come from libclang (`DeclInfo::levels`, `fields`).
//!   `no_create`, `deviceptr`, `attach`, `zero:` on them are errors.
//! * `copy(p)` (copyin, copyout, create) of a pointer without a section moves the pointer's
//!   value (OpenACC 3.3, 2.7.1), so the device would follow a host address: a warning
//!   (`Translation::warnings`, printed unless -w) says to give the data's extent.
//! * `present(p)` of a pointer and default(present) on an indexed pointer check the pointed-to
//!   data (`p[0:0]`); `zero:` zeroes only the device copies its clause creates.
//! * `declare link(x)`: x is an ordinary global (a comment replaces the directive, at file scope
//!   and in a function), so it has device memory only where a data clause maps it and compute
//!   constructs use that copy (scalars too: a global scalar listed on an enclosing data construct
//!   or written in a kernels region is mapped `tofrom`, not firstprivate). ptxcc has no
//!   device-side link pointer: a device function (a `routine`, or a function that a compute
//!   construct or device function calls) that uses x is an error at the use.
//! * `update self/device(x)` → `target update from/to(present: x)`: data that is not present is
//!   an error (OpenACC 3.3, 2.14.4), which OpenMP would skip silently; `if_present` drops the
//!   modifier.
//! * `update` of a `static` global that a file-scope `declare` puts on the device calls
//!   `acc_update_self`/`acc_update_device` (clang refuses `target update` of a declare target
//!   variable with internal linkage; device extraction registers such globals with the runtime);
//!   with `async(q)` it waits for q's earlier work and is synchronous.
//! * A combined `parallel loop` with worker/vector but no gang level is `target teams
//!   num_teams(1)` (or num_gangs: gang-redundant) followed by the loop's own `parallel for`.
//!   A loop level inside a loop of the same or an inner level is an error (gang in gang is let
//!   through in kernels regions, as PGI-style code writes it), as are `collapse`/`tile` over
//!   loops that are not tightly nested (without `force:`).
//! * `private(c[lo:len])` / `firstprivate(…)` of a pointer: copies in a device block the host
//!   allocates around the compute construct, one per gang (construct, gang loop) or per thread
//!   (worker/vector loop); each body declares its own `c` pointing at its copy
//!   (lower/private_sections.rs). A section of an array variable privatises the array.
//! * A reduction of an inner loop on a variable private to an enclosing loop (or to the
//!   construct) combines into that private copy and is not hoisted (NPB CG's per-gang sum).
//! * `update` with several sections of one array: one `target update` per round of sections.
//! * `collapse(force:n)`: OpenMP's collapse with intervening code; a level without exactly one
//!   loop, or inner bounds that read what the intervening code sets, is an error (check.rs).
//! * Scalars a parallel loop writes before reading them in every iteration are private (found
//!   whatever the dependence test says about arrays); in kernels regions they are lastprivate,
//!   since a kernels scalar is `copy` and keeps the sequential value.
//! * Orphaned loops (in functions) run sequentially in the thread that calls them, except the
//!   gang loop of a `routine gang` function: every gang that calls the routine runs it, so the
//!   loop deals its iterations to them (team t runs those whose count is t modulo the number of
//!   teams; OpenMP has no orphaned `distribute`). A reduction on it is an error.
//! * `routine nohost` and `bind` are dropped (device code is made from the host version);
//!   `cache` is a no-op; `atomic`'s `if` is dropped (atomic is always correct); init/shutdown/set
//!   call the OpenACC runtime (prototypes added when openacc.h is missing).
//! * Macros inside pragmas are expanded from the `#define` lines `-dD` keeps; those lines are
//!   blanked. Every inserted line is followed by a line marker, so line numbers stay the user's,
//!   and every generated line after the first of an edit is preceded by one, so that it counts
//!   as the line it was generated for (the pragma's, or the statement's it is inserted before)
//!   rather than as the user's next lines: in clang's diagnostics, line tables and the
//!   runtime's messages.
#![allow(dead_code)]

pub mod analysis;
pub mod ast;
pub mod cast;
pub mod diagmap;
pub mod parser;
pub mod srcmap;
#[cfg(test)]
mod tests;
mod translate;

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
    /// Warnings on valid code that is probably not what was meant (`file:line:col: warning: …`),
    /// in source order; the driver prints them unless -w.
    pub warnings: Vec<String>,
    /// Where clang's diagnostics on the text the translation generated belong in the user's
    /// source (the driver rewrites them).
    pub diag_map: diagmap::DiagMap,
    /// The lines of the combined loop kernels made from compute constructs, as clang's location
    /// strings will name them: their pointers without a data clause are mapped by the loop's
    /// access ranges (the passes' `acc_compute` hints).
    pub compute_lines: Vec<ptxcc_passes::driver_hints::SourceLine>,
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
    crate::error::front_end_guard("the OpenACC front end", || {
        translate::translate(preprocessed, &name)
    })
}

/// The `-fptxcc-info` lines of a translation.
pub fn loop_report(t: &Translation) -> Vec<String> {
    t.report()
}

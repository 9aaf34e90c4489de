//! Stage 4 in process: the host object made from the host module the passes leave, in ptxcc's
//! own process, by LLVM's optimisation pipeline and x86-64 code generator — what `clang -c
//! -O<n> NAME.host.bc` (stage 4, [`super::object`]) does, without a clang process: its start
//! alone (loading libclang-cpp and libLLVM) is 30 ms of CPU, and the bitcode is not written and
//! read again. stream_omp.c at -O2: about a tenth of ptxcc's CPU time.
//!
//! What clang does with a bitcode input, and this the same way:
//! - the optimisation pipeline `default<O{0,2,3,s,z}>` with clang's tuning for the level: the
//!   loop vectoriser at -O2, -O3 and -Os, the SLP vectoriser also at -Oz, unrolling and
//!   interleaving from -O2 (and -Os, -Oz), the call-graph profile, no function merging;
//! - code generation for the module's triple and the CPU clang names (`x86-64`; each function
//!   carries clang's `target-cpu`/`tune-cpu` attributes), at the level's code generation
//!   optimisation (None at -O0, Aggressive at -O3, else Default), PIC where the module says so (its
//!   `PIC Level` flag, which clang set from -fPIC/-fPIE/the default PIE);
//! - code generation as clang sets it up (driver/native/host_codegen.cpp, which LLVM's C
//!   interface cannot do): clang's target options for ELF (constructors in `.init_array`, the
//!   address-significance table), the triple's library information, its pass list;
//! - LLVM's global code generation options back at their defaults (the device code's
//!   `-disable-lsr` and SCEV budget are not the host's: `nvptx_codegen::host_codegen_options`).
//!
//! Checked by comparing the objects both ways make (lit/driver/host-object-in-process.c: the
//! same instructions, sections and symbols). Anything the stage cannot promise
//! to do as clang does goes to clang as before, with the reason under -v ([`plan`]): -g (debug
//! information), -S, -emit-llvm, -save-temps, the optimiser's remarks (`-Rpass…`,
//! `-Wpass-failed`), `-O1`, `-Ofast`/`-O4`, `PTXCC_CLANG` (another clang), and flags for the code
//! generator other than warnings and the PIC/PIE family (`-m…`, `-mllvm`, `-Xclang`, `-f…`).
//! And any warning or error LLVM reports while it works (a `loop not vectorized` failure, a
//! stack frame over `-Wframe-larger-than`): the module as the passes left it is then written and
//! clang compiles it, so that the diagnostic reads as clang prints it, once.
use crate::error::{io_error, Error, Result};
use crate::options::{Options, Stages};
use ptxcc_passes::inkwell::memory_buffer::MemoryBuffer;
use ptxcc_passes::inkwell::module::Module;
use ptxcc_passes::inkwell::passes::PassBuilderOptions;
use ptxcc_passes::inkwell::targets::{CodeModel, InitializationConfig, RelocMode, Target};
use ptxcc_passes::inkwell::OptimizationLevel;
use std::path::Path;

/// clang's optimisation level for the host object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    O0,
    O2,
    O3,
    Os,
    Oz,
}

impl Level {
    /// The level of clang's `-O` flag (None: no flag, -O0), or None where this stage does not
    /// make it (`-Ofast`, `-O4`).
    /// -O1 (`-O`, `-Og`) is left to clang: there the objects differed in the registers of a
    /// function or two (test-suite matmul and stream), which the other levels never do.
    fn of_flag(flag: Option<&str>) -> Option<Level> {
        Some(match flag {
            None | Some("-O0") => Level::O0,
            Some("-O2") => Level::O2,
            Some("-O3") => Level::O3,
            Some("-Os") => Level::Os,
            Some("-Oz") => Level::Oz,
            Some(_) => return None,
        })
    }

    /// The new pass manager's pipeline.
    pub fn pipeline(self) -> &'static str {
        match self {
            Level::O0 => "default<O0>",
            Level::O2 => "default<O2>",
            Level::O3 => "default<O3>",
            Level::Os => "default<Os>",
            Level::Oz => "default<Oz>",
        }
    }

    /// The same, as inkwell names it.
    fn optimization(self) -> OptimizationLevel {
        match self.codegen_level() {
            0 => OptimizationLevel::None,
            1 => OptimizationLevel::Less,
            2 => OptimizationLevel::Default,
            _ => OptimizationLevel::Aggressive,
        }
    }

    /// Code generation's optimisation level, as clang maps the flag (0 None, 1 Less, 2 Default,
    /// 3 Aggressive).
    fn codegen_level(self) -> std::ffi::c_int {
        match self {
            Level::O0 => 0,
            Level::O2 | Level::Os | Level::Oz => 2,
            Level::O3 => 3,
        }
    }

    /// clang's pipeline tuning for the level (its driver's and `BackendUtil`'s choices).
    fn tuning(self) -> PassBuilderOptions {
        let vectorize_loops = matches!(self, Level::O2 | Level::O3 | Level::Os);
        let vectorize_slp = vectorize_loops || self == Level::Oz;
        let unroll = self != Level::O0;
        let o = PassBuilderOptions::create();
        o.set_loop_vectorization(vectorize_loops);
        o.set_loop_slp_vectorization(vectorize_slp);
        o.set_loop_interleaving(unroll);
        o.set_loop_unrolling(unroll);
        o.set_call_graph_profile(true);
        o.set_merge_functions(false);
        o
    }
}

/// Code generation flags this stage honours as clang does: warnings (backend warnings send the
/// module to clang, above) and the PIC/PIE family (the module's flags carry them).
fn honoured(arg: &str) -> bool {
    (arg.starts_with("-W") && !arg.starts_with("-Wa,"))
        || arg == "-w"
        || matches!(
            arg,
            "-fPIC"
                | "-fpic"
                | "-fPIE"
                | "-fpie"
                | "-fno-PIC"
                | "-fno-pic"
                | "-fno-PIE"
                | "-fno-pie"
        )
}

/// Whether this invocation's host objects are made in process: Ok(level), or Err(why clang
/// makes them).
pub fn plan(opts: &Options) -> std::result::Result<Level, String> {
    if std::env::var_os("PTXCC_CLANG").is_some_and(|v| !v.is_empty()) {
        return Err("PTXCC_CLANG names the clang to use".into());
    }
    if opts.emit_llvm {
        return Err("-emit-llvm".into());
    }
    if opts.save_temps.is_some() {
        return Err("-save-temps".into());
    }
    if opts.debug_info || opts.debug_flags.iter().any(|f| f != "-g0") {
        return Err("debug information (-g)".into());
    }
    if opts.wants_optimization_remarks() {
        return Err("the optimizer's remarks".into());
    }
    let level = Level::of_flag(opts.opt_flag.as_deref())
        .ok_or_else(|| opts.opt_flag.clone().unwrap_or_default())?;
    match opts
        .forwarded_to(Stages::CG)
        .into_iter()
        .find(|a| !honoured(a))
    {
        Some(flag) => Err(format!("'{flag}'")),
        None => Ok(level),
    }
}

/// What [`emit`] made.
pub enum Emitted {
    /// The object.
    Object,
    /// LLVM reported a warning or an error: the module as the passes left it is in the bitcode
    /// file, for clang to compile (and report).
    Bitcode,
}

/// Optimises `module` at `level` and writes it as an object to `out`; on a diagnostic from
/// LLVM, writes the module as it was given to `bitcode` instead.
pub fn emit(module: &Module<'_>, level: Level, out: &Path, bitcode: &Path) -> Result<Emitted> {
    let snapshot = module.write_bitcode_to_memory();
    let fall_back = |snapshot: MemoryBuffer| -> Result<Emitted> {
        std::fs::write(bitcode, snapshot.as_slice()).map_err(|e| io_error("write", bitcode, e))?;
        Ok(Emitted::Bitcode)
    };
    let triple = module.get_triple();
    if !triple.as_str().to_string_lossy().starts_with("x86_64-") {
        return fall_back(snapshot);
    }
    ptxcc_passes::nvptx_codegen::host_codegen_options();
    Target::initialize_x86(&InitializationConfig::default());
    let target = Target::from_triple(&triple)
        .map_err(|e| Error::Internal(format!("host target: {}", e.to_string().trim_end())))?;
    // The pipeline's target machine (its analyses: costs, legality); code generation makes its own.
    let pic = module.get_flag("PIC Level").is_some();
    let reloc = if pic {
        RelocMode::PIC
    } else {
        RelocMode::Static
    };
    let tm = target
        .create_target_machine(
            &triple,
            "x86-64",
            "",
            level.optimization(),
            reloc,
            CodeModel::Default,
        )
        .ok_or_else(|| Error::Internal("cannot create the host target machine".into()))?;
    let watch = DiagnosticWatch::install(module);
    module
        .run_passes(level.pipeline(), &tm, level.tuning())
        .map_err(|e| Error::Internal(format!("host optimisation: {}", e.to_string().trim_end())))?;
    write_object(module, level, pic, out)?;
    if watch.reported() {
        drop(watch);
        // clang writes the object again. Only a regular file is removed first: `-o /dev/null`
        // (configure scripts, lit) names a device, which root could delete, and every later
        // `> /dev/null` would then make it a regular file that collects output.
        if std::fs::symlink_metadata(out).is_ok_and(|m| m.file_type().is_file()) {
            let _ = std::fs::remove_file(out);
        }
        return fall_back(snapshot);
    }
    Ok(Emitted::Object)
}

extern "C" {
    /// driver/native/host_codegen.cpp: code generation set up as clang sets it up.
    fn ptxcc_emit_host_object(
        module: llvm_sys::prelude::LLVMModuleRef,
        cpu: *const std::ffi::c_char,
        level: std::ffi::c_int,
        pic: std::ffi::c_int,
        path: *const std::ffi::c_char,
        error: *mut *mut std::ffi::c_char,
    ) -> std::ffi::c_int;
    fn ptxcc_free_message(message: *mut std::ffi::c_char);
}

/// Writes the object of `module` to `out` (clang's code generation setup, host_codegen.cpp),
/// position-independent when `pic`.
fn write_object(module: &Module<'_>, level: Level, pic: bool, out: &Path) -> Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(out.as_os_str().as_bytes()).map_err(|_| {
        Error::usage(format!(
            "'{}' is not a file name ptxcc can write",
            out.display()
        ))
    })?;
    let mut error: *mut std::ffi::c_char = std::ptr::null_mut();
    let status = unsafe {
        ptxcc_emit_host_object(
            module.as_mut_ptr(),
            c"x86-64".as_ptr(),
            level.codegen_level(),
            pic.into(),
            path.as_ptr(),
            &mut error,
        )
    };
    if status == 0 {
        return Ok(());
    }
    let message = if error.is_null() {
        String::from("unknown error")
    } else {
        let m = unsafe { std::ffi::CStr::from_ptr(error) }
            .to_string_lossy()
            .into_owned();
        unsafe { ptxcc_free_message(error) };
        m
    };
    Err(Error::Internal(format!("host code generation: {message}")))
}

/// Notes whether LLVM reports a warning or an error on the module's context while it lives.
struct DiagnosticWatch {
    ctx: llvm_sys::prelude::LLVMContextRef,
    old_handler: llvm_sys::LLVMDiagnosticHandler,
    old_context: *mut std::ffi::c_void,
    seen: Box<std::cell::Cell<bool>>,
}

extern "C" fn on_diagnostic(
    info: llvm_sys::prelude::LLVMDiagnosticInfoRef,
    seen: *mut std::ffi::c_void,
) {
    let severity = unsafe { llvm_sys::core::LLVMGetDiagInfoSeverity(info) };
    if matches!(
        severity,
        llvm_sys::LLVMDiagnosticSeverity::LLVMDSError
            | llvm_sys::LLVMDiagnosticSeverity::LLVMDSWarning
    ) {
        unsafe { (*(seen as *const std::cell::Cell<bool>)).set(true) };
    }
}

impl DiagnosticWatch {
    fn install(module: &Module<'_>) -> DiagnosticWatch {
        let ctx = module.get_context().raw();
        let seen = Box::new(std::cell::Cell::new(false));
        unsafe {
            let old_handler = llvm_sys::core::LLVMContextGetDiagnosticHandler(ctx);
            let old_context = llvm_sys::core::LLVMContextGetDiagnosticContext(ctx);
            llvm_sys::core::LLVMContextSetDiagnosticHandler(
                ctx,
                Some(on_diagnostic),
                &*seen as *const std::cell::Cell<bool> as *mut std::ffi::c_void,
            );
            DiagnosticWatch {
                ctx,
                old_handler,
                old_context,
                seen,
            }
        }
    }

    fn reported(&self) -> bool {
        self.seen.get()
    }
}

impl Drop for DiagnosticWatch {
    fn drop(&mut self) {
        unsafe {
            llvm_sys::core::LLVMContextSetDiagnosticHandler(
                self.ctx,
                self.old_handler,
                self.old_context,
            )
        };
    }
}

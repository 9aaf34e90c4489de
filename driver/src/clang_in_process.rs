//! clang's front end in ptxcc's process (driver/native/clang_frontend.cpp): the preprocessor and
//! host-IR commands ([`crate::exec::Cmd::frontend`]) run there instead of in a clang process,
//! which spends about 40 ms of CPU loading its libraries before it reads a line (two per source,
//! a fifth of ptxcc's CPU time on test-suite/stream/stream_omp.c).
//!
//! Only for the clang whose libraries ptxcc is linked with (LLVM 19's, `llvm-config --bindir`,
//! found by [`crate::toolchain::find_clang`] as `clang-19` on PATH or LLVM's own), and not when
//! `PTXCC_CLANG` names one (another clang is another front end), when
//! `PTXCC_CLANG_IN_PROCESS=0`, or under `-v` (clang's own `-v` report comes from its process).
//! A command whose jobs are not all front-end (`-cc1`) jobs starts clang as before.
use std::ffi::{c_char, c_int, CString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// How an in-process run ended.
pub enum Ran {
    /// With clang's exit status (diagnostics printed).
    Status(i32),
    /// Not run (a job that is not a front-end job): start clang instead.
    NotHere,
}

/// Whether the command for `clang` may run in process.
pub fn applies(clang: &Path, args: &[String]) -> bool {
    if std::env::var_os("PTXCC_CLANG").is_some_and(|v| !v.is_empty())
        || std::env::var_os("PTXCC_CLANG_IN_PROCESS").is_some_and(|v| v == "0")
        || args.iter().any(|a| a == "-v" || a == "-###")
    {
        return false;
    }
    let ours = Path::new(env!("PTXCC_LLVM_BINDIR")).join("clang");
    match (clang.canonicalize(), ours.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Runs `clang args...` in process.
pub fn run(clang: &Path, args: &[String]) -> Ran {
    let Ok(program) = CString::new(clang.as_os_str().as_bytes()) else {
        return Ran::NotHere;
    };
    let Ok(owned) = args
        .iter()
        .map(|a| CString::new(a.as_bytes()))
        .collect::<Result<Vec<CString>, _>>()
    else {
        return Ran::NotHere;
    };
    let pointers: Vec<*const c_char> = owned.iter().map(|a| a.as_ptr()).collect();
    // clang writes through its own streams: what ptxcc buffered goes first.
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    let mut error: *mut c_char = std::ptr::null_mut();
    // SAFETY: the strings outlive the call; the message, if any, is freed below.
    let status = unsafe {
        ptxcc_clang_in_process(
            program.as_ptr(),
            pointers.as_ptr(),
            pointers.len() as c_int,
            &mut error,
        )
    };
    if !error.is_null() {
        // SAFETY: clang_frontend.cpp's strdup, freed once.
        unsafe { ptxcc_free_message(error) };
    }
    if status < 0 {
        return Ran::NotHere;
    }
    Ran::Status(status)
}

extern "C" {
    /// driver/native/clang_frontend.cpp.
    fn ptxcc_clang_in_process(
        clang: *const c_char,
        args: *const *const c_char,
        count: c_int,
        error: *mut *mut c_char,
    ) -> c_int;
    /// driver/native/host_codegen.cpp.
    fn ptxcc_free_message(message: *mut c_char);
}

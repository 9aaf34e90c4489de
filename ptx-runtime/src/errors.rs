//! Errors the user can act on, and the single place where the runtime gives up.
//!
//! Everything that comes from a user program ends in `fatal` with a message of the form
//! `ptxrt: error: FILE:LINE:COL: what happened; what to do`, never in a panic.

use crate::source_info::{SourceLoc, VarName};
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// An error from a device back end (CUDA driver or emulator).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceError {
    /// An allocation failed.
    OutOfMemory { requested: u64, free: Option<u64> },
    /// The PTX JIT rejected a module.
    Jit { message: String, log: String },
    /// A driver call failed.
    Driver { call: &'static str, message: String },
    /// A kernel failed at launch or while running.
    Launch { message: String },
    /// Something the device cannot do.
    Unsupported(String),
}

impl fmt::Display for DeviceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceError::OutOfMemory { requested, free } => {
                write!(f, "out of device memory allocating {}", bytes(*requested))?;
                if let Some(free) = free {
                    write!(f, " ({} free)", bytes(*free))?;
                }
                Ok(())
            }
            DeviceError::Jit { message, log } => {
                write!(f, "the CUDA driver could not compile the PTX: {message}")?;
                if !log.trim().is_empty() {
                    write!(f, "\nJIT log:\n{}", log.trim_end())?;
                }
                Ok(())
            }
            DeviceError::Driver { call, message } => write!(f, "{call} failed: {message}"),
            DeviceError::Launch { message } => write!(f, "{message}"),
            DeviceError::Unsupported(m) => write!(f, "{m}"),
        }
    }
}

/// A mapping error of one map-clause list item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapError {
    /// `present` (or an update/exit needing it) on a range that is not mapped.
    NotPresent {
        var: VarName,
        host: usize,
        bytes: u64,
    },
    /// The range overlaps a mapped range without being contained in it.
    PartialOverlap {
        var: VarName,
        host: usize,
        bytes: u64,
        mapped_var: VarName,
        mapped_host: usize,
        mapped_bytes: u64,
    },
    /// The device could not allocate the list item.
    OutOfMemory {
        var: VarName,
        bytes: u64,
        free: Option<u64>,
    },
    /// A PTR_AND_OBJ entry whose pointer could not be attached.
    Attach { var: VarName, message: String },
    /// A feature the runtime does not implement.
    Unsupported { var: VarName, what: String },
    /// Any other device failure while mapping the item.
    Device { var: VarName, error: DeviceError },
}

pub fn bytes(n: u64) -> String {
    if n < 10 * 1024 {
        format!("{n} bytes")
    } else if n < 10 * 1024 * 1024 {
        format!("{n} bytes ({:.1} KiB)", n as f64 / 1024.0)
    } else if n < 10 * 1024 * 1024 * 1024 {
        format!("{n} bytes ({:.1} MiB)", n as f64 / (1024.0 * 1024.0))
    } else {
        format!(
            "{n} bytes ({:.1} GiB)",
            n as f64 / (1024.0 * 1024.0 * 1024.0)
        )
    }
}

fn var_decl(var: &VarName) -> String {
    if var.decl.is_known() {
        format!(" (declared at {})", var.decl)
    } else {
        String::new()
    }
}

impl MapError {
    /// A failed allocation of `bytes` for the list item `var`: out of memory (with what is
    /// free), or the device's own error.
    pub fn allocating(var: &VarName, bytes: u64, error: DeviceError) -> MapError {
        match error {
            DeviceError::OutOfMemory { free, .. } => MapError::OutOfMemory {
                var: var.clone(),
                bytes,
                free,
            },
            error => MapError::Device {
                var: var.clone(),
                error,
            },
        }
    }

    /// The full message, for the construct at `loc` on device `device` (e.g. "0 (emulator)").
    pub fn describe(&self, device: &str) -> String {
        match self {
            MapError::NotPresent { var, host, bytes: n } => format!(
                "variable {var} (host {host:#x}, {}){} is not present on device {device}; map it with map(to:...) \
                 or enclose the construct in a target data region (OpenACC: copyin/create or a data region)",
                bytes(*n),
                var_decl(var)
            ),
            MapError::PartialOverlap { var, host, bytes: n, mapped_var, mapped_host, mapped_bytes } => format!(
                "variable {var} (host {host:#x}, {}) partially overlaps {mapped_var} (host {mapped_host:#x}, {}) \
                 that is already mapped on device {device}; a section mapped inside an enclosing mapping must be \
                 contained in it: map the whole array first, or unmap {mapped_var} before mapping {var}",
                bytes(*n),
                bytes(*mapped_bytes)
            ),
            MapError::OutOfMemory { var, bytes: n, free } => {
                let free = match free {
                    Some(f) => format!("; {} are free", bytes(*f)),
                    None => String::new(),
                };
                format!(
                    "out of memory on device {device} allocating {} for variable {var}{free}; map smaller sections \
                     or release data with target exit data / acc exit data",
                    bytes(*n)
                )
            }
            MapError::Attach { var, message } => {
                format!("cannot attach pointer for variable {var} on device {device}: {message}")
            }
            MapError::Unsupported { var, what } => {
                format!("variable {var}: {what} is not supported by ptxcc's runtime (device {device})")
            }
            MapError::Device { var, error } => {
                format!("device {device} failed while mapping variable {var}: {error}")
            }
        }
    }
}

static EXITING: AtomicBool = AtomicBool::new(false);

/// Prints `ptxrt: error: LOC: MESSAGE` and exits with status 1. Never returns.
pub fn fatal_at(loc: &SourceLoc, message: &str) -> ! {
    if loc.is_known() {
        fatal(&format!("{loc}: {message}"))
    } else {
        fatal(message)
    }
}

/// Prints `ptxrt: error: MESSAGE` and exits with status 1 (without atexit handlers). Never
/// returns.
pub fn fatal(message: &str) -> ! {
    if EXITING.swap(true, Ordering::SeqCst) {
        // Another thread is already reporting an error and exiting.
        loop {
            std::thread::park();
        }
    }
    stderr_line(&format!("ptxrt: error: {message}\n"));
    crate::profile::report_at_exit();
    // Not exit(): its atexit handlers include libomp's shutdown, which waits for the helper
    // threads that run async target tasks; an error reported from one of them (an async
    // update of absent data) then waited for itself and the program hung. What the program
    // printed with C stdio is flushed first, as exit() would.
    unsafe {
        libc::fflush(std::ptr::null_mut());
        libc::_exit(1)
    }
}

/// Prints a warning once per distinct message.
pub fn warn(message: &str) {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    let mut seen = match SEEN.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    };
    if seen
        .get_or_insert_with(HashSet::new)
        .insert(message.to_string())
    {
        stderr_line(&format!("ptxrt: warning: {message}\n"));
    }
}

/// Writes a whole line to stderr in one write: processes sharing the pipe (the ranks of an MPI
/// job under mpirun) then never cut into each other's lines, as the pieces `writeln!` writes
/// one by one on unbuffered stderr can be.
pub fn stderr_line(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(line.as_bytes());
    let _ = err.flush();
}

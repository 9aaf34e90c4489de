//! How ptxcc fails: its own errors (`ptxcc: error: …`, status 1), a tool that failed (clang has
//! printed its messages; its status is passed through), errors in the user's program found by the
//! directive front end or the passes (`file:line:col: error: …`, status 1), and internal errors.
use ptxcc_passes::diagnostics::Diagnostic;
use std::fmt;

#[derive(Debug)]
pub enum Error {
    /// A usage or environment problem: printed as `ptxcc: error: MESSAGE`, status 1.
    Usage(String),
    /// A tool ptxcc ran failed with this status, having printed its own messages.
    Tool(i32),
    /// Errors in the user's program, printed one per line, status 1.
    Diagnostics(Vec<Diagnostic>),
    /// A bug in ptxcc: `ptxcc: internal error: MESSAGE`, status 70.
    Internal(String),
}

/// ptxcc's exit status for its own internal errors (EX_SOFTWARE).
pub const INTERNAL_ERROR_STATUS: i32 = 70;

impl Error {
    pub fn usage(msg: impl Into<String>) -> Error {
        Error::Usage(msg.into())
    }

    /// Prints the error to stderr and returns the exit status.
    pub fn report(&self) -> i32 {
        match self {
            Error::Usage(msg) => {
                eprintln!("ptxcc: error: {msg}");
                1
            }
            Error::Tool(status) => *status,
            Error::Diagnostics(diags) => {
                for d in diags {
                    eprintln!("{d}");
                }
                // clang's closing line, for errors about the user's source.
                let n = diags.iter().filter(|d| d.loc.is_some()).count();
                if n > 0 {
                    eprintln!("{n} error{} generated.", if n == 1 { "" } else { "s" });
                }
                1
            }
            Error::Internal(msg) => {
                eprintln!("ptxcc: internal error: {msg}");
                INTERNAL_ERROR_STATUS
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(msg) => write!(f, "ptxcc: error: {msg}"),
            Error::Tool(status) => write!(f, "a tool failed with status {status}"),
            Error::Diagnostics(diags) => {
                for d in diags {
                    writeln!(f, "{d}")?;
                }
                Ok(())
            }
            Error::Internal(msg) => write!(f, "ptxcc: internal error: {msg}"),
        }
    }
}

impl From<ptxcc_passes::diagnostics::Diagnostics> for Error {
    fn from(d: ptxcc_passes::diagnostics::Diagnostics) -> Error {
        Error::Diagnostics(d.0)
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// An I/O failure on a file ptxcc reads or writes, as a usage error.
pub fn io_error(what: &str, path: &std::path::Path, err: std::io::Error) -> Error {
    Error::Usage(format!("cannot {what} '{}': {err}", path.display()))
}

/// The text of a panic's payload (`panic!("...")` gives a `&str` or a `String`), if it has one.
pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
}

/// Runs a front end so that a bug in it becomes a diagnostic ("internal error in WHAT: ...")
/// instead of taking the driver down.
pub fn front_end_guard<T>(
    what: &str,
    run: impl FnOnce() -> std::result::Result<T, Vec<Diagnostic>> + std::panic::UnwindSafe,
) -> std::result::Result<T, Vec<Diagnostic>> {
    std::panic::catch_unwind(run).unwrap_or_else(|p| {
        let text = panic_text(p.as_ref()).unwrap_or_else(|| "unknown".into());
        Err(vec![Diagnostic {
            loc: None,
            message: format!("internal error in {what}: {text}"),
        }])
    })
}

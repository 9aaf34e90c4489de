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

//! The stages of DESIGN.md's pipeline, one file each. Each builds the command it runs (so that
//! `-v`/`-###` print exactly what runs) or, for the stages ptxcc runs in its own process, does
//! the work.
pub mod declare_target_nohost;
pub mod declare_variant;
pub mod device_code;
pub mod host_ir;
pub mod host_object;
pub mod layout_directive;
pub mod link;
pub mod metadirective_device;
pub mod object;
pub mod offload;
pub mod offload_parallel_for;
pub mod omp_front;
pub mod openacc;
pub mod pass_hints;
pub mod preprocess;

use crate::exec::{Cmd, Runner};
use crate::options::Options;
use std::path::{Path, PathBuf};

/// An input on a clang command line, under the `-x` language the user gave it (reset after it).
pub fn input_arg(cmd: &mut Cmd, input: &Path, language: Option<&str>) {
    match language {
        Some(lang) => {
            cmd.arg("-x").arg(lang).path(input).arg("-x").arg("none");
        }
        None => {
            cmd.path(input);
        }
    }
}

/// What every stage needs to know about the invocation.
pub struct Ctx<'a> {
    pub opts: &'a Options,
    pub clang: PathBuf,
    /// The runtime's headers, added with -isystem when present.
    pub include_dir: Option<PathBuf>,
    pub runner: Runner,
}

/// Where a result goes: a file, or standard output (`-o -`, or -E without -o).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    Stdout,
    File(PathBuf),
}

impl Output {
    pub fn from_flag(value: &str) -> Output {
        if value == "-" {
            Output::Stdout
        } else {
            Output::File(PathBuf::from(value))
        }
    }

    /// As clang's `-o` takes it.
    pub fn as_arg(&self) -> String {
        match self {
            Output::Stdout => "-".to_string(),
            Output::File(p) => p.to_string_lossy().into_owned(),
        }
    }

    /// Writes `bytes` there.
    pub fn write(&self, bytes: &[u8]) -> crate::error::Result<()> {
        use std::io::Write;
        match self {
            Output::Stdout => {
                let mut out = std::io::stdout().lock();
                // A closed pipe (`ptxcc … | head`) is not an error worth reporting.
                match out.write_all(bytes).and_then(|_| out.flush()) {
                    Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(
                        crate::error::Error::usage(format!("cannot write to standard output: {e}")),
                    ),
                    _ => Ok(()),
                }
            }
            Output::File(p) => {
                std::fs::write(p, bytes).map_err(|e| crate::error::io_error("write", p, e))
            }
        }
    }
}

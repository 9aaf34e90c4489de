//! Stage 2c, in process: OpenMP pragmas ptxcc handles itself before clang (crate::omp_front):
//! strided `target update` items become runtime calls, and warnings clang does not give. Runs
//! on the final preprocessed text; writes `NAME.ompf.i` only when it changed something.
use crate::error::{io_error, Error, Result};
use crate::options::Options;
use std::path::{Path, PathBuf};

/// Returns the file clang compiles: `source` itself, or `out` with the rewritten text.
pub fn run(opts: &Options, source: &Path, user_file: &Path, out: PathBuf) -> Result<PathBuf> {
    let text = std::fs::read(source).map_err(|e| io_error("read", source, e))?;
    let text = String::from_utf8_lossy(&text);
    let version = crate::omp_front::OmpVersion::from_flags(
        opts.forwarded
            .iter()
            .flat_map(|f| &f.args)
            .map(String::as_str),
    );
    let o = crate::omp_front::run(&text, &user_file.to_string_lossy(), version)
        .map_err(Error::Diagnostics)?;
    let quiet = opts
        .forwarded
        .iter()
        .any(|f| f.args.iter().any(|a| a == "-w"));
    if !quiet {
        for w in &o.warnings {
            eprintln!("{w}");
        }
    }
    if o.text == text {
        return Ok(source.to_path_buf());
    }
    std::fs::write(&out, o.text).map_err(|e| io_error("write", &out, e))?;
    Ok(out)
}

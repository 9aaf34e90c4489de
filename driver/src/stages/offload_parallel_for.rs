//! Stage 2b (under -fopenmp-offload-parallel-for), in process: host `parallel for` loops of the
//! preprocessed (and, under -fopenacc, translated) source become `target teams distribute
//! parallel for` (crate::offload_parallel_for). Its warnings and remarks are printed here; the
//! per-loop report under -fopenmp-offload-parallel-for=report or -fptxcc-info.
use crate::error::{io_error, Error, Result};
use crate::offload_parallel_for::Message;
use crate::options::Options;
use ptxcc_passes::driver_hints::SourceLine;
use std::path::Path;

/// Translates `pre` (of the user's `source`) and returns the new text and the directives it
/// offloaded (for the passes' `access_maps` hints). With the flag off (only
/// -fptxcc-print-translated asked for the text) the text comes back unchanged.
pub fn translate(opts: &Options, pre: &Path, source: &Path) -> Result<(String, Vec<SourceLine>)> {
    let text = std::fs::read(pre).map_err(|e| io_error("read", pre, e))?;
    let text = String::from_utf8_lossy(&text).into_owned();
    if !opts.offload_parallel_for {
        return Ok((text, Vec::new()));
    }
    let t = crate::offload_parallel_for::translate(&text, source).map_err(Error::Diagnostics)?;
    // -w silences warnings and remarks, as it does clang's.
    let quiet = opts
        .forwarded
        .iter()
        .any(|f| f.args.iter().any(|a| a == "-w"));
    let report = opts.offload_parallel_for_report || opts.ptxcc_info;
    for m in &t.messages {
        match m {
            Message::Diagnostic(d) if !quiet => eprintln!("{d}"),
            Message::Report(r) if report => eprintln!("{r}"),
            _ => {}
        }
    }
    Ok((t.text, t.offloaded))
}

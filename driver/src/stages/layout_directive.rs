//! Stage 1b, in process: the array data-layout directive (`#pragma ptxcc trans`, and `#pragma
//! acc trans` under -fopenacc) becomes marker calls around its block (crate::layout_directive),
//! in the preprocessed file itself, before the OpenACC front end sees it. Its report lines
//! go to standard error under -fptxcc-info.
use crate::error::{io_error, Error, Result};
use crate::options::Options;
use std::path::Path;

/// Translates `text`, the content of the preprocessed file `pre` of `source`, rewriting `pre`
/// when something changed; returns the (new) text.
pub fn translate(opts: &Options, pre: &Path, source: &Path, text: String) -> Result<String> {
    if !text.contains("trans") {
        return Ok(text);
    }
    let t = crate::layout_directive::translate(&text, &source.to_string_lossy(), opts.openacc)
        .map_err(Error::Diagnostics)?;
    if opts.ptxcc_info {
        for line in &t.report {
            eprintln!("{line}");
        }
    }
    if t.text != text {
        std::fs::write(pre, &t.text).map_err(|e| io_error("write", pre, e))?;
    }
    Ok(t.text)
}

//! Stage 2 (under -fopenacc): the directive front end, in process. Reads the preprocessed source,
//! translates OpenACC to OpenMP (crate::openacc) and returns the result with the front end's
//! per-loop report (printed under -fptxcc-info).
use crate::error::{io_error, Error, Result};
use crate::openacc::Translation;
use std::path::Path;

/// Translates the preprocessed file `pre` (of the user's `source`).
pub fn translate(pre: &Path, source: &Path) -> Result<Translation> {
    let text = std::fs::read(pre).map_err(|e| io_error("read", pre, e))?;
    let text = String::from_utf8_lossy(&text);
    crate::openacc::translate_full(&text, source).map_err(Error::Diagnostics)
}

//! The OpenACC directive front end: translates OpenACC pragmas in preprocessed C into OpenMP
//! offload pragmas (DESIGN.md, "OpenACC → OpenMP").
//!
//! Placeholder written by the driver so that the driver builds before the front end lands: it
//! returns the source unchanged. The front end's owner replaces this file; the driver relies only
//! on `translate`'s signature.
use ptxcc_passes::diagnostics::Diagnostic;

/// Translates the preprocessed source of `file` from OpenACC to OpenMP; on errors, every
/// diagnostic found (clang-style `file:line:col: error: …`).
pub fn translate(src: &str, _file: &std::path::Path) -> Result<String, Vec<Diagnostic>> {
    Ok(src.to_string())
}

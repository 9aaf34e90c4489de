//! ptxcc's IR transformations. Each module is one transformation (see DESIGN.md, "Passes");
//! `pipeline` strings them together for the driver, `ptxcc-opt` runs any one of them alone.
pub use inkwell;

pub mod diagnostics;
pub mod pipeline;
pub mod simt_lowering;

//! libomptarget's map-type bits: `ptxcc_abi::map_type`, shared with the passes.
pub use ptxcc_abi::map_type::MapType;

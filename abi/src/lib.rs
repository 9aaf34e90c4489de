//! The contract between ptxcc's passes, which write data into the programs they compile, and
//! libptxrt, which reads it back at run time. Each format is defined here once, with its
//! encoder and decoder side by side, so the two crates cannot drift apart:
//!
//! - [`kernel`]: the `ptxrt_kernel_desc::emu_flags` bits;
//! - [`combine`]: the `ptxrt_combine_op` codes of a split loop's combined arguments;
//! - [`map_type`]: libomptarget's map-type bits, which clang writes and both read;
//! - [`access_table`]: the access table of a kernel (`ptxrt_kernel_desc::accesses`), the byte
//!   ranges its loop reads and writes per pointer argument.
//!
//! The C view of the descriptors is `ptx-runtime/include/ptxcc_abi.h`. No dependencies: the
//! passes link LLVM, the runtime links nothing it does not need.
pub mod access_table;
pub mod combine;
pub mod kernel;
pub mod map_type;

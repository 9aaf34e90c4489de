//! ptxcc's IR transformations. Each module is one transformation (see DESIGN.md, "Passes");
//! `registry` lists them (name, what each needs, how it runs); `pipeline` strings them together
//! for the driver and `ptxcc-opt` runs any one of them alone, both from the registry.
pub use inkwell;

pub mod diagnostics;
pub mod driver_hints;
pub mod fatal;
pub mod ir;
pub mod kernel_info;
pub mod launch_shape;
pub mod nvvm;
pub mod offload_launch;
pub mod openmp;
pub mod thread_space;
pub mod time_report;

pub mod access_ranges;
pub mod atomic_orderings;
pub mod complex_math;
pub mod declare_target_link;
pub mod declare_variant;
pub mod device_allocators;
pub mod device_builtins;
pub mod device_check;
pub mod device_extraction;
pub mod device_libc;
pub mod device_number;
pub mod device_rt;
pub mod host_part;
pub mod host_registration;
pub mod kernel_formation;
pub mod layout;
pub mod loop_hints;
pub mod loop_mapping;
pub mod math_library;
pub mod nvptx_codegen;
pub mod reductions;
pub mod remarks;
pub mod restrict_params;
pub mod simt_lowering;
pub mod split_range;
pub mod taskloop;
pub mod tasks;

pub mod pipeline;
pub mod registry;

//! libptxrt: the runtime linked into every executable ptxcc makes.
//!
//! * `offload_abi` — the libomptarget host ABI clang 19 emits (`__tgt_*`);
//! * `omp_api` — OpenMP device routines (`omp_get_num_devices`, `omp_target_*`);
//! * `mapping` + `present_table` — map-clause semantics and the host→device table;
//! * `device` — the CUDA driver back end and the CPU emulator (with the `__ptxemu_*` ABI);
//! * `registry` — images registered by `__ptxrt_register_image` (see include/ptxcc_abi.h);
//! * `profile` — PTXRT_PROFILE=1.
//!
//! Nothing that a user program can cause panics: errors are reported by `errors::fatal` as
//! `ptxrt: error: FILE:LINE:COL: ...` with exit status 1.

#![allow(
    clippy::missing_safety_doc,
    clippy::result_large_err,
    clippy::drop_non_drop
)]

pub mod abi;
pub mod coherence;
pub mod crash;
pub mod default_device;
pub mod device;
pub mod errors;
pub mod launch_config;
pub mod launcher;
pub mod layout;
pub mod map_type;
pub mod mapping;
pub mod offload_abi;
pub mod omp_api;
pub mod openacc;
pub mod present_table;
pub mod profile;
pub mod profile_json;
pub mod queued_enters;
pub mod queues;
pub mod registry;
pub mod requires;
pub mod runtime;
pub mod source_info;
pub mod split;
pub mod strided_update;
pub mod user_mappers;

/// Registers one translation unit's device image (called from a global constructor).
///
/// # Safety
/// `image` must point at a `ptxrt_image_desc` that lives for the rest of the program.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_register_image(image: *const abi::ImageDesc) {
    if let Err(e) = registry::register(image) {
        errors::fatal(&e);
    }
}

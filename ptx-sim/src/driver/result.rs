//! `CUresult` values (from CUDA's cuda.h) and their names and descriptions.

use std::ffi::c_char;

pub type CUresult = i32;

pub const SUCCESS: CUresult = 0;
pub const INVALID_VALUE: CUresult = 1;
pub const OUT_OF_MEMORY: CUresult = 2;
pub const NOT_INITIALIZED: CUresult = 3;
pub const INVALID_DEVICE: CUresult = 101;
pub const INVALID_IMAGE: CUresult = 200;
pub const INVALID_CONTEXT: CUresult = 201;
pub const NO_BINARY_FOR_GPU: CUresult = 209;
pub const INVALID_PTX: CUresult = 218;
pub const FILE_NOT_FOUND: CUresult = 301;
pub const INVALID_HANDLE: CUresult = 400;
pub const NOT_FOUND: CUresult = 500;
pub const NOT_READY: CUresult = 600;
pub const ILLEGAL_ADDRESS: CUresult = 700;
pub const LAUNCH_OUT_OF_RESOURCES: CUresult = 701;
pub const LAUNCH_TIMEOUT: CUresult = 702;
pub const PEER_ACCESS_ALREADY_ENABLED: CUresult = 704;
pub const PEER_ACCESS_NOT_ENABLED: CUresult = 705;
pub const ASSERT: CUresult = 710;
pub const HARDWARE_STACK_ERROR: CUresult = 714;
pub const ILLEGAL_INSTRUCTION: CUresult = 715;
pub const MISALIGNED_ADDRESS: CUresult = 716;
pub const LAUNCH_FAILED: CUresult = 719;
pub const NOT_SUPPORTED: CUresult = 801;
pub const UNKNOWN: CUresult = 999;

/// (value, name, description) as the CUDA driver gives them.
const TABLE: &[(CUresult, &str, &str)] = &[
    (SUCCESS, "CUDA_SUCCESS\0", "no error\0"),
    (
        INVALID_VALUE,
        "CUDA_ERROR_INVALID_VALUE\0",
        "invalid argument\0",
    ),
    (
        OUT_OF_MEMORY,
        "CUDA_ERROR_OUT_OF_MEMORY\0",
        "out of memory\0",
    ),
    (
        NOT_INITIALIZED,
        "CUDA_ERROR_NOT_INITIALIZED\0",
        "initialization error\0",
    ),
    (
        INVALID_DEVICE,
        "CUDA_ERROR_INVALID_DEVICE\0",
        "invalid device ordinal\0",
    ),
    (
        INVALID_IMAGE,
        "CUDA_ERROR_INVALID_IMAGE\0",
        "device kernel image is invalid\0",
    ),
    (
        INVALID_CONTEXT,
        "CUDA_ERROR_INVALID_CONTEXT\0",
        "invalid device context\0",
    ),
    (
        NO_BINARY_FOR_GPU,
        "CUDA_ERROR_NO_BINARY_FOR_GPU\0",
        "no kernel image is available for execution on the device\0",
    ),
    (
        INVALID_PTX,
        "CUDA_ERROR_INVALID_PTX\0",
        "a PTX JIT compilation failed\0",
    ),
    (
        FILE_NOT_FOUND,
        "CUDA_ERROR_FILE_NOT_FOUND\0",
        "file not found\0",
    ),
    (
        INVALID_HANDLE,
        "CUDA_ERROR_INVALID_HANDLE\0",
        "invalid resource handle\0",
    ),
    (
        NOT_FOUND,
        "CUDA_ERROR_NOT_FOUND\0",
        "named symbol not found\0",
    ),
    (NOT_READY, "CUDA_ERROR_NOT_READY\0", "device not ready\0"),
    (
        ILLEGAL_ADDRESS,
        "CUDA_ERROR_ILLEGAL_ADDRESS\0",
        "an illegal memory access was encountered\0",
    ),
    (
        LAUNCH_OUT_OF_RESOURCES,
        "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES\0",
        "too many resources requested for launch\0",
    ),
    (
        LAUNCH_TIMEOUT,
        "CUDA_ERROR_LAUNCH_TIMEOUT\0",
        "the launch timed out and was terminated\0",
    ),
    (
        PEER_ACCESS_ALREADY_ENABLED,
        "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED\0",
        "peer access is already enabled\0",
    ),
    (
        PEER_ACCESS_NOT_ENABLED,
        "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED\0",
        "peer access has not been enabled\0",
    ),
    (
        ASSERT,
        "CUDA_ERROR_ASSERT\0",
        "device-side assert triggered\0",
    ),
    (
        HARDWARE_STACK_ERROR,
        "CUDA_ERROR_HARDWARE_STACK_ERROR\0",
        "an illegal instruction was encountered\0",
    ),
    (
        ILLEGAL_INSTRUCTION,
        "CUDA_ERROR_ILLEGAL_INSTRUCTION\0",
        "an illegal instruction was encountered\0",
    ),
    (
        MISALIGNED_ADDRESS,
        "CUDA_ERROR_MISALIGNED_ADDRESS\0",
        "misaligned address\0",
    ),
    (
        LAUNCH_FAILED,
        "CUDA_ERROR_LAUNCH_FAILED\0",
        "unspecified launch failure\0",
    ),
    (
        NOT_SUPPORTED,
        "CUDA_ERROR_NOT_SUPPORTED\0",
        "operation not supported\0",
    ),
    (UNKNOWN, "CUDA_ERROR_UNKNOWN\0", "unknown error\0"),
];

/// Whether an error leaves the context unusable: every later call returns it (a kernel fault).
pub fn is_sticky(r: CUresult) -> bool {
    matches!(
        r,
        ILLEGAL_ADDRESS
            | LAUNCH_TIMEOUT
            | ASSERT
            | HARDWARE_STACK_ERROR
            | ILLEGAL_INSTRUCTION
            | MISALIGNED_ADDRESS
            | LAUNCH_FAILED
    )
}

pub fn name(r: CUresult) -> Option<*const c_char> {
    TABLE
        .iter()
        .find(|(v, _, _)| *v == r)
        .map(|(_, n, _)| n.as_ptr() as *const c_char)
}

pub fn description(r: CUresult) -> Option<*const c_char> {
    TABLE
        .iter()
        .find(|(v, _, _)| *v == r)
        .map(|(_, _, d)| d.as_ptr() as *const c_char)
}

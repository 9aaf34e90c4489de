//! `cudaError_t`: the runtime's error codes, their names and messages.
//!
//! The runtime's codes from 100 up (and 1–3) are the driver's CUresult numbers, so a driver
//! result passes through unchanged (`from_driver`), except where the runtime has its own word
//! for the case (an invalid launch configuration).

pub type CudaError = i32;

pub const SUCCESS: CudaError = 0;
pub const INVALID_VALUE: CudaError = 1;
pub const INITIALIZATION_ERROR: CudaError = 3;
pub const INVALID_CONFIGURATION: CudaError = 9;
pub const INVALID_SYMBOL: CudaError = 13;
pub const INVALID_MEMCPY_DIRECTION: CudaError = 21;
pub const MISSING_CONFIGURATION: CudaError = 52;
pub const INVALID_DEVICE_FUNCTION: CudaError = 98;
pub const INVALID_DEVICE: CudaError = 101;
pub const NO_KERNEL_IMAGE_FOR_DEVICE: CudaError = 209;
pub const NOT_SUPPORTED: CudaError = 801;

/// (code, name, message) — the messages are CUDA's.
const TABLE: &[(CudaError, &str, &str)] = &[
    (0, "cudaSuccess", "no error"),
    (1, "cudaErrorInvalidValue", "invalid argument"),
    (2, "cudaErrorMemoryAllocation", "out of memory"),
    (3, "cudaErrorInitializationError", "initialization error"),
    (4, "cudaErrorCudartUnloading", "driver shutting down"),
    (
        9,
        "cudaErrorInvalidConfiguration",
        "invalid configuration argument",
    ),
    (13, "cudaErrorInvalidSymbol", "invalid device symbol"),
    (
        17,
        "cudaErrorInvalidDevicePointer",
        "invalid device pointer",
    ),
    (
        21,
        "cudaErrorInvalidMemcpyDirection",
        "invalid copy direction for memcpy",
    ),
    (
        52,
        "cudaErrorMissingConfiguration",
        "__global__ function call is not configured",
    ),
    (
        98,
        "cudaErrorInvalidDeviceFunction",
        "invalid device function",
    ),
    (
        100,
        "cudaErrorNoDevice",
        "no CUDA-capable device is detected",
    ),
    (101, "cudaErrorInvalidDevice", "invalid device ordinal"),
    (
        200,
        "cudaErrorInvalidKernelImage",
        "device kernel image is invalid",
    ),
    (
        201,
        "cudaErrorDeviceUninitialized",
        "invalid device context",
    ),
    (
        209,
        "cudaErrorNoKernelImageForDevice",
        "no kernel image is available for execution on the device",
    ),
    (218, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"),
    (301, "cudaErrorFileNotFound", "file not found"),
    (
        400,
        "cudaErrorInvalidResourceHandle",
        "invalid resource handle",
    ),
    (500, "cudaErrorSymbolNotFound", "named symbol not found"),
    (600, "cudaErrorNotReady", "device not ready"),
    (
        700,
        "cudaErrorIllegalAddress",
        "an illegal memory access was encountered",
    ),
    (
        701,
        "cudaErrorLaunchOutOfResources",
        "too many resources requested for launch",
    ),
    (
        702,
        "cudaErrorLaunchTimeout",
        "the launch timed out and was terminated",
    ),
    (710, "cudaErrorAssert", "device-side assert triggered"),
    (714, "cudaErrorHardwareStackError", "hardware stack error"),
    (
        715,
        "cudaErrorIllegalInstruction",
        "an illegal instruction was encountered",
    ),
    (716, "cudaErrorMisalignedAddress", "misaligned address"),
    (719, "cudaErrorLaunchFailure", "unspecified launch failure"),
    (801, "cudaErrorNotSupported", "operation not supported"),
    (999, "cudaErrorUnknown", "unknown error"),
];

/// The runtime's code for a driver result.
pub fn from_driver(r: crate::driver::result::CUresult) -> CudaError {
    r
}

/// `cudaGetErrorName`'s answer (None for a code the runtime does not define here).
pub fn name(e: CudaError) -> Option<&'static str> {
    TABLE.iter().find(|t| t.0 == e).map(|t| t.1)
}

/// `cudaGetErrorString`'s answer.
pub fn message(e: CudaError) -> &'static str {
    TABLE
        .iter()
        .find(|t| t.0 == e)
        .map_or("unrecognized error code", |t| t.2)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_code_once() {
        let mut codes: Vec<_> = super::TABLE.iter().map(|t| t.0).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), super::TABLE.len());
        assert_eq!(
            super::message(700),
            "an illegal memory access was encountered"
        );
        assert_eq!(super::message(12345), "unrecognized error code");
    }
}

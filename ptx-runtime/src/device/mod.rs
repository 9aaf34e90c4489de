//! Devices that run kernels: the CUDA driver (`cuda.rs`) and the CPU emulator (`emulator/`).

pub mod cuda;
pub mod emulator;

use crate::errors::DeviceError;
use crate::present_table::DevAddr;
use crate::registry::{Image, Kernel};
use std::sync::Arc;

/// A kernel made ready to launch on one device.
#[derive(Clone, Debug)]
pub struct LoadedKernel {
    pub kernel: Arc<Kernel>,
    /// Device-specific handle (a `CUfunction` for CUDA; unused by the emulator).
    pub handle: usize,
    /// The block size the device suggests for it (CUDA occupancy API), if any.
    pub suggested_block: Option<u32>,
}

/// An image made ready on one device: its kernels and the device addresses of its globals.
#[derive(Clone, Debug, Default)]
pub struct LoadedImage {
    pub kernels: Vec<LoadedKernel>,
    pub globals: Vec<DevAddr>,
}

/// Grid and block of one launch (x, y, z).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchDims {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Dynamic shared memory per block, bytes.
    pub dyn_shared: u32,
}

/// What a device can take.
#[derive(Clone, Copy, Debug)]
pub struct DeviceLimits {
    pub max_block: u32,
    pub max_grid: u32,
    /// Largest grid chosen from a trip count alone (the emulator prefers few, long blocks).
    pub auto_grid_cap: u32,
    /// Grid used when neither num_teams nor a trip count says how many blocks to run.
    pub default_grid: u32,
    /// Block size used when nothing else decides it.
    pub default_block: u32,
}

pub trait Device: Send + Sync {
    /// E.g. "cuda: NVIDIA H100 80GB HBM3" or "emulator: 16 host threads".
    fn description(&self) -> String;
    fn limits(&self) -> DeviceLimits;
    /// Allocates `bytes` (> 0) of device memory, 256-byte aligned on the device.
    fn alloc(&self, bytes: u64) -> Result<DevAddr, DeviceError>;
    fn free(&self, addr: DevAddr) -> Result<(), DeviceError>;
    /// (free, total) bytes, when the device knows.
    fn memory_info(&self) -> Option<(u64, u64)>;
    /// # Safety
    /// `src` must be valid for reading `bytes` bytes; `dst` must be device memory of that size.
    unsafe fn copy_to_device(
        &self,
        dst: DevAddr,
        src: *const u8,
        bytes: u64,
    ) -> Result<(), DeviceError>;
    /// # Safety
    /// `dst` must be valid for writing `bytes` bytes; `src` must be device memory of that size.
    unsafe fn copy_from_device(
        &self,
        dst: *mut u8,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError>;
    fn copy_within_device(&self, dst: DevAddr, src: DevAddr, bytes: u64)
        -> Result<(), DeviceError>;
    /// Makes an image ready (PTX JIT, global addresses).
    fn load_image(&self, image: &Image) -> Result<LoadedImage, DeviceError>;
    /// Runs a kernel to completion. `params[i]` is the 8-byte value of parameter i.
    fn launch(
        &self,
        kernel: &LoadedKernel,
        params: &[u64],
        dims: &LaunchDims,
    ) -> Result<(), DeviceError>;
    /// Waits for everything queued on the device.
    fn synchronize(&self) -> Result<(), DeviceError>;
    /// Is `addr` memory that kernels on this device can use directly (a device allocation, or
    /// memory the driver made accessible to the device)? Used to accept pointers that reach a
    /// target region without a map because they already hold a device address
    /// (omp_target_alloc, acc_malloc, use_device_ptr).
    fn is_device_pointer(&self, addr: DevAddr) -> bool {
        let _ = addr;
        false
    }
    /// Can kernels dereference ordinary (pageable) host memory? True on the emulator; on a GPU
    /// only with HMM/ATS (CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS).
    fn can_access_host_memory(&self) -> bool {
        false
    }
}

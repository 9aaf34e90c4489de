//! Devices that run kernels: the CUDA driver (`cuda.rs`) and the CPU emulator (`emulator/`).

pub mod cuda;
pub mod emulator;

use crate::errors::DeviceError;
use crate::present_table::DevAddr;
use crate::registry::{Image, Kernel};
use std::sync::Arc;

/// A queue of device work (a CUDA stream). Work enqueued on one queue runs in order; work on
/// different queues may overlap. `SYNC_QUEUE` is no queue at all: an operation on it has completed
/// when the call returns, which is also what every `_on` operation of a device without queues
/// (the emulator) does.
pub type QueueHandle = u64;
pub const SYNC_QUEUE: QueueHandle = 0;
/// Largest copy a device stages through its own pinned buffers on a queue.
pub const STAGING_MAX: u64 = 16 << 20;

/// A kernel made ready to launch on one device.
#[derive(Clone, Debug)]
pub struct LoadedKernel {
    pub kernel: Arc<Kernel>,
    /// Device-specific handle (a `CUfunction` for CUDA; unused by the emulator).
    pub handle: usize,
    /// The block size the device suggests for it (CUDA occupancy API), if any.
    pub suggested_block: Option<u32>,
    /// Blocks of `suggested_block` threads the device keeps resident at once (the occupancy
    /// API's minimum grid for full occupancy), if it says.
    pub resident_blocks: Option<u32>,
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
    /// Blocks that run side by side (a GPU's multiprocessors, the emulator's host threads): a
    /// grid sized from a short trip count gets at least this many blocks where smaller blocks
    /// allow it (`launch_config`).
    pub multiprocessors: u32,
}

/// How another device can reach this device's memory directly, for copies between devices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerHandle {
    /// Its device memory is host memory of this process (the emulator).
    HostMemory,
    /// A CUDA context (`CUcontext`), for `cuMemcpyPeer`.
    CudaContext(usize),
    /// None: copies to and from it go through host memory.
    None,
}

pub trait Device: Send + Sync {
    /// E.g. "cuda: NVIDIA H100 80GB HBM3" or "emulator: 16 host threads".
    fn description(&self) -> String;
    fn limits(&self) -> DeviceLimits;
    /// Allocates `bytes` (> 0) of device memory, 256-byte aligned on the device.
    /// Whether the small mappings of one construct should share one allocation
    /// (`Mapper::pack_small`): on a GPU that saves an allocation and a free per mapping and
    /// puts a construct's scalars (reduction variables) in common sectors, as one CUDA buffer
    /// would. The emulator keeps one allocation each, behind guard pages that catch a kernel
    /// running past a small section.
    fn packs_small_mappings(&self) -> bool {
        false
    }
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
    /// Tells the device its OpenMP device number, what `omp_get_device_num()` answers in its
    /// kernels: before any image is loaded, and again if the runtime renumbers the devices (one
    /// that cannot load the program is left out) — the images loaded so far must follow.
    fn set_number(&self, number: i32) -> Result<(), DeviceError> {
        let _ = number;
        Ok(())
    }
    /// Runs a kernel to completion. `params[i]` is the 8-byte value of parameter i.
    fn launch(
        &self,
        kernel: &LoadedKernel,
        params: &[u64],
        dims: &LaunchDims,
    ) -> Result<(), DeviceError>;
    /// Waits for everything queued on the device.
    fn synchronize(&self) -> Result<(), DeviceError>;
    /// The device's modelled clock, seconds: on ptxsim with PTXSIM_STATS, the estimated time of
    /// every kernel it ran (`ptxsimModeledTime`). None elsewhere: what the runtime times (the
    /// layouts auto tunes, `layout/tune.rs`) it times by the host's clock.
    fn modeled_clock(&self) -> Option<f64> {
        None
    }
    /// The device memory's peak bandwidth, bytes a second (what the driver reports of its
    /// clock and bus width), for estimating what moving an array costs before it was timed
    /// (`layout/tune.rs`). None where it is not known (the emulator: host memory).
    fn memory_bandwidth(&self) -> Option<f64> {
        None
    }
    /// Is `addr` memory that kernels on this device can use directly (a device allocation, or
    /// memory the driver made accessible to the device)? Used to accept pointers that reach a
    /// target region without a map because they already hold a device address
    /// (omp_target_alloc, acc_malloc, use_device_ptr).
    fn is_device_pointer(&self, addr: DevAddr) -> bool {
        let _ = addr;
        false
    }
    /// Can this device run work asynchronously on queues? When false, `create_queue` gives
    /// `SYNC_QUEUE` and every `_on` operation is the synchronous one.
    fn supports_queues(&self) -> bool {
        false
    }
    /// A new queue (never `SYNC_QUEUE` on a device that supports queues). Queues live as long as
    /// the program.
    fn create_queue(&self) -> Result<QueueHandle, DeviceError> {
        Ok(SYNC_QUEUE)
    }
    /// Enqueues a host→device copy on `q`. Copies of up to `STAGING_MAX` bytes have read `src` when
    /// the call returns (it may be reused at once); larger ones from pinned host memory read it when
    /// the queue reaches them.
    ///
    /// # Safety
    /// As `copy_to_device`.
    unsafe fn copy_to_device_on(
        &self,
        q: QueueHandle,
        dst: DevAddr,
        src: *const u8,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        let _ = q;
        self.copy_to_device(dst, src, bytes)
    }
    /// Enqueues a device→host copy on `q`: `dst` holds the data once `queue_synchronize(q)` has
    /// returned; until then the caller must neither read nor write it.
    ///
    /// # Safety
    /// As `copy_from_device`, and `dst` must stay valid until the queue has passed the copy.
    unsafe fn copy_from_device_on(
        &self,
        q: QueueHandle,
        dst: *mut u8,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        let _ = q;
        self.copy_from_device(dst, src, bytes)
    }
    /// Enqueues a device→device copy on `q`.
    fn copy_within_device_on(
        &self,
        q: QueueHandle,
        dst: DevAddr,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        let _ = q;
        self.copy_within_device(dst, src, bytes)
    }
    /// Enqueues a kernel on `q` (faults are reported by the next `queue_synchronize(q)`).
    fn launch_on(
        &self,
        q: QueueHandle,
        kernel: &LoadedKernel,
        params: &[u64],
        dims: &LaunchDims,
    ) -> Result<(), DeviceError> {
        let _ = q;
        self.launch(kernel, params, dims)
    }
    /// Waits until everything enqueued on `q` has completed.
    fn queue_synchronize(&self, q: QueueHandle) -> Result<(), DeviceError> {
        let _ = q;
        Ok(())
    }
    /// Has everything enqueued on `q` completed?
    fn queue_is_idle(&self, q: QueueHandle) -> Result<bool, DeviceError> {
        let _ = q;
        Ok(true)
    }
    /// Makes the work enqueued on `waiter` from now on wait, on the device, for the work enqueued on
    /// `waited` so far (the host does not wait).
    fn queue_wait_for(&self, waiter: QueueHandle, waited: QueueHandle) -> Result<(), DeviceError> {
        let _ = (waiter, waited);
        Ok(())
    }
    /// How a peer reaches this device's memory (see `copy_from_peer`).
    fn peer_handle(&self) -> PeerHandle {
        PeerHandle::None
    }
    /// Copies `bytes` bytes of `from`'s device memory at `src` to this device's `dst`: directly
    /// between two emulated devices, with `cuMemcpyPeer` between two CUDA devices, else staged
    /// through host memory.
    fn copy_from_peer(
        &self,
        dst: DevAddr,
        from: &dyn Device,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        match (self.peer_handle(), from.peer_handle()) {
            (PeerHandle::HostMemory, PeerHandle::HostMemory) => {
                // SAFETY: both are emulator device memory (host memory) the caller vouches for.
                unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, bytes as usize) };
                Ok(())
            }
            _ => {
                let mut buf = vec![0u8; bytes as usize];
                // SAFETY: the buffer holds `bytes` bytes; the device ranges are the caller's.
                unsafe {
                    from.copy_from_device(buf.as_mut_ptr(), src, bytes)?;
                    self.copy_to_device(dst, buf.as_ptr(), bytes)
                }
            }
        }
    }
    /// Can kernels dereference ordinary (pageable) host memory? True on the emulator; on a GPU
    /// only with HMM/ATS (CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS).
    fn can_access_host_memory(&self) -> bool {
        false
    }
    /// Enqueues on `q` the layout conversion `plan` from `src` to `dst` (device memory of the
    /// plan's size, not overlapping): `crate::layout`.
    fn permute_on(
        &self,
        q: QueueHandle,
        dst: DevAddr,
        src: DevAddr,
        plan: &crate::layout::plan::PermutePlan,
    ) -> Result<(), DeviceError> {
        let _ = (q, dst, src, plan);
        Err(DeviceError::Unsupported(
            "this device cannot convert array layouts".into(),
        ))
    }
}

//! NVIDIA GPUs through the CUDA driver API, loaded at run time from libcuda.so.1 (cudarc's
//! dynamic loading), so executables build anywhere and use a GPU where one exists.
//!
//! Synchronous operations (`SYNC_QUEUE`) use the legacy default stream: copies are `cuMemcpy*`
//! and a launch waits for its kernel (`cuStreamSynchronize`), which is also where faults inside
//! the kernel are reported.
//!
//! Queues are blocking streams (`CU_STREAM_DEFAULT`), so the legacy default stream still orders
//! every synchronous operation after the queue work issued before it and before the queue work
//! issued after it. On a queue, copies of up to `STAGING_MAX` bytes go through pinned staging
//! buffers (a pageable device→host `cuMemcpyDtoHAsync` would block the host until it completes):
//! host→device data is copied into the buffer before the call returns; device→host data is
//! copied out of it by a host function (`cuLaunchHostFunc`) that the stream runs after the copy.
//! Staging buffers come back to a pool from those host functions, which make no CUDA calls.
//!
//! CI runs all of it on ptxsim (ptx-sim/, `lit --param device=ptxsim`), this project's
//! implementation of the driver API over a PTX simulator, which follows the driver API
//! documentation as this code does; on a GPU it has not run yet (no GPU has been lent to the
//! project so far).

use crate::device::{
    Device, DeviceLimits, LaunchDims, LoadedImage, LoadedKernel, PeerHandle, QueueHandle,
    STAGING_MAX, SYNC_QUEUE,
};
use crate::errors::DeviceError;
use crate::present_table::DevAddr;
use crate::registry::Image;
use cudarc::driver::sys::{
    self, CUcontext, CUdevice, CUdevice_attribute, CUevent, CUfunction, CUjit_option, CUmodule,
    CUresult, CUstream,
};
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::Mutex;

/// Smallest staging buffer (buffers are powers of two from here to `STAGING_MAX`).
const STAGING_MIN: usize = 64 << 10;
/// Pinned memory the staging pool may hold in all; beyond it, copies go unstaged (still correct:
/// pageable copies are then synchronous with the host).
const STAGING_TOTAL_MAX: usize = 256 << 20;

/// Pinned host buffers for copies on queues.
struct Staging {
    /// Free buffers: (address, capacity).
    free: Mutex<Vec<(usize, usize)>>,
    /// Capacity of every buffer allocated so far.
    total: Mutex<usize>,
}

impl Staging {
    /// A free buffer of at least `bytes` bytes, allocating one (the context must be current).
    fn take(&self, bytes: usize) -> Option<(usize, usize)> {
        let cap = bytes.max(STAGING_MIN).next_power_of_two();
        {
            let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(i) = (0..free.len())
                .filter(|&i| free[i].1 >= cap)
                .min_by_key(|&i| free[i].1)
            {
                return Some(free.swap_remove(i));
            }
        }
        let mut total = self.total.lock().unwrap_or_else(|p| p.into_inner());
        if *total + cap > STAGING_TOTAL_MAX {
            return None;
        }
        let mut p: *mut c_void = std::ptr::null_mut();
        // SAFETY: plain allocation; the caller made the context current.
        let r = unsafe { sys::cuMemAllocHost_v2(&mut p, cap) };
        if r != CUresult::CUDA_SUCCESS || p.is_null() {
            return None;
        }
        *total += cap;
        Some((p as usize, cap))
    }

    /// Returns a buffer to the pool. Makes no CUDA call, so host functions may call it.
    fn give(&self, buf: (usize, usize)) {
        self.free
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(buf);
    }
}

/// What a stream's host function does once a staged copy has completed.
struct StagedCopy {
    staging: &'static Staging,
    buf: (usize, usize),
    /// Device→host: where the data goes (0 for a host→device copy, which only frees the buffer).
    dst: usize,
    bytes: usize,
}

/// Host function run by the stream after a staged copy (no CUDA calls allowed here).
unsafe extern "C" fn staged_copy_done(user: *mut c_void) {
    let job = Box::from_raw(user as *mut StagedCopy);
    if job.dst != 0 && job.bytes > 0 {
        std::ptr::copy_nonoverlapping(job.buf.0 as *const u8, job.dst as *mut u8, job.bytes);
    }
    job.staging.give(job.buf);
}

pub struct CudaDevice {
    ordinal: i32,
    device: CUdevice,
    context: CUcontext,
    name: String,
    sm_count: u32,
    max_block: u32,
    max_grid: u32,
    pageable_memory_access: bool,
    compute_capability: (i32, i32),
    /// Peak memory bandwidth, bytes a second (None: the driver did not say).
    memory_bandwidth: Option<f64>,
    modules: Mutex<Vec<CUmodule>>,
    /// The OpenMP device number and where each loaded module keeps it (`__ptxcc_device_num`,
    /// in the modules whose kernels call `omp_get_device_num()`): rewritten when it changes.
    number: Mutex<(i32, Vec<sys::CUdeviceptr>)>,
    staging: &'static Staging,
}

// The driver's handles may be used from any thread once the context is made current there.
unsafe impl Send for CudaDevice {}
unsafe impl Sync for CudaDevice {}

/// `cuGetErrorName: cuGetErrorString` of a result.
pub fn error_text(r: CUresult) -> String {
    unsafe {
        let mut name: *const c_char = std::ptr::null();
        let mut text: *const c_char = std::ptr::null();
        sys::cuGetErrorName(r, &mut name);
        sys::cuGetErrorString(r, &mut text);
        let s = |p: *const c_char| {
            if p.is_null() {
                None
            } else {
                Some(CStr::from_ptr(p).to_string_lossy().into_owned())
            }
        };
        match (s(name), s(text)) {
            (Some(n), Some(t)) => format!("{n}: {t}"),
            (Some(n), None) => n,
            _ => format!("CUDA error {}", r as i32),
        }
    }
}

fn check(call: &'static str, r: CUresult) -> Result<(), DeviceError> {
    if r == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(DeviceError::Driver {
            call,
            message: error_text(r),
        })
    }
}

/// ptxsim's `ptxsimModeledTime(device, &seconds)`, when the driver library is ptxsim (a CUDA
/// driver has no such symbol).
type ModeledTime = unsafe extern "C" fn(CUdevice, *mut f64) -> i32;

fn modeled_time_call() -> Option<ModeledTime> {
    static CALL: std::sync::OnceLock<Option<ModeledTime>> = std::sync::OnceLock::new();
    *CALL.get_or_init(|| {
        // SAFETY: the library is loaded already (the devices are open); dlopen only counts one
        // more reference to it, and the symbol, when there, has ptxsim's signature.
        unsafe {
            let lib = libc::dlopen(
                c"libcuda.so.1".as_ptr(),
                libc::RTLD_LAZY | libc::RTLD_NOLOAD,
            );
            if lib.is_null() {
                return None;
            }
            let sym = libc::dlsym(lib, c"ptxsimModeledTime".as_ptr());
            (!sym.is_null()).then(|| std::mem::transmute::<*mut c_void, ModeledTime>(sym))
        }
    })
}

/// Why CUDA cannot be used, for messages.
pub fn driver_available() -> Result<(), String> {
    // SAFETY: only tries to dlopen the library.
    if unsafe { sys::is_culib_present() } {
        Ok(())
    } else {
        Err(
            "the CUDA driver library libcuda.so.1 was not found (no NVIDIA driver on this machine)"
                .into(),
        )
    }
}

/// Initialises the driver and opens every GPU. Never panics: a missing driver symbol (a very old
/// driver) is reported as an error.
pub fn open_all() -> Result<Vec<CudaDevice>, String> {
    driver_available()?;
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(open_all_inner);
    std::panic::set_hook(prev);
    match r {
        Ok(r) => r,
        Err(e) => {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(format!("the CUDA driver is too old or broken ({msg}); update the NVIDIA driver (CUDA 12 or newer)"))
        }
    }
}

fn open_all_inner() -> Result<Vec<CudaDevice>, String> {
    unsafe {
        let r = sys::cuInit(0);
        if r != CUresult::CUDA_SUCCESS {
            return Err(format!("cuInit failed: {}", error_text(r)));
        }
        let mut count: c_int = 0;
        let r = sys::cuDeviceGetCount(&mut count);
        if r != CUresult::CUDA_SUCCESS {
            return Err(format!("cuDeviceGetCount failed: {}", error_text(r)));
        }
        if count <= 0 {
            return Err("the CUDA driver reports no GPU".into());
        }
        let mut devices = Vec::new();
        for ordinal in 0..count {
            let mut dev: CUdevice = 0;
            check("cuDeviceGet", sys::cuDeviceGet(&mut dev, ordinal)).map_err(|e| e.to_string())?;
            let mut name = [0 as c_char; 256];
            sys::cuDeviceGetName(name.as_mut_ptr(), name.len() as c_int, dev);
            let name = CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned();
            let attr = |a: CUdevice_attribute| {
                let mut v: c_int = 0;
                sys::cuDeviceGetAttribute(&mut v, a, dev);
                v
            };
            let sm_count =
                attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).max(1) as u32;
            let max_block =
                attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK).max(1) as u32;
            let max_grid =
                attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X).max(1) as u32;
            let pageable_memory_access =
                attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS) != 0;
            let cc = (
                attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
            );
            // kHz, double data rate, bits: bytes a second.
            let memory_bandwidth = match (
                attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE),
                attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
            ) {
                (khz, bits) if khz > 0 && bits > 0 => {
                    Some(khz as f64 * 1e3 * 2.0 * bits as f64 / 8.0)
                }
                _ => None,
            };
            let mut ctx: CUcontext = std::ptr::null_mut();
            let r = sys::cuDevicePrimaryCtxRetain(&mut ctx, dev);
            if r != CUresult::CUDA_SUCCESS {
                return Err(format!(
                    "cannot create a context on GPU {ordinal} ({name}): {}",
                    error_text(r)
                ));
            }
            devices.push(CudaDevice {
                ordinal,
                device: dev,
                context: ctx,
                name,
                sm_count,
                max_block,
                max_grid,
                pageable_memory_access,
                compute_capability: cc,
                memory_bandwidth,
                modules: Mutex::new(Vec::new()),
                number: Mutex::new((ordinal, Vec::new())),
                // Lives as long as the program: host functions may still return buffers to it.
                staging: Box::leak(Box::new(Staging {
                    free: Mutex::new(Vec::new()),
                    total: Mutex::new(0),
                })),
            });
        }
        Ok(devices)
    }
}

/// The result of a kernel after its stream was synchronised.
fn kernel_result(lk: &LoadedKernel, r: CUresult) -> Result<(), DeviceError> {
    if r == CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    Err(DeviceError::Launch {
        message: format!(
            "kernel '{}' failed on the GPU: {} (an out-of-bounds access or a pointer that is not device memory; \
             run the program with PTXRT_DEVICE=emu, or on ptxsim with ptxcc's scripts/ptxsim-run, to locate it)",
            lk.kernel.name,
            error_text(r)
        ),
    })
}

impl CudaDevice {
    /// `cuLaunchKernel` on `stream` (NULL: the legacy default stream); does not wait.
    fn enqueue_kernel(
        &self,
        stream: CUstream,
        lk: &LoadedKernel,
        params: &[u64],
        dims: &LaunchDims,
    ) -> Result<(), DeviceError> {
        self.bind()?;
        // The driver reads the parameter values during cuLaunchKernel.
        let mut values: Vec<u64> = params.to_vec();
        let mut ptrs: Vec<*mut c_void> = values
            .iter_mut()
            .map(|v| v as *mut u64 as *mut c_void)
            .collect();
        let r = unsafe {
            sys::cuLaunchKernel(
                lk.handle as CUfunction,
                dims.grid[0],
                dims.grid[1],
                dims.grid[2],
                dims.block[0],
                dims.block[1],
                dims.block[2],
                dims.dyn_shared,
                stream,
                if ptrs.is_empty() {
                    std::ptr::null_mut()
                } else {
                    ptrs.as_mut_ptr()
                },
                std::ptr::null_mut(),
            )
        };
        if r != CUresult::CUDA_SUCCESS {
            return Err(DeviceError::Launch {
                message: format!(
                    "cannot launch kernel '{}' with grid {} x block {}: {}",
                    lk.kernel.name,
                    dims.grid[0],
                    dims.block[0],
                    error_text(r)
                ),
            });
        }
        Ok(())
    }

    /// Enqueues the host function that finishes a staged copy (copies a device→host result out of
    /// the buffer, gives the buffer back). If the driver refuses it, waits and does it here.
    unsafe fn after_staged_copy(
        &self,
        stream: CUstream,
        buf: (usize, usize),
        dst: usize,
        bytes: usize,
    ) -> Result<(), DeviceError> {
        let job = Box::into_raw(Box::new(StagedCopy {
            staging: self.staging,
            buf,
            dst,
            bytes,
        }));
        let r = sys::cuLaunchHostFunc(stream, Some(staged_copy_done), job as *mut c_void);
        if r == CUresult::CUDA_SUCCESS {
            return Ok(());
        }
        let s = sys::cuStreamSynchronize(stream);
        staged_copy_done(job as *mut c_void);
        check("cuStreamSynchronize", s)
    }

    /// Writes the device's number into `module`'s `__ptxcc_device_num` (the passes'
    /// `device_number`), if its kernels read it, and remembers where for `set_number`.
    fn record_device_number(&self, module: CUmodule) -> Result<(), DeviceError> {
        let (mut p, mut bytes): (sys::CUdeviceptr, usize) = (0, 0);
        let name = c"__ptxcc_device_num";
        let r = unsafe { sys::cuModuleGetGlobal_v2(&mut p, &mut bytes, module, name.as_ptr()) };
        if r != CUresult::CUDA_SUCCESS {
            // Only modules that call omp_get_device_num() have it.
            return Ok(());
        }
        if bytes != 4 {
            return Err(DeviceError::Unsupported(format!(
                "__ptxcc_device_num has {bytes} bytes in the PTX instead of 4"
            )));
        }
        let mut slot = self.number.lock().unwrap_or_else(|p| p.into_inner());
        // SAFETY: `p` is the module's 4-byte global, in this (bound) context.
        unsafe { self.copy_to_device(p, (&slot.0 as *const i32).cast(), 4)? };
        slot.1.push(p);
        Ok(())
    }

    fn bind(&self) -> Result<(), DeviceError> {
        // SAFETY: the context was retained in `open_all`.
        check("cuCtxSetCurrent", unsafe {
            sys::cuCtxSetCurrent(self.context)
        })
    }

    fn free_memory(&self) -> Option<u64> {
        self.memory_info().map(|(f, _)| f)
    }
}

impl Device for CudaDevice {
    fn peer_handle(&self) -> PeerHandle {
        PeerHandle::CudaContext(self.context as usize)
    }

    fn copy_from_peer(
        &self,
        dst: DevAddr,
        from: &dyn Device,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        match from.peer_handle() {
            PeerHandle::CudaContext(ctx) => {
                self.bind()?;
                // SAFETY: both contexts were retained in `open_all`; the ranges are the caller's.
                check("cuMemcpyPeer", unsafe {
                    sys::cuMemcpyPeer(dst, self.context, src, ctx as CUcontext, bytes as usize)
                })
            }
            PeerHandle::HostMemory => {
                // SAFETY: emulator device memory is host memory of `bytes` bytes at `src`.
                unsafe { self.copy_to_device(dst, src as *const u8, bytes) }
            }
            PeerHandle::None => {
                let mut buf = vec![0u8; bytes as usize];
                // SAFETY: the buffer holds `bytes` bytes; the device ranges are the caller's.
                unsafe {
                    from.copy_from_device(buf.as_mut_ptr(), src, bytes)?;
                    self.copy_to_device(dst, buf.as_ptr(), bytes)
                }
            }
        }
    }

    fn description(&self) -> String {
        format!(
            "cuda: {} (GPU {}, sm_{}{})",
            self.name, self.ordinal, self.compute_capability.0, self.compute_capability.1
        )
    }

    fn limits(&self) -> DeviceLimits {
        DeviceLimits {
            max_block: self.max_block,
            max_grid: self.max_grid,
            auto_grid_cap: self.max_grid,
            default_grid: self.sm_count.saturating_mul(4),
            default_block: 128,
            multiprocessors: self.sm_count.max(1),
        }
    }

    fn packs_small_mappings(&self) -> bool {
        true
    }

    fn alloc(&self, bytes: u64) -> Result<DevAddr, DeviceError> {
        self.bind()?;
        let mut p: sys::CUdeviceptr = 0;
        let r = unsafe { sys::cuMemAlloc_v2(&mut p, bytes.max(1) as usize) };
        match r {
            CUresult::CUDA_SUCCESS => Ok(p),
            CUresult::CUDA_ERROR_OUT_OF_MEMORY => Err(DeviceError::OutOfMemory {
                requested: bytes,
                free: self.free_memory(),
            }),
            r => Err(DeviceError::Driver {
                call: "cuMemAlloc",
                message: error_text(r),
            }),
        }
    }

    fn free(&self, addr: DevAddr) -> Result<(), DeviceError> {
        self.bind()?;
        check("cuMemFree", unsafe { sys::cuMemFree_v2(addr) })
    }

    fn memory_info(&self) -> Option<(u64, u64)> {
        self.bind().ok()?;
        let (mut free, mut total) = (0usize, 0usize);
        let r = unsafe { sys::cuMemGetInfo_v2(&mut free, &mut total) };
        (r == CUresult::CUDA_SUCCESS).then_some((free as u64, total as u64))
    }

    unsafe fn copy_to_device(
        &self,
        dst: DevAddr,
        src: *const u8,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        self.bind()?;
        check(
            "cuMemcpyHtoD",
            sys::cuMemcpyHtoD_v2(dst, src as *const c_void, bytes as usize),
        )
    }

    unsafe fn copy_from_device(
        &self,
        dst: *mut u8,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        self.bind()?;
        check(
            "cuMemcpyDtoH",
            sys::cuMemcpyDtoH_v2(dst as *mut c_void, src, bytes as usize),
        )
    }

    fn copy_within_device(
        &self,
        dst: DevAddr,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        self.bind()?;
        check("cuMemcpyDtoD", unsafe {
            sys::cuMemcpyDtoD_v2(dst, src, bytes as usize)
        })
    }

    fn permute_on(
        &self,
        q: QueueHandle,
        dst: DevAddr,
        src: DevAddr,
        plan: &crate::layout::plan::PermutePlan,
    ) -> Result<(), DeviceError> {
        self.bind()?;
        let stream: CUstream = if q == SYNC_QUEUE {
            std::ptr::null_mut()
        } else {
            q as CUstream
        };
        // SAFETY: the stream is this device's (or the default one), its context bound above.
        unsafe {
            crate::layout::cuda_kernels::enqueue(self.context as usize, stream, dst, src, plan)?;
        }
        if q == SYNC_QUEUE {
            check("cuStreamSynchronize", unsafe {
                sys::cuStreamSynchronize(std::ptr::null_mut())
            })?;
        }
        Ok(())
    }

    fn set_number(&self, number: i32) -> Result<(), DeviceError> {
        let mut slot = self.number.lock().unwrap_or_else(|p| p.into_inner());
        slot.0 = number;
        if !slot.1.is_empty() {
            self.bind()?;
        }
        for &p in &slot.1 {
            // SAFETY: `p` is the 4-byte `__ptxcc_device_num` of a module of this context.
            unsafe { self.copy_to_device(p, (&number as *const i32).cast(), 4)? };
        }
        Ok(())
    }

    fn load_image(&self, image: &Image) -> Result<LoadedImage, DeviceError> {
        self.bind()?;
        if image.ptx.is_null() {
            return Err(DeviceError::Unsupported(format!(
                "the device image of {} has no PTX",
                image.source_file
            )));
        }
        let mut error_log = vec![0u8; 64 << 10];
        let mut info_log = vec![0u8; 16 << 10];
        let mut opts = [
            CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            CUjit_option::CU_JIT_INFO_LOG_BUFFER,
            CUjit_option::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
        ];
        let mut vals: [*mut c_void; 4] = [
            error_log.as_mut_ptr() as *mut c_void,
            error_log.len() as *mut c_void,
            info_log.as_mut_ptr() as *mut c_void,
            info_log.len() as *mut c_void,
        ];
        let mut module: CUmodule = std::ptr::null_mut();
        let r = unsafe {
            sys::cuModuleLoadDataEx(
                &mut module,
                image.ptx as *const c_void,
                opts.len() as u32,
                opts.as_mut_ptr(),
                vals.as_mut_ptr(),
            )
        };
        if r != CUresult::CUDA_SUCCESS {
            let log = String::from_utf8_lossy(
                &error_log[..error_log.iter().position(|&b| b == 0).unwrap_or(0)],
            )
            .into_owned();
            let gpu = format!(
                "sm_{}{}",
                self.compute_capability.0, self.compute_capability.1
            );
            // PTX for a newer GPU than this one cannot run here: say how to build for it.
            let built: Option<i32> = image
                .arch
                .trim_start_matches("sm_")
                .trim_end_matches('a')
                .parse()
                .ok();
            let here = self.compute_capability.0 * 10 + self.compute_capability.1;
            let hint = if built.is_some_and(|b| b > here) {
                format!("; rebuild with --offload-arch={gpu} for this GPU")
            } else {
                String::new()
            };
            return Err(DeviceError::Jit {
                message: format!(
                    "{} (module of {}, built for {}, this GPU is {gpu}{hint})",
                    error_text(r),
                    image.source_file,
                    if image.arch.is_empty() {
                        "an unknown arch"
                    } else {
                        &image.arch
                    },
                ),
                log,
            });
        }
        self.modules
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(module);
        let mut kernels = Vec::with_capacity(image.kernels.len());
        for k in &image.kernels {
            let cname = CString::new(k.name.clone())
                .map_err(|_| DeviceError::Unsupported(format!("bad kernel name {:?}", k.name)))?;
            let mut f: CUfunction = std::ptr::null_mut();
            let r = unsafe { sys::cuModuleGetFunction(&mut f, module, cname.as_ptr()) };
            if r != CUresult::CUDA_SUCCESS {
                return Err(DeviceError::Driver {
                    call: "cuModuleGetFunction",
                    message: format!(
                        "kernel '{}' ({}) is not in the PTX of {}: {}",
                        k.name,
                        k.source,
                        image.source_file,
                        error_text(r)
                    ),
                });
            }
            let (mut min_grid, mut block): (c_int, c_int) = (0, 0);
            let r = unsafe {
                sys::cuOccupancyMaxPotentialBlockSize(&mut min_grid, &mut block, f, None, 0, 0)
            };
            let ok = r == CUresult::CUDA_SUCCESS && block > 0;
            let suggested_block = ok.then_some(block as u32);
            let resident_blocks = (ok && min_grid > 0).then_some(min_grid as u32);
            kernels.push(LoadedKernel {
                kernel: k.clone(),
                handle: f as usize,
                suggested_block,
                resident_blocks,
            });
        }
        self.record_device_number(module)?;
        let mut globals = Vec::with_capacity(image.globals.len());
        for g in &image.globals {
            let cname = CString::new(g.name.clone())
                .map_err(|_| DeviceError::Unsupported(format!("bad global name {:?}", g.name)))?;
            let (mut p, mut bytes): (sys::CUdeviceptr, usize) = (0, 0);
            let r =
                unsafe { sys::cuModuleGetGlobal_v2(&mut p, &mut bytes, module, cname.as_ptr()) };
            if r != CUresult::CUDA_SUCCESS {
                return Err(DeviceError::Driver {
                    call: "cuModuleGetGlobal",
                    message: format!(
                        "declare-target global '{}' of {} is not in its PTX: {}",
                        g.name,
                        image.source_file,
                        error_text(r)
                    ),
                });
            }
            if (bytes as u64) < g.size {
                return Err(DeviceError::Unsupported(format!(
                    "declare-target global '{}' of {} has {} bytes on the device but {} on the host",
                    g.name, image.source_file, bytes, g.size
                )));
            }
            globals.push(p);
        }
        Ok(LoadedImage { kernels, globals })
    }

    fn launch(
        &self,
        lk: &LoadedKernel,
        params: &[u64],
        dims: &LaunchDims,
    ) -> Result<(), DeviceError> {
        self.enqueue_kernel(std::ptr::null_mut(), lk, params, dims)?;
        // The legacy default stream: this kernel, and the queue work it waited for.
        let r = unsafe { sys::cuStreamSynchronize(std::ptr::null_mut()) };
        kernel_result(lk, r)
    }

    fn supports_queues(&self) -> bool {
        true
    }

    fn create_queue(&self) -> Result<QueueHandle, DeviceError> {
        self.bind()?;
        let mut s: CUstream = std::ptr::null_mut();
        // A blocking stream: ordered with the legacy default stream (see the module comment).
        check("cuStreamCreate", unsafe {
            sys::cuStreamCreate(&mut s, sys::CUstream_flags::CU_STREAM_DEFAULT as u32)
        })?;
        if s.is_null() {
            return Err(DeviceError::Driver {
                call: "cuStreamCreate",
                message: "returned a NULL stream".into(),
            });
        }
        Ok(s as QueueHandle)
    }

    unsafe fn copy_to_device_on(
        &self,
        q: QueueHandle,
        dst: DevAddr,
        src: *const u8,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        if q == SYNC_QUEUE {
            return self.copy_to_device(dst, src, bytes);
        }
        self.bind()?;
        let stream = q as CUstream;
        if bytes <= STAGING_MAX {
            if let Some(buf) = self.staging.take(bytes as usize) {
                std::ptr::copy_nonoverlapping(src, buf.0 as *mut u8, bytes as usize);
                let r =
                    sys::cuMemcpyHtoDAsync_v2(dst, buf.0 as *const c_void, bytes as usize, stream);
                if r != CUresult::CUDA_SUCCESS {
                    self.staging.give(buf);
                    return check("cuMemcpyHtoDAsync", r);
                }
                return self.after_staged_copy(stream, buf, 0, 0);
            }
        }
        // Pageable memory: the driver has copied it to its own staging memory when this returns.
        check(
            "cuMemcpyHtoDAsync",
            sys::cuMemcpyHtoDAsync_v2(dst, src as *const c_void, bytes as usize, stream),
        )
    }

    unsafe fn copy_from_device_on(
        &self,
        q: QueueHandle,
        dst: *mut u8,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        if q == SYNC_QUEUE {
            return self.copy_from_device(dst, src, bytes);
        }
        self.bind()?;
        let stream = q as CUstream;
        if bytes <= STAGING_MAX {
            if let Some(buf) = self.staging.take(bytes as usize) {
                let r =
                    sys::cuMemcpyDtoHAsync_v2(buf.0 as *mut c_void, src, bytes as usize, stream);
                if r != CUresult::CUDA_SUCCESS {
                    self.staging.give(buf);
                    return check("cuMemcpyDtoHAsync", r);
                }
                return self.after_staged_copy(stream, buf, dst as usize, bytes as usize);
            }
        }
        // Into pageable memory this returns when the copy is done; into pinned memory it is
        // asynchronous, as the caller expects.
        check(
            "cuMemcpyDtoHAsync",
            sys::cuMemcpyDtoHAsync_v2(dst as *mut c_void, src, bytes as usize, stream),
        )
    }

    fn copy_within_device_on(
        &self,
        q: QueueHandle,
        dst: DevAddr,
        src: DevAddr,
        bytes: u64,
    ) -> Result<(), DeviceError> {
        if q == SYNC_QUEUE {
            return self.copy_within_device(dst, src, bytes);
        }
        self.bind()?;
        check("cuMemcpyDtoDAsync", unsafe {
            sys::cuMemcpyDtoDAsync_v2(dst, src, bytes as usize, q as CUstream)
        })
    }

    fn launch_on(
        &self,
        q: QueueHandle,
        lk: &LoadedKernel,
        params: &[u64],
        dims: &LaunchDims,
    ) -> Result<(), DeviceError> {
        if q == SYNC_QUEUE {
            return self.launch(lk, params, dims);
        }
        self.enqueue_kernel(q as CUstream, lk, params, dims)
    }

    fn queue_synchronize(&self, q: QueueHandle) -> Result<(), DeviceError> {
        if q == SYNC_QUEUE {
            return Ok(());
        }
        self.bind()?;
        let r = unsafe { sys::cuStreamSynchronize(q as CUstream) };
        if r == CUresult::CUDA_SUCCESS {
            Ok(())
        } else {
            Err(DeviceError::Launch {
                message: format!(
                    "work queued on the GPU failed: {} (a kernel made an out-of-bounds access or used a pointer that \
                     is not device memory; run the program with PTXRT_DEVICE=emu, or on ptxsim with ptxcc's scripts/ptxsim-run, to locate it)",
                    error_text(r)
                ),
            })
        }
    }

    fn queue_is_idle(&self, q: QueueHandle) -> Result<bool, DeviceError> {
        if q == SYNC_QUEUE {
            return Ok(true);
        }
        self.bind()?;
        match unsafe { sys::cuStreamQuery(q as CUstream) } {
            CUresult::CUDA_SUCCESS => Ok(true),
            CUresult::CUDA_ERROR_NOT_READY => Ok(false),
            r => check("cuStreamQuery", r).map(|_| true),
        }
    }

    fn queue_wait_for(&self, waiter: QueueHandle, waited: QueueHandle) -> Result<(), DeviceError> {
        if waiter == waited {
            return Ok(());
        }
        self.bind()?;
        unsafe {
            let mut ev: CUevent = std::ptr::null_mut();
            check(
                "cuEventCreate",
                sys::cuEventCreate(&mut ev, sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32),
            )?;
            let r = sys::cuEventRecord(ev, waited as CUstream);
            let r = if r == CUresult::CUDA_SUCCESS {
                sys::cuStreamWaitEvent(waiter as CUstream, ev, 0)
            } else {
                r
            };
            // Destroying a recorded event that is still waited on is allowed: the driver releases
            // it once it has completed.
            sys::cuEventDestroy_v2(ev);
            check("cuEventRecord/cuStreamWaitEvent", r)
        }
    }

    fn synchronize(&self) -> Result<(), DeviceError> {
        self.bind()?;
        check("cuCtxSynchronize", unsafe { sys::cuCtxSynchronize() })
    }

    fn modeled_clock(&self) -> Option<f64> {
        let f = modeled_time_call()?;
        let mut t = 0.0;
        // SAFETY: ptxsim's call writes one f64.
        let r = unsafe { f(self.device, &mut t) };
        (r == 0).then_some(t)
    }

    fn memory_bandwidth(&self) -> Option<f64> {
        self.memory_bandwidth
    }

    fn can_access_host_memory(&self) -> bool {
        self.pageable_memory_access
    }

    fn is_device_pointer(&self, addr: DevAddr) -> bool {
        if addr == 0 || self.bind().is_err() {
            return false;
        }
        // The driver knows the pointer only if it allocated or registered it (device memory,
        // managed memory, pinned host memory, all accessible from kernels under UVA); for
        // ordinary pageable host memory the query fails with CUDA_ERROR_INVALID_VALUE.
        let mut memory_type: u32 = 0;
        let r = unsafe {
            sys::cuPointerGetAttribute(
                &mut memory_type as *mut u32 as *mut c_void,
                sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                addr,
            )
        };
        r == CUresult::CUDA_SUCCESS && memory_type != 0
    }
}

impl Drop for CudaDevice {
    fn drop(&mut self) {
        let _ = self.device;
    }
}

//! NVIDIA GPUs through the CUDA driver API, loaded at run time from libcuda.so.1 (cudarc's
//! dynamic loading), so executables build anywhere and use a GPU where one exists.
//!
//! Every operation is synchronous: data copies are `cuMemcpy*` and a launch waits for the kernel
//! (`cuCtxSynchronize`), which is also where faults inside the kernel are reported.

use crate::device::{Device, DeviceLimits, LaunchDims, LoadedImage, LoadedKernel};
use crate::errors::DeviceError;
use crate::present_table::DevAddr;
use crate::registry::Image;
use cudarc::driver::sys::{
    self, CUcontext, CUdevice, CUdevice_attribute, CUfunction, CUjit_option, CUmodule, CUresult,
};
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::Mutex;

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
    modules: Mutex<Vec<CUmodule>>,
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
                modules: Mutex::new(Vec::new()),
            });
        }
        Ok(devices)
    }
}

impl CudaDevice {
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
        }
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
            return Err(DeviceError::Jit {
                message: format!(
                    "{} (module of {}, built for {}, this GPU is sm_{}{})",
                    error_text(r),
                    image.source_file,
                    if image.arch.is_empty() {
                        "an unknown arch"
                    } else {
                        &image.arch
                    },
                    self.compute_capability.0,
                    self.compute_capability.1
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
            let suggested_block =
                (r == CUresult::CUDA_SUCCESS && block > 0).then_some(block as u32);
            kernels.push(LoadedKernel {
                kernel: k.clone(),
                handle: f as usize,
                suggested_block,
            });
        }
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
        self.bind()?;
        let mut values: Vec<u64> = params.to_vec();
        let mut ptrs: Vec<*mut c_void> = values
            .iter_mut()
            .map(|v| v as *mut u64 as *mut c_void)
            .collect();
        let k = &lk.kernel;
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
                std::ptr::null_mut(),
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
                    k.name,
                    dims.grid[0],
                    dims.block[0],
                    error_text(r)
                ),
            });
        }
        let r = unsafe { sys::cuCtxSynchronize() };
        if r != CUresult::CUDA_SUCCESS {
            return Err(DeviceError::Launch {
                message: format!(
                    "kernel '{}' failed on the GPU: {} (an out-of-bounds access or a pointer that is not device memory; \
                     run with PTXRT_DEVICE=emu to locate it on the CPU emulator)",
                    k.name,
                    error_text(r)
                ),
            });
        }
        Ok(())
    }

    fn synchronize(&self) -> Result<(), DeviceError> {
        self.bind()?;
        check("cuCtxSynchronize", unsafe { sys::cuCtxSynchronize() })
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

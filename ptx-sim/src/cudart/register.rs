//! The registration and launch ABI of nvcc's generated host code (crt/host_runtime.h):
//!
//! ```text
//! constructor:  h = __cudaRegisterFatBinary(&__fatDeviceText)      (the wrapper, fatbin.rs)
//!               __cudaRegisterFunction(h, stub, "_Z6kernelPf", "_Z6kernelPf", -1, 0…)
//!               __cudaRegisterVar(h, &shadow, "name", "name", ext, size, constant, global)
//!               __cudaRegisterFatBinaryEnd(h);   atexit → __cudaUnregisterFatBinary(h)
//! k<<<g, b, s, st>>>(args):  __cudaPushCallConfiguration(g, b, s, st); stub(args…):
//!               __cudaGetKernel(&handle, stub) (once) ; __cudaPopCallConfiguration(&g, &b, &s, &st)
//!               __cudaLaunchKernel(handle, g, b, {&arg0, &arg1, …}, s, st)
//! ```
#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use super::error::{self, CudaError};
use super::{call, finish, registry, FatBinary, Kernel, Variable};
use crate::driver::api::{cuLaunchKernel, CUstream};
use crate::driver::result;
use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::Mutex;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3 {
    pub x: c_uint,
    pub y: c_uint,
    pub z: c_uint,
}

struct CallConfiguration {
    grid: Dim3,
    block: Dim3,
    shared: usize,
    stream: CUstream,
}

thread_local! {
    /// `<<<…>>>` configurations pushed and not yet popped by their launch stub.
    static CONFIGURATIONS: RefCell<Vec<CallConfiguration>> = const { RefCell::new(Vec::new()) };
}

/// The PTX of the fat binary a wrapper points to, for the device's architecture.
unsafe fn read_wrapper(wrapper: *const c_void) -> Result<String, String> {
    if wrapper.is_null() {
        return Err("__cudaRegisterFatBinary: no fat binary".into());
    }
    let w = wrapper as *const u32;
    let (magic, version) = (*w, *w.add(1));
    let data = *(wrapper as *const *const u8).add(1);
    if magic != super::fatbin::WRAPPER_MAGIC {
        return Err(format!(
            "__cudaRegisterFatBinary: not a fat binary wrapper (magic {magic:#x})"
        ));
    }
    if version != 1 {
        return Err(format!(
            "__cudaRegisterFatBinary: a fat binary wrapper of version {version} (relocatable device code, -rdc, is not supported by ptxsim)"
        ));
    }
    if data.is_null() {
        return Err("__cudaRegisterFatBinary: the wrapper has no fat binary".into());
    }
    let head: &[u8; 16] = &*(data as *const [u8; 16]);
    let size = super::fatbin::size_from_header(head).map_err(|e| e.0)?;
    let bytes = std::slice::from_raw_parts(data, size);
    let cc = crate::driver::driver().machine().config.compute_capability;
    let arch = (cc.0 * 10 + cc.1) as u32;
    super::fatbin::select_ptx(bytes, arch).map_err(|e| format!("the program's fat binary: {e}"))
}

#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFatBinary(wrapper: *mut c_void) -> *mut *mut c_void {
    let ptx = std::panic::catch_unwind(|| read_wrapper(wrapper))
        .unwrap_or_else(|_| Err("__cudaRegisterFatBinary: unreadable fat binary".into()));
    let fb: &'static FatBinary = Box::leak(Box::new(FatBinary {
        ptx,
        module: Mutex::new(None),
    }));
    fb as *const FatBinary as *mut *mut c_void
}

#[no_mangle]
pub extern "C" fn __cudaRegisterFatBinaryEnd(_handle: *mut *mut c_void) {}

/// At exit: the module is unloaded (after the device's work), the registrations stay (the
/// program's stubs keep their addresses).
#[no_mangle]
pub unsafe extern "C" fn __cudaUnregisterFatBinary(handle: *mut *mut c_void) {
    let Some(fb) = (handle as *const FatBinary).as_ref() else {
        return;
    };
    let loaded = *fb.module.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(Ok(m)) = loaded {
        let _ = std::panic::catch_unwind(|| crate::driver::modules::cuModuleUnload(m as _));
    }
}

unsafe fn name_of(p: *const c_char) -> Option<String> {
    (!p.is_null()).then(|| CStr::from_ptr(p).to_string_lossy().into_owned())
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __cudaRegisterFunction(
    handle: *mut *mut c_void,
    host_fn: *const c_char,
    device_fn: *mut c_char,
    device_name: *const c_char,
    _thread_limit: c_int,
    _tid: *mut c_void,
    _bid: *mut c_void,
    _block_dim: *mut c_void,
    _grid_dim: *mut c_void,
    _warp_size: *mut c_int,
) {
    let Some(fatbin) = (handle as *const FatBinary).as_ref() else {
        return;
    };
    let Some(name) = name_of(device_name).or_else(|| name_of(device_fn)) else {
        return;
    };
    let k: &'static Kernel = Box::leak(Box::new(Kernel {
        fatbin,
        name,
        function: Mutex::new(None),
    }));
    let mut r = registry();
    r.kernels.insert(host_fn as usize, k);
    r.handles.insert(k as *const Kernel as usize);
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __cudaRegisterVar(
    handle: *mut *mut c_void,
    host_var: *mut c_char,
    _device_address: *mut c_char,
    device_name: *const c_char,
    _ext: c_int,
    _size: usize,
    _constant: c_int,
    _global: c_int,
) {
    let Some(fatbin) = (handle as *const FatBinary).as_ref() else {
        return;
    };
    let Some(name) = name_of(device_name) else {
        return;
    };
    let v: &'static Variable = Box::leak(Box::new(Variable { fatbin, name }));
    registry().variables.insert(host_var as usize, v);
}

/// Loads the fat binary's module now (1), or says it cannot (0).
#[no_mangle]
pub unsafe extern "C" fn __cudaInitModule(handle: *mut *mut c_void) -> c_char {
    let Some(fb) = (handle as *const FatBinary).as_ref() else {
        return 0;
    };
    (call(|| fb.module().err().unwrap_or(error::SUCCESS)) == error::SUCCESS) as c_char
}

#[no_mangle]
pub extern "C" fn __cudaPushCallConfiguration(
    grid: Dim3,
    block: Dim3,
    shared: usize,
    stream: CUstream,
) -> c_uint {
    CONFIGURATIONS.with(|c| {
        c.borrow_mut().push(CallConfiguration {
            grid,
            block,
            shared,
            stream,
        })
    });
    0
}

#[no_mangle]
pub unsafe extern "C" fn __cudaPopCallConfiguration(
    grid: *mut Dim3,
    block: *mut Dim3,
    shared: *mut usize,
    stream: *mut c_void,
) -> CudaError {
    let Some(c) = CONFIGURATIONS.with(|c| c.borrow_mut().pop()) else {
        return finish(error::MISSING_CONFIGURATION);
    };
    if grid.is_null() || block.is_null() || shared.is_null() || stream.is_null() {
        return finish(error::INVALID_VALUE);
    }
    *grid = c.grid;
    *block = c.block;
    *shared = c.shared;
    *(stream as *mut CUstream) = c.stream;
    error::SUCCESS
}

/// The `cudaKernel_t` of the kernel whose host stub is at `host_fn`.
#[no_mangle]
pub unsafe extern "C" fn __cudaGetKernel(
    kernel: *mut *mut c_void,
    host_fn: *const c_void,
) -> CudaError {
    call(|| match super::kernel_by_stub(host_fn) {
        Err(e) => e,
        Ok(_) if kernel.is_null() => error::INVALID_VALUE,
        Ok(k) => {
            *kernel = k as *const Kernel as *mut c_void;
            error::SUCCESS
        }
    })
}

/// Launches `k` through the driver (its module loaded at the first launch).
unsafe fn launch(
    k: &Kernel,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: CUstream,
) -> CudaError {
    let f = match k.function() {
        Ok(f) => f,
        Err(e) => return e,
    };
    let Ok(shared) = c_uint::try_from(shared) else {
        return error::INVALID_CONFIGURATION;
    };
    match cuLaunchKernel(
        f,
        grid.x,
        grid.y,
        grid.z,
        block.x,
        block.y,
        block.z,
        shared,
        stream,
        args,
        std::ptr::null_mut(),
    ) {
        // The driver's word for a grid or block the device cannot run.
        result::INVALID_VALUE => error::INVALID_CONFIGURATION,
        r => error::from_driver(r),
    }
}

#[no_mangle]
pub unsafe extern "C" fn __cudaLaunchKernel(
    kernel: *mut c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: CUstream,
) -> CudaError {
    call(|| {
        let known = registry().handles.contains(&(kernel as usize));
        if !known {
            return error::INVALID_DEVICE_FUNCTION;
        }
        // SAFETY: a registered handle is a leaked Kernel.
        let k = &*(kernel as *const Kernel);
        launch(k, grid, block, args, shared, stream)
    })
}

#[no_mangle]
pub unsafe extern "C" fn __cudaLaunchKernel_ptsz(
    kernel: *mut c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: CUstream,
) -> CudaError {
    __cudaLaunchKernel(kernel, grid, block, args, shared, stream)
}

/// `cudaLaunchKernel(func, …)`: `func` is the kernel's host stub.
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchKernel(
    host_fn: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: CUstream,
) -> CudaError {
    call(|| match super::kernel_by_stub(host_fn) {
        Err(e) => e,
        Ok(k) => launch(k, grid, block, args, shared, stream),
    })
}

/// `cudaLaunchConfig_t` (CUDA 12 and 13).
#[repr(C)]
pub struct LaunchConfig {
    pub grid: Dim3,
    pub block: Dim3,
    pub dynamic_shared: usize,
    pub stream: CUstream,
    pub attrs: *const LaunchAttribute,
    pub num_attrs: c_uint,
}

/// `cudaLaunchAttribute`: an id, then a 64-byte union whose first word is what the attributes
/// this runtime reads hold (`cooperative`, `clusterDim.x`, a flag, a priority).
#[repr(C)]
pub struct LaunchAttribute {
    pub id: c_int,
    pub pad: [u8; 4],
    pub val: [c_uint; 16],
}

/// What a launch attribute asks, as far as a launch on ptxsim goes.
#[derive(Debug, PartialEq, Eq)]
enum AttributeUse {
    /// Nothing ptxsim has to do: a hint (priority, L2 access policy, memory synchronisation
    /// domain), or an ordering that running the stream's work in order already gives
    /// (programmatic dependent launch: the kernel starts after its predecessor ends).
    Nothing,
    /// Something ptxsim cannot do: its name.
    Unsupported(&'static str),
}

/// `cudaLaunchAttributeID` values (driver_types.h, CUDA 13).
fn attribute_use(a: &LaunchAttribute) -> AttributeUse {
    let first = a.val[0];
    match a.id {
        // Ignore, AccessPolicyWindow, SynchronizationPolicy, ProgrammaticStreamSerialization,
        // ProgrammaticEvent, Priority, MemSyncDomainMap, MemSyncDomain.
        0 | 1 | 3 | 6 | 7 | 8 | 9 | 10 => AttributeUse::Nothing,
        2 if first == 0 => AttributeUse::Nothing,
        2 => AttributeUse::Unsupported("cudaLaunchAttributeCooperative (cooperative launches)"),
        // A cluster of 1x1x1 blocks is no cluster.
        4 | 11 if a.val[..3].iter().all(|&d| d <= 1) => AttributeUse::Nothing,
        4 => {
            AttributeUse::Unsupported("cudaLaunchAttributeClusterDimension (thread block clusters)")
        }
        11 => AttributeUse::Unsupported(
            "cudaLaunchAttributePreferredClusterDimension (thread block clusters)",
        ),
        _ => AttributeUse::Unsupported("a launch attribute this runtime does not know"),
    }
}

/// `cudaLaunchKernelEx(config, func, args…)` (the C++ template calls this): `func` is the
/// kernel's host stub. Attributes that change how the grid runs (cooperative launches,
/// clusters) are refused with `cudaErrorNotSupported`, and named on stderr.
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchKernelExC(
    config: *const LaunchConfig,
    host_fn: *const c_void,
    args: *mut *mut c_void,
) -> CudaError {
    call(|| {
        let Some(c) = config.as_ref() else {
            return error::INVALID_VALUE;
        };
        if c.num_attrs > 0 && c.attrs.is_null() {
            return error::INVALID_VALUE;
        }
        for i in 0..c.num_attrs as usize {
            if let AttributeUse::Unsupported(what) = attribute_use(&*c.attrs.add(i)) {
                eprintln!("ptxsim: cudaLaunchKernelExC: {what} is not supported");
                return error::NOT_SUPPORTED;
            }
        }
        match super::kernel_by_stub(host_fn) {
            Err(e) => e,
            Ok(k) => launch(k, c.grid, c.block, args, c.dynamic_shared, c.stream),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attribute(id: c_int, first: &[c_uint]) -> LaunchAttribute {
        let mut val = [0; 16];
        val[..first.len()].copy_from_slice(first);
        LaunchAttribute {
            id,
            pad: [0; 4],
            val,
        }
    }

    #[test]
    fn launch_structs_have_cudas_layout() {
        // driver_types.h: 8 bytes of id and padding, a 64-byte union; dim3, dim3, size_t, …
        assert_eq!(std::mem::size_of::<LaunchAttribute>(), 72);
        assert_eq!(std::mem::offset_of!(LaunchConfig, dynamic_shared), 24);
        assert_eq!(std::mem::offset_of!(LaunchConfig, stream), 32);
        assert_eq!(std::mem::offset_of!(LaunchConfig, attrs), 40);
        assert_eq!(std::mem::offset_of!(LaunchConfig, num_attrs), 48);
    }

    #[test]
    fn hints_pass_and_grid_changing_attributes_are_refused() {
        // Programmatic stream serialization on, a priority: nothing to do in stream order.
        assert_eq!(attribute_use(&attribute(6, &[1])), AttributeUse::Nothing);
        assert_eq!(attribute_use(&attribute(8, &[3])), AttributeUse::Nothing);
        assert_eq!(attribute_use(&attribute(2, &[0])), AttributeUse::Nothing);
        assert!(matches!(
            attribute_use(&attribute(2, &[1])),
            AttributeUse::Unsupported(w) if w.contains("Cooperative")
        ));
        assert_eq!(
            attribute_use(&attribute(4, &[1, 1, 1])),
            AttributeUse::Nothing
        );
        assert!(matches!(
            attribute_use(&attribute(4, &[2, 1, 1])),
            AttributeUse::Unsupported(w) if w.contains("ClusterDimension")
        ));
        assert!(matches!(
            attribute_use(&attribute(99, &[])),
            AttributeUse::Unsupported(_)
        ));
    }
}

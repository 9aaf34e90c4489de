//! The runtime calls, each made of driver calls (`crate::driver`), with CUDA 13's signatures.
#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use super::error::{self, CudaError};
use super::props::CudaDeviceProp;
use super::{call, driver_call, LAST_ERROR};
use crate::driver::api::*;
use std::ffi::{c_char, c_int, c_uint, c_void};

const MEMCPY_HOST_TO_HOST: c_int = 0;
const MEMCPY_HOST_TO_DEVICE: c_int = 1;
const MEMCPY_DEVICE_TO_HOST: c_int = 2;
const MEMCPY_DEVICE_TO_DEVICE: c_int = 3;
const MEMCPY_DEFAULT: c_int = 4;

unsafe fn out<T>(p: *mut T, v: T) -> CudaError {
    if p.is_null() {
        return error::INVALID_VALUE;
    }
    *p = v;
    error::SUCCESS
}

// --- errors and versions -----------------------------------------------------------------------

#[no_mangle]
pub extern "C" fn cudaGetLastError() -> CudaError {
    LAST_ERROR.with(|l| l.replace(error::SUCCESS))
}

#[no_mangle]
pub extern "C" fn cudaPeekAtLastError() -> CudaError {
    LAST_ERROR.with(|l| l.get())
}

#[no_mangle]
pub extern "C" fn cudaGetErrorString(e: CudaError) -> *const c_char {
    // The table's messages are static; the C strings are made once.
    static STRINGS: std::sync::OnceLock<std::collections::HashMap<i32, std::ffi::CString>> =
        std::sync::OnceLock::new();
    let m = STRINGS.get_or_init(|| {
        (-1..1000)
            .filter_map(|c| {
                let s = error::message(c);
                (c == -1 || error::name(c).is_some())
                    .then(|| (c, std::ffi::CString::new(s).unwrap_or_default()))
            })
            .collect()
    });
    m.get(&e)
        .or_else(|| m.get(&-1))
        .map_or(std::ptr::null(), |s| s.as_ptr())
}

#[no_mangle]
pub extern "C" fn cudaGetErrorName(e: CudaError) -> *const c_char {
    static NAMES: std::sync::OnceLock<std::collections::HashMap<i32, std::ffi::CString>> =
        std::sync::OnceLock::new();
    let m = NAMES.get_or_init(|| {
        (0..1000)
            .filter_map(|c| {
                error::name(c).map(|n| (c, std::ffi::CString::new(n).unwrap_or_default()))
            })
            .collect()
    });
    match m.get(&e) {
        Some(s) => s.as_ptr(),
        None => c"cudaErrorUnknown".as_ptr(),
    }
}

#[no_mangle]
pub unsafe extern "C" fn cudaRuntimeGetVersion(v: *mut c_int) -> CudaError {
    super::finish(out(v, 13000))
}

#[no_mangle]
pub unsafe extern "C" fn cudaDriverGetVersion(v: *mut c_int) -> CudaError {
    call(|| driver_call(cuDriverGetVersion(v)))
}

// --- device --------------------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceCount(n: *mut c_int) -> CudaError {
    call(|| driver_call(cuDeviceGetCount(n)))
}

#[no_mangle]
pub unsafe extern "C" fn cudaGetDevice(dev: *mut c_int) -> CudaError {
    call(|| out(dev, 0))
}

#[no_mangle]
pub extern "C" fn cudaSetDevice(dev: c_int) -> CudaError {
    call(|| {
        if dev == 0 {
            error::SUCCESS
        } else {
            error::INVALID_DEVICE
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetAttribute(
    v: *mut c_int,
    attr: c_int,
    dev: c_int,
) -> CudaError {
    // cudaDeviceAttr numbers are CUdevice_attribute's.
    call(|| driver_call(cuDeviceGetAttribute(v, attr, dev)))
}

#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceProperties(
    prop: *mut CudaDeviceProp,
    dev: c_int,
) -> CudaError {
    call(|| {
        if prop.is_null() {
            return error::INVALID_VALUE;
        }
        if dev != 0 {
            return error::INVALID_DEVICE;
        }
        let mut name = [0 as c_char; 256];
        let r = cuDeviceGetName(name.as_mut_ptr(), 256, 0);
        if r != 0 {
            return driver_call(r);
        }
        let name = std::ffi::CStr::from_ptr(name.as_ptr()).to_string_lossy();
        let mut total = 0usize;
        let r = cuDeviceTotalMem_v2(&mut total, 0);
        if r != 0 {
            return driver_call(r);
        }
        let attr = |a: c_int| {
            let mut v = 0;
            (cuDeviceGetAttribute(&mut v, a, 0) == 0).then_some(v)
        };
        prop.write(CudaDeviceProp::new(&name, total, attr));
        error::SUCCESS
    })
}

#[no_mangle]
pub extern "C" fn cudaDeviceSynchronize() -> CudaError {
    call(|| driver_call(crate::driver::api::cuCtxSynchronize()))
}

#[no_mangle]
pub extern "C" fn cudaDeviceSetLimit(limit: c_int, value: usize) -> CudaError {
    // cudaLimit numbers are CUlimit's.
    call(|| driver_call(cuCtxSetLimit(limit, value)))
}

#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetLimit(value: *mut usize, limit: c_int) -> CudaError {
    call(|| driver_call(cuCtxGetLimit(value, limit)))
}

// --- memory --------------------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn cudaMalloc(p: *mut *mut c_void, bytes: usize) -> CudaError {
    call(|| {
        if p.is_null() {
            return error::INVALID_VALUE;
        }
        if bytes == 0 {
            *p = std::ptr::null_mut();
            return error::SUCCESS;
        }
        let mut d: CUdeviceptr = 0;
        let r = cuMemAlloc_v2(&mut d, bytes);
        if r == 0 {
            *p = d as *mut c_void;
        }
        driver_call(r)
    })
}

#[no_mangle]
pub extern "C" fn cudaFree(p: *mut c_void) -> CudaError {
    call(|| {
        if p.is_null() {
            return error::SUCCESS;
        }
        driver_call(cuMemFree_v2(p as CUdeviceptr))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaMallocHost(p: *mut *mut c_void, bytes: usize) -> CudaError {
    call(|| driver_call(cuMemAllocHost_v2(p, bytes)))
}

#[no_mangle]
pub unsafe extern "C" fn cudaHostAlloc(
    p: *mut *mut c_void,
    bytes: usize,
    _flags: c_uint,
) -> CudaError {
    call(|| driver_call(cuMemAllocHost_v2(p, bytes)))
}

#[no_mangle]
pub unsafe extern "C" fn cudaFreeHost(p: *mut c_void) -> CudaError {
    call(|| driver_call(cuMemFreeHost(p)))
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemGetInfo(free: *mut usize, total: *mut usize) -> CudaError {
    call(|| driver_call(cuMemGetInfo_v2(free, total)))
}

/// A copy in the direction `kind` says, on `stream` when one is given (None: synchronous).
unsafe fn copy(
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
    kind: c_int,
    stream: Option<CUstream>,
) -> CudaError {
    let (d, s) = (dst as CUdeviceptr, src as CUdeviceptr);
    let r = match (kind, stream) {
        (MEMCPY_HOST_TO_DEVICE, None) => cuMemcpyHtoD_v2(d, src, bytes),
        (MEMCPY_HOST_TO_DEVICE, Some(st)) => cuMemcpyHtoDAsync_v2(d, src, bytes, st),
        (MEMCPY_DEVICE_TO_HOST, None) => cuMemcpyDtoH_v2(dst, s, bytes),
        (MEMCPY_DEVICE_TO_HOST, Some(st)) => cuMemcpyDtoHAsync_v2(dst, s, bytes, st),
        (MEMCPY_DEVICE_TO_DEVICE, None) => cuMemcpyDtoD_v2(d, s, bytes),
        (MEMCPY_DEVICE_TO_DEVICE, Some(st)) => cuMemcpyDtoDAsync_v2(d, s, bytes, st),
        (MEMCPY_HOST_TO_HOST, _) => {
            if bytes > 0 && (dst.is_null() || src.is_null()) {
                return error::INVALID_VALUE;
            }
            std::ptr::copy(src as *const u8, dst as *mut u8, bytes);
            0
        }
        // Unified addressing: the driver tells device from host memory.
        (MEMCPY_DEFAULT, None) => cuMemcpy(d, s, bytes),
        (MEMCPY_DEFAULT, Some(st)) => {
            let r = cuStreamSynchronize(st);
            if r != 0 {
                return driver_call(r);
            }
            cuMemcpy(d, s, bytes)
        }
        _ => return error::INVALID_MEMCPY_DIRECTION,
    };
    driver_call(r)
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy(
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
    kind: c_int,
) -> CudaError {
    call(|| copy(dst, src, bytes, kind, None))
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyAsync(
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
    kind: c_int,
    stream: CUstream,
) -> CudaError {
    call(|| copy(dst, src, bytes, kind, Some(stream)))
}

#[no_mangle]
pub extern "C" fn cudaMemset(p: *mut c_void, value: c_int, bytes: usize) -> CudaError {
    call(|| driver_call(cuMemsetD8_v2(p as CUdeviceptr, value as u8, bytes)))
}

#[no_mangle]
pub extern "C" fn cudaMemsetAsync(
    p: *mut c_void,
    value: c_int,
    bytes: usize,
    stream: CUstream,
) -> CudaError {
    call(|| {
        driver_call(cuMemsetD8Async(
            p as CUdeviceptr,
            value as u8,
            bytes,
            stream,
        ))
    })
}

/// The device range `[symbol + offset, + bytes)` of a registered variable.
fn symbol_range(symbol: *const c_void, offset: usize, bytes: usize) -> Result<u64, CudaError> {
    let (addr, size) = super::variable(symbol)?;
    match offset.checked_add(bytes) {
        Some(end) if end <= size => Ok(addr + offset as u64),
        _ => Err(error::INVALID_VALUE),
    }
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToSymbol(
    symbol: *const c_void,
    src: *const c_void,
    bytes: usize,
    offset: usize,
    kind: c_int,
) -> CudaError {
    call(|| match symbol_range(symbol, offset, bytes) {
        Err(e) => e,
        Ok(_)
            if kind != MEMCPY_HOST_TO_DEVICE
                && kind != MEMCPY_DEVICE_TO_DEVICE
                && kind != MEMCPY_DEFAULT =>
        {
            error::INVALID_MEMCPY_DIRECTION
        }
        Ok(d) => copy(d as *mut c_void, src, bytes, MEMCPY_DEFAULT, None),
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromSymbol(
    dst: *mut c_void,
    symbol: *const c_void,
    bytes: usize,
    offset: usize,
    kind: c_int,
) -> CudaError {
    call(|| match symbol_range(symbol, offset, bytes) {
        Err(e) => e,
        Ok(_)
            if kind != MEMCPY_DEVICE_TO_HOST
                && kind != MEMCPY_DEVICE_TO_DEVICE
                && kind != MEMCPY_DEFAULT =>
        {
            error::INVALID_MEMCPY_DIRECTION
        }
        Ok(s) => copy(dst, s as *const c_void, bytes, MEMCPY_DEFAULT, None),
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaGetSymbolAddress(
    p: *mut *mut c_void,
    symbol: *const c_void,
) -> CudaError {
    call(|| match super::variable(symbol) {
        Err(e) => e,
        Ok((addr, _)) => out(p, addr as *mut c_void),
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaGetSymbolSize(size: *mut usize, symbol: *const c_void) -> CudaError {
    call(|| match super::variable(symbol) {
        Err(e) => e,
        Ok((_, bytes)) => out(size, bytes),
    })
}

// --- streams and events --------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn cudaStreamCreate(s: *mut CUstream) -> CudaError {
    call(|| driver_call(cuStreamCreate(s, 0)))
}

#[no_mangle]
pub unsafe extern "C" fn cudaStreamCreateWithFlags(s: *mut CUstream, flags: c_uint) -> CudaError {
    call(|| driver_call(cuStreamCreate(s, flags)))
}

#[no_mangle]
pub extern "C" fn cudaStreamDestroy(s: CUstream) -> CudaError {
    call(|| driver_call(cuStreamDestroy_v2(s)))
}

#[no_mangle]
pub extern "C" fn cudaStreamSynchronize(s: CUstream) -> CudaError {
    call(|| driver_call(cuStreamSynchronize(s)))
}

#[no_mangle]
pub extern "C" fn cudaStreamQuery(s: CUstream) -> CudaError {
    call(|| driver_call(cuStreamQuery(s)))
}

#[no_mangle]
pub extern "C" fn cudaStreamWaitEvent(s: CUstream, ev: CUevent, flags: c_uint) -> CudaError {
    call(|| driver_call(cuStreamWaitEvent(s, ev, flags)))
}

#[no_mangle]
pub unsafe extern "C" fn cudaEventCreate(ev: *mut CUevent) -> CudaError {
    call(|| driver_call(cuEventCreate(ev, 0)))
}

#[no_mangle]
pub unsafe extern "C" fn cudaEventCreateWithFlags(ev: *mut CUevent, flags: c_uint) -> CudaError {
    call(|| driver_call(cuEventCreate(ev, flags)))
}

#[no_mangle]
pub extern "C" fn cudaEventDestroy(ev: CUevent) -> CudaError {
    call(|| driver_call(cuEventDestroy_v2(ev)))
}

#[no_mangle]
pub extern "C" fn cudaEventRecord(ev: CUevent, s: CUstream) -> CudaError {
    call(|| driver_call(cuEventRecord(ev, s)))
}

#[no_mangle]
pub extern "C" fn cudaEventSynchronize(ev: CUevent) -> CudaError {
    call(|| driver_call(cuEventSynchronize(ev)))
}

#[no_mangle]
pub extern "C" fn cudaEventQuery(ev: CUevent) -> CudaError {
    call(|| driver_call(cuEventQuery(ev)))
}

#[no_mangle]
pub unsafe extern "C" fn cudaEventElapsedTime(
    ms: *mut f32,
    start: CUevent,
    end: CUevent,
) -> CudaError {
    call(|| driver_call(cuEventElapsedTime(ms, start, end)))
}

// --- kernels: occupancy ----------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    n: *mut c_int,
    host_fn: *const c_void,
    block_size: c_int,
    dynamic_shared: usize,
    flags: c_uint,
) -> CudaError {
    call(|| {
        let f = match super::kernel_by_stub(host_fn).and_then(|k| k.function()) {
            Ok(f) => f,
            Err(e) => return e,
        };
        driver_call(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            n,
            f,
            block_size,
            dynamic_shared,
            flags,
        ))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    n: *mut c_int,
    host_fn: *const c_void,
    block_size: c_int,
    dynamic_shared: usize,
) -> CudaError {
    cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        n,
        host_fn,
        block_size,
        dynamic_shared,
        0,
    )
}

#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetAttributes(
    attr: *mut super::props::CudaFuncAttributes,
    host_fn: *const c_void,
) -> CudaError {
    call(|| {
        let f = match super::kernel_by_stub(host_fn).and_then(|k| k.function()) {
            Ok(f) => f,
            Err(e) => return e,
        };
        if attr.is_null() {
            return error::INVALID_VALUE;
        }
        // CUfunction_attribute: 0 max threads per block, 1 static shared, 2 constant, 3 local
        // bytes, 4 registers, 5 PTX version, 6 binary version.
        let mut v = [0 as c_int; 7];
        for (k, slot) in v.iter_mut().enumerate() {
            let r = cuFuncGetAttribute(slot, k as c_int, f);
            if r != 0 {
                return driver_call(r);
            }
        }
        // SAFETY: all-integer struct: zero is a valid value.
        let mut a: super::props::CudaFuncAttributes = std::mem::zeroed();
        a.max_threads_per_block = v[0];
        a.shared_size_bytes = v[1] as usize;
        a.const_size_bytes = v[2] as usize;
        a.local_size_bytes = v[3] as usize;
        a.num_regs = v[4];
        a.ptx_version = v[5];
        a.binary_version = v[6];
        // Dynamic shared memory a launch may ask for without opting in: 48 KiB less the static.
        a.max_dynamic_shared_size_bytes = (48 << 10) - v[1];
        a.preferred_shmem_carveout = -1;
        attr.write(a);
        error::SUCCESS
    })
}

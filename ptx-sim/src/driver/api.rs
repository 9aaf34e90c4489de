//! The exported driver functions (C ABI, CUDA's names including their `_v2` suffixes).
#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use super::result::{self, CUresult};
use super::{driver, lock, parse_arch, EventHandle, FunctionHandle, ModuleHandle};
use crate::exec::memory::{AllocKind, MemError};
use crate::exec::thread::FaultKind;
use crate::machine::{LaunchError, Machine};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::{Arc, Mutex};

pub type CUdevice = c_int;
pub type CUdeviceptr = u64;
pub type CUcontext = *mut c_void;
pub type CUmodule = *mut c_void;
pub type CUfunction = *mut c_void;
pub type CUstream = *mut c_void;
pub type CUevent = *mut c_void;
pub type CUhostFn = Option<unsafe extern "C" fn(*mut c_void)>;
pub type CUoccupancyB2DSize = Option<unsafe extern "C" fn(c_int) -> usize>;

/// The primary context's handle (any non-null pointer: there is one context).
static CONTEXT: u8 = 0;

fn context() -> CUcontext {
    &CONTEXT as *const u8 as CUcontext
}

/// Runs a driver call, never letting a panic cross the C boundary.
fn call(f: impl FnOnce() -> CUresult) -> CUresult {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(result::UNKNOWN)
}

/// Runs a driver call that needs cuInit and an intact context.
fn ready(f: impl FnOnce() -> CUresult) -> CUresult {
    call(|| {
        let d = driver();
        if !d.initialized.load(std::sync::atomic::Ordering::SeqCst) {
            return result::NOT_INITIALIZED;
        }
        match d.sticky() {
            result::SUCCESS => f(),
            r => r,
        }
    })
}

/// Like `ready`, but answers after a kernel fault too (queries).
fn initialized(f: impl FnOnce() -> CUresult) -> CUresult {
    call(|| {
        if !driver()
            .initialized
            .load(std::sync::atomic::Ordering::SeqCst)
        {
            return result::NOT_INITIALIZED;
        }
        f()
    })
}

unsafe fn out<T>(p: *mut T, v: T) -> CUresult {
    if p.is_null() {
        return result::INVALID_VALUE;
    }
    *p = v;
    result::SUCCESS
}

#[no_mangle]
pub extern "C" fn cuInit(flags: c_uint) -> CUresult {
    call(|| {
        if flags != 0 {
            return result::INVALID_VALUE;
        }
        driver()
            .initialized
            .store(true, std::sync::atomic::Ordering::SeqCst);
        result::SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDriverGetVersion(v: *mut c_int) -> CUresult {
    call(|| out(v, 12040))
}

#[no_mangle]
pub unsafe extern "C" fn cuGetErrorName(r: CUresult, s: *mut *const c_char) -> CUresult {
    call(|| match result::name(r) {
        Some(n) => out(s, n),
        None => result::INVALID_VALUE,
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuGetErrorString(r: CUresult, s: *mut *const c_char) -> CUresult {
    call(|| match result::description(r) {
        Some(n) => out(s, n),
        None => result::INVALID_VALUE,
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetCount(n: *mut c_int) -> CUresult {
    initialized(|| out(n, 1))
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGet(dev: *mut CUdevice, ordinal: c_int) -> CUresult {
    initialized(|| {
        if ordinal == 0 {
            out(dev, 0)
        } else {
            result::INVALID_DEVICE
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetName(name: *mut c_char, len: c_int, dev: CUdevice) -> CUresult {
    initialized(|| {
        if dev != 0 {
            return result::INVALID_DEVICE;
        }
        if name.is_null() || len <= 0 {
            return result::INVALID_VALUE;
        }
        let s = driver().machine.config.name.as_bytes();
        let n = s.len().min(len as usize - 1);
        std::ptr::copy_nonoverlapping(s.as_ptr() as *const c_char, name, n);
        *name.add(n) = 0;
        result::SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceTotalMem_v2(bytes: *mut usize, dev: CUdevice) -> CUresult {
    initialized(|| {
        if dev != 0 {
            result::INVALID_DEVICE
        } else {
            out(bytes, driver().machine.config.memory_bytes as usize)
        }
    })
}

/// The value of a device attribute (CUdevice_attribute numbers), for an H100-like device.
fn attribute(a: c_int) -> Option<c_int> {
    let c = &driver().machine.config;
    Some(match a {
        1 => 1024,                    // MAX_THREADS_PER_BLOCK
        2 | 3 => 1024,                // MAX_BLOCK_DIM_X, _Y
        4 => 64,                      // MAX_BLOCK_DIM_Z
        5 => i32::MAX,                // MAX_GRID_DIM_X
        6 | 7 => 65535,               // MAX_GRID_DIM_Y, _Z
        8 => 48 << 10,                // MAX_SHARED_MEMORY_PER_BLOCK
        9 => 64 << 10,                // TOTAL_CONSTANT_MEMORY
        10 => 32,                     // WARP_SIZE
        12 => 65536,                  // MAX_REGISTERS_PER_BLOCK
        13 => 1_755_000,              // CLOCK_RATE (kHz)
        15 => 1,                      // GPU_OVERLAP
        16 => c.sm_count as c_int,    // MULTIPROCESSOR_COUNT
        17 | 18 => 0,                 // KERNEL_EXEC_TIMEOUT, INTEGRATED
        19 => 1,                      // CAN_MAP_HOST_MEMORY
        31 => 1,                      // CONCURRENT_KERNELS
        36 => 2_619_000,              // MEMORY_CLOCK_RATE (kHz)
        37 => 5120,                   // GLOBAL_MEMORY_BUS_WIDTH
        38 => 50 << 20,               // L2_CACHE_SIZE
        39 => 2048,                   // MAX_THREADS_PER_MULTIPROCESSOR
        40 => 3,                      // ASYNC_ENGINE_COUNT
        41 => 1,                      // UNIFIED_ADDRESSING
        75 => c.compute_capability.0, // COMPUTE_CAPABILITY_MAJOR
        76 => c.compute_capability.1, // COMPUTE_CAPABILITY_MINOR
        81 => 228 << 10,              // MAX_SHARED_MEMORY_PER_MULTIPROCESSOR
        82 => 65536,                  // MAX_REGISTERS_PER_MULTIPROCESSOR
        83 => 0,                      // MANAGED_MEMORY
        88 | 89 => 0,                 // PAGEABLE_MEMORY_ACCESS, CONCURRENT_MANAGED_ACCESS
        97 => 227 << 10,              // MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
        106 => 32,                    // MAX_BLOCKS_PER_MULTIPROCESSOR
        _ => return None,
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetAttribute(
    v: *mut c_int,
    attrib: c_int,
    dev: CUdevice,
) -> CUresult {
    initialized(|| {
        if dev != 0 {
            return result::INVALID_DEVICE;
        }
        match attribute(attrib) {
            Some(a) => out(v, a),
            None => result::INVALID_VALUE,
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceComputeCapability(
    major: *mut c_int,
    minor: *mut c_int,
    dev: CUdevice,
) -> CUresult {
    initialized(|| {
        if dev != 0 {
            return result::INVALID_DEVICE;
        }
        let cc = driver().machine.config.compute_capability;
        match out(major, cc.0) {
            result::SUCCESS => out(minor, cc.1),
            r => r,
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRetain(ctx: *mut CUcontext, dev: CUdevice) -> CUresult {
    initialized(|| {
        if dev != 0 {
            result::INVALID_DEVICE
        } else {
            out(ctx, context())
        }
    })
}

#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxRelease_v2(dev: CUdevice) -> CUresult {
    initialized(|| {
        if dev != 0 {
            result::INVALID_DEVICE
        } else {
            result::SUCCESS
        }
    })
}

#[no_mangle]
pub extern "C" fn cuCtxSetCurrent(ctx: CUcontext) -> CUresult {
    initialized(|| {
        if ctx.is_null() || ctx == context() {
            result::SUCCESS
        } else {
            result::INVALID_CONTEXT
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetCurrent(ctx: *mut CUcontext) -> CUresult {
    initialized(|| out(ctx, context()))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetDevice(dev: *mut CUdevice) -> CUresult {
    initialized(|| out(dev, 0))
}

const LIMIT_STACK_SIZE: c_int = 0;
const LIMIT_PRINTF_FIFO_SIZE: c_int = 1;
const LIMIT_MALLOC_HEAP_SIZE: c_int = 2;

#[no_mangle]
pub extern "C" fn cuCtxSetLimit(limit: c_int, value: usize) -> CUresult {
    ready(|| match limit {
        LIMIT_MALLOC_HEAP_SIZE => {
            if driver().machine.set_heap_bytes(value as u64) {
                result::SUCCESS
            } else {
                // CUDA fixes the heap's size once a kernel has used it.
                result::INVALID_VALUE
            }
        }
        LIMIT_STACK_SIZE | LIMIT_PRINTF_FIFO_SIZE => result::SUCCESS,
        _ => result::NOT_SUPPORTED,
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetLimit(value: *mut usize, limit: c_int) -> CUresult {
    ready(|| match limit {
        LIMIT_MALLOC_HEAP_SIZE => out(value, driver().machine.heap_bytes() as usize),
        LIMIT_STACK_SIZE => out(value, 1024),
        LIMIT_PRINTF_FIFO_SIZE => out(value, 1 << 20),
        _ => result::NOT_SUPPORTED,
    })
}

#[no_mangle]
pub extern "C" fn cuCtxSynchronize() -> CUresult {
    ready(|| {
        driver().legacy_barrier();
        driver().sticky()
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemAlloc_v2(p: *mut CUdeviceptr, bytes: usize) -> CUresult {
    ready(|| {
        if bytes == 0 {
            return result::INVALID_VALUE;
        }
        match driver().machine.alloc(bytes as u64) {
            Ok(a) => out(p, a),
            Err(_) => result::OUT_OF_MEMORY,
        }
    })
}

#[no_mangle]
pub extern "C" fn cuMemFree_v2(p: CUdeviceptr) -> CUresult {
    ready(|| {
        if p == 0 {
            return result::SUCCESS;
        }
        // Freeing synchronises with the device: no kernel may still use the memory.
        driver().legacy_barrier();
        match driver().machine.memory.lookup(p) {
            Some((start, _, AllocKind::Device)) if start == p => {
                match driver().machine.memory.free(p) {
                    Ok(_) => result::SUCCESS,
                    Err(_) => result::INVALID_VALUE,
                }
            }
            _ => result::INVALID_VALUE,
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemGetInfo_v2(free: *mut usize, total: *mut usize) -> CUresult {
    ready(|| {
        let m = &driver().machine.memory;
        let cap = m.capacity();
        match out(free, cap.saturating_sub(m.used()) as usize) {
            result::SUCCESS => out(total, cap as usize),
            r => r,
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemAllocHost_v2(p: *mut *mut c_void, bytes: usize) -> CUresult {
    ready(|| {
        match driver()
            .machine
            .memory
            .alloc(bytes.max(1) as u64, 4096, AllocKind::PinnedHost)
        {
            Ok(a) => out(p, a as *mut c_void),
            Err(MemError::OutOfMemory) | Err(MemError::NotAllocated) => result::OUT_OF_MEMORY,
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemFreeHost(p: *mut c_void) -> CUresult {
    ready(|| {
        driver().legacy_barrier();
        match driver().machine.memory.lookup(p as u64) {
            Some((start, _, AllocKind::PinnedHost)) if start == p as u64 => {
                let _ = driver().machine.memory.free(start);
                result::SUCCESS
            }
            _ => result::INVALID_VALUE,
        }
    })
}

/// Whether `[addr, addr + bytes)` is memory the device can address (device or pinned memory).
fn device_range(addr: u64, bytes: usize) -> bool {
    driver().machine.memory.contains(addr, bytes as u64)
}

fn is_pinned(p: u64) -> bool {
    matches!(
        driver().machine.memory.lookup(p),
        Some((_, _, AllocKind::PinnedHost))
    )
}

/// A copy of `bytes` bytes from `src` to `dst` (host addresses on both sides, in ptxsim).
#[derive(Clone, Copy)]
struct Copy {
    dst: usize,
    src: usize,
    bytes: usize,
}

impl Copy {
    fn run(self) -> CUresult {
        // SAFETY: the caller validated the device side; the host side is the program's promise,
        // as with the real driver.
        unsafe { std::ptr::copy(self.src as *const u8, self.dst as *mut u8, self.bytes) };
        result::SUCCESS
    }
}

#[no_mangle]
pub extern "C" fn cuMemcpyHtoD_v2(dst: CUdeviceptr, src: *const c_void, bytes: usize) -> CUresult {
    ready(|| {
        if bytes == 0 {
            return result::SUCCESS;
        }
        if !device_range(dst, bytes) || src.is_null() {
            return result::INVALID_VALUE;
        }
        driver().legacy_barrier();
        Copy {
            dst: dst as usize,
            src: src as usize,
            bytes,
        }
        .run()
    })
}

#[no_mangle]
pub extern "C" fn cuMemcpyDtoH_v2(dst: *mut c_void, src: CUdeviceptr, bytes: usize) -> CUresult {
    ready(|| {
        if bytes == 0 {
            return result::SUCCESS;
        }
        if !device_range(src, bytes) || dst.is_null() {
            return result::INVALID_VALUE;
        }
        driver().legacy_barrier();
        Copy {
            dst: dst as usize,
            src: src as usize,
            bytes,
        }
        .run()
    })
}

#[no_mangle]
pub extern "C" fn cuMemcpyDtoD_v2(dst: CUdeviceptr, src: CUdeviceptr, bytes: usize) -> CUresult {
    ready(|| {
        if bytes == 0 {
            return result::SUCCESS;
        }
        if !device_range(src, bytes) || !device_range(dst, bytes) {
            return result::INVALID_VALUE;
        }
        driver().legacy_barrier();
        Copy {
            dst: dst as usize,
            src: src as usize,
            bytes,
        }
        .run()
    })
}

#[no_mangle]
pub extern "C" fn cuMemcpyHtoDAsync_v2(
    dst: CUdeviceptr,
    src: *const c_void,
    bytes: usize,
    stream: CUstream,
) -> CUresult {
    ready(|| {
        if bytes == 0 {
            return result::SUCCESS;
        }
        if !device_range(dst, bytes) || src.is_null() {
            return result::INVALID_VALUE;
        }
        let d = driver();
        if is_pinned(src as u64) {
            // From pinned memory the copy reads the source when the stream gets to it.
            let c = Copy {
                dst: dst as usize,
                src: src as usize,
                bytes,
            };
            d.submit(stream as usize, Box::new(move || c.run()))
        } else {
            // From pageable memory the driver stages the data before returning.
            // SAFETY: the program promises `src` holds `bytes` bytes.
            let staged = unsafe { std::slice::from_raw_parts(src as *const u8, bytes) }.to_vec();
            let dst = dst as usize;
            d.submit(
                stream as usize,
                Box::new(move || {
                    Copy {
                        dst,
                        src: staged.as_ptr() as usize,
                        bytes,
                    }
                    .run()
                }),
            )
        }
    })
}

#[no_mangle]
pub extern "C" fn cuMemcpyDtoHAsync_v2(
    dst: *mut c_void,
    src: CUdeviceptr,
    bytes: usize,
    stream: CUstream,
) -> CUresult {
    ready(|| {
        if bytes == 0 {
            return result::SUCCESS;
        }
        if !device_range(src, bytes) || dst.is_null() {
            return result::INVALID_VALUE;
        }
        let d = driver();
        let c = Copy {
            dst: dst as usize,
            src: src as usize,
            bytes,
        };
        if is_pinned(dst as u64) {
            d.submit(stream as usize, Box::new(move || c.run()))
        } else {
            // Into pageable memory the call returns once the copy is done.
            match d.stream(stream as usize) {
                Err(e) => e,
                Ok(Some(s)) => {
                    s.synchronize();
                    match d.sticky() {
                        result::SUCCESS => c.run(),
                        r => r,
                    }
                }
                Ok(None) => {
                    d.legacy_barrier();
                    c.run()
                }
            }
        }
    })
}

#[no_mangle]
pub extern "C" fn cuMemcpyDtoDAsync_v2(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    bytes: usize,
    stream: CUstream,
) -> CUresult {
    ready(|| {
        if bytes == 0 {
            return result::SUCCESS;
        }
        if !device_range(src, bytes) || !device_range(dst, bytes) {
            return result::INVALID_VALUE;
        }
        let c = Copy {
            dst: dst as usize,
            src: src as usize,
            bytes,
        };
        driver().submit(stream as usize, Box::new(move || c.run()))
    })
}

#[no_mangle]
pub extern "C" fn cuMemsetD8_v2(dst: CUdeviceptr, value: u8, count: usize) -> CUresult {
    ready(|| {
        if count == 0 {
            return result::SUCCESS;
        }
        if !device_range(dst, count) {
            return result::INVALID_VALUE;
        }
        driver().legacy_barrier();
        // SAFETY: validated device range.
        unsafe { std::ptr::write_bytes(dst as *mut u8, value, count) };
        result::SUCCESS
    })
}

#[no_mangle]
pub extern "C" fn cuMemsetD32_v2(dst: CUdeviceptr, value: c_uint, count: usize) -> CUresult {
    ready(|| {
        if count == 0 {
            return result::SUCCESS;
        }
        if dst % 4 != 0 || !device_range(dst, count * 4) {
            return result::INVALID_VALUE;
        }
        driver().legacy_barrier();
        // SAFETY: validated, aligned device range.
        unsafe { std::slice::from_raw_parts_mut(dst as *mut u32, count).fill(value) };
        result::SUCCESS
    })
}

/// Writes `text` into a JIT log buffer of `size` bytes (NUL-terminated, truncated to fit).
unsafe fn write_log(buf: *mut c_void, size: usize, text: &str) -> usize {
    if buf.is_null() || size == 0 {
        return 0;
    }
    let n = text.len().min(size - 1);
    std::ptr::copy_nonoverlapping(text.as_ptr(), buf as *mut u8, n);
    *(buf as *mut u8).add(n) = 0;
    n + 1
}

const JIT_INFO_LOG_BUFFER: c_int = 3;
const JIT_INFO_LOG_BUFFER_SIZE_BYTES: c_int = 4;
const JIT_ERROR_LOG_BUFFER: c_int = 5;
const JIT_ERROR_LOG_BUFFER_SIZE_BYTES: c_int = 6;

#[no_mangle]
pub unsafe extern "C" fn cuModuleLoadDataEx(
    module: *mut CUmodule,
    image: *const c_void,
    num_options: c_uint,
    options: *mut c_int,
    values: *mut *mut c_void,
) -> CUresult {
    ready(|| {
        if module.is_null() || image.is_null() {
            return result::INVALID_VALUE;
        }
        let mut logs: [(*mut c_void, usize, Option<usize>); 2] = [
            (std::ptr::null_mut(), 0, None),
            (std::ptr::null_mut(), 0, None),
        ];
        if num_options > 0 && (options.is_null() || values.is_null()) {
            return result::INVALID_VALUE;
        }
        for i in 0..num_options as usize {
            let v = *values.add(i);
            match *options.add(i) {
                JIT_INFO_LOG_BUFFER => logs[0].0 = v,
                JIT_INFO_LOG_BUFFER_SIZE_BYTES => {
                    logs[0].1 = v as usize;
                    logs[0].2 = Some(i);
                }
                JIT_ERROR_LOG_BUFFER => logs[1].0 = v,
                JIT_ERROR_LOG_BUFFER_SIZE_BYTES => {
                    logs[1].1 = v as usize;
                    logs[1].2 = Some(i);
                }
                _ => {}
            }
        }
        let report = |which: usize, text: &str| {
            let (buf, size, slot) = logs[which];
            let n = write_log(buf, size, text);
            if let Some(i) = slot {
                *values.add(i) = n as *mut c_void;
            }
        };
        let text = CStr::from_ptr(image as *const c_char).to_string_lossy();
        if !text.contains(".version") {
            report(
                1,
                "ptxsim: the image is not PTX text (cubins and fatbins are not supported)",
            );
            return result::INVALID_PTX;
        }
        let d = driver();
        match d.machine.load(&text) {
            Ok(m) => {
                let cc = d.machine.config.compute_capability;
                if let Some(target) = parse_arch(&m.program.target) {
                    if target > cc {
                        report(
                            1,
                            &format!(
                                "ptxsim: the PTX is for {}, this device is sm_{}{}",
                                m.program.target, cc.0, cc.1
                            ),
                        );
                        d.machine.unload(m);
                        return result::NO_BINARY_FOR_GPU;
                    }
                }
                report(
                    0,
                    &format!("ptxsim: loaded {} functions", m.program.functions.len()),
                );
                report(1, "");
                let h = Box::into_raw(Box::new(ModuleHandle {
                    module: m,
                    functions: Mutex::new(Default::default()),
                }));
                lock(&d.modules).insert(h as usize);
                out(module, h as CUmodule)
            }
            Err(e) => {
                report(1, &format!("ptxsim: ptx {e}"));
                report(0, "");
                result::INVALID_PTX
            }
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleLoadData(module: *mut CUmodule, image: *const c_void) -> CUresult {
    cuModuleLoadDataEx(module, image, 0, std::ptr::null_mut(), std::ptr::null_mut())
}

#[no_mangle]
pub extern "C" fn cuModuleUnload(module: CUmodule) -> CUresult {
    ready(|| {
        let d = driver();
        if d.module(module as usize).is_err() {
            return result::INVALID_HANDLE;
        }
        d.legacy_barrier();
        lock(&d.modules).remove(&(module as usize));
        // SAFETY: registered by cuModuleLoadDataEx, unregistered just now.
        let h = unsafe { Box::from_raw(module as *mut ModuleHandle) };
        {
            let mut fs = lock(&d.functions);
            for f in lock(&h.functions).values() {
                fs.remove(&(&**f as *const FunctionHandle as usize));
            }
        }
        let ModuleHandle { module, .. } = *h;
        d.machine.unload(module);
        result::SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleGetFunction(
    f: *mut CUfunction,
    module: CUmodule,
    name: *const c_char,
) -> CUresult {
    ready(|| {
        let d = driver();
        let m = match d.module(module as usize) {
            Ok(m) => m,
            Err(e) => return e,
        };
        if name.is_null() {
            return result::INVALID_VALUE;
        }
        let name = CStr::from_ptr(name).to_string_lossy().into_owned();
        let program = &m.module.program;
        let Some(&k) = program.function_index.get(&name) else {
            return result::NOT_FOUND;
        };
        if !program.functions[k].is_entry {
            return result::NOT_FOUND;
        }
        let mut fs = lock(&m.functions);
        let h = fs.entry(name).or_insert_with(|| {
            Box::new(FunctionHandle {
                program: program.clone(),
                kernel: k,
            })
        });
        let p = &**h as *const FunctionHandle as usize;
        lock(&d.functions).insert(p);
        out(f, p as CUfunction)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleGetGlobal_v2(
    p: *mut CUdeviceptr,
    bytes: *mut usize,
    module: CUmodule,
    name: *const c_char,
) -> CUresult {
    ready(|| {
        let m = match driver().module(module as usize) {
            Ok(m) => m,
            Err(e) => return e,
        };
        if name.is_null() {
            return result::INVALID_VALUE;
        }
        let name = CStr::from_ptr(name).to_string_lossy();
        match m.module.program.global(&name) {
            Some(g) => {
                if !p.is_null() {
                    *p = g.addr;
                }
                if !bytes.is_null() {
                    *bytes = g.bytes as usize;
                }
                result::SUCCESS
            }
            None => result::NOT_FOUND,
        }
    })
}

/// Blocks of `block` threads one multiprocessor keeps resident (threads, blocks and shared
/// memory limit it; registers are not modelled).
fn blocks_per_sm(block: u32, shared: u64) -> u32 {
    let by_threads = 2048 / block.max(1);
    let by_shared = if shared == 0 {
        u32::MAX
    } else {
        ((228u64 << 10) / shared) as u32
    };
    by_threads.min(32).min(by_shared)
}

#[no_mangle]
pub unsafe extern "C" fn cuOccupancyMaxPotentialBlockSize(
    min_grid: *mut c_int,
    block_size: *mut c_int,
    f: CUfunction,
    shared_of_block: CUoccupancyB2DSize,
    dynamic_shared: usize,
    block_limit: c_int,
) -> CUresult {
    ready(|| {
        let d = driver();
        let h = match d.function(f as usize) {
            Ok(h) => h,
            Err(e) => return e,
        };
        let func = &h.program.functions[h.kernel];
        let mut most = 1024u32;
        if let Some(m) = func.reqntid.or(func.maxntid) {
            most = most.min(m.iter().product());
        }
        if block_limit > 0 {
            most = most.min(block_limit as u32);
        }
        // The largest multiple of 32 with the most resident threads.
        let (mut best, mut best_threads) = (most.min(32).max(1), 0u32);
        let mut b = 32;
        while b <= most {
            let shared = h.program.dynamic_shared_offset as u64
                + match shared_of_block {
                    Some(cb) => cb(b as c_int) as u64,
                    None => dynamic_shared as u64,
                };
            let resident = blocks_per_sm(b, shared) * b;
            if resident >= best_threads {
                best = b;
                best_threads = resident;
            }
            b += 32;
        }
        let shared = h.program.dynamic_shared_offset as u64 + dynamic_shared as u64;
        let grid = blocks_per_sm(best, shared).max(1) * d.machine.config.sm_count;
        match out(block_size, best as c_int) {
            result::SUCCESS => out(min_grid, grid as c_int),
            r => r,
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuFuncGetAttribute(
    v: *mut c_int,
    attrib: c_int,
    f: CUfunction,
) -> CUresult {
    ready(|| {
        let h = match driver().function(f as usize) {
            Ok(h) => h,
            Err(e) => return e,
        };
        let func = &h.program.functions[h.kernel];
        let value = match attrib {
            0 => func
                .reqntid
                .or(func.maxntid)
                .map(|m| m.iter().product::<u32>().min(1024))
                .unwrap_or(1024) as c_int,
            1 => h.program.shared_bytes as c_int,
            2 => 0,
            3 => func.local_bytes as c_int,
            4 => h.program.registers(h.kernel).min(255) as c_int,
            5 | 6 => {
                driver().machine.config.compute_capability.0 * 10
                    + driver().machine.config.compute_capability.1
            }
            _ => return result::INVALID_VALUE,
        };
        out(v, value)
    })
}

fn fault_result(kind: FaultKind) -> CUresult {
    match kind {
        FaultKind::IllegalAddress => result::ILLEGAL_ADDRESS,
        FaultKind::MisalignedAddress => result::MISALIGNED_ADDRESS,
        FaultKind::Trap => result::LAUNCH_FAILED,
        FaultKind::Assert => result::ASSERT,
        FaultKind::StackOverflow => result::HARDWARE_STACK_ERROR,
        FaultKind::IllegalInstruction => result::ILLEGAL_INSTRUCTION,
        FaultKind::Deadlock => result::LAUNCH_TIMEOUT,
        FaultKind::Race => result::LAUNCH_FAILED,
    }
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cuLaunchKernel(
    f: CUfunction,
    gx: c_uint,
    gy: c_uint,
    gz: c_uint,
    bx: c_uint,
    by: c_uint,
    bz: c_uint,
    shared: c_uint,
    stream: CUstream,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> CUresult {
    ready(|| {
        let d = driver();
        let h = match d.function(f as usize) {
            Ok(h) => h,
            Err(e) => return e,
        };
        if !extra.is_null() {
            return result::NOT_SUPPORTED;
        }
        let program = h.program.clone();
        let kernel = h.kernel;
        let func = &program.functions[kernel];
        if !func.params.is_empty() && params.is_null() {
            return result::INVALID_VALUE;
        }
        let mut args: Vec<&[u8]> = Vec::with_capacity(func.params.len());
        for (k, (_, bytes)) in func.params.iter().enumerate() {
            let p = *params.add(k) as *const u8;
            if p.is_null() {
                return result::INVALID_VALUE;
            }
            args.push(std::slice::from_raw_parts(p, *bytes as usize));
        }
        let buf = match Machine::parameters(&program, kernel, &args) {
            Ok(b) => b,
            Err(_) => return result::INVALID_VALUE,
        };
        let (grid, block) = ([gx, gy, gz], [bx, by, bz]);
        if let Err(e) = d
            .machine
            .check_launch(&program, kernel, grid, block, shared)
        {
            eprintln!("ptxsim: cannot launch {}: {e}", func.name);
            return result::INVALID_VALUE;
        }
        let job = Box::new(move || {
            let d = driver();
            let name = &program.functions[kernel].name;
            let t0 = std::time::Instant::now();
            match d.machine.launch(&program, name, grid, block, shared, &buf) {
                Ok(outcome) => {
                    if !outcome.printed.is_empty() {
                        use std::io::Write;
                        let mut o = std::io::stdout().lock();
                        let _ = o.write_all(&outcome.printed);
                        let _ = o.flush();
                    }
                    d.record_launch(name, outcome.instructions, t0.elapsed().as_secs_f64());
                    result::SUCCESS
                }
                Err(LaunchError::Fault(f)) => {
                    eprintln!("ptxsim: kernel fault: {f}");
                    fault_result(f.fault.kind)
                }
                Err(e) => {
                    eprintln!("ptxsim: cannot launch {name}: {e:?}");
                    result::LAUNCH_FAILED
                }
            }
        });
        d.submit(stream as usize, job)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuStreamCreate(stream: *mut CUstream, _flags: c_uint) -> CUresult {
    ready(|| out(stream, driver().create_stream() as CUstream))
}

#[no_mangle]
pub extern "C" fn cuStreamDestroy_v2(stream: CUstream) -> CUresult {
    ready(|| {
        let d = driver();
        match d.stream(stream as usize) {
            Ok(Some(s)) => {
                // Work already queued still runs; the handle goes.
                s.synchronize();
                lock(&d.streams).remove(&(stream as usize));
                result::SUCCESS
            }
            Ok(None) => result::INVALID_HANDLE,
            Err(e) => e,
        }
    })
}

#[no_mangle]
pub extern "C" fn cuStreamSynchronize(stream: CUstream) -> CUresult {
    ready(|| {
        let d = driver();
        match d.stream(stream as usize) {
            Err(e) => e,
            Ok(Some(s)) => {
                s.synchronize();
                d.sticky()
            }
            Ok(None) => {
                d.legacy_barrier();
                d.sticky()
            }
        }
    })
}

#[no_mangle]
pub extern "C" fn cuStreamQuery(stream: CUstream) -> CUresult {
    ready(|| {
        let d = driver();
        match d.stream(stream as usize) {
            Err(e) => e,
            Ok(Some(s)) => {
                if s.is_idle() {
                    d.sticky()
                } else {
                    result::NOT_READY
                }
            }
            Ok(None) => {
                if d.streams().iter().all(|s| s.is_idle()) {
                    d.sticky()
                } else {
                    result::NOT_READY
                }
            }
        }
    })
}

#[no_mangle]
pub extern "C" fn cuLaunchHostFunc(stream: CUstream, f: CUhostFn, data: *mut c_void) -> CUresult {
    ready(|| {
        let Some(f) = f else {
            return result::INVALID_VALUE;
        };
        let data = data as usize;
        // SAFETY: the program promises `f` may be called with `data` once the stream gets here.
        driver().submit(
            stream as usize,
            Box::new(move || unsafe {
                f(data as *mut c_void);
                result::SUCCESS
            }),
        )
    })
}

fn event(h: CUevent) -> Result<&'static EventHandle, CUresult> {
    if !lock(&driver().events).contains(&(h as usize)) {
        return Err(result::INVALID_HANDLE);
    }
    // SAFETY: registered by cuEventCreate, unregistered before being freed.
    Ok(unsafe { &*(h as *const EventHandle) })
}

#[no_mangle]
pub unsafe extern "C" fn cuEventCreate(ev: *mut CUevent, _flags: c_uint) -> CUresult {
    ready(|| {
        let h = Box::into_raw(Box::new(EventHandle {
            recorded: Mutex::new(None),
        }));
        lock(&driver().events).insert(h as usize);
        out(ev, h as CUevent)
    })
}

#[no_mangle]
pub extern "C" fn cuEventDestroy_v2(ev: CUevent) -> CUresult {
    initialized(|| {
        if event(ev).is_err() {
            return result::INVALID_HANDLE;
        }
        lock(&driver().events).remove(&(ev as usize));
        // A stream waiting on it holds its own copy of what it waits for (see cuStreamWaitEvent).
        // SAFETY: registered by cuEventCreate, unregistered just now.
        drop(unsafe { Box::from_raw(ev as *mut EventHandle) });
        result::SUCCESS
    })
}

#[no_mangle]
pub extern "C" fn cuEventRecord(ev: CUevent, stream: CUstream) -> CUresult {
    ready(|| {
        let e = match event(ev) {
            Ok(e) => e,
            Err(r) => return r,
        };
        let d = driver();
        let r = match d.stream(stream as usize) {
            Err(r) => return r,
            Ok(Some(s)) => {
                let t = s.position();
                Some((s, t))
            }
            // The legacy stream's work is done when its call returns.
            Ok(None) => None,
        };
        *lock(&e.recorded) = r;
        result::SUCCESS
    })
}

#[no_mangle]
pub extern "C" fn cuEventSynchronize(ev: CUevent) -> CUresult {
    ready(|| {
        let e = match event(ev) {
            Ok(e) => e,
            Err(r) => return r,
        };
        let r = lock(&e.recorded).clone();
        if let Some((s, t)) = r {
            s.wait_for(t);
        }
        driver().sticky()
    })
}

#[no_mangle]
pub extern "C" fn cuEventQuery(ev: CUevent) -> CUresult {
    ready(|| {
        let e = match event(ev) {
            Ok(e) => e,
            Err(r) => return r,
        };
        let r = lock(&e.recorded).clone();
        match r {
            Some((s, t)) if !s.reached(t) => result::NOT_READY,
            _ => driver().sticky(),
        }
    })
}

#[no_mangle]
pub extern "C" fn cuStreamWaitEvent(stream: CUstream, ev: CUevent, _flags: c_uint) -> CUresult {
    ready(|| {
        let e = match event(ev) {
            Ok(e) => e,
            Err(r) => return r,
        };
        let Some((waited, ticket)) = lock(&e.recorded).clone() else {
            return result::SUCCESS;
        };
        let d = driver();
        match d.stream(stream as usize) {
            Err(r) => r,
            Ok(Some(s)) => {
                let waited: Arc<_> = waited;
                s.enqueue(Box::new(move || {
                    waited.wait_for(ticket);
                    result::SUCCESS
                }));
                result::SUCCESS
            }
            Ok(None) => {
                waited.wait_for(ticket);
                result::SUCCESS
            }
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuPointerGetAttribute(
    data: *mut c_void,
    attribute: c_int,
    p: CUdeviceptr,
) -> CUresult {
    ready(|| {
        if data.is_null() {
            return result::INVALID_VALUE;
        }
        let Some((start, _, kind)) = driver().machine.memory.lookup(p) else {
            return result::INVALID_VALUE;
        };
        let _ = start;
        match attribute {
            1 => out(data as *mut CUcontext, context()),
            // MEMORY_TYPE: CU_MEMORYTYPE_HOST = 1, _DEVICE = 2.
            2 => out(
                data as *mut c_uint,
                if kind == AllocKind::PinnedHost { 1 } else { 2 },
            ),
            3 | 4 => out(data as *mut u64, p),
            _ => result::INVALID_VALUE,
        }
    })
}

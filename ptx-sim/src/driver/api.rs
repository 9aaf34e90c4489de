//! The exported driver functions (C ABI, CUDA's names including their `_v2` suffixes).
#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use super::context::device_index;
use super::result::{self, CUresult};
use super::{driver, lock, EventHandle};
use crate::exec::memory::{AllocKind, MemError};
use crate::exec::thread::FaultKind;
use crate::machine::{LaunchError, Machine};
use std::ffi::{c_char, c_int, c_uint, c_void};
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

/// Runs a driver call, never letting a panic cross the C boundary.
pub(super) fn call(f: impl FnOnce() -> CUresult) -> CUresult {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(result::UNKNOWN)
}

/// Runs a driver call that needs cuInit and an intact context.
pub(super) fn ready(f: impl FnOnce() -> CUresult) -> CUresult {
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
pub(super) fn initialized(f: impl FnOnce() -> CUresult) -> CUresult {
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

pub(super) unsafe fn out<T>(p: *mut T, v: T) -> CUresult {
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
    initialized(|| out(n, driver().device_count() as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGet(dev: *mut CUdevice, ordinal: c_int) -> CUresult {
    initialized(|| match device_index(ordinal) {
        Some(d) => out(dev, d as CUdevice),
        None => result::INVALID_DEVICE,
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetName(name: *mut c_char, len: c_int, dev: CUdevice) -> CUresult {
    initialized(|| {
        if device_index(dev).is_none() {
            return result::INVALID_DEVICE;
        }
        if name.is_null() || len <= 0 {
            return result::INVALID_VALUE;
        }
        let s = driver().machine().config.name.as_bytes();
        let n = s.len().min(len as usize - 1);
        std::ptr::copy_nonoverlapping(s.as_ptr() as *const c_char, name, n);
        *name.add(n) = 0;
        result::SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceTotalMem_v2(bytes: *mut usize, dev: CUdevice) -> CUresult {
    initialized(|| {
        if device_index(dev).is_none() {
            result::INVALID_DEVICE
        } else {
            out(bytes, driver().machine().config.memory_bytes as usize)
        }
    })
}

/// The value of a device attribute (CUdevice_attribute numbers), for an H100-like device.
fn attribute(a: c_int) -> Option<c_int> {
    let c = &driver().machine().config;
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
        20 => 0,                      // COMPUTE_MODE (default)
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
        if device_index(dev).is_none() {
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
        if device_index(dev).is_none() {
            return result::INVALID_DEVICE;
        }
        let cc = driver().machine().config.compute_capability;
        match out(major, cc.0) {
            result::SUCCESS => out(minor, cc.1),
            r => r,
        }
    })
}

const LIMIT_STACK_SIZE: c_int = 0;
const LIMIT_PRINTF_FIFO_SIZE: c_int = 1;
const LIMIT_MALLOC_HEAP_SIZE: c_int = 2;

#[no_mangle]
pub extern "C" fn cuCtxSetLimit(limit: c_int, value: usize) -> CUresult {
    ready(|| match limit {
        LIMIT_MALLOC_HEAP_SIZE => {
            if driver().machine().set_heap_bytes(value as u64) {
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
        LIMIT_MALLOC_HEAP_SIZE => out(value, driver().machine().heap_bytes() as usize),
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
        match driver().machine().alloc(bytes as u64) {
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
        let Some((_, machine)) = driver().owner(p) else {
            return result::INVALID_VALUE;
        };
        match machine.memory.lookup(p) {
            Some((start, _, AllocKind::Device)) if start == p => match machine.memory.free(p) {
                Ok(_) => result::SUCCESS,
                Err(_) => result::INVALID_VALUE,
            },
            _ => result::INVALID_VALUE,
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemGetInfo_v2(free: *mut usize, total: *mut usize) -> CUresult {
    ready(|| {
        let m = &driver().machine().memory;
        let cap = m.capacity();
        match out(free, cap.saturating_sub(m.used()) as usize) {
            result::SUCCESS => out(total, cap as usize),
            r => r,
        }
    })
}

/// The allocation containing `p`: its start and size.
#[no_mangle]
pub unsafe extern "C" fn cuMemGetAddressRange_v2(
    base: *mut CUdeviceptr,
    size: *mut usize,
    p: CUdeviceptr,
) -> CUresult {
    ready(
        || match driver().owner(p).and_then(|(_, m)| m.memory.lookup(p)) {
            Some((start, bytes, AllocKind::Device | AllocKind::Module)) => {
                if !base.is_null() {
                    *base = start;
                }
                if !size.is_null() {
                    *size = bytes as usize;
                }
                result::SUCCESS
            }
            _ => result::NOT_FOUND,
        },
    )
}

/// The device address of pinned host memory: the same address (unified addressing).
#[no_mangle]
pub unsafe extern "C" fn cuMemHostGetDevicePointer_v2(
    dp: *mut CUdeviceptr,
    p: *mut c_void,
    flags: c_uint,
) -> CUresult {
    ready(|| {
        if flags != 0 {
            return result::INVALID_VALUE;
        }
        if is_pinned(p as u64) {
            out(dp, p as u64)
        } else {
            result::INVALID_VALUE
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuMemAllocHost_v2(p: *mut *mut c_void, bytes: usize) -> CUresult {
    ready(|| {
        match driver()
            .machine()
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
        let Some((_, machine)) = driver().owner(p as u64) else {
            return result::INVALID_VALUE;
        };
        match machine.memory.lookup(p as u64) {
            Some((start, _, AllocKind::PinnedHost)) if start == p as u64 => {
                let _ = machine.memory.free(start);
                result::SUCCESS
            }
            _ => result::INVALID_VALUE,
        }
    })
}

/// Whether `[addr, addr + bytes)` is memory a device can address (device or pinned memory of
/// any device: unified addressing).
fn device_range(addr: u64, bytes: usize) -> bool {
    driver()
        .owner(addr)
        .is_some_and(|(_, m)| m.memory.contains(addr, bytes as u64))
}

fn is_pinned(p: u64) -> bool {
    matches!(
        driver().owner(p).and_then(|(_, m)| m.memory.lookup(p)),
        Some((_, _, AllocKind::PinnedHost))
    )
}

/// A copy of `bytes` bytes from `src` to `dst` (host addresses on both sides, in ptxsim).
#[derive(Clone, Copy)]
pub(super) struct Copy {
    dst: usize,
    src: usize,
    bytes: usize,
}

impl Copy {
    pub(super) fn run(self) -> CUresult {
        // SAFETY: the caller validated the device side; the host side is the program's promise,
        // as with the real driver.
        unsafe { std::ptr::copy(self.src as *const u8, self.dst as *mut u8, self.bytes) };
        result::SUCCESS
    }
}

/// The checks every copy routine starts with: `Ok(None)` when there is nothing to copy,
/// INVALID_VALUE unless `valid`, else the copy to make.
pub(super) fn checked_copy(
    dst: usize,
    src: usize,
    bytes: usize,
    valid: bool,
) -> Result<Option<Copy>, CUresult> {
    match (bytes, valid) {
        (0, _) => Ok(None),
        (_, false) => Err(result::INVALID_VALUE),
        _ => Ok(Some(Copy { dst, src, bytes })),
    }
}

/// A synchronous copy (cuMemcpy*): after the legacy default stream's work, as the driver orders
/// it.
pub(super) fn copy_now(dst: usize, src: usize, bytes: usize, valid: bool) -> CUresult {
    ready(|| match checked_copy(dst, src, bytes, valid) {
        Err(e) => e,
        Ok(None) => result::SUCCESS,
        Ok(Some(c)) => {
            driver().legacy_barrier();
            c.run()
        }
    })
}

/// A copy between any two addresses (unified addressing): device memory is checked, the rest
/// is the program's host memory.
#[no_mangle]
pub extern "C" fn cuMemcpy(dst: CUdeviceptr, src: CUdeviceptr, bytes: usize) -> CUresult {
    // An address of device memory must have `bytes` there; anything else is the program's.
    let valid = dst != 0
        && src != 0
        && [dst, src]
            .iter()
            .all(|&p| driver().owner(p).is_none() || device_range(p, bytes));
    copy_now(dst as usize, src as usize, bytes, valid)
}

#[no_mangle]
pub extern "C" fn cuMemcpyHtoD_v2(dst: CUdeviceptr, src: *const c_void, bytes: usize) -> CUresult {
    let valid = device_range(dst, bytes) && !src.is_null();
    copy_now(dst as usize, src as usize, bytes, valid)
}

#[no_mangle]
pub extern "C" fn cuMemcpyDtoH_v2(dst: *mut c_void, src: CUdeviceptr, bytes: usize) -> CUresult {
    let valid = device_range(src, bytes) && !dst.is_null();
    copy_now(dst as usize, src as usize, bytes, valid)
}

#[no_mangle]
pub extern "C" fn cuMemcpyDtoD_v2(dst: CUdeviceptr, src: CUdeviceptr, bytes: usize) -> CUresult {
    let valid = device_range(src, bytes) && device_range(dst, bytes);
    let r = copy_now(dst as usize, src as usize, bytes, valid);
    if r == result::SUCCESS {
        driver().model_copy(dst, bytes);
    }
    r
}

#[no_mangle]
pub extern "C" fn cuMemcpyHtoDAsync_v2(
    dst: CUdeviceptr,
    src: *const c_void,
    bytes: usize,
    stream: CUstream,
) -> CUresult {
    let valid = device_range(dst, bytes) && !src.is_null();
    ready(
        || match checked_copy(dst as usize, src as usize, bytes, valid) {
            Err(e) => e,
            Ok(None) => result::SUCCESS,
            // From pinned memory the copy reads the source when the stream gets to it.
            Ok(Some(c)) if is_pinned(src as u64) => {
                driver().submit(stream as usize, Box::new(move || c.run()))
            }
            Ok(Some(_)) => {
                // From pageable memory the driver stages the data before returning.
                // SAFETY: the program promises `src` holds `bytes` bytes.
                let staged =
                    unsafe { std::slice::from_raw_parts(src as *const u8, bytes) }.to_vec();
                let dst = dst as usize;
                driver().submit(
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
        },
    )
}

#[no_mangle]
pub extern "C" fn cuMemcpyDtoHAsync_v2(
    dst: *mut c_void,
    src: CUdeviceptr,
    bytes: usize,
    stream: CUstream,
) -> CUresult {
    let valid = device_range(src, bytes) && !dst.is_null();
    ready(|| {
        let c = match checked_copy(dst as usize, src as usize, bytes, valid) {
            Err(e) => return e,
            Ok(None) => return result::SUCCESS,
            Ok(Some(c)) => c,
        };
        let d = driver();
        if is_pinned(dst as u64) {
            return d.submit(stream as usize, Box::new(move || c.run()));
        }
        // Into pageable memory the call returns once the copy is done: after the stream's work,
        // and not at all if a kernel faulted meanwhile.
        match d.synchronize_stream(stream as usize) {
            result::SUCCESS => c.run(),
            r => r,
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
    let valid = device_range(src, bytes) && device_range(dst, bytes);
    ready(
        || match checked_copy(dst as usize, src as usize, bytes, valid) {
            Err(e) => e,
            Ok(None) => result::SUCCESS,
            Ok(Some(c)) => {
                driver().model_copy(dst, bytes);
                driver().submit(stream as usize, Box::new(move || c.run()))
            }
        },
    )
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

/// `cuMemsetD8_v2` in stream order: the bytes are written when `stream` gets to them.
#[no_mangle]
pub extern "C" fn cuMemsetD8Async(
    dst: CUdeviceptr,
    value: u8,
    count: usize,
    stream: CUstream,
) -> CUresult {
    ready(|| {
        if count == 0 {
            return result::SUCCESS;
        }
        if !device_range(dst, count) {
            return result::INVALID_VALUE;
        }
        let dst = dst as usize;
        driver().submit(
            stream as usize,
            Box::new(move || {
                // SAFETY: validated device range (freeing it first is the program's error, as
                // on a GPU).
                unsafe { std::ptr::write_bytes(dst as *mut u8, value, count) };
                result::SUCCESS
            }),
        )
    })
}

#[no_mangle]
pub extern "C" fn cuMemsetD32_v2(dst: CUdeviceptr, value: c_uint, count: usize) -> CUresult {
    ready(|| {
        if count == 0 {
            return result::SUCCESS;
        }
        if !dst.is_multiple_of(4) || !device_range(dst, count * 4) {
            return result::INVALID_VALUE;
        }
        driver().legacy_barrier();
        // SAFETY: validated, aligned device range.
        unsafe { std::slice::from_raw_parts_mut(dst as *mut u32, count).fill(value) };
        result::SUCCESS
    })
}

/// Blocks of `block` threads one multiprocessor keeps resident (threads, blocks and shared
/// memory limit it; registers are not modelled).
fn blocks_per_sm(block: u32, shared: u64) -> u32 {
    let by_threads = 2048 / block.max(1);
    let by_shared = (228u64 << 10)
        .checked_div(shared)
        .map_or(u32::MAX, |b| b as u32);
    by_threads.min(32).min(by_shared)
}

/// Blocks of `block_size` threads of kernel `f` one multiprocessor keeps resident, with
/// `dynamic_shared` bytes of dynamic shared memory each (0 where the block is too large).
#[no_mangle]
pub unsafe extern "C" fn cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    n: *mut c_int,
    f: CUfunction,
    block_size: c_int,
    dynamic_shared: usize,
    _flags: c_uint,
) -> CUresult {
    ready(|| {
        let h = match driver().function(f as usize) {
            Ok(h) => h,
            Err(e) => return e,
        };
        let func = &h.program.functions[h.kernel];
        let most = func
            .reqntid
            .or(func.maxntid)
            .map_or(1024, |m| m.iter().product::<u32>().min(1024));
        if block_size <= 0 {
            return result::INVALID_VALUE;
        }
        let shared = h.program.dynamic_shared_offset as u64 + dynamic_shared as u64;
        let blocks = if block_size as u32 > most || shared > 227 << 10 {
            0
        } else {
            blocks_per_sm(block_size as u32, shared)
        };
        out(n, blocks as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuOccupancyMaxActiveBlocksPerMultiprocessor(
    n: *mut c_int,
    f: CUfunction,
    block_size: c_int,
    dynamic_shared: usize,
) -> CUresult {
    cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, f, block_size, dynamic_shared, 0)
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
        let (mut best, mut best_threads) = (most.clamp(1, 32), 0u32);
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
        let grid = blocks_per_sm(best, shared).max(1) * d.machine().config.sm_count;
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
                driver().machine().config.compute_capability.0 * 10
                    + driver().machine().config.compute_capability.1
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

const LAUNCH_PARAM_END: usize = 0;
const LAUNCH_PARAM_BUFFER_POINTER: usize = 1;
const LAUNCH_PARAM_BUFFER_SIZE: usize = 2;

/// The parameter area from cuLaunchKernel's `extra` (CU_LAUNCH_PARAM_BUFFER_POINTER and
/// _SIZE: the parameters laid out as the kernel's signature says, as GCC's plugin passes them).
unsafe fn extra_parameters(
    extra: *mut *mut c_void,
    param_bytes: usize,
    area: usize,
) -> Result<Vec<u8>, CUresult> {
    let (mut buf, mut size): (*const u8, Option<usize>) = (std::ptr::null(), None);
    let mut k = 0;
    loop {
        match *extra.add(k) as usize {
            LAUNCH_PARAM_END => break,
            LAUNCH_PARAM_BUFFER_POINTER => buf = *extra.add(k + 1) as *const u8,
            LAUNCH_PARAM_BUFFER_SIZE => {
                let p = *extra.add(k + 1) as *const usize;
                if p.is_null() {
                    return Err(result::INVALID_VALUE);
                }
                size = Some(*p);
            }
            _ => return Err(result::INVALID_VALUE),
        }
        k += 2;
    }
    let Some(size) = size else {
        return Err(result::INVALID_VALUE);
    };
    if buf.is_null() && param_bytes > 0 || size < param_bytes {
        eprintln!(
            "ptxsim: cuLaunchKernel: a parameter buffer of {size} bytes; the kernel's parameters take {param_bytes}"
        );
        return Err(result::INVALID_VALUE);
    }
    let mut out = vec![0u8; area.max(param_bytes)];
    if param_bytes > 0 {
        std::ptr::copy_nonoverlapping(buf, out.as_mut_ptr(), param_bytes);
    }
    Ok(out)
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
        let program = h.program.clone();
        let kernel = h.kernel;
        let device = h.device;
        let func = &program.functions[kernel];
        let buf = if !extra.is_null() {
            if !params.is_null() {
                return result::INVALID_VALUE;
            }
            // The formal parameters' bytes (param_bytes also counts call sequences').
            let formal = func.params.iter().map(|(o, n)| o + n).max().unwrap_or(0);
            match extra_parameters(extra, formal as usize, func.param_bytes as usize) {
                Ok(b) => b,
                Err(r) => return r,
            }
        } else {
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
            match Machine::parameters(&program, kernel, &args) {
                Ok(b) => b,
                Err(_) => return result::INVALID_VALUE,
            }
        };
        let (grid, block) = ([gx, gy, gz], [bx, by, bz]);
        let Some(machine) = d.device(device) else {
            return result::INVALID_HANDLE;
        };
        if let Err(e) = machine.check_launch(&program, kernel, grid, block, shared) {
            eprintln!("ptxsim: cannot launch {}: {e}", func.name);
            return result::INVALID_VALUE;
        }
        let job = Box::new(move || {
            let d = driver();
            let name = &program.functions[kernel].name;
            let t0 = std::time::Instant::now();
            let Some(machine) = d.device(device) else {
                return result::INVALID_HANDLE;
            };
            match machine.launch(&program, name, grid, block, shared, &buf) {
                Ok(outcome) => {
                    if !outcome.printed.is_empty() {
                        use std::io::Write;
                        let mut o = std::io::stdout().lock();
                        let _ = o.write_all(&outcome.printed);
                        let _ = o.flush();
                    }
                    d.record_launch(
                        &program,
                        name,
                        device,
                        outcome.stats.as_ref(),
                        t0.elapsed().as_secs_f64(),
                    );
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
    ready(|| driver().synchronize_stream(stream as usize))
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

pub type CUstreamCallback = Option<unsafe extern "C" fn(CUstream, CUresult, *mut c_void)>;

/// Calls `f(stream, status, data)` once the stream's earlier work is done (on the stream's
/// thread; on the calling thread for the legacy stream, after the other streams' work).
#[no_mangle]
pub extern "C" fn cuStreamAddCallback(
    stream: CUstream,
    f: CUstreamCallback,
    data: *mut c_void,
    flags: c_uint,
) -> CUresult {
    ready(|| {
        let Some(f) = f else {
            return result::INVALID_VALUE;
        };
        if flags != 0 {
            return result::INVALID_VALUE;
        }
        let (data, handle) = (data as usize, stream as usize);
        // SAFETY: the program promises `f` may be called with these once the stream gets here.
        driver().submit(
            handle,
            Box::new(move || unsafe {
                f(handle as CUstream, driver().sticky(), data as *mut c_void);
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
pub unsafe extern "C" fn cuEventCreate(ev: *mut CUevent, flags: c_uint) -> CUresult {
    ready(|| {
        let h = Box::into_raw(Box::new(EventHandle {
            recorded: Mutex::new(None),
            time: Arc::new(Mutex::new(None)),
            flags,
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
        *lock(&e.time) = None;
        let r = match d.stream(stream as usize) {
            Err(r) => return r,
            Ok(Some(s)) => {
                // The event's time is when the stream gets to it.
                let time = e.time.clone();
                let t = s.enqueue(Box::new(move || {
                    *lock(&time) = Some(std::time::Instant::now());
                    result::SUCCESS
                }));
                Some((s, t))
            }
            // The legacy stream's work is done when its call returns.
            Ok(None) => {
                d.legacy_barrier();
                *lock(&e.time) = Some(std::time::Instant::now());
                None
            }
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

const EVENT_DISABLE_TIMING: c_uint = 2;

/// ptxsim's own call (not CUDA's): the modelled clock of `dev`, the estimated seconds of every
/// launch it ran and every copy within its memory so far. CUDA_ERROR_NOT_SUPPORTED without `PTXSIM_STATS` (nothing is
/// estimated then).
#[no_mangle]
pub unsafe extern "C" fn ptxsimModeledTime(dev: CUdevice, seconds: *mut f64) -> CUresult {
    initialized(|| {
        let d = driver();
        let Some(i) = usize::try_from(dev).ok().filter(|&i| d.device(i).is_some()) else {
            return result::INVALID_DEVICE;
        };
        match d.modeled_time(i) {
            Some(t) => out(seconds, t),
            None => result::NOT_SUPPORTED,
        }
    })
}

/// Milliseconds between two recorded, completed events.
#[no_mangle]
pub unsafe extern "C" fn cuEventElapsedTime(
    ms: *mut f32,
    start: CUevent,
    end: CUevent,
) -> CUresult {
    ready(|| {
        let (a, b) = match (event(start), event(end)) {
            (Ok(a), Ok(b)) => (a, b),
            _ => return result::INVALID_HANDLE,
        };
        if (a.flags | b.flags) & EVENT_DISABLE_TIMING != 0 {
            return result::INVALID_HANDLE;
        }
        for e in [a, b] {
            if let Some((s, t)) = lock(&e.recorded).clone() {
                if !s.reached(t) {
                    return result::NOT_READY;
                }
            }
        }
        match (*lock(&a.time), *lock(&b.time)) {
            (Some(t0), Some(t1)) => {
                let d = if t1 >= t0 {
                    (t1 - t0).as_secs_f64()
                } else {
                    -(t0 - t1).as_secs_f64()
                };
                out(ms, (d * 1e3) as f32)
            }
            // Never recorded.
            _ => result::INVALID_HANDLE,
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
        let Some((device, machine)) = driver().owner(p) else {
            return result::INVALID_VALUE;
        };
        let Some((_, _, kind)) = machine.memory.lookup(p) else {
            return result::INVALID_VALUE;
        };
        match attribute {
            1 => out(data as *mut CUcontext, super::context::of_pointer(device)),
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

// Stream-ordered allocation (libomptarget's CUDA plugin asks for these names when it loads the
// driver, and uses them for its memory pools). Allocation happens at once, which is in order
// with any stream; freeing waits for the device, as cuMemFree does.

#[no_mangle]
pub unsafe extern "C" fn cuMemAllocAsync(
    p: *mut CUdeviceptr,
    bytes: usize,
    _stream: CUstream,
) -> CUresult {
    cuMemAlloc_v2(p, bytes)
}

#[no_mangle]
pub extern "C" fn cuMemFreeAsync(p: CUdeviceptr, _stream: CUstream) -> CUresult {
    cuMemFree_v2(p)
}

/// Managed memory is not simulated: refused, and said so (CUDA_ERROR_NOT_SUPPORTED).
#[no_mangle]
pub extern "C" fn cuMemAllocManaged(
    _p: *mut CUdeviceptr,
    bytes: usize,
    _flags: c_uint,
) -> CUresult {
    eprintln!(
        "ptxsim: cuMemAllocManaged ({bytes} bytes): managed memory is not simulated (device memory from \
         cuMemAlloc is; see ptx-sim/README.md)"
    );
    result::NOT_SUPPORTED
}

/// The unversioned name, as libomptarget looks it up.
#[no_mangle]
pub extern "C" fn cuEventDestroy(ev: CUevent) -> CUresult {
    cuEventDestroy_v2(ev)
}

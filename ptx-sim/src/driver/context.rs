//! Contexts: the device's primary context (`cuDevicePrimaryCtxRetain`, what libptxrt uses) and
//! contexts made with `cuCtxCreate` (what GCC's libgomp plugin uses), and each host thread's
//! stack of current contexts (`cuCtxPushCurrent`, `cuCtxPopCurrent`, `cuCtxSetCurrent`).
//!
//! Each device (`PTXSIM_DEVICES`) has its primary context; a created context belongs to the
//! device it was made for. The current context's device is the one `cuMemAlloc`, `cuMemGetInfo`
//! and module loads act on (device 0 when the thread has none); copies find the device of a
//! pointer by its address, and a launch runs on the device of its function's module. What is
//! current also matters to the calls that report it (`cuCtxGetCurrent`, `cuCtxGetDevice`: a
//! thread with no current context gets NULL and CUDA_ERROR_INVALID_CONTEXT, which is how libgomp
//! tells that it must make its context current). The contexts of one device share its memory and
//! modules, all share the streams, and destroying a context only synchronises and retires the
//! handle.

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use super::api::{initialized, out, CUcontext, CUdevice};
use super::{driver, lock, result, result::CUresult, MAX_DEVICES};
use std::cell::RefCell;
use std::ffi::{c_uint, c_void};

/// The primary contexts' handles: the addresses of these bytes, one per device.
static PRIMARY: [u8; MAX_DEVICES] = [0; MAX_DEVICES];

/// Device `dev`'s primary context (`dev` must be below MAX_DEVICES).
pub fn primary(dev: usize) -> CUcontext {
    &PRIMARY[dev] as *const u8 as CUcontext
}

/// The device of a primary context, if `ctx` is one.
fn primary_device(ctx: CUcontext) -> Option<usize> {
    let base = PRIMARY.as_ptr() as usize;
    let c = ctx as usize;
    (c >= base && c < base + MAX_DEVICES).then(|| c - base)
}

/// The device of a valid context.
pub(super) fn device_of(ctx: CUcontext) -> Option<usize> {
    primary_device(ctx)
        .filter(|&d| d < driver().device_count())
        .or_else(|| lock(&driver().contexts).get(&(ctx as usize)).copied())
}

/// The device of the calling thread's current context (device 0 when it has none).
pub fn current_device() -> usize {
    device_of(current()).unwrap_or(0)
}

/// `dev` as a device index, if the device exists.
pub(super) fn device_index(dev: CUdevice) -> Option<usize> {
    usize::try_from(dev)
        .ok()
        .filter(|&d| d < driver().device_count())
}

thread_local! {
    /// The calling thread's context stack (top: the current context).
    static STACK: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` on the calling thread's context stack (an empty one while the thread exits and its
/// thread-locals are gone: libgomp's exit handlers still call the driver).
fn with_stack<T>(f: impl FnOnce(&mut Vec<usize>) -> T) -> T {
    let mut f = Some(f);
    let mut run = |s: &mut Vec<usize>| (f.take().expect("called once"))(s);
    match STACK.try_with(|s| run(&mut s.borrow_mut())) {
        Ok(v) => v,
        Err(_) => run(&mut Vec::new()),
    }
}

/// The calling thread's current context (NULL when none).
pub fn current() -> CUcontext {
    with_stack(|s| s.last().copied().unwrap_or(0)) as CUcontext
}

fn valid(ctx: CUcontext) -> bool {
    device_of(ctx).is_some()
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRetain(ctx: *mut CUcontext, dev: CUdevice) -> CUresult {
    initialized(|| match device_index(dev) {
        None => result::INVALID_DEVICE,
        Some(d) => out(ctx, primary(d)),
    })
}

#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxRelease_v2(dev: CUdevice) -> CUresult {
    initialized(|| match device_index(dev) {
        None => result::INVALID_DEVICE,
        Some(_) => result::SUCCESS,
    })
}

/// The primary context is always active (ptxsim makes it at the first use, keeps it) with no
/// flags: what libomptarget asks before it sets its own.
#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxGetState(
    dev: CUdevice,
    flags: *mut c_uint,
    active: *mut std::ffi::c_int,
) -> CUresult {
    initialized(|| match device_index(dev) {
        None => result::INVALID_DEVICE,
        Some(_) if flags.is_null() || active.is_null() => result::INVALID_VALUE,
        Some(_) => {
            *flags = 0;
            *active = 1;
            result::SUCCESS
        }
    })
}

/// Scheduling flags (spin, yield, blocking sync) change nothing in a simulator: accepted.
#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxSetFlags_v2(dev: CUdevice, _flags: c_uint) -> CUresult {
    initialized(|| match device_index(dev) {
        None => result::INVALID_DEVICE,
        Some(_) => result::SUCCESS,
    })
}

/// A new context, pushed on the calling thread's stack.
#[no_mangle]
pub unsafe extern "C" fn cuCtxCreate_v2(
    ctx: *mut CUcontext,
    _flags: c_uint,
    dev: CUdevice,
) -> CUresult {
    initialized(|| {
        let Some(device) = device_index(dev) else {
            return result::INVALID_DEVICE;
        };
        if ctx.is_null() {
            return result::INVALID_VALUE;
        }
        let h = Box::into_raw(Box::new(0u8)) as usize;
        lock(&driver().contexts).insert(h, device);
        with_stack(|s| s.push(h));
        out(ctx, h as CUcontext)
    })
}

#[no_mangle]
pub extern "C" fn cuCtxDestroy_v2(ctx: CUcontext) -> CUresult {
    initialized(|| {
        let d = driver();
        if primary_device(ctx).is_some() || lock(&d.contexts).remove(&(ctx as usize)).is_none() {
            return result::INVALID_CONTEXT;
        }
        // Work queued in it completes first.
        d.legacy_barrier();
        with_stack(|s| s.retain(|c| *c != ctx as usize));
        // SAFETY: made by cuCtxCreate_v2, unregistered just now.
        drop(unsafe { Box::from_raw(ctx as *mut u8) });
        result::SUCCESS
    })
}

#[no_mangle]
pub extern "C" fn cuCtxPushCurrent_v2(ctx: CUcontext) -> CUresult {
    initialized(|| {
        if !valid(ctx) {
            return result::INVALID_CONTEXT;
        }
        with_stack(|s| s.push(ctx as usize));
        result::SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxPopCurrent_v2(ctx: *mut CUcontext) -> CUresult {
    initialized(|| match with_stack(|s| s.pop()) {
        None => result::INVALID_CONTEXT,
        Some(c) => {
            if !ctx.is_null() {
                *ctx = c as CUcontext;
            }
            result::SUCCESS
        }
    })
}

/// Replaces the top of the stack (NULL pops it).
#[no_mangle]
pub extern "C" fn cuCtxSetCurrent(ctx: CUcontext) -> CUresult {
    initialized(|| {
        if !ctx.is_null() && !valid(ctx) {
            return result::INVALID_CONTEXT;
        }
        with_stack(|s| {
            s.pop();
            if !ctx.is_null() {
                s.push(ctx as usize);
            }
        });
        result::SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetCurrent(ctx: *mut CUcontext) -> CUresult {
    initialized(|| out(ctx, current()))
}

#[no_mangle]
pub unsafe extern "C" fn cuCtxGetDevice(dev: *mut CUdevice) -> CUresult {
    initialized(|| match device_of(current()) {
        None => result::INVALID_CONTEXT,
        Some(d) => out(dev, d as CUdevice),
    })
}

/// The context a pointer of device `dev` belongs to (`cuPointerGetAttribute`): the current one
/// when it is that device's, else the device's primary context.
pub fn of_pointer(dev: usize) -> *mut c_void {
    match current() {
        c if !c.is_null() && device_of(c) == Some(dev) => c,
        _ => primary(dev),
    }
}

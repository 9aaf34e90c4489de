//! Contexts: the device's primary context (`cuDevicePrimaryCtxRetain`, what libptxrt uses) and
//! contexts made with `cuCtxCreate` (what GCC's libgomp plugin uses), and each host thread's
//! stack of current contexts (`cuCtxPushCurrent`, `cuCtxPopCurrent`, `cuCtxSetCurrent`).
//!
//! What is current matters to the calls that report it (`cuCtxGetCurrent`, `cuCtxGetDevice`:
//! a thread with no current context gets NULL and CUDA_ERROR_INVALID_CONTEXT, which is how
//! libgomp tells that it must make its context current). Every context shares the one device's
//! memory, modules and streams — the other calls work whatever is current — and destroying a
//! context only synchronises the device and retires the handle.

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use super::api::{initialized, out, CUcontext, CUdevice};
use super::{driver, lock, result, result::CUresult};
use std::cell::RefCell;
use std::ffi::{c_uint, c_void};

/// The primary context's handle.
static PRIMARY: u8 = 0;

pub fn primary() -> CUcontext {
    &PRIMARY as *const u8 as CUcontext
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
    ctx == primary() || lock(&driver().contexts).contains(&(ctx as usize))
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRetain(ctx: *mut CUcontext, dev: CUdevice) -> CUresult {
    initialized(|| {
        if dev != 0 {
            result::INVALID_DEVICE
        } else {
            out(ctx, primary())
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

/// A new context, pushed on the calling thread's stack.
#[no_mangle]
pub unsafe extern "C" fn cuCtxCreate_v2(
    ctx: *mut CUcontext,
    _flags: c_uint,
    dev: CUdevice,
) -> CUresult {
    initialized(|| {
        if dev != 0 {
            return result::INVALID_DEVICE;
        }
        if ctx.is_null() {
            return result::INVALID_VALUE;
        }
        let h = Box::into_raw(Box::new(0u8)) as usize;
        lock(&driver().contexts).insert(h);
        with_stack(|s| s.push(h));
        out(ctx, h as CUcontext)
    })
}

#[no_mangle]
pub extern "C" fn cuCtxDestroy_v2(ctx: CUcontext) -> CUresult {
    initialized(|| {
        let d = driver();
        if ctx == primary() || !lock(&d.contexts).remove(&(ctx as usize)) {
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
    initialized(|| {
        if current().is_null() {
            return result::INVALID_CONTEXT;
        }
        out(dev, 0)
    })
}

/// The context a pointer belongs to (`cuPointerGetAttribute`): the current one, else the primary.
pub fn of_pointer() -> *mut c_void {
    match current() {
        c if c.is_null() => primary(),
        c => c,
    }
}

//! Several devices: peer access (`cuDeviceCanAccessPeer`, `cuCtxEnablePeerAccess`,
//! `cuCtxDisablePeerAccess`) and copies between the memories of two devices (`cuMemcpyPeer`,
//! `cuMemcpyPeerAsync`).
//!
//! Every pair of distinct devices can access each other, as GPUs on one NVLink switch can; the
//! access flags are recorded and answered as the driver answers them, but kernels still touch
//! only their own device's memory (an access to a peer's faults, see `mod.rs`): libptxrt moves
//! data between devices with copies, which need no peer access.

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use super::api::{
    checked_copy, copy_now, initialized, out, ready, CUcontext, CUdevice, CUdeviceptr, CUstream,
};
use super::context::{current, device_index, device_of};
use super::{driver, lock, result, result::CUresult};
use std::ffi::{c_int, c_uint};

#[no_mangle]
pub unsafe extern "C" fn cuDeviceCanAccessPeer(
    can: *mut c_int,
    dev: CUdevice,
    peer: CUdevice,
) -> CUresult {
    initialized(|| match (device_index(dev), device_index(peer)) {
        (Some(d), Some(p)) => out(can, (d != p) as c_int),
        _ => result::INVALID_DEVICE,
    })
}

#[no_mangle]
pub extern "C" fn cuCtxEnablePeerAccess(peer: CUcontext, flags: c_uint) -> CUresult {
    ready(|| {
        if flags != 0 {
            return result::INVALID_VALUE;
        }
        let Some(here) = device_of(current()) else {
            return result::INVALID_CONTEXT;
        };
        let Some(there) = device_of(peer) else {
            return result::INVALID_CONTEXT;
        };
        if here == there {
            return result::INVALID_DEVICE;
        }
        if lock(&driver().peer_access).insert((here, there)) {
            result::SUCCESS
        } else {
            result::PEER_ACCESS_ALREADY_ENABLED
        }
    })
}

#[no_mangle]
pub extern "C" fn cuCtxDisablePeerAccess(peer: CUcontext) -> CUresult {
    ready(|| {
        let Some(here) = device_of(current()) else {
            return result::INVALID_CONTEXT;
        };
        let Some(there) = device_of(peer) else {
            return result::INVALID_CONTEXT;
        };
        if lock(&driver().peer_access).remove(&(here, there)) {
            result::SUCCESS
        } else {
            result::PEER_ACCESS_NOT_ENABLED
        }
    })
}

/// Whether `[p, p + bytes)` lies in one allocation of the device of context `ctx`; None when
/// `ctx` is no context.
fn on_device_of(ctx: CUcontext, p: CUdeviceptr, bytes: usize) -> Option<bool> {
    let dev = device_of(ctx)?;
    let m = driver().device(dev)?;
    Some(m.memory.contains(p, bytes as u64))
}

/// The checks both peer copies make: the contexts exist, each address is its context's device
/// memory for `bytes` bytes.
fn peer_copy_valid(
    dst: CUdeviceptr,
    dst_ctx: CUcontext,
    src: CUdeviceptr,
    src_ctx: CUcontext,
    bytes: usize,
) -> Result<bool, CUresult> {
    match (
        on_device_of(dst_ctx, dst, bytes),
        on_device_of(src_ctx, src, bytes),
    ) {
        (Some(d), Some(s)) => Ok(d && s),
        _ => Err(result::INVALID_CONTEXT),
    }
}

#[no_mangle]
pub extern "C" fn cuMemcpyPeer(
    dst: CUdeviceptr,
    dst_ctx: CUcontext,
    src: CUdeviceptr,
    src_ctx: CUcontext,
    bytes: usize,
) -> CUresult {
    match initialized(
        || match peer_copy_valid(dst, dst_ctx, src, src_ctx, bytes) {
            Ok(true) => result::SUCCESS,
            Ok(false) => result::INVALID_VALUE,
            Err(e) => e,
        },
    ) {
        result::SUCCESS => copy_now(dst as usize, src as usize, bytes, true),
        e => e,
    }
}

#[no_mangle]
pub extern "C" fn cuMemcpyPeerAsync(
    dst: CUdeviceptr,
    dst_ctx: CUcontext,
    src: CUdeviceptr,
    src_ctx: CUcontext,
    bytes: usize,
    stream: CUstream,
) -> CUresult {
    ready(|| {
        let valid = match peer_copy_valid(dst, dst_ctx, src, src_ctx, bytes) {
            Ok(v) => v,
            Err(e) => return e,
        };
        match checked_copy(dst as usize, src as usize, bytes, valid) {
            Err(e) => e,
            Ok(None) => result::SUCCESS,
            Ok(Some(c)) => driver().submit(stream as usize, Box::new(move || c.run())),
        }
    })
}

//! PTXSIM_DEVICES=3: three devices with separate memories. Each device's primary context makes it
//! current for allocations and module loads; copies find a pointer's device by its address;
//! cuMemcpyPeer moves data between devices; a kernel runs on its module's device and faults on
//! another device's memory. Its own test binary: the device count is read once, at the first
//! call, and a kernel fault is process-wide.

use ptxsim::driver::api::*;
use ptxsim::driver::context::*;
use ptxsim::driver::modules::*;
use ptxsim::driver::peer::*;
use std::ffi::{c_int, c_void, CString};
use std::ptr::null_mut;

const SUCCESS: i32 = 0;
const INVALID_VALUE: i32 = 1;
const INVALID_DEVICE: i32 = 101;
const INVALID_CONTEXT: i32 = 201;
const ILLEGAL_ADDRESS: i32 = 700;
const PEER_ACCESS_ALREADY_ENABLED: i32 = 704;
const PEER_ACCESS_NOT_ENABLED: i32 = 705;

/// Stores 7 through the pointer it is given.
const POKE: &str = ".version 7.0\n.target sm_70\n.address_size 64\n\
.visible .entry poke (.param .u64 p)\n\
{\n\
.reg .u64 %rd<2>;\n\
.reg .u32 %r<2>;\n\
ld.param.u64 %rd0, [p];\n\
mov.u32 %r0, 7;\n\
st.global.u32 [%rd0], %r0;\n\
ret;\n\
}\n\0";

fn primary_ctx(dev: c_int) -> CUcontext {
    let mut ctx = null_mut();
    assert_eq!(unsafe { cuDevicePrimaryCtxRetain(&mut ctx, dev) }, SUCCESS);
    ctx
}

fn alloc_on(ctx: CUcontext, bytes: usize) -> u64 {
    assert_eq!(cuCtxSetCurrent(ctx), SUCCESS);
    let mut p = 0u64;
    assert_eq!(unsafe { cuMemAlloc_v2(&mut p, bytes) }, SUCCESS);
    p
}

fn poke_function(ctx: CUcontext) -> CUfunction {
    assert_eq!(cuCtxSetCurrent(ctx), SUCCESS);
    let mut module = null_mut();
    assert_eq!(
        unsafe { cuModuleLoadData(&mut module, POKE.as_ptr() as *const c_void) },
        SUCCESS
    );
    let mut f = null_mut();
    let name = CString::new("poke").unwrap();
    assert_eq!(
        unsafe { cuModuleGetFunction(&mut f, module, name.as_ptr()) },
        SUCCESS
    );
    f
}

fn launch_poke(f: CUfunction, mut p: u64) -> i32 {
    let mut params: [*mut c_void; 1] = [&mut p as *mut u64 as *mut c_void];
    let r = unsafe {
        cuLaunchKernel(
            f,
            1,
            1,
            1,
            1,
            1,
            1,
            0,
            null_mut(),
            params.as_mut_ptr(),
            null_mut(),
        )
    };
    if r != SUCCESS {
        return r;
    }
    cuCtxSynchronize()
}

#[test]
fn three_devices_with_separate_memories() {
    std::env::set_var("PTXSIM_DEVICES", "3");
    assert_eq!(cuInit(0), SUCCESS);
    let mut n: c_int = 0;
    assert_eq!(unsafe { cuDeviceGetCount(&mut n) }, SUCCESS);
    assert_eq!(n, 3);
    let mut dev: c_int = -1;
    assert_eq!(unsafe { cuDeviceGet(&mut dev, 2) }, SUCCESS);
    assert_eq!(dev, 2);
    assert_eq!(unsafe { cuDeviceGet(&mut dev, 3) }, INVALID_DEVICE);
    let mut ctx3 = null_mut();
    assert_eq!(
        unsafe { cuDevicePrimaryCtxRetain(&mut ctx3, 3) },
        INVALID_DEVICE
    );

    // One primary context per device; the current one says which device it is.
    let ctx: Vec<CUcontext> = (0..3).map(primary_ctx).collect();
    assert!(ctx[0] != ctx[1] && ctx[1] != ctx[2]);
    assert_eq!(cuCtxSetCurrent(ctx[1]), SUCCESS);
    assert_eq!(unsafe { cuCtxGetDevice(&mut dev) }, SUCCESS);
    assert_eq!(dev, 1);

    // Peer access: every distinct pair, recorded per (context's device, peer).
    let mut can: c_int = -1;
    assert_eq!(unsafe { cuDeviceCanAccessPeer(&mut can, 0, 2) }, SUCCESS);
    assert_eq!(can, 1);
    assert_eq!(unsafe { cuDeviceCanAccessPeer(&mut can, 1, 1) }, SUCCESS);
    assert_eq!(can, 0);
    assert_eq!(
        unsafe { cuDeviceCanAccessPeer(&mut can, 0, 5) },
        INVALID_DEVICE
    );
    assert_eq!(cuCtxEnablePeerAccess(ctx[2], 0), SUCCESS);
    assert_eq!(
        cuCtxEnablePeerAccess(ctx[2], 0),
        PEER_ACCESS_ALREADY_ENABLED
    );
    assert_eq!(cuCtxEnablePeerAccess(ctx[1], 0), INVALID_DEVICE);
    assert_eq!(cuCtxDisablePeerAccess(ctx[2]), SUCCESS);
    assert_eq!(cuCtxDisablePeerAccess(ctx[2]), PEER_ACCESS_NOT_ENABLED);

    // Memory of devices 0 and 2; each pointer belongs to its device's context.
    let a = alloc_on(ctx[0], 64);
    let b = alloc_on(ctx[2], 64);
    let mut owner: CUcontext = null_mut();
    assert_eq!(
        unsafe { cuPointerGetAttribute(&mut owner as *mut CUcontext as *mut c_void, 1, b) },
        SUCCESS
    );
    assert_eq!(owner, ctx[2]);
    // Device 1's free memory does not count device 2's allocation.
    assert_eq!(cuCtxSetCurrent(ctx[1]), SUCCESS);
    let (mut free1, mut total) = (0usize, 0usize);
    assert_eq!(unsafe { cuMemGetInfo_v2(&mut free1, &mut total) }, SUCCESS);
    assert_eq!(free1, total);

    // Host → device 0, device 0 → device 2 (peer), device 2 → host; whatever is current.
    let data: Vec<u32> = (0..16).collect();
    assert_eq!(
        cuMemcpyHtoD_v2(a, data.as_ptr() as *const c_void, 64),
        SUCCESS
    );
    assert_eq!(cuMemcpyPeer(b, ctx[2], a, ctx[0], 64), SUCCESS);
    let mut back = vec![0u32; 16];
    assert_eq!(
        cuMemcpyDtoH_v2(back.as_mut_ptr() as *mut c_void, b, 64),
        SUCCESS
    );
    assert_eq!(back, data);
    // An address given with another device's context is no memory of that device.
    assert_eq!(cuMemcpyPeer(b, ctx[1], a, ctx[0], 64), INVALID_VALUE);
    assert_eq!(cuMemcpyPeer(b, null_mut(), a, ctx[0], 64), INVALID_CONTEXT);
    let mut s = null_mut();
    assert_eq!(unsafe { cuStreamCreate(&mut s, 0) }, SUCCESS);
    assert_eq!(cuMemcpyPeerAsync(a, ctx[0], b, ctx[2], 32, s), SUCCESS);
    assert_eq!(cuStreamSynchronize(s), SUCCESS);

    // A kernel of device 2's module writes device 2's memory, whatever context is current...
    let poke2 = poke_function(ctx[2]);
    assert_eq!(cuCtxSetCurrent(ctx[0]), SUCCESS);
    assert_eq!(launch_poke(poke2, b), SUCCESS);
    let mut word = 0u32;
    assert_eq!(
        cuMemcpyDtoH_v2(&mut word as *mut u32 as *mut c_void, b, 4),
        SUCCESS
    );
    assert_eq!(word, 7);
    // ...and faults on device 0's: kernels reach only their own device's memory.
    assert_eq!(launch_poke(poke2, a), ILLEGAL_ADDRESS);
}

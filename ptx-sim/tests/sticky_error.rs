//! A kernel that faults on a stream while a pageable cuMemcpyDtoHAsync on the legacy stream
//! waits for it: the copy answers with the fault (CUDA_ERROR_ILLEGAL_ADDRESS), as
//! cuStreamSynchronize does, instead of copying and reporting success. Its own test binary:
//! the sticky error is process-wide, and the stream delay is read once, at the first call.

use ptxsim::driver::api::*;
use ptxsim::driver::modules::*;
use std::ffi::{c_void, CString};
use std::ptr::null_mut;

const SUCCESS: i32 = 0;
const ILLEGAL_ADDRESS: i32 = 700;

/// Stores through the pointer it is given.
const FAULTING: &str = ".version 7.0\n.target sm_70\n.address_size 64\n\
.visible .entry poke (.param .u64 p)\n\
{\n\
.reg .u64 %rd<2>;\n\
.reg .u32 %r<2>;\n\
ld.param.u64 %rd0, [p];\n\
mov.u32 %r0, 1;\n\
st.global.u32 [%rd0], %r0;\n\
ret;\n\
}\n\0";

#[test]
fn a_pageable_copy_on_the_legacy_stream_reports_a_fault_that_happened_while_it_waited() {
    // The stream starts its work late enough that the copy is issued before the fault.
    std::env::set_var("PTXSIM_STREAM_DELAY_US", "200000");
    assert_eq!(cuInit(0), SUCCESS);
    let mut module = null_mut();
    assert_eq!(
        unsafe { cuModuleLoadData(&mut module, FAULTING.as_ptr() as *const c_void) },
        SUCCESS
    );
    let mut f = null_mut();
    let name = CString::new("poke").unwrap();
    assert_eq!(
        unsafe { cuModuleGetFunction(&mut f, module, name.as_ptr()) },
        SUCCESS
    );
    let mut buf: u64 = 0;
    assert_eq!(unsafe { cuMemAlloc_v2(&mut buf, 64) }, SUCCESS);
    let mut stream = null_mut();
    assert_eq!(unsafe { cuStreamCreate(&mut stream, 0) }, SUCCESS);
    let mut bad: u64 = 16; // no allocation there
    let mut params: [*mut c_void; 1] = [&mut bad as *mut u64 as *mut c_void];
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
            stream,
            params.as_mut_ptr(),
            null_mut(),
        )
    };
    assert_eq!(
        r, SUCCESS,
        "the launch is asynchronous: the fault comes later"
    );
    let mut host = vec![0u8; 64]; // pageable
    let r = cuMemcpyDtoHAsync_v2(host.as_mut_ptr() as *mut c_void, buf, 64, null_mut());
    assert_eq!(r, ILLEGAL_ADDRESS);
    assert_eq!(cuStreamSynchronize(stream), ILLEGAL_ADDRESS);
}

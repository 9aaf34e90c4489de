//! `ptxsimModeledTime`, ptxsim's own driver call: each device's modelled clock advances by the
//! estimated time of every launch it runs (with PTXSIM_STATS; one process, so one setting).

use ptxsim::driver::api::*;
use ptxsim::driver::modules::*;
use std::ffi::{c_void, CString};
use std::ptr::null_mut;

const SUCCESS: i32 = 0;
const INVALID_DEVICE: i32 = 101;

/// p[tid * stride] = tid: a stride of 32 words puts every lane in a sector of its own.
const STORE: &str = ".version 8.5\n.target sm_90\n.address_size 64\n\
.visible .entry store(.param .u64 p, .param .u64 stride)\n\
{\n\
.reg .b32 %r<2>;\n\
.reg .b64 %rd<5>;\n\
ld.param.u64 %rd0, [p];\n\
ld.param.u64 %rd1, [stride];\n\
mov.u32 %r0, %tid.x;\n\
cvt.u64.u32 %rd2, %r0;\n\
mul.lo.u64 %rd3, %rd2, %rd1;\n\
shl.b64 %rd3, %rd3, 2;\n\
add.u64 %rd4, %rd0, %rd3;\n\
st.global.u32 [%rd4], %r0;\n\
ret;\n\
}\n\0";

fn clock() -> f64 {
    let mut t = -1.0;
    assert_eq!(unsafe { ptxsimModeledTime(0, &mut t) }, SUCCESS);
    t
}

fn launch(f: CUfunction, buf: u64, stride: u64) {
    let (mut p, mut s) = (buf, stride);
    let mut params: [*mut c_void; 2] = [
        &mut p as *mut u64 as *mut c_void,
        &mut s as *mut u64 as *mut c_void,
    ];
    let r = unsafe {
        cuLaunchKernel(
            f,
            64,
            1,
            1,
            256,
            1,
            1,
            0,
            null_mut(),
            params.as_mut_ptr(),
            null_mut(),
        )
    };
    assert_eq!(r, SUCCESS);
    assert_eq!(cuStreamSynchronize(null_mut()), SUCCESS);
}

#[test]
fn the_modeled_clock_advances_by_each_launch_estimate() {
    // The report written at exit is not looked at.
    std::env::set_var("PTXSIM_STATS", "json:/dev/null");
    assert_eq!(cuInit(0), SUCCESS);
    let mut t = 0.0;
    assert_eq!(unsafe { ptxsimModeledTime(7, &mut t) }, INVALID_DEVICE);
    assert_eq!(clock(), 0.0, "nothing ran yet");
    let mut module = null_mut();
    assert_eq!(
        unsafe { cuModuleLoadData(&mut module, STORE.as_ptr() as *const c_void) },
        SUCCESS
    );
    let mut f = null_mut();
    let name = CString::new("store").unwrap();
    assert_eq!(
        unsafe { cuModuleGetFunction(&mut f, module, name.as_ptr()) },
        SUCCESS
    );
    let mut buf: u64 = 0;
    assert_eq!(
        unsafe { cuMemAlloc_v2(&mut buf, 64 * 256 * 32 * 4) },
        SUCCESS
    );
    launch(f, buf, 1);
    let unit = clock();
    launch(f, buf, 32);
    let strided = clock() - unit;
    // Every launch costs at least the model's launch overhead; 32 times the sectors cost more.
    assert!(unit > 1e-6, "{unit}");
    assert!(strided > unit, "strided {strided} vs unit {unit}");
}

//! The driver functions GCC's libgomp plugin (libgomp-plugin-nvptx) calls, called as it calls
//! them: contexts made and pushed per host thread, the JIT linker with its logs, a launch with
//! the parameters in one buffer (`extra`), address ranges, copies, stream callbacks and event
//! timing. (One process-wide driver: each test makes its own contexts and handles.)

use ptxsim::driver::api::*;
use ptxsim::driver::context::*;
use ptxsim::driver::linker::*;
use ptxsim::driver::modules::*;
use std::ffi::{c_int, c_void, CString};
use std::ptr::null_mut;

const SUCCESS: i32 = 0;
const INVALID_CONTEXT: i32 = 201;
const INVALID_PTX: i32 = 218;

fn init() {
    assert_eq!(cuInit(0), SUCCESS);
}

const PROGRAM: &str = ".version 6.0\n.target sm_30\n.address_size 64\n\
.extern .func (.param .u32 %value_out) scale (.param .u32 %in_ar0);\n\
.visible .entry k (.param .u64 %arg, .param .u64 %stack, .param .u64 %sz)\n\
{\n\
.reg .u64 %R<3>;\n\
.reg .u32 %r<3>;\n\
ld.param.u64 %R0,[%arg];\n\
ld.param.u64 %R1,[%sz];\n\
cvt.u32.u64 %r0,%R1;\n\
{\n\
.param .u32 %value_in;\n\
.param .u32 %out_arg1;\n\
st.param.u32 [%out_arg1],%r0;\n\
call (%value_in),scale,(%out_arg1);\n\
ld.param.u32 %r1,[%value_in];\n\
}\n\
mov.u32 %r2,%tid.x;\n\
mul.wide.u32 %R2,%r2,4;\n\
add.u64 %R2,%R0,%R2;\n\
st.u32 [%R2],%r1;\n\
ret;\n\
}\n\0";

const LIBRARY: &str = ".version 6.0\n.target sm_30\n.address_size 64\n\
.visible .func (.param .u32 %value_out) scale (.param .u32 %in_ar0)\n\
{\n\
.reg .u32 %r<2>;\n\
ld.param.u32 %r0,[%in_ar0];\n\
mul.lo.u32 %r1,%r0,3;\n\
st.param.u32 [%value_out],%r1;\n\
ret;\n\
}\n\0";

/// A link state with error and info logs, as libgomp makes it.
struct Link {
    state: CUlinkState,
    error: Box<[u8; 1024]>,
    _info: Box<[u8; 4096]>,
}

fn link_create() -> Link {
    let mut error = Box::new([0u8; 1024]);
    let mut info = Box::new([0u8; 4096]);
    let mut options: [c_int; 5] = [3, 4, 5, 6, 12];
    let mut values: [*mut c_void; 5] = [
        info.as_mut_ptr() as *mut c_void,
        4096 as *mut c_void,
        error.as_mut_ptr() as *mut c_void,
        1024 as *mut c_void,
        std::ptr::dangling_mut::<c_void>(),
    ];
    let mut state = null_mut();
    let r = unsafe { cuLinkCreate_v2(5, options.as_mut_ptr(), values.as_mut_ptr(), &mut state) };
    assert_eq!(r, SUCCESS);
    Link {
        state,
        error,
        _info: info,
    }
}

fn add(l: &Link, text: &str) -> i32 {
    unsafe {
        cuLinkAddData_v2(
            l.state,
            1, // CU_JIT_INPUT_PTX
            text.as_ptr() as *mut c_void,
            text.len(),
            std::ptr::null(),
            0,
            null_mut(),
            null_mut(),
        )
    }
}

fn log(buf: &[u8]) -> String {
    let end = buf.iter().position(|b| *b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

#[test]
fn contexts_are_per_thread_stacks() {
    init();
    std::thread::spawn(|| unsafe {
        let mut ctx = null_mut();
        let mut dev = -1;
        // A fresh thread has no current context.
        assert_eq!(cuCtxGetCurrent(&mut ctx), SUCCESS);
        assert!(ctx.is_null());
        assert_eq!(cuCtxGetDevice(&mut dev), INVALID_CONTEXT);
        let mut mine = null_mut();
        assert_eq!(cuCtxCreate_v2(&mut mine, 0, 0), SUCCESS);
        assert_eq!(cuCtxGetCurrent(&mut ctx), SUCCESS);
        assert_eq!(ctx, mine);
        assert_eq!(cuCtxGetDevice(&mut dev), SUCCESS);
        assert_eq!(dev, 0);
        let mut primary = null_mut();
        assert_eq!(cuDevicePrimaryCtxRetain(&mut primary, 0), SUCCESS);
        assert_eq!(cuCtxPushCurrent_v2(primary), SUCCESS);
        let mut popped = null_mut();
        assert_eq!(cuCtxPopCurrent_v2(&mut popped), SUCCESS);
        assert_eq!(popped, primary);
        assert_eq!(cuCtxDestroy_v2(mine), SUCCESS);
        assert_eq!(cuCtxGetCurrent(&mut ctx), SUCCESS);
        assert!(ctx.is_null());
        assert_eq!(cuCtxPopCurrent_v2(&mut popped), INVALID_CONTEXT);
        assert_eq!(cuCtxPushCurrent_v2(mine), INVALID_CONTEXT);
    })
    .join()
    .unwrap();
}

#[test]
fn a_link_loads_and_launches_with_a_parameter_buffer() {
    init();
    let l = link_create();
    assert_eq!(add(&l, PROGRAM), SUCCESS);
    assert_eq!(add(&l, LIBRARY), SUCCESS);
    let mut image = null_mut();
    let mut size = 0usize;
    assert_eq!(
        unsafe { cuLinkComplete(l.state, &mut image, &mut size) },
        SUCCESS,
        "{}",
        log(&l.error[..])
    );
    let mut module = null_mut();
    assert_eq!(unsafe { cuModuleLoadData(&mut module, image) }, SUCCESS);
    let mut f = null_mut();
    let name = CString::new("k").unwrap();
    assert_eq!(
        unsafe { cuModuleGetFunction(&mut f, module, name.as_ptr()) },
        SUCCESS
    );
    let mut out: u64 = 0;
    assert_eq!(unsafe { cuMemAlloc_v2(&mut out, 64 * 4) }, SUCCESS);
    // cuMemGetAddressRange finds the allocation from inside it.
    let (mut base, mut bytes) = (0u64, 0usize);
    assert_eq!(
        unsafe { cuMemGetAddressRange_v2(&mut base, &mut bytes, out + 8) },
        SUCCESS
    );
    assert_eq!((base, bytes), (out, 256));
    // GCC's plugin: the kernel's parameters in one buffer.
    let mut args: [u64; 3] = [out, 0, 5];
    let mut args_size: usize = 24;
    let mut extra: [*mut c_void; 5] = [
        std::ptr::dangling_mut::<c_void>(),
        args.as_mut_ptr() as *mut c_void,
        2 as *mut c_void,
        &mut args_size as *mut usize as *mut c_void,
        null_mut(),
    ];
    let r = unsafe {
        cuLaunchKernel(
            f,
            1,
            1,
            1,
            64,
            1,
            1,
            0,
            null_mut(),
            null_mut(),
            extra.as_mut_ptr(),
        )
    };
    assert_eq!(r, SUCCESS);
    assert_eq!(cuCtxSynchronize(), SUCCESS);
    let mut host = [0u32; 64];
    assert_eq!(cuMemcpy(host.as_mut_ptr() as u64, out, 64 * 4), SUCCESS);
    assert!(host.iter().all(|v| *v == 15), "{host:?}");
    // The image may be loaded again while its link state lives: another module.
    let mut again = null_mut();
    assert_eq!(unsafe { cuModuleLoadData(&mut again, image) }, SUCCESS);
    assert_ne!(again, module);
    assert_eq!(cuLinkDestroy(l.state), SUCCESS);
    assert_eq!(cuModuleUnload(again), SUCCESS);
    assert_eq!(cuModuleUnload(module), SUCCESS);
    assert_eq!(cuMemFree_v2(out), SUCCESS);
}

#[test]
fn link_errors_go_to_the_error_log() {
    init();
    let l = link_create();
    // A syntax error is reported when the input is added, with its input number.
    let bad = ".version 6.0\n.target sm_30\n.address_size 64\n.visible .entry k ()\n{\nadd.u32 %r1 %r2;\n}\n";
    assert_eq!(add(&l, bad), INVALID_PTX);
    assert!(
        log(&l.error[..]).contains("input 1, line 6"),
        "{}",
        log(&l.error[..])
    );
    // A variable nothing defines fails the link.
    let unresolved =
        ".version 6.0\n.target sm_30\n.address_size 64\n.extern .global .u32 nowhere[1];\n";
    assert_eq!(add(&l, unresolved), SUCCESS);
    let mut image = null_mut();
    assert_eq!(
        unsafe { cuLinkComplete(l.state, &mut image, null_mut()) },
        INVALID_PTX
    );
    assert!(log(&l.error[..]).contains("unresolved external variable 'nowhere'"));
    assert_eq!(cuLinkDestroy(l.state), SUCCESS);
}

static CALLED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

unsafe extern "C" fn callback(_stream: CUstream, status: i32, data: *mut c_void) {
    assert_eq!(status, SUCCESS);
    CALLED.store(data as usize, std::sync::atomic::Ordering::SeqCst);
}

#[test]
fn stream_callbacks_and_event_timing() {
    init();
    let mut stream = null_mut();
    assert_eq!(unsafe { cuStreamCreate(&mut stream, 0) }, SUCCESS);
    let (mut a, mut b) = (null_mut(), null_mut());
    assert_eq!(unsafe { cuEventCreate(&mut a, 0) }, SUCCESS);
    assert_eq!(unsafe { cuEventCreate(&mut b, 0) }, SUCCESS);
    assert_eq!(cuEventRecord(a, stream), SUCCESS);
    assert_eq!(
        cuStreamAddCallback(stream, Some(callback), 42 as *mut c_void, 0),
        SUCCESS
    );
    assert_eq!(cuEventRecord(b, stream), SUCCESS);
    assert_eq!(cuStreamSynchronize(stream), SUCCESS);
    assert_eq!(CALLED.load(std::sync::atomic::Ordering::SeqCst), 42);
    let mut ms = -1.0f32;
    assert_eq!(unsafe { cuEventElapsedTime(&mut ms, a, b) }, SUCCESS);
    assert!(ms >= 0.0, "{ms}");
    assert_eq!(cuEventDestroy_v2(a), SUCCESS);
    assert_eq!(cuEventDestroy_v2(b), SUCCESS);
    assert_eq!(cuStreamDestroy_v2(stream), SUCCESS);
}

/// ptxsim's stand-in cubins (`ptxsim::cubin`, what `ptxsim ptxas`/`nvlink` write for Clang's
/// offloading): an image of two PTX objects is linked when loaded and its kernel runs; a
/// cubin of machine code is refused as one.
#[test]
fn elf_images_carry_ptx_and_machine_code_is_refused() {
    use ptxsim::cubin::{self, Kind};
    init();
    let texts: Vec<String> = [PROGRAM, LIBRARY]
        .iter()
        .map(|t| t.trim_end_matches('\0').to_string())
        .collect();
    let image = cubin::write(Kind::Image, 30, &texts, &[]);
    let mut module = null_mut();
    assert_eq!(
        unsafe { cuModuleLoadData(&mut module, image.as_ptr() as *const c_void) },
        SUCCESS
    );
    let mut f = null_mut();
    let name = CString::new("k").unwrap();
    assert_eq!(
        unsafe { cuModuleGetFunction(&mut f, module, name.as_ptr()) },
        SUCCESS
    );
    let mut out: u64 = 0;
    assert_eq!(unsafe { cuMemAlloc_v2(&mut out, 64 * 4) }, SUCCESS);
    let (mut a0, mut a1, mut a2): (u64, u64, u64) = (out, 0, 7);
    let mut params: [*mut c_void; 3] = [
        &mut a0 as *mut u64 as *mut c_void,
        &mut a1 as *mut u64 as *mut c_void,
        &mut a2 as *mut u64 as *mut c_void,
    ];
    let r = unsafe {
        cuLaunchKernel(
            f,
            1,
            1,
            1,
            64,
            1,
            1,
            0,
            null_mut(),
            params.as_mut_ptr(),
            null_mut(),
        )
    };
    assert_eq!(r, SUCCESS);
    assert_eq!(cuCtxSynchronize(), SUCCESS);
    let mut host = [0u32; 64];
    assert_eq!(cuMemcpy(host.as_mut_ptr() as u64, out, 64 * 4), SUCCESS);
    assert!(host.iter().all(|v| *v == 21), "{host:?}");
    assert_eq!(cuModuleUnload(module), SUCCESS);
    assert_eq!(cuMemFree_v2(out), SUCCESS);

    let sass = cubin::write(Kind::Image, 90, &[], &[]);
    let mut refused = null_mut();
    let r = unsafe { cuModuleLoadData(&mut refused, sass.as_ptr() as *const c_void) };
    assert_eq!(r, 209, "CUDA_ERROR_NO_BINARY_FOR_GPU");
}

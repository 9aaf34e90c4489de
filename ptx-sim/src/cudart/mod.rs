//! A stand-in for the CUDA runtime (`libcudart.so.13`), so that programs nvcc builds with
//! `-cudart shared` run their kernels on ptxsim.
//!
//! `libptxsim.so` exports these functions next to the driver's, with the symbol version
//! `libcudart.so.13` that nvcc's executables ask for (its soname: `build.rs`); a folder where
//! `libcudart.so.13` names it (`scripts/ptxsim-run`, the harness's `ptxsim-driver/`) makes the
//! program's runtime ptxsim. Each runtime call is made of driver calls, as the real runtime's
//! are, so a program that uses both APIs shares one device, its memory and its streams.
//!
//! - Registration (`register.rs`): the constructors nvcc generates hand over the fat binary
//!   (`__cudaRegisterFatBinary`), whose PTX is read (`fatbin.rs`, LZ4 or zstd payloads: `lz4.rs`,
//!   the `ruzstd` crate) and loaded as a module at the first use; each kernel and `__device__`
//!   variable is registered by its host address (`__cudaRegisterFunction`/`Var`); `<<<…>>>`
//!   pushes its configuration (`__cudaPushCallConfiguration`) for the stub to pop and launch
//!   (`__cudaGetKernel`, `__cudaLaunchKernel`, or `cudaLaunchKernel` / `cudaLaunchKernelExC`
//!   with the host function).
//! - The calls (`runtime.rs`): memory, copies (and to/from symbols), memset (also async), streams, events,
//!   device count/properties/attributes, limits, occupancy, errors (`error.rs`; the last error
//!   is per host thread, a kernel fault is sticky as the driver's), synchronisation.
//!
//! Calls it does not have are not exported: the dynamic linker refuses the program and names
//! the call (`scripts/ptxsim-run` binds at start, so it happens before `main`). Not supported:
//! cubin-only fat binaries (ptxsim runs PTX: build with `-gencode
//! arch=compute_NN,code=compute_NN`), relocatable device code (`-rdc`, `__cudaRegisterLinkedBinary`),
//! managed memory, textures and surfaces, graphs, cooperative launches.

pub mod error;
pub mod fatbin;
pub mod lz4;
pub mod props;
pub mod register;
pub mod runtime;

use crate::driver::api::{CUcontext, CUfunction, CUmodule};
use crate::driver::context::cuCtxSetCurrent;
use crate::driver::result;
use error::CudaError;
use std::cell::Cell;
use std::ffi::c_void;
use std::sync::{Mutex, OnceLock};

/// A fat binary registered by a program's constructor: its PTX (or why there is none) and the
/// module made of it at the first use.
pub struct FatBinary {
    ptx: Result<String, String>,
    /// The module's handle (an address), once loaded.
    module: Mutex<Option<Result<usize, CudaError>>>,
}

/// A kernel, registered by its host stub's address.
pub struct Kernel {
    fatbin: &'static FatBinary,
    name: String,
    /// The driver's function handle (an address), once looked up.
    function: Mutex<Option<Result<usize, CudaError>>>,
}

/// A `__device__`/`__constant__` variable, registered by its host shadow's address.
pub struct Variable {
    fatbin: &'static FatBinary,
    name: String,
}

#[derive(Default)]
struct Registry {
    /// host stub address → kernel (boxes never freed: the program keeps their addresses in
    /// its launch stubs).
    kernels: std::collections::HashMap<usize, &'static Kernel>,
    variables: std::collections::HashMap<usize, &'static Variable>,
    /// Addresses of the `Kernel`s handed out as `cudaKernel_t`.
    handles: std::collections::HashSet<usize>,
}

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    static R: OnceLock<Mutex<Registry>> = OnceLock::new();
    R.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

thread_local! {
    /// The thread's last error (cudaGetLastError / cudaPeekAtLastError).
    static LAST_ERROR: Cell<CudaError> = const { Cell::new(error::SUCCESS) };
    /// Whether this thread has the primary context current.
    static HAS_CONTEXT: Cell<bool> = const { Cell::new(false) };
}

/// The runtime's implicit initialisation: the driver initialised and the device's primary
/// context current on the calling thread.
fn init() -> CudaError {
    if HAS_CONTEXT.with(|c| c.get()) {
        return error::SUCCESS;
    }
    let r = crate::driver::api::cuInit(0);
    if r != result::SUCCESS {
        return error::from_driver(r);
    }
    let mut ctx: CUcontext = std::ptr::null_mut();
    // SAFETY: `ctx` is a valid out-pointer.
    let r = unsafe { crate::driver::context::cuDevicePrimaryCtxRetain(&mut ctx, 0) };
    if r != result::SUCCESS {
        return error::from_driver(r);
    }
    let r = cuCtxSetCurrent(ctx);
    if r != result::SUCCESS {
        return error::from_driver(r);
    }
    HAS_CONTEXT.with(|c| c.set(true));
    error::SUCCESS
}

/// Records a call's result as the thread's last error (when it is one) and returns it.
fn finish(e: CudaError) -> CudaError {
    if e != error::SUCCESS {
        LAST_ERROR.with(|l| l.set(e));
    }
    e
}

/// Runs a runtime call: initialised first, never unwinding into C, its error recorded.
fn call(f: impl FnOnce() -> CudaError) -> CudaError {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match init() {
        error::SUCCESS => f(),
        e => e,
    }))
    .unwrap_or(error::from_driver(result::UNKNOWN));
    finish(r)
}

/// A runtime call made of one driver call.
fn driver_call(r: result::CUresult) -> CudaError {
    error::from_driver(r)
}

impl FatBinary {
    /// The module of this fat binary's PTX, loaded at the first use. A fat binary without PTX
    /// for the device, or PTX ptxsim cannot load, is reported once on stderr.
    fn module(&self) -> Result<CUmodule, CudaError> {
        let mut m = self.module.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(r) = *m {
            return r.map(|h| h as CUmodule);
        }
        let r = match &self.ptx {
            Err(why) => {
                eprintln!("ptxsim: {why}");
                Err(error::NO_KERNEL_IMAGE_FOR_DEVICE)
            }
            Ok(ptx) => {
                let mut text = ptx.clone().into_bytes();
                text.push(0);
                let mut module: CUmodule = std::ptr::null_mut();
                // SAFETY: NUL-terminated PTX text and a valid out-pointer.
                let r = unsafe {
                    crate::driver::modules::cuModuleLoadData(
                        &mut module,
                        text.as_ptr() as *const c_void,
                    )
                };
                match r {
                    result::SUCCESS => Ok(module as usize),
                    r => Err(error::from_driver(r)),
                }
            }
        };
        *m = Some(r);
        r.map(|h| h as CUmodule)
    }
}

impl Kernel {
    /// The driver's function for this kernel (its module loaded at the first use).
    fn function(&self) -> Result<CUfunction, CudaError> {
        let mut f = self.function.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(r) = *f {
            return r.map(|h| h as CUfunction);
        }
        let r = self.fatbin.module().and_then(|m| {
            let name = std::ffi::CString::new(self.name.clone())
                .map_err(|_| error::INVALID_DEVICE_FUNCTION)?;
            let mut func: CUfunction = std::ptr::null_mut();
            // SAFETY: a loaded module, a NUL-terminated name, a valid out-pointer.
            match unsafe {
                crate::driver::modules::cuModuleGetFunction(&mut func, m, name.as_ptr())
            } {
                result::SUCCESS => Ok(func as usize),
                _ => {
                    eprintln!(
                        "ptxsim: kernel '{}' is registered but not in the fat binary's PTX",
                        self.name
                    );
                    Err(error::INVALID_DEVICE_FUNCTION)
                }
            }
        });
        *f = Some(r);
        r.map(|h| h as CUfunction)
    }
}

/// The kernel whose host stub is at `host_fn` (cudaLaunchKernel, cudaFuncGetAttributes, …).
fn kernel_by_stub(host_fn: *const c_void) -> Result<&'static Kernel, CudaError> {
    registry()
        .kernels
        .get(&(host_fn as usize))
        .copied()
        .ok_or(error::INVALID_DEVICE_FUNCTION)
}

/// The device address and size of the variable whose host shadow is at `symbol`.
fn variable(symbol: *const c_void) -> Result<(u64, usize), CudaError> {
    let v = registry()
        .variables
        .get(&(symbol as usize))
        .copied()
        .ok_or(error::INVALID_SYMBOL)?;
    let m = v.fatbin.module()?;
    let name = std::ffi::CString::new(v.name.clone()).map_err(|_| error::INVALID_SYMBOL)?;
    let (mut p, mut bytes) = (0u64, 0usize);
    // SAFETY: a loaded module, a NUL-terminated name, valid out-pointers.
    match unsafe {
        crate::driver::modules::cuModuleGetGlobal_v2(&mut p, &mut bytes, m, name.as_ptr())
    } {
        result::SUCCESS => Ok((p, bytes)),
        _ => Err(error::INVALID_SYMBOL),
    }
}

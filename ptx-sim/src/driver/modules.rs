//! Modules: loading PTX (`cuModuleLoadDataEx`, `cuModuleLoadData`, `cuModuleLoad`) or the image
//! a link made (`cuLinkComplete`, see `linker.rs`), and finding their kernels and globals.
//!
//! PTX ptxsim cannot run is refused at load time, as the JIT refuses bad PTX: the message (with
//! the PTX line) goes to the JIT error log when the caller gives one, else to stderr, so that it
//! is never lost.

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use super::api::{out, ready, CUdeviceptr, CUfunction, CUmodule};
use super::{driver, linker, lock, parse_arch, result, result::CUresult};
use super::{FunctionHandle, ModuleHandle};
use crate::cubin;
use crate::machine::Module;
use crate::program::decode::DecodeError;
use crate::ptx::{link, parser};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::Mutex;

/// Writes `text` into a JIT log buffer of `size` bytes (NUL-terminated, truncated to fit);
/// returns the bytes written.
pub(super) unsafe fn write_log(buf: *mut c_void, size: usize, text: &str) -> usize {
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

/// The info and error log buffers JIT options name: (buffer, size, index of the size option).
#[derive(Clone, Copy)]
pub(super) struct JitLogs {
    pub logs: [(*mut c_void, usize, Option<usize>); 2],
}

// SAFETY: the buffers are the caller's, written only during the calls they are given to.
unsafe impl Send for JitLogs {}
unsafe impl Sync for JitLogs {}

pub(super) const INFO: usize = 0;
pub(super) const ERROR: usize = 1;

impl JitLogs {
    /// The logs among `n` JIT options; None if the option arrays are missing.
    pub unsafe fn from_options(
        n: c_uint,
        options: *const c_int,
        values: *const *mut c_void,
    ) -> Option<JitLogs> {
        let mut logs = [
            (std::ptr::null_mut(), 0, None),
            (std::ptr::null_mut(), 0, None),
        ];
        if n > 0 && (options.is_null() || values.is_null()) {
            return None;
        }
        for i in 0..n as usize {
            let v = *values.add(i);
            match *options.add(i) {
                JIT_INFO_LOG_BUFFER => logs[INFO].0 = v,
                JIT_INFO_LOG_BUFFER_SIZE_BYTES => {
                    logs[INFO].1 = v as usize;
                    logs[INFO].2 = Some(i);
                }
                JIT_ERROR_LOG_BUFFER => logs[ERROR].0 = v,
                JIT_ERROR_LOG_BUFFER_SIZE_BYTES => {
                    logs[ERROR].1 = v as usize;
                    logs[ERROR].2 = Some(i);
                }
                _ => {}
            }
        }
        Some(JitLogs { logs })
    }

    pub fn has(&self, which: usize) -> bool {
        !self.logs[which].0.is_null() && self.logs[which].1 > 0
    }

    /// Writes a log; with `values`, also the bytes written into its size option's value (as
    /// cuModuleLoadDataEx does).
    pub unsafe fn write(&self, which: usize, text: &str, values: Option<*mut *mut c_void>) {
        let (buf, size, slot) = self.logs[which];
        let n = write_log(buf, size, text);
        if let (Some(values), Some(i)) = (values, slot) {
            *values.add(i) = n as *mut c_void;
        }
    }

    /// Reports an error: into the error log if there is one, else on stderr.
    pub unsafe fn error(&self, text: &str, values: Option<*mut *mut c_void>) {
        if self.has(ERROR) {
            self.write(ERROR, text, values);
        } else {
            eprintln!("{text}");
        }
    }
}

/// Registers a loaded module (after checking its target against the device); its handle.
unsafe fn register(
    m: Module,
    logs: &JitLogs,
    values: Option<*mut *mut c_void>,
    handle: *mut CUmodule,
) -> CUresult {
    let d = driver();
    let cc = d.machine().config.compute_capability;
    if let Some(target) = parse_arch(&m.program.target) {
        if target > cc {
            logs.error(
                &format!(
                    "ptxsim: the PTX is for {}, this device is sm_{}{}",
                    m.program.target, cc.0, cc.1
                ),
                values,
            );
            d.unload(m);
            return result::NO_BINARY_FOR_GPU;
        }
    }
    logs.write(
        INFO,
        &format!("ptxsim: loaded {} functions", m.program.functions.len()),
        values,
    );
    if logs.has(ERROR) {
        logs.write(ERROR, "", values);
    }
    let h = Box::into_raw(Box::new(ModuleHandle {
        module: m,
        device: super::context::current_device(),
        functions: Mutex::new(Default::default()),
    }));
    lock(&d.modules).insert(h as usize);
    out(handle, h as CUmodule)
}

/// Loads an image: PTX text, or what cuLinkComplete returned.
unsafe fn load_image(
    handle: *mut CUmodule,
    image: *const c_void,
    logs: &JitLogs,
    values: Option<*mut *mut c_void>,
) -> CUresult {
    if handle.is_null() || image.is_null() {
        return result::INVALID_VALUE;
    }
    let d = driver();
    if let Some(loaded) = linker::load_linked(image) {
        return match loaded {
            Ok(m) => register(m, logs, values, handle),
            Err(r) => r,
        };
    }
    if let Some(r) = load_elf(image, logs, values) {
        return match r {
            Ok(m) => register(m, logs, values, handle),
            Err(r) => r,
        };
    }
    let text = CStr::from_ptr(image as *const c_char).to_string_lossy();
    if !text.contains(".version") {
        logs.error(
            "ptxsim: the image is not PTX text (cubins and fatbins are not supported)",
            values,
        );
        return result::INVALID_PTX;
    }
    match d.machine().load(&text) {
        Ok(m) => register(m, logs, values, handle),
        Err(e) => {
            logs.error(&load_error(&e), values);
            if logs.has(INFO) {
                logs.write(INFO, "", values);
            }
            result::INVALID_PTX
        }
    }
}

/// An ELF image: one of ptxsim's stand-in cubins (`cubin.rs`: the PTX of one object, or of
/// several that an `nvlink` stand-in joined, linked here), or a real cubin, refused. None: not
/// ELF.
unsafe fn load_elf(
    image: *const c_void,
    logs: &JitLogs,
    values: Option<*mut *mut c_void>,
) -> Option<Result<Module, CUresult>> {
    // Byte by byte, stopping at the first difference: `image` may be a short string.
    let p = image as *const u8;
    if !b"\x7fELF".iter().enumerate().all(|(k, b)| *p.add(k) == *b) {
        return None;
    }
    // SAFETY: an ELF file starts with its 64-byte header.
    let header = std::slice::from_raw_parts(p, 64);
    // Into the error log and on stderr: runtimes do not all print the log.
    let fail = |message: String, code: CUresult| {
        let text = format!("ptxsim: {message}");
        // SAFETY: the caller's log buffers (JitLogs::from_options checked them).
        unsafe { logs.error(&text, values) };
        if logs.has(ERROR) {
            eprintln!("{text}");
        }
        Some(Err(code))
    };
    let Some(size) = cubin::file_size(header) else {
        return fail("a malformed ELF image".into(), result::INVALID_IMAGE);
    };
    // SAFETY: the file's section headers end it (as `cubin::write` lays it out); a real
    // cubin's end there too.
    let bytes = std::slice::from_raw_parts(image as *const u8, size);
    let texts = match cubin::read_ptx(bytes) {
        Ok(t) => t,
        Err(why) => return fail(format!("the image is {why}"), result::NO_BINARY_FOR_GPU),
    };
    // One module loads as it is; several are linked (both report their input as 1-based).
    let module = match texts.as_slice() {
        [one] => parser::parse(one).map_err(|e| link::LinkError {
            input: 1,
            line: e.line,
            message: e.message,
        }),
        _ => link::parse_and_link(&texts),
    };
    let module = match module {
        Ok(m) => m,
        Err(e) => {
            return fail(
                format!(
                    "ptx input {} of the image, line {}: {}",
                    e.input, e.line, e.message
                ),
                result::INVALID_PTX,
            )
        }
    };
    match driver().machine().load_module(&module) {
        Ok(m) => Some(Ok(m)),
        Err(e) => fail(load_error(&e), result::INVALID_PTX),
    }
}

/// How a module that cannot be loaded is reported.
pub(super) fn load_error(e: &DecodeError) -> String {
    match e.input {
        0 => format!("ptxsim: ptx line {}: {}", e.line, e.message),
        k => format!("ptxsim: ptx input {k}, line {}: {}", e.line, e.message),
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleLoadDataEx(
    module: *mut CUmodule,
    image: *const c_void,
    num_options: c_uint,
    options: *mut c_int,
    values: *mut *mut c_void,
) -> CUresult {
    ready(|| {
        let Some(logs) = JitLogs::from_options(num_options, options, values) else {
            return result::INVALID_VALUE;
        };
        load_image(module, image, &logs, Some(values))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleLoadData(module: *mut CUmodule, image: *const c_void) -> CUresult {
    cuModuleLoadDataEx(module, image, 0, std::ptr::null_mut(), std::ptr::null_mut())
}

/// Loads a PTX file (cubin and fatbin files are not supported).
#[no_mangle]
pub unsafe extern "C" fn cuModuleLoad(module: *mut CUmodule, path: *const c_char) -> CUresult {
    ready(|| {
        if path.is_null() {
            return result::INVALID_VALUE;
        }
        let path = CStr::from_ptr(path).to_string_lossy().into_owned();
        let Ok(mut bytes) = std::fs::read(&path) else {
            return result::FILE_NOT_FOUND;
        };
        bytes.push(0);
        let logs = JitLogs {
            logs: [(std::ptr::null_mut(), 0, None); 2],
        };
        load_image(module, bytes.as_ptr() as *const c_void, &logs, None)
    })
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
        d.unload(module);
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
                device: m.device,
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

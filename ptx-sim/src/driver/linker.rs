//! The JIT linker: `cuLinkCreate`, `cuLinkAddData`, `cuLinkAddFile`, `cuLinkComplete`,
//! `cuLinkDestroy`. GCC's libgomp plugin links the program's PTX with its device libraries'
//! this way, then loads the result with `cuModuleLoadData`.
//!
//! Each PTX input is parsed when it is added (a syntax error is reported then, naming the
//! input); `cuLinkComplete` links them (`ptx::link`) and decodes the result, so that PTX ptxsim
//! cannot run is refused there, with its input and line — the plugin loads the image without a
//! JIT log. The "cubin" it returns is a small image naming the link state, which
//! `cuModuleLoadData` recognises (`load_linked`); like a real one, it lives until
//! `cuLinkDestroy`.
//!
//! Errors go to the error log buffer given to `cuLinkCreate` and to stderr: libgomp does not
//! print the log when `cuLinkComplete` fails.

#![allow(non_snake_case)]
#![allow(clippy::missing_safety_doc)]

use super::api::ready;
use super::modules::{load_error, JitLogs, ERROR, INFO};
use super::{driver, lock, result, result::CUresult};
use crate::machine::Module;
use crate::ptx::{ast, link, parser};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::Mutex;

pub type CUlinkState = *mut c_void;

/// The start of the images cuLinkComplete returns (followed by the link state's handle).
const MAGIC: &[u8; 24] = b"ptxsim linked image v1\n\0";

const JIT_INPUT_CUBIN: c_int = 0;
const JIT_INPUT_PTX: c_int = 1;

pub struct LinkState {
    logs: JitLogs,
    inputs: Mutex<Vec<ast::Module>>,
    /// What cuLinkComplete made: the linked module, and its first load (handed to the first
    /// cuModuleLoadData of the image; later loads decode the module again).
    linked: Mutex<Option<(ast::Module, Option<Module>)>>,
    /// The image cuLinkComplete returns.
    image: Box<[u8]>,
}

fn state(h: CUlinkState) -> Result<&'static LinkState, CUresult> {
    if !lock(&driver().links).contains(&(h as usize)) {
        return Err(result::INVALID_HANDLE);
    }
    // SAFETY: registered by cuLinkCreate, unregistered before being freed.
    Ok(unsafe { &*(h as *const LinkState) })
}

impl LinkState {
    /// Reports an error in the error log and on stderr.
    fn error(&self, text: &str) {
        eprintln!("{text}");
        if self.logs.has(ERROR) {
            // SAFETY: the caller of cuLinkCreate keeps its log buffers for the link's lifetime.
            unsafe { self.logs.write(ERROR, text, None) };
        }
    }

    fn add(&self, text: &str, name: &str) -> CUresult {
        let mut inputs = lock(&self.inputs);
        let k = inputs.len() + 1;
        let what = if name.is_empty() {
            format!("input {k}")
        } else {
            format!("input {k} ({name})")
        };
        if !text.contains(".version") {
            self.error(&format!(
                "ptxsim: {what} is not PTX text (cubins and fatbins are not supported)"
            ));
            return result::INVALID_PTX;
        }
        match parser::parse(text) {
            Ok(m) => {
                inputs.push(m);
                result::SUCCESS
            }
            Err(e) => {
                self.error(&format!(
                    "ptxsim: ptx {what}, line {}: {}",
                    e.line, e.message
                ));
                result::INVALID_PTX
            }
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuLinkCreate_v2(
    num_options: c_uint,
    options: *mut c_int,
    values: *mut *mut c_void,
    state_out: *mut CUlinkState,
) -> CUresult {
    ready(|| {
        if state_out.is_null() {
            return result::INVALID_VALUE;
        }
        let Some(logs) = JitLogs::from_options(num_options, options, values) else {
            return result::INVALID_VALUE;
        };
        let s = Box::into_raw(Box::new(LinkState {
            logs,
            inputs: Mutex::new(Vec::new()),
            linked: Mutex::new(None),
            image: Box::new([0u8; 0]),
        }));
        let mut image = MAGIC.to_vec();
        image.extend_from_slice(&(s as usize as u64).to_le_bytes());
        (*s).image = image.into_boxed_slice();
        lock(&driver().links).insert(s as usize);
        *state_out = s as CUlinkState;
        result::SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuLinkCreate(
    num_options: c_uint,
    options: *mut c_int,
    values: *mut *mut c_void,
    state_out: *mut CUlinkState,
) -> CUresult {
    cuLinkCreate_v2(num_options, options, values, state_out)
}

/// The text of a PTX input of `size` bytes (up to its NUL, if it has one).
unsafe fn input_text(data: *const c_void, size: usize) -> String {
    let bytes = std::slice::from_raw_parts(data as *const u8, size);
    let end = bytes.iter().position(|b| *b == 0).unwrap_or(size);
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

unsafe fn name_of(name: *const c_char) -> String {
    if name.is_null() {
        String::new()
    } else {
        CStr::from_ptr(name).to_string_lossy().into_owned()
    }
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cuLinkAddData_v2(
    state_h: CUlinkState,
    kind: c_int,
    data: *mut c_void,
    size: usize,
    name: *const c_char,
    _num_options: c_uint,
    _options: *mut c_int,
    _values: *mut *mut c_void,
) -> CUresult {
    ready(|| {
        let s = match state(state_h) {
            Ok(s) => s,
            Err(r) => return r,
        };
        if data.is_null() || size == 0 {
            return result::INVALID_VALUE;
        }
        match kind {
            JIT_INPUT_PTX => s.add(&input_text(data, size), &name_of(name)),
            JIT_INPUT_CUBIN => {
                s.error("ptxsim: cubin inputs are not supported (only PTX)");
                result::INVALID_IMAGE
            }
            _ => {
                s.error(&format!(
                    "ptxsim: link inputs of type {kind} are not supported (only PTX)"
                ));
                result::NOT_SUPPORTED
            }
        }
    })
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cuLinkAddData(
    state_h: CUlinkState,
    kind: c_int,
    data: *mut c_void,
    size: usize,
    name: *const c_char,
    num_options: c_uint,
    options: *mut c_int,
    values: *mut *mut c_void,
) -> CUresult {
    cuLinkAddData_v2(
        state_h,
        kind,
        data,
        size,
        name,
        num_options,
        options,
        values,
    )
}

#[no_mangle]
pub unsafe extern "C" fn cuLinkAddFile_v2(
    state_h: CUlinkState,
    kind: c_int,
    path: *const c_char,
    _num_options: c_uint,
    _options: *mut c_int,
    _values: *mut *mut c_void,
) -> CUresult {
    ready(|| {
        let s = match state(state_h) {
            Ok(s) => s,
            Err(r) => return r,
        };
        if path.is_null() {
            return result::INVALID_VALUE;
        }
        let path = name_of(path);
        if kind != JIT_INPUT_PTX {
            s.error(&format!("ptxsim: {path}: only PTX inputs are supported"));
            return result::NOT_SUPPORTED;
        }
        match std::fs::read(&path) {
            Ok(bytes) => s.add(&String::from_utf8_lossy(&bytes), &path),
            Err(e) => {
                s.error(&format!("ptxsim: cannot read {path}: {e}"));
                result::FILE_NOT_FOUND
            }
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuLinkAddFile(
    state_h: CUlinkState,
    kind: c_int,
    path: *const c_char,
    num_options: c_uint,
    options: *mut c_int,
    values: *mut *mut c_void,
) -> CUresult {
    cuLinkAddFile_v2(state_h, kind, path, num_options, options, values)
}

#[no_mangle]
pub unsafe extern "C" fn cuLinkComplete(
    state_h: CUlinkState,
    image_out: *mut *mut c_void,
    size_out: *mut usize,
) -> CUresult {
    ready(|| {
        let s = match state(state_h) {
            Ok(s) => s,
            Err(r) => return r,
        };
        if image_out.is_null() {
            return result::INVALID_VALUE;
        }
        let inputs = std::mem::take(&mut *lock(&s.inputs));
        if inputs.is_empty() {
            s.error("ptxsim: cuLinkComplete without inputs");
            return result::INVALID_VALUE;
        }
        let n = inputs.len();
        let linked = match link::link(inputs) {
            Ok(m) => m,
            Err(e) => {
                s.error(&format!("ptxsim: link error: {e}"));
                return result::INVALID_PTX;
            }
        };
        let d = driver();
        let first = match d.machine().load_module(&linked) {
            Ok(m) => m,
            Err(e) => {
                s.error(&load_error(&e));
                return result::INVALID_PTX;
            }
        };
        if s.logs.has(INFO) {
            s.logs.write(
                INFO,
                &format!(
                    "ptxsim: linked {n} inputs: {} functions",
                    first.program.functions.len()
                ),
                None,
            );
        }
        if let Some((_, Some(old))) = lock(&s.linked).replace((linked, Some(first))) {
            d.unload(old);
        }
        *image_out = s.image.as_ptr() as *mut c_void;
        if !size_out.is_null() {
            *size_out = s.image.len();
        }
        result::SUCCESS
    })
}

#[no_mangle]
pub extern "C" fn cuLinkDestroy(state_h: CUlinkState) -> CUresult {
    ready(|| {
        let d = driver();
        if !lock(&d.links).remove(&(state_h as usize)) {
            return result::INVALID_HANDLE;
        }
        // SAFETY: made by cuLinkCreate_v2, unregistered just now.
        let s = unsafe { Box::from_raw(state_h as *mut LinkState) };
        if let Some((_, Some(m))) = s.linked.into_inner().unwrap_or_else(|p| p.into_inner()) {
            d.unload(m);
        }
        result::SUCCESS
    })
}

/// If `image` is one cuLinkComplete returned: the module it loads (or why it cannot).
pub(super) unsafe fn load_linked(image: *const c_void) -> Option<Result<Module, CUresult>> {
    // Compare byte by byte, stopping at the first difference: `image` may be a short string.
    let p = image as *const u8;
    for (k, b) in MAGIC.iter().enumerate() {
        if *p.add(k) != *b {
            return None;
        }
    }
    let mut h = [0u8; 8];
    std::ptr::copy_nonoverlapping(p.add(MAGIC.len()), h.as_mut_ptr(), 8);
    let s = match state(u64::from_le_bytes(h) as usize as CUlinkState) {
        Ok(s) => s,
        // Its link state was destroyed, and the image with it.
        Err(_) => return Some(Err(result::INVALID_IMAGE)),
    };
    let mut linked = lock(&s.linked);
    let Some((module, first)) = linked.as_mut() else {
        return Some(Err(result::INVALID_IMAGE));
    };
    if let Some(m) = first.take() {
        // Loaded at cuLinkComplete on that context's device: usable if it is this one's (or it
        // has no memory of its own), else loaded again here.
        let here = super::context::current_device();
        match m.allocations().first().and_then(|&a| driver().owner(a)) {
            Some((dev, _)) if dev != here => driver().unload(m),
            _ => return Some(Ok(m)),
        }
    }
    Some(driver().machine().load_module(module).map_err(|e| {
        eprintln!("{}", load_error(&e));
        result::INVALID_PTX
    }))
}

//! Device types and numbers: `acc_get_num_devices`, `acc_set_device_*`, `acc_get_device_*`,
//! `acc_get_property*`, `acc_init*`, `acc_shutdown*`, `acc_on_device`.

use super::tasks::wait_for_async_tasks;
use crate::device::emulator::simt;
use crate::errors::fatal;
use crate::runtime::{self, DeviceState};
use std::collections::HashMap;
use std::ffi::{c_char, c_int, CString};
use std::sync::atomic::Ordering;
use std::sync::Mutex;

/// `acc_device_t` of openacc.h.
#[allow(non_camel_case_types)]
pub type acc_device_t = c_int;
pub const ACC_DEVICE_NONE: acc_device_t = 0;
pub const ACC_DEVICE_DEFAULT: acc_device_t = 1;
pub const ACC_DEVICE_HOST: acc_device_t = 2;
pub const ACC_DEVICE_NOT_HOST: acc_device_t = 3;
pub const ACC_DEVICE_NVIDIA: acc_device_t = 4;

pub(super) fn is_device_type(t: acc_device_t) -> bool {
    matches!(
        t,
        ACC_DEVICE_DEFAULT | ACC_DEVICE_NOT_HOST | ACC_DEVICE_NVIDIA
    )
}

/// The current device (acc_set_device_num / ACC_DEVICE_NUM), or None for the host.
pub(super) fn current() -> Option<&'static DeviceState> {
    let d = current_unsettled()?;
    d.settle_spread();
    Some(d)
}

/// `current` for a routine that settles the data it uses itself
/// (`DeviceState::settle_spread_for`).
pub(super) fn current_unsettled() -> Option<&'static DeviceState> {
    let rt = runtime::get();
    let d = rt.device_unsettled(rt.default_device.load(Ordering::Relaxed))?;
    d.ensure_loaded();
    Some(d)
}

/// The name of an `acc_device_t` value, for messages.
fn type_name(t: acc_device_t) -> String {
    match t {
        ACC_DEVICE_NONE => "acc_device_none".into(),
        ACC_DEVICE_DEFAULT => "acc_device_default".into(),
        ACC_DEVICE_HOST => "acc_device_host".into(),
        ACC_DEVICE_NOT_HOST => "acc_device_not_host".into(),
        ACC_DEVICE_NVIDIA => "acc_device_nvidia".into(),
        other => format!("acc_device_t value {other}"),
    }
}

/// The two kinds of device a program can have: the host, and ptxcc's GPU (a CUDA device or the
/// CPU emulator standing in for one), which `acc_device_nvidia` and `acc_device_not_host` name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Host,
    Nvidia,
}

/// The kind of device `dev_type` names for `routine`; anything else is fatal (OpenACC 3.3's
/// acc_error_device_type_unavailable). `acc_device_default` is the GPU when there is one.
pub(super) fn kind_of(routine: &str, dev_type: acc_device_t) -> Kind {
    match dev_type {
        ACC_DEVICE_HOST => Kind::Host,
        ACC_DEVICE_NVIDIA | ACC_DEVICE_NOT_HOST => Kind::Nvidia,
        ACC_DEVICE_DEFAULT if runtime::get().num_devices() > 0 => Kind::Nvidia,
        ACC_DEVICE_DEFAULT => Kind::Host,
        other => fatal(&format!(
            "{routine}: {} is not a device type; use acc_device_nvidia (or acc_device_not_host, \
             acc_device_default: the GPU, or the CPU emulator standing in for one) or acc_device_host",
            type_name(other)
        )),
    }
}

/// The kind of the current device (acc_get_device_type), for the routines that take a device
/// number of the current device type.
fn current_kind() -> Kind {
    if current().is_some() {
        Kind::Nvidia
    } else {
        Kind::Host
    }
}

/// Device `dev_num` of `kind` for `routine` (None: the host, whose only device is number 0).
/// `what` names the argument in the message ("device number", "dev_num_src"). A number that
/// names no device is fatal (OpenACC 3.3's acc_error_device_unavailable), and so is asking for a
/// GPU where there is none.
fn device_of_kind(
    routine: &str,
    what: &str,
    dev_num: c_int,
    kind: Kind,
    current: bool,
) -> Option<&'static DeviceState> {
    let rt = runtime::get();
    match kind {
        Kind::Host => {
            if dev_num != 0 {
                fatal(&format!(
                    "{routine}: {what} {dev_num} does not exist: the {}device type is acc_device_host, \
                     which has one device, number 0",
                    if current { "current " } else { "" }
                ));
            }
            None
        }
        Kind::Nvidia => {
            let n = rt.num_devices();
            if n == 0 {
                fatal(&format!(
                    "{routine}: no acc_device_nvidia device is available ({}); use acc_device_host",
                    rt.no_device_reason.as_deref().unwrap_or("no device")
                ));
            }
            match rt.device(dev_num) {
                Some(d) => {
                    d.ensure_loaded();
                    Some(d)
                }
                None => fatal(&format!(
                    "{routine}: {what} {dev_num} does not exist: {}; {}",
                    match n {
                        1 => "there is one acc_device_nvidia device, number 0".to_string(),
                        n => format!(
                            "there are {n} acc_device_nvidia devices, numbers 0 to {}",
                            n - 1
                        ),
                    },
                    rt.missing_device_hint()
                )),
            }
        }
    }
}

/// Device `dev_num` of type `dev_type` (the `_device` routines that take both; None: the host).
pub(super) fn device_of_type(
    routine: &str,
    dev_num: c_int,
    dev_type: acc_device_t,
) -> Option<&'static DeviceState> {
    device_of_kind(
        routine,
        "device number",
        dev_num,
        kind_of(routine, dev_type),
        false,
    )
}

/// Device `dev_num` of the current device type (the `_device` routines that take only a number,
/// and acc_memcpy_d2d; None: the host).
pub(super) fn device_of_current_type(
    routine: &str,
    what: &str,
    dev_num: c_int,
) -> Option<&'static DeviceState> {
    device_of_kind(routine, what, dev_num, current_kind(), true)
}

#[no_mangle]
pub extern "C" fn acc_get_num_devices(dev_type: acc_device_t) -> c_int {
    match dev_type {
        ACC_DEVICE_HOST => 1,
        t if is_device_type(t) => runtime::get().num_devices(),
        _ => 0,
    }
}

#[no_mangle]
pub extern "C" fn acc_set_device_type(dev_type: acc_device_t) {
    let rt = runtime::get();
    match dev_type {
        ACC_DEVICE_HOST => rt
            .default_device
            .store(rt.initial_device(), Ordering::Relaxed),
        t if is_device_type(t) => {
            if rt.num_devices() == 0 {
                fatal(&format!(
                    "acc_set_device_type: no NVIDIA device is available ({}); use acc_device_host",
                    rt.no_device_reason.as_deref().unwrap_or("no device")
                ));
            }
            rt.default_device.store(0, Ordering::Relaxed);
        }
        other => fatal(&format!(
            "acc_set_device_type: {other} is not an acc_device_t this runtime supports"
        )),
    }
}

#[no_mangle]
pub extern "C" fn acc_get_device_type() -> acc_device_t {
    if current().is_some() {
        ACC_DEVICE_NVIDIA
    } else {
        ACC_DEVICE_HOST
    }
}

#[no_mangle]
pub extern "C" fn acc_set_device_num(dev_num: c_int, dev_type: acc_device_t) {
    let rt = runtime::get();
    let number = match device_of_type("acc_set_device_num", dev_num, dev_type) {
        Some(d) => d.number,
        None => rt.initial_device(),
    };
    rt.default_device.store(number, Ordering::Relaxed);
}

#[no_mangle]
pub extern "C" fn acc_get_device_num(dev_type: acc_device_t) -> c_int {
    if dev_type == ACC_DEVICE_HOST {
        return 0;
    }
    current().map_or(0, |d| d.number)
}

fn property_string(
    dev_num: c_int,
    property: c_int,
    make: impl FnOnce() -> String,
) -> *const c_char {
    static STRINGS: Mutex<Option<HashMap<(c_int, c_int), CString>>> = Mutex::new(None);
    let mut g = STRINGS.lock().unwrap_or_else(|p| p.into_inner());
    let map = g.get_or_insert_with(HashMap::new);
    let s = map
        .entry((dev_num, property))
        .or_insert_with(|| CString::new(make().replace('\0', " ")).unwrap_or_default());
    // The CString lives in a static map for the rest of the program.
    s.as_ptr()
}

#[no_mangle]
pub extern "C" fn acc_get_property(
    dev_num: c_int,
    dev_type: acc_device_t,
    property: c_int,
) -> usize {
    if !is_device_type(dev_type) {
        return 0;
    }
    let Some(d) = runtime::get().device(dev_num) else {
        return 0;
    };
    match (property, d.device.memory_info()) {
        (1, Some((_, total))) => total as usize,
        (2, Some((free, _))) => free as usize,
        _ => 0,
    }
}

#[no_mangle]
pub extern "C" fn acc_get_property_string(
    dev_num: c_int,
    dev_type: acc_device_t,
    property: c_int,
) -> *const c_char {
    if !is_device_type(dev_type) {
        return std::ptr::null();
    }
    let Some(d) = runtime::get().device(dev_num) else {
        return std::ptr::null();
    };
    match property {
        0x10001 => property_string(dev_num, property, || d.device.description()),
        0x10002 => property_string(dev_num, property, || "NVIDIA (ptxcc)".into()),
        0x10003 => property_string(dev_num, property, || "ptxcc libptxrt".into()),
        _ => std::ptr::null(),
    }
}

/// Initialises every device of `dev_type` (loads the program's device code: the PTX JIT on a
/// GPU), so that the first construct does not pay for it.
#[no_mangle]
pub extern "C" fn acc_init(dev_type: acc_device_t) {
    if kind_of("acc_init", dev_type) == Kind::Nvidia {
        let rt = runtime::get();
        if rt.num_devices() == 0 {
            fatal(&format!(
                "acc_init({}): no device is available ({})",
                type_name(dev_type),
                rt.no_device_reason.as_deref().unwrap_or("no device")
            ));
        }
        for d in &rt.devices {
            d.ensure_loaded();
        }
    }
}

/// Initialises device `dev_num` of `dev_type` only.
#[no_mangle]
pub extern "C" fn acc_init_device(dev_num: c_int, dev_type: acc_device_t) {
    // device_of_type loads the device's code.
    let _ = device_of_type("acc_init_device", dev_num, dev_type);
}

/// What shutting a device down means here: everything queued on it has completed (the device
/// stays usable, as a later `acc_init` or construct would make it again).
fn finish(d: &DeviceState) {
    for q in d.queues.all() {
        let _ = d.device.queue_synchronize(q);
    }
    let _ = d.device.synchronize();
}

/// Shuts down every device of `dev_type`, after the async constructs still running on them.
#[no_mangle]
pub extern "C" fn acc_shutdown(dev_type: acc_device_t) {
    if kind_of("acc_shutdown", dev_type) == Kind::Nvidia {
        wait_for_async_tasks();
        for d in &runtime::get().devices {
            finish(d);
        }
    }
}

/// Shuts down device `dev_num` of `dev_type` only.
#[no_mangle]
pub extern "C" fn acc_shutdown_device(dev_num: c_int, dev_type: acc_device_t) {
    if let Some(d) = device_of_type("acc_shutdown_device", dev_num, dev_type) {
        wait_for_async_tasks();
        finish(d);
    }
}

/// 1 when called from code running on a device of that type (device code on the emulator), else 0.
#[no_mangle]
pub extern "C" fn acc_on_device(dev_type: acc_device_t) -> c_int {
    let on_device = simt::in_kernel();
    match dev_type {
        ACC_DEVICE_HOST => (!on_device) as c_int,
        ACC_DEVICE_NOT_HOST | ACC_DEVICE_NVIDIA => on_device as c_int,
        _ => 0,
    }
}

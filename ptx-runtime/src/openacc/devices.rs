//! Device types and numbers: `acc_get_num_devices`, `acc_set_device_*`, `acc_get_device_*`,
//! `acc_get_property*`, `acc_init*`, `acc_shutdown*`, `acc_on_device`.

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
    let rt = runtime::get();
    let d = rt.device(rt.default_device.load(Ordering::Relaxed))?;
    d.ensure_loaded();
    Some(d)
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
    if dev_type == ACC_DEVICE_HOST {
        rt.default_device
            .store(rt.initial_device(), Ordering::Relaxed);
        return;
    }
    if dev_num < 0 || dev_num >= rt.num_devices() {
        fatal(&format!(
            "acc_set_device_num: device {dev_num} does not exist ({} device{} available)",
            rt.num_devices(),
            if rt.num_devices() == 1 { "" } else { "s" }
        ));
    }
    rt.default_device.store(dev_num, Ordering::Relaxed);
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

#[no_mangle]
pub extern "C" fn acc_init(dev_type: acc_device_t) {
    let rt = runtime::get();
    if dev_type == ACC_DEVICE_NVIDIA && rt.num_devices() == 0 {
        fatal(&format!(
            "acc_init(acc_device_nvidia): no device is available ({})",
            rt.no_device_reason.as_deref().unwrap_or("no device")
        ));
    }
    let _ = current();
}

#[no_mangle]
pub extern "C" fn acc_shutdown(_dev_type: acc_device_t) {
    if let Some(d) = current() {
        for q in d.queues.all() {
            let _ = d.device.queue_synchronize(q);
        }
        let _ = d.device.synchronize();
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


//! `acc_memcpy_*`: copies between host and device memory, within a device, and between the
//! device copies of present data (`acc_memcpy_d2d`, on two devices of the current type).

use super::devices::{current, device_of_current_type};
use super::queue_of;
use super::tasks::wait_for_queue_tasks;
use super::waits;
use crate::errors::fatal;
use crate::mapping::Mapper;
use crate::runtime::DeviceState;
use std::ffi::{c_int, c_void};

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_to_device(d: *mut c_void, h: *mut c_void, bytes: usize) {
    if bytes == 0 {
        return;
    }
    match current() {
        Some(dev) => {
            if let Err(e) = dev
                .device
                .copy_to_device(d as u64, h as *const u8, bytes as u64)
            {
                fatal(&format!("acc_memcpy_to_device({d:p}, {h:p}, {bytes}): {e}"));
            }
        }
        None => std::ptr::copy(h as *const u8, d as *mut u8, bytes),
    }
}
#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_to_device_async(
    d: *mut c_void,
    h: *mut c_void,
    bytes: usize,
    a: c_int,
) {
    wait_for_queue_tasks(a);
    match current() {
        Some(dev) if bytes > 0 => {
            if let Err(e) = dev.device.copy_to_device_on(
                queue_of(dev, a),
                d as u64,
                h as *const u8,
                bytes as u64,
            ) {
                fatal(&format!(
                    "acc_memcpy_to_device_async({d:p}, {h:p}, {bytes}, {a}): {e}"
                ));
            }
        }
        _ => acc_memcpy_to_device(d, h, bytes),
    }
}

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_from_device(h: *mut c_void, d: *mut c_void, bytes: usize) {
    if bytes == 0 {
        return;
    }
    match current() {
        Some(dev) => {
            if let Err(e) = dev
                .device
                .copy_from_device(h as *mut u8, d as u64, bytes as u64)
            {
                fatal(&format!(
                    "acc_memcpy_from_device({h:p}, {d:p}, {bytes}): {e}"
                ));
            }
        }
        None => std::ptr::copy(d as *const u8, h as *mut u8, bytes),
    }
}
#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_from_device_async(
    h: *mut c_void,
    d: *mut c_void,
    bytes: usize,
    a: c_int,
) {
    wait_for_queue_tasks(a);
    match current() {
        Some(dev) if bytes > 0 => {
            if let Err(e) = dev.device.copy_from_device_on(
                queue_of(dev, a),
                h as *mut u8,
                d as u64,
                bytes as u64,
            ) {
                fatal(&format!(
                    "acc_memcpy_from_device_async({h:p}, {d:p}, {bytes}, {a}): {e}"
                ));
            }
        }
        _ => acc_memcpy_from_device(h, d, bytes),
    }
}

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_device(dst: *mut c_void, src: *mut c_void, bytes: usize) {
    if bytes == 0 {
        return;
    }
    match current() {
        Some(dev) => {
            if let Err(e) = dev
                .device
                .copy_within_device(dst as u64, src as u64, bytes as u64)
            {
                fatal(&format!(
                    "acc_memcpy_device({dst:p}, {src:p}, {bytes}): {e}"
                ));
            }
        }
        None => std::ptr::copy(src as *const u8, dst as *mut u8, bytes),
    }
}
#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_device_async(
    dst: *mut c_void,
    src: *mut c_void,
    bytes: usize,
    a: c_int,
) {
    wait_for_queue_tasks(a);
    match current() {
        Some(dev) if bytes > 0 => {
            if let Err(e) = dev.device.copy_within_device_on(
                queue_of(dev, a),
                dst as u64,
                src as u64,
                bytes as u64,
            ) {
                fatal(&format!(
                    "acc_memcpy_device_async({dst:p}, {src:p}, {bytes}, {a}): {e}"
                ));
            }
        }
        _ => acc_memcpy_device(dst, src, bytes),
    }
}

/// The device address of the `bytes` at host address `h` on `dev`, which must be present there
/// (`what` names the argument in the message).
fn present_on(routine: &str, what: &str, dev: &DeviceState, h: *mut c_void, bytes: usize) -> u64 {
    let mut t = dev.lock_table();
    let m = Mapper::new(dev.device.as_ref(), &mut t);
    match m.device_addr(h as usize, bytes as u64) {
        Some(a) => a,
        None => {
            drop(m);
            drop(t);
            fatal(&format!(
                "{routine}: {what} ({h:p}, {bytes} bytes) is not present on device {}; \
                 acc_memcpy_d2d copies between the device copies of present data (copyin/create it first)",
                dev.label()
            ))
        }
    }
}

/// `acc_memcpy_d2d(_async)`: copies `bytes` from the device copy of `src` on device `src_num` to
/// the device copy of `dest` on device `dest_num` (host addresses of present data, device
/// numbers of the current device type), on queue `async_arg` of the source device when given.
unsafe fn memcpy_d2d(
    routine: &str,
    dest: *mut c_void,
    src: *mut c_void,
    bytes: usize,
    dest_num: c_int,
    src_num: c_int,
    async_arg: Option<c_int>,
) {
    let ddev = device_of_current_type(routine, "dev_num_dest", dest_num);
    let sdev = device_of_current_type(routine, "dev_num_src", src_num);
    if bytes == 0 {
        return;
    }
    if dest.is_null() || src.is_null() {
        fatal(&format!(
            "{routine}({dest:p}, {src:p}, {bytes}, {dest_num}, {src_num}): data_arg_{} is a null pointer",
            if dest.is_null() { "dest" } else { "src" }
        ));
    }
    let (Some(d), Some(s)) = (ddev, sdev) else {
        // The current device type is the host: its only device holds the data itself.
        std::ptr::copy(src as *const u8, dest as *mut u8, bytes);
        return;
    };
    let da = present_on(routine, "data_arg_dest", d, dest, bytes);
    let sa = present_on(routine, "data_arg_src", s, src, bytes);
    if let Some(a) = async_arg {
        // After the async constructs already on that queue, as the queue is ordered.
        wait_for_queue_tasks(a);
    }
    let fail = |e: crate::errors::DeviceError| -> ! {
        fatal(&format!(
            "{routine}({dest:p}, {src:p}, {bytes}, {dest_num}, {src_num}): {e}"
        ))
    };
    if d.number == s.number {
        if da == sa {
            return;
        }
        let r = match async_arg {
            Some(a) => s
                .device
                .copy_within_device_on(queue_of(s, a), da, sa, bytes as u64),
            None => s.device.copy_within_device(da, sa, bytes as u64),
        };
        return r.unwrap_or_else(|e| fail(e));
    }
    // Between two devices: through host memory, synchronously (complete when an async copy
    // would merely have started, which is allowed), after the source queue's earlier work.
    if let Some(a) = async_arg {
        waits::wait_queue(routine, s, a);
    }
    let mut buf = vec![0u8; bytes];
    s.device
        .copy_from_device(buf.as_mut_ptr(), sa, bytes as u64)
        .unwrap_or_else(|e| fail(e));
    d.device
        .copy_to_device(da, buf.as_ptr(), bytes as u64)
        .unwrap_or_else(|e| fail(e));
}

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_d2d(
    data_arg_dest: *mut c_void,
    data_arg_src: *mut c_void,
    bytes: usize,
    dev_num_dest: c_int,
    dev_num_src: c_int,
) {
    memcpy_d2d(
        "acc_memcpy_d2d",
        data_arg_dest,
        data_arg_src,
        bytes,
        dev_num_dest,
        dev_num_src,
        None,
    )
}
#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_d2d_async(
    data_arg_dest: *mut c_void,
    data_arg_src: *mut c_void,
    bytes: usize,
    dev_num_dest: c_int,
    dev_num_src: c_int,
    async_arg_src: c_int,
) {
    memcpy_d2d(
        "acc_memcpy_d2d_async",
        data_arg_dest,
        data_arg_src,
        bytes,
        dev_num_dest,
        dev_num_src,
        Some(async_arg_src),
    )
}

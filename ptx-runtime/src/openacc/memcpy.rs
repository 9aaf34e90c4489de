//! `acc_memcpy_*`: copies between host and device memory and within a device.

use super::devices::current;
use super::queue_of;
use super::tasks::wait_for_queue_tasks;
use crate::errors::fatal;
use std::ffi::c_void;
use std::ffi::c_int;

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


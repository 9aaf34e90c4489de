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

/// Which way an `acc_memcpy_*` routine copies.
#[derive(Clone, Copy)]
enum Direction {
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
}

/// `acc_memcpy_{to_device,from_device,device}(_async)`: `bytes` from `src` to `dst` on the current
/// device, on the queue of `async_arg` (None: synchronously); with the host as the current
/// device, a host copy.
///
/// # Safety
/// The pointers must be valid for `bytes` bytes on the side `dir` says.
unsafe fn memcpy(
    routine: &str,
    dir: Direction,
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
    async_arg: Option<c_int>,
) {
    if let Some(a) = async_arg {
        // After the async constructs already on that queue, as the queue is ordered.
        wait_for_queue_tasks(a);
    }
    if bytes == 0 {
        return;
    }
    let Some(dev) = current() else {
        std::ptr::copy(src as *const u8, dst as *mut u8, bytes);
        return;
    };
    let (d, s, n, device) = (dst as u64, src as u64, bytes as u64, dev.device.as_ref());
    let r = match (dir, async_arg.map(|a| queue_of(dev, a))) {
        (Direction::HostToDevice, None) => device.copy_to_device(d, src as *const u8, n),
        (Direction::HostToDevice, Some(q)) => device.copy_to_device_on(q, d, src as *const u8, n),
        (Direction::DeviceToHost, None) => device.copy_from_device(dst as *mut u8, s, n),
        (Direction::DeviceToHost, Some(q)) => device.copy_from_device_on(q, dst as *mut u8, s, n),
        (Direction::DeviceToDevice, None) => device.copy_within_device(d, s, n),
        (Direction::DeviceToDevice, Some(q)) => device.copy_within_device_on(q, d, s, n),
    };
    if let Err(e) = r {
        let queue = async_arg.map_or(String::new(), |a| format!(", {a}"));
        fatal(&format!("{routine}({dst:p}, {src:p}, {bytes}{queue}): {e}"));
    }
}

#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_to_device(d: *mut c_void, h: *mut c_void, bytes: usize) {
    memcpy(
        "acc_memcpy_to_device",
        Direction::HostToDevice,
        d,
        h,
        bytes,
        None,
    )
}
#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_to_device_async(
    d: *mut c_void,
    h: *mut c_void,
    bytes: usize,
    a: c_int,
) {
    memcpy(
        "acc_memcpy_to_device_async",
        Direction::HostToDevice,
        d,
        h,
        bytes,
        Some(a),
    )
}
#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_from_device(h: *mut c_void, d: *mut c_void, bytes: usize) {
    memcpy(
        "acc_memcpy_from_device",
        Direction::DeviceToHost,
        h,
        d,
        bytes,
        None,
    )
}
#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_from_device_async(
    h: *mut c_void,
    d: *mut c_void,
    bytes: usize,
    a: c_int,
) {
    memcpy(
        "acc_memcpy_from_device_async",
        Direction::DeviceToHost,
        h,
        d,
        bytes,
        Some(a),
    )
}
#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_device(dst: *mut c_void, src: *mut c_void, bytes: usize) {
    memcpy(
        "acc_memcpy_device",
        Direction::DeviceToDevice,
        dst,
        src,
        bytes,
        None,
    )
}
#[no_mangle]
pub unsafe extern "C" fn acc_memcpy_device_async(
    dst: *mut c_void,
    src: *mut c_void,
    bytes: usize,
    a: c_int,
) {
    memcpy(
        "acc_memcpy_device_async",
        Direction::DeviceToDevice,
        dst,
        src,
        bytes,
        Some(a),
    )
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
    // Between two devices: device to device (a peer copy), synchronously (complete when an
    // async copy would merely have started, which is allowed), after the source queue's earlier
    // work.
    if let Some(a) = async_arg {
        waits::wait_queue(routine, s, a);
    }
    d.device
        .copy_from_peer(da, s.device.as_ref(), sa, bytes as u64)
        .unwrap_or_else(|e| fail(e));
    crate::profile::peer(d.number, bytes as u64);
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

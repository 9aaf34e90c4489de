//! Waiting for and testing async queues: `acc_wait*`, `acc_async_test*` (each on the current
//! device, or with `_device` on a device of the current type), `acc_wait_any*`, and the
//! device-queue half of the `wait` directive (`__ptxrt_acc_wait_*`).
//!
//! Every routine first waits for the async constructs (the OpenMP tasks the calling thread
//! created, tasks.rs): they may run on any device, and waiting for more than asked is correct.
//! The device halves take the device as a parameter; the host has no queues (everything on it
//! has completed).

use super::devices::{current, device_of_current_type};
use super::tasks::wait_for_async_tasks;
use super::{queue_of, DEFAULT_ASYNC};
use crate::device::{QueueHandle, SYNC_QUEUE};
use crate::errors::fatal;
use crate::queues::{resolve_acc_async, ACC_ASYNC_DEFAULT, ACC_ASYNC_NOVAL, ACC_ASYNC_SYNC};
use crate::runtime::DeviceState;
use std::ffi::c_int;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Checks an async argument of `routine` (`what` names it in the message): a queue number
/// (>= 0), acc_async_noval, acc_async_default or acc_async_sync (OpenACC 3.3's
/// acc_error_invalid_async for anything else).
fn check_async_arg(routine: &str, what: &str, value: c_int) {
    if value < 0 && !matches!(value, ACC_ASYNC_NOVAL | ACC_ASYNC_SYNC | ACC_ASYNC_DEFAULT) {
        fatal(&format!(
            "{routine}: {what} {value} is not an async argument: use a queue number (0 or more), \
             acc_async_noval ({ACC_ASYNC_NOVAL}), acc_async_default ({ACC_ASYNC_DEFAULT}) or acc_async_sync ({ACC_ASYNC_SYNC})"
        ));
    }
}

/// The device queue of `wait_arg` on `dev` if it was ever used.
fn existing_queue(dev: &DeviceState, wait_arg: c_int) -> Option<QueueHandle> {
    let key = resolve_acc_async(wait_arg, DEFAULT_ASYNC.load(Ordering::Relaxed))?;
    dev.queues.existing_acc_queue(key)
}

fn queue_fatal(routine: &str, dev: &DeviceState, e: crate::errors::DeviceError) -> ! {
    fatal(&format!("{routine}: device {}: {e}", dev.label()))
}

// ---- the device halves, on a given device ----

/// Whether everything queued on `wait_arg` of `dev` has completed.
fn queue_idle(routine: &str, dev: &DeviceState, wait_arg: c_int) -> bool {
    match existing_queue(dev, wait_arg) {
        Some(q) => dev
            .device
            .queue_is_idle(q)
            .unwrap_or_else(|e| queue_fatal(routine, dev, e)),
        None => true,
    }
}

/// Whether every queue of `dev` is idle.
fn all_queues_idle(routine: &str, dev: &DeviceState) -> bool {
    dev.queues.acc_queues().into_iter().all(|q| {
        dev.device
            .queue_is_idle(q)
            .unwrap_or_else(|e| queue_fatal(routine, dev, e))
    })
}

/// The host waits for queue `wait_arg` of `dev`.
pub(super) fn wait_queue(routine: &str, dev: &DeviceState, wait_arg: c_int) {
    if let Some(q) = existing_queue(dev, wait_arg) {
        if let Err(e) = dev.device.queue_synchronize(q) {
            queue_fatal(routine, dev, e);
        }
    }
}

/// The host waits for every queue of `dev`.
fn wait_all_queues(routine: &str, dev: &DeviceState) {
    for q in dev.queues.acc_queues() {
        if let Err(e) = dev.device.queue_synchronize(q) {
            queue_fatal(routine, dev, e);
        }
    }
}

/// The work enqueued on `async_arg` of `dev` from now on waits, on the device, for what is on
/// `wait_arg` now (the host waits only when `async_arg` is synchronous).
fn wait_queue_async(routine: &str, dev: &DeviceState, wait_arg: c_int, async_arg: c_int) {
    let Some(waited) = existing_queue(dev, wait_arg) else {
        return;
    };
    let waiter = queue_of(dev, async_arg);
    let r = if waiter == SYNC_QUEUE {
        dev.device.queue_synchronize(waited)
    } else {
        dev.device.queue_wait_for(waiter, waited)
    };
    if let Err(e) = r {
        queue_fatal(routine, dev, e);
    }
}

/// The work enqueued on `async_arg` of `dev` from now on waits for every queue of `dev`.
fn wait_all_queues_async(routine: &str, dev: &DeviceState, async_arg: c_int) {
    let waiter = queue_of(dev, async_arg);
    for q in dev.queues.acc_queues() {
        if q == waiter {
            continue;
        }
        let r = if waiter == SYNC_QUEUE {
            dev.device.queue_synchronize(q)
        } else {
            dev.device.queue_wait_for(waiter, q)
        };
        if let Err(e) = r {
            queue_fatal(routine, dev, e);
        }
    }
}

/// `acc_wait_any` on `dev` (None: the host): the index of an entry of `wait_arg` (not
/// acc_async_sync) whose queue has completed, waiting until one has; -1 when `count` is 0 or
/// every entry is acc_async_sync.
fn wait_any(
    routine: &str,
    count: c_int,
    wait_arg: *const c_int,
    dev: Option<&DeviceState>,
) -> c_int {
    if count < 0 {
        fatal(&format!("{routine}: count {count} is negative"));
    }
    if count == 0 {
        return -1;
    }
    if wait_arg.is_null() {
        fatal(&format!(
            "{routine}: wait_arg is a null pointer, with count {count}"
        ));
    }
    // SAFETY: the caller passes an array of `count` ints (OpenACC 3.3, acc_wait_any).
    let args = unsafe { std::slice::from_raw_parts(wait_arg, count as usize) };
    for (i, &w) in args.iter().enumerate() {
        check_async_arg(routine, &format!("wait_arg[{i}] ="), w);
    }
    let default_async = DEFAULT_ASYNC.load(Ordering::Relaxed);
    let queues: Vec<usize> = (0..args.len())
        .filter(|&i| resolve_acc_async(args[i], default_async).is_some())
        .collect();
    let Some(&first) = queues.first() else {
        return -1;
    };
    // The async constructs are tasks, which libomp cannot test without waiting: wait for them
    // all, then for the first device queue to drain.
    wait_for_async_tasks();
    let Some(dev) = dev else {
        return first as c_int;
    };
    let mut pause = Duration::from_micros(2);
    loop {
        if let Some(&i) = queues.iter().find(|&&i| queue_idle(routine, dev, args[i])) {
            return i as c_int;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    }
}

// ---- the OpenACC routines ----

/// 1 when everything queued on `wait_arg` of the current device has completed.
#[no_mangle]
pub extern "C" fn acc_async_test(wait_arg: c_int) -> c_int {
    check_async_arg("acc_async_test", "wait_arg", wait_arg);
    wait_for_async_tasks();
    current().map_or(1, |d| queue_idle("acc_async_test", d, wait_arg) as c_int)
}
/// `acc_async_test` on device `dev_num` of the current device type.
#[no_mangle]
pub extern "C" fn acc_async_test_device(wait_arg: c_int, dev_num: c_int) -> c_int {
    const R: &str = "acc_async_test_device";
    check_async_arg(R, "wait_arg", wait_arg);
    let dev = device_of_current_type(R, "device number", dev_num);
    wait_for_async_tasks();
    dev.map_or(1, |d| queue_idle(R, d, wait_arg) as c_int)
}
#[no_mangle]
pub extern "C" fn acc_async_test_all() -> c_int {
    wait_for_async_tasks();
    current().map_or(1, |d| all_queues_idle("acc_async_test_all", d) as c_int)
}
#[no_mangle]
pub extern "C" fn acc_async_test_all_device(dev_num: c_int) -> c_int {
    const R: &str = "acc_async_test_all_device";
    let dev = device_of_current_type(R, "device number", dev_num);
    wait_for_async_tasks();
    dev.map_or(1, |d| all_queues_idle(R, d) as c_int)
}

/// Waits for the async constructs (OpenMP tasks), then for queue `wait_arg`.
#[no_mangle]
pub extern "C" fn acc_wait(wait_arg: c_int) {
    check_async_arg("acc_wait", "wait_arg", wait_arg);
    wait_for_async_tasks();
    if let Some(d) = current() {
        wait_queue(&format!("acc_wait({wait_arg})"), d, wait_arg);
    }
}
#[no_mangle]
pub extern "C" fn acc_wait_device(wait_arg: c_int, dev_num: c_int) {
    const R: &str = "acc_wait_device";
    check_async_arg(R, "wait_arg", wait_arg);
    let dev = device_of_current_type(R, "device number", dev_num);
    wait_for_async_tasks();
    if let Some(d) = dev {
        wait_queue(R, d, wait_arg);
    }
}
/// Work enqueued on `async_arg` from now on waits for what is on `wait_arg` now.
#[no_mangle]
pub extern "C" fn acc_wait_async(wait_arg: c_int, async_arg: c_int) {
    check_async_arg("acc_wait_async", "wait_arg", wait_arg);
    check_async_arg("acc_wait_async", "async_arg", async_arg);
    wait_for_async_tasks();
    if let Some(d) = current() {
        wait_queue_async("acc_wait_async", d, wait_arg, async_arg);
    }
}
#[no_mangle]
pub extern "C" fn acc_wait_device_async(wait_arg: c_int, async_arg: c_int, dev_num: c_int) {
    const R: &str = "acc_wait_device_async";
    check_async_arg(R, "wait_arg", wait_arg);
    check_async_arg(R, "async_arg", async_arg);
    let dev = device_of_current_type(R, "device number", dev_num);
    wait_for_async_tasks();
    if let Some(d) = dev {
        wait_queue_async(R, d, wait_arg, async_arg);
    }
}
#[no_mangle]
pub extern "C" fn acc_wait_all() {
    wait_for_async_tasks();
    if let Some(d) = current() {
        wait_all_queues("acc_wait_all", d);
    }
}
#[no_mangle]
pub extern "C" fn acc_wait_all_device(dev_num: c_int) {
    const R: &str = "acc_wait_all_device";
    let dev = device_of_current_type(R, "device number", dev_num);
    wait_for_async_tasks();
    if let Some(d) = dev {
        wait_all_queues(R, d);
    }
}
#[no_mangle]
pub extern "C" fn acc_wait_all_async(async_arg: c_int) {
    check_async_arg("acc_wait_all_async", "async_arg", async_arg);
    wait_for_async_tasks();
    if let Some(d) = current() {
        wait_all_queues_async("acc_wait_all_async", d, async_arg);
    }
}
#[no_mangle]
pub extern "C" fn acc_wait_all_device_async(async_arg: c_int, dev_num: c_int) {
    const R: &str = "acc_wait_all_device_async";
    check_async_arg(R, "async_arg", async_arg);
    let dev = device_of_current_type(R, "device number", dev_num);
    wait_for_async_tasks();
    if let Some(d) = dev {
        wait_all_queues_async(R, d, async_arg);
    }
}
/// The index of an entry of `wait_arg[0..count]` whose queue (on the current device) has
/// completed, after waiting for one to; -1 when there is none to wait for.
#[no_mangle]
pub unsafe extern "C" fn acc_wait_any(count: c_int, wait_arg: *const c_int) -> c_int {
    wait_any("acc_wait_any", count, wait_arg, current())
}
#[no_mangle]
pub unsafe extern "C" fn acc_wait_any_device(
    count: c_int,
    wait_arg: *const c_int,
    dev_num: c_int,
) -> c_int {
    const R: &str = "acc_wait_any_device";
    wait_any(
        R,
        count,
        wait_arg,
        device_of_current_type(R, "device number", dev_num),
    )
}

// The `wait` directive. ptxcc's front end makes `#pragma acc wait(q)` a `taskwait depend(inout:
// __ptxcc_acc_queue[q % 64])` (the async constructs of queue q, and only those) followed by a
// call to one of these, which waits for what the `acc_*_async` routines put on the device queue
// of q (a CUDA stream) of the current device. Unlike `acc_wait` they do not wait for every task
// first.

/// `#pragma acc wait(q)`: the host waits for the device queue of `wait_arg`.
#[no_mangle]
pub extern "C" fn __ptxrt_acc_wait_queue(wait_arg: c_int) {
    if let Some(d) = current() {
        wait_queue(&format!("acc_wait({wait_arg})"), d, wait_arg);
    }
}
/// `#pragma acc wait` (no queue): the host waits for every device queue.
#[no_mangle]
pub extern "C" fn __ptxrt_acc_wait_all_queues() {
    if let Some(d) = current() {
        wait_all_queues("acc_wait_all", d);
    }
}
/// `#pragma acc wait(q) async(r)`: the work enqueued on r from now on waits, on the device, for
/// what is on q now (the host does not wait).
#[no_mangle]
pub extern "C" fn __ptxrt_acc_wait_queue_async(wait_arg: c_int, async_arg: c_int) {
    if let Some(d) = current() {
        wait_queue_async("acc_wait_async", d, wait_arg, async_arg);
    }
}
/// `#pragma acc wait async(r)`: the work enqueued on r from now on waits for every queue.
#[no_mangle]
pub extern "C" fn __ptxrt_acc_wait_all_queues_async(async_arg: c_int) {
    if let Some(d) = current() {
        wait_all_queues_async("acc_wait_all_async", d, async_arg);
    }
}

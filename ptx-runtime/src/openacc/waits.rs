//! Waiting for and testing async queues: `acc_wait*`, `acc_async_test*`, and the device-queue
//! half of the `wait` directive (`__ptxrt_acc_wait_*`).

use super::devices::current;
use super::tasks::wait_for_async_tasks;
use super::{queue_of, DEFAULT_ASYNC};
use crate::device::{QueueHandle, SYNC_QUEUE};
use crate::errors::fatal;
use crate::queues::resolve_acc_async;
use crate::runtime::DeviceState;
use std::ffi::c_int;
use std::sync::atomic::Ordering;

/// The device queue of `wait_arg` if it was ever used.
fn existing_queue(dev: &DeviceState, wait_arg: c_int) -> Option<QueueHandle> {
    let key = resolve_acc_async(wait_arg, DEFAULT_ASYNC.load(Ordering::Relaxed))?;
    dev.queues.existing_acc_queue(key)
}

fn queue_fatal(routine: &str, dev: &DeviceState, e: crate::errors::DeviceError) -> ! {
    fatal(&format!("{routine}: device {}: {e}", dev.label()))
}

/// 1 when everything queued on `wait_arg` has completed.
#[no_mangle]
pub extern "C" fn acc_async_test(wait_arg: c_int) -> c_int {
    wait_for_async_tasks();
    let Some(dev) = current() else { return 1 };
    match existing_queue(dev, wait_arg) {
        Some(q) => match dev.device.queue_is_idle(q) {
            Ok(idle) => idle as c_int,
            Err(e) => queue_fatal("acc_async_test", dev, e),
        },
        None => 1,
    }
}
#[no_mangle]
pub extern "C" fn acc_async_test_all() -> c_int {
    wait_for_async_tasks();
    let Some(dev) = current() else { return 1 };
    for q in dev.queues.acc_queues() {
        match dev.device.queue_is_idle(q) {
            Ok(true) => {}
            Ok(false) => return 0,
            Err(e) => queue_fatal("acc_async_test_all", dev, e),
        }
    }
    1
}
/// Waits for the async constructs (OpenMP tasks), then for queue `wait_arg`.
#[no_mangle]
pub extern "C" fn acc_wait(wait_arg: c_int) {
    wait_for_async_tasks();
    __ptxrt_acc_wait_queue(wait_arg);
}
/// Work enqueued on `async_arg` from now on waits for what is on `wait_arg` now.
#[no_mangle]
pub extern "C" fn acc_wait_async(wait_arg: c_int, async_arg: c_int) {
    wait_for_async_tasks();
    __ptxrt_acc_wait_queue_async(wait_arg, async_arg);
}
#[no_mangle]
pub extern "C" fn acc_wait_all() {
    wait_for_async_tasks();
    __ptxrt_acc_wait_all_queues();
}
#[no_mangle]
pub extern "C" fn acc_wait_all_async(async_arg: c_int) {
    wait_for_async_tasks();
    __ptxrt_acc_wait_all_queues_async(async_arg);
}

// The `wait` directive. ptxcc's front end makes `#pragma acc wait(q)` a `taskwait depend(inout:
// __ptxcc_acc_queue[q % 64])` (the async constructs of queue q, and only those) followed by a
// call to one of these, which waits for what the `acc_*_async` routines put on the device queue
// of q (a CUDA stream). Unlike `acc_wait` they do not wait for every task first.

/// `#pragma acc wait(q)`: the host waits for the device queue of `wait_arg`.
#[no_mangle]
pub extern "C" fn __ptxrt_acc_wait_queue(wait_arg: c_int) {
    let Some(dev) = current() else { return };
    if let Some(q) = existing_queue(dev, wait_arg) {
        if let Err(e) = dev.device.queue_synchronize(q) {
            queue_fatal(&format!("acc_wait({wait_arg})"), dev, e);
        }
    }
}
/// `#pragma acc wait` (no queue): the host waits for every device queue.
#[no_mangle]
pub extern "C" fn __ptxrt_acc_wait_all_queues() {
    let Some(dev) = current() else { return };
    for q in dev.queues.acc_queues() {
        if let Err(e) = dev.device.queue_synchronize(q) {
            queue_fatal("acc_wait_all", dev, e);
        }
    }
}
/// `#pragma acc wait(q) async(r)`: the work enqueued on r from now on waits, on the device, for
/// what is on q now (the host does not wait).
#[no_mangle]
pub extern "C" fn __ptxrt_acc_wait_queue_async(wait_arg: c_int, async_arg: c_int) {
    let Some(dev) = current() else { return };
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
        queue_fatal("acc_wait_async", dev, e);
    }
}
/// `#pragma acc wait async(r)`: the work enqueued on r from now on waits for every queue.
#[no_mangle]
pub extern "C" fn __ptxrt_acc_wait_all_queues_async(async_arg: c_int) {
    let Some(dev) = current() else { return };
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
            queue_fatal("acc_wait_all_async", dev, e);
        }
    }
}


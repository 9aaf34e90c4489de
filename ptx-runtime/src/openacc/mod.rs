//! The OpenACC 3.3 runtime API (include/openacc.h) on top of the same present table as the
//! OpenMP constructs.
//!
//! Async queues (queues.rs): on a GPU each queue number is a CUDA stream; the `_async` routines
//! enqueue their copies on it (`acc_copyout_async`/`acc_delete_async` of data that goes away wait
//! for the queue before freeing it), `acc_wait*` synchronise streams, `acc_async_test*` query them.
//! On the emulator (and with PTXRT_ASYNC=0) every routine has completed when it returns and
//! `acc_async_test` returns 1. The `_async` routines first wait for the async constructs (OpenMP
//! tasks) already on their queue, so that a queue runs in order whoever fills it.
//!
//! * `devices` — device types and numbers, init/shutdown, properties, `acc_on_device`;
//! * `tasks` — the OpenMP tasks that `async` constructs are (libomp, referenced weakly);
//! * `waits` — `acc_wait*`, `acc_async_test*` and the `wait` directive's device-queue half;
//! * `memcpy` — `acc_memcpy_*`;
//! * this file — the data routines (`acc_copyin`…, `acc_map_data`, `acc_attach`…).
//!
//! Entry points for code the front end generates: `__ptxrt_acc_wait_queue*` (the `wait`
//! directive's device-queue half), `__ptxrt_acc_no_create_len` (`no_create`),
//! `__ptxrt_acc_finalize` (`exit data copyout finalize`), `__ptxrt_acc_private_*` (private
//! copies of array sections, private_copies.rs).

mod devices;
mod memcpy;
mod private_copies;
mod tasks;
mod waits;

pub use devices::*;
pub use memcpy::*;
pub use private_copies::*;
pub use tasks::can_wait_for_tasks;
pub(crate) use tasks::wait_for_async_tasks;
pub use waits::*;

use crate::device::{QueueHandle, SYNC_QUEUE};
use crate::errors::fatal;
use crate::map_type::MapType;
use crate::mapping::{MapItem, Mapper};
use crate::offload_abi::DataOp;
use crate::omp_api;
use crate::present_table::{Lookup, RefCount};
use crate::queues::resolve_acc_async;
use crate::runtime::DeviceState;
use crate::source_info::{SourceLoc, VarName};
use devices::{current, current_unsettled};
use std::ffi::{c_int, c_void};
use std::sync::atomic::Ordering;
use tasks::wait_for_queue_tasks;

/// The device queue of an `async` argument on `dev` (SYNC_QUEUE: synchronous).
fn queue_of(dev: &DeviceState, async_arg: c_int) -> QueueHandle {
    match resolve_acc_async(async_arg, DEFAULT_ASYNC.load(Ordering::Relaxed)) {
        Some(key) => dev.queues.acc_queue(dev.device.as_ref(), key),
        None => SYNC_QUEUE,
    }
}

/// Runs one map operation on `[h, h+bytes)`; returns the device address of `h` when present after it.
fn map(routine: &str, h: *mut c_void, bytes: usize, ty: u64, op: DataOp) -> Option<u64> {
    map_on(routine, h, bytes, ty, op, None)
}

/// `map` with the copies enqueued on the queue of `async_arg` (None: synchronous).
fn map_on(
    routine: &str,
    h: *mut c_void,
    bytes: usize,
    ty: u64,
    op: DataOp,
    async_arg: Option<c_int>,
) -> Option<u64> {
    if h.is_null() {
        return None;
    }
    let dev = current_unsettled()?;
    if let Some(a) = async_arg {
        // After the async constructs already on that queue (their tasks), as the queue is ordered.
        wait_for_queue_tasks(a);
    }
    let q = async_arg.map_or(SYNC_QUEUE, |a| queue_of(dev, a));
    let item = MapItem {
        base: h as usize,
        begin: h as usize,
        bytes: bytes as u64,
        ty: MapType(ty),
        name: VarName {
            expr: format!("data passed to {routine}"),
            decl: SourceLoc::default(),
        },
    };
    // Data a split launch spread over the devices: settled as the directive of the same
    // operation settles it (`acc_update_self`, `acc_copyout`: each byte to the host from the
    // device holding it).
    let uses = crate::coherence::present::data_op_uses(op, std::slice::from_ref(&item));
    let direct = dev.settle_spread_for(uses.as_deref());
    // Releasing data waits for the kernels still using it.
    let mut table = match op {
        DataOp::End => dev.lock_table_unused(std::slice::from_ref(&item)),
        _ => dev.lock_table(),
    };
    let mut m = Mapper::on_queue(dev.device.as_ref(), &mut table, q).with_direct(&direct.copies);
    let r = match op {
        DataOp::Begin => m.begin(std::slice::from_ref(&item)).map(|_| ()),
        DataOp::End => m.end(std::slice::from_ref(&item)),
        DataOp::Update => m.update(std::slice::from_ref(&item)),
    };
    // acc_copyin and acc_create return the device address to the program.
    let addr = if matches!(op, DataOp::Begin) && async_arg.is_none() {
        m.expose(h as usize, bytes as u64)
    } else {
        m.device_addr(h as usize, bytes as u64)
    };
    let transfers = m.transfers;
    drop(m);
    drop(table);
    drop(direct);
    // The routine's copies in the profile, under its name (no source location reaches it).
    let loc = SourceLoc {
        function: routine.to_string(),
        ..SourceLoc::default()
    };
    crate::profile::data(&loc, dev.number, &transfers);
    if let Err(e) = r {
        fatal(&format!("{routine}: {}", e.describe(dev.label())));
    }
    addr
}

// ---- queues ----

static DEFAULT_ASYNC: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);

#[no_mangle]
pub extern "C" fn acc_get_default_async() -> c_int {
    DEFAULT_ASYNC.load(Ordering::Relaxed)
}
#[no_mangle]
pub extern "C" fn acc_set_default_async(async_arg: c_int) {
    DEFAULT_ASYNC.store(async_arg, Ordering::Relaxed)
}

/// `no_create(x[lo:len])` on a data or compute construct: ptxcc's front end maps the clause as
/// `map(ompx_hold, alloc: x[lo:N])` with N the result of this call, `len` when the `bytes` at `h`
/// are present on the current device and 0 otherwise. An absent list item is thus a zero-length
/// section: nothing is allocated or copied, no reference is counted, and the region gets the
/// host address (OpenMP: a zero-length section that is not mapped keeps its original pointer
/// value); a present one is used (and held) as `present` would. Without a device (host
/// fallback) everything is "present".
#[no_mangle]
pub extern "C" fn __ptxrt_acc_no_create_len(h: *const c_void, bytes: usize, len: usize) -> usize {
    if h.is_null() || bytes == 0 || len == 0 {
        return 0;
    }
    let Some(dev) = current() else { return len };
    let t = dev.lock_table();
    match t.lookup(h as usize, bytes as u64) {
        Lookup::Contained(_) => len,
        Lookup::Absent => 0,
        // A zero-length section starting inside present data would get its device address.
        Lookup::Overlaps(k) => {
            let (name, host, n) = t
                .get(k)
                .map(|e| (e.name.to_string(), e.host_begin, e.bytes()))
                .unwrap_or_default();
            drop(t);
            fatal(&format!(
                "no_create: the {bytes} bytes at {h:p} are only partly present on device {} (they overlap {name}, \
                 {n} bytes at {host:#x}); OpenACC requires a subarray to be present entirely or not at all",
                dev.label()
            ))
        }
    }
}

// ---- memory ----

#[no_mangle]
pub extern "C" fn acc_malloc(bytes: usize) -> *mut c_void {
    if bytes == 0 {
        return std::ptr::null_mut();
    }
    match current() {
        Some(d) => d
            .device
            .alloc(bytes as u64)
            .map_or(std::ptr::null_mut(), |p| p as *mut c_void),
        None => unsafe { libc::malloc(bytes) },
    }
}

#[no_mangle]
pub unsafe extern "C" fn acc_free(data_dev: *mut c_void) {
    if data_dev.is_null() {
        return;
    }
    match current() {
        Some(d) => {
            if let Err(e) = d.device.free(data_dev as u64) {
                fatal(&format!("acc_free({data_dev:p}): {e}"));
            }
        }
        None => libc::free(data_dev),
    }
}

#[no_mangle]
pub extern "C" fn acc_copyin(h: *mut c_void, bytes: usize) -> *mut c_void {
    match current() {
        Some(_) => map("acc_copyin", h, bytes, MapType::TO, DataOp::Begin)
            .map_or(std::ptr::null_mut(), |a| a as *mut c_void),
        None => h,
    }
}
#[no_mangle]
pub extern "C" fn acc_copyin_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on(
        "acc_copyin_async",
        h,
        bytes,
        MapType::TO,
        DataOp::Begin,
        Some(async_arg),
    );
}
#[no_mangle]
pub extern "C" fn acc_present_or_copyin(h: *mut c_void, bytes: usize) -> *mut c_void {
    acc_copyin(h, bytes)
}
#[no_mangle]
pub extern "C" fn acc_pcopyin(h: *mut c_void, bytes: usize) -> *mut c_void {
    acc_copyin(h, bytes)
}

#[no_mangle]
pub extern "C" fn acc_create(h: *mut c_void, bytes: usize) -> *mut c_void {
    match current() {
        Some(_) => map("acc_create", h, bytes, 0, DataOp::Begin)
            .map_or(std::ptr::null_mut(), |a| a as *mut c_void),
        None => h,
    }
}
#[no_mangle]
pub extern "C" fn acc_create_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    // On the queue like the other _async routines: after the async constructs already on it (an
    // `exit data delete(x) async(q)` still queued would otherwise delete what this creates).
    map_on(
        "acc_create_async",
        h,
        bytes,
        0,
        DataOp::Begin,
        Some(async_arg),
    );
}
#[no_mangle]
pub extern "C" fn acc_present_or_create(h: *mut c_void, bytes: usize) -> *mut c_void {
    acc_create(h, bytes)
}
#[no_mangle]
pub extern "C" fn acc_pcreate(h: *mut c_void, bytes: usize) -> *mut c_void {
    acc_create(h, bytes)
}

#[no_mangle]
pub extern "C" fn acc_copyout(h: *mut c_void, bytes: usize) {
    map("acc_copyout", h, bytes, MapType::FROM, DataOp::End);
}
#[no_mangle]
pub extern "C" fn acc_copyout_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on(
        "acc_copyout_async",
        h,
        bytes,
        MapType::FROM,
        DataOp::End,
        Some(async_arg),
    );
}
#[no_mangle]
pub extern "C" fn acc_copyout_finalize(h: *mut c_void, bytes: usize) {
    map(
        "acc_copyout_finalize",
        h,
        bytes,
        MapType::FROM | MapType::DELETE,
        DataOp::End,
    );
}
#[no_mangle]
pub extern "C" fn acc_copyout_finalize_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on(
        "acc_copyout_finalize_async",
        h,
        bytes,
        MapType::FROM | MapType::DELETE,
        DataOp::End,
        Some(async_arg),
    );
}
/// `exit data copyout(x) finalize`: ptxcc's front end calls this just before the `target exit
/// data map(from: x)` it makes of the clause. The dynamic reference count of the data drops to
/// one, so that the exit data's own decrement makes it zero: the data is copied out and deleted
/// unless a structured reference (an enclosing data region) still holds it (OpenACC 3.3 §2.6.7;
/// OpenMP has no `from` with `delete`). Infinite counts (acc_map_data, declare) are left alone;
/// absent data is ignored, as exit data ignores it.
#[no_mangle]
pub extern "C" fn __ptxrt_acc_finalize(h: *const c_void, bytes: usize) {
    if h.is_null() {
        return;
    }
    let Some(dev) = current() else { return };
    let mut table = dev.lock_table();
    if let Lookup::Contained(k) = table.lookup(h as usize, bytes as u64) {
        if let Some(e) = table.get_mut(k) {
            if let RefCount::Finite(n) = e.dynamic_refs {
                e.dynamic_refs = RefCount::Finite(n.min(1));
            }
        }
    }
}

#[no_mangle]
pub extern "C" fn acc_delete(h: *mut c_void, bytes: usize) {
    map("acc_delete", h, bytes, 0, DataOp::End);
}
#[no_mangle]
pub extern "C" fn acc_delete_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on(
        "acc_delete_async",
        h,
        bytes,
        0,
        DataOp::End,
        Some(async_arg),
    );
}
#[no_mangle]
pub extern "C" fn acc_delete_finalize(h: *mut c_void, bytes: usize) {
    map(
        "acc_delete_finalize",
        h,
        bytes,
        MapType::DELETE,
        DataOp::End,
    );
}
#[no_mangle]
pub extern "C" fn acc_delete_finalize_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on(
        "acc_delete_finalize_async",
        h,
        bytes,
        MapType::DELETE,
        DataOp::End,
        Some(async_arg),
    );
}

#[no_mangle]
pub extern "C" fn acc_update_device(h: *mut c_void, bytes: usize) {
    map(
        "acc_update_device",
        h,
        bytes,
        MapType::TO | MapType::PRESENT,
        DataOp::Update,
    );
}
#[no_mangle]
pub extern "C" fn acc_update_device_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on(
        "acc_update_device_async",
        h,
        bytes,
        MapType::TO | MapType::PRESENT,
        DataOp::Update,
        Some(async_arg),
    );
}
#[no_mangle]
pub extern "C" fn acc_update_self(h: *mut c_void, bytes: usize) {
    map(
        "acc_update_self",
        h,
        bytes,
        MapType::FROM | MapType::PRESENT,
        DataOp::Update,
    );
}
#[no_mangle]
pub extern "C" fn acc_update_self_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on(
        "acc_update_self_async",
        h,
        bytes,
        MapType::FROM | MapType::PRESENT,
        DataOp::Update,
        Some(async_arg),
    );
}

#[no_mangle]
pub extern "C" fn acc_map_data(h: *mut c_void, d: *mut c_void, bytes: usize) {
    let Some(dev) = current() else { return };
    if let Err(e) = omp_api::associate(
        dev,
        h as usize,
        d as u64,
        bytes as u64,
        "data passed to acc_map_data",
    ) {
        fatal(&format!(
            "acc_map_data({h:p}, {d:p}, {bytes}): {e} on device {}",
            dev.label()
        ));
    }
}

#[no_mangle]
pub extern "C" fn acc_unmap_data(h: *mut c_void) {
    let Some(dev) = current() else { return };
    if let Err(e) = omp_api::disassociate(dev, h as usize) {
        fatal(&format!(
            "acc_unmap_data({h:p}): {e} on device {}",
            dev.label()
        ));
    }
}

#[no_mangle]
pub extern "C" fn acc_deviceptr(h: *mut c_void) -> *mut c_void {
    let Some(dev) = current() else { return h };
    let mut t = dev.lock_table();
    let mut m = Mapper::new(dev.device.as_ref(), &mut t);
    m.expose(h as usize, 0)
        .map_or(std::ptr::null_mut(), |a| a as *mut c_void)
}

/// `acc_attach*` / `acc_detach*` on the pointer at `slot`, on the queue of `async_arg` (None:
/// synchronous). `finalize` changes nothing: attachments are not counted.
fn attach_on(routine: &str, slot: *mut *mut c_void, attach: bool, async_arg: Option<c_int>) {
    if slot.is_null() {
        return;
    }
    let Some(dev) = current() else { return };
    if let Some(a) = async_arg {
        wait_for_queue_tasks(a);
    }
    let q = async_arg.map_or(SYNC_QUEUE, |a| queue_of(dev, a));
    let var = VarName {
        expr: format!("pointer passed to {routine}"),
        decl: SourceLoc::default(),
    };
    let mut table = dev.lock_table();
    let mut m = Mapper::on_queue(dev.device.as_ref(), &mut table, q);
    let r = if attach {
        m.attach(slot as usize, &var)
    } else {
        m.detach(slot as usize, &var)
    };
    drop(m);
    drop(table);
    if let Err(e) = r {
        fatal(&format!("{routine}: {}", e.describe(dev.label())));
    }
}

#[no_mangle]
pub extern "C" fn acc_attach(slot: *mut *mut c_void) {
    attach_on("acc_attach", slot, true, None)
}
#[no_mangle]
pub extern "C" fn acc_attach_async(slot: *mut *mut c_void, async_arg: c_int) {
    attach_on("acc_attach_async", slot, true, Some(async_arg))
}
#[no_mangle]
pub extern "C" fn acc_detach(slot: *mut *mut c_void) {
    attach_on("acc_detach", slot, false, None)
}
#[no_mangle]
pub extern "C" fn acc_detach_async(slot: *mut *mut c_void, async_arg: c_int) {
    attach_on("acc_detach_async", slot, false, Some(async_arg))
}
#[no_mangle]
pub extern "C" fn acc_detach_finalize(slot: *mut *mut c_void) {
    attach_on("acc_detach_finalize", slot, false, None)
}
#[no_mangle]
pub extern "C" fn acc_detach_finalize_async(slot: *mut *mut c_void, async_arg: c_int) {
    attach_on("acc_detach_finalize_async", slot, false, Some(async_arg))
}

#[no_mangle]
pub extern "C" fn acc_hostptr(d: *mut c_void) -> *mut c_void {
    let Some(dev) = current() else { return d };
    let t = dev.lock_table();
    t.find_by_device(d as u64)
        .map_or(std::ptr::null_mut(), |e| {
            (e.host_begin as u64 + (d as u64 - e.device_begin)) as *mut c_void
        })
}

#[no_mangle]
pub extern "C" fn acc_is_present(h: *mut c_void, bytes: usize) -> c_int {
    let Some(dev) = current() else { return 1 };
    let mut t = dev.lock_table();
    let m = Mapper::new(dev.device.as_ref(), &mut t);
    m.device_addr(h as usize, bytes as u64).is_some() as c_int
}

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
//! Entry points for code the front end generates: `__ptxrt_acc_wait_queue*` (the `wait`
//! directive's device-queue half), `__ptxrt_acc_no_create_len` (`no_create`),
//! `__ptxrt_acc_finalize` (`exit data copyout finalize`).

use crate::device::emulator::simt;
use crate::device::{QueueHandle, SYNC_QUEUE};
use crate::errors::fatal;
use crate::map_type::MapType;
use crate::mapping::{MapItem, Mapper};
use crate::omp_api;
use crate::present_table::{Lookup, RefCount};
use crate::queues::resolve_acc_async;
use crate::runtime::{self, DeviceState};
use crate::source_info::{SourceLoc, VarName};
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CString};
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

fn is_device_type(t: acc_device_t) -> bool {
    matches!(
        t,
        ACC_DEVICE_DEFAULT | ACC_DEVICE_NOT_HOST | ACC_DEVICE_NVIDIA
    )
}

/// The current device (acc_set_device_num / ACC_DEVICE_NUM), or None for the host.
fn current() -> Option<&'static DeviceState> {
    let rt = runtime::get();
    let d = rt.device(rt.default_device.load(Ordering::Relaxed))?;
    d.ensure_loaded();
    Some(d)
}

#[derive(Clone, Copy)]
enum Op {
    Begin,
    End,
    Update,
}

/// The device queue of an `async` argument on `dev` (SYNC_QUEUE: synchronous).
fn queue_of(dev: &DeviceState, async_arg: c_int) -> QueueHandle {
    match resolve_acc_async(async_arg, DEFAULT_ASYNC.load(Ordering::Relaxed)) {
        Some(key) => dev.queues.acc_queue(dev.device.as_ref(), key),
        None => SYNC_QUEUE,
    }
}

/// Runs one map operation on `[h, h+bytes)`; returns the device address of `h` when present after it.
fn map(routine: &str, h: *mut c_void, bytes: usize, ty: u64, op: Op) -> Option<u64> {
    map_on(routine, h, bytes, ty, op, None)
}

/// `map` with the copies enqueued on the queue of `async_arg` (None: synchronous).
fn map_on(
    routine: &str,
    h: *mut c_void,
    bytes: usize,
    ty: u64,
    op: Op,
    async_arg: Option<c_int>,
) -> Option<u64> {
    if h.is_null() {
        return None;
    }
    let dev = current()?;
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
    // Releasing data waits for the kernels still using it.
    let mut table = match op {
        Op::End => dev.lock_table_unused(std::slice::from_ref(&item)),
        _ => dev.lock_table(),
    };
    let mut m = Mapper::on_queue(dev.device.as_ref(), &mut table, q);
    let r = match op {
        Op::Begin => m.begin(std::slice::from_ref(&item)).map(|_| ()),
        Op::End => m.end(std::slice::from_ref(&item)),
        Op::Update => m.update(std::slice::from_ref(&item)),
    };
    let addr = m.device_addr(h as usize, bytes as u64);
    drop(m);
    drop(table);
    if let Err(e) = r {
        fatal(&format!("{routine}: {}", e.describe(dev.label())));
    }
    addr
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

// ---- the OpenMP tasks that `async` constructs are ----
//
// ptxcc's front end makes an `async(q)` construct an OpenMP target task (`nowait`, ordered per
// queue by `depend`), which libomp runs on a helper thread. The wait and test routines first
// wait for the calling task's child tasks (`taskwait`), so they are right whoever calls them:
// the user's code compiled by ptxcc, a library compiled by anything else, or a debugger.
//
// libomp is linked into every ptxcc executable, not into this crate's own test binaries: its
// entry points are referenced weakly (an address of 0 when it is absent), which works whether
// libomp is a shared library or linked statically.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
core::arch::global_asm!(
    ".weak __kmpc_omp_taskwait",
    ".weak __kmpc_global_thread_num",
    ".weak __kmpc_omp_taskwait_deps_51",
    ".weak __ptxcc_acc_queue",
    ".pushsection .data.rel.ro.ptxrt_libomp_refs,\"aw\"",
    ".balign 8",
    ".globl __ptxrt_libomp_taskwait",
    ".hidden __ptxrt_libomp_taskwait",
    "__ptxrt_libomp_taskwait:",
    ".8byte __kmpc_omp_taskwait",
    ".globl __ptxrt_libomp_global_thread_num",
    ".hidden __ptxrt_libomp_global_thread_num",
    "__ptxrt_libomp_global_thread_num:",
    ".8byte __kmpc_global_thread_num",
    ".globl __ptxrt_libomp_taskwait_deps",
    ".hidden __ptxrt_libomp_taskwait_deps",
    "__ptxrt_libomp_taskwait_deps:",
    ".8byte __kmpc_omp_taskwait_deps_51",
    ".globl __ptxrt_acc_queue_slots",
    ".hidden __ptxrt_acc_queue_slots",
    "__ptxrt_acc_queue_slots:",
    ".8byte __ptxcc_acc_queue",
    ".popsection",
);

/// libomp's `ident_t`.
#[repr(C)]
struct Ident {
    reserved_1: i32,
    flags: i32,
    reserved_2: i32,
    reserved_3: i32,
    psource: *const c_char,
}
// SAFETY: read-only data, never written.
unsafe impl Sync for Ident {}

/// `__kmpc_omp_taskwait(loc, gtid)`.
type TaskwaitFn = unsafe extern "C" fn(*const Ident, i32) -> i32;
/// `__kmpc_global_thread_num(loc)`.
type GtidFn = unsafe extern "C" fn(*const Ident) -> i32;
/// libomp's `kmp_depend_info_t`: base address, length, flags (1 = in, 2 = out).
#[repr(C)]
struct DependInfo {
    base_addr: usize,
    len: usize,
    flags: u8,
}
/// `__kmpc_omp_taskwait_deps_51(loc, gtid, ndeps, deps, ndeps_noalias, noalias_deps, has_no_wait)`:
/// what clang emits for `taskwait depend(...)`.
type TaskwaitDepsFn =
    unsafe extern "C" fn(*const Ident, i32, i32, *const DependInfo, i32, *const DependInfo, i32);

static TASKWAIT_LOC: Ident = Ident {
    reserved_1: 0,
    flags: 2, // KMP_IDENT_KMPC
    reserved_2: 0,
    reserved_3: 0,
    psource: c";openacc runtime;acc_wait;0;0;;".as_ptr(),
};

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
extern "C" {
    static __ptxrt_libomp_taskwait: Option<TaskwaitFn>;
    static __ptxrt_libomp_global_thread_num: Option<GtidFn>;
    static __ptxrt_libomp_taskwait_deps: Option<TaskwaitDepsFn>;
    /// The address of `__ptxcc_acc_queue` (the 64 dependence slots of the OpenACC queues that
    /// ptxcc's front end defines, weak, in every translation unit with `async`), or 0.
    static __ptxrt_acc_queue_slots: usize;
}

/// libomp's `__kmpc_omp_taskwait` and `__kmpc_global_thread_num`, when libomp is linked in.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
fn libomp_entries() -> Option<(TaskwaitFn, GtidFn)> {
    // SAFETY: two pointer-sized words set by the dynamic loader, never written afterwards.
    unsafe { Some((__ptxrt_libomp_taskwait?, __ptxrt_libomp_global_thread_num?)) }
}
#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
fn libomp_entries() -> Option<(TaskwaitFn, GtidFn)> {
    None
}

/// libomp's `__kmpc_omp_taskwait_deps_51` and the queue slots of the async constructs, when both
/// are linked in.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
fn queue_task_entries() -> Option<(TaskwaitDepsFn, GtidFn, usize)> {
    // SAFETY: pointer-sized words set by the dynamic loader, never written afterwards.
    unsafe {
        let slots = __ptxrt_acc_queue_slots;
        if slots == 0 {
            return None;
        }
        Some((
            __ptxrt_libomp_taskwait_deps?,
            __ptxrt_libomp_global_thread_num?,
            slots,
        ))
    }
}
#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
fn queue_task_entries() -> Option<(TaskwaitDepsFn, GtidFn, usize)> {
    None
}

/// The dependence slot (index into `__ptxcc_acc_queue`) the front end gives the async constructs
/// of `async_arg`: `(unsigned)q % 64`, with acc_async_noval / acc_async_default meaning the
/// default queue (a bare `async` uses `acc_get_default_async()`); None for acc_async_sync.
pub(crate) fn queue_slot(async_arg: c_int, default_async: c_int) -> Option<usize> {
    let q = match async_arg {
        crate::queues::ACC_ASYNC_NOVAL | crate::queues::ACC_ASYNC_DEFAULT => default_async,
        q => q,
    };
    if q == crate::queues::ACC_ASYNC_SYNC {
        return None;
    }
    Some((q as u32 % 64) as usize)
}

/// Waits for the async constructs (OpenMP tasks) of queue `async_arg` only: a `taskwait
/// depend(inout: __ptxcc_acc_queue[slot])`, as the front end writes for `wait(q)`. The
/// `acc_*_async` routines call it so that their work on queue q comes after the constructs
/// already queued on q (the queue runs in order). Nothing without libomp or without async
/// constructs, or in device code.
fn wait_for_queue_tasks(async_arg: c_int) {
    if simt::in_kernel() {
        return;
    }
    let Some(slot) = queue_slot(async_arg, DEFAULT_ASYNC.load(Ordering::Relaxed)) else {
        return;
    };
    if let Some((taskwait_deps, gtid, slots)) = queue_task_entries() {
        let dep = DependInfo {
            base_addr: slots + slot,
            len: 1,
            flags: 3, // in | out
        };
        // SAFETY: libomp's entry point with a valid ident_t and one dependence record.
        unsafe {
            let g = gtid(&TASKWAIT_LOC);
            taskwait_deps(&TASKWAIT_LOC, g, 1, &dep, 0, std::ptr::null(), 0);
        }
    }
}

/// Whether libomp is linked in (the wait routines can wait for the async constructs' tasks).
pub fn can_wait_for_tasks() -> bool {
    libomp_entries().is_some()
}

/// Waits for the OpenMP tasks the calling task created (the async constructs); nothing when
/// libomp is not linked in (then no such task exists) or when called from device code.
pub(crate) fn wait_for_async_tasks() {
    if simt::in_kernel() {
        return;
    }
    if let Some((taskwait, gtid)) = libomp_entries() {
        // SAFETY: libomp's entry points with a valid ident_t; __kmpc_global_thread_num registers
        // a thread libomp does not know yet.
        unsafe {
            let g = gtid(&TASKWAIT_LOC);
            taskwait(&TASKWAIT_LOC, g);
        }
    }
}

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
        Some(_) => map("acc_copyin", h, bytes, MapType::TO, Op::Begin)
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
        Op::Begin,
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
        Some(_) => map("acc_create", h, bytes, 0, Op::Begin)
            .map_or(std::ptr::null_mut(), |a| a as *mut c_void),
        None => h,
    }
}
#[no_mangle]
pub extern "C" fn acc_create_async(h: *mut c_void, bytes: usize, _async_arg: c_int) {
    acc_create(h, bytes);
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
    map("acc_copyout", h, bytes, MapType::FROM, Op::End);
}
#[no_mangle]
pub extern "C" fn acc_copyout_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on(
        "acc_copyout_async",
        h,
        bytes,
        MapType::FROM,
        Op::End,
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
        Op::End,
    );
}
#[no_mangle]
pub extern "C" fn acc_copyout_finalize_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on(
        "acc_copyout_finalize_async",
        h,
        bytes,
        MapType::FROM | MapType::DELETE,
        Op::End,
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
    map("acc_delete", h, bytes, 0, Op::End);
}
#[no_mangle]
pub extern "C" fn acc_delete_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on("acc_delete_async", h, bytes, 0, Op::End, Some(async_arg));
}
#[no_mangle]
pub extern "C" fn acc_delete_finalize(h: *mut c_void, bytes: usize) {
    map("acc_delete_finalize", h, bytes, MapType::DELETE, Op::End);
}
#[no_mangle]
pub extern "C" fn acc_delete_finalize_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on(
        "acc_delete_finalize_async",
        h,
        bytes,
        MapType::DELETE,
        Op::End,
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
        Op::Update,
    );
}
#[no_mangle]
pub extern "C" fn acc_update_device_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on(
        "acc_update_device_async",
        h,
        bytes,
        MapType::TO | MapType::PRESENT,
        Op::Update,
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
        Op::Update,
    );
}
#[no_mangle]
pub extern "C" fn acc_update_self_async(h: *mut c_void, bytes: usize, async_arg: c_int) {
    map_on(
        "acc_update_self_async",
        h,
        bytes,
        MapType::FROM | MapType::PRESENT,
        Op::Update,
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
    let m = Mapper::new(dev.device.as_ref(), &mut t);
    m.device_addr(h as usize, 0)
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
    let r = if attach { m.attach(slot as usize, &var) } else { m.detach(slot as usize, &var) };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_for_tasks_without_libomp_is_a_no_op() {
        // This test binary does not link libomp: the weak references are null.
        assert!(!can_wait_for_tasks());
        wait_for_async_tasks();
        assert!(queue_task_entries().is_none());
        wait_for_queue_tasks(3);
    }

    #[test]
    fn queue_slots_match_the_front_end() {
        // The front end writes `__ptxcc_acc_queue[(unsigned)(q) % 64u]`, and a bare async
        // `(unsigned)acc_get_default_async() % 64u`.
        assert_eq!(queue_slot(3, -1), Some(3));
        assert_eq!(queue_slot(67, -1), Some(3));
        assert_eq!(queue_slot(crate::queues::ACC_ASYNC_NOVAL, -1), Some(63));
        assert_eq!(queue_slot(crate::queues::ACC_ASYNC_NOVAL, 5), Some(5));
        assert_eq!(queue_slot(crate::queues::ACC_ASYNC_DEFAULT, 7), Some(7));
        assert_eq!(queue_slot(crate::queues::ACC_ASYNC_SYNC, 5), None);
        assert_eq!(queue_slot(crate::queues::ACC_ASYNC_NOVAL, crate::queues::ACC_ASYNC_SYNC), None);
    }
}

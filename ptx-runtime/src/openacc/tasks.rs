//! The OpenMP tasks that `async` constructs are.
//!
//! ptxcc's front end makes an `async(q)` construct an OpenMP target task (`nowait`, ordered per
//! queue by `depend`), which libomp runs on a helper thread. The wait and test routines first
//! wait for the calling task's child tasks (`taskwait`), so they are right whoever calls them:
//! the user's code compiled by ptxcc, a library compiled by anything else, or a debugger.
//!
//! libomp is linked into every ptxcc executable, not into this crate's own test binaries: its
//! entry points are referenced weakly (an address of 0 when it is absent), which works whether
//! libomp is a shared library or linked statically.

use super::DEFAULT_ASYNC;
use crate::device::emulator::simt;
use std::ffi::{c_char, c_int};
use std::sync::atomic::Ordering;

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
pub(super) fn wait_for_queue_tasks(async_arg: c_int) {
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
        assert_eq!(
            queue_slot(
                crate::queues::ACC_ASYNC_NOVAL,
                crate::queues::ACC_ASYNC_SYNC
            ),
            None
        );
    }
}

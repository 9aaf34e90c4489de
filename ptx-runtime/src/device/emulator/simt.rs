//! Running one block of a kernel with GPU semantics on a host thread, and the `__ptxemu_*`
//! functions the SIMT-lowered device code calls.
//!
//! Fast path (kernel without PTXRT_EMU_NEEDS_SYNC): the threads of a block run one after the
//! other as a plain loop. Otherwise every GPU thread is a stackful fiber (corosensei) and a
//! round-robin scheduler implements `bar.sync`, `__syncwarp`, shuffles and votes.

use crate::abi::{sreg, EmuEntry, ShflMode, VoteMode};
use crate::errors::fatal;
use crate::registry::Kernel;
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use std::cell::{Cell, RefCell, UnsafeCell};
use std::ffi::c_void;
use std::ptr::{null, null_mut};

pub const WARP: u32 = 32;

/// What a fiber is waiting for when it gives the host thread back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Yield {
    Barrier,
    WarpWait,
}

/// Everything one launch needs to run any of its blocks.
pub struct LaunchCtx<'a> {
    pub kernel: &'a Kernel,
    pub entry: EmuEntry,
    pub args: *mut *mut c_void,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: usize,
    pub stack_bytes: usize,
    /// The device's OpenMP number (`PTXEMU_DEVICE_NUM`).
    pub device_num: u32,
}
// `args` points at parameter values that the kernel only reads, shared by all blocks.
unsafe impl Sync for LaunchCtx<'_> {}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Sync,
    Shfl,
    Vote,
}

struct WarpState {
    /// Lanes that exist in this (possibly partial) warp.
    existing: u32,
    /// Lanes whose thread has finished.
    exited: u32,
    arrived: u32,
    mask: u32,
    op: Op,
    generation: u64,
    vals: [u32; 32],
    bs: [u32; 32],
    cs: [u32; 32],
    modes: [u32; 32],
    results: [u32; 32],
}

struct FiberBlock {
    warps: Vec<WarpState>,
    done: Vec<bool>,
    at_barrier: Vec<bool>,
    in_warp_op: Vec<bool>,
    /// Incremented whenever a thread makes progress (for deadlock detection).
    events: u64,
}

thread_local! {
    static REGS: UnsafeCell<[u32; 16]> = const { UnsafeCell::new([0; 16]) };
    static SHARED: Cell<*mut u8> = const { Cell::new(null_mut()) };
    static KERNEL: Cell<*const Kernel> = const { Cell::new(null()) };
    static FIBERS: Cell<*mut FiberBlock> = const { Cell::new(null_mut()) };
    static FIBER_INDEX: Cell<usize> = const { Cell::new(0) };
    static YIELDER: Cell<*const Yielder<(), Yield>> = const { Cell::new(null()) };
    static SHARED_BUF: RefCell<Vec<u128>> = const { RefCell::new(Vec::new()) };
    static STACKS: RefCell<Vec<DefaultStack>> = const { RefCell::new(Vec::new()) };
}

#[inline]
fn set_reg(which: u32, v: u32) {
    REGS.with(|r| unsafe { (*r.get())[which as usize] = v });
}
#[inline]
fn reg(which: u32) -> u32 {
    REGS.with(|r| unsafe { (*r.get())[(which & 15) as usize] })
}

fn set_thread(block: [u32; 3], linear: u32) {
    let x = linear % block[0];
    let y = (linear / block[0]) % block[1];
    let z = linear / (block[0] * block[1]);
    set_reg(sreg::TID_X, x);
    set_reg(sreg::TID_Y, y);
    set_reg(sreg::TID_Z, z);
    set_reg(sreg::LANEID, linear % WARP);
}

/// True while this host thread runs an emulated kernel (for omp_is_initial_device).
pub fn in_kernel() -> bool {
    KERNEL.with(|k| !k.get().is_null())
}

/// The OpenMP number of the emulated device whose kernel this host thread runs (valid while
/// `in_kernel()`).
pub fn device_num() -> u32 {
    reg(sreg::DEVICE_NUM)
}

/// The kernel this host thread is running, if any (for crash reports).
pub fn current_kernel() -> Option<&'static Kernel> {
    KERNEL.with(|k| {
        let p = k.get();
        // SAFETY: set only for the duration of a block, during which the kernel is alive.
        if p.is_null() {
            None
        } else {
            Some(unsafe { &*p })
        }
    })
}

fn where_in_kernel() -> String {
    format!(
        "block ({},{},{}) thread ({},{},{})",
        reg(sreg::CTAID_X),
        reg(sreg::CTAID_Y),
        reg(sreg::CTAID_Z),
        reg(sreg::TID_X),
        reg(sreg::TID_Y),
        reg(sreg::TID_Z)
    )
}

fn kernel_fatal(what: &str) -> ! {
    match current_kernel() {
        Some(k) => fatal(&format!(
            "{}: kernel '{}' {what} ({}, emulator device)",
            k.source,
            k.name,
            where_in_kernel()
        )),
        None => fatal(&format!("{what} outside of a kernel")),
    }
}

/// Runs block number `linear_block` of a launch on the calling host thread.
pub fn run_block(ctx: &LaunchCtx<'_>, linear_block: u64) {
    let [gx, gy, _] = ctx.grid;
    let b = linear_block;
    set_reg(sreg::CTAID_X, (b % gx as u64) as u32);
    set_reg(sreg::CTAID_Y, ((b / gx as u64) % gy as u64) as u32);
    set_reg(sreg::CTAID_Z, (b / (gx as u64 * gy as u64)) as u32);
    set_reg(sreg::NTID_X, ctx.block[0]);
    set_reg(sreg::NTID_Y, ctx.block[1]);
    set_reg(sreg::NTID_Z, ctx.block[2]);
    set_reg(sreg::NCTAID_X, ctx.grid[0]);
    set_reg(sreg::NCTAID_Y, ctx.grid[1]);
    set_reg(sreg::NCTAID_Z, ctx.grid[2]);
    set_reg(sreg::WARPSIZE, WARP);
    set_reg(sreg::DEVICE_NUM, ctx.device_num);

    let mut shared = SHARED_BUF.with(|s| std::mem::take(&mut *s.borrow_mut()));
    let words = ctx.shared_bytes.div_ceil(16).max(1);
    if shared.len() < words {
        shared.resize(words, 0);
    }
    let shared_ptr = shared.as_mut_ptr() as *mut u8;
    // Shared memory is uninitialised on a GPU: poison it like global memory.
    unsafe { super::memory::poison(shared_ptr, ctx.shared_bytes) };
    SHARED.with(|s| s.set(shared_ptr));
    KERNEL.with(|k| k.set(ctx.kernel as *const Kernel));

    let nthreads = ctx.block[0] * ctx.block[1] * ctx.block[2];
    if !ctx.kernel.needs_sync || nthreads == 1 {
        for t in 0..nthreads {
            set_thread(ctx.block, t);
            unsafe { (ctx.entry)(ctx.args) };
        }
    } else {
        run_block_fibers(ctx, nthreads);
    }

    KERNEL.with(|k| k.set(null()));
    SHARED.with(|s| s.set(null_mut()));
    SHARED_BUF.with(|s| *s.borrow_mut() = shared);
}

#[derive(Clone, Copy)]
struct EntryCall {
    entry: EmuEntry,
    args: *mut *mut c_void,
}

fn run_block_fibers(ctx: &LaunchCtx<'_>, nthreads: u32) {
    let n = nthreads as usize;
    let nwarps = n.div_ceil(WARP as usize);
    let mut fb = FiberBlock {
        warps: (0..nwarps)
            .map(|w| {
                let lanes = (n - w * WARP as usize).min(WARP as usize) as u32;
                WarpState {
                    existing: if lanes == 32 {
                        u32::MAX
                    } else {
                        (1u32 << lanes) - 1
                    },
                    exited: 0,
                    arrived: 0,
                    mask: 0,
                    op: Op::Sync,
                    generation: 0,
                    vals: [0; 32],
                    bs: [0; 32],
                    cs: [0; 32],
                    modes: [0; 32],
                    results: [0; 32],
                }
            })
            .collect(),
        done: vec![false; n],
        at_barrier: vec![false; n],
        in_warp_op: vec![false; n],
        events: 0,
    };
    let fb_ptr: *mut FiberBlock = &mut fb;
    FIBERS.with(|f| f.set(fb_ptr));

    let mut stacks = STACKS.with(|s| std::mem::take(&mut *s.borrow_mut()));
    let call = EntryCall {
        entry: ctx.entry,
        args: ctx.args,
    };
    let mut fibers: Vec<Option<Coroutine<(), Yield, (), DefaultStack>>> = Vec::with_capacity(n);
    for _ in 0..n {
        let stack = match stacks.pop() {
            Some(s) => s,
            None => match DefaultStack::new(ctx.stack_bytes) {
                Ok(s) => s,
                Err(e) => fatal(&format!(
                    "{}: cannot allocate a {} KiB stack for an emulated GPU thread of kernel '{}': {e}; \
                     use smaller blocks (thread_limit) or set PTXRT_EMU_STACK to a smaller size",
                    ctx.kernel.source,
                    ctx.stack_bytes / 1024,
                    ctx.kernel.name
                )),
            },
        };
        fibers.push(Some(Coroutine::with_stack(
            stack,
            move |y: &Yielder<(), Yield>, ()| {
                let c = call;
                YIELDER.with(|cell| cell.set(y as *const _));
                unsafe { (c.entry)(c.args) }
            },
        )));
    }

    let mut live = n;
    loop {
        let before = unsafe { (*fb_ptr).events };
        for (i, slot) in fibers.iter_mut().enumerate() {
            // SAFETY: fibers run one at a time on this thread; no reference into `fb` is held
            // across a resume.
            let (done, waiting) = {
                let fbr = unsafe { &*fb_ptr };
                (fbr.done[i], fbr.at_barrier[i])
            };
            if done || waiting {
                continue;
            }
            set_thread(ctx.block, i as u32);
            FIBER_INDEX.with(|f| f.set(i));
            let Some(co) = slot.as_mut() else { continue };
            match co.resume(()) {
                CoroutineResult::Yield(Yield::Barrier) => {
                    let fbr = unsafe { &mut *fb_ptr };
                    fbr.at_barrier[i] = true;
                    fbr.events += 1;
                }
                CoroutineResult::Yield(Yield::WarpWait) => {}
                CoroutineResult::Return(()) => {
                    let fbr = unsafe { &mut *fb_ptr };
                    fbr.done[i] = true;
                    fbr.events += 1;
                    fbr.warps[i / WARP as usize].exited |= 1 << (i % WARP as usize);
                    live -= 1;
                    if let Some(co) = slot.take() {
                        stacks.push(co.into_stack());
                    }
                }
            }
        }
        if live == 0 {
            break;
        }
        let fbr = unsafe { &mut *fb_ptr };
        let all_at_barrier = (0..n).all(|i| fbr.done[i] || fbr.at_barrier[i]);
        if all_at_barrier {
            fbr.at_barrier.iter_mut().for_each(|b| *b = false);
            fbr.events += 1;
            continue;
        }
        if fbr.events == before {
            let at_bar: Vec<usize> = (0..n).filter(|&i| fbr.at_barrier[i]).collect();
            let in_warp: Vec<usize> = (0..n)
                .filter(|&i| fbr.in_warp_op[i] && !fbr.done[i])
                .collect();
            let exited = (0..n).filter(|&i| fbr.done[i]).count();
            fatal(&format!(
                "{}: kernel '{}' deadlocked on the emulator device in block ({},{},{}): {} thread(s) wait at a barrier \
                 ({}), {} wait in a warp-synchronous operation ({}), {exited} have exited; a barrier or __shfl_sync/__syncwarp \
                 is reached by only part of the threads (divergent code)",
                ctx.kernel.source,
                ctx.kernel.name,
                reg(sreg::CTAID_X),
                reg(sreg::CTAID_Y),
                reg(sreg::CTAID_Z),
                at_bar.len(),
                summarize(&at_bar),
                in_warp.len(),
                summarize(&in_warp),
            ));
        }
    }
    FIBERS.with(|f| f.set(null_mut()));
    STACKS.with(|s| *s.borrow_mut() = stacks);
}

fn summarize(ids: &[usize]) -> String {
    match ids {
        [] => "none".into(),
        [a] => format!("thread {a}"),
        _ if ids.windows(2).all(|w| w[1] == w[0] + 1) => {
            format!("threads {}-{}", ids[0], ids[ids.len() - 1])
        }
        _ => {
            let mut s: Vec<String> = ids.iter().take(8).map(|i| i.to_string()).collect();
            if ids.len() > 8 {
                s.push("...".into());
            }
            format!("threads {}", s.join(","))
        }
    }
}

fn suspend(reason: Yield) {
    let y = YIELDER.with(|c| c.get());
    if y.is_null() {
        kernel_fatal("used a synchronising operation outside of a fiber");
    }
    // SAFETY: the yielder belongs to the running fiber and outlives it.
    unsafe { (*y).suspend(reason) };
    // Other fibers ran on this host thread meanwhile: restore ours.
    YIELDER.with(|c| c.set(y));
}

/// Fast path: only a block of one thread may synchronise without fibers.
fn unsynchronised(what: &str) {
    let n = reg(sreg::NTID_X) * reg(sreg::NTID_Y) * reg(sreg::NTID_Z);
    if n > 1 {
        kernel_fatal(&format!(
            "calls {what} but its image does not flag it PTXRT_EMU_NEEDS_SYNC, so its threads do not run as fibers \
             (a ptxcc bug: please report it; recompiling with the same ptxcc will not help)"
        ));
    }
}

/// PTX shfl.sync source lane (PTX ISA 8, `shfl.sync` pseudo-code); None: keep own value.
pub fn shfl_source(lane: u32, b: u32, c: u32, mode: ShflMode) -> Option<u32> {
    let segmask = (c >> 8) & 0x1f;
    let cval = c & 0x1f;
    let min_lane = lane & segmask;
    let max_lane = min_lane | (cval & !segmask);
    let lane = lane as i64;
    let (j, ok) = match mode {
        ShflMode::Up => {
            let j = lane - (b as i64);
            (j, j >= max_lane as i64)
        }
        ShflMode::Down => {
            let j = lane + (b as i64);
            (j, j <= max_lane as i64)
        }
        ShflMode::Bfly => {
            let j = lane ^ ((b & 0x1f) as i64);
            (j, j <= max_lane as i64)
        }
        ShflMode::Idx => {
            let j = (min_lane | (b & 0x1f & !segmask)) as i64;
            (j, j <= max_lane as i64)
        }
    };
    if ok && (0..32).contains(&j) {
        Some(j as u32)
    } else {
        None
    }
}

fn complete(ws: &mut WarpState) {
    let active = ws.arrived;
    match ws.op {
        Op::Sync => {}
        Op::Shfl => {
            for l in 0..32u32 {
                if active & (1 << l) == 0 {
                    continue;
                }
                let mode = ShflMode::from_raw(ws.modes[l as usize]).unwrap_or(ShflMode::Idx);
                let src = shfl_source(l, ws.bs[l as usize], ws.cs[l as usize], mode);
                ws.results[l as usize] = match src {
                    Some(j) if active & (1 << j) != 0 => ws.vals[j as usize],
                    _ => ws.vals[l as usize],
                };
            }
        }
        Op::Vote => {
            let mut ballot = 0u32;
            for l in 0..32 {
                if active & (1 << l) != 0 && ws.vals[l] != 0 {
                    ballot |= 1 << l;
                }
            }
            for l in 0..32 {
                if active & (1 << l) == 0 {
                    continue;
                }
                ws.results[l] = match VoteMode::from_raw(ws.modes[l]).unwrap_or(VoteMode::Ballot) {
                    VoteMode::All => (ballot == active) as u32,
                    VoteMode::Any => (ballot != 0) as u32,
                    VoteMode::Uni => (ballot == 0 || ballot == active) as u32,
                    VoteMode::Ballot => ballot,
                };
            }
        }
    }
}

/// A warp-wide rendezvous of the lanes in `mask`; returns this lane's result.
fn warp_collective(op: Op, mask: u32, value: u32, b: u32, c: u32, mode: u32) -> u32 {
    let fb = FIBERS.with(|f| f.get());
    if fb.is_null() {
        unsynchronised(match op {
            Op::Sync => "__syncwarp",
            Op::Shfl => "a warp shuffle",
            Op::Vote => "a warp vote",
        });
        // One thread alone in its block: it is the whole warp.
        let mut ws_results = [0u32; 1];
        ws_results[0] = match op {
            Op::Sync => 0,
            Op::Shfl => value,
            Op::Vote => match VoteMode::from_raw(mode).unwrap_or(VoteMode::Ballot) {
                VoteMode::All | VoteMode::Any => (value != 0) as u32,
                VoteMode::Uni => 1,
                VoteMode::Ballot => (value != 0) as u32,
            },
        };
        return ws_results[0];
    }
    let i = FIBER_INDEX.with(|f| f.get());
    let (w, lane) = (i / WARP as usize, i % WARP as usize);
    // SAFETY: fibers of a block run one at a time on this host thread.
    let my_gen = unsafe {
        let fbr = &mut *fb;
        let ws = &mut fbr.warps[w];
        if ws.arrived == 0 {
            ws.op = op;
            ws.mask = mask;
        } else if ws.op != op {
            kernel_fatal(
                "reached different warp-synchronous operations in the same warp (divergent code)",
            );
        }
        ws.arrived |= 1 << lane;
        ws.vals[lane] = value;
        ws.bs[lane] = b;
        ws.cs[lane] = c;
        ws.modes[lane] = mode;
        fbr.events += 1;
        fbr.in_warp_op[i] = true;
        ws.generation
    };
    loop {
        unsafe {
            let fbr = &mut *fb;
            let ws = &mut fbr.warps[w];
            if ws.generation != my_gen {
                fbr.in_warp_op[i] = false;
                return ws.results[lane];
            }
            let required = ((ws.mask | (1 << lane)) & ws.existing) & !ws.exited;
            if ws.arrived & required == required {
                complete(ws);
                ws.generation += 1;
                ws.arrived = 0;
                fbr.events += 1;
                fbr.in_warp_op[i] = false;
                return ws.results[lane];
            }
        }
        suspend(Yield::WarpWait);
    }
}

// ---- the emulator ABI (ptxcc_abi.h) ----

#[no_mangle]
pub extern "C" fn __ptxemu_sreg(which: u32) -> u32 {
    reg(which)
}

#[no_mangle]
pub extern "C" fn __ptxemu_barrier() {
    if FIBERS.with(|f| f.get()).is_null() {
        unsynchronised("__syncthreads (bar.sync)");
        return;
    }
    suspend(Yield::Barrier);
}

#[no_mangle]
pub extern "C" fn __ptxemu_warp_sync(mask: u32) {
    warp_collective(Op::Sync, mask, 0, 0, 0, 0);
}

#[no_mangle]
pub extern "C" fn __ptxemu_shfl_sync(
    mask: u32,
    value: u32,
    lane_or_offset: u32,
    c: u32,
    mode: u32,
) -> u32 {
    if ShflMode::from_raw(mode).is_none() {
        kernel_fatal(&format!(
            "called __ptxemu_shfl_sync with an unknown mode {mode}"
        ));
    }
    warp_collective(Op::Shfl, mask, value, lane_or_offset, c, mode)
}

#[no_mangle]
pub extern "C" fn __ptxemu_vote_sync(mask: u32, pred: u32, mode: u32) -> u32 {
    if VoteMode::from_raw(mode).is_none() {
        kernel_fatal(&format!(
            "called __ptxemu_vote_sync with an unknown mode {mode}"
        ));
    }
    warp_collective(Op::Vote, mask, pred, 0, 0, mode)
}

#[no_mangle]
pub extern "C" fn __ptxemu_shared_base() -> *mut c_void {
    SHARED.with(|s| s.get()) as *mut c_void
}

#[no_mangle]
pub extern "C" fn __ptxemu_trap() {
    kernel_fatal("executed a trap (a failed assert() or __builtin_trap() in device code)")
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn shuffle_source_lanes_follow_ptx() {
        let full = 0x1f; // c for idx/down/bfly over a whole warp
        assert_eq!(shfl_source(5, 0, full, ShflMode::Idx), Some(0));
        assert_eq!(
            shfl_source(5, 33, full, ShflMode::Idx),
            Some(1),
            "idx lane is taken mod 32"
        );
        assert_eq!(shfl_source(5, 3, full, ShflMode::Down), Some(8));
        assert_eq!(
            shfl_source(30, 3, full, ShflMode::Down),
            None,
            "past the clamp: own value"
        );
        assert_eq!(shfl_source(5, 3, 0, ShflMode::Up), Some(2));
        assert_eq!(shfl_source(2, 3, 0, ShflMode::Up), None);
        assert_eq!(shfl_source(5, 1, full, ShflMode::Bfly), Some(4));
        // width 8 segments: c = ((32 - 8) << 8) | 0x1f for down/idx, (32-8)<<8 for up
        let c8 = (24 << 8) | 0x1f;
        assert_eq!(shfl_source(13, 2, c8, ShflMode::Down), Some(15));
        assert_eq!(
            shfl_source(14, 2, c8, ShflMode::Down),
            None,
            "stays inside the 8-lane segment"
        );
        assert_eq!(
            shfl_source(13, 1, c8, ShflMode::Idx),
            Some(9),
            "idx within segment"
        );
        assert_eq!(
            shfl_source(9, 2, 24 << 8, ShflMode::Up),
            None,
            "segment start"
        );
        assert_eq!(shfl_source(11, 2, 24 << 8, ShflMode::Up), Some(9));
    }
}

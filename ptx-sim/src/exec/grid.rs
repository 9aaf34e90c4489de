//! A kernel launch: the grid's blocks, run on a pool of host threads (each block on one host
//! thread, as a block runs on one SM), until all are done or one faults.

use super::block;
use super::memory::Ranges;
use super::shared::SharedMemory;
use super::thread::{BlockEnv, Fault, Thread};
use crate::program::Program;
use crate::stats::footprint::Footprint;
use crate::stats::warp::BlockCounters;
use crate::stats::Counters;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

pub struct Launch<'a> {
    pub program: &'a Program,
    pub kernel: usize,
    /// The kernel's parameter area, laid out as its PTX signature says.
    pub params: &'a [u8],
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared: u32,
    pub ranges: Arc<Ranges>,
    pub sm_count: u32,
    /// Host threads to run blocks on.
    pub workers: usize,
    /// Check shared memory for data races (see `shared.rs`).
    pub racecheck: bool,
    /// Warps run in lockstep (see `block.rs`).
    pub lockstep: bool,
    /// The device heap, if the kernel calls malloc/free.
    pub heap: Option<Arc<super::heap::DeviceHeap>>,
    /// Count what the launch does (`crate::stats`).
    pub count: bool,
    /// With `count`: each basic block's executions too (`Counters::blocks`, PTXSIM_PROFILE).
    pub profile: bool,
}

#[derive(Debug, Default)]
pub struct Outcome {
    /// PTX instructions executed by all threads.
    pub instructions: u64,
    /// What the kernel printed with printf.
    pub printed: Vec<u8>,
    /// With `Launch::count`: the counters, and the global memory the launch touched.
    pub counted: Option<(Counters, Footprint)>,
    /// The counters with the device model's estimate (`Machine::launch` fills it in).
    pub stats: Option<crate::stats::LaunchStats>,
}

/// A fault with the block where it happened.
#[derive(Clone, Debug)]
pub struct LaunchFault {
    pub fault: Fault,
    pub block: [u32; 3],
}

impl std::fmt::Display for LaunchFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let b = self.block;
        write!(
            f,
            "{} (in {} at PTX line {}, block ({},{},{})",
            self.fault.message, self.fault.function, self.fault.line, b[0], b[1], b[2]
        )?;
        if let Some(t) = self.fault.thread {
            write!(f, ", thread ({},{},{})", t[0], t[1], t[2])?;
        }
        write!(f, ")")
    }
}

pub fn run(l: &Launch) -> Result<Outcome, LaunchFault> {
    let blocks = l.grid[0] as u64 * l.grid[1] as u64 * l.grid[2] as u64;
    let threads_per_block = (l.block[0] * l.block[1] * l.block[2]) as usize;
    let shared_bytes = (l.program.dynamic_shared_offset + l.dynamic_shared) as usize;
    let next = AtomicU64::new(0);
    let abort = AtomicBool::new(false);
    let first_fault: Mutex<Option<LaunchFault>> = Mutex::new(None);
    let printed = Mutex::new(Vec::new());
    let instructions = AtomicU64::new(0);
    let counted: Mutex<Option<(Counters, Footprint)>> = Mutex::new(None);
    let start = std::time::Instant::now();
    let worker = || {
        let mut threads: Vec<Thread> = Vec::new();
        let mut shared = SharedMemory::new(shared_bytes, l.racecheck, l.lockstep);
        let mut executed = 0u64;
        let mut counters = l.count.then(|| BlockCounters::new(l.program, l.profile));
        loop {
            let b = next.fetch_add(1, Ordering::Relaxed);
            if b >= blocks || abort.load(Ordering::Relaxed) {
                break;
            }
            let ctaid = [
                (b % l.grid[0] as u64) as u32,
                ((b / l.grid[0] as u64) % l.grid[1] as u64) as u32,
                (b / (l.grid[0] as u64 * l.grid[1] as u64)) as u32,
            ];
            let env = BlockEnv {
                program: l.program,
                ranges: &l.ranges,
                ntid: l.block,
                ctaid,
                nctaid: l.grid,
                dynamic_shared: l.dynamic_shared,
                sm_count: l.sm_count,
                printf: &printed,
                heap: l.heap.as_deref(),
                start,
                lockstep: l.lockstep,
            };
            // Fresh threads and poisoned shared memory for every block.
            for (i, t) in (0..threads_per_block).map(|i| (i, tid_of(i as u32, l.block))) {
                if i < threads.len() {
                    threads[i].reset(&env, l.kernel, l.params, t);
                } else {
                    threads.push(Thread::new(&env, l.kernel, l.params, t));
                }
            }
            threads.truncate(threads_per_block);
            shared.reset(threads_per_block.div_ceil(32));
            if let Some(c) = counters.as_mut() {
                c.begin_block(threads.iter_mut().map(|t| &mut t.counts));
            }
            let r = block::run(&env, &mut threads, &mut shared, &abort, counters.as_mut());
            if let Some(c) = counters.as_mut() {
                c.end_block(threads.iter_mut().map(|t| (&mut t.counts, t.executed)));
            }
            for t in threads.iter_mut() {
                executed += std::mem::take(&mut t.executed);
            }
            if let Err(fault) = r {
                abort.store(true, Ordering::Relaxed);
                let mut f = first_fault.lock().unwrap_or_else(|p| p.into_inner());
                if f.is_none() {
                    *f = Some(LaunchFault {
                        fault,
                        block: ctaid,
                    });
                }
                break;
            }
        }
        instructions.fetch_add(executed, Ordering::Relaxed);
        if let Some(c) = counters {
            let mut all = counted.lock().unwrap_or_else(|p| p.into_inner());
            match all.as_mut() {
                None => *all = Some((c.counters, c.footprint)),
                Some((counters, footprint)) => {
                    counters.add(&c.counters);
                    footprint.merge(c.footprint);
                }
            }
        }
    };
    let workers = l.workers.clamp(1, blocks.max(1) as usize);
    if workers == 1 {
        worker();
    } else {
        std::thread::scope(|s| {
            for _ in 0..workers {
                s.spawn(worker);
            }
        });
    }
    if let Some(f) = first_fault.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(f);
    }
    Ok(Outcome {
        instructions: instructions.into_inner(),
        printed: printed.into_inner().unwrap_or_else(|p| p.into_inner()),
        counted: counted.into_inner().unwrap_or_else(|p| p.into_inner()),
        stats: None,
    })
}

fn tid_of(i: u32, block: [u32; 3]) -> [u32; 3] {
    [
        i % block[0],
        (i / block[0]) % block[1],
        i / (block[0] * block[1]),
    ]
}

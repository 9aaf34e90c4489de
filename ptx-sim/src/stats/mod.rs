//! Performance counters and a time model (`PTXSIM_STATS`, `PTXSIM_MODEL`).
//!
//! While a kernel runs with counting on, every thread counts its entries into each basic block
//! (`program::blocks`) and reports each access of global, shared and local memory with the
//! dynamic instance it belongs to: (memory site, k) where k is the thread's entry count of the
//! site's block. The lanes of a warp that report the same (site, k) are taken to have executed
//! that instruction together, as one warp-level instruction; that holds exactly while a warp's
//! lanes run converged, which is how a GPU runs them between a divergence and its
//! reconvergence (`warp.rs` says what it assumes beyond). From those groups come the
//! warp-level counts: instructions issued (per block, the most entries any lane made, times
//! its length), memory requests and the 32-byte sectors each touches (coalescing), shared-memory
//! bank conflicts. The launch's distinct sectors give the DRAM traffic under the model's L2
//! (`model.rs`), which turns the counts into an estimated time on a named GPU.
//!
//! ```text
//! thread ──(site, k, address)──▶ warp::BlockCounters ──finished (site, k)──▶ access::Request
//!                                   │ block entries                          │ sectors, banks
//!                                   ▼                                        ▼
//!                               Counters (per launch) ◀──────────── footprint::Footprint
//!                                   │
//!                          model::DeviceModel::estimate ──▶ report (table, JSON)
//! ```
//!
//! With counting off nothing of this runs: the interpreter is instantiated without it.

pub mod access;
pub mod footprint;
pub mod model;
pub mod profile;
pub mod report;
pub mod warp;

use crate::program::ISSUE_CLASSES;

/// What a launch (or several, summed) did, counted at warp level where the name says so.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counters {
    /// Instructions executed by threads (predicated-off ones included).
    pub thread_instructions: u64,
    /// Instructions issued by warps, whatever their active lanes.
    pub warp_instructions: u64,
    /// The same by issue class (`program::IssueClass`).
    pub class_instructions: [u64; ISSUE_CLASSES],
    /// The issue slots the warps' instructions take once ptxas has expanded them
    /// (`Op::issue_slots`: an integer division is some twenty): what the time model issues.
    pub issue_slots: u64,
    /// The same by issue class.
    pub class_slots: [u64; ISSUE_CLASSES],
    /// The most issue slots one warp took.
    pub longest_warp: u64,
    pub global_load_requests: u64,
    pub global_store_requests: u64,
    pub global_load_sectors: u64,
    pub global_store_sectors: u64,
    /// Atomic operations of threads (global and shared), and the warp-level requests and
    /// sectors of the global ones.
    pub atomics: u64,
    pub atomic_requests: u64,
    pub atomic_sectors: u64,
    pub shared_requests: u64,
    /// Passes the shared-memory banks need for the requests (one when conflict-free).
    pub shared_wavefronts: u64,
    pub shared_bank_conflicts: u64,
    pub local_requests: u64,
    pub local_sectors: u64,
    /// With a profile (`PTXSIM_PROFILE`): per basic block of the program (`Program::blocks`),
    /// how often warps issued it and how often threads entered it; empty otherwise.
    pub blocks: Vec<BlockCount>,
}

/// A basic block's executions (`Counters::blocks`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockCount {
    pub warp_issues: u64,
    pub thread_entries: u64,
}

impl Counters {
    pub fn add(&mut self, o: &Counters) {
        if self.blocks.len() < o.blocks.len() {
            self.blocks.resize(o.blocks.len(), BlockCount::default());
        }
        for (a, b) in self.blocks.iter_mut().zip(&o.blocks) {
            a.warp_issues += b.warp_issues;
            a.thread_entries += b.thread_entries;
        }
        self.thread_instructions += o.thread_instructions;
        self.warp_instructions += o.warp_instructions;
        for (a, b) in self
            .class_instructions
            .iter_mut()
            .zip(&o.class_instructions)
        {
            *a += b;
        }
        self.issue_slots += o.issue_slots;
        for (a, b) in self.class_slots.iter_mut().zip(&o.class_slots) {
            *a += b;
        }
        self.longest_warp = self.longest_warp.max(o.longest_warp);
        self.global_load_requests += o.global_load_requests;
        self.global_store_requests += o.global_store_requests;
        self.global_load_sectors += o.global_load_sectors;
        self.global_store_sectors += o.global_store_sectors;
        self.atomics += o.atomics;
        self.atomic_requests += o.atomic_requests;
        self.atomic_sectors += o.atomic_sectors;
        self.shared_requests += o.shared_requests;
        self.shared_wavefronts += o.shared_wavefronts;
        self.shared_bank_conflicts += o.shared_bank_conflicts;
        self.local_requests += o.local_requests;
        self.local_sectors += o.local_sectors;
    }

    /// Sectors moved between the SMs and L2: global loads, stores, atomics and local memory.
    pub fn l2_sectors(&self) -> u64 {
        self.global_load_sectors
            + self.global_store_sectors
            + self.atomic_sectors
            + self.local_sectors
    }

    /// Average active lanes per warp instruction (32: no divergence).
    pub fn active_lanes(&self) -> f64 {
        if self.warp_instructions == 0 {
            0.0
        } else {
            self.thread_instructions as f64 / self.warp_instructions as f64
        }
    }
}

/// The counts and estimate of one launch (or of all launches of a kernel, summed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaunchStats {
    pub counters: Counters,
    /// Bytes between L2 and DRAM under the model's L2 (`model.rs`).
    pub dram_bytes: u64,
    /// Theoretical occupancy: resident warps per SM over the most an SM holds (for several
    /// launches, their mean).
    pub occupancy: f64,
    pub estimate: model::Estimate,
}

impl LaunchStats {
    /// Adds another launch of the same kernel (`launches` counts those already in).
    pub fn add(&mut self, o: &LaunchStats, launches: u64) {
        self.counters.add(&o.counters);
        self.dram_bytes += o.dram_bytes;
        self.occupancy = (self.occupancy * launches as f64 + o.occupancy) / (launches + 1) as f64;
        self.estimate.add(&o.estimate);
    }
}

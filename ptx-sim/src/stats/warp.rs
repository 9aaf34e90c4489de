//! The counters of the blocks one host thread runs: threads' block entries and memory accesses
//! grouped into warp-level instructions.
//!
//! Each thread counts its entries into each basic block (`ThreadCounts`). A warp issued basic
//! block B as many times as the lane that entered it most: its instructions issued are the sum
//! over blocks of that count times the block's length. A memory access of a lane is reported
//! with its site and k, the lane's entry count of the site's block: the lanes of a warp with
//! the same (site, k) form one request (`access::Request`). A request is finished — its
//! sectors counted — once every lane of the warp that has not exited has entered the site's
//! block more than k times (it can no longer join), and at the end of the block.
//!
//! What this assumes: lanes that execute their k-th instance of a block execute it together.
//! That is how a warp runs between a divergence and its reconvergence (a loop whose lanes make
//! different trip counts runs its body as often as the longest lane; both sides of a branch are
//! issued). It is not exact where lanes reach one block along different paths at different
//! times — a function called from two divergent call sites counts as if called once — nor where
//! lanes fall more than `MAX_PENDING` instances apart at one site (the older instances are then
//! finished early, and lanes arriving later make requests of their own).

use super::access::{Access, Request};
use super::footprint::Footprint;
use super::Counters;
use crate::program::{BlockInfo, Program, SiteKind};
use std::collections::VecDeque;

/// Instances of one site a warp keeps open before finishing the oldest.
const MAX_PENDING: usize = 4096;

/// A thread's entries into each basic block of the program.
#[derive(Debug, Default)]
pub struct ThreadCounts {
    entries: Vec<u32>,
    /// Blocks entered at least once (to reset only those).
    touched: Vec<u32>,
}

impl ThreadCounts {
    #[inline(always)]
    pub fn enter(&mut self, block: u32) {
        // SAFETY: `BlockCounters::begin_block` sized `entries` to the program's blocks, and
        // every instruction's block is below that.
        let e = unsafe { self.entries.get_unchecked_mut(block as usize) };
        if *e == 0 {
            self.touched.push(block);
        }
        *e += 1;
    }

    /// The entries into `block` so far: the dynamic instance an access in it belongs to.
    #[inline(always)]
    pub fn instance(&self, block: u32) -> u32 {
        self.entries.get(block as usize).copied().unwrap_or(0)
    }
}

/// The open instances of one memory site in one warp: `requests[i]` is instance `first + i`;
/// the instances below `done` are finished.
#[derive(Debug, Default)]
struct Window {
    first: u32,
    done: u32,
    requests: VecDeque<Request>,
}

#[derive(Debug, Default)]
struct WarpWindows {
    windows: Vec<Window>,
    /// Sites with open instances.
    open: Vec<u32>,
    /// Sites accessed in this block (their windows are reset when it ends).
    used: Vec<u32>,
}

pub struct BlockCounters {
    /// Each site's block and kind, and each block's length, issue classes and issue slots (the
    /// program's).
    site_block: Vec<u32>,
    site_kind: Vec<SiteKind>,
    blocks: Vec<BlockInfo>,
    warps: Vec<WarpWindows>,
    /// Emptied requests, to reuse their buffers.
    spare: Vec<Request>,
    /// Per block, the most entries of a lane of the warp being summed.
    warp_max: Vec<u32>,
    pub counters: Counters,
    pub footprint: Footprint,
}

impl BlockCounters {
    /// `profile`: count each block's executions too (`Counters::blocks`).
    pub fn new(p: &Program, profile: bool) -> BlockCounters {
        let counters = Counters {
            blocks: if profile {
                vec![super::BlockCount::default(); p.blocks.len()]
            } else {
                Vec::new()
            },
            ..Counters::default()
        };
        BlockCounters {
            site_block: p.sites.iter().map(|s| s.block).collect(),
            site_kind: p.sites.iter().map(|s| s.kind).collect(),
            blocks: p.blocks.clone(),
            warps: Vec::new(),
            spare: Vec::new(),
            warp_max: vec![0; p.blocks.len()],
            counters,
            footprint: Footprint::default(),
        }
    }

    /// Prepares for a block of `threads` threads (the counts of each, indexed by its linear
    /// index in the block).
    pub fn begin_block<'a>(&mut self, threads: impl Iterator<Item = &'a mut ThreadCounts>) {
        let mut n = 0usize;
        for t in threads {
            t.entries.resize(self.blocks.len(), 0);
            n += 1;
        }
        let warps = n.div_ceil(32);
        if self.warps.len() < warps {
            self.warps.resize_with(warps, WarpWindows::default);
        }
    }

    /// A lane of warp `warp` made access `a` at site `site`, its instance `k`.
    #[inline]
    pub fn access(&mut self, warp: u32, site: u32, k: u32, a: Access) {
        let w = &mut self.warps[warp as usize];
        if w.windows.len() <= site as usize {
            w.windows
                .resize_with(self.site_block.len(), Window::default);
        }
        let win = &mut w.windows[site as usize];
        if win.done == 0 && win.requests.is_empty() && !w.used.contains(&site) {
            w.used.push(site);
        }
        if k < win.done {
            // An instance finished early (MAX_PENDING): this lane makes a request of its own.
            let mut r = self.spare.pop().unwrap_or_default();
            r.add(a);
            r.finish(
                self.site_kind[site as usize],
                &mut self.counters,
                &mut self.footprint,
            );
            self.spare.push(r);
            return;
        }
        if win.requests.is_empty() {
            win.first = k;
            w.open.push(site);
        }
        while k < win.first {
            // A lane behind those that opened the window (they skipped instances, predicated off).
            win.requests
                .push_front(self.spare.pop().unwrap_or_default());
            win.first -= 1;
        }
        let i = (k - win.first) as usize;
        while win.requests.len() <= i {
            win.requests.push_back(self.spare.pop().unwrap_or_default());
        }
        win.requests[i].add(a);
        if win.requests.len() > MAX_PENDING {
            let kind = self.site_kind[site as usize];
            let mut r = win.requests.pop_front().unwrap_or_default();
            win.first += 1;
            win.done = win.first;
            r.finish(kind, &mut self.counters, &mut self.footprint);
            self.spare.push(r);
        }
    }

    /// Finishes the requests of warp `warp` no lane can join any more. `lanes` are the counts
    /// of the warp's threads that have not exited (none: finish them all).
    pub fn settle_warp<'a>(
        &mut self,
        warp: usize,
        lanes: impl Iterator<Item = &'a ThreadCounts> + Clone,
    ) {
        let Some(w) = self.warps.get_mut(warp) else {
            return;
        };
        if w.open.is_empty() {
            return;
        }
        let mut still = Vec::new();
        for &site in &w.open {
            let block = self.site_block[site as usize] as usize;
            // Instances below `done` are behind every live lane.
            let done = lanes
                .clone()
                .map(|t| t.entries.get(block).copied().unwrap_or(0))
                .min()
                .unwrap_or(u32::MAX);
            let kind = self.site_kind[site as usize];
            let win = &mut w.windows[site as usize];
            win.done = win.done.max(done);
            while win.first < done {
                let Some(mut r) = win.requests.pop_front() else {
                    break;
                };
                win.first += 1;
                if !r.is_empty() {
                    r.finish(kind, &mut self.counters, &mut self.footprint);
                }
                self.spare.push(r);
            }
            if !win.requests.is_empty() {
                still.push(site);
            }
        }
        w.open = still;
    }

    /// Ends a block: finishes every request, counts the warps' instructions and clears the
    /// threads' counts. `threads` in linear order.
    pub fn end_block<'a>(&mut self, threads: impl Iterator<Item = (&'a mut ThreadCounts, u64)>) {
        for w in 0..self.warps.len() {
            self.settle_warp(w, std::iter::empty());
            // The next block's threads count from 0 again.
            let warp = &mut self.warps[w];
            for site in warp.used.drain(..) {
                warp.windows[site as usize].done = 0;
            }
        }
        let mut union: Vec<u32> = Vec::new();
        let mut lane = 0;
        let flush = |me: &mut Self, union: &mut Vec<u32>| {
            let (mut total, mut slots) = (0u64, 0u64);
            for &b in union.iter() {
                let n = std::mem::take(&mut me.warp_max[b as usize]) as u64;
                if let Some(c) = me.counters.blocks.get_mut(b as usize) {
                    c.warp_issues += n;
                }
                let info = &me.blocks[b as usize];
                total += n * info.len as u64;
                slots += n * info.slots as u64;
                let counts = me.counters.class_instructions.iter_mut().zip(&info.classes);
                let weighted = me.counters.class_slots.iter_mut().zip(&info.class_slots);
                for (c, k) in counts.chain(weighted) {
                    *c += n * *k as u64;
                }
            }
            me.counters.warp_instructions += total;
            me.counters.issue_slots += slots;
            me.counters.longest_warp = me.counters.longest_warp.max(slots);
            union.clear();
        };
        for (t, executed) in threads {
            self.counters.thread_instructions += executed;
            for &b in &t.touched {
                let m = &mut self.warp_max[b as usize];
                if *m == 0 {
                    union.push(b);
                }
                *m = (*m).max(t.entries[b as usize]);
                if let Some(c) = self.counters.blocks.get_mut(b as usize) {
                    c.thread_entries += u64::from(t.entries[b as usize]);
                }
                t.entries[b as usize] = 0;
            }
            t.touched.clear();
            lane += 1;
            if lane == 32 {
                flush(self, &mut union);
                lane = 0;
            }
        }
        flush(self, &mut union);
    }
}

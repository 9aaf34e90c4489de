//! One thread block: runs its threads until each stops, then completes the barriers and warp
//! collectives they stopped at, until every thread has exited.
//!
//! A warp collective (`shfl.sync`, `vote.sync`, `bar.warp.sync`, …) completes when every lane
//! its member mask names has reached one with the same mask; a lane of the mask that has exited
//! is a fault, as it would hang a GPU. Lanes past the end of the block do not exist: a shuffle
//! that reads one gets the poison word, which makes code that depends on it visibly wrong.
//! `bar.sync` completes when its thread count (by default every thread of the block that has
//! not exited) has arrived.
//!
//! Threads run independently (as on Volta and later), except in programs for targets before
//! sm_70 (`Program::lockstep`): there the threads of a warp run in lockstep, as on the GPUs
//! that PTX was written for — each instruction executed by every lane at the same place before
//! any goes on. Lanes that diverge run the group furthest behind first, so they meet again
//! where their paths join. GCC's offloaded code needs this: its warps execute non-SIMD code
//! redundantly in all lanes (`-muniform-simt`), with plain loads and stores of shared state that
//! are only consistent if the lanes read before any of them writes.

use super::memory::POISON_WORD;
use super::shared::SharedMemory;
use super::thread::{BlockEnv, Fault, FaultKind, Stop, Thread};
use crate::program::*;
use crate::stats::warp::BlockCounters;
use std::sync::atomic::{AtomicBool, Ordering};

/// Instructions a thread runs before the others get a turn (a spin loop waiting for another
/// thread of its block must let that thread run).
const BUDGET: u64 = 1 << 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Ready,
    Barrier,
    Warp,
    Exited,
}

/// Runs the block's threads to completion; with `counters`, counts what they do (the caller
/// begins and ends the block there). The threads are scheduled the same way either way.
pub fn run(
    env: &BlockEnv,
    threads: &mut [Thread],
    shared: &mut SharedMemory,
    abort: &AtomicBool,
    mut counters: Option<&mut BlockCounters>,
) -> Result<(), Fault> {
    let n = threads.len();
    let mut state = vec![State::Ready; n];
    let mut arrivals = [0u32; 16];
    // Threads stopped at a barrier, and warps with a thread stopped at a collective, this round.
    let mut at_barrier = false;
    let mut warps_waiting: Vec<usize> = Vec::new();
    let lockstep = env.lockstep;
    loop {
        let mut yielded = false;
        let mut settle = |i: usize, stop: Stop, state: &mut [State]| -> Result<(), Fault> {
            state[i] = match stop {
                Stop::Exited => State::Exited,
                Stop::Barrier => {
                    at_barrier = true;
                    State::Barrier
                }
                Stop::Warp => {
                    if warps_waiting.last() != Some(&(i / 32)) {
                        warps_waiting.push(i / 32);
                    }
                    State::Warp
                }
                Stop::Yield => {
                    yielded = true;
                    State::Ready
                }
                Stop::Fault(f) => return Err(f),
            };
            Ok(())
        };
        for base in (0..n).step_by(32) {
            let end = (base + 32).min(n);
            if !state[base..end].contains(&State::Ready) {
                continue;
            }
            if lockstep {
                lockstep_warp(
                    env,
                    threads,
                    &mut state,
                    shared,
                    base..end,
                    &mut settle,
                    counters.as_deref_mut(),
                )?;
            } else {
                for i in base..end {
                    if state[i] != State::Ready {
                        continue;
                    }
                    let stop = threads[i].run(env, shared, BUDGET, counters.as_deref_mut());
                    settle(i, stop, &mut state)?;
                }
            }
            if let Some(c) = counters.as_deref_mut() {
                // The warp's lanes ran: finish the requests they can no longer join.
                let live = threads[base..end]
                    .iter()
                    .zip(&state[base..end])
                    .filter(|(_, s)| **s != State::Exited)
                    .map(|(t, _)| &t.counts);
                c.settle_warp(base / 32, live);
            }
        }
        if abort.load(Ordering::Relaxed) {
            return Ok(());
        }
        let mut progress = yielded;
        if !warps_waiting.is_empty() {
            warps_waiting.sort_unstable();
            warps_waiting.dedup();
            let mut still = Vec::new();
            for &w in &warps_waiting {
                let (p, waiting) = warp(env, threads, &mut state, shared, w * 32)?;
                progress |= p;
                if waiting {
                    still.push(w);
                }
            }
            warps_waiting = still;
        }
        if at_barrier {
            let (p, waiting) = barriers(env, threads, &mut state, &mut arrivals, shared);
            progress |= p;
            at_barrier = waiting;
        }
        if !progress {
            if state.iter().all(|s| *s == State::Exited) {
                return Ok(());
            }
            if !state.contains(&State::Ready) {
                return Err(deadlock(env, threads, &state));
            }
        }
    }
}

/// Runs the ready lanes of a warp in lockstep (see the top of this file) until none is ready or
/// the warp has run its budget; each lane that stops is `settle`d. The lanes at the position
/// furthest behind (the group) run one chunk each (`Thread::run_chunk`), then the group is
/// chosen again if its lanes went different ways or other lanes wait elsewhere.
fn lockstep_warp(
    env: &BlockEnv,
    threads: &mut [Thread],
    state: &mut [State],
    shared: &mut SharedMemory,
    lanes: std::ops::Range<usize>,
    settle: &mut impl FnMut(usize, Stop, &mut [State]) -> Result<(), Fault>,
    mut counters: Option<&mut BlockCounters>,
) -> Result<(), Fault> {
    let mut group: Vec<usize> = Vec::with_capacity(32);
    // Whether ready lanes outside the group exist (the group must then be chosen again after
    // each chunk, in case it reached them or went past them).
    let mut diverged = false;
    let mut chunks = 0u64;
    loop {
        if group.is_empty() {
            let mut first: Option<usize> = None;
            for i in lanes.clone().filter(|&i| state[i] == State::Ready) {
                if first.is_none_or(|f| threads[i].position_cmp(&threads[f]).is_lt()) {
                    first = Some(i);
                }
            }
            let Some(f) = first else {
                return Ok(());
            };
            diverged = false;
            for i in lanes.clone().filter(|&i| state[i] == State::Ready) {
                if threads[i].same_position(&threads[f]) {
                    group.push(i);
                } else {
                    diverged = true;
                }
            }
        }
        let mut stopped = false;
        shared.next_warp_instruction();
        for &i in &group {
            match threads[i].run_chunk(env, shared, counters.as_deref_mut()) {
                Stop::Yield => {}
                stop => {
                    settle(i, stop, state)?;
                    stopped = true;
                }
            }
        }
        if stopped {
            group.retain(|&i| state[i] == State::Ready);
        }
        // A chunk starts at a branch or call at most: lanes that went different ways differ
        // in function, pc or call depth.
        if diverged
            || group.iter().any(|&i| {
                let (t, g) = (&threads[i], &threads[group[0]]);
                t.pc != g.pc || t.func != g.func || t.depth() != g.depth()
            })
        {
            group.clear();
        }
        chunks += 1;
        if chunks >= BUDGET {
            // Let the other warps run (this one may wait for them); it goes on next round.
            if let Some(i) = lanes.clone().find(|&i| state[i] == State::Ready) {
                settle(i, Stop::Yield, state)?;
            }
            return Ok(());
        }
    }
}

fn inst<'a>(env: &'a BlockEnv, t: &Thread) -> &'a Inst {
    &env.program.functions[t.func].code[t.pc]
}

fn deadlock(env: &BlockEnv, threads: &[Thread], state: &[State]) -> Fault {
    let mut places: Vec<(u32, String, usize)> = Vec::new();
    for (t, s) in threads.iter().zip(state) {
        if matches!(s, State::Barrier | State::Warp) {
            let line = inst(env, t).line;
            match places.iter_mut().find(|(l, _, _)| *l == line) {
                Some(p) => p.2 += 1,
                None => places.push((line, env.program.functions[t.func].name.clone(), 1)),
            }
        }
    }
    let exited = state.iter().filter(|s| **s == State::Exited).count();
    let waits: Vec<String> = places
        .iter()
        .map(|(l, f, c)| format!("{c} at line {l} ({f})"))
        .collect();
    Fault {
        kind: FaultKind::Deadlock,
        message: format!(
            "the block's threads wait for each other forever: {}; {exited} exited",
            waits.join(", ")
        ),
        function: places.first().map(|p| p.1.clone()).unwrap_or_default(),
        line: places.first().map(|p| p.0).unwrap_or(0),
        thread: None,
    }
}

/// The member mask of the collective thread `t` waits at.
fn member_mask(env: &BlockEnv, t: &Thread) -> u32 {
    let m = match &inst(env, t).op {
        Op::BarWarp { mask }
        | Op::Shfl { mask, .. }
        | Op::Vote { mask, .. }
        | Op::Redux { mask, .. } => *mask,
        Op::MatchAny { mask, .. } | Op::MatchAll { mask, .. } => *mask,
        _ => return 0,
    };
    t.get(m) as u32
}

fn same_kind(a: &Op, b: &Op) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
        && match (a, b) {
            (Op::Shfl { mode: x, .. }, Op::Shfl { mode: y, .. }) => x == y,
            (Op::Vote { mode: x, .. }, Op::Vote { mode: y, .. }) => x == y,
            (Op::Redux { op: x, .. }, Op::Redux { op: y, .. }) => x == y,
            _ => true,
        }
}

/// Completes the collectives of the warp starting at thread `base` whose members have all
/// arrived. Returns whether any did, and whether threads of the warp still wait at one.
fn warp(
    env: &BlockEnv,
    threads: &mut [Thread],
    state: &mut [State],
    shared: &mut SharedMemory,
    base: usize,
) -> Result<(bool, bool), Fault> {
    let end = (base + 32).min(threads.len());
    let present: u32 = if end - base == 32 {
        u32::MAX
    } else {
        (1u32 << (end - base)) - 1
    };
    let mut progress = false;
    let mut done: u32 = 0;
    for l in 0..end - base {
        let i = base + l;
        if state[i] != State::Warp || done & (1 << l) != 0 {
            continue;
        }
        let mask = member_mask(env, &threads[i]) & present;
        if mask & (1 << l) == 0 {
            return Err(fault_at(env, &threads[i], format!("lane {l} executes a warp collective whose member mask {mask:#x} does not name it")));
        }
        let op = &inst(env, &threads[i]).op;
        let mut ready = true;
        for k in 0..end - base {
            if mask & (1 << k) == 0 {
                continue;
            }
            let j = base + k;
            match state[j] {
                State::Exited => {
                    return Err(fault_at(env, &threads[i], format!("lane {k}, named in the member mask {mask:#x}, has exited: the warp collective can never complete")));
                }
                State::Warp
                    if same_kind(op, &inst(env, &threads[j]).op)
                        && member_mask(env, &threads[j]) & present == mask => {}
                _ => ready = false,
            }
        }
        if !ready {
            continue;
        }
        if matches!(op, Op::BarWarp { .. }) {
            shared.warp_barrier(base / 32);
        }
        collective(env, threads, base, mask);
        for k in 0..end - base {
            if mask & (1 << k) != 0 {
                state[base + k] = State::Ready;
                threads[base + k].pc += 1;
            }
        }
        done |= mask;
        progress = true;
    }
    let waiting = state[base..end].contains(&State::Warp);
    Ok((progress, waiting))
}

fn fault_at(env: &BlockEnv, t: &Thread, message: String) -> Fault {
    Fault {
        kind: FaultKind::Deadlock,
        message,
        function: env.program.functions[t.func].name.clone(),
        line: inst(env, t).line,
        thread: Some(t.tid),
    }
}

/// Performs the collective of the lanes in `mask` of the warp starting at thread `base`.
fn collective(env: &BlockEnv, threads: &mut [Thread], base: usize, mask: u32) {
    let lanes: Vec<usize> = (0..32).filter(|k| mask & (1 << k) != 0).collect();
    match &inst(env, &threads[base + lanes[0]]).op {
        Op::BarWarp { .. } => {}
        Op::Shfl { mode, .. } => {
            let mut value = [POISON_WORD as u64; 32];
            for &k in &lanes {
                if let Op::Shfl { a, .. } = &inst(env, &threads[base + k]).op {
                    value[k] = threads[base + k].get(*a) as u32 as u64;
                }
            }
            for &k in &lanes {
                let t = &threads[base + k];
                let Op::Shfl { d, dp, b, c, .. } = inst(env, t).op else {
                    continue;
                };
                let (bv, cv) = (t.get(b) as u32, t.get(c) as u32);
                let lane = k as i32;
                let clamp = (cv & 0x1f) as i32;
                let seg = ((cv >> 8) & 0x1f) as i32;
                let max_lane = (lane & seg) | (clamp & !seg);
                let min_lane = lane & seg;
                let b = (bv & 0x1f) as i32;
                let (j, p) = match mode {
                    ShflMode::Up => (lane - b, lane - b >= max_lane),
                    ShflMode::Down => (lane + b, lane + b <= max_lane),
                    ShflMode::Bfly => (lane ^ b, (lane ^ b) <= max_lane),
                    ShflMode::Idx => {
                        let j = min_lane | (b & !seg);
                        (j, j <= max_lane)
                    }
                };
                let src = if p { j } else { lane };
                let v = if (0..32).contains(&src) && mask & (1 << src) != 0 {
                    value[src as usize]
                } else {
                    POISON_WORD as u64
                };
                let t = &mut threads[base + k];
                t.set(d, v);
                if let Some(dp) = dp {
                    t.set(dp, p as u64);
                }
            }
        }
        Op::Vote { mode, .. } => {
            let mut ballot = 0u32;
            for &k in &lanes {
                let t = &threads[base + k];
                if let Op::Vote { a, negate, .. } = &inst(env, t).op {
                    if (t.get(*a) != 0) != *negate {
                        ballot |= 1 << k;
                    }
                }
            }
            let v = match mode {
                VoteMode::All => (ballot == mask) as u64,
                VoteMode::Any => (ballot != 0) as u64,
                VoteMode::Uni => (ballot == 0 || ballot == mask) as u64,
                VoteMode::Ballot => ballot as u64,
            };
            for &k in &lanes {
                if let Op::Vote { d, .. } = inst(env, &threads[base + k]).op {
                    threads[base + k].set(d, v);
                }
            }
        }
        Op::Redux { op, ty, .. } => {
            let mut acc: Option<u64> = None;
            for &k in &lanes {
                let t = &threads[base + k];
                if let Op::Redux { a, .. } = &inst(env, t).op {
                    let v = t.get(*a);
                    acc = Some(match acc {
                        None => ty.extend(v),
                        Some(x) => super::ops::int(*op, *ty, x, v),
                    });
                }
            }
            for &k in &lanes {
                if let Op::Redux { d, .. } = inst(env, &threads[base + k]).op {
                    threads[base + k].set(d, acc.unwrap_or(0));
                }
            }
        }
        Op::MatchAny { ty, .. } | Op::MatchAll { ty, .. } => {
            let m = if ty.bits() == 64 {
                u64::MAX
            } else {
                0xffff_ffff
            };
            let values: Vec<(usize, u64)> = lanes
                .iter()
                .map(|&k| {
                    let t = &threads[base + k];
                    let v = match &inst(env, t).op {
                        Op::MatchAny { a, .. } | Op::MatchAll { a, .. } => t.get(*a),
                        _ => 0,
                    };
                    (k, v & m)
                })
                .collect();
            let all_equal = values.iter().all(|(_, v)| *v == values[0].1);
            for &(k, v) in &values {
                let same: u32 = values
                    .iter()
                    .filter(|(_, w)| *w == v)
                    .map(|(j, _)| 1u32 << j)
                    .sum();
                match inst(env, &threads[base + k]).op {
                    Op::MatchAny { d, .. } => threads[base + k].set(d, same as u64),
                    Op::MatchAll { d, dp, .. } => {
                        threads[base + k].set(d, if all_equal { mask as u64 } else { 0 });
                        if let Some(dp) = dp {
                            threads[base + k].set(dp, all_equal as u64);
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

/// Completes the barriers every expected thread has reached. Returns whether any did, and
/// whether threads still wait at one.
fn barriers(
    env: &BlockEnv,
    threads: &mut [Thread],
    state: &mut [State],
    arrivals: &mut [u32; 16],
    shared: &mut SharedMemory,
) -> (bool, bool) {
    let mut progress = false;
    let mut waiting_at = [0u32; 16];
    let mut live = 0u32;
    for (i, t) in threads.iter_mut().enumerate() {
        match state[i] {
            State::Exited => continue,
            State::Barrier => {}
            _ => {
                live += 1;
                continue;
            }
        }
        live += 1;
        if let Op::Bar(b) = &inst(env, t).op {
            let id = (t.get(b.id) & 15) as usize;
            if b.kind == BarKind::Arrive {
                // bar.arrive: counted, and the thread goes on.
                arrivals[id] += 1;
                t.pc += 1;
                state[i] = State::Ready;
                progress = true;
            } else {
                waiting_at[id] += 1;
            }
        }
    }
    let mut still_waiting = false;
    for id in 0..16usize {
        if waiting_at[id] == 0 {
            continue;
        }
        let waiting: Vec<usize> = (0..threads.len())
            .filter(|&i| state[i] == State::Barrier && matches!(&inst(env, &threads[i]).op, Op::Bar(b) if (threads[i].get(b.id) & 15) as usize == id))
            .collect();
        let first = waiting[0];
        let expected = match &inst(env, &threads[first]).op {
            Op::Bar(b) => b
                .count
                .map(|c| threads[first].get(c) as u32)
                .unwrap_or(live),
            _ => live,
        };
        if waiting_at[id] + arrivals[id] < expected {
            still_waiting = true;
            continue;
        }
        // bar.red: the reduction of the waiting threads' predicates.
        let (mut popc, mut all, mut any) = (0u64, true, false);
        for &i in &waiting {
            if let Op::Bar(b) = &inst(env, &threads[i]).op {
                if let Some((_, p, neg)) = b.red {
                    let v = (threads[i].get(p) != 0) != neg;
                    popc += v as u64;
                    all &= v;
                    any |= v;
                }
            }
        }
        for &i in &waiting {
            if let Op::Bar(b) = &inst(env, &threads[i]).op {
                if let Some((d, _, _)) = b.red {
                    let v = match b.kind {
                        BarKind::RedPopc => popc,
                        BarKind::RedAnd => all as u64,
                        _ => any as u64,
                    };
                    threads[i].set(d, v);
                }
            }
            threads[i].pc += 1;
            state[i] = State::Ready;
        }
        arrivals[id] = 0;
        shared.barrier();
        progress = true;
    }
    (progress, still_waiting)
}

//! A block's shared memory, and (with `PTXSIM_RACECHECK=1`) a race detector for it.
//!
//! The detector keeps, for every byte, the last thread that wrote it and the last that read it,
//! with the *epoch* of each access: how many barriers the block had completed, and how many
//! `bar.warp.sync`s the accessing thread's warp had. Two accesses of different threads, at
//! least one a write, race unless a barrier of the block — or, for two threads of one warp, a
//! `bar.warp.sync` of that warp — completed between them. That is the CUDA memory model's rule
//! for shared memory (a shuffle or vote does not order memory). In a program whose warps run in
//! lockstep (targets before sm_70, see `block.rs`), the lanes of a warp are ordered by that:
//! accesses of two threads of one warp never race there. Atomics are not checked, and only
//! the last reader of a byte is remembered, so some races go unseen; none is reported falsely.

use super::memory::poison;

#[derive(Clone, Copy, Default)]
struct Access {
    /// Linear thread index + 1 (0: no access yet).
    thread: u32,
    epoch: u32,
    warp_epoch: u32,
    line: u32,
}

#[derive(Clone, Copy, Default)]
struct Shadow {
    write: Access,
    read: Access,
}

struct RaceCheck {
    shadow: Vec<Shadow>,
    epoch: u32,
    warp_epochs: Vec<u32>,
    /// Warps run in lockstep: their lanes' accesses are ordered.
    lockstep: bool,
}

/// Two conflicting accesses with no barrier between them.
#[derive(Debug)]
pub struct Race {
    pub offset: usize,
    /// The earlier access: thread (linear index), whether it wrote, PTX line.
    pub first: (u32, bool, u32),
    /// The later one.
    pub second: (u32, bool, u32),
}

pub struct SharedMemory {
    pub bytes: Vec<u8>,
    race: Option<RaceCheck>,
    /// The global loads of the lockstep warp instruction being executed: (address, bytes,
    /// value), so that its lanes loading one address get one value (`warp_load`).
    warp_loads: Vec<(u64, u32, u64)>,
}

impl SharedMemory {
    /// `len` bytes; `racecheck`: check for races (of threads of different warps only, when
    /// `lockstep`).
    pub fn new(len: usize, racecheck: bool, lockstep: bool) -> SharedMemory {
        SharedMemory {
            bytes: vec![0; len],
            race: racecheck.then(|| RaceCheck {
                shadow: vec![Shadow::default(); len],
                epoch: 0,
                warp_epochs: Vec::new(),
                lockstep,
            }),
            warp_loads: Vec::new(),
        }
    }

    /// A lockstep warp starts executing its next instruction (see `warp_load`).
    pub fn next_warp_instruction(&mut self) {
        self.warp_loads.clear();
    }

    /// The value of a global load of `bytes` at `addr` by a lane of a lockstep warp: what
    /// another lane of the warp got from that address in this instruction, else `read()`.
    pub fn warp_load(&mut self, addr: u64, bytes: u32, read: impl FnOnce() -> u64) -> u64 {
        if let Some((_, _, v)) = self
            .warp_loads
            .iter()
            .find(|(a, b, _)| *a == addr && *b == bytes)
        {
            return *v;
        }
        let v = read();
        self.warp_loads.push((addr, bytes, v));
        v
    }

    /// Makes it fresh for a block of `warps` warps: poisoned, no accesses recorded.
    pub fn reset(&mut self, warps: usize) {
        // SAFETY: `bytes` holds bytes.len() bytes.
        unsafe { poison(self.bytes.as_mut_ptr(), self.bytes.len()) };
        if let Some(r) = &mut self.race {
            r.shadow.fill(Shadow::default());
            r.epoch = 0;
            r.warp_epochs.clear();
            r.warp_epochs.resize(warps, 0);
        }
    }

    pub fn checking(&self) -> bool {
        self.race.is_some()
    }

    /// A barrier of the block completed: accesses before it are ordered before those after.
    pub fn barrier(&mut self) {
        if let Some(r) = &mut self.race {
            r.epoch += 1;
        }
    }

    /// A `bar.warp.sync` of warp `w` completed.
    pub fn warp_barrier(&mut self, w: usize) {
        if let Some(r) = &mut self.race {
            if let Some(e) = r.warp_epochs.get_mut(w) {
                *e += 1;
            }
        }
    }

    /// Records an access of `len` bytes at `offset` by thread `linear` at PTX `line`, or the
    /// race it makes with an earlier one.
    pub fn access(
        &mut self,
        offset: usize,
        len: usize,
        linear: u32,
        write: bool,
        line: u32,
    ) -> Result<(), Race> {
        let Some(r) = &mut self.race else {
            return Ok(());
        };
        let warp = (linear / 32) as usize;
        let warp_epoch = r.warp_epochs.get(warp).copied().unwrap_or(0);
        let now = Access {
            thread: linear + 1,
            epoch: r.epoch,
            warp_epoch,
            line,
        };
        let (epoch, lockstep) = (r.epoch, r.lockstep);
        let ordered = |a: &Access| {
            let same_warp = a.thread > 0 && (a.thread - 1) as usize / 32 == warp;
            a.thread == 0
                || a.thread == now.thread
                || a.epoch < epoch
                || (same_warp && (lockstep || a.warp_epoch < warp_epoch))
        };
        for (k, s) in r.shadow[offset..offset + len].iter_mut().enumerate() {
            let race = |a: &Access, first_wrote: bool| Race {
                offset: offset + k,
                first: (a.thread - 1, first_wrote, a.line),
                second: (linear, write, line),
            };
            if !ordered(&s.write) {
                return Err(race(&s.write, true));
            }
            if write {
                if !ordered(&s.read) {
                    return Err(race(&s.read, false));
                }
                s.write = now;
                s.read = Access::default();
            } else {
                s.read = now;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conflicting_accesses_need_a_barrier_between_them() {
        let mut m = SharedMemory::new(64, true, false);
        m.reset(2);
        m.access(0, 4, 0, true, 10).unwrap();
        // Another thread reads it with no barrier: a race, reported with both lines.
        let r = m.access(0, 4, 5, false, 20).unwrap_err();
        assert_eq!((r.first, r.second), ((0, true, 10), (5, false, 20)));
        m.barrier();
        m.access(0, 4, 5, false, 20).unwrap();
        // The same thread again is never a race; a write after another's read is.
        m.access(0, 4, 5, true, 21).unwrap();
        assert!(m.access(0, 4, 6, true, 22).is_err());
    }

    #[test]
    fn a_warp_barrier_orders_its_own_warp_only() {
        let mut m = SharedMemory::new(64, true, false);
        m.reset(2);
        m.access(8, 8, 1, true, 1).unwrap();
        m.warp_barrier(0);
        m.access(8, 8, 2, false, 2).unwrap();
        m.access(16, 4, 1, true, 3).unwrap();
        m.warp_barrier(0);
        // Thread 40 is in warp 1: warp 0's barrier does not order it after thread 1.
        assert!(m.access(16, 4, 40, false, 4).is_err());
        // Different bytes never race.
        m.access(20, 4, 40, true, 5).unwrap();
    }

    #[test]
    fn lanes_of_a_lockstep_warp_do_not_race() {
        let mut m = SharedMemory::new(64, true, true);
        m.reset(2);
        m.access(0, 8, 1, true, 1).unwrap();
        m.access(0, 8, 2, true, 1).unwrap();
        m.access(0, 8, 3, false, 2).unwrap();
        // Another warp still needs a barrier.
        assert!(m.access(0, 8, 40, false, 3).is_err());
    }
}

//! One warp-level memory instruction: the accesses of its lanes, and what they cost — the
//! 32-byte sectors of global memory it touches (as Nsight Compute counts them: a unit-stride
//! `f64` load of 32 lanes touches 8, a stride of 16 `f64`s 32, all lanes at one address 1),
//! and the passes shared memory's 32 banks of 4 bytes need for it.
//!
//! ```text
//! lanes 0..31 ld.global.f64 [base + 8*lane]   → sectors base/32 … base/32+7: 1 request, 8 sectors
//! lanes 0..31 ld.shared.f32 [4*lane*32]       → every lane in bank 0: 32 wavefronts, 31 conflicts
//! ```

use super::footprint::Footprint;
use super::Counters;
use crate::program::SiteKind;

/// Shared-memory words are kept with this bit set, to tell them from global sectors.
const SHARED_TAG: u64 = 1 << 62;

/// One lane's access: `len` bytes of global memory at a (host) address, of shared memory at an
/// offset, or of its local memory.
#[derive(Clone, Copy, Debug)]
pub enum Access {
    Global(u64, u32),
    Shared(u64, u32),
    Local(u32),
}

/// The accesses of the lanes of one warp-level instruction, as they arrive.
#[derive(Debug, Default)]
pub struct Request {
    /// Global sectors (address / 32) and shared words (offset / 4 | SHARED_TAG), one per unit
    /// each lane touched (duplicates kept until `finish`).
    units: Vec<u64>,
    /// Bytes of local memory the lanes accessed.
    local_bytes: u64,
}

impl Request {
    pub fn is_empty(&self) -> bool {
        self.units.is_empty() && self.local_bytes == 0
    }

    #[inline]
    pub fn add(&mut self, a: Access) {
        match a {
            Access::Global(addr, len) => self.global(addr, len),
            Access::Shared(at, len) => self.shared(at, len),
            Access::Local(len) => self.local(len),
        }
    }

    /// A lane's access of `len` bytes of global memory at `addr`.
    #[inline]
    pub fn global(&mut self, addr: u64, len: u32) {
        let (first, last) = (addr >> 5, (addr + len.max(1) as u64 - 1) >> 5);
        for s in first..=last {
            self.units.push(s);
        }
    }

    /// A lane's access of `len` bytes of shared memory at offset `at`.
    #[inline]
    pub fn shared(&mut self, at: u64, len: u32) {
        let (first, last) = (at >> 2, (at + len.max(1) as u64 - 1) >> 2);
        for w in first..=last {
            self.units.push(w | SHARED_TAG);
        }
    }

    /// A lane's access of `len` bytes of its local memory. A GPU interleaves local memory so
    /// that lanes accessing the same frame offset are adjacent: a warp's access is as
    /// coalesced as a unit-stride one.
    #[inline]
    pub fn local(&mut self, len: u32) {
        self.local_bytes += len as u64;
    }

    /// Counts the finished request into `c` (and its global sectors into `footprint`), and
    /// empties it for reuse.
    pub fn finish(&mut self, kind: SiteKind, c: &mut Counters, footprint: &mut Footprint) {
        if self.local_bytes > 0 {
            c.local_requests += 1;
            c.local_sectors += self.local_bytes.div_ceil(32);
            self.local_bytes = 0;
        }
        if self.units.is_empty() {
            return;
        }
        self.units.sort_unstable();
        self.units.dedup();
        let split = self.units.partition_point(|u| u & SHARED_TAG == 0);
        let (sectors, words) = self.units.split_at(split);
        if !sectors.is_empty() {
            let n = sectors.len() as u64;
            match kind {
                SiteKind::Load => {
                    c.global_load_requests += 1;
                    c.global_load_sectors += n;
                }
                SiteKind::Store => {
                    c.global_store_requests += 1;
                    c.global_store_sectors += n;
                }
                SiteKind::Atomic => {
                    c.atomic_requests += 1;
                    c.atomic_sectors += n;
                }
            }
            footprint.touch(sectors, kind);
        }
        if !words.is_empty() {
            let wavefronts = wavefronts(words);
            // The passes a conflict-free request of that many words needs (a 64-bit access of
            // 32 lanes needs two: that is no conflict).
            let ideal = (words.len() as u64).div_ceil(32);
            c.shared_requests += 1;
            c.shared_wavefronts += wavefronts;
            c.shared_bank_conflicts += wavefronts.saturating_sub(ideal);
        }
        self.units.clear();
    }
}

/// Passes the banks need for these distinct words: the most distinct words in one bank
/// (lanes reading the same word share it, a broadcast).
fn wavefronts(words: &[u64]) -> u64 {
    let mut per_bank = [0u32; 32];
    for w in words {
        per_bank[(w & 31) as usize] += 1;
    }
    per_bank.iter().copied().max().unwrap_or(0).max(1) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(addrs: impl Iterator<Item = u64>, len: u32) -> Counters {
        let mut r = Request::default();
        for a in addrs {
            r.global(a, len);
        }
        let mut c = Counters::default();
        r.finish(SiteKind::Load, &mut c, &mut Footprint::default());
        c
    }

    #[test]
    fn unit_stride_double_is_8_sectors() {
        let c = load((0..32).map(|l| 0x1000 + 8 * l), 8);
        assert_eq!((c.global_load_requests, c.global_load_sectors), (1, 8));
    }

    #[test]
    fn stride_16_doubles_is_32_sectors() {
        let c = load((0..32).map(|l| 0x1000 + 16 * 8 * l), 8);
        assert_eq!(c.global_load_sectors, 32);
    }

    #[test]
    fn one_address_is_1_sector() {
        let c = load((0..32).map(|_| 0x1008), 8);
        assert_eq!(c.global_load_sectors, 1);
    }

    #[test]
    fn misaligned_start_touches_one_more_sector() {
        let c = load((0..32).map(|l| 0x1010 + 4 * l), 4);
        assert_eq!(c.global_load_sectors, 5);
    }

    #[test]
    fn shared_banks() {
        let shared = |stride: u64, len: u32| {
            let mut r = Request::default();
            for l in 0..32 {
                r.shared(stride * l, len);
            }
            let mut c = Counters::default();
            r.finish(SiteKind::Load, &mut c, &mut Footprint::default());
            c
        };
        // Unit stride f32: one pass. Unit stride f64: two passes, no conflict.
        assert_eq!(shared(4, 4).shared_bank_conflicts, 0);
        assert_eq!(shared(8, 8).shared_wavefronts, 2);
        assert_eq!(shared(8, 8).shared_bank_conflicts, 0);
        // Stride 2 f32: two lanes per bank. Stride 32 f32: all in bank 0.
        assert_eq!(shared(8, 4).shared_bank_conflicts, 1);
        assert_eq!(shared(128, 4).shared_bank_conflicts, 31);
        // One word for all: a broadcast.
        assert_eq!(shared(0, 4).shared_bank_conflicts, 0);
    }
}

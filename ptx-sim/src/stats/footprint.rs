//! The global-memory sectors a launch touches: which distinct 32-byte sectors it loads and
//! which it stores (atomics do both), and how many sector accesses it made in all. The device
//! model turns this into DRAM traffic (`model.rs`). Each host thread running blocks keeps its
//! own sets; `merge` joins them when the launch ends.

use crate::program::SiteKind;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for sector numbers (consecutive integers): one multiplication.
#[derive(Default)]
pub struct SectorHasher(u64);

impl Hasher for SectorHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ *b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (v ^ (v >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type SectorSet = HashSet<u64, BuildHasherDefault<SectorHasher>>;

#[derive(Debug, Default)]
pub struct Footprint {
    loaded: SectorSet,
    stored: SectorSet,
    /// Sector accesses of all requests (a sector counted once per request touching it).
    accesses: u64,
}

/// What the model needs of a launch's footprint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FootprintSummary {
    /// Distinct sectors loaded, stored, and touched either way.
    pub loaded: u64,
    pub stored: u64,
    pub touched: u64,
    pub accesses: u64,
}

impl Footprint {
    pub fn touch(&mut self, sectors: &[u64], kind: SiteKind) {
        self.accesses += sectors.len() as u64;
        if kind != SiteKind::Store {
            self.loaded.extend(sectors.iter().copied());
        }
        if kind != SiteKind::Load {
            self.stored.extend(sectors.iter().copied());
        }
    }

    /// Joins another host thread's footprint into this one.
    pub fn merge(&mut self, o: Footprint) {
        self.accesses += o.accesses;
        self.loaded.extend(o.loaded);
        self.stored.extend(o.stored);
    }

    pub fn summary(&self) -> FootprintSummary {
        let both = self
            .stored
            .iter()
            .filter(|s| self.loaded.contains(s))
            .count() as u64;
        let (loaded, stored) = (self.loaded.len() as u64, self.stored.len() as u64);
        FootprintSummary {
            loaded,
            stored,
            touched: loaded + stored - both,
            accesses: self.accesses,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_sectors_across_threads() {
        let mut a = Footprint::default();
        a.touch(&[1, 2, 3], SiteKind::Load);
        a.touch(&[3], SiteKind::Store);
        let mut b = Footprint::default();
        b.touch(&[3, 4], SiteKind::Load);
        b.touch(&[9], SiteKind::Atomic);
        a.merge(b);
        let s = a.summary();
        assert_eq!((s.loaded, s.stored, s.touched, s.accesses), (5, 2, 5, 7));
    }
}

//! The present table: which host address ranges have a corresponding device copy, where it is,
//! and how many references keep it alive (OpenMP 5.2 §5.8.3, libomptarget's HostDataToTargetMap).
//!
//! This module is pure bookkeeping (no device calls) so it can be tested on its own; the map
//! semantics that use it (copies, attachment, errors) are in `mapping.rs`.

use crate::source_info::VarName;
use std::collections::BTreeMap;

/// An address in device memory.
pub type DevAddr = u64;

/// A reference count: finite, or infinite for storage that lives as long as the program
/// (`declare target` globals, `omp_target_associate_ptr`, `acc_map_data`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefCount {
    Finite(u64),
    Infinite,
}

impl RefCount {
    pub fn is_zero(self) -> bool {
        self == RefCount::Finite(0)
    }
    fn inc(&mut self) {
        if let RefCount::Finite(n) = self {
            *n = n.saturating_add(1);
        }
    }
    fn dec(&mut self) {
        if let RefCount::Finite(n) = self {
            *n = n.saturating_sub(1);
        }
    }
}

/// Who owns the device storage of an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// The runtime allocated it (at `alloc_base`) and frees it when the entry goes away.
    Owned { alloc_base: DevAddr },
    /// The program or the image owns it (globals, associated pointers): never freed here.
    Borrowed,
}

/// A pointer inside a mapped range whose device copy was made to point at device memory
/// (PTR_AND_OBJ attachment). Copies of the enclosing range must preserve both values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShadowPointer {
    /// Address of the pointer in host memory.
    pub host_slot: usize,
    /// The host pointer value (restored after device→host copies).
    pub host_value: usize,
    /// Address of the pointer's device copy.
    pub device_slot: DevAddr,
    /// The device pointer value (restored after host→device copies).
    pub device_value: DevAddr,
}

/// One mapped host range `[host_begin, host_end)` (never empty).
#[derive(Clone, Debug)]
pub struct Entry {
    /// The base address given with the mapping (e.g. the pointer `p` for `p[10:20]`).
    pub host_base: usize,
    pub host_begin: usize,
    pub host_end: usize,
    /// Device address corresponding to `host_begin`.
    pub device_begin: DevAddr,
    pub storage: Storage,
    /// Dynamic reference count (enter/exit data, target data, target).
    pub dynamic_refs: RefCount,
    /// `ompx_hold` / OpenACC structured reference count.
    pub hold_refs: u64,
    pub name: VarName,
    pub shadows: Vec<ShadowPointer>,
    /// Kernels running now (between their map begin and end) that use this entry: the end of a
    /// data region waits for them before it releases the entry (see `DeviceState::wait_unused`).
    pub users: u32,
    /// Device queues (OpenACC async queues) with work on this entry that may not have completed:
    /// the end of a data region waits for them.
    pub queues: Vec<u64>,
    /// The program was given the device address of this copy (`omp_get_mapped_ptr`,
    /// `acc_deviceptr`, the result of `acc_copyin` / `acc_create`, `use_device_ptr` /
    /// `use_device_addr`, `host_data use_device`; `Mapper::expose`): the copy must stay where
    /// it is for as long as it lives (a layout conversion converts it in place, never moves it).
    pub exposed: bool,
    /// The map that made the copy asked for the bytes back at its end (FROM: `tofrom`,
    /// `copy`, `copyout`): a data region's end copies what it mapped this way out. What the
    /// layout tuning reads to know whether converting back costs anything when only the
    /// region holds the copy (`layout::way_back_free`).
    pub copies_out: bool,
}

impl Entry {
    /// A test's entry: `[host, host + bytes)` at device address `dev`, one dynamic reference,
    /// storage the program owns.
    #[cfg(test)]
    pub(crate) fn for_test(host: usize, bytes: usize, dev: DevAddr) -> Entry {
        Entry {
            host_base: host,
            host_begin: host,
            host_end: host + bytes,
            device_begin: dev,
            storage: Storage::Borrowed,
            dynamic_refs: RefCount::Finite(1),
            hold_refs: 0,
            name: VarName::default(),
            shadows: Vec::new(),
            users: 0,
            queues: Vec::new(),
            exposed: false,
            copies_out: false,
        }
    }

    pub fn bytes(&self) -> u64 {
        (self.host_end - self.host_begin) as u64
    }
    pub fn total_refs_is_zero(&self) -> bool {
        self.dynamic_refs.is_zero() && self.hold_refs == 0
    }
    /// Total reference count is exactly one (an entry just created by this construct).
    pub fn total_refs_is_one(&self) -> bool {
        matches!(
            (self.dynamic_refs, self.hold_refs),
            (RefCount::Finite(1), 0) | (RefCount::Finite(0), 1)
        )
    }
    /// Device address of a host address inside (or near) this entry.
    pub fn device_addr_of(&self, host: usize) -> DevAddr {
        self.device_begin
            .wrapping_add((host as u64).wrapping_sub(self.host_begin as u64))
    }
    pub fn increment(&mut self, hold: bool) {
        if hold {
            self.hold_refs = self.hold_refs.saturating_add(1);
        } else {
            self.dynamic_refs.inc();
        }
    }
    pub fn decrement(&mut self, hold: bool) {
        if hold {
            self.hold_refs = self.hold_refs.saturating_sub(1);
        } else {
            self.dynamic_refs.dec();
        }
    }
    /// Would a decrement (or, with `reset`, a reset) of the given count make the entry go away?
    pub fn would_be_removed(&self, hold: bool, reset: bool) -> bool {
        if self.dynamic_refs == RefCount::Infinite {
            return false;
        }
        let (this, other) = if hold {
            (RefCount::Finite(self.hold_refs), self.dynamic_refs)
        } else {
            (self.dynamic_refs, RefCount::Finite(self.hold_refs))
        };
        if !other.is_zero() {
            return false;
        }
        if reset {
            true
        } else {
            this == RefCount::Finite(1)
        }
    }
    /// `delete` / `acc_delete_finalize`: drop the count to zero.
    pub fn reset(&mut self, hold: bool) {
        if hold {
            self.hold_refs = 0;
        } else if self.dynamic_refs != RefCount::Infinite {
            self.dynamic_refs = RefCount::Finite(0);
        }
    }
    pub fn add_shadow(&mut self, s: ShadowPointer) -> bool {
        if self.shadows.contains(&s) {
            return false;
        }
        self.shadows.retain(|o| o.host_slot != s.host_slot);
        self.shadows.push(s);
        true
    }
    /// Shadow pointers whose host slot lies in `[begin, begin + bytes)`.
    pub fn shadows_in(&self, begin: usize, bytes: u64) -> impl Iterator<Item = &ShadowPointer> {
        let end = begin.saturating_add(bytes as usize);
        self.shadows
            .iter()
            .filter(move |s| s.host_slot >= begin && s.host_slot < end)
    }
}

/// Key of an entry (its host begin address).
pub type EntryKey = usize;

/// How a host range relates to the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Entirely inside the entry (for size 0: the address is inside it, or between its base and begin).
    Contained(EntryKey),
    /// Overlaps the entry without being contained in it.
    Overlaps(EntryKey),
    Absent,
}

#[derive(Default, Debug)]
pub struct PresentTable {
    entries: BTreeMap<usize, Entry>,
    /// Per entry, the number it was inserted as (`serial`): an entry removed and mapped again at
    /// the same address is a different entry.
    serials: BTreeMap<usize, u64>,
    inserted: u64,
    /// Device blocks several entries share (`Mapper::pack_small`): block start → the number of
    /// entries whose `Storage::Owned` names it. A block that is not here has one owner.
    shared: BTreeMap<DevAddr, u32>,
}

impl PresentTable {
    pub fn new() -> PresentTable {
        PresentTable::default()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, key: EntryKey) -> Option<&Entry> {
        self.entries.get(&key)
    }
    pub fn get_mut(&mut self, key: EntryKey) -> Option<&mut Entry> {
        self.entries.get_mut(&key)
    }
    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.entries.values()
    }

    /// Finds how `[begin, begin + bytes)` relates to the mapped ranges, as libomptarget does.
    pub fn lookup(&self, begin: usize, bytes: u64) -> Lookup {
        let before = self.entries.range(..=begin).next_back();
        let after = self.entries.range(begin.saturating_add(1)..).next();
        if bytes == 0 {
            if let Some((&k, e)) = before {
                if begin < e.host_end {
                    return Lookup::Contained(k);
                }
            }
            if let Some((&k, e)) = after {
                // Between the entry's base pointer and its begin: e.g. `p` for a mapped `p[10:20]`.
                if begin >= e.host_base {
                    return Lookup::Contained(k);
                }
            }
            return Lookup::Absent;
        }
        let end = begin.saturating_add(bytes as usize);
        if let Some((&k, e)) = before {
            if begin < e.host_end {
                return if end <= e.host_end {
                    Lookup::Contained(k)
                } else {
                    Lookup::Overlaps(k)
                };
            }
        }
        if let Some((&k, e)) = after {
            if end > e.host_begin {
                return Lookup::Overlaps(k);
            }
        }
        Lookup::Absent
    }

    /// Inserts a new entry. The caller must have checked that its range is absent.
    pub fn insert(&mut self, entry: Entry) -> EntryKey {
        debug_assert!(entry.host_end > entry.host_begin);
        let key = entry.host_begin;
        self.entries.insert(key, entry);
        self.inserted += 1;
        self.serials.insert(key, self.inserted);
        key
    }

    /// Records that `owners` entries will own the device block at `alloc_base` together.
    pub fn share_block(&mut self, alloc_base: DevAddr, owners: u32) {
        if owners > 1 {
            self.shared.insert(alloc_base, owners);
        } else {
            self.shared.remove(&alloc_base);
        }
    }

    /// Do several entries share the block at `alloc_base`?
    pub fn is_shared_block(&self, alloc_base: DevAddr) -> bool {
        self.shared.contains_key(&alloc_base)
    }

    /// One owner of the block at `alloc_base` lets it go (its entry was removed): true when
    /// it was the last, and the caller frees the block.
    pub fn release_block(&mut self, alloc_base: DevAddr) -> bool {
        match self.shared.get_mut(&alloc_base) {
            Some(n) if *n > 1 => {
                *n -= 1;
                false
            }
            Some(_) => {
                self.shared.remove(&alloc_base);
                true
            }
            None => true,
        }
    }

    pub fn remove(&mut self, key: EntryKey) -> Option<Entry> {
        self.serials.remove(&key);
        self.entries.remove(&key)
    }

    /// Which insertion made the entry `key` (unique over the table's life), None: no entry.
    pub fn serial(&self, key: EntryKey) -> Option<u64> {
        self.serials.get(&key).copied()
    }

    /// Entry containing the device address `dev` (for acc_hostptr).
    pub fn find_by_device(&self, dev: DevAddr) -> Option<&Entry> {
        self.entries
            .values()
            .find(|e| dev >= e.device_begin && dev < e.device_begin + e.bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(begin: usize, bytes: usize, dev: u64) -> Entry {
        Entry {
            storage: Storage::Owned { alloc_base: dev },
            ..Entry::for_test(begin, bytes, dev)
        }
    }

    #[test]
    fn containment_and_partial_sections() {
        let mut t = PresentTable::new();
        let k = t.insert(entry(1000, 400, 0x10_0000));
        assert_eq!(t.lookup(1000, 400), Lookup::Contained(k));
        assert_eq!(
            t.lookup(1100, 100),
            Lookup::Contained(k),
            "inner section reuses the mapping"
        );
        assert_eq!(t.lookup(1399, 1), Lookup::Contained(k));
        assert_eq!(
            t.get(k).map(|e| e.device_addr_of(1100)),
            Some(0x10_0000 + 100)
        );
    }

    #[test]
    fn overlaps_are_detected_on_both_sides() {
        let mut t = PresentTable::new();
        let k = t.insert(entry(1000, 400, 0x10_0000));
        assert_eq!(t.lookup(900, 200), Lookup::Overlaps(k), "extends before");
        assert_eq!(t.lookup(1300, 200), Lookup::Overlaps(k), "extends after");
        assert_eq!(t.lookup(900, 600), Lookup::Overlaps(k), "encloses");
        assert_eq!(t.lookup(600, 400), Lookup::Absent, "adjacent below");
        assert_eq!(t.lookup(1400, 4), Lookup::Absent, "adjacent above");
    }

    #[test]
    fn zero_length_lookups() {
        let mut t = PresentTable::new();
        let mut e = entry(1040, 80, 0x2000);
        e.host_base = 1000; // p[10:20] of an int *p at 1000
        let k = t.insert(e);
        assert_eq!(t.lookup(1050, 0), Lookup::Contained(k));
        assert_eq!(
            t.lookup(1000, 0),
            Lookup::Contained(k),
            "base pointer of a mapped section"
        );
        assert_eq!(t.get(k).map(|e| e.device_addr_of(1000)), Some(0x2000 - 40));
        assert_eq!(t.lookup(999, 0), Lookup::Absent);
        assert_eq!(
            t.lookup(1120, 0),
            Lookup::Absent,
            "one past the end is not present"
        );
    }

    #[test]
    fn reference_counts() {
        let mut e = entry(0x100, 8, 0x1);
        assert!(e.would_be_removed(false, false));
        e.increment(false);
        assert_eq!(e.dynamic_refs, RefCount::Finite(2));
        assert!(!e.would_be_removed(false, false));
        e.decrement(false);
        assert!(e.would_be_removed(false, false));
        assert!(
            e.would_be_removed(false, true),
            "delete removes whatever the count"
        );
        e.increment(true); // a hold reference keeps it alive
        assert!(!e.would_be_removed(false, false));
        assert!(!e.would_be_removed(false, true));
        e.decrement(true);
        e.decrement(false);
        assert!(e.total_refs_is_zero());
        e.decrement(false);
        assert!(e.total_refs_is_zero(), "never below zero");
    }

    #[test]
    fn infinite_counts_never_go_away() {
        let mut e = entry(0x100, 8, 0x1);
        e.dynamic_refs = RefCount::Infinite;
        e.storage = Storage::Borrowed;
        e.decrement(false);
        e.reset(false);
        assert_eq!(e.dynamic_refs, RefCount::Infinite);
        assert!(!e.would_be_removed(false, true));
    }

    #[test]
    fn shadows_in_range() {
        let mut e = entry(0x100, 64, 0x1000);
        let s = ShadowPointer {
            host_slot: 0x108,
            host_value: 7,
            device_slot: 0x1008,
            device_value: 9,
        };
        assert!(e.add_shadow(s));
        assert!(!e.add_shadow(s), "same attachment twice is recorded once");
        assert_eq!(e.shadows_in(0x100, 16).count(), 1);
        assert_eq!(e.shadows_in(0x110, 16).count(), 0);
        let s2 = ShadowPointer {
            device_value: 10,
            ..s
        };
        assert!(e.add_shadow(s2), "re-attachment replaces");
        assert_eq!(e.shadows.len(), 1);
    }

    #[test]
    fn an_entry_mapped_again_has_a_new_serial() {
        let mut t = PresentTable::new();
        let k = t.insert(entry(0x1000, 64, 0x9000));
        let first = t.serial(k).unwrap();
        t.remove(k);
        assert_eq!(t.serial(k), None);
        let k2 = t.insert(entry(0x1000, 64, 0x9000));
        assert_eq!(k2, k);
        assert_ne!(t.serial(k2), Some(first));
    }

    #[test]
    fn remove_and_find_by_device() {
        let mut t = PresentTable::new();
        let k = t.insert(entry(1000, 400, 0x10_0000));
        assert_eq!(
            t.find_by_device(0x10_0000 + 399).map(|e| e.host_begin),
            Some(1000)
        );
        assert!(t.find_by_device(0x10_0000 + 400).is_none());
        assert!(t.remove(k).is_some());
        assert_eq!(t.lookup(1000, 1), Lookup::Absent);
    }
}

//! A mapping that encloses mappings made before it: more members of a struct one member of
//! which is already mapped (OpenMP Examples `target_struct_map.4`, OpenMP 5.1):
//!
//! ```c
//! #pragma omp target data map(S.p[:N])             // maps the member S.p (8 bytes), attaches it
//! #pragma omp target map(S.p[:0], S.a, S.b)        // implicit map of S: the span a .. p
//! saxpyfun(&S);
//! ```
//!
//! clang maps the second construct's struct as one entry spanning its members `a` to `p`, which
//! contains the 8-byte entry of `S.p`. The kernel reaches every member from one base address,
//! so they need one device block with the host's layout: [`Mapper::extend`] allocates the
//! enclosing range, copies the enclosed entries' device bytes into it at their offsets (their
//! attached pointers with them), moves their reference counts and shadow pointers to the new
//! entry, frees their blocks, and copies the bytes no entry held from the host (the struct's
//! entry has no `to` of its own: its members do, and for them the entry is not new). The
//! enclosed data lives as long as either mapping holds it.
//!
//! An implicit map (the struct a target region uses) that overlaps one mapping uses that
//! mapping's part only, as OpenMP 5.1 says; one that overlaps several (two members entered by
//! separate directives) is extended over them the same way: the kernel reaches them all from
//! the struct's base (it used to reach the members of one, and read poison for the others).
//!
//! It is refused (the partial-overlap error stays) when an old block cannot move: a range that
//! crosses an entry's boundary rather than enclosing it, storage the program owns (`declare
//! target` globals, associated pointers), a kernel or queue still using it, or a device pointer
//! attached into it (it would dangle).
use super::{dev_err, Mapper};
use crate::errors::MapError;
use crate::present_table::{EntryKey, RefCount, Storage};
use crate::source_info::VarName;

impl Mapper<'_> {
    /// The entries `[begin, begin + bytes)` overlaps.
    pub(super) fn overlapped(&self, begin: usize, bytes: u64) -> Vec<EntryKey> {
        let end = begin + bytes as usize;
        self.table
            .iter()
            .filter(|e| e.host_begin < end && e.host_end > begin)
            .map(|e| e.host_begin)
            .collect()
    }

    /// Maps `[begin, begin + bytes)` (base `base`) over the entries it encloses, as the module
    /// says. None when some enclosed entry cannot move (or none is enclosed).
    pub(super) fn extend(
        &mut self,
        begin: usize,
        base: usize,
        bytes: u64,
        var: &VarName,
    ) -> Result<Option<EntryKey>, MapError> {
        let end = begin + bytes as usize;
        let old = self.overlapped(begin, bytes);
        let movable = |m: &Self, k: EntryKey| {
            m.table.get(k).is_some_and(|e| {
                e.host_begin >= begin
                    && e.host_end <= end
                    && matches!(e.storage, Storage::Owned { .. })
                    && e.dynamic_refs != RefCount::Infinite
                    && e.users == 0
                    && e.queues.is_empty()
            })
        };
        if old.is_empty() || !old.iter().all(|&k| movable(self, k)) {
            return Ok(None);
        }
        // A device pointer attached into an old block would dangle once it moves.
        let attached_into = self.table.iter().any(|e| {
            e.shadows.iter().any(|s| {
                old.iter().filter_map(|&k| self.table.get(k)).any(|o| {
                    s.device_value >= o.device_begin && s.device_value < o.device_begin + o.bytes()
                })
            })
        });
        if attached_into {
            return Ok(None);
        }
        // Copies queued by this construct so far complete before the old blocks are read.
        self.finish().map_err(|e| dev_err(var, e))?;
        let moved: Vec<_> = old.iter().filter_map(|&k| self.table.remove(k)).collect();
        let name = if !var.expr.is_empty() {
            var.clone()
        } else {
            moved[0].name.clone()
        };
        let k = match self.allocate(begin, base, bytes, false, &name) {
            Ok(k) => k,
            Err(e) => {
                for m in moved {
                    self.table.insert(m);
                }
                return Err(e);
            }
        };
        let new_begin = self.table.get(k).map_or(0, |e| e.device_begin);
        let at = |host: usize| new_begin + (host - begin) as u64;
        let mut dynamic = 0u64;
        let mut hold = 0u64;
        let mut shadows = Vec::new();
        for m in &moved {
            self.device
                .copy_within_device(at(m.host_begin), m.device_begin, m.bytes())
                .map_err(|e| dev_err(&name, e))?;
            if let RefCount::Finite(n) = m.dynamic_refs {
                dynamic += n;
            }
            hold += m.hold_refs;
            for s in &m.shadows {
                let mut s = *s;
                s.device_slot = at(s.host_slot);
                shadows.push(s);
            }
        }
        for m in &moved {
            self.free_storage(m.storage, &name)?;
        }
        if let Some(e) = self.table.get_mut(k) {
            e.dynamic_refs = RefCount::Finite(dynamic);
            e.hold_refs = hold;
            e.shadows = shadows;
        }
        // The bytes no old entry held come from the host, whatever the map type: the members
        // this construct maps `to` lie there, and the entry is not new to them (the old ones
        // keep their device values: they may be newer than the host's). For `alloc` or
        // `from` members any initial value is right.
        let mut from = begin;
        for m in &moved {
            if m.host_begin > from {
                self.copy_in(k, from, (m.host_begin - from) as u64, &name)?;
            }
            from = from.max(m.host_end);
        }
        if end > from {
            self.copy_in(k, from, (end - from) as u64, &name)?;
        }
        Ok(Some(k))
    }
}

//! The split launch's side of data spread over the devices (`coherence/present.rs`): which
//! items of a launch are spread, each part's data brought in place before any part runs, and
//! what each part wrote recorded after. Places are numbered as `present::places` numbers them:
//! the devices, then the host part of a hybrid loop.
//!
//! ```text
//!   items:    present on the origin, not combined, one item per present entry, the parts'
//!             write ranges disjoint                       → spread (tracked from now on)
//!   prepare:  per place with a part, per spread item: the bytes it reads or writes, current
//!             there (origin: its present copy; others: their windows)  → the item's address
//!   record:   per place, per spread item: its write ranges current there only
//! ```

use super::launch::{combine_of, device_fatal, Construct};
use super::ranges::Touched;
use crate::coherence::present::{places, PresentSpread};
use crate::coherence::range_set::{RangeSet, Span};
use crate::device::Device;
use crate::present_table::{DevAddr, EntryKey, Lookup};
use crate::profile;
use crate::runtime::Runtime;

/// Per item, when it is spread: its array (host address) and its offset in the array.
pub(crate) type SpreadItems = Vec<Option<(u64, u64)>>;

/// The directory's places for this runtime (`present::places`).
pub(crate) fn place_refs(rt: &Runtime) -> Vec<&dyn Device> {
    places(rt.devices.iter().map(|d| d.device.as_ref()))
}

/// Which items run spread in this launch, given what each place's part touches (None: no
/// part there): data present on the origin (an enclosing data region's) that is not combined,
/// whose parts' write ranges are disjoint (each byte has one writer, so nothing needs
/// merging), and that shares its present entry with no other item. They are tracked from now
/// on.
pub(crate) fn spread_items(
    rt: &Runtime,
    c: &Construct<'_>,
    origin: usize,
    touched: &[Option<Vec<Touched>>],
    spread: &mut PresentSpread,
) -> SpreadItems {
    let devices = place_refs(rt);
    let table = c.origin.lock_table();
    let mut out: SpreadItems = vec![None; c.items.len()];
    let mut entries: Vec<(usize, EntryKey)> = Vec::new();
    for (i, it) in c.items.iter().enumerate() {
        if it.ty.literal() || combine_of(c.kernel, i).is_some() {
            continue;
        }
        let Lookup::Contained(key) = table.lookup(it.begin, it.bytes) else {
            continue;
        };
        entries.push((i, key));
        let mut seen = RangeSet::new();
        let disjoint = touched.iter().flatten().all(|t| {
            let w = &t[i].written;
            let ok = w.intersect(&seen).is_empty();
            seen = seen.union(w);
            ok
        });
        if !disjoint {
            continue;
        }
        let (Some(e), Some(serial)) = (table.get(key), table.serial(key)) else {
            continue;
        };
        match spread.array_for(&devices, origin, key, e, serial) {
            Ok(array) => out[i] = Some((array, (it.begin - e.host_begin) as u64)),
            Err(err) => device_fatal(c, c.origin, &format!("to track {}", it.name), err),
        }
    }
    // Two items in one entry: their writes are not compared with each other; merge them.
    for &(i, k) in &entries {
        if entries.iter().any(|&(j, l)| j != i && l == k) {
            out[i] = None;
        }
    }
    out
}

/// A range set of an item's section, as offsets in its array.
fn shifted(set: &RangeSet, offset: u64) -> RangeSet {
    let mut out = RangeSet::new();
    for s in set.spans() {
        out = out.union(&RangeSet::of(Span::new(s.start + offset, s.end + offset)));
    }
    out
}

/// Brings each place's spread data in place (the bytes its part reads and writes current
/// there) and returns, per place and item, the address of the item's first byte there (device
/// memory, or host memory for the host part).
///
/// # Safety
/// The runtime's devices; the arrays' homes are the origin's present copies.
pub(crate) unsafe fn prepare(
    rt: &Runtime,
    c: &Construct<'_>,
    origin: usize,
    touched: &[Option<Vec<Touched>>],
    items: &SpreadItems,
    spread: &mut PresentSpread,
) -> Vec<Vec<Option<DevAddr>>> {
    let devices = place_refs(rt);
    let mut out = vec![vec![None; items.len()]; touched.len()];
    for (pi, t) in touched.iter().enumerate() {
        let Some(t) = t else { continue };
        for (i, item) in items.iter().enumerate() {
            let Some((array, offset)) = *item else {
                continue;
            };
            let needed = shifted(&t[i].needed(), offset);
            match spread.prepare(&devices, origin, array, pi, &needed) {
                Ok((base, moved)) => {
                    // A device receives peer copies (or host→device ones from the host part);
                    // the host part's bytes leave the devices (counted as the origin's,
                    // whichever device held them).
                    let to = rt.devices.get(pi).unwrap_or(c.origin);
                    profile::spread(to.number, &moved);
                    out[pi][i] = Some(base.wrapping_add(offset));
                }
                Err(e) => device_fatal(
                    c,
                    rt.devices.get(pi).unwrap_or(c.origin),
                    &format!("to bring its part of {} in", c.items[i].name),
                    e,
                ),
            }
        }
    }
    out
}

/// After the parts ran: the bytes each place's part wrote of spread data are current there
/// only.
pub(crate) fn record_writes(
    c: &Construct<'_>,
    origin: usize,
    touched: &[Option<Vec<Touched>>],
    items: &SpreadItems,
    spread: &mut PresentSpread,
) {
    for (pi, t) in touched.iter().enumerate() {
        let Some(t) = t else { continue };
        for (i, item) in items.iter().enumerate() {
            let Some((array, offset)) = *item else {
                continue;
            };
            let written = shifted(&t[i].written, offset);
            if let Err(e) = spread.wrote(origin, array, pi, &written) {
                device_fatal(
                    c,
                    c.origin,
                    &format!("recording what its parts wrote of {}", c.items[i].name),
                    e,
                );
            }
        }
    }
}

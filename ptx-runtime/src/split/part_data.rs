//! The data a part of a split launch moves (`launch.rs`), from the kernel's access ranges
//! (`ranges.rs`): the spans of each argument the part reads or writes go to its device, and
//! only the spans it writes come back to be merged.
//!
//! ```text
//! part [250, 500) of y[i] = x[i-1] + x[i] + x[i+1]:
//!   x: copy in [1992, 4016)   y: copy in [2000, 4008) (the host's bytes, for writes that do not happen)
//!   after: y's [2000, 4008) copied out and merged; x not copied out
//! ```
//!
//! Without a table (an image built before access ranges, or `-fptxcc-multi-device` found
//! none) every span is the whole section. With `PTXRT_DEBUG=1` the whole section still goes in
//! and comes out, and a byte the part changed outside its write spans is reported as an
//! internal error of the compiler's access ranges (naming kernel and variable) instead of
//! being merged silently.
use std::ops::Range;
use std::time::Instant;

use super::ranges::{Section, Touched};
use crate::coherence::range_set::{RangeSet, Span};
use crate::device::Device;
use crate::mapping::{MapItem, Transfers};
use crate::present_table::DevAddr;
use crate::registry::Kernel;

/// What part `iters` touches of each item (None: whole sections, no table).
pub(crate) fn touched(k: &Kernel, items: &[MapItem], iters: Range<u64>) -> Option<Vec<Touched>> {
    let table = k.accesses.as_ref()?;
    let args = arguments(items);
    let sections: Vec<Option<Section>> = items
        .iter()
        .map(|it| {
            (!it.ty.literal()).then(|| Section {
                delta: (it.base as i64).wrapping_sub(it.begin as i64),
                bytes: it.bytes,
            })
        })
        .collect();
    Some(table.evaluate(&args, iters, &sections))
}

/// The kernel's argument values as the access table reads them (by-value arguments).
pub(crate) fn arguments(items: &[MapItem]) -> Vec<u64> {
    items.iter().map(|it| it.base as u64).collect()
}

/// The whole section of an item, as spans.
pub(crate) fn whole(it: &MapItem) -> RangeSet {
    RangeSet::of(Span::new(0, it.bytes))
}

/// Copies `spans` of `src` (the item's source bytes) to the device copy at `a`.
///
/// # Safety
/// `a` must be a device allocation of at least `src.len()` bytes.
pub(crate) unsafe fn copy_in(
    d: &dyn Device,
    a: DevAddr,
    src: &[u8],
    spans: &RangeSet,
    t: &mut Transfers,
) -> Result<(), String> {
    for s in spans.spans() {
        let started = Instant::now();
        d.copy_to_device(
            a + s.start as DevAddr,
            src[s.start as usize..].as_ptr(),
            s.len(),
        )
        .map_err(|e| e.to_string())?;
        t.to_device(s.len(), started);
    }
    Ok(())
}

/// Copies `spans` of the device copy at `a` into the same places of `buf`.
///
/// # Safety
/// `a` must be a device allocation of at least `buf.len()` bytes.
pub(crate) unsafe fn copy_out(
    d: &dyn Device,
    a: DevAddr,
    buf: &mut [u8],
    spans: &RangeSet,
    t: &mut Transfers,
) -> Result<(), String> {
    for s in spans.spans() {
        let started = Instant::now();
        d.copy_from_device(
            buf[s.start as usize..].as_mut_ptr(),
            a + s.start as DevAddr,
            s.len(),
        )
        .map_err(|e| e.to_string())?;
        t.from_device(s.len(), started);
    }
    Ok(())
}

/// The first byte of `buf` that differs from `host` outside `written`, if any (the
/// `PTXRT_DEBUG=1` check of the compiler's write ranges).
pub(crate) fn changed_outside(buf: &[u8], host: &[u8], written: &RangeSet) -> Option<usize> {
    let outside = whole_len(buf.len()).subtract(written);
    outside
        .spans()
        .iter()
        .find_map(|s| (s.start as usize..s.end as usize).find(|&j| buf[j] != host[j]))
}

fn whole_len(n: usize) -> RangeSet {
    RangeSet::of(Span::new(0, n as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_outside_the_write_spans_is_found() {
        let host = [0u8; 16];
        let mut buf = [0u8; 16];
        buf[4] = 1;
        let w = RangeSet::of(Span::new(2, 8));
        assert_eq!(changed_outside(&buf, &host, &w), None);
        buf[12] = 7;
        assert_eq!(changed_outside(&buf, &host, &w), Some(12));
    }
}

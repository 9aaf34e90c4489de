//! `present` data whose enter was queued: a synchronous construct that finds a `present` item
//! missing first waits for the async work the calling task queued, then maps.
//!
//! OpenACC 3.3 §2.7.2 ("Data Clause Actions"): a copyin or create action allocates the device
//! memory and sets the reference counter when the directive is met; only "the data copy may
//! complete asynchronously". So after
//!
//! ```c
//! #pragma acc enter data copyin(c[0:n]) async(1)
//! #pragma acc data present(c[0:n])        // synchronous: c must be found present
//! ```
//!
//! the `present` check must succeed. ptxcc's front end makes the `enter data … async(1)` a
//! `target enter data … nowait` task, which changes the present table only when it runs. Before
//! a synchronous construct maps its items, [`wait_for_queued_enters`] looks for `present` items
//! that are missing; if there is one, the calling task waits for the tasks it created (the async
//! constructs, whichever queue) and the mapping then sees what they entered. Data that is still
//! missing after that is a real "not present" error. Waiting for more than the enter (the queued
//! copies and kernels too) only costs time, and only on the path that would otherwise have been
//! an error; a construct whose items are all present never waits here.

use crate::mapping::MapItem;
use crate::present_table::{Lookup, PresentTable};
use crate::runtime::DeviceState;

/// Whether an item of `list` has the `present` map type and is not mapped in `table`.
pub(crate) fn present_item_missing(table: &PresentTable, list: &[MapItem]) -> bool {
    list.iter().any(|it| {
        it.ty.present()
            && it.bytes > 0
            && matches!(table.lookup(it.begin, it.bytes), Lookup::Absent)
    })
}

/// Before a synchronous construct maps `list` on `dev`: when one of its `present` items is not
/// mapped yet, waits for the async constructs the calling task queued (an `enter data … async`
/// among them may enter it). Nothing when libomp is not linked in (then nothing is queued).
pub(crate) fn wait_for_queued_enters(dev: &DeviceState, list: &[MapItem]) {
    if !crate::openacc::can_wait_for_tasks() {
        return;
    }
    let missing = present_item_missing(&dev.lock_table(), list);
    if missing {
        // The table is unlocked: the queued tasks lock it when they map.
        crate::openacc::wait_for_async_tasks();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map_type::MapType;
    use crate::present_table::Entry;

    fn item(begin: usize, bytes: u64, ty: u64) -> MapItem {
        MapItem::for_test(begin, bytes, ty)
    }

    fn table_with(begin: usize, bytes: usize) -> PresentTable {
        let mut t = PresentTable::new();
        t.insert(Entry::for_test(begin, bytes, 0x1000));
        t
    }

    #[test]
    fn only_missing_present_items_count() {
        let t = table_with(0x10_000, 800);
        let present = MapType::PRESENT;
        let to = MapType::TO;
        // Mapped, inside the mapping: nothing to wait for.
        assert!(!present_item_missing(&t, &[item(0x10_000, 800, present)]));
        assert!(!present_item_missing(&t, &[item(0x10_100, 8, present)]));
        // Not mapped and `present`: the construct waits for the queued enters.
        assert!(present_item_missing(&t, &[item(0x20_000, 800, present)]));
        // Not mapped but `to`: the construct maps it itself.
        assert!(!present_item_missing(&t, &[item(0x20_000, 800, to)]));
        // A zero-length `present` section is never an error.
        assert!(!present_item_missing(&t, &[item(0x20_000, 0, present)]));
        // Partly mapped is the partial-overlap error, not something an enter can fix.
        assert!(!present_item_missing(&t, &[item(0x10_000, 1600, present)]));
    }
}

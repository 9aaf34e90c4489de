//! Items a construct maps that its kernel cannot reach (issue 19): an OpenACC `present(x[0:n])`
//! or a data clause naming an array the loop does not use (NPB CG's OpenACC loops list every
//! vector on every loop). Clang maps the item (the presence check, the reference count) but
//! passes the kernel no argument for it, and a split launch used to stay on one device for it
//! ("mapped without being a kernel argument"): it cannot tell such an item from data the kernel
//! reaches another way.
//!
//! An item is a *bystander* when the kernel can reach none of its bytes and mapping it has no
//! effect but its presence check:
//! - not a kernel argument (no TARGET_PARAM), not reached through one (no PTR_AND_OBJ, not a
//!   member of a mapped struct), not a `declare target` global's bytes (a kernel reaches those
//!   by name);
//! - a plain map type (no `always`, `delete`, private or non-contiguous section, literal or
//!   return value), and present on the construct's device: mapping it only counts a reference up
//!   and back down, so no byte moves either way.
//!
//! The split leaves bystanders out (the parts neither map nor merge them); any other item
//! without an argument still keeps the loop on one device, where the usual launch maps it.
use crate::mapping::MapItem;
use crate::present_table::{Lookup, PresentTable};

/// Whether `it` is a bystander of a construct whose device's present table is `table`.
pub(crate) fn is_bystander(it: &MapItem, table: &PresentTable) -> bool {
    let t = it.ty;
    !t.target_param()
        && !t.literal()
        && !t.ptr_and_obj()
        && t.member_of().is_none()
        && !t.always()
        && !t.delete()
        && !t.private()
        && !t.non_contiguous()
        && !t.return_param()
        && it.bytes > 0
        && matches!(table.lookup(it.begin, it.bytes), Lookup::Contained(_))
        && crate::registry::global_overlapping(it.begin, it.bytes).is_none()
}

/// `items` without their bystanders, or None when there are none.
pub(crate) fn without_bystanders(items: &[MapItem], table: &PresentTable) -> Option<Vec<MapItem>> {
    if items.iter().all(|it| it.ty.target_param()) {
        return None;
    }
    let kept: Vec<MapItem> = items
        .iter()
        .filter(|it| !is_bystander(it, table))
        .cloned()
        .collect();
    (kept.len() < items.len()).then_some(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map_type::MapType as M;
    use crate::present_table::Entry;

    #[test]
    fn only_present_plain_items_without_an_argument_are_bystanders() {
        let host = [0u8; 256];
        let h = host.as_ptr() as usize;
        let mut table = PresentTable::new();
        table.insert(Entry::for_test(h, 128, 0x1000));
        let item = |begin: usize, bytes: u64, ty: u64| MapItem::for_test(begin, bytes, ty);
        let present = M::TO | M::FROM | M::PRESENT;
        // Present, no argument: a bystander; so is a part of the present section.
        assert!(is_bystander(&item(h, 128, present), &table));
        assert!(is_bystander(&item(h + 8, 16, M::TO), &table));
        // An argument, or reached through one.
        assert!(!is_bystander(
            &item(h, 128, present | M::TARGET_PARAM),
            &table
        ));
        assert!(!is_bystander(&item(h, 8, M::TO | M::PTR_AND_OBJ), &table));
        assert!(!is_bystander(&item(h, 8, M::TO | (1 << 48)), &table));
        // Mapping that moves bytes or changes the entry: always, delete.
        assert!(!is_bystander(&item(h, 128, M::ALWAYS | M::FROM), &table));
        assert!(!is_bystander(&item(h, 128, M::DELETE), &table));
        // Not present, or only partly: the construct itself would map it.
        assert!(!is_bystander(&item(h + 128, 64, M::TO), &table));
        assert!(!is_bystander(&item(h + 64, 128, M::TO), &table));
        // Literals and empty sections.
        assert!(!is_bystander(&item(h, 8, M::LITERAL), &table));
        assert!(!is_bystander(&item(h, 0, M::TO), &table));
        // The kept items, in order.
        let items = [
            item(h, 64, M::TO | M::TARGET_PARAM),
            item(h + 64, 64, present),
            item(h + 200, 8, M::TO),
        ];
        let kept = without_bystanders(&items, &table).unwrap();
        assert_eq!(
            kept.iter().map(|i| i.begin).collect::<Vec<_>>(),
            [h, h + 200]
        );
        assert!(without_bystanders(&items[..1], &table).is_none());
    }
}

//! The directory's rules: range sets (overlaps, adjacency, splitting), partial validity, peer
//! copies before host copies, invalidation on write, gathering from owners, and a Jacobi
//! iteration moving only its halo rows.

use super::*;

fn set(spans: &[(u64, u64)]) -> RangeSet {
    RangeSet::from_spans(spans.iter().map(|&(a, b)| Span::new(a, b)))
}

fn t(from: Place, to: Place, a: u64, b: u64) -> Transfer {
    Transfer {
        from,
        to,
        span: Span::new(a, b),
    }
}

const H: Place = Place::Host;
const D0: Place = Place::Device(0);
const D1: Place = Place::Device(1);
const D2: Place = Place::Device(2);

#[test]
fn range_sets_merge_overlapping_and_touching_spans() {
    let s = set(&[(10, 20), (30, 40), (20, 25), (50, 60), (35, 55)]);
    assert_eq!(s.spans(), &[Span::new(10, 25), Span::new(30, 60)]);
    assert_eq!(s.bytes(), 45);
    // A span covering several merges them all.
    let mut s2 = s.clone();
    s2.insert(Span::new(0, 100));
    assert_eq!(s2.spans(), &[Span::new(0, 100)]);
    // Empty spans change nothing.
    let mut s3 = s.clone();
    s3.insert(Span::new(5, 5));
    s3.remove(Span::new(12, 12));
    assert_eq!(s3, s);
    assert_eq!(s.to_string(), "[10, 25) [30, 60)");
}

#[test]
fn range_sets_subtract_split_and_intersect() {
    let s = set(&[(0, 100)]);
    let hole = s.subtract(&set(&[(40, 60)]));
    assert_eq!(hole.spans(), &[Span::new(0, 40), Span::new(60, 100)]);
    // Removing across a gap trims both sides.
    let mut h2 = hole.clone();
    h2.remove(Span::new(30, 70));
    assert_eq!(h2.spans(), &[Span::new(0, 30), Span::new(70, 100)]);
    assert_eq!(
        hole.intersect(&set(&[(20, 50), (55, 65), (90, 200)]))
            .spans(),
        &[Span::new(20, 40), Span::new(60, 65), Span::new(90, 100)]
    );
    assert!(hole.contains(Span::new(0, 40)));
    assert!(!hole.contains(Span::new(30, 70)));
    assert!(!hole.contains(Span::new(40, 41)));
    assert!(hole.contains(Span::new(50, 50)));
    assert_eq!(hole.union(&set(&[(40, 60)])), s);
    assert!(s.subtract(&s).is_empty());
}

#[test]
fn tracked_arrays_may_not_overlap() {
    let mut d = Directory::new();
    d.track(1000, 100, 2).unwrap();
    d.track(1100, 50, 2).unwrap(); // adjacent is fine
    assert_eq!(
        d.track(1050, 10, 2),
        Err(DirectoryError::Overlaps {
            begin: 1050,
            bytes: 10,
            other: 1000
        })
    );
    assert!(matches!(
        d.track(900, 101, 2),
        Err(DirectoryError::Overlaps { other: 1000, .. })
    ));
    assert_eq!(d.array_at(1099), Some(1000));
    assert_eq!(d.array_at(1100), Some(1100));
    assert_eq!(d.array_at(1150), None);
    assert_eq!(d.array_at(999), None);
    d.untrack(1000).unwrap();
    assert_eq!(d.untrack(1000), Err(DirectoryError::NotTracked(1000)));
}

#[test]
fn a_fresh_array_comes_from_the_host_once() {
    let mut d = Directory::new();
    d.track(0, 1000, 2).unwrap();
    let p = d.acquire(0, 0, &set(&[(0, 600)])).unwrap();
    assert_eq!(p.transfers, vec![t(H, D0, 0, 600)]);
    assert!(p.undefined.is_empty());
    // Already there: nothing to copy.
    assert_eq!(d.acquire(0, 0, &set(&[(100, 500)])).unwrap().bytes(), 0);
    assert_eq!(d.valid(0, D0).unwrap(), &set(&[(0, 600)]));
}

#[test]
fn partial_validity_takes_what_a_peer_holds_and_the_rest_from_the_host() {
    let mut d = Directory::new();
    d.track(0, 1000, 3).unwrap();
    d.acquire(0, 0, &set(&[(0, 300)])).unwrap();
    d.acquire(0, 2, &set(&[(500, 700)])).unwrap();
    // Device 1 wants [200, 800): [200,300) from device 0, [500,700) from device 2, the rest
    // from the host; in that order (devices by number, then the host).
    let p = d.acquire(0, 1, &set(&[(200, 800)])).unwrap();
    assert_eq!(
        p.transfers,
        vec![
            t(D0, D1, 200, 300),
            t(D2, D1, 500, 700),
            t(H, D1, 300, 500),
            t(H, D1, 700, 800),
        ]
    );
    assert_eq!(p.bytes(), 600);
}

#[test]
fn a_write_makes_the_other_copies_stale() {
    let mut d = Directory::new();
    d.track(0, 1000, 2).unwrap();
    d.acquire(0, 0, &set(&[(0, 1000)])).unwrap();
    d.acquire(0, 1, &set(&[(0, 1000)])).unwrap();
    d.wrote(0, 0, &set(&[(100, 200)])).unwrap();
    assert_eq!(d.valid(0, H).unwrap(), &set(&[(0, 100), (200, 1000)]));
    assert_eq!(d.valid(0, D1).unwrap(), &set(&[(0, 100), (200, 1000)]));
    assert_eq!(d.valid(0, D0).unwrap(), &set(&[(0, 1000)]));
    // Device 1 reading it again gets it from device 0, not from the stale host.
    let p = d.acquire(0, 1, &set(&[(0, 1000)])).unwrap();
    assert_eq!(p.transfers, vec![t(D0, D1, 100, 200)]);
    // The host changing part of it (update to) makes both devices stale there.
    d.host_wrote(0, &set(&[(150, 250)])).unwrap();
    assert_eq!(d.valid(0, D0).unwrap(), &set(&[(0, 150), (250, 1000)]));
    let p = d.acquire(0, 0, &set(&[(0, 1000)])).unwrap();
    assert_eq!(p.transfers, vec![t(H, D0, 150, 250)]);
}

#[test]
fn gather_brings_each_span_back_from_its_owner() {
    let mut d = Directory::new();
    d.track(0, 1000, 3).unwrap();
    for (dev, a, b) in [(0, 0, 400), (1, 400, 700), (2, 700, 1000)] {
        d.acquire(0, dev, &set(&[(a, b)])).unwrap();
        d.wrote(0, dev, &set(&[(a, b)])).unwrap();
    }
    assert!(d.valid(0, H).unwrap().is_empty());
    // Only the part asked for (an update from of a section).
    let p = d.gather(0, &set(&[(300, 800)])).unwrap();
    assert_eq!(
        p.transfers,
        vec![t(D0, H, 300, 400), t(D1, H, 400, 700), t(D2, H, 700, 800)]
    );
    let p = d.gather(0, &set(&[(0, 1000)])).unwrap();
    assert_eq!(p.transfers, vec![t(D0, H, 0, 300), t(D2, H, 800, 1000)]);
    assert_eq!(d.valid(0, H).unwrap(), &set(&[(0, 1000)]));
    // The devices still hold their parts: gathering copies, it does not move.
    assert_eq!(d.valid(0, D1).unwrap(), &set(&[(400, 700)]));
}

#[test]
fn holders_name_each_span_s_owner_and_record_nothing() {
    let mut d = Directory::new();
    d.track(0, 1000, 2).unwrap();
    d.acquire(0, 1, &set(&[(500, 1000)])).unwrap();
    d.wrote(0, 1, &set(&[(600, 900)])).unwrap();
    // The host holds all but [600, 900); device 1 holds those.
    let p = d.holders(0, &set(&[(0, 1000)])).unwrap();
    assert_eq!(p.transfers, vec![t(D1, H, 600, 900)]);
    assert!(p.undefined.is_empty());
    // Asked again: the same, since nothing was recorded.
    assert_eq!(
        d.holders(0, &set(&[(700, 1000)])).unwrap().transfers,
        vec![t(D1, H, 700, 900)]
    );
    assert_eq!(d.valid(0, H).unwrap(), &set(&[(0, 600), (900, 1000)]));
    assert!(d.holders(8, &set(&[(0, 1)])).is_err());
    assert!(d.holders(0, &set(&[(0, 1001)])).is_err());
}

#[test]
fn bytes_current_nowhere_are_undefined_not_copied() {
    let mut d = Directory::new();
    d.track(0, 100, 2).unwrap();
    d.acquire(0, 0, &set(&[(0, 100)])).unwrap();
    d.wrote(0, 0, &set(&[(0, 100)])).unwrap();
    // Device 0's copy freed without a gather: its bytes are lost, and said so.
    assert_eq!(d.drop_device(0, 0).unwrap(), set(&[(0, 100)]));
    let p = d.acquire(0, 1, &set(&[(0, 50)])).unwrap();
    assert!(p.transfers.is_empty());
    assert_eq!(p.undefined, set(&[(0, 50)]));
    // A drop of a copy others also hold loses nothing.
    d.host_wrote(0, &set(&[(0, 100)])).unwrap();
    d.acquire(0, 1, &set(&[(0, 100)])).unwrap();
    assert!(d.drop_device(0, 1).unwrap().is_empty());
}

#[test]
fn bad_devices_and_spans_are_errors() {
    let mut d = Directory::new();
    d.track(0, 100, 2).unwrap();
    assert_eq!(
        d.acquire(0, 2, &set(&[(0, 10)])),
        Err(DirectoryError::NoSuchDevice {
            device: 2,
            devices: 2
        })
    );
    assert_eq!(
        d.wrote(0, 0, &set(&[(90, 110)])),
        Err(DirectoryError::OutOfBounds {
            span: Span::new(90, 110),
            bytes: 100
        })
    );
    assert_eq!(
        d.gather(8, &set(&[(0, 1)])),
        Err(DirectoryError::NotTracked(8))
    );
    assert!(DirectoryError::NoSuchDevice {
        device: 2,
        devices: 2
    }
    .to_string()
    .contains("device 2 does not exist"));
}

/// A Jacobi sweep over `rows` rows of `row` bytes split in blocks over `n` devices: each device
/// reads its rows and one halo row on each side, and writes its rows. After the first sweep only
/// the halo rows move: 2 per internal boundary.
#[test]
fn a_jacobi_in_a_data_region_moves_only_halo_rows() {
    let (rows, row, n) = (100u64, 800u64, 4u64);
    let mut d = Directory::new();
    d.track(0, rows * row, n as usize).unwrap();
    let part = |k: u64| (k * rows / n, (k + 1) * rows / n);
    let mut moved = Vec::new();
    for _sweep in 0..3 {
        let mut bytes = 0;
        for k in 0..n {
            let (lo, hi) = part(k);
            let read = Span::new(lo.saturating_sub(1) * row, (hi + 1).min(rows) * row);
            bytes += d
                .acquire(0, k as usize, &RangeSet::of(read))
                .unwrap()
                .bytes();
        }
        for k in 0..n {
            let (lo, hi) = part(k);
            d.wrote(0, k as usize, &RangeSet::of(Span::new(lo * row, hi * row)))
                .unwrap();
        }
        moved.push(bytes);
    }
    // First sweep: every device gets its rows and its halos from the host.
    assert_eq!(moved[0], (rows + 2 * (n - 1)) * row);
    // Then only the halos: two rows per boundary between devices.
    assert_eq!(moved[1], 2 * (n - 1) * row);
    assert_eq!(moved[2], 2 * (n - 1) * row);
    // The end of the region brings each device's rows home, nothing twice.
    let p = d
        .gather(0, &RangeSet::of(Span::new(0, rows * row)))
        .unwrap();
    assert_eq!(p.bytes(), rows * row);
    assert_eq!(p.transfers.len(), n as usize);
}

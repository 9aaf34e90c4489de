//! The access-range evaluator on tables as the compiler encodes them.
use super::ranges::*;
use crate::coherence::range_set::{RangeSet, Span};

const P: i64 = 1 << 40;
const V: i64 = 2 << 40;
/// Argument `k` as a 32-bit int.
fn arg32(k: i64) -> i64 {
    P | 32 << 20 | k
}

fn set(spans: &[(u64, u64)]) -> RangeSet {
    RangeSet::from_spans(spans.iter().map(|&(a, b)| Span::new(a, b)))
}

fn sec(bytes: u64) -> Option<Section> {
    Some(Section { delta: 0, bytes })
}

/// y[i] = x[i-1] + x[i] + x[i+1] over i in 1..n-1: argument 0 (n) by value, 1 = y, 2 = x; the
/// iteration is i - 1.
fn stencil_1d() -> AccessTable {
    AccessTable::decode(&[
        1, 1, 2, 1, // version, 1 variable, 2 accesses; variable 0: the iteration
        1, 2, 8, 2, 8, 0, 8, 1, V, // y: written [8 + 8*it, +8)
        2, 1, 24, 1, 8, 1, V, // x: read [8*it, +24)
    ])
    .unwrap()
}

#[test]
fn one_dimensional_stencil_with_halo() {
    let t = stencil_1d();
    let n = 1000u64;
    let secs = [None, sec(8 * n), sec(8 * n)];
    // Part [249, 498) of 998 iterations: i in [250, 498].
    let r = t.evaluate(&[n], 249..498, &secs);
    assert_eq!(r[2].read, set(&[(8 * 249, 8 * 500)])); // x[249 .. 499]: the halo on each side
    assert!(r[2].written.is_empty());
    assert_eq!(r[1].written, set(&[(8 * 250, 8 * 499)]));
    assert!(r[1].read.is_empty());
    assert!(r[0].needed().is_empty());
    // The first and last parts stay inside the section.
    assert_eq!(t.evaluate(&[n], 0..1, &secs)[2].read, set(&[(0, 24)]));
    assert_eq!(
        t.evaluate(&[n], 997..998, &secs)[2].read,
        set(&[(8 * 997, 8 * 1000)])
    );
    // No iterations: nothing.
    assert!(t.evaluate(&[n], 5..5, &secs)[2].read.is_empty());
}

#[test]
fn section_that_starts_inside_the_array() {
    // map(to: x[100:50]) with the kernel's pointer at x: delta = -800 (the base is 100
    // elements before the section's start).
    let t = stencil_1d();
    let secs = [
        None,
        sec(8000),
        Some(Section {
            delta: -800,
            bytes: 400,
        }),
    ];
    let r = t.evaluate(&[1000], 100..110, &secs);
    // x[100 .. 112) is bytes [0, 96) of the section
    assert_eq!(r[2].read, set(&[(0, 96)]));
}

/// b[i*m + j] = a[(i-1)*m + j] + a[(i+1)*m + j], i over the distribute loop from 1 (it = i-1),
/// j an inner loop from 1 to m-2: argument 0 = m (int), 1 = b, 2 = a.
#[test]
fn two_dimensional_rows() {
    let m = 100u64;
    let t = AccessTable::decode(&[
        1,
        2,
        3,
        1, // variable 0: the iteration
        4, // variable 1: j in [1, m-2]
        1,
        1,
        0, // first: 1
        2,
        -2,
        0,
        1,
        1,
        arg32(0), // last: m - 2
        // b written at 8*m*(it+1) + 8*j = 8*m + 8*m*it + 8*v1
        1,
        2,
        8,
        3,
        8,
        1,
        arg32(0),
        8,
        2,
        arg32(0),
        V,
        8,
        1,
        V | 1,
        // a read at 8*m*it + 8*v1 (row i-1) and 16*m + 8*m*it + 8*v1 (row i+1)
        2,
        1,
        8,
        2,
        8,
        2,
        arg32(0),
        V,
        8,
        1,
        V | 1,
        2,
        1,
        8,
        3,
        16,
        1,
        arg32(0),
        8,
        2,
        arg32(0),
        V,
        8,
        1,
        V | 1,
    ])
    .unwrap();
    let secs = [None, sec(8 * m * m), sec(8 * m * m)];
    let r = t.evaluate(&[m], 10..20, &secs); // rows 11 .. 20
    let row = 8 * m;
    // Reads: rows 10 .. 21 (the halo rows), from column 1 of the first to m-2 of the last.
    assert_eq!(r[2].read, set(&[(10 * row + 8, 22 * row - 8)]));
    assert_eq!(r[1].written, set(&[(11 * row + 8, 20 * row + 8 * (m - 1))]));
}

/// collapse(2) over i < n, j < m: it / m and it % m. a[i*m + j] written.
#[test]
fn collapsed_loops_move_whole_rows() {
    let m = 10u64;
    let t = AccessTable::decode(&[
        1,
        3,
        1,
        1, // 3 variables: it
        2,
        1,
        1,
        1,
        arg32(0), // it / m
        3,
        1,
        1,
        1,
        arg32(0), // it % m
        1,
        2,
        8,
        2,
        8,
        2,
        arg32(0),
        V | 1,
        8,
        1,
        V | 2, // 8*m*(it/m) + 8*(it%m)
    ])
    .unwrap();
    let r = t.evaluate(&[m], 25..47, &[None, sec(8 * 100)]);
    // rows 2 .. 4 whole
    assert_eq!(r[1].written, set(&[(8 * 20, 8 * 50)]));
    // a divisor that is not positive: the whole section
    let r = t.evaluate(&[0], 25..47, &[None, sec(800)]);
    assert_eq!(r[1].written, set(&[(0, 800)]));
}

#[test]
fn whole_section_and_arguments_read_at_their_width() {
    // argument 1 whole (an indirect subscript); argument 2 at 4*arg0 (arg0 an int: -1 is -1).
    let t = AccessTable::decode(&[1, 1, 2, 1, 1, 1 | 4, 8, 2, 1, 4, 1, 4, 1, arg32(0)]).unwrap();
    let secs = [None, sec(64), sec(64)];
    let r = t.evaluate(&[0xffff_ffff], 0..4, &secs);
    assert_eq!(r[1].read, set(&[(0, 64)]));
    // 4 * -1 = -4: clamped to the section: [0, 0)
    assert!(r[2].read.is_empty());
    let r = t.evaluate(&[3], 0..4, &secs);
    assert_eq!(r[2].read, set(&[(12, 16)]));
}

#[test]
fn malformed_tables_are_refused() {
    assert!(AccessTable::decode(&[]).is_err());
    assert!(AccessTable::decode(&[4, 0, 0])
        .unwrap_err()
        .contains("version 4"));
    assert!(AccessTable::decode(&[1, 1, 0, 9])
        .unwrap_err()
        .contains("unknown kind"));
    assert!(
        AccessTable::decode(&[1, 1, 1, 1, 0, 1, 8, 1, 1, 1, 4 << 40])
            .unwrap_err()
            .contains("unknown factor")
    );
    assert!(AccessTable::decode(&[1, 0, 0, 7])
        .unwrap_err()
        .contains("left over"));
    assert!(AccessTable::decode(&[1, -1, 0]).is_err());
}

#[test]
fn a_variable_that_cannot_be_bounded_widens_only_its_accesses() {
    // variable 1: it % arg0, unused by the access at 8*it
    let t = AccessTable::decode(&[1, 2, 1, 1, 3, 1, 1, 1, arg32(0), 1, 1, 8, 1, 8, 1, V]).unwrap();
    let r = t.evaluate(&[0], 2..4, &[None, sec(800)]);
    assert_eq!(r[1].read, set(&[(16, 32)]));
}

/// collapse(3): i = it / 12, the middle index j = (it % 12) / 4 (version 2's kind 5); a store
/// at 8*j.
fn collapse3_middle_index() -> AccessTable {
    AccessTable::decode(&[
        2,
        4,
        1, // version 2, 4 variables, 1 access
        1, // v0: the iteration
        2,
        1,
        12,
        0, // v1: it / 12
        3,
        1,
        12,
        0, // v2: it % 12
        5,
        2,
        1,
        4,
        0, // v3: v2 / 4
        0,
        2,
        8,
        1,
        8,
        1,
        V | 3, // argument 0 written [8*v3, +8)
    ])
    .unwrap()
}

#[test]
fn a_collapsed_middle_index_is_bounded_through_its_remainder() {
    let t = collapse3_middle_index();
    // A whole plane: j in 0..=2.
    assert_eq!(
        t.evaluate(&[], 12..24, &[sec(800)])[0].written,
        set(&[(0, 24)])
    );
    // Iterations 13 and 14 of plane 1: remainders 1..=2, j = 0 only.
    assert_eq!(
        t.evaluate(&[], 13..15, &[sec(800)])[0].written,
        set(&[(0, 8)])
    );
    // Across a plane boundary the remainder wraps: every j.
    assert_eq!(
        t.evaluate(&[], 10..14, &[sec(800)])[0].written,
        set(&[(0, 24)])
    );
    assert_eq!(t.outer_divisor(&[]), Some(12));
    // A quotient of the iteration itself must be kind 2, and of an earlier variable only.
    assert!(AccessTable::decode(&[2, 2, 0, 1, 5, 0, 1, 4, 0]).is_err());
    assert!(AccessTable::decode(&[2, 2, 0, 1, 5, 1, 1, 4, 0]).is_err());
    // Version 1 tables still decode; version 3 does not.
    assert!(AccessTable::decode(&[1, 1, 0, 1]).is_ok());
    assert!(AccessTable::decode(&[3, 1, 0, 1]).is_err());
}

#[test]
fn reach_over_the_whole_loop() {
    // What access_maps.rs maps: the hull from the kernel's pointer, not clamped to a section.
    let t = stencil_1d();
    let n = 1000u64;
    assert_eq!(
        t.reach(&[n], 0..n - 2, 2),
        Reach::Bytes {
            lo: 0,
            hi: 8 * 1000,
            read: true,
            write: false
        }
    );
    assert_eq!(
        t.reach(&[n], 0..n - 2, 1),
        Reach::Bytes {
            lo: 8,
            hi: 8 * 999,
            read: false,
            write: true
        }
    );
    // Not named by the table, or no iterations: untouched.
    assert_eq!(t.reach(&[n], 0..n - 2, 0), Reach::Untouched);
    assert_eq!(t.reach(&[n], 0..0, 2), Reach::Untouched);
    // A whole-section access is unknown.
    let w = AccessTable::decode(&[1, 1, 1, 1, 1, 5, 8]).unwrap();
    assert_eq!(w.reach(&[n], 0..10, 1), Reach::Unknown { whole: true });
}

#[test]
fn reach_with_an_argument_coefficient_and_overflow() {
    // a[i * s] (s: argument 0, a 64-bit long): written [8*s*i, 8*s*i + 8).
    let t = AccessTable::decode(&[1, 1, 1, 1, 1, 2, 8, 1, 8, 2, P | 64 << 20, V]).unwrap();
    assert_eq!(
        t.reach(&[3], 0..4, 1),
        Reach::Bytes {
            lo: 0,
            hi: 8 * 3 * 3 + 8,
            read: false,
            write: true
        }
    );
    // A negative stride reaches below the pointer.
    assert_eq!(
        t.reach(&[(-2i64) as u64], 0..4, 1),
        Reach::Bytes {
            lo: -48,
            hi: 8,
            read: false,
            write: true
        }
    );
    // Bounds past what the evaluator represents: unknown, never wrapped.
    assert_eq!(
        t.reach(&[i64::MAX as u64], 0..u64::MAX, 1),
        Reach::Unknown { whole: false }
    );
}

/// y[it * m] = ... with m = argument 0 & 0x7fffffff (a masked `int`), the subscript computed in
/// `int` (a guard: 4*it*m must stay in 32 bits): version 3.
fn masked_and_guarded() -> AccessTable {
    let m = 3 << 40 | 31 << 20;
    AccessTable::decode(&[
        3, 1, 1, 1, // version 3, 1 variable, 1 access; variable 0: the iteration
        1, 2, 4, 1, 4, 2, m, V, // y: written [4*m*it, +4)
        1, 32, 1, 1, 2, m, V, // one guard: it*m in 32 bits
    ])
    .unwrap()
}

#[test]
fn a_masked_argument_is_its_low_bits_zero_extended() {
    let t = masked_and_guarded();
    let secs = [None, sec(1 << 20)];
    // Bit 31 and the high word of the argument are not m's: m = 5.
    let m = 0xffff_ffff_8000_0005u64;
    let r = t.evaluate(&[m], 2..4, &secs);
    assert_eq!(r[1].written, set(&[(4 * 5 * 2, 4 * 5 * 3 + 4)]));
}

#[test]
fn a_guard_out_of_its_range_makes_every_access_whole() {
    let t = masked_and_guarded();
    let bytes = 1u64 << 40;
    let secs = [None, sec(bytes)];
    let m = 1u64 << 20;
    // it*m < 2^31 for it < 2048: exact.
    assert_eq!(
        t.evaluate(&[m], 0..2048, &secs)[1].written,
        set(&[(0, 4 * (m * 2047) + 4)])
    );
    // it = 2048 makes it*m 2^31: the kernel's int wraps there, so the offsets may be wrong.
    assert_eq!(
        t.evaluate(&[m], 0..2049, &secs)[1].written,
        set(&[(0, bytes)])
    );
    assert_eq!(t.reach(&[m], 0..2049, 1), Reach::Unknown { whole: false });
    assert!(matches!(t.reach(&[m], 0..2048, 1), Reach::Bytes { .. }));
}

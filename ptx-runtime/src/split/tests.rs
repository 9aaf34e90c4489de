use super::*;

#[test]
fn equal_weights_split_evenly_with_the_remainder_spread() {
    assert_eq!(partition(10, &[1, 1, 1]), vec![0..3, 3..6, 6..10]);
    assert_eq!(partition(12, &[1, 1, 1, 1]), vec![0..3, 3..6, 6..9, 9..12]);
    assert_eq!(partition(7, &[1]), vec![0..7]);
    // Fewer iterations than devices: some devices get none.
    assert_eq!(partition(2, &[1, 1, 1, 1]), vec![0..0, 0..1, 1..1, 1..2]);
    assert_eq!(partition(0, &[1, 1]), vec![0..0, 0..0]);
}

#[test]
fn weights_size_the_blocks() {
    assert_eq!(partition(100, &[2, 1, 1]), vec![0..50, 50..75, 75..100]);
    assert_eq!(partition(100, &[0, 1, 3]), vec![0..0, 0..25, 25..100]);
    // Huge trip counts do not overflow.
    let p = partition(u64::MAX, &[1, MAX_WEIGHT]);
    assert_eq!(p[0].start, 0);
    assert_eq!(p[1].end, u64::MAX);
    assert_eq!(p[0].end, p[1].start);
}

#[test]
fn blocks_cover_the_space_in_order() {
    for trips in [0u64, 1, 5, 97, 1000, 1 << 33] {
        for weights in [vec![1], vec![1, 1], vec![3, 1, 2], vec![1, 0, 1, 7]] {
            let p = partition(trips, &weights);
            assert_eq!(p.len(), weights.len());
            assert_eq!(p[0].start, 0);
            assert_eq!(p.last().unwrap().end, trips);
            for w in p.windows(2) {
                assert_eq!(w[0].end, w[1].start);
            }
            for (r, &w) in p.iter().zip(&weights) {
                if w == 0 {
                    assert!(r.is_empty());
                }
            }
        }
    }
}

#[test]
fn weights_from_the_environment() {
    assert_eq!(parse_weights(None, 3), Ok(vec![1, 1, 1]));
    assert_eq!(parse_weights(Some(" "), 2), Ok(vec![1, 1]));
    assert_eq!(parse_weights(Some("2, 1,1"), 3), Ok(vec![2, 1, 1]));
    let e = parse_weights(Some("2,1"), 3).unwrap_err();
    assert!(e.contains("gives 2 weights for 3 devices"), "{e}");
    let e = parse_weights(Some("1,x"), 2).unwrap_err();
    assert!(e.contains("not a list of whole numbers"), "{e}");
    let e = parse_weights(Some("-1,2"), 2).unwrap_err();
    assert!(e.contains("not a list of whole numbers"), "{e}");
    let e = parse_weights(Some("0,0"), 2).unwrap_err();
    assert!(e.contains("every weight is 0"), "{e}");
    assert!(parse_weights(Some("1,2000000"), 2).is_err());
}

#[test]
fn split_mode() {
    assert_eq!(SplitMode::parse(None), Ok(SplitMode::On));
    assert_eq!(SplitMode::parse(Some("OFF")), Ok(SplitMode::Off));
    assert_eq!(SplitMode::parse(Some("0")), Ok(SplitMode::Off));
    assert_eq!(SplitMode::parse(Some("on")), Ok(SplitMode::On));
    assert!(SplitMode::parse(Some("maybe"))
        .unwrap_err()
        .contains("PTXRT_SPLIT=off"));
}

#[test]
fn blocks_align_to_whole_planes_when_each_part_keeps_one() {
    let b = partition(100, &[1, 1, 1]);
    assert_eq!(align_blocks(b, 10), vec![0..30, 30..70, 70..100]);
    assert_eq!(
        align_blocks(partition(25, &[1, 1]), 10),
        vec![0..10, 10..25]
    );
    // Fewer planes than parts, or no plane size: as they were.
    assert_eq!(
        align_blocks(partition(25, &[1, 1, 1]), 10),
        partition(25, &[1, 1, 1])
    );
    assert_eq!(
        align_blocks(partition(9, &[1, 1]), 1),
        partition(9, &[1, 1])
    );
    // Empty blocks stay empty, and the blocks still cover every iteration once.
    let b = align_blocks(partition(100, &[1, 0, 1]), 10);
    assert_eq!(b, vec![0..50, 50..50, 50..100]);
}

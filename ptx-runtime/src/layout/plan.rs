//! How one layout conversion moves elements: a permutation of an N-D array, split into the two
//! dimensions a tiled transpose works on (the source's innermost, the destination's innermost)
//! and the "batch" dimensions around them.
//!
//! Elements move in units of 8, 4 or 1 bytes (the largest that divides the element size); an
//! element of several units is one more innermost dimension that stays innermost.

/// Largest number of batch dimensions a conversion kernel takes (rank 8 + the unit dimension,
/// less the two tiled ones, rounded up).
pub const MAX_BATCH: usize = 7;

/// One dimension of the source walk: its extent, its stride in the source and in the
/// destination (in units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim {
    pub extent: u64,
    pub src_stride: u64,
    pub dst_stride: u64,
}

/// How the device kernel walks the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// The innermost dimension moves: 32×32 tiles of (a = source innermost, b = destination
    /// innermost) through shared memory, read along a and written along b (coalesced both ways).
    Tiled { a: Dim, b: Dim },
    /// The innermost dimension stays: rows of `row` units are copied as they are.
    Rows { row: Dim },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermutePlan {
    /// 8, 4 or 1.
    pub unit: u64,
    pub walk: Walk,
    /// The other dimensions, innermost first (the kernels decompose the batch index in this order).
    pub batch: Vec<Dim>,
    /// Units in the whole array.
    pub units: u64,
}

fn strides(extents: &[u64]) -> Vec<u64> {
    let mut s = vec![1u64; extents.len()];
    for d in (0..extents.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * extents[d + 1];
    }
    s
}

impl PermutePlan {
    /// The plan that moves an array of `dims` (row-major, `elem` bytes per element) into the
    /// layout where position p holds source dimension `order[p]` (0-based). `None` when the
    /// description is inconsistent (not a permutation, empty, too many dimensions).
    pub fn new(dims: &[u64], order: &[usize], elem: u64) -> Option<PermutePlan> {
        if dims.is_empty() || dims.len() != order.len() || elem == 0 {
            return None;
        }
        let mut seen = vec![false; dims.len()];
        for &o in order {
            if o >= dims.len() || seen[o] {
                return None;
            }
            seen[o] = true;
        }
        let unit = if elem.is_multiple_of(8) {
            8
        } else if elem.is_multiple_of(4) {
            4
        } else {
            1
        };
        let words = elem / unit;
        let mut extents: Vec<u64> = dims.to_vec();
        let mut order: Vec<usize> = order.to_vec();
        if words > 1 {
            extents.push(words);
            order.push(dims.len());
        }
        let src_strides = strides(&extents);
        let new_extents: Vec<u64> = order.iter().map(|&o| extents[o]).collect();
        let new_strides = strides(&new_extents);
        let mut dst_stride = vec![0u64; extents.len()];
        for (p, &o) in order.iter().enumerate() {
            dst_stride[o] = new_strides[p];
        }
        let dim = |d: usize| Dim {
            extent: extents[d],
            src_stride: src_strides[d],
            dst_stride: dst_stride[d],
        };
        let a = extents.len() - 1;
        let b = *order.last()?;
        let walk = if a == b {
            Walk::Rows { row: dim(a) }
        } else {
            Walk::Tiled {
                a: dim(a),
                b: dim(b),
            }
        };
        let batch: Vec<Dim> = (0..extents.len())
            .rev()
            .filter(|&d| d != a && d != b)
            .map(dim)
            .collect();
        if batch.len() > MAX_BATCH {
            return None;
        }
        Some(PermutePlan {
            unit,
            walk,
            batch,
            units: extents.iter().product(),
        })
    }

    /// Number of batch items (product of the batch extents).
    pub fn batch_count(&self) -> u64 {
        self.batch.iter().map(|d| d.extent).product()
    }

    /// The (source, destination) unit offsets of batch item `n`.
    pub fn batch_offsets(&self, mut n: u64) -> (u64, u64) {
        let (mut s, mut d) = (0, 0);
        for b in &self.batch {
            let r = n % b.extent;
            n /= b.extent;
            s += r * b.src_stride;
            d += r * b.dst_stride;
        }
        (s, d)
    }

    /// Calls `f(src_unit, dst_unit)` for every unit, in source order within each batch item
    /// (what the emulator does, and the reference for the tests).
    pub fn for_each(&self, mut f: impl FnMut(u64, u64)) {
        for n in 0..self.batch_count() {
            let (sb, db) = self.batch_offsets(n);
            match self.walk {
                Walk::Rows { row } => {
                    for x in 0..row.extent {
                        f(sb + x * row.src_stride, db + x * row.dst_stride);
                    }
                }
                Walk::Tiled { a, b } => {
                    for j in 0..b.extent {
                        for i in 0..a.extent {
                            f(
                                sb + j * b.src_stride + i * a.src_stride,
                                db + j * b.dst_stride + i * a.dst_stride,
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The short-dimension kernel's walk of a tiled plan (`transpose_ptx::short`), where one of a
/// and b is short and the other long. A batch of short transposes (Himeno's `[I][J][K][4]` →
/// `[I][J][4][K]`: I·J transposes of `[129][4]`) leaves most of each tile's long side idle when
/// the long extent is just over a power of two. Where the innermost batch dimension continues
/// the long one — in the source for b (`batch[0].src_stride == b.extent * b.src_stride`), in
/// the destination for a — the two are one dimension on that side, and the tile runs on across
/// batch items: the kernel walks the merged extent, and only the other side's address needs
/// the split (`long' / row`, `long' % row`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortWalk {
    /// a's extent (merged with the batch dimension when `merged_a`).
    pub na: u64,
    /// b's extent (merged with the batch dimension when `merged_b`).
    pub nb: u64,
    /// a merged: (a's own extent, the batch dimension's source stride); the merged a steps
    /// `a.dst_stride` in the destination.
    pub merged_a: Option<(u64, u64)>,
    /// b merged: (b's own extent, the batch dimension's destination stride); the merged b steps
    /// `b.src_stride` in the source.
    pub merged_b: Option<(u64, u64)>,
    /// The batch dimensions left, innermost first.
    pub batch: Vec<Dim>,
}

impl ShortWalk {
    /// The walk of a tiled plan (`a`, `b`): merged where the innermost batch dimension
    /// continues the longer of the two, and the merged extent keeps the kernel's 32-bit
    /// division and its grid (`max_long` tiles' worth) in range.
    pub fn of(plan: &PermutePlan, a: Dim, b: Dim, max_long: u64) -> ShortWalk {
        let plain = ShortWalk {
            na: a.extent,
            nb: b.extent,
            merged_a: None,
            merged_b: None,
            batch: plan.batch.clone(),
        };
        let Some(&next) = plan.batch.first() else {
            return plain;
        };
        let rest = plan.batch[1..].to_vec();
        let fits = |n: u64| n <= max_long && n <= u32::MAX as u64;
        if a.extent <= b.extent {
            let n = next.extent * b.extent;
            if next.src_stride == b.extent * b.src_stride && fits(n) {
                return ShortWalk {
                    nb: n,
                    merged_b: Some((b.extent, next.dst_stride)),
                    batch: rest,
                    ..plain
                };
            }
        } else {
            let n = next.extent * a.extent;
            if next.dst_stride == a.extent * a.dst_stride && fits(n) {
                return ShortWalk {
                    na: n,
                    merged_a: Some((a.extent, next.src_stride)),
                    batch: rest,
                    ..plain
                };
            }
        }
        plain
    }

    /// Batch items the kernel walks (product of the batch extents left).
    pub fn batch_count(&self) -> u64 {
        self.batch.iter().map(|d| d.extent).product()
    }

    /// The (source, destination) unit offsets of (a, b) in batch item `n`, as the kernel
    /// computes them (the reference for the tests).
    pub fn offsets(&self, a: Dim, b: Dim, i: u64, j: u64, mut n: u64) -> (u64, u64) {
        let (mut s, mut d) = (0, 0);
        for x in &self.batch {
            let r = n % x.extent;
            n /= x.extent;
            s += r * x.src_stride;
            d += r * x.dst_stride;
        }
        let a_src = match self.merged_a {
            Some((row, next)) => (i / row) * next + (i % row) * a.src_stride,
            None => i * a.src_stride,
        };
        let b_dst = match self.merged_b {
            Some((row, next)) => (j / row) * next + (j % row) * b.dst_stride,
            None => j * b.dst_stride,
        };
        (s + a_src + j * b.src_stride, d + i * a.dst_stride + b_dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every element lands where the permuted multi-index says.
    fn check(dims: &[u64], order: &[usize], elem: u64) {
        let p = PermutePlan::new(dims, order, elem).expect("plan");
        let n: u64 = dims.iter().product::<u64>() * (elem / p.unit);
        assert_eq!(p.units, n);
        let mut hit = vec![0u32; n as usize];
        let mut seen_src = vec![0u32; n as usize];
        p.for_each(|s, d| {
            hit[d as usize] += 1;
            seen_src[s as usize] += 1;
        });
        assert!(hit.iter().all(|&h| h == 1), "{dims:?} {order:?}");
        assert!(seen_src.iter().all(|&h| h == 1));
        // Element (i,j,k) of the source lands at the permuted index.
        let words = elem / p.unit;
        let new_dims: Vec<u64> = order.iter().map(|&o| dims[o]).collect();
        let total: u64 = dims.iter().product();
        let mut moved = vec![u64::MAX; n as usize];
        p.for_each(|s, d| moved[s as usize] = d);
        for lin in 0..total {
            let mut idx = vec![0u64; dims.len()];
            let mut r = lin;
            for d in (0..dims.len()).rev() {
                idx[d] = r % dims[d];
                r /= dims[d];
            }
            let mut nl = 0;
            for (p2, &o) in order.iter().enumerate() {
                nl = nl * new_dims[p2] + idx[o];
            }
            for w in 0..words {
                assert_eq!(moved[(lin * words + w) as usize], nl * words + w);
            }
        }
    }

    #[test]
    fn permutations() {
        check(&[4, 3, 5], &[0, 2, 1], 8);
        check(&[4, 3, 5], &[2, 1, 0], 4);
        check(&[4, 3, 5], &[1, 0, 2], 8);
        check(&[2, 3, 5, 4], &[0, 1, 3, 2], 8);
        check(&[2, 3, 5, 4], &[3, 0, 1, 2], 16);
        check(&[7, 9], &[1, 0], 2);
        check(&[6], &[0], 12);
    }

    /// The short kernel's walk, merged or not, moves every unit where the plan does.
    fn check_short(dims: &[u64], order: &[usize], elem: u64, merged: bool) {
        let p = PermutePlan::new(dims, order, elem).expect("plan");
        let Walk::Tiled { a, b } = p.walk else {
            panic!("{dims:?} {order:?}: not a tiled walk");
        };
        let w = ShortWalk::of(&p, a, b, u64::MAX);
        assert_eq!(
            w.merged_a.is_some() || w.merged_b.is_some(),
            merged,
            "{dims:?} {order:?}: {w:?}"
        );
        let mut want = vec![u64::MAX; p.units as usize];
        p.for_each(|s, d| want[s as usize] = d);
        let mut got = vec![u64::MAX; p.units as usize];
        for n in 0..w.batch_count() {
            for j in 0..w.nb {
                for i in 0..w.na {
                    let (s, d) = w.offsets(a, b, i, j, n);
                    assert_eq!(
                        got[s as usize],
                        u64::MAX,
                        "{dims:?} {order:?}: unit {s} twice"
                    );
                    got[s as usize] = d;
                }
            }
        }
        assert_eq!(got, want, "{dims:?} {order:?}");
    }

    #[test]
    fn short_walks_run_across_batch_items() {
        // Himeno's coefficients there and back: the long k merged with j (and the 4 short).
        check_short(&[3, 5, 129, 4], &[0, 1, 3, 2], 4, true);
        check_short(&[3, 5, 4, 129], &[0, 1, 3, 2], 4, true);
        check_short(&[3, 5, 33, 4], &[0, 1, 3, 2], 8, true);
        check_short(&[3, 5, 4, 33], &[0, 1, 3, 2], 8, true);
        // An array of structs made one array per field, and back: no batch to merge.
        check_short(&[100, 3], &[1, 0], 8, false);
        check_short(&[3, 100], &[1, 0], 8, false);
        // A full reversal: the batch dimension continues neither side.
        check_short(&[2, 9, 3], &[2, 1, 0], 4, false);
        // A rotation: a (the 9) continues its batch dimension (the 4) in the destination too.
        check_short(&[5, 4, 9], &[1, 2, 0], 4, true);
    }

    #[test]
    fn short_walks_stay_in_range() {
        let p = PermutePlan::new(&[3, 5, 129, 4], &[0, 1, 3, 2], 4).expect("plan");
        let Walk::Tiled { a, b } = p.walk else {
            panic!("not tiled");
        };
        assert!(ShortWalk::of(&p, a, b, 5 * 129).merged_b.is_some());
        let w = ShortWalk::of(&p, a, b, 5 * 129 - 1);
        assert_eq!((w.merged_b, w.nb, w.batch.len()), (None, 129, 2));
    }

    #[test]
    fn rejects() {
        assert!(PermutePlan::new(&[2, 3], &[0, 0], 8).is_none());
        assert!(PermutePlan::new(&[2, 3], &[0, 2], 8).is_none());
        assert!(PermutePlan::new(&[2, 3], &[0], 8).is_none());
        assert!(PermutePlan::new(&[], &[], 8).is_none());
    }
}

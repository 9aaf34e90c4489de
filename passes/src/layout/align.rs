//! The alignment of rewritten addresses.
//!
//! clang states each access's alignment for its place in the original layout; in the device
//! layout that place moves, so the rewrite gives every access the alignment its new offset
//! proves: the largest power of two dividing each of its terms (a variable subscript's byte
//! stride, a constant subscript's whole product), and no more than the device copy's start.
//!
//! What the start has in general is the element's own alignment: a converted copy begins
//! where its data clause put it, its host offset in its object modulo 64 past a 256-byte
//! boundary (ptx-runtime/src/mapping), and for an array member at offset 4 that is 4. Where an
//! access gains from more, the rewrite assumes [`ASSUMED`] bytes: a device layout whose
//! innermost dimension is short and read whole by one thread (`a[4][I][J][K]` laid out as
//! `[I][J][K][4]`), whose loads merge into one `ld.global.v4.f32` only at a 16-byte boundary
//! (the load-store vectoriser takes the first load's alignment for the vector). The assumption
//! goes into the directive's description (`@16`, `desc.rs`) and libptxrt checks the copy's
//! start at every launch of a kernel compiled for it: a misaligned copy stops the program with
//! an error naming the array, never a misaligned vector access.
//!
//! ```llvm
//! ; trans transpose(a[0:4][0:33][0:33][0:65], [4,1,2,3]): a[c][i][j][k] → a[i][j][k][c]
//! %e0 = getelementptr inbounds [33 x [65 x [4 x float]]], ptr %a, i64 %i, i64 %j, i64 %k, i64 0
//! %v0 = load float, ptr %e0, align 16        ; 16 (the start) ∧ 16·{i,j,k} terms
//! %e1 = getelementptr inbounds [33 x [65 x [4 x float]]], ptr %a, i64 %i, i64 %j, i64 %k, i64 1
//! %v1 = load float, ptr %e1, align 4         ; the constant term, 4 bytes
//! ```

/// The start alignment the rewrite assumes (and libptxrt checks) when an access gains from
/// more than its element's: the widest PTX vector access, `ld.v4.f32` / `ld.v2.f64`.
pub const ASSUMED: u64 = 16;

/// The largest alignment an LLVM access carries (2^12, as the rewrite always capped it).
const MAX: u64 = 1 << 12;

/// The alignment an element of `elem` bytes has by itself (the start's, at the least).
pub fn natural(elem: u64) -> u64 {
    1 << elem.trailing_zeros().min(12)
}

/// The largest power of two (at most 2^12) dividing an offset made of `terms`: a subscript
/// (its value when it is a constant, None when it varies) times a stride in bytes.
pub fn offset_divisor(terms: impl IntoIterator<Item = (Option<i64>, u64)>) -> u64 {
    terms
        .into_iter()
        .map(|(value, stride)| match value {
            Some(c) => (c as u64).wrapping_mul(stride),
            None => stride,
        })
        .filter(|&bytes| bytes != 0)
        .map(|bytes| 1u64 << bytes.trailing_zeros().min(12))
        .min()
        .unwrap_or(MAX)
}

/// The alignment of an access at an offset of `divisor` from a start aligned to `start`.
pub fn at_offset(start: u64, divisor: u64) -> u64 {
    start.min(divisor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisors() {
        // [33][33][65][4] floats: i, j, k vary (strides 34320, 1040, 16 bytes), c constant.
        let at = |c: i64| offset_divisor([(None, 34320), (None, 1040), (None, 16), (Some(c), 4)]);
        assert_eq!(at(0), 16);
        assert_eq!(at(1), 4);
        assert_eq!(at(2), 8);
        assert_eq!(at(3), 4);
        // A variable innermost subscript: the element's stride.
        assert_eq!(offset_divisor([(None, 4 * 65), (None, 4)]), 4);
        // Element 0: nothing but the start.
        assert_eq!(offset_divisor([]), MAX);
        assert_eq!(offset_divisor([(Some(0), 16)]), MAX);
        // A negative constant (a halo read) divides as its magnitude does.
        assert_eq!(offset_divisor([(Some(-2), 8)]), 16);
        assert_eq!(at_offset(ASSUMED, at(0)), 16);
        assert_eq!(at_offset(natural(4), at(0)), 4);
        assert_eq!(natural(12), 4);
        assert_eq!(natural(8), 8);
    }
}

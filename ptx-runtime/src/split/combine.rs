//! The arguments of a split loop whose parts are combined, not merged (reductions, atomic
//! updates: the compiler's `split_range::combine` finds them). Each device's copy starts at the
//! identity of the operation; after the parts ran, the host folds them into its own value in
//! device order, element by element:
//!
//! ```text
//!   s = 1.5 (host), reduction(+: s) over 3 devices: copies start at 0.0,
//!   parts end with 10, 20, 30 → s = ((1.5 + 10) + 20) + 30
//! ```
//!
//! Floating-point `min`/`max` are exact whatever the order; `+` and `*` on floating point fold
//! in device order: the same answer every run, possibly not the serial one's last bits.

/// `ptxrt_combine_op`'s operation and element (`ptxcc_abi::combine`). Products
/// (`reduction(*: p)`) fold in device order, so a floating-point product is the same every run
/// but may differ from the serial one in the last bits, as `+` may; `&&` and `||` on integers
/// give 1 or 0 (`x != 0 && y != 0`).
pub use ptxcc_abi::combine::{CombineOp as Op, Elem};

/// One combined argument of a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combine {
    /// Index of the kernel parameter.
    pub param: usize,
    pub op: Op,
    pub elem: Elem,
}

impl Combine {
    /// From `ptxrt_split_combine` (None: an operation or element this runtime does not know).
    pub fn from_abi(param: u32, op: u32) -> Option<Combine> {
        let (o, elem) = ptxcc_abi::combine::decode(op)?;
        Some(Combine {
            param: param as usize,
            op: o,
            elem,
        })
    }

    /// The identity of the operation, as the element's bytes.
    pub fn identity(&self) -> Vec<u8> {
        use Elem::*;
        use Op::*;
        match (self.op, self.elem) {
            (Add | Or | Xor, _) => vec![0; self.elem.bytes()],
            (Mul | LogicalAnd, I32 | U32) => 1u32.to_ne_bytes().to_vec(),
            (Mul | LogicalAnd, I64 | U64) => 1u64.to_ne_bytes().to_vec(),
            // Refused by from_abi for floating point.
            (LogicalAnd, F32) => 1f32.to_ne_bytes().to_vec(),
            (LogicalAnd, F64) => 1f64.to_ne_bytes().to_vec(),
            (LogicalOr, _) => vec![0; self.elem.bytes()],
            (Mul, F32) => 1f32.to_ne_bytes().to_vec(),
            (Mul, F64) => 1f64.to_ne_bytes().to_vec(),
            (And, _) => vec![0xff; self.elem.bytes()],
            (Min, I32) => i32::MAX.to_ne_bytes().to_vec(),
            (Min, I64) => i64::MAX.to_ne_bytes().to_vec(),
            (Min, U32) => u32::MAX.to_ne_bytes().to_vec(),
            (Min, U64) => u64::MAX.to_ne_bytes().to_vec(),
            (Min, F32) => f32::INFINITY.to_ne_bytes().to_vec(),
            (Min, F64) => f64::INFINITY.to_ne_bytes().to_vec(),
            (Max, I32) => i32::MIN.to_ne_bytes().to_vec(),
            (Max, I64) => i64::MIN.to_ne_bytes().to_vec(),
            (Max, U32 | U64) => vec![0; self.elem.bytes()],
            (Max, F32) => f32::NEG_INFINITY.to_ne_bytes().to_vec(),
            (Max, F64) => f64::NEG_INFINITY.to_ne_bytes().to_vec(),
        }
    }

    /// `acc[i] = acc[i] op part[i]` for every element (`acc` and `part` of the same length, a
    /// multiple of the element's size).
    pub fn fold(&self, acc: &mut [u8], part: &[u8]) {
        let n = self.elem.bytes();
        for (a, p) in acc.chunks_exact_mut(n).zip(part.chunks_exact(n)) {
            macro_rules! int {
                ($t:ty) => {{
                    let x = <$t>::from_ne_bytes(a.try_into().unwrap_or_default());
                    let y = <$t>::from_ne_bytes(p.try_into().unwrap_or_default());
                    let r = match self.op {
                        Op::Add => x.wrapping_add(y),
                        Op::Min => x.min(y),
                        Op::Max => x.max(y),
                        Op::And => x & y,
                        Op::Or => x | y,
                        Op::Xor => x ^ y,
                        Op::Mul => x.wrapping_mul(y),
                        Op::LogicalAnd => (x != 0 && y != 0) as $t,
                        Op::LogicalOr => (x != 0 || y != 0) as $t,
                    };
                    a.copy_from_slice(&r.to_ne_bytes());
                }};
            }
            macro_rules! float {
                ($t:ty) => {{
                    let x = <$t>::from_ne_bytes(a.try_into().unwrap_or_default());
                    let y = <$t>::from_ne_bytes(p.try_into().unwrap_or_default());
                    let r = match self.op {
                        Op::Add => x + y,
                        Op::Min => x.min(y),
                        Op::Max => x.max(y),
                        Op::Mul => x * y,
                        // Refused by from_abi.
                        Op::And | Op::Or | Op::Xor | Op::LogicalAnd | Op::LogicalOr => x,
                    };
                    a.copy_from_slice(&r.to_ne_bytes());
                }};
            }
            match self.elem {
                Elem::I32 => int!(i32),
                Elem::I64 => int!(i64),
                Elem::U32 => int!(u32),
                Elem::U64 => int!(u64),
                Elem::F32 => float!(f32),
                Elem::F64 => float!(f64),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(op: u32) -> Combine {
        Combine::from_abi(0, op).expect("known op")
    }

    #[test]
    fn decodes_the_abi() {
        assert_eq!(
            Combine::from_abi(2, 1 | 6 << 8),
            Some(Combine {
                param: 2,
                op: Op::Add,
                elem: Elem::F64
            })
        );
        assert_eq!(Combine::from_abi(0, 10 | 1 << 8), None);
        assert_eq!(Combine::from_abi(0, 1 | 9 << 8), None);
        assert_eq!(Combine::from_abi(0, 4 | 6 << 8), None, "no & on doubles");
    }

    #[test]
    fn folds_in_order_from_the_identity() {
        let add = c(1 | 6 << 8);
        let mut acc = 1.5f64.to_ne_bytes().to_vec();
        for part in [10.0f64, 20.0, 30.0] {
            add.fold(&mut acc, &part.to_ne_bytes());
        }
        assert_eq!(f64::from_ne_bytes(acc[..8].try_into().unwrap()), 61.5);
        let max = c(3 | 1 << 8);
        let id = max.identity();
        assert_eq!(i32::from_ne_bytes(id[..4].try_into().unwrap()), i32::MIN);
        let mut acc = (-5i32).to_ne_bytes().to_vec();
        max.fold(&mut acc, &id);
        assert_eq!(i32::from_ne_bytes(acc[..4].try_into().unwrap()), -5);
        max.fold(&mut acc, &7i32.to_ne_bytes());
        assert_eq!(i32::from_ne_bytes(acc[..4].try_into().unwrap()), 7);
    }

    #[test]
    fn folds_every_element_of_an_array() {
        let add = c(1 | 3 << 8);
        let mut acc: Vec<u8> = [1u32, 2, 3].iter().flat_map(|v| v.to_ne_bytes()).collect();
        let part: Vec<u8> = [10u32, 0, 5].iter().flat_map(|v| v.to_ne_bytes()).collect();
        add.fold(&mut acc, &part);
        let got: Vec<u32> = acc
            .chunks(4)
            .map(|b| u32::from_ne_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(got, [11, 2, 8]);
        let umin = c(2 | 4 << 8);
        assert_eq!(umin.identity(), u64::MAX.to_ne_bytes());
        let and = c(4 | 2 << 8);
        assert_eq!(and.identity(), vec![0xff; 8]);
    }

    #[test]
    fn floating_point_min_max_and_products() {
        let f = |b: &[u8]| f64::from_ne_bytes(b[..8].try_into().unwrap());
        let min = c(2 | 6 << 8);
        assert_eq!(f(&min.identity()), f64::INFINITY);
        let mut acc = 3.5f64.to_ne_bytes().to_vec();
        for part in [f64::INFINITY, 2.25, 7.0] {
            min.fold(&mut acc, &part.to_ne_bytes());
        }
        assert_eq!(f(&acc), 2.25);
        let max = c(3 | 5 << 8);
        assert_eq!(
            f32::from_ne_bytes(max.identity()[..4].try_into().unwrap()),
            f32::NEG_INFINITY
        );
        // Products: from 1, in device order (the host's value first).
        let mul = c(7 | 6 << 8);
        assert_eq!(f(&mul.identity()), 1.0);
        let mut acc = 2.0f64.to_ne_bytes().to_vec();
        for part in [1.5f64, 1.0, 0.25] {
            mul.fold(&mut acc, &part.to_ne_bytes());
        }
        assert_eq!(f(&acc), ((2.0 * 1.5) * 1.0) * 0.25);
        let imul = c(7 | 1 << 8);
        assert_eq!(imul.identity(), 1i32.to_ne_bytes());
        let mut acc = 3i32.to_ne_bytes().to_vec();
        imul.fold(&mut acc, &(-4i32).to_ne_bytes());
        assert_eq!(i32::from_ne_bytes(acc[..4].try_into().unwrap()), -12);
        // && and || from 1 and 0, giving 1 or 0.
        let land = c(8 | 1 << 8);
        assert_eq!(land.identity(), 1i32.to_ne_bytes());
        let mut acc = 5i32.to_ne_bytes().to_vec();
        land.fold(&mut acc, &1i32.to_ne_bytes());
        assert_eq!(i32::from_ne_bytes(acc[..4].try_into().unwrap()), 1);
        land.fold(&mut acc, &0i32.to_ne_bytes());
        assert_eq!(i32::from_ne_bytes(acc[..4].try_into().unwrap()), 0);
        let lor = c(9 | 1 << 8);
        assert_eq!(lor.identity(), 0i32.to_ne_bytes());
        assert_eq!(Combine::from_abi(0, 9 | 6 << 8), None, "no || on doubles");
    }
}

//! `ptxrt_combine_op`: how the parts of a split loop's combined argument (a reduction, an
//! atomic update) fold together. The low byte is the operation, the next byte the element.

/// The operation (`ptxrt_combine_op` low byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CombineOp {
    Add = 1,
    Min = 2,
    Max = 3,
    And = 4,
    Or = 5,
    Xor = 6,
    /// Products (`reduction(*: p)`).
    Mul = 7,
    /// `&&` and `||` on integers: 1 or 0.
    LogicalAnd = 8,
    LogicalOr = 9,
}

/// The element (`ptxrt_combine_op` second byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    I32 = 1,
    I64 = 2,
    U32 = 3,
    U64 = 4,
    F32 = 5,
    F64 = 6,
}

impl CombineOp {
    const ALL: [CombineOp; 9] = [
        CombineOp::Add,
        CombineOp::Min,
        CombineOp::Max,
        CombineOp::And,
        CombineOp::Or,
        CombineOp::Xor,
        CombineOp::Mul,
        CombineOp::LogicalAnd,
        CombineOp::LogicalOr,
    ];

    /// As in a reduction clause.
    pub fn symbol(self) -> &'static str {
        match self {
            CombineOp::Add => "+",
            CombineOp::Min => "min",
            CombineOp::Max => "max",
            CombineOp::And => "&",
            CombineOp::Or => "|",
            CombineOp::Xor => "^",
            CombineOp::Mul => "*",
            CombineOp::LogicalAnd => "&&",
            CombineOp::LogicalOr => "||",
        }
    }

    /// Bitwise and logical operations have no floating-point form.
    pub fn takes_floating_point(self) -> bool {
        !matches!(
            self,
            CombineOp::And
                | CombineOp::Or
                | CombineOp::Xor
                | CombineOp::LogicalAnd
                | CombineOp::LogicalOr
        )
    }
}

impl Elem {
    const ALL: [Elem; 6] = [
        Elem::I32,
        Elem::I64,
        Elem::U32,
        Elem::U64,
        Elem::F32,
        Elem::F64,
    ];

    pub fn bytes(self) -> usize {
        match self {
            Elem::I32 | Elem::U32 | Elem::F32 => 4,
            Elem::I64 | Elem::U64 | Elem::F64 => 8,
        }
    }

    pub fn is_floating_point(self) -> bool {
        matches!(self, Elem::F32 | Elem::F64)
    }
}

/// The `ptxrt_combine_op` word of `op` on `elem`.
pub fn encode(op: CombineOp, elem: Elem) -> u32 {
    op as u32 | (elem as u32) << 8
}

/// The operation and element of a `ptxrt_combine_op` word (None: a code this version does not
/// know, or a bitwise or logical operation on floating point).
pub fn decode(word: u32) -> Option<(CombineOp, Elem)> {
    let op = *CombineOp::ALL.iter().find(|o| **o as u32 == word & 0xff)?;
    let elem = *Elem::ALL
        .iter()
        .find(|e| **e as u32 == (word >> 8) & 0xff)?;
    if elem.is_floating_point() && !op.takes_floating_point() {
        return None;
    }
    Some((op, elem))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_valid_pair_round_trips() {
        for op in CombineOp::ALL {
            for elem in Elem::ALL {
                let want =
                    (!elem.is_floating_point() || op.takes_floating_point()).then_some((op, elem));
                assert_eq!(decode(encode(op, elem)), want, "{op:?} on {elem:?}");
            }
        }
    }

    #[test]
    fn unknown_codes_are_refused() {
        assert_eq!(decode(0), None);
        assert_eq!(decode(10 | 1 << 8), None);
        assert_eq!(decode(1 | 7 << 8), None);
        assert_eq!(
            decode(encode(CombineOp::Add, Elem::F64)),
            Some((CombineOp::Add, Elem::F64))
        );
    }
}

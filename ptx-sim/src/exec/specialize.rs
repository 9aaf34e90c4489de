//! One compiled instance of `ops::int`, `ops::compare` and `ops::float` per operation and type,
//! picked when an instruction is decoded: the interpreter then calls straight into code in which
//! the operation and type are constants, instead of matching on them for every instruction.

use super::ops;
use crate::program::{Cmp, CvtMode, FloatOp, IntOp, Round, Ty};

pub type BinFn = fn(u64, u64) -> u64;
pub type UnFn = fn(u64) -> u64;
pub type CmpFn = fn(u64, u64) -> bool;

/// The enums in declaration order (their `as usize` values index these).
const INT_OPS: [IntOp; 19] = [
    IntOp::Add,
    IntOp::AddSat,
    IntOp::Sub,
    IntOp::SubSat,
    IntOp::MulLo,
    IntOp::MulHi,
    IntOp::MulWide,
    IntOp::Mul24Lo,
    IntOp::Div,
    IntOp::Rem,
    IntOp::Min,
    IntOp::Max,
    IntOp::And,
    IntOp::Or,
    IntOp::Xor,
    IntOp::Shl,
    IntOp::Shr,
    IntOp::BmskClamp,
    IntOp::BmskWrap,
];
const TYS: [Ty; 15] = [
    Ty::B8,
    Ty::B16,
    Ty::B32,
    Ty::B64,
    Ty::U8,
    Ty::U16,
    Ty::U32,
    Ty::U64,
    Ty::S8,
    Ty::S16,
    Ty::S32,
    Ty::S64,
    Ty::F32,
    Ty::F64,
    Ty::Pred,
];
const CMPS: [Cmp; 18] = [
    Cmp::Eq,
    Cmp::Ne,
    Cmp::Lt,
    Cmp::Le,
    Cmp::Gt,
    Cmp::Ge,
    Cmp::Lo,
    Cmp::Ls,
    Cmp::Hi,
    Cmp::Hs,
    Cmp::Equ,
    Cmp::Neu,
    Cmp::Ltu,
    Cmp::Leu,
    Cmp::Gtu,
    Cmp::Geu,
    Cmp::Num,
    Cmp::Nan,
];
const FLOAT_OPS: [FloatOp; 9] = [
    FloatOp::Add,
    FloatOp::Sub,
    FloatOp::Mul,
    FloatOp::Div,
    FloatOp::Min,
    FloatOp::Max,
    FloatOp::MinNaN,
    FloatOp::MaxNaN,
    FloatOp::Copysign,
];

fn int_instance<const OP: usize, const TY: usize>(a: u64, b: u64) -> u64 {
    ops::int(INT_OPS[OP], TYS[TY], a, b)
}

fn compare_instance<const OP: usize, const TY: usize>(a: u64, b: u64) -> bool {
    ops::compare(CMPS[OP], TYS[TY], false, a, b)
}

fn float_instance<const OP: usize, const TY: usize>(a: u64, b: u64) -> u64 {
    ops::float(FLOAT_OPS[OP], TYS[TY], false, false, a, b)
}

/// The conversion modes with instances: none, `.rn`, `.rzi`.
const CVT_MODES: [CvtMode; 3] = [
    CvtMode {
        round: None,
        integral: false,
        sat: false,
        ftz: false,
    },
    CvtMode {
        round: Some(Round::Nearest),
        integral: false,
        sat: false,
        ftz: false,
    },
    CvtMode {
        round: Some(Round::Zero),
        integral: true,
        sat: false,
        ftz: false,
    },
];

fn cvt_instance<const MODE: usize, const D: usize, const S: usize>(a: u64) -> u64 {
    ops::cvt(TYS[D], TYS[S], CVT_MODES[MODE], a)
}

macro_rules! cvt_row {
    ($m:literal, $d:literal, [$($s:literal),*]) => { [$(cvt_instance::<$m, $d, $s> as UnFn),*] };
}
macro_rules! cvt_table {
    ($m:literal, [$($d:literal),*], $ss:tt) => { [$(cvt_row!($m, $d, $ss)),*] };
}

static CVT: [[[UnFn; 15]; 15]; 3] = [
    cvt_table!(
        0,
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    ),
    cvt_table!(
        1,
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    ),
    cvt_table!(
        2,
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    ),
];

/// The instance of `ops::cvt` for these types and mode, if the mode is one with instances.
pub fn cvt(dty: Ty, sty: Ty, mode: CvtMode) -> Option<UnFn> {
    let m = CVT_MODES.iter().position(|m| *m == mode)?;
    Some(CVT[m][dty as usize][sty as usize])
}

/// `[[f::<op, ty>; types]; ops]`.
macro_rules! row {
    ($f:ident, $t:ty, $o:literal, [$($y:literal),*]) => { [$($f::<$o, $y> as $t),*] };
}
macro_rules! table {
    ($f:ident, $t:ty, [$($o:literal),*], $ys:tt) => { [$(row!($f, $t, $o, $ys)),*] };
}

// Sized by the enum lists: an operation added to one and not the other does not compile.
static INT: [[BinFn; TYS.len()]; INT_OPS.len()] = table!(
    int_instance,
    BinFn,
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
);
static COMPARE: [[CmpFn; TYS.len()]; CMPS.len()] = table!(
    compare_instance,
    CmpFn,
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
);
static FLOAT: [[BinFn; 15]; 9] = table!(
    float_instance,
    BinFn,
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
);

pub fn int(op: IntOp, ty: Ty) -> BinFn {
    INT[op as usize][ty as usize]
}

pub fn compare(cmp: Cmp, ty: Ty) -> CmpFn {
    COMPARE[cmp as usize][ty as usize]
}

/// The instance of `ops::float` without `.ftz` and `.sat`.
pub fn float(op: FloatOp, ty: Ty) -> BinFn {
    FLOAT[op as usize][ty as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_follow_the_enums() {
        for (i, op) in INT_OPS.iter().enumerate() {
            assert_eq!(*op as usize, i);
        }
        for (i, t) in TYS.iter().enumerate() {
            assert_eq!(*t as usize, i);
        }
        for (i, c) in CMPS.iter().enumerate() {
            assert_eq!(*c as usize, i);
        }
        for (i, f) in FLOAT_OPS.iter().enumerate() {
            assert_eq!(*f as usize, i);
        }
        assert_eq!(int(IntOp::Sub, Ty::U32)(1, 2), 0xffff_ffff);
        assert!(compare(Cmp::Lt, Ty::S64)(u64::MAX, 0));
        assert_eq!(
            f64::from_bits(float(FloatOp::Mul, Ty::F64)(2f64.to_bits(), 3f64.to_bits())),
            6.0
        );
    }
}

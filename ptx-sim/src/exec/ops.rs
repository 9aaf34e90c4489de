//! What each arithmetic instruction computes, on register values (64-bit patterns; an operand of
//! a narrower type is the low bits, and results come back zero- or sign-extended by their type).
//!
//! These follow the PTX ISA's definitions, including its choices for edge cases: shifts by the
//! width or more, integer division by zero (all ones, as NVIDIA GPUs give), float-to-integer
//! conversions that saturate and turn NaN into 0, and `min`/`max` that return the other operand
//! of a NaN.

use crate::program::*;

#[inline(always)]
fn f32_of(v: u64) -> f32 {
    f32::from_bits(v as u32)
}

#[inline(always)]
fn of_f32(f: f32) -> u64 {
    f.to_bits() as u64
}

#[inline(always)]
fn f64_of(v: u64) -> f64 {
    f64::from_bits(v)
}

#[inline(always)]
fn of_f64(f: f64) -> u64 {
    f.to_bits()
}

/// Flushes a single-precision subnormal to a zero of its sign (`.ftz`).
#[inline(always)]
fn ftz32(f: f32) -> f32 {
    if f.is_subnormal() {
        0.0f32.copysign(f)
    } else {
        f
    }
}

#[inline(always)]
fn sat(f: f64) -> f64 {
    if f.is_nan() {
        0.0
    } else {
        f.clamp(0.0, 1.0)
    }
}

#[inline(always)]
fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

#[inline(always)]
fn signed(ty: Ty, v: u64) -> i64 {
    match ty.bits() {
        8 => v as i8 as i64,
        16 => v as i16 as i64,
        32 => v as i32 as i64,
        _ => v as i64,
    }
}

#[inline(always)]
pub fn int(op: IntOp, ty: Ty, a: u64, b: u64) -> u64 {
    let bits = ty.bits();
    let m = mask(bits);
    let s = ty.is_signed();
    let r = match op {
        IntOp::Add => a.wrapping_add(b),
        IntOp::Sub => a.wrapping_sub(b),
        IntOp::AddSat | IntOp::SubSat => {
            let (x, y) = (signed(ty, a) as i128, signed(ty, b) as i128);
            let r = if op == IntOp::AddSat { x + y } else { x - y };
            let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1);
            r.clamp(lo, hi) as u64
        }
        IntOp::MulLo => a.wrapping_mul(b),
        IntOp::MulHi => {
            let p = if s {
                (signed(ty, a) as i128 * signed(ty, b) as i128) as u128
            } else {
                (a & m) as u128 * (b & m) as u128
            };
            (p >> bits) as u64
        }
        IntOp::MulWide => {
            let p = if s {
                signed(ty, a).wrapping_mul(signed(ty, b)) as u64
            } else {
                (a & m).wrapping_mul(b & m)
            };
            return p & mask(bits * 2);
        }
        IntOp::Mul24Lo => {
            let (x, y) = if s {
                (((a as i32) << 8 >> 8) as i64, ((b as i32) << 8 >> 8) as i64)
            } else {
                ((a & 0xff_ffff) as i64, (b & 0xff_ffff) as i64)
            };
            x.wrapping_mul(y) as u64
        }
        IntOp::Div => {
            if b & m == 0 {
                m
            } else if s {
                signed(ty, a).wrapping_div(signed(ty, b)) as u64
            } else {
                (a & m) / (b & m)
            }
        }
        IntOp::Rem => {
            if b & m == 0 {
                a
            } else if s {
                signed(ty, a).wrapping_rem(signed(ty, b)) as u64
            } else {
                (a & m) % (b & m)
            }
        }
        IntOp::Min => {
            if s {
                signed(ty, a).min(signed(ty, b)) as u64
            } else {
                (a & m).min(b & m)
            }
        }
        IntOp::Max => {
            if s {
                signed(ty, a).max(signed(ty, b)) as u64
            } else {
                (a & m).max(b & m)
            }
        }
        IntOp::And => a & b,
        IntOp::Or => a | b,
        IntOp::Xor => a ^ b,
        IntOp::Shl => {
            let n = b as u32;
            if n >= bits {
                0
            } else {
                a << n
            }
        }
        IntOp::BmskClamp | IntOp::BmskWrap => {
            u64::from(bmsk(a as u32, b as u32, op == IntOp::BmskClamp))
        }
        IntOp::Shr => {
            let n = (b as u32).min(bits);
            if s {
                let v = signed(ty, a);
                (if n >= 64 { v >> 63 } else { v >> n.min(63) }) as u64
            } else if n >= bits {
                0
            } else {
                (a & m) >> n
            }
        }
    };
    ty.extend(r & m)
}

/// `bmsk.{clamp,wrap}.b32` as the PTX ISA writes its semantics.
fn bmsk(a: u32, b: u32, clamp: bool) -> u32 {
    let (a1, b1) = (a & 0x1f, b & 0x1f);
    let sum = a1 + b1;
    let mut mask0 = u32::MAX << a1;
    let mut mask1 = if sum >= 32 { 0 } else { u32::MAX << sum };
    if clamp && a >= 32 {
        mask0 = 0;
    }
    if sum >= 32 || (clamp && (a >= 32 || b >= 32)) {
        mask1 = 0;
    } else if b1 == 0 {
        mask1 = u32::MAX;
    }
    mask0 & !mask1
}

pub fn int_un(op: IntUnOp, ty: Ty, a: u64) -> u64 {
    let bits = ty.bits();
    let m = mask(bits);
    let v = a & m;
    match op {
        IntUnOp::Not => ty.extend(!a & m),
        IntUnOp::Cnot => ty.extend((v == 0) as u64),
        IntUnOp::Neg => ty.extend(a.wrapping_neg() & m),
        IntUnOp::Abs => ty.extend(signed(ty, a).wrapping_abs() as u64 & m),
        IntUnOp::Popc => v.count_ones() as u64,
        IntUnOp::Clz => (v.leading_zeros() - (64 - bits)) as u64,
        IntUnOp::Brev => v.reverse_bits() >> (64 - bits),
        IntUnOp::Bfind { shift_amount } => {
            // Position of the most significant non-sign bit; 0xffffffff when there is none.
            let x = if ty.is_signed() && signed(ty, a) < 0 {
                !v & m
            } else {
                v
            };
            if x == 0 {
                0xffff_ffff
            } else {
                let pos = 63 - x.leading_zeros();
                (if shift_amount { bits - 1 - pos } else { pos }) as u64
            }
        }
    }
}

/// `add.cc` and friends: the result and the carry (or borrow) out.
pub fn carry(sub: bool, ty: Ty, a: u64, b: u64, carry_in: bool) -> (u64, bool) {
    let bits = ty.bits();
    let m = mask(bits);
    let (a, b, c) = ((a & m) as u128, (b & m) as u128, carry_in as u128);
    if sub {
        // PTX's borrow: sub.cc sets CC.CF to the borrow; subc subtracts it.
        let r = a.wrapping_sub(b).wrapping_sub(c);
        ((r as u64) & m, a < b + c)
    } else {
        let r = a + b + c;
        ((r as u64) & m, r >> bits != 0)
    }
}

pub fn mad(kind: MadKind, ty: Ty, a: u64, b: u64, c: u64) -> u64 {
    match kind {
        MadKind::Lo => int(IntOp::Add, ty, int(IntOp::MulLo, ty, a, b), c),
        MadKind::Hi => int(IntOp::Add, ty, int(IntOp::MulHi, ty, a, b), c),
        MadKind::Wide => {
            let wide = match ty {
                Ty::U16 => Ty::U32,
                Ty::S16 => Ty::S32,
                Ty::U32 => Ty::U64,
                _ => Ty::S64,
            };
            int(IntOp::Add, wide, int(IntOp::MulWide, ty, a, b), c)
        }
    }
}

#[inline(always)]
fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

#[inline(always)]
fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b || (a == b && a.is_sign_positive()) {
        a
    } else {
        b
    }
}

#[inline(always)]
pub fn float(op: FloatOp, ty: Ty, ftz: bool, saturate: bool, a: u64, b: u64) -> u64 {
    if ty == Ty::F32 {
        let (mut x, mut y) = (f32_of(a), f32_of(b));
        if ftz {
            x = ftz32(x);
            y = ftz32(y);
        }
        let r = match op {
            FloatOp::Add => x + y,
            FloatOp::Sub => x - y,
            FloatOp::Mul => x * y,
            FloatOp::Div => x / y,
            FloatOp::Min => fmin(x as f64, y as f64) as f32,
            FloatOp::Max => fmax(x as f64, y as f64) as f32,
            FloatOp::MinNaN if x.is_nan() || y.is_nan() => f32::NAN,
            FloatOp::MaxNaN if x.is_nan() || y.is_nan() => f32::NAN,
            FloatOp::MinNaN => fmin(x as f64, y as f64) as f32,
            FloatOp::MaxNaN => fmax(x as f64, y as f64) as f32,
            FloatOp::Copysign => y.copysign(x),
        };
        f32_result(r, ftz, saturate)
    } else {
        let (x, y) = (f64_of(a), f64_of(b));
        let r = match op {
            FloatOp::Add => x + y,
            FloatOp::Sub => x - y,
            FloatOp::Mul => x * y,
            FloatOp::Div => x / y,
            FloatOp::Min => fmin(x, y),
            FloatOp::Max => fmax(x, y),
            FloatOp::MinNaN if x.is_nan() || y.is_nan() => f64::NAN,
            FloatOp::MaxNaN if x.is_nan() || y.is_nan() => f64::NAN,
            FloatOp::MinNaN => fmin(x, y),
            FloatOp::MaxNaN => fmax(x, y),
            FloatOp::Copysign => y.copysign(x),
        };
        f64_result(r, saturate)
    }
}

/// An f32 result as PTX writes it: flushed to zero with `.ftz`, clamped to [0, 1] with `.sat`.
#[inline(always)]
fn f32_result(mut r: f32, ftz: bool, saturate: bool) -> u64 {
    if ftz {
        r = ftz32(r);
    }
    if saturate {
        r = sat(r as f64) as f32;
    }
    of_f32(r)
}

/// An f64 result, clamped to [0, 1] with `.sat`.
#[inline(always)]
fn f64_result(r: f64, saturate: bool) -> u64 {
    of_f64(if saturate { sat(r) } else { r })
}

pub fn float_un(op: FloatUnOp, ty: Ty, ftz: bool, a: u64) -> u64 {
    fn apply(op: FloatUnOp, x: f64) -> f64 {
        match op {
            FloatUnOp::Neg => -x,
            FloatUnOp::Abs => x.abs(),
            FloatUnOp::Sqrt => x.sqrt(),
            FloatUnOp::Rsqrt => 1.0 / x.sqrt(),
            FloatUnOp::Rcp => 1.0 / x,
            FloatUnOp::Sin => x.sin(),
            FloatUnOp::Cos => x.cos(),
            FloatUnOp::Lg2 => x.log2(),
            FloatUnOp::Ex2 => x.exp2(),
            FloatUnOp::Tanh => x.tanh(),
        }
    }
    if ty == Ty::F32 {
        let mut x = f32_of(a);
        if ftz {
            x = ftz32(x);
        }
        let r = match op {
            // Correctly rounded in single precision (PTX's .rn forms).
            FloatUnOp::Neg => -x,
            FloatUnOp::Abs => x.abs(),
            FloatUnOp::Sqrt => x.sqrt(),
            FloatUnOp::Rcp => 1.0 / x,
            _ => apply(op, x as f64) as f32,
        };
        f32_result(r, ftz, false)
    } else {
        of_f64(apply(op, f64_of(a)))
    }
}

/// `op` with a directed rounding mode (`super::directed`), `.ftz` and `.sat` as the
/// round-to-nearest forms apply them.
#[allow(clippy::too_many_arguments)]
pub fn directed(
    op: super::directed::DirectedOp,
    round: Round,
    ty: Ty,
    ftz: bool,
    saturate: bool,
    a: u64,
    b: u64,
    c: u64,
) -> u64 {
    if ty == Ty::F32 {
        let f = |v| {
            let x = f32_of(v);
            if ftz {
                ftz32(x)
            } else {
                x
            }
        };
        let r = super::directed::f32(op, round, f(a), f(b), f(c));
        f32_result(r, ftz, saturate)
    } else {
        let r = super::directed::f64(op, round, f64_of(a), f64_of(b), f64_of(c));
        f64_result(r, saturate)
    }
}

pub fn fma(ty: Ty, ftz: bool, saturate: bool, a: u64, b: u64, c: u64) -> u64 {
    if ty == Ty::F32 {
        let (mut x, mut y, mut z) = (f32_of(a), f32_of(b), f32_of(c));
        if ftz {
            (x, y, z) = (ftz32(x), ftz32(y), ftz32(z));
        }
        f32_result(x.mul_add(y, z), ftz, saturate)
    } else {
        f64_result(f64_of(a).mul_add(f64_of(b), f64_of(c)), saturate)
    }
}

#[inline(always)]
pub fn compare(cmp: Cmp, ty: Ty, ftz: bool, a: u64, b: u64) -> bool {
    if ty.is_float() {
        let (x, y) = if ty == Ty::F32 {
            let (mut x, mut y) = (f32_of(a), f32_of(b));
            if ftz {
                x = ftz32(x);
                y = ftz32(y);
            }
            (x as f64, y as f64)
        } else {
            (f64_of(a), f64_of(b))
        };
        let nan = x.is_nan() || y.is_nan();
        return match cmp {
            Cmp::Eq => x == y,
            Cmp::Ne => !nan && x != y,
            Cmp::Lt => x < y,
            Cmp::Le => x <= y,
            Cmp::Gt => x > y,
            Cmp::Ge => x >= y,
            Cmp::Equ => nan || x == y,
            Cmp::Neu => x != y,
            Cmp::Ltu => nan || x < y,
            Cmp::Leu => nan || x <= y,
            Cmp::Gtu => nan || x > y,
            Cmp::Geu => nan || x >= y,
            Cmp::Num => !nan,
            Cmp::Nan => nan,
            Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs => false,
        };
    }
    let m = mask(ty.bits());
    let (ua, ub) = (a & m, b & m);
    let (sa, sb) = (signed(ty, a), signed(ty, b));
    let s = ty.is_signed();
    match cmp {
        Cmp::Eq => ua == ub,
        Cmp::Ne => ua != ub,
        Cmp::Lt => {
            if s {
                sa < sb
            } else {
                ua < ub
            }
        }
        Cmp::Le => {
            if s {
                sa <= sb
            } else {
                ua <= ub
            }
        }
        Cmp::Gt => {
            if s {
                sa > sb
            } else {
                ua > ub
            }
        }
        Cmp::Ge => {
            if s {
                sa >= sb
            } else {
                ua >= ub
            }
        }
        Cmp::Lo => ua < ub,
        Cmp::Ls => ua <= ub,
        Cmp::Hi => ua > ub,
        Cmp::Hs => ua >= ub,
        _ => false,
    }
}

pub fn combine(op: BoolOp, a: bool, b: bool) -> bool {
    match op {
        BoolOp::And => a && b,
        BoolOp::Or => a || b,
        BoolOp::Xor => a ^ b,
    }
}

pub fn testp(kind: TestpKind, ty: Ty, a: u64) -> bool {
    let x = if ty == Ty::F32 {
        f32_of(a) as f64
    } else {
        f64_of(a)
    };
    let sub = if ty == Ty::F32 {
        f32_of(a).is_subnormal()
    } else {
        x.is_subnormal()
    };
    match kind {
        TestpKind::Finite => x.is_finite(),
        TestpKind::Infinite => x.is_infinite(),
        TestpKind::Number => !x.is_nan(),
        TestpKind::NotANumber => x.is_nan(),
        TestpKind::Normal => x.is_normal() && !sub,
        TestpKind::Subnormal => sub,
    }
}

/// Rounds `x` to an integral value (cvt's `.rni` … `.rpi`).
fn round_integral(x: f64, r: Round) -> f64 {
    match r {
        Round::Nearest => x.round_ties_even(),
        Round::Zero => x.trunc(),
        Round::Down => x.floor(),
        Round::Up => x.ceil(),
    }
}

/// `x` rounded to single precision in direction `r`.
fn to_f32(x: f64, r: Round) -> f32 {
    let n = x as f32;
    if x.is_nan() || n as f64 == x {
        return n;
    }
    let next_toward = |f: f32, up: bool| -> f32 {
        if f.is_infinite() && ((f > 0.0) == up) {
            return f;
        }
        let b = f.to_bits();
        let nb = if (f >= 0.0) == up {
            if f == 0.0 && !up {
                0x8000_0001
            } else {
                b + 1
            }
        } else if f == 0.0 {
            1
        } else {
            b - 1
        };
        f32::from_bits(nb)
    };
    match r {
        Round::Nearest => n,
        Round::Zero if (n as f64).abs() > x.abs() => next_toward(n, n < 0.0),
        Round::Down if (n as f64) > x => next_toward(n, false),
        Round::Up if (n as f64) < x => next_toward(n, true),
        _ => n,
    }
}

/// An integer (as i128, so every u64 and s64 fits) to float in direction `r`.
fn int_to_float(v: i128, dty: Ty, r: Round) -> u64 {
    // Rust's conversion rounds to nearest; `back` is that value as an integer. Directed
    // rounding steps one ulp from it when it lies on the wrong side of `v`: Some(true) toward
    // smaller values, Some(false) toward larger ones.
    let step = |back: i128| match r {
        Round::Nearest => None,
        Round::Zero if back.abs() > v.abs() => Some(back > 0),
        Round::Down if back > v => Some(true),
        Round::Up if back < v => Some(false),
        _ => None,
    };
    // The bits one ulp from a float's `bits` in that direction (the magnitude shrinks when
    // stepping down from a positive value or up from a negative one).
    let ulp =
        |bits: u64, positive: bool, down: bool| if positive == down { bits - 1 } else { bits + 1 };
    if dty == Ty::F32 {
        let n = v as f32;
        let bits = match step(n as i128) {
            Some(down) => ulp(n.to_bits() as u64, n > 0.0, down) as u32,
            None => n.to_bits(),
        };
        of_f32(f32::from_bits(bits))
    } else {
        let n = v as f64;
        let bits = match step(n as i128) {
            Some(down) => ulp(n.to_bits(), n > 0.0, down),
            None => n.to_bits(),
        };
        of_f64(f64::from_bits(bits))
    }
}

/// Float (as f64) to an integer type: rounded as `r` says, saturated, NaN → 0.
fn float_to_int(x: f64, dty: Ty, r: Round) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let x = round_integral(x, r);
    let bits = dty.bits();
    let v = if dty.is_signed() {
        let (lo, hi) = (
            -(2f64.powi(bits as i32 - 1)),
            2f64.powi(bits as i32 - 1) - 1.0,
        );
        x.clamp(lo, hi) as i64 as u64
    } else {
        let hi = 2f64.powi(bits as i32) - 1.0;
        x.clamp(0.0, hi) as u64
    };
    dty.extend(v)
}

#[inline(always)]
pub fn cvt(dty: Ty, sty: Ty, mode: CvtMode, a: u64) -> u64 {
    let round = mode.round.unwrap_or(if dty.is_float() && !sty.is_float() {
        Round::Nearest
    } else {
        Round::Zero
    });
    match (dty.is_float(), sty.is_float()) {
        (true, true) => {
            let mut x = if sty == Ty::F32 {
                f32_of(a) as f64
            } else {
                f64_of(a)
            };
            if mode.ftz && sty == Ty::F32 {
                x = ftz32(x as f32) as f64;
            }
            if mode.integral {
                x = round_integral(x, round);
            }
            if mode.sat {
                x = sat(x);
            }
            if dty == Ty::F32 {
                let mut f = to_f32(
                    x,
                    if mode.integral {
                        Round::Nearest
                    } else {
                        mode.round.unwrap_or(Round::Nearest)
                    },
                );
                if mode.ftz {
                    f = ftz32(f);
                }
                of_f32(f)
            } else {
                of_f64(x)
            }
        }
        (false, true) => {
            let mut x = if sty == Ty::F32 {
                f32_of(a) as f64
            } else {
                f64_of(a)
            };
            if mode.ftz && sty == Ty::F32 {
                x = ftz32(x as f32) as f64;
            }
            float_to_int(x, dty, round)
        }
        (true, false) => {
            let v = if sty.is_signed() {
                signed(sty, a) as i128
            } else {
                (a & mask(sty.bits())) as i128
            };
            let r = int_to_float(v, dty, mode.round.unwrap_or(Round::Nearest));
            if mode.sat {
                if dty == Ty::F32 {
                    of_f32(sat(f32_of(r) as f64) as f32)
                } else {
                    of_f64(sat(f64_of(r)))
                }
            } else {
                r
            }
        }
        (false, false) => {
            let v = if sty.is_signed() {
                signed(sty, a) as i128
            } else {
                (a & mask(sty.bits())) as i128
            };
            if mode.sat {
                let bits = dty.bits();
                let (lo, hi) = if dty.is_signed() {
                    (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                } else {
                    (0, (1i128 << bits) - 1)
                };
                dty.extend(v.clamp(lo, hi) as u64)
            } else {
                dty.extend(v as u64)
            }
        }
    }
}

pub fn bfe(ty: Ty, a: u64, pos: u64, len: u64) -> u64 {
    let bits = ty.bits() as u64;
    let (pos, len) = (pos & 0xff, len & 0xff);
    let v = a & mask(bits as u32);
    let sbit = if ty.is_signed() {
        if len == 0 {
            false
        } else {
            (v >> (pos + len - 1).min(bits - 1)) & 1 == 1
        }
    } else {
        false
    };
    let mut d = 0u64;
    for i in 0..bits {
        let bit = if i < len && pos + i < bits {
            (v >> (pos + i)) & 1 == 1
        } else {
            sbit
        };
        if bit {
            d |= 1 << i;
        }
    }
    ty.extend(d)
}

pub fn bfi(ty: Ty, a: u64, b: u64, pos: u64, len: u64) -> u64 {
    let bits = ty.bits() as u64;
    let (pos, len) = (pos & 0xff, len & 0xff);
    let mut f = b & mask(bits as u32);
    for i in 0..len {
        if pos + i >= bits {
            break;
        }
        let bit = (a >> i) & 1;
        f = (f & !(1 << (pos + i))) | (bit << (pos + i));
    }
    f
}

pub fn prmt(mode: PrmtMode, a: u64, b: u64, c: u64) -> u64 {
    let bytes = ((b as u32 as u64) << 32) | (a as u32 as u64);
    let byte = |i: u64| (bytes >> (8 * (i & 7))) & 0xff;
    let c = c as u32 as u64;
    let sel: [u64; 4] = match mode {
        PrmtMode::Default => {
            let mut out = [0; 4];
            for (k, o) in out.iter_mut().enumerate() {
                let s = (c >> (4 * k)) & 0xf;
                let v = byte(s & 7);
                *o = if s & 8 != 0 {
                    if v & 0x80 != 0 {
                        0xff
                    } else {
                        0
                    }
                } else {
                    v
                };
            }
            return out.iter().enumerate().map(|(k, v)| v << (8 * k)).sum();
        }
        PrmtMode::F4e => {
            let s = c & 3;
            [s, s + 1, s + 2, s + 3]
        }
        PrmtMode::B4e => {
            let s = c & 3;
            [s, (s + 7) & 7, (s + 6) & 7, (s + 5) & 7]
        }
        PrmtMode::Rc8 => {
            let s = c & 3;
            [s, s, s, s]
        }
        // Edge clamp left / right: byte k comes from max(k, s) / min(k, s).
        PrmtMode::Ecl => {
            let s = c & 3;
            [0, 1, 2, 3].map(|k: u64| k.max(s))
        }
        PrmtMode::Ecr => {
            let s = c & 3;
            [0, 1, 2, 3].map(|k: u64| k.min(s))
        }
        PrmtMode::Rc16 => {
            let s = c & 1;
            [2 * s, 2 * s + 1, 2 * s, 2 * s + 1]
        }
    };
    sel.iter()
        .enumerate()
        .map(|(k, s)| byte(*s) << (8 * k))
        .sum()
}

pub fn shf(left: bool, wrap: bool, a: u64, b: u64, c: u64) -> u64 {
    let n = if wrap {
        (c as u32) & 31
    } else {
        (c as u32).min(32)
    };
    let v = ((b as u32 as u64) << 32) | (a as u32 as u64);
    if left {
        ((v << n) >> 32) as u32 as u64
    } else {
        (v >> n) as u32 as u64
    }
}

pub fn lop3(a: u64, b: u64, c: u64, lut: u8) -> u64 {
    let (a, b, c) = (a as u32, b as u32, c as u32);
    let mut r = 0u32;
    for i in 0..32 {
        let idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
        r |= (((lut >> idx) & 1) as u32) << i;
    }
    r as u64
}

/// A scalar video instruction on words (see `Video`): a and b extended by their signedness,
/// the operation on 64 bits, `.sat` clamping to d's type, the secondary operation with c.
pub fn video(v: &Video, a: u64, b: u64, c: u64) -> u64 {
    let ext = |x: u64, signed: bool| {
        if signed {
            x as u32 as i32 as i64
        } else {
            x as u32 as i64
        }
    };
    let (ta, tb) = (ext(a, v.signed[1]), ext(b, v.signed[2]));
    let apply = |op: VideoOp, x: i64, y: i64| match op {
        VideoOp::Add => x + y,
        VideoOp::Sub => x - y,
        VideoOp::AbsDiff => (x - y).abs(),
        VideoOp::Min => x.min(y),
        VideoOp::Max => x.max(y),
    };
    let mut t = apply(v.op, ta, tb);
    if v.sat {
        t = if v.signed[0] {
            t.clamp(i32::MIN as i64, i32::MAX as i64)
        } else {
            t.clamp(0, u32::MAX as i64)
        };
    }
    if let Some(op2) = v.op2 {
        t = apply(op2, t, ext(c, v.signed[0]));
    }
    t as u32 as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bmsk_follows_the_isa() {
        let clamp = |a, b| int(IntOp::BmskClamp, Ty::B32, a, b);
        let wrap = |a, b| int(IntOp::BmskWrap, Ty::B32, a, b);
        // The ISA's example: bmsk.wrap.b32 rd, 1, 2 is 0x6.
        assert_eq!(wrap(1, 2), 0x6);
        assert_eq!(clamp(1, 2), 0x6);
        assert_eq!(clamp(4, 8), 0xff0);
        // A width of 0 is no mask; past bit 31 the mask ends at the word's end.
        assert_eq!(clamp(5, 0), 0);
        assert_eq!(clamp(28, 8), 0xf000_0000);
        assert_eq!(clamp(0, 32), 0xffff_ffff);
        assert_eq!(clamp(3, 40), 0xffff_fff8);
        // Clamped: a start of 32 or more is no mask. Wrapped: 33 is 1, and a width of 32 is 0.
        assert_eq!(clamp(32, 4), 0);
        assert_eq!(wrap(33, 2), 0x6);
        assert_eq!(wrap(0, 32), 0);
    }

    #[test]
    fn integer_to_float_rounds_in_the_asked_direction() {
        let f32_of = |v: i128, r| f32::from_bits(int_to_float(v, Ty::F32, r) as u32) as f64;
        let f64_of = |v: i128, r| f64::from_bits(int_to_float(v, Ty::F64, r));
        // 2^24 + 3 lies between the floats 2^24 + 2 and 2^24 + 4 (a tie: nearest-even is + 4).
        let p = (1i128 << 24) + 3;
        let (lo, hi) = ((1u64 << 24) as f64 + 2.0, (1u64 << 24) as f64 + 4.0);
        assert_eq!(f32_of(p, Round::Nearest), hi);
        assert_eq!(f32_of(p, Round::Zero), lo);
        assert_eq!(f32_of(p, Round::Down), lo);
        assert_eq!(f32_of(p, Round::Up), hi);
        assert_eq!(f32_of(-p, Round::Zero), -lo);
        assert_eq!(f32_of(-p, Round::Down), -hi);
        assert_eq!(f32_of(-p, Round::Up), -lo);
        // 2^53 + 1: nearest-even is 2^53.
        let q = (1i128 << 53) + 1;
        let two53 = (1u64 << 53) as f64;
        assert_eq!(f64_of(q, Round::Nearest), two53);
        assert_eq!(f64_of(q, Round::Zero), two53);
        assert_eq!(f64_of(q, Round::Up), two53 + 2.0);
        assert_eq!(f64_of(-q, Round::Down), -(two53 + 2.0));
        assert_eq!(f64_of(-q, Round::Up), -two53);
        // Exact values are not stepped.
        assert_eq!(f32_of(7, Round::Up), 7.0);
        assert_eq!(f64_of(-7, Round::Down), -7.0);
    }

    #[test]
    fn integer_edge_cases() {
        assert_eq!(int(IntOp::Div, Ty::U32, 7, 0), 0xffff_ffff);
        assert_eq!(int(IntOp::Div, Ty::S32, (-7i64) as u64, 2), (-3i64) as u64);
        assert_eq!(int(IntOp::Rem, Ty::S32, (-7i64) as u64, 2), (-1i64) as u64);
        assert_eq!(int(IntOp::Shl, Ty::B32, 1, 32), 0);
        assert_eq!(int(IntOp::Shr, Ty::S32, 0x8000_0000, 40), (-1i64) as u64);
        assert_eq!(int(IntOp::Shr, Ty::U32, 0x8000_0000, 31), 1);
        assert_eq!(
            int(IntOp::MulHi, Ty::U32, 0xffff_ffff, 0xffff_ffff),
            0xffff_fffe
        );
        assert_eq!(
            int(IntOp::MulHi, Ty::S32, (-2i64) as u64, 3),
            (-1i64) as u64
        );
        assert_eq!(
            int(IntOp::MulWide, Ty::S32, (-2i64) as u64, 3),
            (-6i64) as u64
        );
        assert_eq!(int(IntOp::MulWide, Ty::U32, 0xffff_ffff, 2), 0x1_ffff_fffe);
        assert_eq!(int(IntOp::Min, Ty::S32, (-1i64) as u64, 1), (-1i64) as u64);
        assert_eq!(int(IntOp::Min, Ty::U32, (-1i64) as u64, 1), 1);
        assert_eq!(int(IntOp::Add, Ty::U32, 0xffff_ffff, 1), 0);
        assert_eq!(int(IntOp::AddSat, Ty::S32, 0x7fff_ffff, 1), 0x7fff_ffff);
        assert_eq!(int(IntOp::And, Ty::Pred, 1, 1), 1);
        assert_eq!(int_un(IntUnOp::Clz, Ty::B32, 1), 31);
        assert_eq!(int_un(IntUnOp::Clz, Ty::B64, 0), 64);
        assert_eq!(int_un(IntUnOp::Popc, Ty::B64, u64::MAX), 64);
        assert_eq!(int_un(IntUnOp::Brev, Ty::B32, 1), 0x8000_0000);
        assert_eq!(int_un(IntUnOp::Not, Ty::Pred, 1), 0);
        assert_eq!(
            int_un(
                IntUnOp::Bfind {
                    shift_amount: false
                },
                Ty::U32,
                0x10
            ),
            4
        );
        assert_eq!(
            int_un(
                IntUnOp::Bfind {
                    shift_amount: false
                },
                Ty::U32,
                0
            ),
            0xffff_ffff
        );
        assert_eq!(carry(false, Ty::U32, 0xffff_ffff, 1, false), (0, true));
        assert_eq!(carry(false, Ty::U32, 1, 1, true), (3, false));
        assert_eq!(carry(true, Ty::U32, 0, 1, false), (0xffff_ffff, true));
    }

    #[test]
    fn float_semantics() {
        let f = |x: f64| x.to_bits();
        assert_eq!(
            f64::from_bits(float(
                FloatOp::Min,
                Ty::F64,
                false,
                false,
                f(f64::NAN),
                f(2.0)
            )),
            2.0
        );
        assert!(f64::from_bits(float(
            FloatOp::MinNaN,
            Ty::F64,
            false,
            false,
            f(f64::NAN),
            f(2.0)
        ))
        .is_nan());
        assert_eq!(
            f64::from_bits(fma(Ty::F64, false, false, f(0.1), f(10.0), f(-1.0))),
            0.1f64.mul_add(10.0, -1.0)
        );
        assert!(compare(Cmp::Neu, Ty::F64, false, f(f64::NAN), f(1.0)));
        assert!(!compare(Cmp::Ne, Ty::F64, false, f(f64::NAN), f(1.0)));
        assert!(compare(Cmp::Ltu, Ty::F64, false, f(f64::NAN), f(1.0)));
        let sub = f32::from_bits(1);
        assert_eq!(
            f32::from_bits(
                float(FloatOp::Add, Ty::F32, true, false, sub.to_bits() as u64, 0) as u32
            ),
            0.0
        );
    }

    #[test]
    fn conversions() {
        let m = |round, integral| CvtMode {
            round,
            integral,
            sat: false,
            ftz: false,
        };
        let f = |x: f64| x.to_bits();
        assert_eq!(
            cvt(Ty::S32, Ty::F64, m(Some(Round::Zero), true), f(-2.7)),
            (-2i64) as u64
        );
        assert_eq!(
            cvt(Ty::S32, Ty::F64, m(Some(Round::Nearest), true), f(2.5)),
            2
        );
        assert_eq!(
            cvt(Ty::S32, Ty::F64, m(Some(Round::Down), true), f(-2.5)),
            (-3i64) as u64
        );
        assert_eq!(
            cvt(Ty::S32, Ty::F64, m(Some(Round::Zero), true), f(1e20)),
            0x7fff_ffff
        );
        assert_eq!(
            cvt(Ty::U32, Ty::F64, m(Some(Round::Zero), true), f(-5.0)),
            0
        );
        assert_eq!(
            cvt(Ty::S32, Ty::F64, m(Some(Round::Zero), true), f(f64::NAN)),
            0
        );
        assert_eq!(
            f64::from_bits(cvt(
                Ty::F64,
                Ty::S32,
                m(Some(Round::Nearest), false),
                (-3i64) as u64
            )),
            -3.0
        );
        assert_eq!(
            f64::from_bits(cvt(
                Ty::F64,
                Ty::U32,
                m(Some(Round::Nearest), false),
                0xffff_ffff
            )),
            4294967295.0
        );
        assert_eq!(cvt(Ty::S64, Ty::S32, m(None, false), 0xffff_ffff), u64::MAX);
        assert_eq!(
            cvt(Ty::U64, Ty::U32, m(None, false), 0xffff_ffff),
            0xffff_ffff
        );
        assert_eq!(cvt(Ty::U32, Ty::U64, m(None, false), 0x1_0000_0005), 5);
        assert_eq!(cvt(Ty::S8, Ty::S32, m(None, false), 0x80), (-128i64) as u64);
        // (2^24 + 1) is not a float: nearest gives 2^24, toward +inf 2^24 + 2.
        assert_eq!(
            f32::from_bits(cvt(Ty::F32, Ty::S32, m(Some(Round::Up), false), (1 << 24) + 1) as u32),
            16777218.0
        );
        assert_eq!(
            f32::from_bits(cvt(
                Ty::F32,
                Ty::S32,
                m(Some(Round::Nearest), false),
                (1 << 24) + 1
            ) as u32),
            16777216.0
        );
        let third = 1.0f64 / 3.0;
        let rz =
            f32::from_bits(cvt(Ty::F32, Ty::F64, m(Some(Round::Zero), false), f(third)) as u32);
        let rp = f32::from_bits(cvt(Ty::F32, Ty::F64, m(Some(Round::Up), false), f(third)) as u32);
        assert!((rz as f64) < third && (rp as f64) > third);
    }

    #[test]
    fn bit_fields_and_permutes() {
        assert_eq!(bfe(Ty::U32, 0xf0, 4, 4), 0xf);
        assert_eq!(bfe(Ty::S32, 0xf0, 4, 4), 0xffff_ffff_ffff_ffff);
        assert_eq!(bfi(Ty::B32, 0xf, 0, 8, 4), 0xf00);
        assert_eq!(
            prmt(PrmtMode::Default, 0x4433_2211, 0x8877_6655, 0x3210),
            0x4433_2211
        );
        assert_eq!(
            prmt(PrmtMode::Default, 0x4433_2211, 0x8877_6655, 0x7654),
            0x8877_6655
        );
        assert_eq!(prmt(PrmtMode::Default, 0x0000_0080, 0, 0x8888), 0xffff_ffff);
        assert_eq!(
            prmt(PrmtMode::B4e, 0x4433_2211, 0x8877_6655, 0),
            0x6677_8811
        );
        assert_eq!(prmt(PrmtMode::Ecl, 0x4433_2211, 0, 1), 0x4433_2222);
        assert_eq!(prmt(PrmtMode::Ecr, 0x4433_2211, 0, 1), 0x2222_2211);
        assert_eq!(prmt(PrmtMode::Rc16, 0x4433_2211, 0, 1), 0x4433_4433);
        assert_eq!(shf(false, true, 0x1, 0x2, 1), 0);
        assert_eq!(shf(true, true, 0x8000_0000, 0x1, 1), 0x3);
        assert_eq!(lop3(0xf0, 0xcc, 0xaa, 0x96), 0xf0 ^ 0xcc ^ 0xaa);
    }
}

//! Decoding of moves, integer, floating-point, comparison, conversion and bit-field instructions.

use super::*;
use crate::exec::directed::{self, DirectedOp};

impl FunctionDecoder<'_> {
    /// The instruction if it is one of this family's (None: another family's).
    pub(super) fn arith(&mut self, c: &InstCtx) -> R<Option<Op>> {
        let (i, m, ops, line, mnemonic) = (c.i, &c.m, c.ops, c.line, c.mnemonic);
        let need = |n: usize| c.need(n);
        let ty = || c.ty();
        Ok(Some(match mnemonic {
            "mov" if m.vector() > 1 => {
                // mov.v2.u32 %v, {a, b};  mov.v2.u32 {a, b}, %v;  mov.v2.u32 %v, %w;
                need(2)?;
                let ty = ty()?;
                let n = m.vector() as usize;
                let mut ds = [None; 4];
                match &ops[0] {
                    Operand::Vector(v) if v.len() == n => {
                        for (k, d) in v.iter().enumerate() {
                            ds[k] = self.opt_dst(d)?;
                        }
                    }
                    o => {
                        let r = self.vector_operand(o, n)?;
                        for (k, d) in ds.iter_mut().take(n).enumerate() {
                            *d = Some(r + k as Reg);
                        }
                    }
                }
                let zero = self.constant(0)?;
                let mut srcs = [zero; 4];
                match &ops[1] {
                    Operand::Vector(v) if v.len() == n => {
                        for (k, a) in v.iter().enumerate() {
                            srcs[k] = self.src(a, ty)?;
                        }
                    }
                    o => {
                        let r = self.vector_operand(o, n)?;
                        for (k, a) in srcs.iter_mut().take(n).enumerate() {
                            *a = r + k as Reg;
                        }
                    }
                }
                Op::MovVec {
                    n: n as u8,
                    ds,
                    srcs,
                }
            }
            "mov"
                if self.names_vector(&ops[0])
                    || ops.get(1).is_some_and(|o| self.names_vector(o)) =>
            {
                // mov.b64 %rd, %v (a .v2 .u32 register): packs its elements, as from {%v.x, %v.y};
                // mov.b64 %v, %rd unpacks.
                need(2)?;
                let ty = ty()?;
                let vector = |o: &Operand| match o {
                    Operand::Reg(r) | Operand::Symbol(r) => self.vector_reg(r),
                    _ => None,
                };
                if let Some((r, n)) = vector(&ops[1]) {
                    let bits = ty.bits() / n as u32;
                    if !matches!(bits, 8 | 16 | 32) || vector(&ops[0]).is_some() {
                        return err(
                            line,
                            format!("'{}' of a vector register of {n} elements", i.opcode),
                        );
                    }
                    let mut parts = [r; 4];
                    for (k, p) in parts.iter_mut().take(n as usize).enumerate() {
                        *p = r + k as Reg;
                    }
                    Op::Pack {
                        bits: bits as u8,
                        n,
                        d: self.dst(&ops[0])?,
                        parts,
                    }
                } else {
                    let Some((r, n)) = vector(&ops[0]) else {
                        return err(line, "malformed vector mov");
                    };
                    let bits = ty.bits() / n as u32;
                    if !matches!(bits, 8 | 16 | 32) {
                        return err(
                            line,
                            format!("'{}' into a vector register of {n} elements", i.opcode),
                        );
                    }
                    let mut ds = [None; 4];
                    for (k, d) in ds.iter_mut().take(n as usize).enumerate() {
                        *d = Some(r + k as Reg);
                    }
                    Op::Unpack {
                        bits: bits as u8,
                        n,
                        ds,
                        a: self.src(&ops[1], ty)?,
                    }
                }
            }
            "mov" => {
                need(2)?;
                let ty = ty()?;
                match (&ops[0], &ops[1]) {
                    (Operand::Vector(ds), a) => {
                        let n = ds.len();
                        if !(2..=4).contains(&n) {
                            return err(line, "mov to a vector of other than 2 or 4 parts");
                        }
                        let mut regs = [None; 4];
                        for (k, d) in ds.iter().enumerate() {
                            regs[k] = self.opt_dst(d)?;
                        }
                        Op::Unpack {
                            bits: (ty.bits() / n as u32) as u8,
                            n: n as u8,
                            ds: regs,
                            a: self.src(a, ty)?,
                        }
                    }
                    (d, Operand::Vector(parts)) => {
                        let n = parts.len();
                        if !(2..=4).contains(&n) {
                            return err(line, "mov from a vector of other than 2 or 4 parts");
                        }
                        let bits = ty.bits() / n as u32;
                        let part_ty = match bits {
                            8 => Ty::B8,
                            16 => Ty::B16,
                            32 => Ty::B32,
                            _ => return err(line, "unsupported vector mov"),
                        };
                        let zero = self.constant(0)?;
                        let mut srcs = [zero; 4];
                        for (k, p) in parts.iter().enumerate() {
                            srcs[k] = self.src(p, part_ty)?;
                        }
                        Op::Pack {
                            bits: bits as u8,
                            n: n as u8,
                            d: self.dst(d)?,
                            parts: srcs,
                        }
                    }
                    (d, Operand::Symbol(s) | Operand::Reg(s) | Operand::SymbolOffset(s, _))
                        if matches!(self.var(s), Some(LocalSym::Local(_))) =>
                    {
                        let Some(LocalSym::Local(off)) = self.var(s) else {
                            unreachable!()
                        };
                        let extra = if let Operand::SymbolOffset(_, o) = &ops[1] {
                            *o as u32
                        } else {
                            0
                        };
                        Op::LocalAddr {
                            d: self.dst(d)?,
                            offset: off + extra,
                            generic: false,
                        }
                    }
                    (d, Operand::Reg(r))
                        if self.reg(r).is_err()
                            && matches!(
                                Sreg::parse(r),
                                Some(Sreg::Clock | Sreg::Clock64 | Sreg::GlobalTimer)
                            ) =>
                    {
                        let sreg = Sreg::parse(r).expect("special register");
                        Op::ReadClock {
                            d: self.dst(d)?,
                            sreg,
                        }
                    }
                    (d, a) => {
                        let d = self.dst(d)?;
                        Op::Mov {
                            d,
                            a: self.src(a, ty)?,
                        }
                    }
                }
            }
            "add" | "sub" | "mul" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor"
            | "shl" | "shr" | "mul24" | "copysign" => {
                need(3)?;
                let ty = ty()?;
                let d = self.dst(&ops[0])?;
                // Shift amounts are always .u32.
                let bty = if matches!(mnemonic, "shl" | "shr") {
                    Ty::U32
                } else {
                    ty
                };
                let (a, b) = (self.src(&ops[1], ty)?, self.src(&ops[2], bty)?);
                if m.has("cc") {
                    return Ok(Some(match mnemonic {
                        "add" | "sub" => Op::Carry {
                            sub: mnemonic == "sub",
                            carry_in: false,
                            carry_out: true,
                            ty,
                            d,
                            a,
                            b,
                        },
                        _ => return err(line, format!("'{}' is not supported", i.opcode)),
                    }));
                }
                if ty.is_float() {
                    let op = match mnemonic {
                        "add" => FloatOp::Add,
                        "sub" => FloatOp::Sub,
                        "mul" => FloatOp::Mul,
                        "div" => FloatOp::Div,
                        "min" if m.has("NaN") => FloatOp::MinNaN,
                        "max" if m.has("NaN") => FloatOp::MaxNaN,
                        "min" => FloatOp::Min,
                        "max" => FloatOp::Max,
                        "copysign" => FloatOp::Copysign,
                        _ => return err(line, format!("'{}' is not supported", i.opcode)),
                    };
                    let directed = match op {
                        FloatOp::Add => Some(DirectedOp::Add),
                        FloatOp::Sub => Some(DirectedOp::Sub),
                        FloatOp::Mul => Some(DirectedOp::Mul),
                        FloatOp::Div => Some(DirectedOp::Div),
                        _ => None,
                    };
                    if let Some(op) = directed_op(m, line, &i.opcode, directed)? {
                        return Ok(Some(op.with(ty, m, d, a, b, b)));
                    }
                    let (ftz, sat) = (m.has("ftz"), m.has("sat"));
                    let f = (!ftz && !sat).then(|| specialize::float(op, ty));
                    Op::Float {
                        op,
                        ty,
                        ftz,
                        sat,
                        f,
                        d,
                        a,
                        b,
                    }
                } else {
                    let op = match mnemonic {
                        "add" if m.has("sat") => IntOp::AddSat,
                        "sub" if m.has("sat") => IntOp::SubSat,
                        "add" => IntOp::Add,
                        "sub" => IntOp::Sub,
                        "mul" if m.has("hi") => IntOp::MulHi,
                        "mul" if m.has("wide") => IntOp::MulWide,
                        "mul" => IntOp::MulLo,
                        "mul24" if !m.has("hi") => IntOp::Mul24Lo,
                        "div" => IntOp::Div,
                        "rem" => IntOp::Rem,
                        "min" => IntOp::Min,
                        "max" => IntOp::Max,
                        "and" => IntOp::And,
                        "or" => IntOp::Or,
                        "xor" => IntOp::Xor,
                        "shl" => IntOp::Shl,
                        "shr" => IntOp::Shr,
                        _ => return err(line, format!("'{}' is not supported", i.opcode)),
                    };
                    Op::Int {
                        op,
                        ty,
                        f: specialize::int(op, ty),
                        d,
                        a,
                        b,
                    }
                }
            }
            "bmsk" => {
                need(3)?;
                let op = if m.has("wrap") {
                    IntOp::BmskWrap
                } else if m.has("clamp") {
                    IntOp::BmskClamp
                } else {
                    return err(line, format!("'{}': no .clamp or .wrap", i.opcode));
                };
                let ty = Ty::B32;
                Op::Int {
                    op,
                    ty,
                    f: specialize::int(op, ty),
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], Ty::U32)?,
                    b: self.src(&ops[2], Ty::U32)?,
                }
            }
            "addc" | "subc" => {
                need(3)?;
                let ty = ty()?;
                Op::Carry {
                    sub: mnemonic == "subc",
                    carry_in: true,
                    carry_out: m.has("cc"),
                    ty,
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    b: self.src(&ops[2], ty)?,
                }
            }
            "mad" | "madc" | "fma" => {
                need(4)?;
                let ty = ty()?;
                let d = self.dst(&ops[0])?;
                let (a, b, c) = (
                    self.src(&ops[1], ty)?,
                    self.src(&ops[2], ty)?,
                    self.src(&ops[3], ty)?,
                );
                if ty.is_float() {
                    if let Some(op) = directed_op(m, line, &i.opcode, Some(DirectedOp::Fma))? {
                        return Ok(Some(op.with(ty, m, d, a, b, c)));
                    }
                    Op::Fma {
                        ty,
                        ftz: m.has("ftz"),
                        sat: m.has("sat"),
                        d,
                        a,
                        b,
                        c,
                    }
                } else {
                    let kind = if m.has("hi") {
                        MadKind::Hi
                    } else if m.has("wide") {
                        MadKind::Wide
                    } else {
                        MadKind::Lo
                    };
                    let (carry_in, carry_out) = (mnemonic == "madc", m.has("cc"));
                    if m.has("sat") || ((carry_in || carry_out) && kind == MadKind::Wide) {
                        return err(line, format!("'{}' is not supported", i.opcode));
                    }
                    let c = if kind == MadKind::Wide {
                        self.src(&ops[3], wide(ty))?
                    } else {
                        c
                    };
                    Op::Mad {
                        kind,
                        ty,
                        carry_in,
                        carry_out,
                        d,
                        a,
                        b,
                        c,
                    }
                }
            }
            "neg" | "abs" | "not" | "cnot" | "popc" | "clz" | "brev" | "bfind" | "sqrt"
            | "rsqrt" | "rcp" | "sin" | "cos" | "lg2" | "ex2" | "tanh" => {
                need(2)?;
                let ty = ty()?;
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], ty)?;
                if ty.is_float() {
                    let op = match mnemonic {
                        "neg" => FloatUnOp::Neg,
                        "abs" => FloatUnOp::Abs,
                        "sqrt" => FloatUnOp::Sqrt,
                        "rsqrt" => FloatUnOp::Rsqrt,
                        "rcp" => FloatUnOp::Rcp,
                        "sin" => FloatUnOp::Sin,
                        "cos" => FloatUnOp::Cos,
                        "lg2" => FloatUnOp::Lg2,
                        "ex2" => FloatUnOp::Ex2,
                        "tanh" => FloatUnOp::Tanh,
                        _ => return err(line, format!("'{}' is not supported", i.opcode)),
                    };
                    let directed = match op {
                        FloatUnOp::Sqrt => Some(DirectedOp::Sqrt),
                        FloatUnOp::Rcp => Some(DirectedOp::Rcp),
                        _ => None,
                    };
                    if let Some(op) = directed_op(m, line, &i.opcode, directed)? {
                        return Ok(Some(op.with(ty, m, d, a, a, a)));
                    }
                    Op::FloatUn {
                        op,
                        ty,
                        ftz: m.has("ftz"),
                        d,
                        a,
                    }
                } else {
                    let op = match mnemonic {
                        "neg" => IntUnOp::Neg,
                        "abs" => IntUnOp::Abs,
                        "not" => IntUnOp::Not,
                        "cnot" => IntUnOp::Cnot,
                        "popc" => IntUnOp::Popc,
                        "clz" => IntUnOp::Clz,
                        "brev" => IntUnOp::Brev,
                        "bfind" => IntUnOp::Bfind {
                            shift_amount: m.has("shiftamt"),
                        },
                        _ => return err(line, format!("'{}' is not supported", i.opcode)),
                    };
                    Op::IntUn { op, ty, d, a }
                }
            }
            "setp" | "set" => {
                let cmp = m.find(Cmp::parse).ok_or_else(|| DecodeError {
                    line,
                    message: format!("'{}': no comparison", i.opcode),
                    input: 0,
                })?;
                let combine_op = if m.has("and") {
                    Some(BoolOp::And)
                } else if m.has("or") {
                    Some(BoolOp::Or)
                } else if m.has("xor") {
                    Some(BoolOp::Xor)
                } else {
                    None
                };
                let types = m.types();
                need(if combine_op.is_some() { 4 } else { 3 })?;
                let combine = match combine_op {
                    Some(op) => {
                        let (p, neg) = self.pred_src(&ops[3])?;
                        Some((op, p, neg))
                    }
                    None => None,
                };
                if mnemonic == "setp" {
                    let ty = *types.last().ok_or_else(|| DecodeError {
                        line,
                        message: "setp without a type".into(),
                        input: 0,
                    })?;
                    let (d, d_not) = match &ops[0] {
                        Operand::Pair(p, q) => (self.reg(p)?, Some(self.reg(q)?)),
                        o => (self.dst(o)?, None),
                    };
                    let ftz = m.has("ftz");
                    let f = (!ftz).then(|| specialize::compare(cmp, ty));
                    Op::Setp {
                        cmp,
                        ty,
                        ftz,
                        f,
                        d,
                        d_not,
                        a: self.src(&ops[1], ty)?,
                        b: self.src(&ops[2], ty)?,
                        combine,
                    }
                } else {
                    if types.len() != 2 {
                        return err(line, "set needs a destination and a source type");
                    }
                    let (dty, ty) = (types[0], types[1]);
                    Op::Set {
                        cmp,
                        ty,
                        dty,
                        ftz: m.has("ftz"),
                        d: self.dst(&ops[0])?,
                        a: self.src(&ops[1], ty)?,
                        b: self.src(&ops[2], ty)?,
                        combine,
                    }
                }
            }
            "selp" => {
                need(4)?;
                let ty = ty()?;
                Op::Selp {
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    b: self.src(&ops[2], ty)?,
                    p: self.src(&ops[3], Ty::Pred)?,
                }
            }
            "slct" => {
                need(4)?;
                let types = m.types();
                if types.len() != 2 {
                    return err(line, "slct needs two types");
                }
                Op::Slct {
                    ty: types[1],
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], types[0])?,
                    b: self.src(&ops[2], types[0])?,
                    c: self.src(&ops[3], types[1])?,
                }
            }
            "cvt" => {
                need(2)?;
                let types = m.types();
                if types.len() != 2 {
                    return err(line, format!("'{}': cvt needs two types", i.opcode));
                }
                let (dty, sty) = (types[0], types[1]);
                let (round, integral) = match m.find(|s| match s {
                    "rn" => Some((Round::Nearest, false)),
                    "rz" => Some((Round::Zero, false)),
                    "rm" => Some((Round::Down, false)),
                    "rp" => Some((Round::Up, false)),
                    "rni" => Some((Round::Nearest, true)),
                    "rzi" => Some((Round::Zero, true)),
                    "rmi" => Some((Round::Down, true)),
                    "rpi" => Some((Round::Up, true)),
                    _ => None,
                }) {
                    Some((r, i)) => (Some(r), i),
                    None => (None, false),
                };
                let mode = CvtMode {
                    round,
                    integral,
                    sat: m.has("sat"),
                    ftz: m.has("ftz"),
                };
                Op::Cvt {
                    dty,
                    sty,
                    mode,
                    f: specialize::cvt(dty, sty, mode),
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], sty)?,
                }
            }
            "cvta" => {
                need(2)?;
                let to = m.has("to");
                let space = m.space().ok_or_else(|| DecodeError {
                    line,
                    message: format!("'{}': no state space", i.opcode),
                    input: 0,
                })?;
                let ty = ty()?;
                if space == MemSpace::Param && !to {
                    // A parameter lives in the `.param` space only (its offset: `mov`).
                    return Err(DecodeError {
                        line,
                        message: "'cvta.param' (a parameter's generic address) is not supported"
                            .into(),
                        input: 0,
                    });
                }
                match &ops[1] {
                    // cvta.local.u64 %frame, %frame_ar: a local variable's generic address.
                    Operand::Symbol(s) | Operand::Reg(s) if !to && space == MemSpace::Local => {
                        match self.var(s) {
                            Some(LocalSym::Local(off)) => Op::LocalAddr {
                                d: self.dst(&ops[0])?,
                                offset: off,
                                generic: true,
                            },
                            _ => Op::Cvta {
                                to_generic: true,
                                space,
                                d: self.dst(&ops[0])?,
                                a: self.src(&ops[1], ty)?,
                            },
                        }
                    }
                    _ => Op::Cvta {
                        to_generic: !to,
                        space,
                        d: self.dst(&ops[0])?,
                        a: self.src(&ops[1], ty)?,
                    },
                }
            }
            "isspacep" => {
                need(2)?;
                let space = m.space().ok_or_else(|| DecodeError {
                    line,
                    message: format!("'{}': no state space", i.opcode),
                    input: 0,
                })?;
                Op::Isspacep {
                    space,
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], Ty::U64)?,
                }
            }
            "testp" => {
                need(2)?;
                let ty = ty()?;
                let kind = m
                    .find(|s| {
                        Some(match s {
                            "finite" => TestpKind::Finite,
                            "infinite" => TestpKind::Infinite,
                            "number" => TestpKind::Number,
                            "notanumber" => TestpKind::NotANumber,
                            "normal" => TestpKind::Normal,
                            "subnormal" => TestpKind::Subnormal,
                            _ => return None,
                        })
                    })
                    .ok_or_else(|| DecodeError {
                        line,
                        message: format!("'{}': unknown test", i.opcode),
                        input: 0,
                    })?;
                Op::Testp {
                    kind,
                    ty,
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                }
            }
            "bfe" => {
                need(4)?;
                let ty = ty()?;
                Op::Bfe {
                    ty,
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    b: self.src(&ops[2], Ty::U32)?,
                    c: self.src(&ops[3], Ty::U32)?,
                }
            }
            "bfi" => {
                need(5)?;
                let ty = ty()?;
                Op::Bfi {
                    ty,
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    b: self.src(&ops[2], ty)?,
                    c: self.src(&ops[3], Ty::U32)?,
                    e: self.src(&ops[4], Ty::U32)?,
                }
            }
            "prmt" => {
                need(4)?;
                let mode = m
                    .find(|s| {
                        Some(match s {
                            "f4e" => PrmtMode::F4e,
                            "b4e" => PrmtMode::B4e,
                            "rc8" => PrmtMode::Rc8,
                            "ecl" => PrmtMode::Ecl,
                            "ecr" => PrmtMode::Ecr,
                            "rc16" => PrmtMode::Rc16,
                            _ => return None,
                        })
                    })
                    .unwrap_or(PrmtMode::Default);
                Op::Prmt {
                    mode,
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], Ty::B32)?,
                    b: self.src(&ops[2], Ty::B32)?,
                    c: self.src(&ops[3], Ty::B32)?,
                }
            }
            "shf" => {
                need(4)?;
                Op::Shf {
                    left: m.has("l"),
                    wrap: m.has("wrap"),
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], Ty::B32)?,
                    b: self.src(&ops[2], Ty::B32)?,
                    c: self.src(&ops[3], Ty::U32)?,
                }
            }
            "lop3" => {
                need(5)?;
                let lut = match &ops[4] {
                    Operand::Int(v) => *v as u8,
                    _ => return err(line, "lop3 needs an immediate lookup table"),
                };
                Op::Lop3 {
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], Ty::B32)?,
                    b: self.src(&ops[2], Ty::B32)?,
                    c: self.src(&ops[3], Ty::B32)?,
                    lut,
                }
            }
            "vadd" | "vsub" | "vabsdiff" | "vmin" | "vmax" => {
                // Scalar video instructions on words: vop.dtype.atype.btype{.sat}{.op2}.
                let types = m.types();
                let [dty, aty, bty] = types[..] else {
                    return err(line, format!("'{}': expected three types", i.opcode));
                };
                if [dty, aty, bty]
                    .iter()
                    .any(|t| !matches!(t, Ty::U32 | Ty::S32))
                {
                    return err(
                        line,
                        format!("'{}': only .u32/.s32 operands are supported (no byte or half-word selection)", i.opcode),
                    );
                }
                let op = match mnemonic {
                    "vadd" => VideoOp::Add,
                    "vsub" => VideoOp::Sub,
                    "vabsdiff" => VideoOp::AbsDiff,
                    "vmin" => VideoOp::Min,
                    _ => VideoOp::Max,
                };
                let op2 = m.find(|s| match s {
                    "add" => Some(VideoOp::Add),
                    "min" => Some(VideoOp::Min),
                    "max" => Some(VideoOp::Max),
                    _ => None,
                });
                need(if op2.is_some() { 4 } else { 3 })?;
                if ops
                    .iter()
                    .any(|o| matches!(o, Operand::Reg(r) if r.contains('.')))
                {
                    return err(
                        line,
                        format!(
                            "'{}': operand selectors (.b0, .h1…) are not supported",
                            i.opcode
                        ),
                    );
                }
                let c = match op2 {
                    Some(_) => self.src(&ops[3], dty)?,
                    None => self.constant(0)?,
                };
                Op::Video(Box::new(Video {
                    op,
                    op2,
                    sat: m.has("sat"),
                    signed: [dty.is_signed(), aty.is_signed(), bty.is_signed()],
                    d: self.dst(&ops[0])?,
                    a: self.src(&ops[1], aty)?,
                    b: self.src(&ops[2], bty)?,
                    c,
                }))
            }
            _ => return Ok(None),
        }))
    }
}

/// A directed rounding mode (`.rz`, `.rm`, `.rp`) on an instruction, with the operation that
/// computes it (`exec::directed`).
struct Directed {
    op: DirectedOp,
    round: Round,
}

impl Directed {
    fn with(self, ty: Ty, m: &Mods, d: Reg, a: Src, b: Src, c: Src) -> Op {
        Op::Directed {
            op: self.op,
            round: self.round,
            ty,
            ftz: m.has("ftz"),
            sat: m.has("sat"),
            d,
            a,
            b,
            c,
        }
    }
}

/// The directed form of an instruction whose modifiers ask for one: None for round-to-nearest
/// (or none given). Refused at load time where the instruction has no directed form, or this
/// host cannot compute it exactly (`directed::supported`).
fn directed_op(m: &Mods, line: u32, opcode: &str, op: Option<DirectedOp>) -> R<Option<Directed>> {
    match (m.round(), op) {
        (None | Some(Round::Nearest), _) => Ok(None),
        (Some(round), Some(op)) if directed::supported(op) => Ok(Some(Directed { op, round })),
        (Some(_), _) => err(
            line,
            format!("'{opcode}': directed rounding is not supported by ptxsim on this host"),
        ),
    }
}

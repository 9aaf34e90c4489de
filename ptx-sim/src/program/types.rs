//! PTX's scalar types and the modifiers decoding turns into enums.

/// A scalar type of an instruction or a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    B8,
    B16,
    B32,
    B64,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F32,
    F64,
    Pred,
}

impl Ty {
    pub fn parse(s: &str) -> Option<Ty> {
        Some(match s {
            "b8" => Ty::B8,
            "b16" => Ty::B16,
            "b32" => Ty::B32,
            "b64" => Ty::B64,
            "u8" => Ty::U8,
            "u16" => Ty::U16,
            "u32" => Ty::U32,
            "u64" => Ty::U64,
            "s8" => Ty::S8,
            "s16" => Ty::S16,
            "s32" => Ty::S32,
            "s64" => Ty::S64,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            "pred" => Ty::Pred,
            _ => return None,
        })
    }

    pub fn bits(self) -> u32 {
        match self {
            Ty::Pred => 1,
            Ty::B8 | Ty::U8 | Ty::S8 => 8,
            Ty::B16 | Ty::U16 | Ty::S16 => 16,
            Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 => 64,
        }
    }

    /// Bytes in memory (a predicate has none: it cannot be loaded or stored).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }

    /// The value `v` (a register's 64 bits) truncated to this type, sign- or zero-extended back
    /// to 64 bits as the type says.
    #[inline(always)]
    pub fn extend(self, v: u64) -> u64 {
        match self {
            Ty::S8 => v as i8 as i64 as u64,
            Ty::S16 => v as i16 as i64 as u64,
            Ty::S32 => v as i32 as i64 as u64,
            Ty::B8 | Ty::U8 => v & 0xff,
            Ty::B16 | Ty::U16 => v & 0xffff,
            Ty::B32 | Ty::U32 | Ty::F32 => v & 0xffff_ffff,
            Ty::Pred => (v != 0) as u64,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 => v,
        }
    }
}

/// A state space an instruction addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemSpace {
    Generic,
    Global,
    Shared,
    Local,
    Const,
    Param,
}

impl MemSpace {
    pub fn parse(s: &str) -> Option<MemSpace> {
        Some(match s {
            "global" => MemSpace::Global,
            "shared" | "shared::cta" => MemSpace::Shared,
            "local" => MemSpace::Local,
            "const" => MemSpace::Const,
            "param" | "param::entry" | "param::func" => MemSpace::Param,
            _ => return None,
        })
    }
}

/// Integer and floating-point comparisons of `setp`/`set` (the `u` forms are true when either
/// operand is NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

impl Cmp {
    pub fn parse(s: &str) -> Option<Cmp> {
        Some(match s {
            "eq" => Cmp::Eq,
            "ne" => Cmp::Ne,
            "lt" => Cmp::Lt,
            "le" => Cmp::Le,
            "gt" => Cmp::Gt,
            "ge" => Cmp::Ge,
            "lo" => Cmp::Lo,
            "ls" => Cmp::Ls,
            "hi" => Cmp::Hi,
            "hs" => Cmp::Hs,
            "equ" => Cmp::Equ,
            "neu" => Cmp::Neu,
            "ltu" => Cmp::Ltu,
            "leu" => Cmp::Leu,
            "gtu" => Cmp::Gtu,
            "geu" => Cmp::Geu,
            "num" => Cmp::Num,
            "nan" => Cmp::Nan,
            _ => return None,
        })
    }
}

/// How `setp`/`set` combine the comparison with a third, predicate operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// Rounding of a floating-point result (`.rn` … `.rp`) or, for `cvt`, of a float to an integral
/// value (`.rni` … `.rpi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    Nearest,
    Zero,
    Down,
    Up,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    Add,
    Inc,
    Dec,
    And,
    Or,
    Xor,
    Min,
    Max,
    Exch,
    Cas,
}

impl AtomOp {
    pub fn parse(s: &str) -> Option<AtomOp> {
        Some(match s {
            "add" => AtomOp::Add,
            "inc" => AtomOp::Inc,
            "dec" => AtomOp::Dec,
            "and" => AtomOp::And,
            "or" => AtomOp::Or,
            "xor" => AtomOp::Xor,
            "min" => AtomOp::Min,
            "max" => AtomOp::Max,
            "exch" => AtomOp::Exch,
            "cas" => AtomOp::Cas,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

/// Special registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sreg {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    LaneId,
    WarpId,
    NWarpId,
    SmId,
    NSmId,
    GridId,
    LaneMaskEq,
    LaneMaskLe,
    LaneMaskLt,
    LaneMaskGe,
    LaneMaskGt,
    Clock,
    Clock64,
    GlobalTimer,
    DynamicSmemSize,
    TotalSmemSize,
    EnvReg(u8),
}

impl Sreg {
    pub fn parse(s: &str) -> Option<Sreg> {
        let dim = |d: &str| match d {
            "x" => Some(0u8),
            "y" => Some(1),
            "z" => Some(2),
            _ => None,
        };
        if let Some((base, d)) = s.split_once('.') {
            let d = dim(d)?;
            return Some(match base {
                "%tid" => Sreg::Tid(d),
                "%ntid" => Sreg::Ntid(d),
                "%ctaid" => Sreg::Ctaid(d),
                "%nctaid" => Sreg::Nctaid(d),
                _ => return None,
            });
        }
        Some(match s {
            "%tid" => Sreg::Tid(0),
            "%laneid" => Sreg::LaneId,
            "%warpid" => Sreg::WarpId,
            "%nwarpid" => Sreg::NWarpId,
            "%smid" => Sreg::SmId,
            "%nsmid" => Sreg::NSmId,
            "%gridid" => Sreg::GridId,
            "%lanemask_eq" => Sreg::LaneMaskEq,
            "%lanemask_le" => Sreg::LaneMaskLe,
            "%lanemask_lt" => Sreg::LaneMaskLt,
            "%lanemask_ge" => Sreg::LaneMaskGe,
            "%lanemask_gt" => Sreg::LaneMaskGt,
            "%clock" => Sreg::Clock,
            "%clock64" => Sreg::Clock64,
            "%globaltimer" => Sreg::GlobalTimer,
            "%dynamic_smem_size" => Sreg::DynamicSmemSize,
            "%total_smem_size" => Sreg::TotalSmemSize,
            _ => {
                let n = s
                    .strip_prefix("%envreg")?
                    .parse::<u8>()
                    .ok()
                    .filter(|n| *n < 32)?;
                Sreg::EnvReg(n)
            }
        })
    }
}

//! A PTX module made executable: every function's instructions decoded into `Op`s whose
//! registers are indices into the thread's register file, whose labels are instruction indices
//! and whose variables are addresses (globals), shared-memory offsets or frame offsets.
//!
//! ```text
//! ld.global.f32  %f1, [%rd4+8];      →  Ld { space: Global, ty: F32, ds: [3], addr: Reg(7) + 8 }
//! @!%p1 bra $L__BB0_2;               →  Bra { target: 12 }, guard: Some(!reg 1)
//! mov.u64 %rd1, table;               →  Mov { d: 4, a: Imm(0x7f3a…) }   (table's device address)
//! ```
//!
//! Decoding is where unsupported PTX is found: `decode::load` fails with the PTX line and the
//! reason, which the driver reports the way the CUDA JIT reports bad PTX.

pub mod blocks;
pub mod decode;
pub mod types;

use crate::exec::specialize::{BinFn, CmpFn, UnFn};
pub use blocks::{BlockInfo, IssueClass, SiteInfo, SiteKind, ISSUE_CLASSES, NO_SITE};
use std::collections::HashMap;
pub use types::*;

/// A register: an index into the current frame's register file.
pub type Reg = u16;

/// A source operand: always a register. Immediates and the special registers that are constant
/// for a thread (`%tid.x`, `%ntid.x`, …) are given registers of their own, which `Function::init`
/// fills when a frame starts, so reading an operand is one indexed load whatever it is.
pub type Src = Reg;

/// What a register holds when its function's frame starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RegInit {
    Const(u64),
    Sreg(Sreg),
}

/// The base of an address operand `[base+offset]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AddrBase {
    Reg(Reg),
    /// An address known when the module is loaded: a global or constant variable, an offset in
    /// shared memory, a generic shared-window address, or a literal address.
    Abs(u64),
    /// A `.local` variable of the function: an offset in the current frame's local memory (in
    /// the `.local` space, or its generic-window address when `generic`).
    Local {
        offset: u32,
        generic: bool,
    },
    /// A `.param` variable of the function (its signature or a call sequence): an offset in the
    /// current frame's parameter area.
    Param(u32),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Addr {
    pub base: AddrBase,
    pub offset: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    Add,
    AddSat,
    Sub,
    SubSat,
    MulLo,
    MulHi,
    /// 32×32 → 64 (16×16 → 32): the result has twice the type's width.
    MulWide,
    Mul24Lo,
    Div,
    Rem,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    /// `bmsk.clamp.b32 d, a, b`: `b` bits set from bit `a`; 0 from `a >= 32`, the rest of the
    /// word from `b >= 32`.
    BmskClamp,
    /// `bmsk.wrap.b32`: `a` and `b` taken modulo 32.
    BmskWrap,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntUnOp {
    Not,
    Cnot,
    Neg,
    Abs,
    Popc,
    Clz,
    Brev,
    Bfind { shift_amount: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
    Min,
    Max,
    /// `min.NaN` / `max.NaN`: NaN if either operand is.
    MinNaN,
    MaxNaN,
    /// `copysign d, a, b`: b's magnitude with a's sign.
    Copysign,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatUnOp {
    Neg,
    Abs,
    Sqrt,
    Rsqrt,
    Rcp,
    Sin,
    Cos,
    Lg2,
    Ex2,
    Tanh,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MadKind {
    Lo,
    Hi,
    Wide,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestpKind {
    Finite,
    Infinite,
    Number,
    NotANumber,
    Normal,
    Subnormal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrmtMode {
    Default,
    F4e,
    B4e,
    Rc8,
    Ecl,
    Ecr,
    Rc16,
}

/// How `cvt` converts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CvtMode {
    /// Rounding of a float result (`.rn`…) or, with `integral`, to an integral value (`.rni`…).
    pub round: Option<Round>,
    pub integral: bool,
    pub sat: bool,
    pub ftz: bool,
}

/// The operation of a scalar video instruction (`vadd`, …) and of its secondary operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VideoOp {
    Add,
    Sub,
    AbsDiff,
    Min,
    Max,
}

/// `vsub.u32.u32.u32.add d, a, b, c`: d = (a - b) + c, computed without overflow, saturated
/// to d's type with `.sat`, then truncated to 32 bits.
#[derive(Clone, Debug, PartialEq)]
pub struct Video {
    pub op: VideoOp,
    pub op2: Option<VideoOp>,
    pub sat: bool,
    /// Whether d, a and b are signed.
    pub signed: [bool; 3],
    pub d: Reg,
    pub a: Src,
    pub b: Src,
    pub c: Src,
}

/// What a barrier instruction does at the barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    /// `bar.sync` / `barrier.sync`: wait for the barrier.
    Sync,
    /// `bar.arrive`: count this thread, do not wait.
    Arrive,
    /// `bar.red.popc.u32 d, …, c`: wait, then d = number of threads whose c was true.
    RedPopc,
    RedAnd,
    RedOr,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub kind: BarKind,
    pub id: Src,
    /// Threads expected at the barrier (default: all threads of the block).
    pub count: Option<Src>,
    /// `bar.red`: destination and predicate source (negated or not).
    pub red: Option<(Reg, Src, bool)>,
}

/// A call of a `.func` (or of a function ptxsim provides, such as `vprintf`).
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The function called (for an indirect call, found at run time: see `indirect`).
    pub callee: usize,
    /// An indirect call (`call (r), %rd, (a), proto;`).
    pub indirect: Option<Indirect>,
    /// Caller parameter-area (offset, bytes) of each argument, in order.
    pub args: Vec<(u32, u32)>,
    /// Caller parameter-area (offset, bytes) of the return value.
    pub ret: Option<(u32, u32)>,
}

/// The target of an indirect call and what its prototype says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Indirect {
    /// The register holding the function's address (`function_address`).
    pub target: Src,
    /// Bytes of each parameter and of the return value, as the `.callprototype` declares them:
    /// the function called must have the same, or the call faults.
    pub params: Vec<u32>,
    pub ret: Option<u32>,
}

#[derive(Clone, Debug)]
pub enum Op {
    Mov {
        d: Reg,
        a: Src,
    },
    /// `mov.b64 %rd, {%r1, %r2}`: `n` parts of `bits` each, lowest first.
    Pack {
        bits: u8,
        n: u8,
        d: Reg,
        parts: [Src; 4],
    },
    /// `mov.b64 {%r1, %r2}, %rd` (None for a `_` sink).
    Unpack {
        bits: u8,
        n: u8,
        ds: [Option<Reg>; 4],
        a: Src,
    },
    /// `mov.v2.u32 %v, {a, b}` and the other moves of vector registers: element by element
    /// (all read before any is written).
    MovVec {
        n: u8,
        ds: [Option<Reg>; 4],
        srcs: [Src; 4],
    },
    /// `mov.u64 %rd, __local_depot0`: the frame-relative address of a local variable (its
    /// generic address with `generic`: `cvta.local.u64 %rd, %frame_ar`).
    LocalAddr {
        d: Reg,
        offset: u32,
        generic: bool,
    },
    /// `mov %r, %clock` and the other special registers that change while a thread runs.
    ReadClock {
        d: Reg,
        sreg: Sreg,
    },
    /// `f` is `ops::int` for `op` and `ty` (see `exec::specialize`).
    Int {
        op: IntOp,
        ty: Ty,
        f: BinFn,
        d: Reg,
        a: Src,
        b: Src,
    },
    IntUn {
        op: IntUnOp,
        ty: Ty,
        d: Reg,
        a: Src,
    },
    /// `add.cc` / `addc[.cc]` / `sub.cc` / `subc[.cc]`.
    Carry {
        sub: bool,
        carry_in: bool,
        carry_out: bool,
        ty: Ty,
        d: Reg,
        a: Src,
        b: Src,
    },
    /// `mad.{lo,hi,wide}`, and the extended-precision `mad.{lo,hi}.cc` / `madc.{lo,hi}[.cc]`
    /// (the product's half plus `c`, with the carry flag in and out as `Carry`'s).
    Mad {
        kind: MadKind,
        ty: Ty,
        carry_in: bool,
        carry_out: bool,
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    /// `f`: `ops::float` for `op` and `ty`, when neither `ftz` nor `sat` is set.
    Float {
        op: FloatOp,
        ty: Ty,
        ftz: bool,
        sat: bool,
        f: Option<BinFn>,
        d: Reg,
        a: Src,
        b: Src,
    },
    FloatUn {
        op: FloatUnOp,
        ty: Ty,
        ftz: bool,
        d: Reg,
        a: Src,
    },
    Fma {
        ty: Ty,
        ftz: bool,
        sat: bool,
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    /// `add`/`sub`/`mul`/`div`/`fma`/`sqrt`/`rcp` with `.rz`, `.rm` or `.rp`
    /// (`exec::directed`); `b` and `c` repeat `a` where the operation has fewer operands.
    Directed {
        op: crate::exec::directed::DirectedOp,
        round: Round,
        ty: Ty,
        ftz: bool,
        sat: bool,
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    /// `f`: `ops::compare` for `cmp` and `ty`, when `ftz` is not set.
    Setp {
        cmp: Cmp,
        ty: Ty,
        ftz: bool,
        f: Option<CmpFn>,
        d: Reg,
        d_not: Option<Reg>,
        a: Src,
        b: Src,
        combine: Option<(BoolOp, Src, bool)>,
    },
    /// `set`: 1.0f / all ones when the comparison holds, else 0.
    Set {
        cmp: Cmp,
        ty: Ty,
        dty: Ty,
        ftz: bool,
        d: Reg,
        a: Src,
        b: Src,
        combine: Option<(BoolOp, Src, bool)>,
    },
    Selp {
        d: Reg,
        a: Src,
        b: Src,
        p: Src,
    },
    Slct {
        ty: Ty,
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    /// `f`: the instance of `ops::cvt` for these types and mode, where there is one.
    Cvt {
        dty: Ty,
        sty: Ty,
        mode: CvtMode,
        f: Option<UnFn>,
        d: Reg,
        a: Src,
    },
    /// `cvta.space` (to_generic) / `cvta.to.space`.
    Cvta {
        to_generic: bool,
        space: MemSpace,
        d: Reg,
        a: Src,
    },
    Isspacep {
        space: MemSpace,
        d: Reg,
        a: Src,
    },
    Testp {
        kind: TestpKind,
        ty: Ty,
        d: Reg,
        a: Src,
    },
    Video(Box<Video>),
    Bfe {
        ty: Ty,
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    Bfi {
        ty: Ty,
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
        e: Src,
    },
    Prmt {
        mode: PrmtMode,
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    Shf {
        left: bool,
        wrap: bool,
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
    },
    Lop3 {
        d: Reg,
        a: Src,
        b: Src,
        c: Src,
        lut: u8,
    },
    Ld {
        space: MemSpace,
        ty: Ty,
        n: u8,
        volatile: bool,
        ds: [Option<Reg>; 4],
        addr: Addr,
    },
    St {
        space: MemSpace,
        ty: Ty,
        n: u8,
        volatile: bool,
        srcs: [Src; 4],
        addr: Addr,
    },
    Atom {
        space: MemSpace,
        op: AtomOp,
        ty: Ty,
        d: Option<Reg>,
        addr: Addr,
        a: Src,
        b: Src,
    },
    Bra {
        target: u32,
    },
    Call(Box<Call>),
    Ret,
    Exit,
    Trap,
    Bar(Box<Bar>),
    BarWarp {
        mask: Src,
    },
    Shfl {
        mode: ShflMode,
        d: Reg,
        dp: Option<Reg>,
        a: Src,
        b: Src,
        c: Src,
        mask: Src,
    },
    Vote {
        mode: VoteMode,
        d: Reg,
        a: Src,
        negate: bool,
        mask: Src,
    },
    Redux {
        op: IntOp,
        ty: Ty,
        d: Reg,
        a: Src,
        mask: Src,
    },
    MatchAny {
        ty: Ty,
        d: Reg,
        a: Src,
        mask: Src,
    },
    MatchAll {
        ty: Ty,
        d: Reg,
        dp: Option<Reg>,
        a: Src,
        mask: Src,
    },
    Activemask {
        d: Reg,
    },
    Fence,
    Nop,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    pub reg: Reg,
    /// `@!%p`: run when the predicate is false.
    pub negate: bool,
}

#[derive(Clone, Debug)]
pub struct Inst {
    pub op: Op,
    pub guard: Option<Guard>,
    /// Line in the PTX text.
    pub line: u32,
    /// Whether the lanes of a lockstep warp execute it together (`Op::is_lockstep_point`).
    pub lockstep_point: bool,
    /// Its basic block (program-wide index into `Program::blocks`), and whether it is the
    /// block's first instruction (see `blocks.rs`).
    pub block: u32,
    pub leader: bool,
    /// Its memory site (index into `Program::sites`), or `NO_SITE`.
    pub site: u32,
}

impl Inst {
    pub fn new(op: Op, guard: Option<Guard>, line: u32) -> Inst {
        Inst {
            lockstep_point: op.is_lockstep_point(),
            op,
            guard,
            line,
            block: 0,
            leader: false,
            site: NO_SITE,
        }
    }
}

impl Op {
    /// Whether the lanes of a lockstep warp must execute it together (see `exec::block`): it
    /// touches memory other lanes see, transfers control (where lanes may diverge) or is a
    /// collective. What lies between two such instructions only touches a lane's registers.
    pub fn is_lockstep_point(&self) -> bool {
        match self {
            Op::Ld { space, .. } => {
                !matches!(space, MemSpace::Param | MemSpace::Local | MemSpace::Const)
            }
            Op::St { space, .. } => !matches!(space, MemSpace::Param | MemSpace::Local),
            Op::Atom { .. }
            | Op::Bra { .. }
            | Op::Call(_)
            | Op::Ret
            | Op::Exit
            | Op::Trap
            | Op::Bar(_)
            | Op::BarWarp { .. }
            | Op::Shfl { .. }
            | Op::Vote { .. }
            | Op::Redux { .. }
            | Op::MatchAny { .. }
            | Op::MatchAll { .. }
            | Op::Activemask { .. }
            | Op::ReadClock { .. }
            | Op::Fence => true,
            _ => false,
        }
    }
}

/// Functions ptxsim implements itself when a module declares them `.extern`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// CUDA's device printf: (format, argument buffer) → characters printed.
    Vprintf,
    /// `assert` failure: (message, file, line, function, char size).
    AssertFail,
    /// The device heap: `malloc(size)` → pointer (NULL when exhausted), `free(pointer)`.
    Malloc,
    Free,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub is_entry: bool,
    pub code: Vec<Inst>,
    /// Registers in a frame of this function (register 0 is the `_` sink).
    pub num_regs: usize,
    /// Registers that start with a value: immediates and per-thread special registers.
    pub init: Vec<(Reg, RegInit)>,
    /// Bytes of its parameter area: formal parameters, return values, call-sequence parameters.
    pub param_bytes: u32,
    /// (offset, bytes) of each formal parameter in the parameter area.
    pub params: Vec<(u32, u32)>,
    pub ret: Option<(u32, u32)>,
    /// Bytes of `.local` memory a frame needs.
    pub local_bytes: u32,
    pub maxntid: Option<[u32; 3]>,
    pub reqntid: Option<[u32; 3]>,
    /// Set for `.extern` functions ptxsim provides.
    pub builtin: Option<Builtin>,
}

/// A module-level `.global` or `.const` variable and where it lives.
#[derive(Clone, Debug)]
pub struct GlobalVar {
    pub name: String,
    pub addr: u64,
    pub bytes: u64,
}

#[derive(Clone, Debug)]
pub struct Program {
    pub functions: Vec<Function>,
    pub function_index: HashMap<String, usize>,
    pub globals: Vec<GlobalVar>,
    /// Bytes of static shared memory per block (every `.shared` variable of the module).
    pub shared_bytes: u32,
    /// Each static shared variable: (name, offset, bytes), for messages.
    pub shared_vars: Vec<(String, u32, u32)>,
    /// Offset of dynamic shared memory (`.extern .shared` arrays) in a block's shared memory:
    /// after the static variables.
    pub dynamic_shared_offset: u32,
    pub target: String,
    /// Distinguishes this program's function addresses from another's (`function_address`).
    pub tag: u64,
    /// Whether the threads of a warp run in lockstep (PTX for targets before sm_70, written
    /// for GPUs that ran warps that way; see `exec::block`), rather than independently.
    pub lockstep: bool,
    /// The basic blocks and memory sites of all functions (`blocks::annotate`).
    pub blocks: Vec<BlockInfo>,
    pub sites: Vec<SiteInfo>,
}

impl Program {
    /// Whether its kernels call malloc or free (and so need the device heap).
    pub fn uses_heap(&self) -> bool {
        self.functions
            .iter()
            .any(|f| matches!(f.builtin, Some(Builtin::Malloc | Builtin::Free)))
    }

    /// The registers a thread of `kernel` needs, as far as ptxsim can tell (registers are not
    /// modelled): the most any function it may call has (all of them, if it makes an indirect
    /// call). What CU_FUNC_ATTRIBUTE_NUM_REGS reports, from which GCC's plugin sizes its grids.
    pub fn registers(&self, kernel: usize) -> usize {
        let mut seen = vec![false; self.functions.len()];
        let mut todo = vec![kernel];
        let mut most = 0;
        while let Some(f) = todo.pop() {
            if std::mem::replace(&mut seen[f], true) {
                continue;
            }
            most = most.max(self.functions[f].num_regs);
            for inst in &self.functions[f].code {
                if let Op::Call(c) = &inst.op {
                    if c.indirect.is_some() {
                        return self.functions.iter().map(|f| f.num_regs).max().unwrap_or(0);
                    }
                    todo.push(c.callee);
                }
            }
        }
        most
    }

    /// The function whose address (`function_address`) is `addr`, if it is one of this program's.
    pub fn function_at(&self, addr: u64) -> Option<usize> {
        let (tag, index) = function_of_address(addr)?;
        (tag == self.tag && index < self.functions.len()).then_some(index)
    }

    pub fn function(&self, name: &str) -> Option<&Function> {
        self.function_index.get(name).map(|&i| &self.functions[i])
    }

    pub fn global(&self, name: &str) -> Option<&GlobalVar> {
        self.globals.iter().find(|g| g.name == name)
    }

    /// "'name' + 4" for an offset in shared memory.
    pub fn describe_shared(&self, offset: usize) -> String {
        let offset = offset as u32;
        if let Some((name, at, _)) = self
            .shared_vars
            .iter()
            .find(|(_, at, n)| (*at..at + n).contains(&offset))
        {
            return format!("'{name}' + {}", offset - at);
        }
        if offset >= self.dynamic_shared_offset {
            return format!(
                "dynamic shared memory + {}",
                offset - self.dynamic_shared_offset
            );
        }
        format!("offset {offset}")
    }
}

/// Base of the generic-address window onto a block's shared memory (above any x86-64 user
/// address, so it never collides with global memory, which is host memory in ptxsim).
pub const SHARED_WINDOW: u64 = 0x0001_0000_0000_0000;
/// Base of the generic-address window onto a thread's local memory.
pub const LOCAL_WINDOW: u64 = 0x0002_0000_0000_0000;
/// Size of each window.
pub const WINDOW_BYTES: u64 = 1 << 40;

/// Function addresses (`mov.u64 %rd, f;`, an initializer naming a function) lie in a window of
/// their own, outside every memory space (an access through one faults):
/// `FUNC_WINDOW | tag << 24 | index << 3`, where the tag names the program.
pub const FUNC_WINDOW: u64 = 0x0003_0000_0000_0000;
/// Bits of a program's tag in its function addresses.
pub const FUNC_TAG_MASK: u64 = 0xff_ffff;

/// The address of function `index` of the program tagged `tag`.
pub fn function_address(tag: u64, index: usize) -> u64 {
    FUNC_WINDOW | (tag & FUNC_TAG_MASK) << 24 | (index as u64 & 0x1f_ffff) << 3
}

/// (tag, index) of a function address; None for anything else.
pub fn function_of_address(addr: u64) -> Option<(u64, usize)> {
    (addr >> 48 == FUNC_WINDOW >> 48 && addr & 7 == 0).then_some({
        (
            (addr >> 24) & FUNC_TAG_MASK,
            ((addr & 0xff_ffff) >> 3) as usize,
        )
    })
}

//! Basic blocks and memory sites of a decoded program, for the performance counters
//! (`crate::stats`).
//!
//! A basic block here is a run of instructions entered only at its first (a function's start,
//! a branch target, the instruction after a call returns or after a barrier or warp collective
//! completes) and left only after its last (a branch, call, return, exit, trap, barrier or
//! collective). Every entry of a thread into a block executes all of its instructions
//! (predicated-off ones included, as a GPU issues them), so counting entries per block gives
//! every instruction's dynamic count, and the k-th entry names the k-th dynamic instance of
//! each instruction in it: what the counters use to group the lanes of a warp.
//!
//! ```text
//!  0  mov.u32 %r1, %tid.x;          block 0 (leader)   issue classes: int 2, mem 1
//!  1  ld.global.f64 %fd1, [%rd1];   block 0, memory site 0
//!  2  @%p1 bra $L1;                 block 0 (ends it)
//!  3  add.f64 %fd2, %fd1, %fd1;     block 1 (leader)   fp64 1, control 1
//!  4  ret;                          block 1 (ends it)
//! ```
//!
//! A memory site is a load, store or atomic of global, generic, shared or local memory: the
//! instructions whose lanes' addresses the counters combine into warp-level requests.

use super::*;

/// What kind of pipeline issues an instruction (the device model gives each a rate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IssueClass {
    /// f32 add, mul, fma, compare, min/max.
    Fp32 = 0,
    /// The same in f64.
    Fp64 = 1,
    /// Integer and logic operations, moves, selects, parameter loads.
    Int = 2,
    /// Special functions (sqrt, rcp, sin, ex2, …, f32 division) and conversions with a float.
    Sfu = 3,
    /// Loads, stores and atomics of global, shared and local memory.
    Mem = 4,
    /// Branches, calls, returns, barriers and warp collectives.
    Control = 5,
}

pub const ISSUE_CLASSES: usize = 6;

/// One basic block: its length and how many of its instructions each class issues; and the
/// issue slots they take once ptxas has expanded them (`Op::issue_slots`), by class.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockInfo {
    pub len: u32,
    pub classes: [u32; ISSUE_CLASSES],
    pub slots: u32,
    pub class_slots: [u32; ISSUE_CLASSES],
}

/// One memory site: the basic block it lies in and the memory it accesses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SiteInfo {
    pub block: u32,
    pub kind: SiteKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteKind {
    Load,
    Store,
    Atomic,
}

/// No memory site (`Inst::site`).
pub const NO_SITE: u32 = u32::MAX;

impl Op {
    /// Whether the instruction is the last of its basic block.
    fn ends_block(&self) -> bool {
        matches!(
            self,
            Op::Bra { .. }
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
        )
    }

    pub fn issue_class(&self) -> IssueClass {
        let float = |ty: &Ty| match ty {
            Ty::F64 => IssueClass::Fp64,
            _ => IssueClass::Fp32,
        };
        match self {
            Op::Float { op, ty, .. } => match (op, ty) {
                (FloatOp::Div, Ty::F32) => IssueClass::Sfu,
                _ => float(ty),
            },
            Op::Fma { ty, .. } => float(ty),
            Op::Directed { op, ty, .. } => {
                use crate::exec::directed::DirectedOp;
                match (op, ty) {
                    (DirectedOp::Sqrt | DirectedOp::Rcp, _) | (DirectedOp::Div, Ty::F32) => {
                        IssueClass::Sfu
                    }
                    _ => float(ty),
                }
            }
            Op::FloatUn { op, ty, .. } => match op {
                FloatUnOp::Neg | FloatUnOp::Abs => float(ty),
                _ => IssueClass::Sfu,
            },
            Op::Setp { ty, .. } | Op::Set { ty, .. } if ty.is_float() => float(ty),
            Op::Cvt { dty, sty, .. } if dty.is_float() || sty.is_float() => IssueClass::Sfu,
            Op::Ld {
                space: MemSpace::Param | MemSpace::Const,
                ..
            } => IssueClass::Int,
            Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } => IssueClass::Mem,
            op if op.ends_block() => IssueClass::Control,
            _ => IssueClass::Int,
        }
    }

    /// The SASS instructions ptxas makes of this one, where that is far from one: an integer
    /// division or remainder, which sm_90 has no instruction for (ptxas -O3, sm_90, over the
    /// instruction alone: `div.u32` by a register 18, `div.s32` 23, `rem` 17 and 21; 64-bit ones
    /// call a routine of 68 to 87; by a constant, a multiply-high and shifts, about 4 and 8).
    /// `divisor_is_constant` says whether operand b is an immediate. Every other instruction
    /// counts one: PTX instructions stand for SASS ones in the time model (ptx-sim/README.md).
    pub fn issue_slots(&self, divisor_is_constant: impl Fn(Src) -> bool) -> u32 {
        match self {
            Op::Int {
                op: IntOp::Div | IntOp::Rem,
                ty,
                b,
                ..
            } => {
                let wide = ty.bits() > 32;
                match (divisor_is_constant(*b), wide) {
                    (true, false) => 4,
                    (true, true) => 8,
                    (false, false) => 20,
                    (false, true) => 75,
                }
            }
            _ => 1,
        }
    }

    /// The kind of memory site, for accesses the counters follow.
    fn site_kind(&self) -> Option<SiteKind> {
        let counted = |s: &MemSpace| !matches!(s, MemSpace::Param | MemSpace::Const);
        match self {
            Op::Ld { space, .. } if counted(space) => Some(SiteKind::Load),
            Op::St { space, .. } if counted(space) => Some(SiteKind::Store),
            Op::Atom { .. } => Some(SiteKind::Atomic),
            _ => None,
        }
    }
}

/// Numbers the basic blocks and memory sites of every function of `p` (program-wide), setting
/// each instruction's `block`, `leader` and `site`, and `p.blocks` / `p.sites`.
pub fn annotate(p: &mut Program) {
    let mut blocks: Vec<BlockInfo> = Vec::new();
    let mut sites: Vec<SiteInfo> = Vec::new();
    for f in &mut p.functions {
        let constants: std::collections::HashSet<Reg> = f
            .init
            .iter()
            .filter(|(_, i)| matches!(i, RegInit::Const(_)))
            .map(|(r, _)| *r)
            .collect();
        let n = f.code.len();
        let mut leader = vec![false; n];
        if n > 0 {
            leader[0] = true;
        }
        for (pc, inst) in f.code.iter().enumerate() {
            if let Op::Bra { target } = inst.op {
                if let Some(l) = leader.get_mut(target as usize) {
                    *l = true;
                }
            }
            if inst.op.ends_block() && pc + 1 < n {
                leader[pc + 1] = true;
            }
        }
        for (pc, inst) in f.code.iter_mut().enumerate() {
            if leader[pc] {
                blocks.push(BlockInfo::default());
            }
            let b = blocks.len() as u32 - 1;
            let info = &mut blocks[b as usize];
            info.len += 1;
            info.classes[inst.op.issue_class() as usize] += 1;
            // A branch to the next instruction (LLVM's NVPTX back end leaves `bra.uni $L; $L:`
            // after a branch on a negated predicate it cannot analyse) is a fall-through:
            // ptxas emits no instruction for it, so it issues nothing.
            let falls_through = matches!(inst.op, Op::Bra { target } if target as usize == pc + 1);
            let slots = if falls_through {
                0
            } else {
                inst.op.issue_slots(|r| constants.contains(&r))
            };
            info.slots += slots;
            info.class_slots[inst.op.issue_class() as usize] += slots;
            inst.block = b;
            inst.leader = leader[pc];
            inst.site = match inst.op.site_kind() {
                Some(kind) => {
                    sites.push(SiteInfo { block: b, kind });
                    sites.len() as u32 - 1
                }
                None => NO_SITE,
            };
        }
    }
    p.blocks = blocks;
    p.sites = sites;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(ptx: &str) -> Program {
        struct Mem;
        impl decode::GlobalMemory for Mem {
            fn alloc(&mut self, bytes: u64, _align: u64) -> Result<u64, String> {
                let v = vec![0u64; bytes.div_ceil(8).max(1) as usize].leak();
                Ok(v.as_mut_ptr() as u64)
            }
            fn write(&mut self, _addr: u64, _data: &[u8]) {}
        }
        decode::load(ptx, &mut Mem).expect("decodes")
    }

    #[test]
    fn blocks_split_at_branches_and_targets() {
        let p = program(
            ".version 7.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 a) {\n\
             .reg .pred %p<2>; .reg .b64 %rd<3>; .reg .f64 %fd<3>; .reg .b32 %r<2>;\n\
             ld.param.u64 %rd1, [a];\n\
             mov.u32 %r1, %tid.x;\n\
             setp.eq.s32 %p1, %r1, 0;\n\
             @%p1 bra $L1;\n\
             ld.global.f64 %fd1, [%rd1];\n\
             add.f64 %fd2, %fd1, %fd1;\n\
             st.global.f64 [%rd1], %fd2;\n\
             $L1:\n\
             ret;\n}\n",
        );
        let code = &p.functions[0].code;
        let blocks: Vec<u32> = code.iter().map(|i| i.block).collect();
        assert_eq!(blocks, [0, 0, 0, 0, 1, 1, 1, 2]);
        assert_eq!(p.blocks[0].len, 4);
        assert_eq!(p.blocks[1].classes[IssueClass::Mem as usize], 2);
        assert_eq!(p.blocks[1].classes[IssueClass::Fp64 as usize], 1);
        assert_eq!(p.blocks[0].classes[IssueClass::Control as usize], 1);
        assert_eq!(p.sites.len(), 2);
        assert_eq!(p.sites[1].kind, SiteKind::Store);
        assert_eq!(code[4].site, 0);
        assert_eq!(code[0].site, NO_SITE);
    }

    #[test]
    fn a_branch_to_the_next_instruction_issues_nothing() {
        let p = program(
            ".version 7.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 a) {\n\
             .reg .pred %p<2>; .reg .b64 %rd<3>; .reg .b32 %r<2>;\n\
             ld.param.u64 %rd1, [a];\n\
             mov.u32 %r1, %tid.x;\n\
             setp.eq.s32 %p1, %r1, 0;\n\
             @!%p1 bra $L2;\n\
             bra.uni $L1;\n\
             $L1:\n\
             st.global.u32 [%rd1], %r1;\n\
             bra.uni $L2;\n\
             $L2:\n\
             ret;\n}\n",
        );
        // Blocks: [ld, mov, setp, @!p bra] [bra.uni $L1] [st, bra.uni $L2] [ret]. Both
        // unconditional branches fall through: counted as PTX, no issue slot each.
        assert_eq!(p.blocks[1].len, 1);
        assert_eq!(p.blocks[1].slots, 0);
        assert_eq!(p.blocks[2].len, 2);
        assert_eq!(p.blocks[2].slots, 1);
        assert_eq!(p.blocks[2].class_slots[IssueClass::Control as usize], 0);
        assert_eq!(
            p.blocks[0].slots, 4,
            "a conditional branch elsewhere still issues"
        );
    }

    /// Integer divisions take the issue slots of what ptxas expands them into; the rest one.
    #[test]
    fn divisions_take_their_expansion() {
        let p = program(
            ".version 7.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 a) {\n\
             .reg .b64 %rd<6>; .reg .b32 %r<5>;\n\
             ld.param.u64 %rd1, [a];\n\
             mov.u32 %r1, %tid.x;\n\
             div.u32 %r2, %r1, 7;\n\
             rem.s32 %r3, %r1, %r2;\n\
             cvt.u64.u32 %rd2, %r3;\n\
             div.s64 %rd3, %rd1, %rd2;\n\
             rem.u64 %rd4, %rd3, 10;\n\
             ret;\n}\n",
        );
        let b = &p.blocks[0];
        assert_eq!(b.len, 8);
        // 4 single-slot instructions, a 32-bit division by a constant (4), a 32-bit remainder
        // by a register (20), a 64-bit division by a register (75), a 64-bit remainder by a
        // constant (8).
        assert_eq!(b.slots, 4 + 4 + 20 + 75 + 8);
        assert_eq!(b.class_slots[IssueClass::Int as usize], b.slots - 1);
        assert_eq!(b.class_slots[IssueClass::Control as usize], 1);
    }
}

//! The threads a function's worksharing loops and reductions split over.
//!
//! A block's threads form one flat space by default (`threadIdx.x` of `blockDim.x`). A parallel
//! region nested in a parallel region of a target region (OpenACC's `vector` loop inside a
//! `worker` loop) needs a second level: ptxcc gives each thread of the outer region a warp (the
//! worker) and each thread of the inner region a lane of that warp, a virtual 2-D block
//! (`threadIdx.y` / `threadIdx.x` in CUDA terms) over the 1-D one every other mechanism uses:
//!
//! ```text
//! worker = tid.x >> 5     of  (ntid.x + 31) >> 5      ; Space::Warps
//! lane   = tid.x & 31     of  min(V, threads of this warp)   ; Space::Lanes(V)
//! ```
//!
//! The code of the target and teams levels outside parallel regions, which every thread of the
//! block runs redundantly, is `Space::Team`: to OpenMP it is the team's initial thread (thread 0
//! of 1, not in parallel).
//!
//! Kernel formation decides the space of each outlined function and records it as function
//! attribute; loop mapping, the reduction lowering and the device builtins read it:
//!
//! ```llvm
//! define internal void @..omp_outlined.omp_outlined(...) #1         ; #1 = { "ptxcc-threads"="warps" }
//! define internal void @..omp_outlined.omp_outlined.omp_outlined(...) #2   ; #2 = { "ptxcc-threads"="lanes:32" }
//! ```
use crate::nvvm::{self, SReg};
use inkwell::attributes::AttributeLoc;
use inkwell::builder::Builder;
use inkwell::module::Module;
use inkwell::values::{FunctionValue, IntValue};
use inkwell::IntPredicate;

/// Threads per warp.
pub const WARP: u32 = 32;

/// The function attribute that records a space.
const ATTR: &str = "ptxcc-threads";

/// Which threads of the block a function's loops are spread over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// Every thread of the block.
    Block,
    /// One worker per warp; the warp's lanes run the function's code redundantly.
    Warps,
    /// The first `n` lanes (1..=32) of the calling thread's warp.
    Lanes(u32),
    /// The calling thread alone (a nested region whose worker code cannot run in every lane).
    Single,
    /// The code of a target or teams region outside its parallel regions, which every thread
    /// of the block runs redundantly on behalf of the team's initial thread: OpenMP sees one
    /// thread (number 0 of 1) at parallel level 0.
    Team,
}

impl Space {
    /// The space of `f`, `Block` when kernel formation recorded none.
    pub fn of(f: FunctionValue<'_>) -> Space {
        let Some(attr) = f.get_string_attribute(AttributeLoc::Function, ATTR) else {
            return Space::Block;
        };
        let value = attr.get_string_value().to_string_lossy().into_owned();
        match value.as_str() {
            "warps" => Space::Warps,
            "single" => Space::Single,
            "team" => Space::Team,
            v => match v.strip_prefix("lanes:").and_then(|n| n.parse::<u32>().ok()) {
                Some(n) => Space::Lanes(n.clamp(1, WARP)),
                None => Space::Block,
            },
        }
    }

    /// Records the space of `f`.
    pub fn set(self, f: FunctionValue<'_>) {
        let value = match self {
            Space::Block => {
                f.remove_string_attribute(AttributeLoc::Function, ATTR);
                return;
            }
            Space::Warps => "warps".to_string(),
            Space::Lanes(n) => format!("lanes:{n}"),
            Space::Single => "single".to_string(),
            Space::Team => "team".to_string(),
        };
        let ctx = f.get_type().get_context();
        f.add_attribute(
            AttributeLoc::Function,
            ctx.create_string_attribute(ATTR, &value),
        );
    }

    /// Records the space of each of `fs`.
    pub fn set_all(self, fs: &[FunctionValue<'_>]) {
        for f in fs {
            self.set(*f);
        }
    }

    /// The threads of the space, in a user's words (for -fptxcc-info).
    pub fn describe(self) -> String {
        match self {
            Space::Block => "threads of a block".into(),
            Space::Warps => "workers of a block (one warp each)".into(),
            Space::Lanes(n) => format!("vector lanes of the worker's warp ({n})"),
            Space::Single => "one thread alone (sequentially)".into(),
            Space::Team => "the team's initial thread".into(),
        }
    }

    /// The index, as the remarks name it.
    pub fn id_name(self) -> &'static str {
        match self {
            Space::Block => "tid.x",
            Space::Warps => "tid.x / 32",
            Space::Lanes(_) => "tid.x % 32",
            Space::Single | Space::Team => "0",
        }
    }

    /// The number of indices, as the remarks name it.
    pub fn count_name(self) -> String {
        match self {
            Space::Block => "ntid.x".into(),
            Space::Warps => "ntid.x / 32".into(),
            Space::Lanes(n) => n.to_string(),
            Space::Single | Space::Team => "1".into(),
        }
    }

    /// This thread's index in the space and the number of indices, as i32 values built at `b`.
    /// In `Lanes(n)` a lane at or past the count gets an index >= the count (no work).
    pub fn id_and_count<'ctx>(
        self,
        m: &Module<'ctx>,
        b: &Builder<'ctx>,
    ) -> anyhow::Result<(IntValue<'ctx>, IntValue<'ctx>)> {
        let i32t = m.get_context().i32_type();
        let tid = || nvvm::read_sreg(m, b, SReg::TidX);
        let ntid = || nvvm::read_sreg(m, b, SReg::NtidX);
        Ok(match self {
            Space::Single | Space::Team => (i32t.const_zero(), i32t.const_int(1, false)),
            Space::Block => (tid()?, ntid()?),
            Space::Warps => {
                let id =
                    b.build_right_shift(tid()?, i32t.const_int(5, false), false, "ptxcc.worker")?;
                let n = b.build_right_shift(
                    b.build_int_add(ntid()?, i32t.const_int(WARP as u64 - 1, false), "")?,
                    i32t.const_int(5, false),
                    false,
                    "ptxcc.workers",
                )?;
                (id, n)
            }
            Space::Lanes(v) => {
                let tid = tid()?;
                let id = b.build_and(tid, i32t.const_int(WARP as u64 - 1, false), "ptxcc.lane")?;
                let n = lanes_in_warp(m, b, tid, ntid()?)?;
                let v = i32t.const_int(v as u64, false);
                let fewer = b.build_int_compare(IntPredicate::ULT, n, v, "")?;
                let n = b.build_select(fewer, n, v, "ptxcc.lanes")?.into_int_value();
                (id, n)
            }
        })
    }

    /// Whether this thread is the one whose stores reach memory for its group: thread 0 of
    /// the block (Block), lane 0 of the warp (Warps, Lanes), the thread itself (Single).
    pub fn is_leader<'ctx>(
        self,
        m: &Module<'ctx>,
        b: &Builder<'ctx>,
    ) -> anyhow::Result<IntValue<'ctx>> {
        let ctx = m.get_context();
        let i32t = ctx.i32_type();
        let id = match self {
            Space::Single => return Ok(ctx.bool_type().const_int(1, false)),
            Space::Block | Space::Team => nvvm::read_sreg(m, b, SReg::TidX)?,
            Space::Warps | Space::Lanes(_) => b.build_and(
                nvvm::read_sreg(m, b, SReg::TidX)?,
                i32t.const_int(WARP as u64 - 1, false),
                "",
            )?,
        };
        Ok(b.build_int_compare(IntPredicate::EQ, id, i32t.const_zero(), "ptxcc.leader")?)
    }

    /// Synchronises the threads that run this space's code together: the block (`bar.sync 0`),
    /// the calling thread's warp (`bar.warp.sync` over the lanes it has), or none.
    pub fn sync<'ctx>(self, m: &Module<'ctx>, b: &Builder<'ctx>) -> anyhow::Result<()> {
        match self {
            Space::Block | Space::Team => nvvm::barrier(m, b),
            Space::Warps | Space::Lanes(_) => warp_sync(m, b),
            Space::Single => Ok(()),
        }
    }
}

/// How many threads the calling thread's warp has: 32, or fewer in a block whose size is not
/// a multiple of 32.
fn lanes_in_warp<'ctx>(
    m: &Module<'ctx>,
    b: &Builder<'ctx>,
    tid: IntValue<'ctx>,
    ntid: IntValue<'ctx>,
) -> anyhow::Result<IntValue<'ctx>> {
    let i32t = m.get_context().i32_type();
    let base = b.build_and(
        tid,
        i32t.const_int(!(WARP as u64 - 1) & 0xffff_ffff, false),
        "",
    )?;
    let left = b.build_int_sub(ntid, base, "")?;
    let warp = i32t.const_int(WARP as u64, false);
    let fewer = b.build_int_compare(IntPredicate::ULT, left, warp, "")?;
    Ok(b.build_select(fewer, left, warp, "ptxcc.warp.size")?
        .into_int_value())
}

/// `bar.warp.sync mask` over the lanes the calling thread's warp has.
pub fn warp_sync<'ctx>(m: &Module<'ctx>, b: &Builder<'ctx>) -> anyhow::Result<()> {
    let ctx = m.get_context();
    let i32t = ctx.i32_type();
    let tid = nvvm::read_sreg(m, b, SReg::TidX)?;
    let ntid = nvvm::read_sreg(m, b, SReg::NtidX)?;
    let n = lanes_in_warp(m, b, tid, ntid)?;
    // (1 << n) - 1 computed in 64 bits, so that n = 32 gives all ones.
    let i64t = ctx.i64_type();
    let n64 = b.build_int_z_extend(n, i64t, "")?;
    let bits = b.build_int_sub(
        b.build_left_shift(i64t.const_int(1, false), n64, "")?,
        i64t.const_int(1, false),
        "",
    )?;
    let mask = b.build_int_truncate(bits, i32t, "ptxcc.warp.mask")?;
    let f = inkwell::intrinsics::Intrinsic::find("llvm.nvvm.bar.warp.sync")
        .and_then(|i| i.get_declaration(m, &[]))
        .ok_or_else(|| anyhow::anyhow!("LLVM does not know llvm.nvvm.bar.warp.sync"))?;
    b.build_call(f, &[mask.into()], "")?;
    Ok(())
}

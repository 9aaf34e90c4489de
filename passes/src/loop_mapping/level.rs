//! The levels of the GPU's thread hierarchy a worksharing loop's iterations are split over, and
//! a thread's index at each, in the loop's integer type.
use crate::nvvm::{self, SReg};
use crate::thread_space::Space;
use inkwell::builder::Builder;
use inkwell::module::Module;
use inkwell::types::IntType;
use inkwell::values::IntValue;
use inkwell::IntPredicate;

/// One level of the GPU hierarchy a schedule splits over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Level {
    /// The blocks of the grid (`%ctaid.x` of `%nctaid.x`).
    Blocks,
    /// The threads of the calling function's space (the block's threads, its warps, or the
    /// lanes of a warp).
    Threads(Space),
    /// The threads of `space` in every block, numbered block after block: the level of a
    /// grid-stride loop (see [`super::grid_stride`]). `space` is `Block` or `Warps`.
    Grid(Space),
}

/// A 32-bit loop deals its iterations to at most this many threads of the grid; the others
/// take none. `nctaid.x * ntid.x` can pass 2^31 (a `num_teams` clause up to the grid's
/// maximum), and the cyclic step must stay far enough below INT_MAX that a loop's last step
/// rarely needs the fallback of [`super::cyclic`].
pub(super) const GRID_CAP_32: u64 = 1 << 30;

/// A thread's place at a level, in the loop's type.
pub(super) struct Ids<'ctx> {
    pub id: IntValue<'ctx>,
    pub count: IntValue<'ctx>,
    /// True for a thread past the count (a `Lanes(n)` space narrower than the warp, a grid
    /// wider than [`GRID_CAP_32`] for a 32-bit loop): it takes no iteration. None: there is none.
    pub idle: Option<IntValue<'ctx>>,
}

impl Level {
    /// This thread's index at the level, the number of indices and whether the thread is idle,
    /// as values of type `t` built at `b`.
    pub fn ids<'ctx>(
        self,
        m: &Module<'ctx>,
        b: &Builder<'ctx>,
        t: IntType<'ctx>,
    ) -> anyhow::Result<Ids<'ctx>> {
        let widen = |v: IntValue<'ctx>, name: &str| b.build_int_z_extend_or_bit_cast(v, t, name);
        match self {
            Level::Blocks => {
                let (id, n) = (
                    nvvm::read_sreg(m, b, SReg::CtaidX)?,
                    nvvm::read_sreg(m, b, SReg::NctaidX)?,
                );
                Ok(Ids {
                    id: widen(id, "ptxcc.id")?,
                    count: widen(n, "ptxcc.n")?,
                    idle: None,
                })
            }
            Level::Threads(space) => {
                let (id, n) = space.id_and_count(m, b)?;
                let idle = match space {
                    Space::Lanes(_) => {
                        Some(b.build_int_compare(IntPredicate::UGE, id, n, "ptxcc.idle")?)
                    }
                    _ => None,
                };
                Ok(Ids {
                    id: widen(id, "ptxcc.id")?,
                    count: widen(n, "ptxcc.n")?,
                    idle,
                })
            }
            Level::Grid(space) => {
                let i64t = m.get_context().i64_type();
                let (sid, per_block) = space.id_and_count(m, b)?;
                let wide = |v: IntValue<'ctx>| b.build_int_z_extend(v, i64t, "");
                let ctaid = wide(nvvm::read_sreg(m, b, SReg::CtaidX)?)?;
                let nctaid = wide(nvvm::read_sreg(m, b, SReg::NctaidX)?)?;
                let per_block = wide(per_block)?;
                let id = b.build_int_nuw_add(
                    b.build_int_nuw_mul(ctaid, per_block, "")?,
                    wide(sid)?,
                    "ptxcc.grid.id",
                )?;
                let n = b.build_int_nuw_mul(nctaid, per_block, "ptxcc.grid.n")?;
                if t.get_bit_width() >= 64 {
                    return Ok(Ids {
                        id,
                        count: n,
                        idle: None,
                    });
                }
                let cap = i64t.const_int(GRID_CAP_32, false);
                let idle = b.build_int_compare(IntPredicate::UGE, id, cap, "ptxcc.idle")?;
                let capped = b
                    .build_select(
                        b.build_int_compare(IntPredicate::ULT, n, cap, "")?,
                        n,
                        cap,
                        "",
                    )?
                    .into_int_value();
                Ok(Ids {
                    id: b.build_int_truncate(id, t, "ptxcc.id")?,
                    count: b.build_int_truncate(capped, t, "ptxcc.n")?,
                    idle: Some(idle),
                })
            }
        }
    }

    /// The number of indices at the level, in type `t` (as [`Level::ids`] counts them).
    pub fn count<'ctx>(
        self,
        m: &Module<'ctx>,
        b: &Builder<'ctx>,
        t: IntType<'ctx>,
    ) -> anyhow::Result<IntValue<'ctx>> {
        match self {
            Level::Blocks => {
                Ok(b.build_int_z_extend_or_bit_cast(nvvm::read_sreg(m, b, SReg::NctaidX)?, t, "")?)
            }
            Level::Threads(space) => {
                Ok(b.build_int_z_extend_or_bit_cast(space.id_and_count(m, b)?.1, t, "")?)
            }
            Level::Grid(_) => Ok(self.ids(m, b, t)?.count),
        }
    }

    /// The threads of the level, in a user's words (for -fptxcc-info).
    pub fn describe(self) -> String {
        match self {
            Level::Blocks => "blocks of the grid".into(),
            Level::Threads(space) => space.describe(),
            Level::Grid(Space::Warps) => "workers of the whole grid (one warp each)".into(),
            Level::Grid(_) => "threads of the whole grid".into(),
        }
    }

    /// The index, as the remarks name it.
    pub fn id_name(self) -> String {
        match self {
            Level::Blocks => "ctaid.x".into(),
            Level::Threads(space) => space.id_name().into(),
            Level::Grid(Space::Warps) => "ctaid.x * (ntid.x / 32) + tid.x / 32".into(),
            Level::Grid(_) => "ctaid.x * ntid.x + tid.x".into(),
        }
    }

    /// The number of indices, as the remarks name it.
    pub fn count_name(self) -> String {
        match self {
            Level::Blocks => "nctaid.x".into(),
            Level::Threads(space) => space.count_name(),
            Level::Grid(Space::Warps) => "nctaid.x * (ntid.x / 32)".into(),
            Level::Grid(_) => "nctaid.x * ntid.x".into(),
        }
    }
}

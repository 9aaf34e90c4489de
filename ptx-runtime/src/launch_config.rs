//! Grid and block of a launch, from the kernel's execution mode, the construct's num_teams /
//! thread_limit, the loop trip count and what the device suggests.

use crate::abi::ExecMode;
use crate::device::{DeviceLimits, LaunchDims};

/// What the construct asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// num_teams clause (> 0), if any.
    pub num_teams: Option<u32>,
    /// thread_limit / num_threads / vector_length (> 0), if any.
    pub thread_limit: Option<u32>,
    /// Iterations of the distributed loop (0: unknown).
    pub tripcount: u64,
    pub dyn_shared: u32,
    /// Threads of this kernel the device keeps resident at once (the occupancy API's grid for
    /// its suggested block), if it says: a grid sized from the trip count stops at one such wave.
    pub resident_threads: Option<u64>,
    /// The extents of the collapsed loop, for a kernel that takes a grid of its shape
    /// (`__ptxrt_push_collapse_shape`, passes `loop_mapping/grid_shape.rs`).
    pub shape: Option<Shape>,
}

/// The inner extents of a `collapse(2)` or `collapse(3)` loop whose kernel reads its indices
/// from a grid of the loop's shape: the innermost loop along x (`ctaid.x * ntid.x + tid.x`),
/// the next along y, the outermost along z (`collapse(3)`; `collapse(2)`: the outer along y).
/// The kernel checks that the grid covers the loop and falls back to a grid-stride loop over
/// the linear thread index otherwise, so a shape is only ever a matter of speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Iterations of the innermost loop (its divisor in the kernel).
    pub inner: u64,
    /// `collapse(3)`: iterations of the middle loop; None for `collapse(2)`.
    pub middle: Option<u64>,
}

/// CUDA's largest grid along y and z (every architecture).
pub const MAX_GRID_YZ: u64 = 65535;

/// The smallest block a shaped grid uses: a block of one warp holds an SM to half its threads.
const MIN_SHAPED_BLOCK: u64 = 64;

/// The fewest busy lanes (of the block's threads along a row) a shaped grid may leave: a row
/// of 40 in blocks of 64 would idle a third of every warp where the grid-stride loop idles none.
const MIN_SHAPED_LANES: f64 = 0.75;

/// The grid and block of a shaped launch of `trip` iterations in blocks of at most `block`
/// threads, or None when the shape does not pay (short or ragged rows) or does not fit the
/// device: x takes the innermost loop (blocks of its extent rounded up to whole warps), y and
/// z the outer loops.
pub fn shaped_dims(
    trip: u64,
    shape: Shape,
    block: u32,
    limits: &DeviceLimits,
) -> Option<([u32; 3], u32)> {
    let inner = shape.inner;
    if trip == 0 || inner == 0 || shape.middle == Some(0) {
        return None;
    }
    let bx = inner.div_ceil(32).saturating_mul(32).min(block as u64);
    if bx < MIN_SHAPED_BLOCK.min(block as u64) || bx == 0 {
        return None;
    }
    let gx = inner.div_ceil(bx);
    if (inner as f64) < MIN_SHAPED_LANES * (gx * bx) as f64 {
        return None;
    }
    let (gy, gz) = match shape.middle {
        None => (trip.div_ceil(inner), 1),
        Some(middle) => (middle, trip.div_ceil(inner.checked_mul(middle)?)),
    };
    let blocks = gx.checked_mul(gy)?.checked_mul(gz)?;
    if gy > MAX_GRID_YZ
        || gz > MAX_GRID_YZ
        || gx > limits.max_grid as u64
        || blocks > i32::MAX as u64
    {
        return None;
    }
    Some(([gx as u32, gy as u32, gz as u32], bx as u32))
}

impl Request {
    /// From `__tgt_target_kernel`'s arguments and KernelArgs (clang passes -1 or 0 for "not given").
    pub fn new(
        num_teams_arg: i32,
        thread_limit_arg: i32,
        args_teams: u32,
        args_threads: u32,
        tripcount: u64,
        dyn_shared: u32,
    ) -> Request {
        let pos = |a: i32, b: u32| -> Option<u32> {
            let b = if b as i32 > 0 { Some(b) } else { None };
            if a > 0 {
                Some(a as u32)
            } else {
                b
            }
        };
        Request {
            num_teams: pos(num_teams_arg, args_teams),
            thread_limit: pos(thread_limit_arg, args_threads),
            tripcount,
            dyn_shared,
            resident_threads: None,
            shape: None,
        }
    }
}

/// `PTXRT_THREADS` / `PTXRT_TEAMS` overrides, read once by the caller.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overrides {
    pub block: Option<u32>,
    pub grid: Option<u32>,
}

/// Why the block size is what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockWhy {
    /// thread_limit / num_threads (OpenACC vector_length) of the construct.
    Clause(u32),
    /// PTXRT_THREADS.
    Env(u32),
    /// The CUDA occupancy API (cuOccupancyMaxPotentialBlockSize).
    Occupancy(u32),
    /// The device's default block size (nothing else decided).
    DeviceDefault(u32),
    /// The occupancy API's suggestion (`occupancy`) or else the device default, `from` threads,
    /// made smaller so that a short loop's blocks reach every multiprocessor (`spread_block`).
    Spread {
        from: u32,
        occupancy: bool,
        multiprocessors: u32,
    },
    /// The execution mode needs one thread per block.
    OneThread,
    /// A shaped grid's ([`Shape`]): the innermost loop's `inner` iterations rounded up to whole
    /// warps, at most `at_most` (what decided the block otherwise).
    Row { inner: u64, at_most: u32 },
}

/// The smallest block `spread_block` goes down to: one warp.
const MIN_SPREAD_BLOCK: u32 = 32;

/// The block for a loop of `trip` iterations on `multiprocessors` side by side, from the block
/// `block` nothing in the program asked for: a grid of ceil(trip / block) blocks smaller than
/// the device leaves multiprocessors idle (16384 iterations in blocks of 1024 run on 16 of an
/// H100's 132 SMs), so the block is halved while that lowers the busiest multiprocessor's
/// threads, ceil(blocks / multiprocessors) x block (ties keep the larger block), down to one
/// warp. Halving keeps a suggested power of two a power of two.
fn spread_block(trip: u64, block: u32, multiprocessors: u32) -> u32 {
    let mps = multiprocessors.max(1) as u64;
    if trip == 0 || trip.div_ceil(block as u64) >= mps {
        return block;
    }
    let load = |b: u32| trip.div_ceil(b as u64).div_ceil(mps) * b as u64;
    let mut best = block;
    let mut b = block / 2;
    while b >= MIN_SPREAD_BLOCK && b.is_multiple_of(32) {
        if load(b) < load(best) {
            best = b;
        }
        b /= 2;
    }
    best
}

/// Why the grid size is what it is.
/// What stopped a grid sized from a trip count, and at how many blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridCap {
    /// One wave of the blocks the device keeps resident (occupancy API).
    OneWave(u32),
    /// The device's cap for grids sized from a trip count.
    Device(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridWhy {
    /// num_teams (OpenACC num_gangs) of the construct.
    Clause(u32),
    /// PTXRT_TEAMS.
    Env(u32),
    /// ceil(trip count / block), with the cap it hit if any.
    TripCount {
        trip: u64,
        block: u32,
        capped_at: Option<GridCap>,
    },
    /// The device's default grid (no num_teams and an unknown trip count).
    DeviceDefault(u32),
    /// The collapsed loop's shape ([`Shape`]): x along the innermost loop, in blocks of `block`.
    Shape { trip: u64, shape: Shape, block: u32 },
    /// The execution mode runs one block.
    OneBlock,
}

/// A launch configuration and the reasons for it (PTXRT_DEBUG).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub dims: LaunchDims,
    pub grid_why: GridWhy,
    pub block_why: BlockWhy,
    /// The value asked for was beyond the device's maximum.
    pub grid_clamped: bool,
    pub block_clamped: bool,
}

pub fn choose(
    mode: ExecMode,
    req: &Request,
    suggested_block: Option<u32>,
    limits: &DeviceLimits,
    ov: &Overrides,
) -> LaunchDims {
    choose_explained(mode, req, suggested_block, limits, ov).dims
}

pub fn choose_explained(
    mode: ExecMode,
    req: &Request,
    suggested_block: Option<u32>,
    limits: &DeviceLimits,
    ov: &Overrides,
) -> Choice {
    let block_for = || -> (u32, BlockWhy, bool) {
        let (b, why) = if let Some(t) = req.thread_limit {
            (t, BlockWhy::Clause(t))
        } else if let Some(t) = ov.block {
            (t, BlockWhy::Env(t))
        } else if let Some(t) = suggested_block {
            (t, BlockWhy::Occupancy(t))
        } else {
            (
                limits.default_block,
                BlockWhy::DeviceDefault(limits.default_block),
            )
        };
        let c = b.clamp(1, limits.max_block);
        (c, why, c != b)
    };
    let grid_for = |block: u32| -> (u32, GridWhy, bool) {
        if let Some(t) = req.num_teams {
            let c = t.clamp(1, limits.max_grid);
            return (c, GridWhy::Clause(t), c != t);
        }
        if let Some(g) = ov.grid {
            let c = g.clamp(1, limits.max_grid);
            return (c, GridWhy::Env(g), c != g);
        }
        if req.tripcount > 0 {
            // One wave of resident blocks is enough: the loop is grid-strided, and more blocks
            // would only repeat the per-block work (a reduction's tree and atomic) and the
            // launch of blocks that could instead run more, unrolled, iterations.
            let g = req.tripcount.div_ceil(block as u64);
            let wave = req
                .resident_threads
                .map(|t| t.div_ceil(block as u64).max(1));
            let device_cap = limits.max_grid.min(limits.auto_grid_cap).max(1) as u64;
            let cap = match wave {
                Some(w) if w < device_cap => GridCap::OneWave(w as u32),
                _ => GridCap::Device(device_cap as u32),
            };
            let (GridCap::OneWave(blocks) | GridCap::Device(blocks)) = cap;
            let c = g.clamp(1, blocks as u64) as u32;
            let why = GridWhy::TripCount {
                trip: req.tripcount,
                block,
                capped_at: (g > blocks as u64).then_some(cap),
            };
            return (c, why, false);
        }
        let g = limits.default_grid.clamp(1, limits.max_grid);
        (g, GridWhy::DeviceDefault(g), false)
    };
    let ((grid, grid_why, grid_clamped), (block, block_why, block_clamped)) = match mode {
        ExecMode::Spmd => {
            let mut b = block_for();
            let grid_from_trip = req.num_teams.is_none() && ov.grid.is_none();
            // A loop of the kernel's shape: one iteration per thread, rows along x.
            let shaped = req.shape.filter(|_| grid_from_trip).and_then(|shape| {
                shaped_dims(req.tripcount, shape, b.0, limits).map(|(g, bx)| (g, bx, shape))
            });
            if let Some((grid, bx, shape)) = shaped {
                return Choice {
                    dims: LaunchDims {
                        grid,
                        block: [bx, 1, 1],
                        dyn_shared: req.dyn_shared,
                    },
                    grid_why: GridWhy::Shape {
                        trip: req.tripcount,
                        shape,
                        block: bx,
                    },
                    block_why: BlockWhy::Row {
                        inner: shape.inner,
                        at_most: b.0,
                    },
                    grid_clamped: false,
                    block_clamped: b.2,
                };
            }
            if let (true, BlockWhy::Occupancy(from) | BlockWhy::DeviceDefault(from)) =
                (grid_from_trip, b.1)
            {
                let spread = spread_block(req.tripcount, b.0, limits.multiprocessors);
                if spread != b.0 {
                    b = (
                        spread,
                        BlockWhy::Spread {
                            from,
                            occupancy: matches!(b.1, BlockWhy::Occupancy(_)),
                            multiprocessors: limits.multiprocessors,
                        },
                        false,
                    );
                }
            }
            (grid_for(b.0), b)
        }
        ExecMode::SpmdOneTeam => ((1, GridWhy::OneBlock, false), block_for()),
        ExecMode::TeamsOnly => (grid_for(1), (1, BlockWhy::OneThread, false)),
        ExecMode::Single => (
            (1, GridWhy::OneBlock, false),
            (1, BlockWhy::OneThread, false),
        ),
    };
    Choice {
        dims: LaunchDims {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
            dyn_shared: req.dyn_shared,
        },
        grid_why,
        block_why,
        grid_clamped,
        block_clamped,
    }
}

pub fn mode_name(mode: ExecMode) -> &'static str {
    match mode {
        ExecMode::Spmd => "SPMD (teams + parallel)",
        ExecMode::SpmdOneTeam => "SPMD in one team (parallel without teams)",
        ExecMode::TeamsOnly => "teams only (one thread per team)",
        ExecMode::Single => "single thread (target without teams or parallel)",
    }
}

impl Choice {
    /// "grid 16 x block 64: grid from ...; block from ..." for PTXRT_DEBUG.
    pub fn explain(&self, limits: &DeviceLimits) -> String {
        let grid = match self.grid_why {
            GridWhy::Clause(n) => format!("num_teams clause ({n}; OpenACC num_gangs)"),
            GridWhy::Env(n) => format!("PTXRT_TEAMS={n}"),
            GridWhy::TripCount {
                trip,
                block,
                capped_at,
            } => {
                let mut s = format!(
                    "trip count {trip} / block {block} = {} blocks",
                    trip.div_ceil(block as u64)
                );
                match capped_at {
                    Some(GridCap::OneWave(c)) => s.push_str(&format!(
                        ", capped at {c}: one wave of the blocks the device keeps resident (occupancy API); the loop is grid-strided"
                    )),
                    Some(GridCap::Device(c)) => s.push_str(&format!(
                        ", capped at {c} (the device's cap for grids sized from a trip count; the loop is grid-strided)"
                    )),
                    None => {}
                }
                s
            }
            GridWhy::DeviceDefault(n) => {
                format!("no num_teams and no trip count: the device default ({n})")
            }
            GridWhy::OneBlock => "one team for this mode".to_string(),
            GridWhy::Shape { trip, shape, block } => match shape.middle {
                None => format!(
                    "the collapse(2) loop's shape ({trip} iterations: rows of {} along x in blocks of {block}, {} rows along y)",
                    shape.inner,
                    trip.div_ceil(shape.inner)
                ),
                Some(middle) => format!(
                    "the collapse(3) loop's shape ({trip} iterations: {} along x in blocks of {block}, {middle} along y, {} along z)",
                    shape.inner,
                    trip.div_ceil(shape.inner.saturating_mul(middle).max(1))
                ),
            },
        };
        let block = match self.block_why {
            BlockWhy::Clause(n) => {
                format!("thread_limit/num_threads clause ({n}; OpenACC vector_length)")
            }
            BlockWhy::Env(n) => format!("PTXRT_THREADS={n}"),
            BlockWhy::Occupancy(n) => {
                format!("occupancy API (cuOccupancyMaxPotentialBlockSize suggests {n})")
            }
            BlockWhy::DeviceDefault(n) => {
                format!("no thread_limit and no occupancy suggestion: the device default ({n})")
            }
            BlockWhy::Spread {
                from,
                occupancy,
                multiprocessors,
            } => format!(
                "{} ({from}) halved so that the trip count's blocks reach the {multiprocessors} multiprocessors",
                if occupancy {
                    "the occupancy API's suggestion"
                } else {
                    "the device default"
                }
            ),
            BlockWhy::OneThread => "one thread per team for this mode".to_string(),
            BlockWhy::Row { inner, at_most } => format!(
                "the innermost loop's {inner} iterations in whole warps, at most {at_most}"
            ),
        };
        let clamp = |c: bool, max: u32| {
            if c {
                format!(", clamped to the device maximum {max}")
            } else {
                String::new()
            }
        };
        let dims = match self.dims.grid {
            [x, 1, 1] => format!("{x}"),
            [x, y, 1] => format!("({x}, {y})"),
            [x, y, z] => format!("({x}, {y}, {z})"),
        };
        let mut s = format!(
            "grid {dims} x block {}; grid: {grid}{}; block: {block}{}",
            self.dims.block[0],
            clamp(self.grid_clamped, limits.max_grid),
            clamp(self.block_clamped, limits.max_block),
        );
        if self.dims.dyn_shared > 0 {
            s.push_str(&format!(
                "; {} bytes of dynamic shared memory",
                self.dims.dyn_shared
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons() {
        let c = choose_explained(
            ExecMode::Spmd,
            &Request::new(0, 64, 0, 64, 1000, 0),
            Some(256),
            &L,
            &NO,
        );
        assert_eq!(c.block_why, BlockWhy::Clause(64));
        assert_eq!(
            c.grid_why,
            GridWhy::TripCount {
                trip: 1000,
                block: 64,
                capped_at: None,
            }
        );
        let e = c.explain(&L);
        assert!(e.starts_with("grid 16 x block 64; grid: trip count 1000 / block 64 = 16 blocks; block: thread_limit"), "{e}");
        let c = choose_explained(
            ExecMode::Spmd,
            &Request::new(0, 0, 0, 0, 0, 0),
            Some(256),
            &L,
            &NO,
        );
        assert_eq!(c.block_why, BlockWhy::Occupancy(256));
        assert_eq!(c.grid_why, GridWhy::DeviceDefault(8));
        assert!(c.explain(&L).contains("occupancy API"));
        let c = choose_explained(
            ExecMode::Spmd,
            &Request::new(100_000, 4096, 0, 0, 0, 0),
            None,
            &DeviceLimits {
                max_grid: 65535,
                ..L
            },
            &NO,
        );
        assert!(c.grid_clamped && c.block_clamped);
        let e = c.explain(&L);
        assert!(
            e.contains("num_teams clause (100000")
                && e.contains("clamped to the device maximum 1024"),
            "{e}"
        );
        let capped = DeviceLimits {
            auto_grid_cap: 16,
            ..L
        };
        let c = choose_explained(
            ExecMode::Spmd,
            &Request::new(0, 0, 0, 0, 1 << 20, 0),
            None,
            &capped,
            &NO,
        );
        assert!(
            c.explain(&capped).contains("capped at 16"),
            "{}",
            c.explain(&capped)
        );
        let c = choose_explained(ExecMode::Single, &Request::default(), None, &L, &NO);
        assert_eq!(
            (c.grid_why, c.block_why),
            (GridWhy::OneBlock, BlockWhy::OneThread)
        );
        let ov = Overrides {
            block: Some(32),
            grid: Some(3),
        };
        let c = choose_explained(ExecMode::Spmd, &Request::default(), Some(256), &L, &ov);
        assert_eq!(
            (c.grid_why, c.block_why),
            (GridWhy::Env(3), BlockWhy::Env(32))
        );
    }
    #[test]
    fn shaped_grids_follow_the_loop_or_step_aside() {
        let three = Shape {
            inner: 62,
            middle: Some(30),
        };
        let two = |inner| Shape {
            inner,
            middle: None,
        };
        // Himeno class S's interior: one row of 62 per block of 64.
        assert_eq!(shaped_dims(55800, three, 128, &L), Some(([1, 30, 30], 64)));
        assert_eq!(shaped_dims(700, two(100), 1024, &L), Some(([1, 7, 1], 128)));
        // A row longer than the block: several blocks along x.
        assert_eq!(shaped_dims(3000, two(1000), 64, &L), Some(([16, 3, 1], 64)));
        // Rows of 40 in blocks of 64 idle too many lanes; rows of 20 fit one warp.
        assert_eq!(shaped_dims(360, two(40), 128, &L), None);
        assert_eq!(shaped_dims(200, two(20), 128, &L), None);
        // More rows than a grid has along y.
        assert_eq!(shaped_dims(70000 * 64, two(64), 128, &L), None);
        assert_eq!(
            shaped_dims(
                64 * 70000 * 2,
                Shape {
                    inner: 64,
                    middle: Some(2)
                },
                128,
                &L
            ),
            None
        );
        // Nothing to shape.
        assert_eq!(shaped_dims(0, two(64), 128, &L), None);
        assert_eq!(shaped_dims(64, two(0), 128, &L), None);

        let mut r = Request::new(0, 0, 0, 0, 55800, 0);
        r.shape = Some(three);
        let c = choose_explained(ExecMode::Spmd, &r, Some(1024), &L, &NO);
        assert_eq!((c.dims.grid, c.dims.block), ([1, 30, 30], [64, 1, 1]));
        let e = c.explain(&L);
        assert!(
            e.starts_with("grid (1, 30, 30) x block 64; grid: the collapse(3) loop's shape (55800 iterations: 62 along x in blocks of 64, 30 along y, 30 along z); block: the innermost loop's 62 iterations in whole warps, at most 1024"),
            "{e}"
        );
        // num_teams or PTXRT_TEAMS decide the grid: no shape.
        let mut r = Request::new(5, 0, 5, 0, 55800, 0);
        r.shape = Some(three);
        assert_eq!(choose(ExecMode::Spmd, &r, None, &L, &NO).grid, [5, 1, 1]);
        let mut r = Request::new(0, 0, 0, 0, 55800, 0);
        r.shape = Some(three);
        let ov = Overrides {
            block: None,
            grid: Some(9),
        };
        assert_eq!(choose(ExecMode::Spmd, &r, None, &L, &ov).grid, [9, 1, 1]);
    }

    const L: DeviceLimits = DeviceLimits {
        max_block: 1024,
        max_grid: 65535,
        auto_grid_cap: u32::MAX,
        default_grid: 8,
        default_block: 128,
        multiprocessors: 1,
    };
    const NO: Overrides = Overrides {
        block: None,
        grid: None,
    };

    #[test]
    fn spmd_uses_thread_limit_num_teams_and_tripcount() {
        let r = Request::new(0, 64, 0, 64, 1000, 0);
        assert_eq!(
            choose(ExecMode::Spmd, &r, Some(256), &L, &NO).block,
            [64, 1, 1]
        );
        assert_eq!(
            choose(ExecMode::Spmd, &r, Some(256), &L, &NO).grid,
            [16, 1, 1]
        );
        let r = Request::new(7, 33, 7, 33, 1000, 0);
        let d = choose(ExecMode::Spmd, &r, None, &L, &NO);
        assert_eq!((d.grid[0], d.block[0]), (7, 33));
        let r = Request::new(0, 0, 0, 0, 1000, 0);
        let d = choose(ExecMode::Spmd, &r, Some(256), &L, &NO);
        assert_eq!(
            (d.grid[0], d.block[0]),
            (4, 256),
            "occupancy suggestion when nothing is given"
        );
        let d = choose(ExecMode::Spmd, &r, None, &L, &NO);
        assert_eq!((d.grid[0], d.block[0]), (8, 128));
        let r = Request::new(0, 0, 0, 0, 0, 0);
        assert_eq!(
            choose(ExecMode::Spmd, &r, None, &L, &NO).grid[0],
            8,
            "unknown trip count: default grid"
        );
        let r = Request::new(0, 4096, 0, 0, u64::MAX, 0);
        let d = choose(ExecMode::Spmd, &r, None, &L, &NO);
        assert_eq!((d.grid[0], d.block[0]), (65535, 1024), "clamped");
        let capped = DeviceLimits {
            auto_grid_cap: 16,
            ..L
        };
        assert_eq!(
            choose(ExecMode::Spmd, &r, None, &capped, &NO).grid[0],
            16,
            "trip-count grids are capped"
        );
        let r = Request::new(100, 0, 0, 0, u64::MAX, 0);
        assert_eq!(
            choose(ExecMode::Spmd, &r, None, &capped, &NO).grid[0],
            100,
            "num_teams is honoured"
        );
    }

    #[test]
    fn trip_count_grids_stop_at_one_wave_of_resident_blocks() {
        // The occupancy API says 132 SMs x 8 blocks of 256 threads are resident at once.
        let resident = Some(132 * 8 * 256);
        let r = Request {
            resident_threads: resident,
            ..Request::new(0, 0, 0, 0, 1 << 27, 0)
        };
        let c = choose_explained(
            ExecMode::Spmd,
            &r,
            Some(256),
            &DeviceLimits {
                max_grid: u32::MAX,
                ..L
            },
            &NO,
        );
        assert_eq!(c.dims.grid[0], 1056);
        assert!(
            c.explain(&L).contains("capped at 1056: one wave"),
            "{}",
            c.explain(&L)
        );
        // A thread_limit other than the suggested block: the same number of resident threads.
        let r = Request {
            resident_threads: resident,
            ..Request::new(0, 128, 0, 128, 1 << 27, 0)
        };
        assert_eq!(
            choose(
                ExecMode::Spmd,
                &r,
                Some(256),
                &DeviceLimits {
                    max_grid: u32::MAX,
                    ..L
                },
                &NO
            )
            .grid[0],
            2112
        );
        // A short loop needs fewer blocks than a wave; num_teams is honoured beyond it.
        let r = Request {
            resident_threads: resident,
            ..Request::new(0, 0, 0, 0, 1000, 0)
        };
        assert_eq!(choose(ExecMode::Spmd, &r, Some(256), &L, &NO).grid[0], 4);
        let r = Request {
            resident_threads: resident,
            ..Request::new(5000, 0, 0, 0, 1 << 27, 0)
        };
        assert_eq!(choose(ExecMode::Spmd, &r, Some(256), &L, &NO).grid[0], 5000);
        // The device's own cap still applies when it is lower.
        let r = Request {
            resident_threads: resident,
            ..Request::new(0, 0, 0, 0, 1 << 27, 0)
        };
        let c = choose_explained(
            ExecMode::Spmd,
            &r,
            Some(256),
            &DeviceLimits {
                auto_grid_cap: 16,
                ..L
            },
            &NO,
        );
        assert_eq!(c.dims.grid[0], 16);
        assert!(
            c.explain(&L).contains("the device's cap"),
            "{}",
            c.explain(&L)
        );
    }

    #[test]
    fn short_loops_spread_over_the_multiprocessors() {
        let h100 = DeviceLimits {
            multiprocessors: 132,
            ..L
        };
        // NPB EP class S: 16384 iterations, the occupancy API suggests 1024 threads.
        let r = Request::new(0, 0, 0, 0, 16384, 0);
        let c = choose_explained(ExecMode::Spmd, &r, Some(1024), &h100, &NO);
        assert_eq!((c.dims.grid[0], c.dims.block[0]), (128, 128));
        assert_eq!(
            c.block_why,
            BlockWhy::Spread {
                from: 1024,
                occupancy: true,
                multiprocessors: 132
            }
        );
        assert!(
            c.explain(&h100).contains(
                "block: the occupancy API's suggestion (1024) halved so that the trip count's blocks reach the 132 multiprocessors"
            ),
            "{}",
            c.explain(&h100)
        );
        // Ties keep the larger block: 64 threads x 256 blocks load an SM as 128 x 128 do.
        assert_eq!(spread_block(16384, 1024, 132), 128);
        // Down to one warp, never below.
        let d = choose(
            ExecMode::Spmd,
            &Request::new(0, 0, 0, 0, 1000, 0),
            Some(1024),
            &h100,
            &NO,
        );
        assert_eq!((d.grid[0], d.block[0]), (32, 32));
        assert_eq!(spread_block(10, 1024, 132), 32);
        // The device default is spread too (STREAM 2-D class S: 4096 structures).
        let c = choose_explained(
            ExecMode::Spmd,
            &Request::new(0, 0, 0, 0, 4096, 0),
            None,
            &h100,
            &NO,
        );
        assert_eq!((c.dims.grid[0], c.dims.block[0]), (128, 32));
        assert!(c.explain(&h100).contains("the device default (128) halved"));
        // A loop that fills the device keeps its block.
        let d = choose(
            ExecMode::Spmd,
            &Request::new(0, 0, 0, 0, 1 << 27, 0),
            Some(1024),
            &h100,
            &NO,
        );
        assert_eq!(d.block[0], 1024);
        // What the program or the user asked for is kept.
        let d = choose(
            ExecMode::Spmd,
            &Request::new(0, 1024, 0, 1024, 16384, 0),
            Some(1024),
            &h100,
            &NO,
        );
        assert_eq!((d.grid[0], d.block[0]), (16, 1024), "thread_limit");
        let d = choose(
            ExecMode::Spmd,
            &Request::new(4, 0, 4, 0, 16384, 0),
            Some(1024),
            &h100,
            &NO,
        );
        assert_eq!((d.grid[0], d.block[0]), (4, 1024), "num_teams");
        let ov = Overrides {
            block: None,
            grid: Some(8),
        };
        assert_eq!(
            choose(ExecMode::Spmd, &r, Some(1024), &h100, &ov).block[0],
            1024
        );
        let ov = Overrides {
            block: Some(512),
            grid: None,
        };
        assert_eq!(
            choose(ExecMode::Spmd, &r, Some(1024), &h100, &ov).block[0],
            512
        );
        // A suggestion that is not a multiple of a warp is left alone.
        assert_eq!(spread_block(16384, 1000, 132), 1000);
    }

    #[test]
    fn other_modes() {
        let r = Request::new(-1, 0, u32::MAX, 0, 100, 0);
        assert_eq!(r.num_teams, None, "-1 means no teams clause");
        let d = choose(ExecMode::Single, &r, Some(256), &L, &NO);
        assert_eq!((d.grid, d.block), ([1, 1, 1], [1, 1, 1]));
        let d = choose(
            ExecMode::SpmdOneTeam,
            &Request::new(1, 0, 1, 0, 100, 0),
            None,
            &L,
            &NO,
        );
        assert_eq!((d.grid[0], d.block[0]), (1, 128));
        let d = choose(
            ExecMode::TeamsOnly,
            &Request::new(0, 0, 0, 0, 100, 0),
            None,
            &L,
            &NO,
        );
        assert_eq!((d.grid[0], d.block[0]), (100, 1));
        let ov = Overrides {
            block: Some(32),
            grid: Some(3),
        };
        let d = choose(
            ExecMode::Spmd,
            &Request::new(0, 0, 0, 0, 100, 0),
            Some(256),
            &L,
            &ov,
        );
        assert_eq!((d.grid[0], d.block[0]), (3, 32));
    }
}

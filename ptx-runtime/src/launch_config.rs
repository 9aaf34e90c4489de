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
        };
        let clamp = |c: bool, max: u32| {
            if c {
                format!(", clamped to the device maximum {max}")
            } else {
                String::new()
            }
        };
        let mut s = format!(
            "grid {} x block {}; grid: {grid}{}; block: {block}{}",
            self.dims.grid[0],
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

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
        }
    }
}

/// `PTXRT_THREADS` / `PTXRT_TEAMS` overrides, read once by the caller.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overrides {
    pub block: Option<u32>,
    pub grid: Option<u32>,
}

pub fn choose(
    mode: ExecMode,
    req: &Request,
    suggested_block: Option<u32>,
    limits: &DeviceLimits,
    ov: &Overrides,
) -> LaunchDims {
    let block_for = |req: &Request| -> u32 {
        let b = req
            .thread_limit
            .or(ov.block)
            .or(suggested_block)
            .unwrap_or(limits.default_block);
        b.clamp(1, limits.max_block)
    };
    let grid_for = |block: u32| -> u32 {
        if let Some(t) = req.num_teams {
            return t.clamp(1, limits.max_grid);
        }
        if let Some(g) = ov.grid {
            return g.clamp(1, limits.max_grid);
        }
        if req.tripcount > 0 {
            let g = req.tripcount.div_ceil(block as u64);
            return g.clamp(1, limits.max_grid.min(limits.auto_grid_cap).max(1) as u64) as u32;
        }
        limits.default_grid.clamp(1, limits.max_grid)
    };
    let (grid, block) = match mode {
        ExecMode::Spmd => {
            let b = block_for(req);
            (grid_for(b), b)
        }
        ExecMode::SpmdOneTeam => (1, block_for(req)),
        ExecMode::TeamsOnly => (grid_for(1), 1),
        ExecMode::Single => (1, 1),
    };
    LaunchDims {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        dyn_shared: req.dyn_shared,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const L: DeviceLimits = DeviceLimits {
        max_block: 1024,
        max_grid: 65535,
        auto_grid_cap: u32::MAX,
        default_grid: 8,
        default_block: 128,
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

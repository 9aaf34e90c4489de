//! The teams and threads of a compute construct's kernel, from the sizes written on it and the
//! levels its loops take. `parallel` constructs (`lower/compute.rs`) and `kernels` nests
//! ([`plan_nest`](super::plan_nest)) both size their kernels here, so the rules live once:
//!
//! - teams: the gangs written (`num_gangs`, every dimension's gangs as one count, or a combined
//!   loop's `gang(num:)`); none written, the runtime chooses;
//! - threads: when a loop takes the worker level, the workers (`num_workers` or `worker(n)`), and
//!   a whole warp per worker when vector loops run on the lanes of the workers' warps
//!   (`(w) * 32`); otherwise the vector length.

/// What a kernel's loops do with the thread levels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::openacc::translate) struct ThreadLevels {
    /// A loop of the kernel takes the worker level.
    pub(in crate::openacc::translate) worker: bool,
    /// Vector loops run on the lanes of the workers' warps.
    pub(in crate::openacc::translate) lanes: bool,
}

/// The sizes written for a kernel: its gangs, workers and vector length (C expressions).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::openacc::translate) struct Written {
    pub(in crate::openacc::translate) gangs: Option<String>,
    pub(in crate::openacc::translate) workers: Option<String>,
    pub(in crate::openacc::translate) vector: Option<String>,
}

/// A kernel's `num_teams` and `thread_limit`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::openacc::translate) struct TeamSizes {
    pub(in crate::openacc::translate) num_teams: Option<String>,
    pub(in crate::openacc::translate) thread_limit: Option<String>,
}

/// Sizes the kernel whose loops use `levels`, from the sizes `w` written for it.
pub(in crate::openacc::translate) fn team_sizes(w: Written, levels: ThreadLevels) -> TeamSizes {
    let thread_limit = if levels.worker {
        w.workers.map(|n| {
            if levels.lanes {
                format!("({n}) * 32")
            } else {
                n
            }
        })
    } else {
        w.vector
    };
    TeamSizes {
        num_teams: w.gangs,
        thread_limit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(gangs: &str, workers: &str, vector: &str) -> Written {
        let some = |s: &str| (!s.is_empty()).then(|| s.to_string());
        Written {
            gangs: some(gangs),
            workers: some(workers),
            vector: some(vector),
        }
    }

    #[test]
    fn the_vector_length_sizes_a_kernel_without_workers() {
        let s = team_sizes(written("n", "4", "128"), ThreadLevels::default());
        assert_eq!(s.num_teams.as_deref(), Some("n"));
        assert_eq!(s.thread_limit.as_deref(), Some("128"));
    }

    #[test]
    fn workers_size_a_kernel_with_a_worker_loop() {
        let levels = ThreadLevels {
            worker: true,
            lanes: false,
        };
        let s = team_sizes(written("", "4", "128"), levels);
        assert_eq!((s.num_teams, s.thread_limit.as_deref()), (None, Some("4")));
    }

    #[test]
    fn workers_with_vector_lanes_get_a_warp_each() {
        let levels = ThreadLevels {
            worker: true,
            lanes: true,
        };
        let s = team_sizes(written("", "n + 1", ""), levels);
        assert_eq!(s.thread_limit.as_deref(), Some("(n + 1) * 32"));
    }

    #[test]
    fn nothing_written_leaves_the_choice_to_the_runtime() {
        let levels = ThreadLevels {
            worker: true,
            lanes: true,
        };
        assert_eq!(team_sizes(Written::default(), levels), TeamSizes::default());
    }
}

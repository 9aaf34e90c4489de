//! The loop planner: one pure function, [`plan`], from a typed description of a loop
//! ([`LoopDesc`]: where it is, the levels written on it, the levels its enclosing loops already
//! use, the dependence test's verdict) to its [`Plan`]. Both `parallel` regions (phase 3,
//! `plan.rs`) and `kernels` regions (`lower/kernels.rs`) ask it; they differ only in the
//! [`Place`] they describe, so every gang/worker/vector decision lives here, and is unit-tested
//! here without the OpenMP text.
//!
//! The rules, by place:
//! - orphaned loops and loops of `serial` regions are sequential;
//! - in a `parallel` (or, before the kernels lowering decides, `kernels`) region, the written
//!   levels not taken by an enclosing loop: gang → teams, worker or vector → threads, vector
//!   under worker → SIMD, or the lanes of the worker's warp in a `parallel` region; with no
//!   level written (independent, or `auto` proven parallel) the loop takes gang (and vector
//!   when no inner loop names a level), or the thread level when gang is taken;
//! - the outer loop of a `kernels` loop nest proven (or declared) parallel is gang, with the
//!   threads as vector (worker when only worker is written) unless it is gang-only and inner
//!   loops name the thread levels;
//! - a loop inside such a nest takes the threads if nothing around it does, the lanes of the
//!   worker's warp if it is a vector loop under a worker loop, else runs sequentially.
//!
//! A kernels nest as a whole (whether it runs in parallel, its inner loops, how many loops its
//! distribute collapses, its teams and threads) is planned by [`plan_nest`] (`planner/kernels.rs`);
//! the teams and threads of every compute construct's kernel by [`team_sizes`] (`planner/sizes.rs`).
use crate::openacc::analysis::Verdict;
use crate::openacc::ast::{ClauseName, Directive};

use super::plan::{Plan, Thread};

mod kernels;
mod sizes;

pub(super) use kernels::{
    plan_nest, runs_parallel, Collapse, InnerLoop, LoopSizes, NestDesc, Nested, RegionSizes,
    MAX_COLLAPSE,
};
pub(super) use sizes::{team_sizes, TeamSizes, ThreadLevels, Written as WrittenSizes};

/// Where a loop is, as far as planning goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// Not inside a compute construct (orphaned in a function).
    Orphan,
    /// In a `serial` region.
    Serial,
    /// In a `parallel` region.
    Parallel,
    /// In a `kernels` region, before the kernels lowering plans its nests (phase 3 plans every
    /// loop; `Kernels` differs from `Parallel` only in using SIMD where `Parallel` uses lanes).
    Kernels,
    /// The outer loop of a loop nest of a `kernels` region (a kernel of its own).
    KernelsNest,
    /// A loop inside a parallel `kernels` nest.
    KernelsInner,
}

/// The level clauses written on a loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Written {
    pub(super) gang: bool,
    pub(super) worker: bool,
    pub(super) vector: bool,
    pub(super) seq: bool,
    pub(super) auto: bool,
    pub(super) independent: bool,
}

impl Written {
    pub(super) fn of(d: &Directive) -> Self {
        Written {
            gang: d.has(ClauseName::Gang),
            worker: d.has(ClauseName::Worker),
            vector: d.has(ClauseName::Vector),
            seq: d.has(ClauseName::Seq),
            auto: d.has(ClauseName::Auto),
            independent: d.has(ClauseName::Independent),
        }
    }

    /// Whether gang, worker or vector is written.
    pub(super) fn any_level(&self) -> bool {
        self.gang || self.worker || self.vector
    }
}

/// The levels the enclosing loops (of the same region) already use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Around {
    /// A gang loop encloses this one.
    pub(super) gang: bool,
    /// The block's threads are taken (worker or vector threads, SIMD or lanes).
    pub(super) thread: bool,
    /// A worker loop on the threads encloses this one.
    pub(super) worker: bool,
    /// The vector level is taken (vector threads, SIMD or the lanes of a warp).
    pub(super) vector: bool,
}

impl Around {
    /// The levels used by `plans`, the plans of the enclosing loops.
    pub(super) fn of<'a>(plans: impl IntoIterator<Item = &'a Plan>) -> Self {
        let mut a = Around::default();
        for p in plans {
            a.gang |= p.gang;
            a.thread |= p.thread.is_some() || p.simd || p.lanes;
            a.worker |= p.thread == Some(Thread::Worker);
            a.vector |= p.thread == Some(Thread::Vector) || p.simd || p.lanes;
        }
        a
    }
}

/// One loop, described for the planner.
#[derive(Clone, Debug)]
pub(super) struct LoopDesc {
    pub(super) place: Place,
    pub(super) written: Written,
    pub(super) around: Around,
    /// Some loop inside this one (of the same region) names worker or vector.
    pub(super) inner_levels: bool,
    /// The dependence test's verdict where the rules need it (an `auto` loop of a parallel
    /// region, the outer loop of a kernels nest); None: not available.
    pub(super) verdict: Option<Verdict>,
}

fn sequential(why: &str) -> Plan {
    Plan {
        why_seq: Some(why.into()),
        ..Plan::default()
    }
}

/// The plan of one loop.
pub(super) fn plan(l: &LoopDesc) -> Plan {
    match l.place {
        Place::Orphan => sequential("orphaned loop: run sequentially by each thread that calls it"),
        Place::Serial => sequential("serial region: one thread"),
        Place::Parallel | Place::Kernels => region_loop(l),
        Place::KernelsNest => kernels_nest(l),
        Place::KernelsInner => kernels_inner(l),
    }
}

fn region_loop(l: &LoopDesc) -> Plan {
    let (w, a) = (l.written, l.around);
    if w.seq {
        return sequential("seq clause");
    }
    let mut p = Plan::default();
    if w.any_level() {
        if w.gang && !a.gang && !a.thread {
            p.gang = true;
        }
        if w.worker && !a.thread {
            p.thread = Some(Thread::Worker);
            p.simd = w.vector;
        } else if w.vector && !a.thread {
            p.thread = Some(Thread::Vector);
        } else if w.vector && a.worker && !a.vector {
            if l.place == Place::Parallel {
                p.lanes = true;
            } else {
                p.simd = true;
            }
        }
        if p.is_seq() {
            p.why_seq = Some("the enclosing loops already use these levels".into());
        }
        return p;
    }
    if w.auto {
        match &l.verdict {
            Some(Verdict::Parallel { reductions, .. }) => p.found_reductions = reductions.clone(),
            Some(Verdict::Sequential(why)) => return sequential(why),
            None => return sequential("auto loop without analysis"),
        }
    }
    // independent / auto proven / no level: the compiler chooses.
    if !a.gang && !a.thread {
        p.gang = true;
        if !l.inner_levels {
            p.thread = Some(Thread::Vector);
        }
    } else if !a.thread {
        p.thread = Some(if l.inner_levels {
            Thread::Worker
        } else {
            Thread::Vector
        });
    } else {
        p.why_seq = Some("inner loop of a parallel loop".into());
    }
    p
}

fn kernels_nest(l: &LoopDesc) -> Plan {
    let w = l.written;
    match &l.verdict {
        Some(Verdict::Parallel { reductions, .. }) => {
            let gang_only = w.gang && !w.vector && !w.worker && l.inner_levels;
            let thread = if gang_only {
                None
            } else if w.worker && !w.vector {
                Some(Thread::Worker)
            } else {
                Some(Thread::Vector)
            };
            Plan {
                gang: true,
                thread,
                found_reductions: reductions.clone(),
                ..Plan::default()
            }
        }
        Some(Verdict::Sequential(why)) => sequential(why),
        None => sequential("no analysis"),
    }
}

fn kernels_inner(l: &LoopDesc) -> Plan {
    let (w, a) = (l.written, l.around);
    if w.seq {
        sequential("seq clause")
    } else if !a.thread && (w.worker || w.vector) {
        Plan {
            thread: Some(if w.worker && !w.vector {
                Thread::Worker
            } else {
                Thread::Vector
            }),
            ..Plan::default()
        }
    } else if w.vector && !w.worker && a.worker && !a.vector {
        Plan {
            lanes: true,
            ..Plan::default()
        }
    } else {
        sequential("sequential inside the parallel loop")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openacc::ast::ReductionOp;

    /// Written levels from letters: gang, worker, vector, seq, auto, independent.
    pub(super) fn written(levels: &str) -> Written {
        Written {
            gang: levels.contains('g'),
            worker: levels.contains('w'),
            vector: levels.contains('v'),
            seq: levels.contains('s'),
            auto: levels.contains('a'),
            independent: levels.contains('i'),
        }
    }

    fn desc(place: Place, levels: &str, around: &[Plan]) -> LoopDesc {
        LoopDesc {
            place,
            written: written(levels),
            around: Around::of(around),
            inner_levels: false,
            verdict: None,
        }
    }

    fn parallel_verdict() -> Verdict {
        Verdict::Parallel {
            reductions: vec![(ReductionOp::Add, 3)],
            privates: Vec::new(),
        }
    }

    #[test]
    fn orphaned_and_serial_loops_are_sequential() {
        for place in [Place::Orphan, Place::Serial] {
            let p = plan(&desc(place, "gwv", &[]));
            assert!(p.is_seq());
            assert!(p.why_seq.is_some());
        }
    }

    #[test]
    fn written_levels_of_a_parallel_region() {
        let p = plan(&desc(Place::Parallel, "g", &[]));
        assert!(p.gang && p.thread.is_none() && !p.simd);
        let p = plan(&desc(Place::Parallel, "gwv", &[]));
        assert!(p.gang && p.thread == Some(Thread::Worker) && p.simd);
        let p = plan(&desc(Place::Parallel, "v", &[]));
        assert_eq!(p.thread, Some(Thread::Vector));
        let p = plan(&desc(Place::Parallel, "s", &[]));
        assert_eq!(p.why_seq.as_deref(), Some("seq clause"));
    }

    #[test]
    fn vector_under_worker_is_lanes_in_parallel_and_simd_in_kernels() {
        let worker = Plan {
            thread: Some(Thread::Worker),
            ..Plan::default()
        };
        let p = plan(&desc(Place::Parallel, "v", std::slice::from_ref(&worker)));
        assert!(p.lanes && !p.simd && p.thread.is_none());
        let p = plan(&desc(Place::Kernels, "v", std::slice::from_ref(&worker)));
        assert!(p.simd && !p.lanes);
        // Not twice: a vector loop under the lanes runs sequentially.
        let lanes = Plan {
            lanes: true,
            ..Plan::default()
        };
        let p = plan(&desc(Place::Parallel, "v", &[worker, lanes]));
        assert!(p.is_seq());
        assert_eq!(
            p.why_seq.as_deref(),
            Some("the enclosing loops already use these levels")
        );
    }

    #[test]
    fn levels_taken_by_enclosing_loops_are_not_used_again() {
        let gang_vector = Plan {
            gang: true,
            thread: Some(Thread::Vector),
            ..Plan::default()
        };
        let p = plan(&desc(
            Place::Parallel,
            "gv",
            std::slice::from_ref(&gang_vector),
        ));
        assert!(p.is_seq());
        // No level written: the compiler takes what is left.
        let gang = Plan {
            gang: true,
            ..Plan::default()
        };
        let p = plan(&desc(Place::Parallel, "", std::slice::from_ref(&gang)));
        assert!(!p.gang && p.thread == Some(Thread::Vector));
        let mut d = desc(Place::Parallel, "", std::slice::from_ref(&gang));
        d.inner_levels = true;
        assert_eq!(plan(&d).thread, Some(Thread::Worker));
        let p = plan(&desc(Place::Parallel, "", &[gang_vector]));
        assert_eq!(p.why_seq.as_deref(), Some("inner loop of a parallel loop"));
        // The outermost loop with no level: gang and vector, or gang alone over inner levels.
        let p = plan(&desc(Place::Parallel, "", &[]));
        assert!(p.gang && p.thread == Some(Thread::Vector));
        let mut d = desc(Place::Parallel, "", &[]);
        d.inner_levels = true;
        let p = plan(&d);
        assert!(p.gang && p.thread.is_none());
    }

    #[test]
    fn auto_loops_follow_the_verdict() {
        let mut d = desc(Place::Parallel, "a", &[]);
        assert_eq!(
            plan(&d).why_seq.as_deref(),
            Some("auto loop without analysis")
        );
        d.verdict = Some(Verdict::Sequential(
            "x is written by every iteration".into(),
        ));
        assert_eq!(
            plan(&d).why_seq.as_deref(),
            Some("x is written by every iteration")
        );
        d.verdict = Some(parallel_verdict());
        let p = plan(&d);
        assert!(p.gang && p.thread == Some(Thread::Vector));
        assert_eq!(p.found_reductions, vec![(ReductionOp::Add, 3)]);
    }

    #[test]
    fn kernels_nests() {
        let mut d = desc(Place::KernelsNest, "", &[]);
        assert_eq!(plan(&d).why_seq.as_deref(), Some("no analysis"));
        d.verdict = Some(Verdict::Sequential("loop not in canonical form".into()));
        assert!(plan(&d).is_seq());
        d.verdict = Some(parallel_verdict());
        let p = plan(&d);
        assert!(p.gang && p.thread == Some(Thread::Vector));
        assert_eq!(p.found_reductions.len(), 1);
        // gang worker vector: the threads are the vector (unlike a parallel region's loop).
        d.written = written("gwv");
        assert_eq!(plan(&d).thread, Some(Thread::Vector));
        d.written = written("w");
        assert_eq!(plan(&d).thread, Some(Thread::Worker));
        // gang only over inner worker/vector loops: the inner loops take the threads.
        d.written = written("g");
        assert_eq!(plan(&d).thread, Some(Thread::Vector));
        d.inner_levels = true;
        let p = plan(&d);
        assert!(p.gang && p.thread.is_none());
    }

    #[test]
    fn loops_inside_a_kernels_nest() {
        let gang_only = Plan {
            gang: true,
            ..Plan::default()
        };
        let p = plan(&desc(
            Place::KernelsInner,
            "wv",
            std::slice::from_ref(&gang_only),
        ));
        assert_eq!(p.thread, Some(Thread::Vector));
        let p = plan(&desc(
            Place::KernelsInner,
            "w",
            std::slice::from_ref(&gang_only),
        ));
        assert_eq!(p.thread, Some(Thread::Worker));
        let worker = Plan {
            thread: Some(Thread::Worker),
            ..Plan::default()
        };
        let p = plan(&desc(
            Place::KernelsInner,
            "v",
            &[gang_only.clone(), worker.clone()],
        ));
        assert!(p.lanes);
        let p = plan(&desc(
            Place::KernelsInner,
            "w",
            &[gang_only.clone(), worker],
        ));
        assert_eq!(
            p.why_seq.as_deref(),
            Some("sequential inside the parallel loop")
        );
        let p = plan(&desc(Place::KernelsInner, "vs", &[gang_only]));
        assert_eq!(p.why_seq.as_deref(), Some("seq clause"));
    }
}

//! The plan of one loop nest of a `kernels` region (a kernel of its own): from a typed
//! [`NestDesc`] (the levels and sizes written on the nest's loop, on the acc loops inside it and
//! on the region, the dependence test's verdict, the perfectly nested loops below it) to a
//! [`NestPlan`]: whether it runs in parallel, each inner loop's level, how many loops its
//! `distribute` covers, and the `num_teams` / `thread_limit` of the kernel. The kernels lowering
//! (`lower/kernels.rs`) describes the nest and prints what this decides.
//!
//! The rules:
//! - `seq`, or a test that finds a dependence, makes the nest one device thread, unless the loop
//!   is in canonical form and `independent`, `gang`, `worker` or `vector` is written (the user
//!   asserts the iterations independent);
//! - the levels of the nest's loop and of the loops inside it are those of [`super::plan`]
//!   (`Place::KernelsNest`, `Place::KernelsInner`);
//! - `collapse(n)` or `tile` with n sizes written: the distribute covers n loops; with neither,
//!   a nest on the threads (and no vector loop on the lanes of a worker's warp) also covers up
//!   to two perfectly nested loops whose bounds do not use the outer variables and that the test
//!   proves parallel;
//! - the teams: the loop's `gang(num:)`, else the region's `num_gangs` (all dimensions); the
//!   threads: `num_workers` warps when vector loops run on the workers' lanes, `num_workers`
//!   (or the worker loop's `worker(n)`) threads when the workers are the threads, else the
//!   vector length (the vector loop's `vector(n)`, else the region's `vector_length`).
use crate::openacc::analysis::Verdict;
use crate::openacc::ast::{ClauseKind, Directive, Expr};
use crate::openacc::cast::DeclId;
use crate::openacc::translate::plan::{num_gangs_total, Plan, Thread};

use super::{plan, sequential, Around, LoopDesc, Place, Written};

/// How many loops the distribute of a kernels nest covers at most.
pub(in crate::openacc::translate) const MAX_COLLAPSE: usize = 3;

fn text(e: &Expr) -> String {
    e.text.trim().to_string()
}

/// The sizes written on one loop (C expressions, as written).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::openacc::translate) struct LoopSizes {
    /// `gang(num: n)`.
    pub(in crate::openacc::translate) gang_num: Option<String>,
    /// `worker(n)`.
    pub(in crate::openacc::translate) worker: Option<String>,
    /// `vector(n)`.
    pub(in crate::openacc::translate) vector: Option<String>,
}

impl LoopSizes {
    /// The first `gang(num:)`, `worker(n)` and `vector(n)` of a loop directive.
    pub(in crate::openacc::translate) fn of(d: &Directive) -> Self {
        let mut s = LoopSizes::default();
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::Gang(g) if s.gang_num.is_none() => {
                    s.gang_num = g.num.as_ref().map(text)
                }
                ClauseKind::Worker(Some(e)) if s.worker.is_none() => s.worker = Some(text(e)),
                ClauseKind::Vector(Some(e)) if s.vector.is_none() => s.vector = Some(text(e)),
                _ => {}
            }
        }
        s
    }
}

/// The sizes written on the `kernels` region (or the `kernels loop` itself).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::openacc::translate) struct RegionSizes {
    /// `num_gangs(…)`, every dimension's gangs as one count.
    pub(in crate::openacc::translate) num_gangs: Option<String>,
    pub(in crate::openacc::translate) num_workers: Option<String>,
    pub(in crate::openacc::translate) vector_length: Option<String>,
}

impl RegionSizes {
    /// The first `num_gangs`, `num_workers` and `vector_length` of a compute directive.
    pub(in crate::openacc::translate) fn of(d: &Directive) -> Self {
        RegionSizes {
            num_gangs: d.clauses.iter().find_map(|c| match &c.kind {
                ClauseKind::NumGangs(v) => num_gangs_total(v),
                _ => None,
            }),
            num_workers: d.clauses.iter().find_map(|c| match &c.kind {
                ClauseKind::NumWorkers(e) => Some(text(e)),
                _ => None,
            }),
            vector_length: d.clauses.iter().find_map(|c| match &c.kind {
                ClauseKind::VectorLength(e) => Some(text(e)),
                _ => None,
            }),
        }
    }
}

/// A loop perfectly nested below the nest's loop (its body is only that loop), outermost first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::openacc::translate) struct Nested {
    /// Its bounds do not use the variables of the loops around it.
    pub(in crate::openacc::translate) bounds_independent: bool,
    /// The dependence test proves its iterations independent.
    pub(in crate::openacc::translate) parallel: bool,
}

/// An acc `loop` inside the nest, in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(in crate::openacc::translate) struct InnerLoop {
    pub(in crate::openacc::translate) written: Written,
    pub(in crate::openacc::translate) sizes: LoopSizes,
    /// The indices (in [`NestDesc::inner`]) of the inner loops around this one.
    pub(in crate::openacc::translate) enclosed_by: Vec<usize>,
}

/// One loop nest of a kernels region, described for the planner.
#[derive(Clone, Debug, Default)]
pub(in crate::openacc::translate) struct NestDesc {
    /// The levels written on the nest's loop (none when it has no acc `loop`).
    pub(in crate::openacc::translate) written: Written,
    pub(in crate::openacc::translate) sizes: LoopSizes,
    /// `collapse(n)` written on the loop.
    pub(in crate::openacc::translate) collapse: Option<usize>,
    /// The number of sizes of a `tile` written on the loop.
    pub(in crate::openacc::translate) tile: Option<usize>,
    /// The dependence test's verdict on the loop; None when it is not in canonical form.
    pub(in crate::openacc::translate) test: Option<Verdict>,
    /// The loops perfectly nested below it, outermost first.
    pub(in crate::openacc::translate) nested: Vec<Nested>,
    pub(in crate::openacc::translate) inner: Vec<InnerLoop>,
    pub(in crate::openacc::translate) region: RegionSizes,
}

/// The loops a kernel's `distribute` covers beyond its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::openacc::translate) enum Collapse {
    /// Its own loop only.
    None,
    /// `collapse(n)` or `tile` with n sizes, as written.
    Written(usize),
    /// Perfectly nested loops proven parallel: the depth.
    Proven(usize),
}

impl Collapse {
    /// The number of loops covered (1 when only its own).
    pub(in crate::openacc::translate) fn depth(self) -> usize {
        match self {
            Collapse::None => 1,
            Collapse::Written(n) | Collapse::Proven(n) => n,
        }
    }
}

/// What the planner decides for one kernels nest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::openacc::translate) struct NestPlan {
    /// The nest's loop: gang and its thread level, or sequential and why.
    pub(in crate::openacc::translate) plan: Plan,
    /// Parallel because the user wrote a level or `independent`, not because the test proved it.
    pub(in crate::openacc::translate) explicit: bool,
    /// The variables the test found private to each iteration.
    pub(in crate::openacc::translate) privates: Vec<DeclId>,
    /// The plans of [`NestDesc::inner`], in the same order (empty when the nest is sequential).
    pub(in crate::openacc::translate) inner: Vec<Plan>,
    pub(in crate::openacc::translate) collapse: Collapse,
    pub(in crate::openacc::translate) num_teams: Option<String>,
    pub(in crate::openacc::translate) thread_limit: Option<String>,
}

impl Written {
    /// `independent` or a level written: the user asserts the iterations independent.
    pub(in crate::openacc::translate) fn asserts_parallel(&self) -> bool {
        self.independent || self.any_level()
    }
}

/// Whether a loop of a kernels region runs in parallel on its own (`test`: the dependence test's
/// verdict, None when the loop is not in canonical form). Unlike [`plan_nest`], a written level
/// counts even on a loop that is not in canonical form: this only asks whether the loop is worth
/// a kernel.
pub(in crate::openacc::translate) fn runs_parallel(w: Written, test: Option<&Verdict>) -> bool {
    !w.seq && (w.asserts_parallel() || matches!(test, Some(Verdict::Parallel { .. })))
}

/// The plan of one kernels nest.
pub(in crate::openacc::translate) fn plan_nest(d: &NestDesc) -> NestPlan {
    let w = d.written;
    let explicit = w.asserts_parallel();
    let verdict = match (&d.test, w.seq) {
        (_, true) => Verdict::Sequential("seq clause".into()),
        (None, _) => Verdict::Sequential("loop not in canonical form".into()),
        (Some(v), _) => v.clone(),
    };
    let verdict = match verdict {
        Verdict::Sequential(_) if explicit && d.test.is_some() => Verdict::Parallel {
            reductions: Vec::new(),
            privates: Vec::new(),
        },
        v => v,
    };
    let (reductions, privates) = match verdict {
        Verdict::Sequential(why) => {
            return NestPlan {
                plan: sequential(&why),
                explicit,
                privates: Vec::new(),
                inner: Vec::new(),
                collapse: Collapse::None,
                num_teams: None,
                thread_limit: None,
            }
        }
        Verdict::Parallel {
            reductions,
            privates,
        } => (reductions, privates),
    };
    let nest = plan(&LoopDesc {
        place: Place::KernelsNest,
        written: w,
        around: Around::default(),
        inner_levels: d.inner.iter().any(|l| l.written.worker || l.written.vector),
        verdict: Some(Verdict::Parallel {
            reductions,
            privates: Vec::new(),
        }),
    });
    let inner = inner_plans(d, nest.thread);
    let lanes = inner.iter().any(|p| p.lanes);
    let collapse = match (d.collapse, d.tile) {
        (Some(n), _) | (None, Some(n)) if n > 1 => Collapse::Written(n),
        (Some(_), _) | (None, Some(_)) => Collapse::None,
        (None, None) if nest.thread.is_some() && !lanes => {
            let more = d
                .nested
                .iter()
                .take(MAX_COLLAPSE - 1)
                .take_while(|n| n.bounds_independent && n.parallel)
                .count();
            if more > 0 {
                Collapse::Proven(1 + more)
            } else {
                Collapse::None
            }
        }
        (None, None) => Collapse::None,
    };
    let super::TeamSizes {
        num_teams,
        thread_limit,
    } = sizes(d, &nest, &inner);
    NestPlan {
        plan: nest,
        explicit,
        privates,
        inner,
        collapse,
        num_teams,
        thread_limit,
    }
}

/// The levels of the acc loops inside a parallel nest whose own loop takes `outer` (None: gang
/// only): under a gang-only loop the first worker or vector loop of each path takes the block's
/// threads; a vector loop under a worker level runs on the lanes of the worker's warp, as in a
/// parallel region; every other loop is sequential.
fn inner_plans(d: &NestDesc, outer: Option<Thread>) -> Vec<Plan> {
    let outer = Plan {
        thread: outer,
        ..Plan::default()
    };
    let mut plans: Vec<Plan> = Vec::new();
    for l in &d.inner {
        let around = Around::of(
            l.enclosed_by
                .iter()
                .filter_map(|&o| plans.get(o))
                .chain([&outer]),
        );
        plans.push(plan(&LoopDesc {
            place: Place::KernelsInner,
            written: l.written,
            around,
            inner_levels: false,
            verdict: None,
        }));
    }
    plans
}

/// `num_teams` and `thread_limit` of a parallel nest.
fn sizes(d: &NestDesc, nest: &Plan, inner: &[Plan]) -> super::TeamSizes {
    // The sizes of the loop that takes a level: the nest's own loop or an inner one.
    let level_sizes = |level: Thread| -> Option<&LoopSizes> {
        if nest.thread == Some(level) {
            return Some(&d.sizes);
        }
        inner
            .iter()
            .position(|p| p.thread == Some(level))
            .map(|k| &d.inner[k].sizes)
    };
    let worker = level_sizes(Thread::Worker);
    let written = super::WrittenSizes {
        gangs: d
            .sizes
            .gang_num
            .clone()
            .or_else(|| d.region.num_gangs.clone()),
        workers: d
            .region
            .num_workers
            .clone()
            .or_else(|| worker?.worker.clone()),
        vector: level_sizes(Thread::Vector)
            .and_then(|s| s.vector.clone().or_else(|| d.region.vector_length.clone())),
    };
    let levels = super::ThreadLevels {
        worker: worker.is_some() || inner.iter().any(|p| p.lanes),
        lanes: inner.iter().any(|p| p.lanes),
    };
    super::team_sizes(written, levels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openacc::ast::ReductionOp;
    use crate::openacc::translate::planner::tests::written;

    fn parallel() -> Option<Verdict> {
        Some(Verdict::Parallel {
            reductions: Vec::new(),
            privates: Vec::new(),
        })
    }

    fn dependent() -> Option<Verdict> {
        Some(Verdict::Sequential(
            "a[i + 1] is written by iteration i".into(),
        ))
    }

    fn nest(levels: &str, test: Option<Verdict>) -> NestDesc {
        NestDesc {
            written: written(levels),
            test,
            ..NestDesc::default()
        }
    }

    fn inner(levels: &str, enclosed_by: &[usize]) -> InnerLoop {
        InnerLoop {
            written: written(levels),
            sizes: LoopSizes::default(),
            enclosed_by: enclosed_by.to_vec(),
        }
    }

    fn text(s: &str) -> Option<String> {
        Some(s.to_string())
    }

    const FREE: Nested = Nested {
        bounds_independent: true,
        parallel: true,
    };

    #[test]
    fn seq_independent_and_auto() {
        // seq: one thread, whatever the test says.
        let p = plan_nest(&nest("s", parallel()));
        assert!(p.plan.is_seq());
        assert_eq!(p.plan.why_seq.as_deref(), Some("seq clause"));
        assert!(p.inner.is_empty() && p.num_teams.is_none());
        // No clause, or auto: the test decides.
        for levels in ["", "a"] {
            let p = plan_nest(&nest(levels, dependent()));
            assert_eq!(
                p.plan.why_seq.as_deref(),
                Some("a[i + 1] is written by iteration i")
            );
            let p = plan_nest(&nest(levels, parallel()));
            assert!(p.plan.gang && p.plan.thread == Some(Thread::Vector));
            assert!(!p.explicit);
        }
        // independent or a level: parallel although the test finds a dependence.
        for levels in ["i", "g", "w", "v"] {
            let p = plan_nest(&nest(levels, dependent()));
            assert!(p.plan.gang && p.explicit, "{levels}");
        }
        // ...but not on a loop that is not in canonical form.
        let p = plan_nest(&nest("i", None));
        assert_eq!(
            p.plan.why_seq.as_deref(),
            Some("loop not in canonical form")
        );
        // The test's reductions and private variables are kept.
        let mut d = nest("", None);
        d.test = Some(Verdict::Parallel {
            reductions: vec![(ReductionOp::Max, 2)],
            privates: vec![5],
        });
        let p = plan_nest(&d);
        assert_eq!(p.plan.found_reductions, vec![(ReductionOp::Max, 2)]);
        assert_eq!(p.privates, vec![5]);
    }

    #[test]
    fn worth_a_kernel() {
        assert!(runs_parallel(written("g"), None));
        assert!(runs_parallel(written("i"), dependent().as_ref()));
        assert!(runs_parallel(written(""), parallel().as_ref()));
        assert!(!runs_parallel(written("a"), dependent().as_ref()));
        assert!(!runs_parallel(written("gs"), parallel().as_ref()));
    }

    #[test]
    fn perfectly_nested_parallel_loops_collapse() {
        let mut d = nest("", parallel());
        d.nested = vec![FREE, FREE, FREE];
        assert_eq!(plan_nest(&d).collapse, Collapse::Proven(3));
        d.nested = vec![
            FREE,
            Nested {
                bounds_independent: false,
                parallel: true,
            },
        ];
        assert_eq!(plan_nest(&d).collapse, Collapse::Proven(2));
        d.nested = vec![Nested {
            bounds_independent: true,
            parallel: false,
        }];
        assert_eq!(plan_nest(&d).collapse, Collapse::None);
        assert_eq!(plan_nest(&d).collapse.depth(), 1);
        // Not over the levels written for inner loops: a gang-only nest keeps its threads for them.
        let mut d = nest("g", parallel());
        d.nested = vec![FREE];
        d.inner = vec![inner("v", &[])];
        let p = plan_nest(&d);
        assert!(p.plan.thread.is_none());
        assert_eq!(p.collapse, Collapse::None);
        // Nor when vector loops run on the lanes of the workers' warps.
        let mut d = nest("w", parallel());
        d.nested = vec![FREE];
        d.inner = vec![inner("v", &[])];
        let p = plan_nest(&d);
        assert!(p.inner[0].lanes);
        assert_eq!(p.collapse, Collapse::None);
    }

    #[test]
    fn collapse_and_tile_as_written() {
        let mut d = nest("g", parallel());
        d.nested = vec![FREE, FREE];
        d.collapse = Some(2);
        assert_eq!(plan_nest(&d).collapse, Collapse::Written(2));
        d.collapse = Some(1);
        assert_eq!(plan_nest(&d).collapse, Collapse::None);
        d.collapse = None;
        d.tile = Some(3);
        assert_eq!(plan_nest(&d).collapse, Collapse::Written(3));
        assert_eq!(plan_nest(&d).collapse.depth(), 3);
        d.tile = Some(1);
        assert_eq!(plan_nest(&d).collapse, Collapse::None);
    }

    #[test]
    fn inner_loops_of_a_nest() {
        // gang over a worker loop over a vector loop: threads, then the lanes of the warp.
        let mut d = nest("g", parallel());
        d.inner = vec![inner("w", &[]), inner("v", &[0]), inner("v", &[0, 1])];
        let p = plan_nest(&d);
        assert_eq!(p.inner[0].thread, Some(Thread::Worker));
        assert!(p.inner[1].lanes);
        assert!(p.inner[2].is_seq());
        // Two sibling vector loops under a gang loop: each takes the threads.
        d.inner = vec![inner("v", &[]), inner("v", &[])];
        let p = plan_nest(&d);
        assert!(p.inner.iter().all(|q| q.thread == Some(Thread::Vector)));
        // A sequential nest plans no inner loop.
        let mut d = nest("s", parallel());
        d.inner = vec![inner("v", &[])];
        assert!(plan_nest(&d).inner.is_empty());
    }

    #[test]
    fn teams_and_threads() {
        // num_gangs and vector_length of the region size a gang vector nest.
        let mut d = nest("", parallel());
        d.region = RegionSizes {
            num_gangs: text("(4) * (2)"),
            num_workers: text("8"),
            vector_length: text("64"),
        };
        let p = plan_nest(&d);
        assert_eq!(p.num_teams, text("(4) * (2)"));
        assert_eq!(p.thread_limit, text("64"));
        // The loop's own gang(num:) and vector(n) come first.
        d.written = written("gv");
        d.sizes = LoopSizes {
            gang_num: text("n / 2"),
            worker: None,
            vector: text("128"),
        };
        let p = plan_nest(&d);
        assert_eq!(p.num_teams, text("n / 2"));
        assert_eq!(p.thread_limit, text("128"));
        // Workers as the threads: num_workers, else the worker loop's worker(n).
        let mut d = nest("g", parallel());
        d.inner = vec![InnerLoop {
            sizes: LoopSizes {
                worker: text("6"),
                ..LoopSizes::default()
            },
            ..inner("w", &[])
        }];
        assert_eq!(plan_nest(&d).thread_limit, text("6"));
        d.region.num_workers = text("4");
        assert_eq!(plan_nest(&d).thread_limit, text("4"));
        // Vector loops on the workers' lanes: num_workers warps.
        d.inner.push(inner("v", &[0]));
        let p = plan_nest(&d);
        assert!(p.inner[1].lanes);
        assert_eq!(p.thread_limit, text("(4) * 32"));
        // Nothing written: the runtime's defaults.
        let p = plan_nest(&nest("", parallel()));
        assert_eq!((p.num_teams, p.thread_limit), (None, None));
        // A gang-only nest over a vector loop: the inner loop's vector(n), else vector_length.
        let mut d = nest("g", parallel());
        d.inner = vec![inner("v", &[])];
        d.region.vector_length = text("32");
        assert_eq!(plan_nest(&d).thread_limit, text("32"));
        d.inner[0].sizes.vector = text("96");
        assert_eq!(plan_nest(&d).thread_limit, text("96"));
    }
}

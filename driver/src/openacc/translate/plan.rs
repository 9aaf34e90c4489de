//! Phase 3, loop planning: how each `loop` of a compute region is spread over the device
//! ([`Plan`]: gang → teams, worker/vector → threads or the lanes of a worker's warp, or
//! sequential and why), including multi-dimensional gangs (`gang(dim:d)` nests collapsed into
//! one `distribute`).
use std::collections::BTreeSet;

use crate::openacc::ast::*;
use crate::openacc::cast::DeclId;

use super::planner::{self, Around, LoopDesc, Place, Written};
use super::*;

/// The level of a loop on the block's threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Thread {
    Worker,
    Vector,
}

impl std::fmt::Display for Thread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Thread::Worker => "worker",
            Thread::Vector => "vector",
        })
    }
}

/// How one `loop` is spread over the device.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Plan {
    pub(super) gang: bool,
    /// worker or vector mapped to threads.
    pub(super) thread: Option<Thread>,
    /// vector mapped to SIMD lanes (under a worker level).
    pub(super) simd: bool,
    /// A vector loop inside a worker loop of a parallel region: a parallel region nested in
    /// the worker's, whose threads ptxcc makes the lanes of the worker's warp (vector =
    /// threadIdx.x, worker = threadIdx.y of a 32-wide block, in CUDA's terms).
    pub(super) lanes: bool,
    /// Why the loop is sequential (when no level).
    pub(super) why_seq: Option<String>,
    /// From the dependence test of an `auto` loop.
    pub(super) found_reductions: Vec<(ReductionOp, DeclId)>,
    /// A gang(dim:d) loop tightly nested around gang(dim:e<d) loops: how many loops its
    /// distribute covers (collapse); 0 when none are.
    pub(super) gang_collapse: usize,
}

impl Plan {
    pub(super) fn is_seq(&self) -> bool {
        !self.gang && self.thread.is_none() && !self.simd && !self.lanes
    }
    /// The loop construct of these levels: gang → `distribute`, threads or lanes → `parallel
    /// for`, SIMD → `simd` (the planner gives the lanes only to a loop without threads or SIMD).
    pub(super) fn omp(&self) -> Compute {
        Compute {
            distribute: self.gang,
            parallel_for: self.thread.is_some() || self.lanes,
            simd: self.simd,
            ..Compute::default()
        }
    }
}

impl Tr<'_> {
    /// The lanes of a vector loop inside a worker loop (`Plan::lanes`): its `vector(n)`, else
    /// the region's `vector_length(n)`, else 32; at most 32, the lanes of the worker's warp.
    pub(super) fn vector_lanes(&self, j: usize) -> i64 {
        self.lanes_for(self.vector_length_of(j).as_ref()).0
    }

    /// Why a lanes loop's vector length differs from the one written, if it does.
    pub(super) fn lanes_note(&self, j: usize) -> Option<String> {
        self.lanes_for(self.vector_length_of(j).as_ref()).1
    }

    /// The vector length written for loop `j`: its `vector(n)`, else its region's `vector_length(n)`.
    pub(super) fn vector_length_of(&self, j: usize) -> Option<Expr> {
        let region = if self.prs[j].dir.kind == DirectiveKind::Loop {
            self.enclosing_compute(j)
        } else {
            Some(j)
        };
        let own = self.prs[j].dir.clauses.iter().find_map(|c| match &c.kind {
            ClauseKind::Vector(Some(e)) => Some(e.clone()),
            _ => None,
        });
        own.or_else(|| {
            region.and_then(|r| {
                self.prs[r].dir.clauses.iter().find_map(|c| match &c.kind {
                    ClauseKind::VectorLength(e) => Some(e.clone()),
                    _ => None,
                })
            })
        })
    }

    /// The lanes a vector length asks for, and why it is not what was written when it is not.
    pub(super) fn lanes_for(&self, len: Option<&Expr>) -> (i64, Option<String>) {
        match len {
            Some(e) => match e.int_literal() {
                Some(n @ 1..=32) => (n, None),
                Some(n) if n > 32 => (32, Some(format!("vector length {n} is more than a warp: 32 lanes per worker"))),
                _ => (32, Some(format!("vector length '{}' is not a positive integer constant: 32 lanes per worker", e.text.trim()))),
            },
            None => (32, None),
        }
    }

    /// Whether a compute region or loop has a vector loop on the lanes of its workers' warps.
    pub(super) fn has_lanes_inside(&self, r: usize) -> bool {
        (0..self.prs.len())
            .any(|k| (k == r || self.encloses(r, k)) && self.plans.get(&k).is_some_and(|p| p.lanes))
    }

    pub(super) fn plan_loops(&mut self) {
        for j in 0..self.prs.len() {
            if !self.prs[j].dir.kind.is_loop() {
                continue;
            }
            let region = if self.prs[j].dir.kind == DirectiveKind::Loop {
                self.enclosing_compute(j)
            } else {
                Some(j)
            };
            let plan = self.plan_for(j, region);
            self.plans.insert(j, plan);
        }
    }

    /// Describes loop `j` of region `region` to the planner (the plans of its enclosing loops
    /// are made first: `plan_loops` goes in source order).
    pub(super) fn plan_for(&self, j: usize, region: Option<usize>) -> Plan {
        let d = &self.prs[j].dir;
        let place = match region.map(|r| self.prs[r].dir.kind) {
            None => Place::Orphan,
            Some(DirectiveKind::Serial | DirectiveKind::SerialLoop) => Place::Serial,
            Some(DirectiveKind::Parallel | DirectiveKind::ParallelLoop) => Place::Parallel,
            // kernels regions decide per loop nest elsewhere; loops nested in them follow the same rules.
            Some(_) => Place::Kernels,
        };
        let written = Written::of(d);
        let mut desc = LoopDesc {
            place,
            written,
            around: Around::default(),
            inner_levels: false,
            verdict: None,
        };
        let Some(r) = region else {
            return planner::plan(&desc);
        };
        desc.around = Around::of((0..self.prs.len()).filter_map(|i| {
            (self.prs[i].dir.kind.is_loop()
                && self.encloses(i, j)
                && (i == r || self.encloses(r, i)))
            .then(|| self.plans.get(&i))
            .flatten()
        }));
        desc.inner_levels = (0..self.prs.len()).any(|k| {
            self.prs[k].dir.kind == DirectiveKind::Loop
                && self.encloses(j, k)
                && (self.prs[k].dir.has(ClauseName::Worker)
                    || self.prs[k].dir.has(ClauseName::Vector))
        });
        if place != Place::Serial && written.auto && !written.seq && !written.any_level() {
            desc.verdict = self.loop_verdict(j);
        }
        planner::plan(&desc)
    }

    /// OpenACC 3.3 multi-dimensional gangs (`num_gangs(a, b, c)`, `gang(dim:d)`). The gangs of
    /// all dimensions are the region's teams (a*b*c of them). A gang(dim:d) loop is distributed
    /// over them; gang(dim:e < d) loops tightly nested in it (its body is only that loop, whose
    /// bounds do not use the outer variables, and no other level or collapse) join its
    /// distribute as collapse(n), so every dimension is spread over the gangs. A gang(dim:e) loop
    /// that is not tightly nested runs inside the gang that runs the enclosing iteration
    /// (sequentially, or over its threads if it also has worker/vector): a correct execution,
    /// as the enclosing loop's iterations are already spread over the gangs. Errors: a
    /// gang(dim:e) loop inside a gang(dim:d) loop with e >= d (OpenACC's restriction), and
    /// gang(dim:d > 1) in a kernels region.
    // `dims` is indexed like `self.prs`: the loops use one index for both.
    #[allow(clippy::needless_range_loop)]
    pub(super) fn plan_gang_dims(&mut self) {
        let dims: Vec<Option<(i64, bool)>> = self.prs.iter().map(|p| gang_dim(&p.dir)).collect();
        if !dims.iter().any(|d| matches!(d, Some((_, true)))) {
            return;
        }
        let mut errors: Vec<(usize, Span, String)> = Vec::new();
        for j in 0..self.prs.len() {
            let Some((dj, explicit_j)) = dims[j] else {
                continue;
            };
            if !self.prs[j].dir.kind.is_loop() {
                continue;
            }
            let span = self.prs[j]
                .dir
                .find(ClauseName::Gang)
                .map(|c| c.span)
                .unwrap_or(self.prs[j].dir.span);
            let region = if self.prs[j].dir.kind == DirectiveKind::Loop {
                self.enclosing_compute(j)
            } else {
                Some(j)
            };
            let in_kernels = region.is_some_and(|r| {
                matches!(
                    self.prs[r].dir.kind,
                    DirectiveKind::Kernels | DirectiveKind::KernelsLoop
                )
            });
            if explicit_j && dj > 1 && in_kernels {
                errors.push((
                    j,
                    span,
                    format!("ptxcc does not support 'gang(dim:{dj})' in a kernels region; use a parallel region"),
                ));
                continue;
            }
            for i in 0..self.prs.len() {
                if i == j || !self.prs[i].dir.kind.is_loop() || !self.encloses(i, j) {
                    continue;
                }
                if region.is_some_and(|r| i != r && !self.encloses(r, i)) {
                    continue;
                }
                let Some((di, explicit_i)) = dims[i] else {
                    continue;
                };
                if (explicit_i || explicit_j) && dj >= di {
                    let line = self.line_loc(self.prs[i].li, 0).line;
                    errors.push((
                        j,
                        span,
                        format!(
                            "a 'gang(dim:{dj})' loop cannot be inside the 'gang(dim:{di})' loop of line {line}: the inner dimension must be lower"
                        ),
                    ));
                }
            }
        }
        let failed: BTreeSet<usize> = errors.iter().map(|e| e.0).collect();
        for (j, span, m) in errors {
            self.error(j, span, m);
        }
        // Tightly nested chains: gang(dim:3) > gang(dim:2) > gang(dim:1).
        let mut chains: Vec<(usize, Vec<usize>)> = Vec::new();
        if let Some(an) = self.an() {
            for j in 0..self.prs.len() {
                let Some((dj, true)) = dims[j] else { continue };
                let d = &self.prs[j].dir;
                if dj < 2
                    || failed.contains(&j)
                    || d.has(ClauseName::Collapse)
                    || d.has(ClauseName::Tile)
                    || !self
                        .plans
                        .get(&j)
                        .is_some_and(|p| p.gang && p.thread.is_none() && !p.simd)
                {
                    continue;
                }
                let Some(mut cur) = self.prs[j].stmt.and_then(|s| an.for_loop(s)) else {
                    continue;
                };
                let mut vars = vec![cur.var];
                let mut chain = Vec::new();
                let mut dim = dj;
                while let Some(inner) = an.perfectly_nested(&cur) {
                    let Some(k) = (0..self.prs.len()).find(|&k| {
                        self.prs[k].dir.kind == DirectiveKind::Loop
                            && self.prs[k].stmt == Some(inner.node)
                    }) else {
                        break;
                    };
                    let Some((e, _)) = dims[k] else { break };
                    let kd = &self.prs[k].dir;
                    let other_levels = [
                        ClauseName::Worker,
                        ClauseName::Vector,
                        ClauseName::Seq,
                        ClauseName::Collapse,
                        ClauseName::Tile,
                    ]
                    .iter()
                    .any(|c| kd.has(*c));
                    let bounds_ok = an.bounds_independent_of(&inner, &vars);
                    if e >= dim || other_levels || !bounds_ok || failed.contains(&k) {
                        break;
                    }
                    chain.push(k);
                    vars.push(inner.var);
                    dim = e;
                    cur = inner;
                }
                if !chain.is_empty() {
                    chains.push((j, chain));
                }
            }
        }
        for (j, chain) in chains {
            if let Some(p) = self.plans.get_mut(&j) {
                p.gang_collapse = chain.len() + 1;
            }
            for k in chain {
                self.gang_collapsed.insert(k, j);
            }
        }
        // gang(dim:e) loops left inside another gang loop: say why they are not spread over gangs.
        for k in 0..self.prs.len() {
            if !matches!(dims[k], Some((_, true))) || self.gang_collapsed.contains_key(&k) {
                continue;
            }
            let under_gang = (0..self.prs.len())
                .any(|i| self.encloses(i, k) && self.plans.get(&i).is_some_and(|p| p.gang));
            if let Some(p) = self.plans.get_mut(&k) {
                if under_gang && !p.gang && p.why_seq.is_some() {
                    p.why_seq = Some(
                        "gang loop not tightly nested in the enclosing gang loop: run by the gang that runs the enclosing iteration"
                            .into(),
                    );
                }
            }
        }
    }
}

pub(super) fn found_red(v: &[(ReductionOp, DeclId)], d: DeclId) -> bool {
    v.iter().any(|(_, x)| *x == d)
}

/// The gang dimension of a directive with a `gang` clause, and whether `dim:` was written.
pub(super) fn gang_dim(d: &Directive) -> Option<(i64, bool)> {
    d.clauses.iter().find_map(|c| match &c.kind {
        ClauseKind::Gang(g) => Some(match &g.dim {
            Some(e) => (e.int_literal().unwrap_or(1), true),
            None => (1, false),
        }),
        _ => None,
    })
}

/// `num_gangs(a[, b[, c]])` as one number of teams: every gang of every dimension.
pub(super) fn num_gangs_total(v: &[Expr]) -> Option<String> {
    match v {
        [] => None,
        [a] => Some(a.text.trim().to_string()),
        _ => Some(
            v.iter()
                .map(|e| format!("({})", e.text.trim()))
                .collect::<Vec<_>>()
                .join(" * "),
        ),
    }
}

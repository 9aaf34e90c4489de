//! `parallel`, `serial` and their combined `loop` forms → `target teams` / `target`, with the
//! clauses of the loop they carry.
use std::collections::BTreeSet;

use crate::openacc::ast::*;
use crate::openacc::InfoKind;

use crate::openacc::translate::reductions::{ReductionSet, ReductionVar};
use crate::openacc::translate::*;

impl Tr<'_> {
    /// parallel, serial and their combined loop forms.
    pub(in crate::openacc::translate) fn compute(&mut self, i: usize) {
        if !self.needs_stmt(i) {
            return;
        }
        let d = self.prs[i].dir.clone();
        let is_loop = d.kind.is_loop();
        if is_loop && !self.check_for(i) {
            return;
        }
        let serial = matches!(d.kind, DirectiveKind::Serial | DirectiveKind::SerialLoop);
        let plan = if is_loop {
            self.plans.get(&i).cloned().unwrap_or_default()
        } else {
            Plan::default()
        };
        let mut cl: Vec<OmpClause> = Vec::new();
        // The construct's reductions: written, hoisted from its loops, found by the dependence test.
        let mut reds = ReductionSet::default();
        let mut before: Vec<String> = Vec::new();
        // Levels used by the region's loops decide thread_limit's meaning.
        let uses_worker = plan.thread == Some(Thread::Worker)
            || (0..self.prs.len()).any(|k| {
                self.encloses(i, k)
                    && self
                        .plans
                        .get(&k)
                        .is_some_and(|p| p.thread == Some(Thread::Worker))
            });
        let first =
            |f: fn(&ClauseKind) -> Option<String>| d.clauses.iter().find_map(|c| f(&c.kind));
        let sizes = planner::team_sizes(
            planner::WrittenSizes {
                gangs: first(|k| match k {
                    ClauseKind::NumGangs(v) => num_gangs_total(v),
                    ClauseKind::Gang(g) => g.num.as_ref().map(|e| e.text.trim().to_string()),
                    _ => None,
                }),
                workers: first(|k| match k {
                    ClauseKind::NumWorkers(e) => Some(e.text.trim().to_string()),
                    _ => None,
                }),
                vector: first(|k| match k {
                    ClauseKind::VectorLength(e) => Some(e.text.trim().to_string()),
                    _ => None,
                }),
            },
            // A region whose vector loops run on the lanes of its workers gives each worker a warp.
            planner::ThreadLevels {
                worker: uses_worker,
                lanes: self.has_lanes_inside(i),
            },
        );
        let (num_gangs, thread_limit) = (sizes.num_teams, sizes.thread_limit);
        // A combined loop with worker/vector but no gang level: OpenMP has no 'teams parallel
        // for' (clang would take 'target teams' and drop the rest with a warning, and every
        // thread would run every iteration). The gangs run the loop redundantly, as OpenACC
        // says: 'target teams' (one team unless num_gangs), then the loop's own 'parallel for'.
        let split = is_loop && !serial && !plan.gang && !plan.is_seq();
        // `target` (one thread: serial, or a sequential combined loop without num_gangs), else
        // `target teams`, with the combined loop's levels unless they are split off.
        let sequential_loop = is_loop && !split && plan.is_seq() && num_gangs.is_none();
        let teams = !(serial || sequential_loop);
        let construct = match (teams, is_loop && !split) {
            (false, _) => Compute::TARGET,
            (true, true) => Compute::TARGET_TEAMS.with_loop(plan.omp()),
            (true, false) => Compute::TARGET_TEAMS,
        };
        if let Some(n) = &num_gangs {
            if teams {
                cl.push(OmpClause::NumTeams(n.clone()));
            }
        } else if split {
            cl.push(OmpClause::NumTeams("1".into()));
        } else if teams && !is_loop {
            // No gang loop in the region: one gang (a valid choice of num_gangs), so that code
            // outside loops is not repeated by many gangs.
            let has_gang = (0..self.prs.len())
                .any(|k| self.encloses(i, k) && self.plans.get(&k).is_some_and(|p| p.gang));
            if !has_gang {
                cl.push(OmpClause::NumTeams("1".into()));
            }
        }
        if let Some(t) = &thread_limit {
            if teams {
                cl.push(OmpClause::ThreadLimit(t.clone()));
            }
        }
        if let Some(ic) = self.if_clause(&d, true) {
            cl.push(ic);
        }
        self.data_maps(i, &d, &mut cl, true);
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::Private(v) if !is_loop => {
                    if let Some(l) = self.private_list(i, v) {
                        cl.push(OmpClause::Private(l))
                    }
                }
                ClauseKind::FirstPrivate(v) => {
                    if let Some(l) = self.private_list(i, v) {
                        cl.push(OmpClause::FirstPrivate(l))
                    }
                }
                ClauseKind::Reduction { op, vars } if !is_loop => {
                    if teams {
                        cl.push(OmpClause::Reduction(reds.add_clause(*op, vars)));
                    } else {
                        cl.push(OmpClause::Map(OmpMap::new(MapType::ToFrom, items(vars))));
                    }
                }
                ClauseKind::Reduction { vars, .. } if is_loop && !teams => {
                    cl.push(OmpClause::Map(OmpMap::new(MapType::ToFrom, items(vars))))
                }
                // The teams combine what the loop's threads reduced in each of them.
                ClauseKind::Reduction { op, vars } if split => {
                    cl.push(OmpClause::Reduction(reds.add_clause(*op, vars)))
                }
                ClauseKind::Private(v) if is_loop && plan.is_seq() => {
                    if let Some(l) = self.private_list(i, v) {
                        cl.push(OmpClause::Private(l))
                    }
                }
                _ => {}
            }
        }
        // Reductions of the region's loops on variables from outside the region.
        if let Some(h) = self.hoist_reductions(i, teams, &mut reds) {
            cl.extend(h);
        }
        self.implicit_clauses(i, false, &mut cl);
        let mut split_loop = Vec::new();
        if split {
            // The loop is a construct of its own (nested in the teams): its own reductions.
            self.loop_clauses(
                i,
                &plan,
                &mut split_loop,
                true,
                &mut ReductionSet::default(),
            );
        } else if is_loop && !plan.is_seq() {
            self.loop_clauses(i, &plan, &mut cl, true, &mut reds);
        } else if is_loop {
            // Sequential combined loop: privates stay on the target; nothing else.
        }
        self.async_clauses(&d, &mut cl, &mut before, true);
        // Private sections of the construct and its loops: copies allocated around it.
        let queue = cl
            .iter()
            .find(|c| matches!(c, OmpClause::Depend(DependType::InOut, _)))
            .cloned();
        let cond = d.clauses.iter().find_map(|c| match &c.kind {
            ClauseKind::If(e) => Some(e.text.trim().to_string()),
            _ => None,
        });
        let num_teams = cl
            .iter()
            .find_map(|c| match c {
                OmpClause::NumTeams(n) => Some(n.clone()),
                _ => None,
            })
            .filter(|_| teams);
        let tl = thread_limit.clone().filter(|_| teams);
        let pp = self.private_plan(i, num_teams, tl, cond, queue);
        if let Some(p) = &pp {
            for c in &p.clauses {
                let takes = matches!(c, OmpClause::NumTeams(_) | OmpClause::ThreadLimit(_));
                if !takes || teams {
                    cl.push(c.clone());
                }
            }
        }
        let mut lines = pp.as_ref().map(|p| p.pre.clone()).unwrap_or_default();
        lines.extend(before);
        let zp = self.zero_plan(i);
        if let Some(z) = &zp {
            lines.extend(z.pre.iter().cloned());
            lines.extend(z.enter_zero.iter().cloned());
        }
        lines.push(OmpDirective::new(construct, cl).line());
        if split {
            lines.push(OmpDirective::new(plan.omp(), split_loop).line());
        }
        self.replace_pragma(i, lines);
        if let Some(z) = zp {
            let e = self.prs[i].stmt_end;
            let mut post = z.exit;
            post.push(z.close);
            self.insert_lines(e, "", &post);
        }
        if let Some(p) = pp {
            let e = self.prs[i].stmt_end;
            self.insert_lines(e, "", &p.post);
        }
        if is_loop {
            self.report_loop(i, &plan, thread_limit.clone());
        } else if serial {
            let off = self.prs[i].next_code;
            self.note(
                off,
                InfoKind::Loop,
                "serial region: one gang, one worker, one vector lane",
            );
        }
        self.report_data(i);
    }

    pub(in crate::openacc::translate) fn loop_clauses(
        &mut self,
        i: usize,
        plan: &Plan,
        out: &mut Vec<OmpClause>,
        region_is_self: bool,
        reds: &mut ReductionSet,
    ) {
        let d = self.prs[i].dir.clone();
        let parallel = !plan.is_seq();
        let mut private: Vec<String> = Vec::new();
        if plan.gang_collapse > 1 {
            out.push(OmpClause::Collapse(plan.gang_collapse));
            // The collapsed gang loops' private variables.
            let inner: Vec<usize> = self
                .gang_collapsed
                .iter()
                .filter(|(_, &o)| o == i)
                .map(|(&k, _)| k)
                .collect();
            for k in inner {
                let lists: Vec<Vec<VarRef>> = self.prs[k]
                    .dir
                    .clauses
                    .iter()
                    .filter_map(|c| match &c.kind {
                        ClauseKind::Private(v) => Some(v.clone()),
                        _ => None,
                    })
                    .collect();
                for v in lists {
                    private.extend(self.private_list(k, &v).into_iter().flatten());
                }
            }
        }
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::Collapse { count, .. } if parallel && *count > 1 => {
                    out.push(OmpClause::Collapse(*count as usize))
                }
                ClauseKind::Tile(t) if parallel && t.len() > 1 => {
                    out.push(OmpClause::Collapse(t.len()))
                }
                ClauseKind::Private(v) => {
                    private.extend(self.private_list(i, v).into_iter().flatten());
                }
                ClauseKind::Reduction { op, vars }
                    if (plan.thread.is_some() || plan.simd || plan.lanes || region_is_self) =>
                {
                    out.push(OmpClause::Reduction(reds.add_clause(*op, vars)));
                }
                ClauseKind::Gang(g) => {
                    if let Some(st) = &g.static_ {
                        if plan.gang {
                            match st {
                                GangStatic::Star => out.push(OmpClause::DistScheduleStatic(None)),
                                GangStatic::Size(e) => out.push(OmpClause::DistScheduleStatic(
                                    Some(e.text.trim().to_string()),
                                )),
                            }
                        }
                    }
                }
                ClauseKind::Worker(Some(e)) | ClauseKind::Vector(Some(e))
                    if plan.thread.is_some() =>
                {
                    out.push(OmpClause::NumThreads(e.text.trim().to_string()));
                }
                _ => {}
            }
        }
        for (op, dcl) in &plan.found_reductions {
            let n = self
                .ast
                .as_ref()
                .map(|a| a.decl(*dcl).name.clone())
                .unwrap_or_default();
            if let Some(c) = reds.add_if_new(*op, ReductionVar::named(&n)) {
                out.push(OmpClause::Reduction(c));
            }
        }
        // Each thread needs its own copy of nested loop counters and write-first scalars.
        if parallel {
            if let (Some(an), Some(stmt)) = (self.an(), self.prs[i].stmt) {
                if let Some(fl) = an.for_loop(stmt) {
                    let listed: BTreeSet<String> = d
                        .clauses
                        .iter()
                        .flat_map(|c| match &c.kind {
                            ClauseKind::Private(v)
                            | ClauseKind::FirstPrivate(v)
                            | ClauseKind::Reduction { vars: v, .. } => {
                                v.iter().map(|x| x.name.clone()).collect::<Vec<_>>()
                            }
                            _ => Vec::new(),
                        })
                        .collect();
                    let stmt_start = an.ast.node(stmt).start;
                    let mut extra: Vec<String> = Vec::new();
                    let collapse_vars = self.loop_vars_in(i);
                    for d in an.auto_private(&fl) {
                        let di = an.ast.decl(d);
                        // Only variables declared outside the loop statement.
                        if di.loc != usize::MAX && di.loc >= stmt_start {
                            continue;
                        }
                        if listed.contains(&di.name)
                            || collapse_vars.contains(&d)
                            || found_red(&plan.found_reductions, d)
                        {
                            continue;
                        }
                        extra.push(di.name.clone());
                    }
                    if !extra.is_empty() {
                        let s = stmt_start;
                        self.note(
                            s,
                            InfoKind::Loop,
                            format!("made private to each thread: {}", extra.join(", ")),
                        );
                        private.extend(extra);
                    }
                }
            }
        }
        private.dedup();
        if !private.is_empty() {
            out.push(OmpClause::Private(private));
        }
    }
}

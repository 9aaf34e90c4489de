//! `kernels`: a `target data` for the region, then one kernel per parallel loop nest and one
//! single-thread `target` per sequential nest or run of other statements.
use std::collections::BTreeSet;

use crate::openacc::analysis::{Analyzer, Verdict};
use crate::openacc::ast::*;
use crate::openacc::cast::{NodeId, TypeClass, NK};
use crate::openacc::InfoKind;

use crate::openacc::translate::planner::{
    self, Collapse, InnerLoop, LoopSizes, NestDesc, Nested, RegionSizes, Written,
};
use crate::openacc::translate::reductions::{OmpReduction, ReductionVar};
use crate::openacc::translate::*;

impl Tr<'_> {
    pub(in crate::openacc::translate) fn kernels(&mut self, i: usize) {
        if !self.needs_stmt(i) {
            return;
        }
        let d = self.prs[i].dir.clone();
        if d.kind == DirectiveKind::KernelsLoop {
            if !self.check_for(i) {
                return;
            }
            let stmt = self.prs[i].stmt.unwrap_or(0);
            let mut cl = Vec::new();
            let mut before = Vec::new();
            self.data_maps(i, &d, &mut cl, true);
            if let Some(ic) = self.if_clause(&d, true) {
                cl.push(ic);
            }
            self.implicit_clauses(i, true, &mut cl);
            self.async_clauses(&d, &mut cl, &mut before, true);
            let (construct, more) = self.kernels_nest(i, Some(i), stmt, &d);
            cl.extend(more);
            let mut lines = before;
            let zp = self.zero_plan(i);
            if let Some(z) = &zp {
                lines.extend(z.pre.iter().cloned());
                lines.extend(z.enter_zero.iter().cloned());
            }
            lines.push(OmpDirective::new(construct, cl).line());
            self.replace_pragma(i, lines);
            if let Some(z) = zp {
                let e = self.prs[i].stmt_end;
                let mut post = z.exit;
                post.push(z.close);
                self.insert_lines(e, "", &post);
            }
            self.report_data(i);
            return;
        }
        // A region: one target data around one target per loop nest.
        let stmt = self.prs[i].stmt.unwrap_or(0);
        let Some(ast) = &self.ast else { return };
        let body: Vec<NodeId> = if ast.node(stmt).kind == NK::Compound {
            ast.node(stmt).children.clone()
        } else {
            vec![stmt]
        };
        let has_decl = body.iter().any(|&c| ast.node(c).kind == NK::DeclStmt);
        let mut dcl = Vec::new();
        let mut before = Vec::new();
        self.data_maps(i, &d, &mut dcl, false);
        let devptrs: Vec<String> = d
            .clauses
            .iter()
            .flat_map(|c| match &c.kind {
                ClauseKind::Data {
                    kind: DataKind::DevicePtr,
                    vars,
                    ..
                } => vars.iter().map(|v| v.render()).collect(),
                _ => Vec::new(),
            })
            .collect();
        let mut implicit = Vec::new();
        self.implicit_clauses(i, true, &mut implicit);
        // Visible-size arrays referenced in the region are copied once for the whole region.
        let arrays = self.kernels_arrays(i, stmt);
        if !arrays.is_empty() {
            dcl.push(OmpClause::Map(OmpMap::new(MapType::ToFrom, arrays).held()));
        }
        let scalar_maps: Vec<OmpClause> = implicit.iter().filter(|c| c.is_map()).cloned().collect();
        dcl.extend(scalar_maps.iter().cloned());
        if let Some(ic) = self.if_clause(&d, false) {
            if d.has(ClauseName::If) {
                dcl.push(ic);
            }
        }
        self.async_clauses(&d, &mut Vec::new(), &mut before, false);
        // async(q): every kernel of the region is a target task on queue q (in order), and so are
        // the region's data movements: enter data before the kernels, exit data after them.
        let async_q = match d.find(ClauseName::Async).map(|c| &c.kind) {
            Some(ClauseKind::Async(q)) => Some(self.queue(q.as_ref())),
            _ => None,
        };
        let kscalars: Vec<String> = scalar_maps
            .iter()
            .filter_map(OmpClause::as_map)
            .filter(|m| m.map_type == MapType::ToFrom && !m.hold && !m.present)
            .flat_map(|m| m.items.iter().cloned())
            .collect();
        // Scalars of the region's own data clauses live on the device too: every kernel uses that copy.
        let mut kscalars = kscalars;
        for c in &d.clauses {
            if let ClauseKind::Data { kind, vars, .. } = &c.kind {
                if matches!(kind, DataKind::DevicePtr) {
                    continue;
                }
                for v in vars.iter().filter(|v| v.is_plain()) {
                    let scalar = self
                        .resolve(i, &v.name)
                        .and_then(|dd| self.ast.as_ref().map(|a| a.decl(dd).ty.is_scalar()));
                    if scalar == Some(true) && !kscalars.contains(&v.name) {
                        kscalars.push(v.name.clone());
                    }
                }
            }
        }
        let mut per_target: Vec<OmpClause> = Vec::new();
        if !devptrs.is_empty() {
            per_target.push(OmpClause::IsDevicePtr(devptrs));
        }
        // no_create: each kernel maps the same zero-length-when-absent sections, so that absent
        // data reaches it as the host address (explicitly, not as an unmapped implicit pointer).
        let mut nc_maps = Vec::new();
        for c in &d.clauses {
            if let ClauseKind::Data {
                kind: DataKind::NoCreate,
                vars,
                ..
            } = &c.kind
            {
                let secs: Vec<String> = vars
                    .iter()
                    .filter_map(|v| self.no_create_item(i, v).ok().flatten())
                    .collect();
                if !secs.is_empty() {
                    nc_maps.push(OmpClause::Map(OmpMap::new(MapType::Alloc, secs).held()));
                }
            }
        }
        per_target.extend(nc_maps.iter().cloned());
        per_target.extend(
            implicit
                .iter()
                .filter(|c| matches!(c, OmpClause::IsDevicePtr(_)))
                .cloned(),
        );
        if let Some(ic) = self.if_clause(&d, true) {
            per_target.push(ic);
        }
        if let Some(q) = &async_q {
            per_target.push(OmpClause::Nowait);
            per_target.push(OmpClause::Depend(DependType::InOut, q.clone()));
        }
        let has_data = dcl.iter().any(OmpClause::is_map);
        // async: the target data's maps as an enter data / exit data pair on the queue (dynamic
        // reference counts: a kernels region holds no host code that could release the data in
        // between). The no_create sections are left to each kernel (evaluated once per kernel).
        let enter_exit = async_q.as_ref().filter(|_| has_data).and_then(|q| {
            let (mut en, mut ex) = (Vec::new(), Vec::new());
            let mut cond = None;
            for c in &dcl {
                if nc_maps.contains(c) {
                    continue;
                }
                if matches!(c, OmpClause::If { .. }) {
                    cond = Some(c.clone());
                    continue;
                }
                let (a, b) = c.as_map()?.enter_exit()?;
                en.push(OmpClause::Map(a));
                ex.push(OmpClause::Map(b));
            }
            if en.is_empty() {
                return Some(Vec::new());
            }
            if let Some(c) = cond {
                en.push(c.clone());
                ex.push(c);
            }
            for cl in [&mut en, &mut ex] {
                cl.push(OmpClause::Nowait);
                cl.push(OmpClause::Depend(DependType::InOut, q.clone()));
            }
            Some(vec![
                OmpDirective::new(OmpConstruct::TargetEnterData, en).line(),
                OmpDirective::new(OmpConstruct::TargetExitData, ex).line(),
            ])
        });
        // What runs after the region (inside the block that opens before it when async).
        let mut post: Vec<String> = Vec::new();
        let mut lines = Vec::new();
        if async_q.is_some() {
            lines.push("{".to_string());
        }
        lines.extend(before);
        let zp = self.zero_plan(i);
        if let Some(z) = &zp {
            lines.extend(z.pre.iter().cloned());
            lines.extend(z.enter_zero.iter().cloned());
        }
        match (&enter_exit, &async_q) {
            (Some(ee), Some(_)) => {
                if let [en, ex] = ee.as_slice() {
                    lines.push(en.clone());
                    post.push(ex.clone());
                } else {
                    lines.push("/* acc kernels async: no data to map */".into());
                }
                let off = self.prs[i].next_code;
                self.note(
                    off,
                    InfoKind::Data,
                    "kernels async: the region's data moves in (enter data) and out (exit data) on the queue, around its kernels, all in order on it",
                );
            }
            (None, Some(q)) if has_data => {
                // Not expressible as enter/exit data: the host waits for the queue at both ends.
                let dep = OmpClause::Depend(DependType::InOut, q.clone());
                let w = OmpDirective::new(OmpConstruct::Taskwait, vec![dep]).line();
                lines.push(w.clone());
                lines.push(OmpDirective::new(OmpConstruct::TargetData, dcl).line());
                self.at_end_of_body(i, std::slice::from_ref(&w));
            }
            _ if has_data => lines.push(OmpDirective::new(OmpConstruct::TargetData, dcl).line()),
            _ => lines.push("/* acc kernels: no data to map */".into()),
        }
        self.replace_pragma(i, lines);
        if let Some(z) = zp {
            if let Some(q) = &async_q {
                // The zeroed copies go once the queue is done with them.
                let dep = OmpClause::Depend(DependType::InOut, q.clone());
                post.push(OmpDirective::new(OmpConstruct::Taskwait, vec![dep]).line());
            }
            post.extend(z.exit);
            post.push(z.close);
        }
        if async_q.is_some() {
            post.push("}".into());
        }
        if !post.is_empty() {
            let e = self.prs[i].stmt_end;
            self.insert_lines(e, "", &post);
        }
        self.report_data(i);
        if has_decl {
            // Declarations at the top of the region are shared by its statements: one kernel.
            let first = body.first().copied();
            if let Some(f) = first {
                let ast = self.ast.as_ref();
                let s = ast.map(|a| a.node(stmt).start).unwrap_or(0);
                let e = self.prs[i].stmt_end;
                let _ = (f, e);
                let mut cl = self.scalar_maps_for(&[stmt], &kscalars);
                cl.extend(per_target.iter().cloned());
                self.insert_lines(s, "", &[OmpDirective::new(Compute::TARGET, cl).line()]);
                // Inner acc loops run sequentially in that one thread.
                self.silence_inner_loops(
                    i,
                    "sequential: the kernels region has top-level declarations",
                );
                let off = self.prs[i].next_code;
                self.note(
                    off,
                    InfoKind::Loop,
                    "kernels region not split: declarations at its top level; run by one device thread",
                );
            }
            return;
        }
        // Group the statements: loops on their own, runs of other statements together.
        let an_nodes: Vec<(NodeId, NK, usize)> = {
            let ast = self.ast.as_ref().expect("checked above");
            body.iter()
                .map(|&c| (c, ast.node(c).kind, ast.node(c).start))
                .collect()
        };
        let mut group: Vec<NodeId> = Vec::new();
        let flush = |tr: &mut Tr,
                     group: &mut Vec<NodeId>,
                     per_target: &[OmpClause],
                     kscalars: &[String]| {
            if group.is_empty() {
                return;
            }
            let ast = tr.ast.as_ref().expect("checked above");
            let s = ast.node(group[0]).start;
            let last = *group.last().unwrap_or(&group[0]);
            let e = Analyzer { ast, text: tr.text }.stmt_end(last);
            let all_null = group.iter().all(|&g| ast.node(g).kind == NK::Null);
            if !all_null {
                let mut cl = tr.scalar_maps_for(group, kscalars);
                cl.extend(per_target.iter().cloned());
                tr.insert_lines(s, "", &[OmpDirective::new(Compute::TARGET, cl).line()]);
                tr.insert(s, "{");
                tr.insert(e, "}");
                tr.note(
                    s,
                    InfoKind::Loop,
                    "kernels: statements run by one device thread",
                );
            }
            group.clear();
        };
        for (c, kind, _start) in an_nodes {
            if kind == NK::For {
                flush(self, &mut group, &per_target, &kscalars);
                self.kernels_for(i, c, &per_target, &kscalars, 0);
            } else {
                group.push(c);
            }
        }
        flush(self, &mut group, &per_target, &kscalars);
        // Loops nested in statements that run on one thread.
        for k in 0..self.prs.len() {
            if self.prs[k].dir.kind == DirectiveKind::Loop
                && self.encloses(i, k)
                && !self.done.contains(&k)
            {
                let orig = acc_text(&self.prs[k].text);
                let off = self.prs[k].next_code;
                self.replace_pragma(
                    k,
                    vec![format!(
                        "/* {orig}: sequential (inside a kernels statement run by one thread) */"
                    )],
                );
                self.note(
                    off,
                    InfoKind::Loop,
                    "loop not parallelized: inside a statement of the kernels region that is not a loop nest",
                );
            }
        }
    }

    /// `map(tofrom: …)` of the kernels scalars that statements `nodes` reference.
    pub(in crate::openacc::translate) fn scalar_maps_for(
        &self,
        nodes: &[NodeId],
        kscalars: &[String],
    ) -> Vec<OmpClause> {
        let Some(an) = self.an() else {
            return Vec::new();
        };
        let mut used = Vec::new();
        for &n in nodes {
            for (d, _) in an.outside_refs(n) {
                let name = &an.ast.decl(d).name;
                if kscalars.contains(name) && !used.contains(name) {
                    used.push(name.clone());
                }
            }
        }
        if used.is_empty() {
            Vec::new()
        } else {
            vec![OmpClause::Map(OmpMap::new(MapType::ToFrom, used))]
        }
    }

    pub(in crate::openacc::translate) fn own_loop_pragma(
        &self,
        stmt: NodeId,
    ) -> (Option<usize>, Directive) {
        let own = (0..self.prs.len()).find(|&k| {
            self.prs[k].dir.kind == DirectiveKind::Loop && self.prs[k].stmt == Some(stmt)
        });
        let dd = own.map(|k| self.prs[k].dir.clone()).unwrap_or(Directive {
            kind: DirectiveKind::Loop,
            arg: DirectiveArg::None,
            clauses: Vec::new(),
            span: Span::default(),
        });
        (own, dd)
    }

    /// Whether a loop of a kernels region would run in parallel on its own.
    pub(in crate::openacc::translate) fn kernels_parallel(&self, stmt: NodeId) -> bool {
        let (_, d) = self.own_loop_pragma(stmt);
        let test = self
            .an()
            .and_then(|an| an.for_loop(stmt).map(|fl| an.test(&fl)));
        planner::runs_parallel(Written::of(&d), test.as_ref())
    }

    /// The loops of a sequential loop's body when it holds nothing else and one of them is
    /// parallel: the sequential loop then runs on the host and launches them.
    pub(in crate::openacc::translate) fn host_loop_children(
        &self,
        stmt: NodeId,
    ) -> Option<Vec<NodeId>> {
        let an = self.an()?;
        let fl = an.for_loop(stmt)?;
        let body = an.ast.node(fl.body);
        let kids: Vec<NodeId> = if body.kind == NK::Compound {
            body.children.clone()
        } else {
            vec![fl.body]
        };
        let kids: Vec<NodeId> = kids
            .into_iter()
            .filter(|&k| an.ast.node(k).kind != NK::Null)
            .collect();
        if kids.is_empty() || !kids.iter().all(|&k| an.ast.node(k).kind == NK::For) {
            return None;
        }
        // The host loop's control must not read data the region writes on the device.
        let written = self.written_in(fl.body);
        let mut ctl_ok = true;
        for part in [fl.lower, fl.upper].into_iter().flatten() {
            an.ast.walk(part, &mut |k| {
                if an.ast.node(k).decl.is_some_and(|d| written.contains(&d))
                    || an.ast.node(k).kind == NK::Subscript
                {
                    ctl_ok = false;
                }
            });
        }
        if !ctl_ok
            || !kids
                .iter()
                .any(|&k| self.kernels_parallel(k) || self.host_loop_children(k).is_some())
        {
            return None;
        }
        Some(kids)
    }

    /// One loop nest of kernels region `i`.
    pub(in crate::openacc::translate) fn kernels_for(
        &mut self,
        i: usize,
        c: NodeId,
        per_target: &[OmpClause],
        kscalars: &[String],
        depth: usize,
    ) {
        let (own, dd) = self.own_loop_pragma(c);
        if depth < 4 && !self.kernels_parallel(c) {
            if let Some(kids) = self.host_loop_children(c) {
                let off = self.ast.as_ref().map(|a| a.node(c).start).unwrap_or(0);
                if let Some(k) = own {
                    let orig = acc_text(&self.prs[k].text);
                    self.replace_pragma(k, vec![format!("/* {orig}: sequential, on the host */")]);
                }
                self.note(
                    off,
                    InfoKind::Loop,
                    "loop not parallelized: run on the host, its inner loops are kernels",
                );
                for k in kids {
                    self.kernels_for(i, k, per_target, kscalars, depth + 1);
                }
                return;
            }
        }
        let start = self.ast.as_ref().map(|a| a.node(c).start).unwrap_or(0);
        let (construct, more) = self.kernels_nest(i, own, c, &dd);
        let mut cl = self.scalar_maps_for(&[c], kscalars);
        cl.extend(per_target.iter().cloned());
        cl.extend(more);
        let line = OmpDirective::new(construct, cl).line();
        match own {
            Some(k) => self.replace_pragma(k, vec![line]),
            None => self.insert_lines(start, "", &[line]),
        }
    }

    pub(in crate::openacc::translate) fn silence_inner_loops(&mut self, i: usize, why: &str) {
        for k in 0..self.prs.len() {
            if self.prs[k].dir.kind == DirectiveKind::Loop && self.encloses(i, k) {
                let orig = acc_text(&self.prs[k].text);
                self.replace_pragma(k, vec![format!("/* {orig}: {why} */")]);
            }
        }
    }

    /// Arrays with a visible size referenced in kernels region `i` and not listed anywhere.
    pub(in crate::openacc::translate) fn kernels_arrays(
        &self,
        i: usize,
        stmt: NodeId,
    ) -> Vec<String> {
        let Some(an) = self.an() else {
            return Vec::new();
        };
        let (listed, _, default) = self.listed_names(i);
        if default.is_some() {
            return Vec::new();
        }
        an.outside_refs(stmt)
            .into_iter()
            .filter_map(|(d, _)| {
                let di = an.ast.decl(d);
                (matches!(di.ty, TypeClass::Array { .. })
                    && !listed.contains(&di.name)
                    && !self.is_system(di))
                .then(|| di.name.clone())
            })
            .collect()
    }

    /// Describes one loop nest of kernels region `region` to the planner: the nest's own acc
    /// loop `own` (directive `d`, empty when none), the acc loops inside it (their indices in
    /// `self.prs`, in the order of [`NestDesc::inner`]) and the loops perfectly nested below it
    /// (their statements, in the order of [`NestDesc::nested`]).
    fn describe_nest(
        &self,
        region: usize,
        own: Option<usize>,
        stmt: NodeId,
        d: &Directive,
    ) -> (NestDesc, Vec<usize>, Vec<NodeId>) {
        let an = self.an();
        let fl = an.as_ref().and_then(|an| an.for_loop(stmt));
        let mut nested = Vec::new();
        let mut nested_nodes = Vec::new();
        if let (Some(an), Some(fl)) = (&an, &fl) {
            let mut cur = fl.clone();
            let mut outer_vars = vec![fl.var];
            while nested.len() + 1 < planner::MAX_COLLAPSE {
                let Some(inner) = an.perfectly_nested(&cur) else {
                    break;
                };
                nested.push(Nested {
                    bounds_independent: an.bounds_independent_of(&inner, &outer_vars),
                    parallel: matches!(an.test(&inner), Verdict::Parallel { .. }),
                });
                outer_vars.push(inner.var);
                nested_nodes.push(inner.node);
                cur = inner;
            }
        }
        let inside: Vec<usize> = (0..self.prs.len())
            .filter(|&k| {
                self.prs[k].dir.kind == DirectiveKind::Loop
                    && Some(k) != own
                    && self.prs[k].stmt.is_some_and(|s| {
                        s != stmt && an.as_ref().is_some_and(|an| an.inside(s, stmt))
                    })
            })
            .collect();
        let inner = inside
            .iter()
            .enumerate()
            .map(|(n, &k)| InnerLoop {
                written: Written::of(&self.prs[k].dir),
                sizes: LoopSizes::of(&self.prs[k].dir),
                enclosed_by: (0..n).filter(|&o| self.encloses(inside[o], k)).collect(),
            })
            .collect();
        let desc = NestDesc {
            written: Written::of(d),
            sizes: LoopSizes::of(d),
            collapse: d.clauses.iter().find_map(|c| match &c.kind {
                ClauseKind::Collapse { count, .. } => Some(*count as usize),
                _ => None,
            }),
            tile: d.clauses.iter().find_map(|c| match &c.kind {
                ClauseKind::Tile(t) => Some(t.len()),
                _ => None,
            }),
            test: fl.as_ref().and_then(|fl| an.as_ref().map(|an| an.test(fl))),
            nested,
            inner,
            region: RegionSizes::of(&self.prs[region].dir),
        };
        (desc, inside, nested_nodes)
    }

    /// Lowers one loop nest of a kernels region as the planner decides it: the OpenMP
    /// construct and its loop clauses.
    pub(in crate::openacc::translate) fn kernels_nest(
        &mut self,
        region: usize,
        own: Option<usize>,
        stmt: NodeId,
        d: &Directive,
    ) -> (OmpConstruct, Vec<OmpClause>) {
        let fl = self.an().and_then(|an| an.for_loop(stmt));
        let (desc, inside, nested_nodes) = self.describe_nest(region, own, stmt, d);
        let nest = planner::plan_nest(&desc);
        let plan = &nest.plan;
        let loc_off = self.ast.as_ref().map(|a| a.node(stmt).start).unwrap_or(0);
        let mut cl = Vec::new();
        if plan.is_seq() {
            let why = plan.why_seq.clone().unwrap_or_default();
            self.note(
                loc_off,
                InfoKind::Loop,
                format!("loop not parallelized: {why}"),
            );
            // Inner acc loop pragmas: sequential too.
            self.silence_loops_in(stmt, "sequential: inside a kernels loop run by one thread");
            for c in &d.clauses {
                if let ClauseKind::Reduction { vars, .. } = &c.kind {
                    cl.push(OmpClause::Map(OmpMap::new(MapType::ToFrom, items(vars))));
                }
            }
            return (Compute::TARGET.into(), cl);
        }
        let Some(fl) = fl else {
            return (Compute::TARGET.into(), Vec::new());
        };
        let inner: Vec<(usize, Plan)> = inside.into_iter().zip(nest.inner.clone()).collect();
        let lanes = inner.iter().any(|(_, p)| p.lanes);
        let construct = OmpConstruct::from(Compute::TARGET_TEAMS.with_loop(plan.omp()));
        // Perfectly nested parallel loops collapse (not over the levels the user wrote for the
        // inner loops); a collapse or tile written is printed where it was written.
        let depth = match nest.collapse {
            Collapse::Proven(n) => n,
            Collapse::None | Collapse::Written(_) => 1,
        };
        let collapsed: Vec<NodeId> = nested_nodes.into_iter().take(depth - 1).collect();
        if depth > 1 {
            cl.push(OmpClause::Collapse(depth));
        }
        // Loop clauses written by the user (private, reduction, collapse…).
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::Collapse { .. } | ClauseKind::Tile(_) => {
                    if let Collapse::Written(n) = nest.collapse {
                        cl.push(OmpClause::Collapse(n))
                    }
                }
                ClauseKind::Private(v) => cl.push(OmpClause::Private(items(v))),
                ClauseKind::Reduction { op, vars } => cl.push(OmpClause::Reduction(OmpReduction {
                    op: *op,
                    vars: vars.iter().map(ReductionVar::of).collect(),
                })),
                _ => {}
            }
        }
        let listed: BTreeSet<String> = d
            .clauses
            .iter()
            .flat_map(|c| match &c.kind {
                ClauseKind::Private(v) | ClauseKind::Reduction { vars: v, .. } => {
                    v.iter().map(|x| x.name.clone()).collect()
                }
                _ => Vec::new(),
            })
            .collect();
        let mut reds = Vec::new();
        for (op, dd) in &plan.found_reductions {
            let n = self
                .ast
                .as_ref()
                .map(|a| a.decl(*dd).name.clone())
                .unwrap_or_default();
            if !listed.contains(&n) {
                cl.push(OmpClause::Reduction(OmpReduction {
                    op: *op,
                    vars: vec![ReductionVar::named(&n)],
                }));
                reds.push(format!("{}: {}", op.spelling(), n));
            }
        }
        let stmt_start = loc_off;
        let mut privs: Vec<String> = Vec::new();
        if let Some(an) = self.an() {
            let mut ps = nest.privates.clone();
            ps.extend(an.auto_private(&fl));
            let mut cur = fl.clone();
            for _ in 1..depth {
                if let Some(n) = an.perfectly_nested(&cur) {
                    ps.retain(|x| *x != n.var);
                    cur = n;
                }
            }
            for p in ps {
                let di = an.ast.decl(p);
                if di.is_global
                    || (di.loc != usize::MAX && di.loc >= stmt_start)
                    || listed.contains(&di.name)
                    || privs.contains(&di.name)
                {
                    continue;
                }
                privs.push(di.name.clone());
            }
        }
        // In a kernels region these variables keep the value the loop leaves in them (a scalar
        // there is 'copy', and the program may read it after the loop): each thread has its own
        // copy, and the last iteration's is copied out. (The test privatises only what every
        // iteration writes before reading it.)
        if !privs.is_empty() {
            cl.push(OmpClause::LastPrivate(privs.clone()));
        }
        let threads = nest.thread_limit.clone();
        cl.extend(
            nest.num_teams
                .iter()
                .map(|n| OmpClause::NumTeams(n.clone())),
        );
        cl.extend(threads.iter().map(|n| OmpClause::ThreadLimit(n.clone())));
        let mut parts = vec!["gang(blockIdx.x)".to_string()];
        match (plan.thread, &threads) {
            (Some(Thread::Worker), _) if lanes => {
                parts.push("worker(threadIdx.y: one warp each)".into())
            }
            (Some(t), Some(n)) => parts.push(format!("{t}(threadIdx.x, {n})")),
            (Some(t), None) => parts.push(format!("{t}(threadIdx.x)")),
            (None, _) => {}
        }
        if depth > 1 {
            parts.push(format!("collapse({depth})"));
        }
        let how = if nest.explicit {
            ""
        } else {
            " (independent iterations proven)"
        };
        self.note(
            loc_off,
            InfoKind::Loop,
            format!("loop parallelized: {}{how}", parts.join(" ")),
        );
        for r in reds {
            self.note(
                loc_off,
                InfoKind::Reduction,
                format!("reduction({r}) recognised"),
            );
        }
        if !privs.is_empty() {
            self.note(
                loc_off,
                InfoKind::Loop,
                format!(
                    "made private to each thread, the last iteration's value kept: {}",
                    privs.join(", ")
                ),
            );
        }
        if let Some(k) = own {
            self.plans.insert(k, plan.clone());
        }
        for (k, p) in &inner {
            self.plans.insert(*k, p.clone());
        }
        for (k, p) in inner {
            if p.is_seq() {
                let orig = acc_text(&self.prs[k].text);
                let why = match self.prs[k].stmt {
                    Some(s) if collapsed.contains(&s) => {
                        format!("in the collapse({depth}) of the parallel loop")
                    }
                    _ => p.why_seq.clone().unwrap_or_default(),
                };
                self.replace_pragma(k, vec![format!("/* {orig}: {why} */")]);
            } else {
                let line = self.thread_loop_pragma(k, &p);
                self.replace_pragma(k, vec![line]);
                let shown = if p.thread.is_some() && plan.thread.is_none() {
                    threads.clone()
                } else {
                    None
                };
                self.report_loop(k, &p, shown);
            }
        }
        (construct, cl)
    }

    pub(in crate::openacc::translate) fn silence_loops_in(&mut self, stmt: NodeId, why: &str) {
        for k in 0..self.prs.len() {
            if self.prs[k].dir.kind != DirectiveKind::Loop {
                continue;
            }
            let inside = self.prs[k]
                .stmt
                .is_some_and(|s| s != stmt && self.an().is_some_and(|an| an.inside(s, stmt)));
            if inside {
                let orig = acc_text(&self.prs[k].text);
                self.replace_pragma(k, vec![format!("/* {orig}: {why} */")]);
            }
        }
    }
}

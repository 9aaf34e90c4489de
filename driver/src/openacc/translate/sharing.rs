//! Phase 4, data sharing: the names a construct and its enclosing data constructs list, the
//! implicit data attributes of a compute construct (what OpenMP's defaults would get wrong,
//! `default(none)` errors), and the reductions hoisted from a region's loops to the construct.
use std::collections::BTreeSet;

use ptxcc_passes::diagnostics::Diagnostic;

use crate::openacc::ast::*;
use crate::openacc::cast::{self, DeclId, DeclKind, TypeClass, NK};

use super::reductions::ReductionSet;
use super::*;

impl Tr<'_> {
    /// Names and data attributes listed by pragma `i` and by enclosing data constructs / declares.
    pub(super) fn listed_names(
        &self,
        i: usize,
    ) -> (BTreeSet<String>, BTreeSet<String>, Option<DefaultKind>) {
        let mut listed = BTreeSet::new();
        let mut devptr = BTreeSet::new();
        let mut default = None;
        let add = |d: &Directive, listed: &mut BTreeSet<String>, devptr: &mut BTreeSet<String>| {
            for c in &d.clauses {
                match &c.kind {
                    ClauseKind::Data { kind, vars, .. } => {
                        for v in vars {
                            listed.insert(v.name.clone());
                            if *kind == DataKind::DevicePtr {
                                devptr.insert(v.name.clone());
                            }
                        }
                    }
                    ClauseKind::Private(v)
                    | ClauseKind::FirstPrivate(v)
                    | ClauseKind::Reduction { vars: v, .. } => {
                        for x in v {
                            listed.insert(x.name.clone());
                        }
                    }
                    _ => {}
                }
            }
        };
        add(&self.prs[i].dir, &mut listed, &mut devptr);
        if let Some(c) = self.prs[i].dir.find(ClauseName::Default) {
            if let ClauseKind::Default(k) = c.kind {
                default = Some(k);
            }
        }
        for k in 0..self.prs.len() {
            let dk = self.prs[k].dir.kind;
            let enclosing_data =
                (dk == DirectiveKind::Data || dk == DirectiveKind::HostData) && self.encloses(k, i);
            let declare_before = dk == DirectiveKind::Declare
                && self.prs[k].off < self.prs[i].off
                && (self.prs[k].func.is_none() || self.prs[k].func == self.prs[i].func);
            // Loops inside the region: their reductions and privates count as listed.
            let inner_loop = dk == DirectiveKind::Loop && self.encloses(i, k);
            if enclosing_data || declare_before || inner_loop {
                let d = self.prs[k].dir.clone();
                add(&d, &mut listed, &mut devptr);
                if enclosing_data && default.is_none() {
                    if let Some(c) = d.find(ClauseName::Default) {
                        if let ClauseKind::Default(kk) = c.kind {
                            default = Some(kk);
                        }
                    }
                }
            }
        }
        (listed, devptr, default)
    }

    /// Loop control variables of acc loops in the region (predetermined private).
    pub(super) fn loop_vars_in(&self, i: usize) -> BTreeSet<DeclId> {
        let mut s = BTreeSet::new();
        let Some(an) = self.an() else { return s };
        for k in 0..self.prs.len() {
            if self.prs[k].dir.kind.is_loop() && (k == i || self.encloses(i, k)) {
                if let Some(fl) = self.prs[k].stmt.and_then(|n| an.for_loop(n)) {
                    s.insert(fl.var);
                    let depth = self.prs[k].dir.clauses.iter().find_map(|c| match &c.kind {
                        ClauseKind::Collapse { count, .. } => Some(*count as usize),
                        ClauseKind::Tile(t) => Some(t.len()),
                        _ => None,
                    });
                    let mut cur = fl;
                    for _ in 1..depth.unwrap_or(1) {
                        match an.perfectly_nested(&cur) {
                            Some(n) => {
                                s.insert(n.var);
                                cur = n;
                            }
                            None => break,
                        }
                    }
                }
            }
        }
        s
    }

    pub(super) fn is_system(&self, d: &cast::DeclInfo) -> bool {
        d.loc == usize::MAX || self.sm.origin(self.sm.line_of(d.loc)).flags.contains('3')
    }

    /// Implicit data attributes of compute construct `i`: explicit maps for what OpenMP's
    /// defaults would get wrong, and default(none) errors.
    pub(super) fn implicit_clauses(&mut self, i: usize, kernels: bool, out: &mut Vec<OmpClause>) {
        let Some(stmt) = self.prs[i].stmt else { return };
        let (listed, devptr, default) = self.listed_names(i);
        let loop_vars = self.loop_vars_in(i);
        let refs = match self.an() {
            Some(an) => an.outside_refs(stmt),
            None => return,
        };
        let mut present = Vec::new();
        let mut tofrom = Vec::new();
        let mut isdev = Vec::new();
        let mut errors = Vec::new();
        let written = self.written_in(stmt);
        let enclosing_listed = {
            // Names listed on enclosing data constructs / declares only (not on this construct).
            let mut s = BTreeSet::new();
            for k in 0..self.prs.len() {
                let dk = self.prs[k].dir.kind;
                if (dk == DirectiveKind::Data && self.encloses(k, i))
                    || (dk == DirectiveKind::Declare
                        && self.prs[k].off < self.prs[i].off
                        && self.prs[k].func.is_some()
                        && self.prs[k].func == self.prs[i].func)
                {
                    for c in &self.prs[k].dir.clauses {
                        if let ClauseKind::Data { kind, vars, .. } = &c.kind {
                            if *kind != DataKind::DevicePtr {
                                for v in vars {
                                    s.insert(v.name.clone());
                                }
                            }
                        }
                    }
                }
            }
            s
        };
        let own_listed: BTreeSet<String> = {
            let mut s = BTreeSet::new();
            for c in &self.prs[i].dir.clauses {
                match &c.kind {
                    ClauseKind::Data { vars, .. }
                    | ClauseKind::Private(vars)
                    | ClauseKind::FirstPrivate(vars)
                    | ClauseKind::Reduction { vars, .. } => {
                        for v in vars {
                            s.insert(v.name.clone());
                        }
                    }
                    _ => {}
                }
            }
            s
        };
        let Some(ast) = &self.ast else { return };
        // Variables indexed as arrays in the region (`p[i]`).
        let mut subscripted = BTreeSet::new();
        ast.walk(stmt, &mut |k| {
            let n = ast.node(k);
            if n.kind == NK::Subscript {
                if let Some(&b) = n.children.first() {
                    let b = ast.strip(b);
                    if ast.node(b).kind == NK::DeclRef {
                        if let Some(dd) = ast.node(b).decl {
                            subscripted.insert(dd);
                        }
                    }
                }
            }
        });
        for &(d, first) in &refs {
            let di = ast.decl(d);
            if loop_vars.contains(&d) || self.is_system(di) {
                continue;
            }
            let name = di.name.clone();
            if devptr.contains(&name) && !own_listed.contains(&name) {
                isdev.push(name.clone());
                continue;
            }
            if listed.contains(&name) {
                if enclosing_listed.contains(&name)
                    && !own_listed.contains(&name)
                    && di.ty.is_scalar()
                {
                    // A scalar present on the device: use that copy, not a firstprivate one (a
                    // global too: OpenMP makes a global scalar firstprivate like any other; a
                    // declare target one is always present, so the map moves nothing).
                    tofrom.push(name);
                }
                continue;
            }
            match default {
                Some(DefaultKind::None) => {
                    if di.kind == DeclKind::Var && di.is_global && di.is_const {
                        continue;
                    }
                    errors.push((first, name));
                    continue;
                }
                Some(DefaultKind::Present)
                    if !di.ty.is_scalar() && !matches!(di.ty, TypeClass::Pointer { .. }) =>
                {
                    present.push(name);
                    continue;
                }
                // A pointer used as an array: the data it points to must be present.
                Some(DefaultKind::Present)
                    if matches!(di.ty, TypeClass::Pointer { .. }) && subscripted.contains(&d) =>
                {
                    present.push(format!("{name}[0:0]"));
                    continue;
                }
                _ => {}
            }
            // kernels: a scalar the region writes is copy (globals too; declare target ones are
            // present, so the map moves nothing).
            if kernels && di.ty.is_scalar() && written.contains(&d) {
                tofrom.push(name);
            }
        }
        for (first, name) in errors {
            let off = ast.node(first).start;
            let kind = self.prs[i].dir.kind.spelling();
            let l = self.sm.loc(off);
            self.diags.push(Diagnostic {
                loc: Some(l),
                message: format!(
                    "variable '{name}' is used in the '#pragma acc {kind}' region with default(none) but appears in no data clause"
                ),
            });
        }
        // Pointers used as arrays with no data clause: mapped from the loop bounds at run time.
        let unlisted = if matches!(default, Some(DefaultKind::None | DefaultKind::Present)) {
            Vec::new()
        } else {
            let listed_all: BTreeSet<String> = listed.union(&enclosing_listed).cloned().collect();
            super::implicit_sections::unlisted_pointers(
                self,
                &refs,
                &subscripted,
                &written,
                &listed_all,
            )
        };
        self.pending_sections.insert(i, unlisted);
        // A scalar a parallel or serial construct assigns is firstprivate there: lost after it.
        if !kernels && default != Some(DefaultKind::None) {
            self.warn_lost_assignments(i, stmt, &refs, &listed);
        }
        if !present.is_empty() {
            out.push(OmpClause::Map(
                OmpMap::new(MapType::Alloc, present).present(),
            ));
        }
        if !tofrom.is_empty() {
            out.push(OmpClause::Map(OmpMap::new(MapType::ToFrom, tofrom)));
        }
        if !isdev.is_empty() {
            out.push(OmpClause::IsDevicePtr(isdev));
        }
    }

    /// Whether `name` is private (or firstprivate) on construct `i` or on a loop of its region
    /// that encloses loop `k`: a reduction of loop `k` on it then combines into that private
    /// copy (the per-gang accumulator of NPB CG: `loop gang private(d)` over `loop vector
    /// reduction(+:d)`), not into the variable outside the region. Private by a clause, or
    /// made private to each iteration of that loop because every iteration assigns it first
    /// (`d = 0.0;` before the inner loop, as NPB-ACC's CG writes it: `Analyzer::auto_private`).
    pub(super) fn private_above(&self, i: usize, k: usize, name: &str) -> bool {
        let private_in = |m: usize| {
            self.prs[m].dir.clauses.iter().any(|c| match &c.kind {
                ClauseKind::Private(v) | ClauseKind::FirstPrivate(v) => {
                    v.iter().any(|x| x.name == name)
                }
                _ => false,
            }) || (m != k && self.assigned_first_in(m, name))
        };
        private_in(i)
            || (0..self.prs.len()).any(|m| {
                self.prs[m].dir.kind.is_loop()
                    && self.encloses(m, k)
                    && self.encloses(i, m)
                    && private_in(m)
            })
    }

    /// Whether the loop of construct `m` (a loop, or a combined `parallel loop`) makes `name`
    /// private to each of its iterations (`Analyzer::auto_private`: every iteration assigns it
    /// before using it).
    fn assigned_first_in(&self, m: usize, name: &str) -> bool {
        let (Some(an), Some(stmt)) = (self.an(), self.prs[m].stmt) else {
            return false;
        };
        let Some(fl) = an.for_loop(stmt) else {
            return false;
        };
        let start = an.ast.node(stmt).start;
        an.auto_private(&fl).into_iter().any(|d| {
            let di = an.ast.decl(d);
            di.name == name && (di.loc == usize::MAX || di.loc < start)
        })
    }

    /// Reduction clauses of loops inside region `i` on variables declared outside the region.
    pub(super) fn hoist_reductions(
        &self,
        i: usize,
        teams: bool,
        reds: &mut ReductionSet,
    ) -> Option<Vec<OmpClause>> {
        let mut out = Vec::new();
        let stmt = self.prs[i].stmt?;
        let ast = self.ast.as_ref()?;
        let (s, e) = (ast.node(stmt).start, ast.node(stmt).end);
        let own: BTreeSet<String> = self.prs[i]
            .dir
            .clauses
            .iter()
            .flat_map(|c| match &c.kind {
                ClauseKind::Reduction { vars, .. } | ClauseKind::Data { vars, .. } => {
                    vars.iter().map(|v| v.name.clone()).collect()
                }
                _ => Vec::new(),
            })
            .collect();
        let mut done = BTreeSet::new();
        for k in 0..self.prs.len() {
            if self.prs[k].dir.kind != DirectiveKind::Loop || !self.encloses(i, k) {
                continue;
            }
            let plan = self.plans.get(&k).cloned().unwrap_or_default();
            for c in &self.prs[k].dir.clauses {
                if let ClauseKind::Reduction { op, vars } = &c.kind {
                    for v in vars {
                        if own.contains(&v.name) || !done.insert(v.name.clone()) {
                            continue;
                        }
                        let outside = match self.resolve(k, &v.name) {
                            Some(d) => {
                                let di = ast.decl(d);
                                !(di.loc != usize::MAX && di.loc >= s && di.loc < e)
                            }
                            None => true,
                        };
                        if !outside || self.private_above(i, k, &v.name) {
                            continue;
                        }
                        let gang_above = plan.gang
                            || (0..self.prs.len()).any(|m| {
                                self.prs[m].dir.kind.is_loop()
                                    && self.encloses(m, k)
                                    && (m == i || self.encloses(i, m))
                                    && self.plans.get(&m).is_some_and(|p| p.gang)
                            });
                        if teams && gang_above {
                            let r = reds.add_clause(*op, std::slice::from_ref(v));
                            out.push(OmpClause::Reduction(r));
                        } else {
                            out.push(OmpClause::Map(OmpMap::new(
                                MapType::ToFrom,
                                vec![v.render()],
                            )));
                        }
                    }
                }
            }
        }
        Some(out)
    }
}

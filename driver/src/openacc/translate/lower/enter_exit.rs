//! `enter data`, `exit data` and `update` → `target enter/exit data` and `target update`
//! (or the runtime's `acc_update_*` for `static` declare-target globals).

use crate::openacc::ast::*;
use crate::openacc::translate::jagged;
use crate::openacc::translate::*;

use super::declare::declare_makes_device_global;

impl Tr<'_> {
    pub(in crate::openacc::translate) fn enter_exit(&mut self, i: usize) {
        // Sections through arrays of pointers: their own enter/exit data lines (jagged.rs), with
        // the directive's if and queue, after its other maps.
        let finalize = self.prs[i].dir.has(ClauseName::Finalize);
        let jag_tail = {
            let d = self.prs[i].dir.clone();
            let mut t: Vec<OmpClause> = self.if_clause(&d, false).into_iter().collect();
            self.async_clauses(&d, &mut t, &mut Vec::new(), true);
            t
        };
        let jag = self.standalone_jagged(i, finalize, &jag_tail);
        let d = self.prs[i].dir.clone();
        let mut cl = Vec::new();
        let mut before = Vec::new();
        for c in &d.clauses {
            if let ClauseKind::Data { kind, vars, .. } = &c.kind {
                let (map_type, l) = match kind {
                    DataKind::CopyIn => (MapType::To, items(vars)),
                    DataKind::Create => (MapType::Alloc, items(vars)),
                    DataKind::Attach => (MapType::Alloc, attach_list(vars)),
                    DataKind::CopyOut => (MapType::From, items(vars)),
                    DataKind::Delete if finalize => (MapType::Delete, items(vars)),
                    DataKind::Delete => (MapType::Release, items(vars)),
                    DataKind::Detach => (MapType::Release, attach_list(vars)),
                    _ => continue,
                };
                cl.push(OmpClause::Map(OmpMap::new(map_type, l)));
            }
        }
        // copyout + finalize: OpenMP has no `from` that also deletes. The runtime first lowers
        // the dynamic count to one, and the exit data's `from` takes it to zero: copied out and
        // deleted unless a data region still holds it. With async/wait, the queues' earlier work
        // (which may count references) is waited for first.
        let mut finalize_calls = Vec::new();
        if finalize && d.kind == DirectiveKind::ExitData {
            for c in &d.clauses {
                if let ClauseKind::Data {
                    kind: DataKind::CopyOut,
                    vars,
                    ..
                } = &c.kind
                {
                    for v in vars {
                        let (addr, bytes) = section_bytes(v);
                        finalize_calls
                            .push(format!("__ptxrt_acc_finalize((const void *)({addr}), (unsigned long)({bytes}));"));
                    }
                }
            }
        }
        if let Some(ic) = self.if_clause(&d, false) {
            cl.push(ic);
        }
        // enter data create(zero: …) async(q): the zeroing kernels need the data mapped, so the
        // enter data runs synchronously, after the queue's earlier work.
        let zero_async = d.kind == DirectiveKind::EnterData
            && d.clauses.iter().any(|c| {
                matches!(
                    &c.kind,
                    ClauseKind::Data {
                        modifier: Some(DataModifier::Zero),
                        ..
                    }
                )
            });
        match d.find(ClauseName::Async).map(|c| &c.kind) {
            Some(ClauseKind::Async(q)) if zero_async => {
                let q = self.queue(q.as_ref());
                self.async_clauses(&d, &mut cl, &mut before, false);
                let dep = OmpClause::Depend(DependType::InOut, q);
                before.push(OmpDirective::new(OmpConstruct::Taskwait, vec![dep]).line());
            }
            _ => self.async_clauses(&d, &mut cl, &mut before, true),
        }
        let construct = if d.kind == DirectiveKind::EnterData {
            OmpConstruct::TargetEnterData
        } else {
            OmpConstruct::TargetExitData
        };
        if !finalize_calls.is_empty() {
            self.need_finalize_fn = true;
            let waits = d.has(ClauseName::Async) || d.has(ClauseName::Wait);
            let mut lines = vec!["{".to_string()];
            lines.extend(before);
            // `before` has a bare taskwait for a `wait` without queues (async_clauses).
            if waits && !waits_for_all(&d) {
                lines.push(OmpDirective::new(OmpConstruct::Taskwait, vec![]).line());
            }
            let calls = finalize_calls.join(" ");
            let cond = d.clauses.iter().find_map(|c| match &c.kind {
                ClauseKind::If(e) => Some(e.text.trim().to_string()),
                _ => None,
            });
            match cond {
                Some(c) => {
                    // The condition is evaluated once.
                    self.tmp += 1;
                    let flag = format!("__ptxcc_fc{}", self.tmp);
                    lines.insert(1, format!("int {flag} = ({c});"));
                    lines.push(format!("if ({flag}) {{ {calls} }}"));
                    for x in cl.iter_mut() {
                        if let OmpClause::If { cond, .. } = x {
                            *cond = flag.clone();
                        }
                    }
                }
                None => lines.push(calls),
            }
            let mut jag = jag;
            if d.kind == DirectiveKind::ExitData {
                lines.append(&mut jag);
            }
            if cl.iter().any(OmpClause::is_map) {
                lines.push(OmpDirective::new(construct, cl).line());
            }
            lines.extend(jag);
            lines.push("}".into());
            self.replace_pragma(i, lines);
            self.report_data(i);
            return;
        }
        let mut lines = before;
        let zp = if d.kind == DirectiveKind::EnterData {
            self.zero_plan(i)
        } else {
            None
        };
        if let Some(z) = &zp {
            lines.extend(z.pre.iter().cloned());
        }
        // exit data: the rows leave before the directive's other items (a struct holding the
        // pointer array may be among them); enter data: after them.
        let exiting = d.kind == DirectiveKind::ExitData;
        let mut jag = jag;
        if exiting {
            lines.append(&mut jag);
        }
        if cl.iter().any(OmpClause::is_map) {
            lines.push(OmpDirective::new(construct, cl).line());
        }
        if let Some(z) = zp {
            lines.extend(z.zero);
            lines.push(z.close);
        }
        lines.extend(jag);
        self.replace_pragma(i, lines);
        self.report_data(i);
    }

    pub(in crate::openacc::translate) fn update(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let mut cl = Vec::new();
        let mut before = Vec::new();
        // Runtime calls for the `static` globals of a file-scope `declare` (see below).
        let mut calls = Vec::new();
        // Sections through arrays of pointers: one update per row (jagged.rs).
        let mut jag: Vec<(Motion, VarRef)> = Vec::new();
        // Data that is not present is an error unless if_present (OpenACC 3.3, 2.14.4), where
        // OpenMP's target update would skip it silently: the motion's `present` modifier.
        let if_present = d.has(ClauseName::IfPresent);
        // The motions in clause order; OpenMP allows one list item per variable in a `target
        // update` (`update self(u[1:1], u[n:1])`, a halo exchange, is two sections of `u`).
        let mut motions: Vec<(Motion, VarRef)> = Vec::new();
        for c in &d.clauses {
            let (vars, motion, routine) = match &c.kind {
                ClauseKind::UpdateSelf(v) => (v, Motion::From, "acc_update_self"),
                ClauseKind::UpdateDevice(v) => (v, Motion::To, "acc_update_device"),
                _ => continue,
            };
            let (stat, rest): (Vec<VarRef>, Vec<VarRef>) = vars
                .iter()
                .cloned()
                .partition(|v| self.is_static_declared(i, v));
            let (rows, rest): (Vec<VarRef>, Vec<VarRef>) = rest
                .into_iter()
                .partition(|v| jagged::is_jagged(v, &self.levels_of(i, v)));
            jag.extend(rows.into_iter().map(|v| (motion, v)));
            for v in &stat {
                let (addr, bytes) = section_bytes(v);
                calls.push(format!("{routine}({addr}, {bytes});"));
            }
            motions.extend(rest.into_iter().map(|v| (motion, v)));
        }
        let cond = self.if_clause(&d, false);
        if let Some(ic) = &cond {
            cl.push(ic.clone());
        }
        self.async_clauses(&d, &mut cl, &mut before, true);
        let mut lines = before;
        if !calls.is_empty() {
            // clang refuses `target update` of a `declare target` variable with internal linkage
            // (its device copy has no name the host knows); ptxcc registers those with the
            // runtime (device extraction), so the acc_update_* routines move them. They are
            // synchronous: an async(q) update first waits for q's earlier work.
            self.need_update_fn = !self.has_openacc_h;
            if let Some(c) = d.find(ClauseName::Async) {
                if let ClauseKind::Async(q) = &c.kind {
                    let slot = self.queue(q.as_ref());
                    let dep = OmpClause::Depend(DependType::InOut, slot);
                    lines.push(OmpDirective::new(OmpConstruct::Taskwait, vec![dep]).line());
                }
            }
            // The OpenMP if clause (`if(c)`) is the C statement's condition too.
            let stmt = cond
                .as_ref()
                .map_or("if (1)".to_string(), |c| c.to_string());
            lines.push(format!("{stmt} {{ {} }}", calls.join(" ")));
        }
        // The if and queue clauses, for every update line.
        for round in motion_rounds(motions) {
            let mut m: Vec<OmpClause> = Vec::new();
            for motion in [Motion::From, Motion::To] {
                let vars: Vec<VarRef> = round
                    .iter()
                    .filter(|(mo, _)| *mo == motion)
                    .map(|(_, v)| v.clone())
                    .collect();
                if !vars.is_empty() {
                    m.push(OmpClause::Motion {
                        motion,
                        present: !if_present,
                        items: items(&vars),
                    });
                }
            }
            m.extend(cl.iter().cloned());
            lines.push(OmpDirective::new(OmpConstruct::TargetUpdate, m).line());
        }
        for (motion, v) in jag {
            let levels = self.levels_of(i, &v);
            match jagged::update(&v, &levels, motion, !if_present, &cl, &mut self.tmp) {
                Ok(l) => lines.extend(l),
                Err(e) => self.error(i, v.span, e),
            }
        }
        self.replace_pragma(i, lines);
        self.report_data(i);
    }

    /// Whether `v` in pragma `i` names a `static` variable (internal linkage) that a file-scope
    /// `declare` puts on the device (`declare target` in OpenMP terms).
    pub(in crate::openacc::translate) fn is_static_declared(&self, i: usize, v: &VarRef) -> bool {
        let Some(ast) = &self.ast else { return false };
        let Some(id) = self.resolve(i, &v.name) else {
            return false;
        };
        if !ast.decl(id).is_internal {
            return false;
        }
        self.prs.iter().enumerate().any(|(k, p)| {
            p.dir.kind == DirectiveKind::Declare
                && p.func.is_none()
                && p.dir.clauses.iter().any(|c| match &c.kind {
                    ClauseKind::Data { kind, vars, .. } => {
                        declare_makes_device_global(*kind)
                            && vars
                                .iter()
                                .any(|x| x.name == v.name && self.resolve(k, &x.name) == Some(id))
                    }
                    _ => false,
                })
        })
    }
}

/// The motions of one `update` cut into rounds for OpenMP's `target update`, which takes one list
/// item per variable: round r holds the r-th item of each variable, in clause order. Updates of
/// one directive are unordered in OpenACC, so the order of the rounds is free.
fn motion_rounds(motions: Vec<(Motion, VarRef)>) -> Vec<Vec<(Motion, VarRef)>> {
    let mut rounds: Vec<Vec<(Motion, VarRef)>> = Vec::new();
    for (motion, v) in motions {
        match rounds
            .iter_mut()
            .find(|r| r.iter().all(|(_, x)| x.name != v.name))
        {
            Some(r) => r.push((motion, v)),
            None => rounds.push(vec![(motion, v)]),
        }
    }
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(name: &str, text: &str) -> VarRef {
        VarRef {
            name: name.into(),
            path: vec![Access::Subscript(Subscript::Section {
                lower: Some(Expr {
                    text: text.into(),
                    span: Span::default(),
                }),
                length: None,
            })],
            span: Span::default(),
        }
    }

    #[test]
    fn each_round_names_a_variable_once() {
        let m = vec![
            (Motion::From, var("u", "1")),
            (Motion::From, var("u", "n")),
            (Motion::From, var("w", "0")),
            (Motion::To, var("u", "2")),
        ];
        let rounds = motion_rounds(m);
        let names: Vec<Vec<(Motion, String)>> = rounds
            .iter()
            .map(|r| r.iter().map(|(mo, v)| (*mo, v.render())).collect())
            .collect();
        assert_eq!(names.len(), 3);
        assert_eq!(
            names[0],
            vec![
                (Motion::From, "u[1:]".into()),
                (Motion::From, "w[0:]".into())
            ]
        );
        assert_eq!(names[1], vec![(Motion::From, "u[n:]".into())]);
        assert_eq!(names[2], vec![(Motion::To, "u[2:]".into())]);
    }
}

//! `data` → `target data` (hold counts, async entry and exit), `host_data`, and the zeroing
//! of `create(zero: …)` data that a construct's clauses create.

use crate::openacc::ast::*;
use crate::openacc::cast::{TypeClass, NK};
use crate::openacc::InfoKind;

use crate::openacc::translate::*;

#[derive(Default)]
pub(in crate::openacc::translate) struct ZeroPlan {
    /// Before the construct: one `{ int flag = !present;` per variable.
    pub(in crate::openacc::translate) pre: Vec<String>,
    /// Zeroing of the absent ones, where the data is mapped.
    pub(in crate::openacc::translate) zero: Vec<String>,
    /// Before a compute construct: enter data + zeroing of the absent ones.
    pub(in crate::openacc::translate) enter_zero: Vec<String>,
    /// After a compute construct: the matching exit data.
    pub(in crate::openacc::translate) exit: Vec<String>,
    /// Closes the blocks `pre` opened.
    pub(in crate::openacc::translate) close: String,
}

impl Tr<'_> {
    pub(in crate::openacc::translate) fn data(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let mut cl = Vec::new();
        let mut before = Vec::new();
        self.data_maps(i, &d, &mut cl, false);
        if let Some(ic) = self.if_clause(&d, false) {
            cl.push(ic);
        }
        self.async_clauses(&d, &mut Vec::new(), &mut before, false);
        let has_map = cl.iter().any(OmpClause::is_map);
        // async(q): OpenMP's target data has no nowait. Its entry comes after the work already on
        // queue q and its exit after the region's own work on q (a taskwait on q's slot at the end
        // of the body): the data moves in queue order, and the host waits at both ends.
        let async_wait = match d.find(ClauseName::Async).map(|c| &c.kind) {
            Some(ClauseKind::Async(q)) if has_map && self.prs[i].stmt.is_some() => {
                let q = self.queue(q.as_ref());
                Some(
                    OmpDirective::new(
                        OmpConstruct::Taskwait,
                        vec![OmpClause::Depend(DependType::InOut, q)],
                    )
                    .line(),
                )
            }
            _ => None,
        };
        let mut lines = before;
        if let Some(w) = &async_wait {
            lines.push(w.clone());
            let off = self.prs[i].next_code;
            self.note(
                off,
                InfoKind::Data,
                "data async: entry after the queue's earlier work, exit after the region's work on the queue (the host waits at both)",
            );
        }
        let zp = if self.prs[i].stmt.is_some() {
            self.zero_plan(i)
        } else {
            None
        };
        if let Some(z) = &zp {
            lines.extend(z.pre.iter().cloned());
        }
        if has_map {
            lines.push(OmpDirective::new(OmpConstruct::TargetData, cl).line());
        } else {
            lines.push("/* acc data: no data to map */".into());
        }
        self.replace_pragma(i, lines);
        self.report_data(i);
        if let Some(w) = async_wait {
            self.at_end_of_body(i, &[w]);
        } else if has_map && self.prs[i].stmt.is_some() && self.async_inside(i) {
            // Async work inside the region (a pipeline of 'update async' and 'parallel async')
            // may not have started when the body ends: the data it uses must stay until it is
            // done, as OpenACC compilers make it; OpenMP's target data would unmap it at once.
            self.at_end_of_body(
                i,
                &[OmpDirective::new(OmpConstruct::Taskwait, vec![]).line()],
            );
            let off = self.prs[i].next_code;
            self.note(
                off,
                InfoKind::Data,
                "data: waits at its end for the async work inside it",
            );
        }
        if let Some(z) = zp {
            self.zero_in_block(i, &z.zero);
            let e = self.prs[i].stmt_end;
            self.insert(e, &z.close);
        }
    }

    /// Whether a directive with an `async` clause is inside construct `i`.
    pub(in crate::openacc::translate) fn async_inside(&self, i: usize) -> bool {
        (0..self.prs.len()).any(|k| self.encloses(i, k) && self.prs[k].dir.has(ClauseName::Async))
    }

    /// `create(zero: …)` / `copyout(zero: …)`: a device copy the clause creates starts as zeros
    /// (data already present is left alone). Each variable gets a flag, set before the construct,
    /// telling whether it was absent; the lines open a block per flag that `close` ends.
    pub(in crate::openacc::translate) fn zero_plan(&mut self, i: usize) -> Option<ZeroPlan> {
        let d = self.prs[i].dir.clone();
        let zero: Vec<(DataKind, VarRef)> = d
            .clauses
            .iter()
            .flat_map(|c| match &c.kind {
                ClauseKind::Data {
                    kind,
                    modifier: Some(DataModifier::Zero),
                    vars,
                } => vars.iter().map(|v| (*kind, v.clone())).collect(),
                _ => Vec::new(),
            })
            .collect();
        if zero.is_empty() {
            return None;
        }
        // Variables the construct also copies out (`create(zero: x) copyout(x)`): the exit that
        // ends the zeroed copy must copy it back, since the structured copyout only counts a
        // reference on data that is already present.
        let object = |v: &VarRef| {
            let members = v.path.iter().filter(|a| matches!(a, Access::Member { .. }));
            (v.name.clone(), members.cloned().collect::<Vec<_>>())
        };
        let copied_out: Vec<(String, Vec<Access>)> = d
            .clauses
            .iter()
            .flat_map(|c| match &c.kind {
                ClauseKind::Data {
                    kind: DataKind::CopyOut | DataKind::Copy,
                    vars,
                    ..
                } => vars.iter().map(object).collect(),
                _ => Vec::new(),
            })
            .collect();
        self.need_omp_api = true;
        let mut plan = ZeroPlan::default();
        for (kind, v) in zero {
            self.tmp += 1;
            let flag = format!("__ptxcc_zf{}", self.tmp);
            let (addr, _) = section_bytes(&v);
            plan.pre.push(format!(
                "{{ int {flag} = !omp_target_is_present((const void *)({addr}), omp_get_default_device());"
            ));
            let zl = self.zero_lines(std::slice::from_ref(&v));
            plan.zero.push(format!("if ({flag}) {{"));
            plan.zero.extend(zl.iter().cloned());
            plan.zero.push("}".into());
            plan.enter_zero.push(format!("if ({flag}) {{"));
            let enter = OmpMap::new(MapType::Alloc, vec![v.render()]);
            plan.enter_zero.push(
                OmpDirective::new(OmpConstruct::TargetEnterData, vec![OmpClause::Map(enter)])
                    .line(),
            );
            plan.enter_zero.extend(zl);
            plan.enter_zero.push("}".into());
            let how = if kind == DataKind::CopyOut || copied_out.contains(&object(&v)) {
                MapType::From
            } else {
                MapType::Release
            };
            plan.exit.push(format!("if ({flag}) {{"));
            let exit = OmpMap::new(how, vec![v.render()]);
            plan.exit.push(
                OmpDirective::new(OmpConstruct::TargetExitData, vec![OmpClause::Map(exit)]).line(),
            );
            plan.exit.push("}".into());
            plan.close.push('}');
        }
        Some(plan)
    }

    /// Zeroes at the start of structured construct `i`'s block (the data is mapped there).
    pub(in crate::openacc::translate) fn zero_in_block(&mut self, i: usize, lines: &[String]) {
        if let Some(stmt) = self.prs[i].stmt {
            let is_compound = self
                .ast
                .as_ref()
                .is_some_and(|a| a.node(stmt).kind == NK::Compound);
            let s = self.ast.as_ref().map(|a| a.node(stmt).start).unwrap_or(0);
            let e = self.prs[i].stmt_end;
            if is_compound {
                self.insert_lines(s + 1, "", lines);
            } else {
                // The lines go before the statement, inside the braces that make it a block.
                self.insert_lines(s, "{", lines);
                self.insert(e, "}");
            }
        }
    }

    /// Lines at the end of structured construct `i`'s body, inside the construct: before the
    /// closing brace of a block, else after the statement, which becomes a block.
    pub(in crate::openacc::translate) fn at_end_of_body(&mut self, i: usize, lines: &[String]) {
        let Some(stmt) = self.prs[i].stmt else { return };
        let Some((kind, s, e)) = self
            .ast
            .as_ref()
            .map(|a| (a.node(stmt).kind, a.node(stmt).start, a.node(stmt).end))
        else {
            return;
        };
        if kind == NK::Compound && e > s {
            self.insert_lines(e - 1, "", lines);
        } else {
            let e = self.prs[i].stmt_end;
            self.insert(s, "{");
            self.insert_lines(e, "", lines);
            self.insert(e, "}");
        }
    }

    pub(in crate::openacc::translate) fn zero_lines(&mut self, vars: &[VarRef]) -> Vec<String> {
        let mut lines = Vec::new();
        for v in vars {
            self.tmp += 1;
            let (addr, bytes) = section_bytes(v);
            let p = format!("__ptxcc_zp{}", self.tmp);
            let n = format!("__ptxcc_zn{}", self.tmp);
            lines.push(format!(
                "{{ unsigned char *{p} = (unsigned char *)({addr}); unsigned long {n} = (unsigned long)({bytes});"
            ));
            let map = OmpMap::new(MapType::Alloc, vec![format!("{p}[0:{n}]")]).present();
            lines.push(
                OmpDirective::new(
                    Compute::TARGET_TEAMS.with_loop(Compute::DISTRIBUTE_PARALLEL_FOR),
                    vec![OmpClause::Map(map)],
                )
                .line(),
            );
            lines.push(format!(
                "for (unsigned long __ptxcc_k = 0; __ptxcc_k < {n}; ++__ptxcc_k) {p}[__ptxcc_k] = 0; }}"
            ));
        }
        lines
    }

    pub(in crate::openacc::translate) fn host_data(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let mut ptrs = Vec::new();
        let mut addrs = Vec::new();
        for c in &d.clauses {
            if let ClauseKind::UseDevice(v) = &c.kind {
                for x in v {
                    let is_array = self
                        .resolve(i, &x.name)
                        .and_then(|dd| self.ast.as_ref().map(|a| a.decl(dd).ty))
                        .is_some_and(|t| {
                            matches!(t, TypeClass::Array { .. } | TypeClass::IncompleteArray)
                        });
                    if is_array || !x.path.is_empty() {
                        addrs.push(x.render());
                    } else {
                        ptrs.push(x.render());
                    }
                }
            }
        }
        let mut cl = Vec::new();
        if !ptrs.is_empty() {
            cl.push(OmpClause::UseDevicePtr(ptrs));
        }
        if !addrs.is_empty() {
            cl.push(OmpClause::UseDeviceAddr(addrs));
        }
        if let Some(ic) = self.if_clause(&d, false) {
            cl.push(ic);
        }
        self.replace_pragma(
            i,
            vec![OmpDirective::new(OmpConstruct::TargetData, cl).line()],
        );
    }
}

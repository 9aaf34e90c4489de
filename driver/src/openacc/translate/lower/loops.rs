//! `loop` inside a compute region (`distribute`, `parallel for`, `simd`, or sequential) and
//! orphaned in a function (the gang loop of a `routine gang` function deals its iterations to
//! the teams).

use crate::openacc::ast::*;
use crate::openacc::cast::NK;
use crate::openacc::InfoKind;

use crate::openacc::translate::reductions::ReductionSet;
use crate::openacc::translate::*;

impl Tr<'_> {
    pub(in crate::openacc::translate) fn loop_(&mut self, i: usize) {
        if !self.needs_stmt(i) || !self.check_for(i) {
            return;
        }
        let region = self.enclosing_compute(i);
        if let Some(r) = region {
            if matches!(
                self.prs[r].dir.kind,
                DirectiveKind::Kernels | DirectiveKind::KernelsLoop
            ) {
                // Handled by the kernels translation.
                return;
            }
        }
        let plan = self.plans.get(&i).cloned().unwrap_or_default();
        let orig = acc_text(&self.prs[i].text);
        if let Some(&outer) = self.gang_collapsed.get(&i) {
            let line = self.line_loc(self.prs[outer].li, 0).line;
            self.replace_pragma(
                i,
                vec![format!(
                    "/* {orig}: in the collapse of the gang loop of line {line} */"
                )],
            );
            if let Some(stmt) = self.prs[i].stmt {
                let off = self
                    .ast
                    .as_ref()
                    .map(|a| a.node(stmt).start)
                    .unwrap_or(self.prs[i].next_code);
                self.note(off, InfoKind::Loop, format!("loop parallelized: gang(blockIdx.x), collapsed with the gang loop of line {line}"));
            }
            return;
        }
        if region.is_none() && self.routine_gang_loop(i) {
            return;
        }
        if plan.is_seq() {
            let why = plan.why_seq.clone().unwrap_or_default();
            self.replace_pragma(i, vec![format!("/* {orig}: sequential ({why}) */")]);
            self.report_loop(i, &plan, None);
            return;
        }
        let line = self.thread_loop_pragma(i, &plan);
        self.replace_pragma(i, vec![line]);
        self.report_loop(i, &plan, None);
    }

    /// An orphaned `loop gang` in a `routine gang` function. Every gang of the region that calls
    /// the routine runs it (gang-redundantly), and the loop's iterations are to be shared by
    /// those gangs; run sequentially, each gang would run them all (a wrong answer as soon as
    /// the body is not idempotent). OpenMP has no orphaned `distribute`, so the loop deals its
    /// iterations to the teams itself: it counts them, and team t runs those whose number is t
    /// modulo the number of teams (a call from the host or from one gang runs them all).
    /// Returns false when the loop is not such a loop.
    pub(in crate::openacc::translate) fn routine_gang_loop(&mut self, i: usize) -> bool {
        if !self.prs[i].dir.has(ClauseName::Gang) {
            return false;
        }
        let Some(top) = self.prs[i].func else {
            return false;
        };
        if self.routine_level(top) != Some(ClauseName::Gang) {
            return false;
        }
        // An inner gang loop of the routine (an error of its own) stays as it is.
        if (0..self.prs.len())
            .any(|k| k != i && self.prs[k].dir.has(ClauseName::Gang) && self.encloses(k, i))
        {
            return false;
        }
        if let Some(c) = self.prs[i].dir.find(ClauseName::Reduction) {
            let span = c.span;
            self.error(
                i,
                span,
                "ptxcc does not support a reduction on the gang loop of a 'routine gang' function",
            );
            return true;
        }
        let (Some(stmt), Some(ast)) = (self.prs[i].stmt, self.ast.as_ref()) else {
            return false;
        };
        let Some(&body) = ast.node(stmt).children.last() else {
            return false;
        };
        let (body_kind, body_start) = (ast.node(body).kind, ast.node(body).start);
        let end = self.prs[i].stmt_end;
        self.tmp += 1;
        let k = format!("__ptxcc_gang_iter{}", self.tmp);
        self.need_team_fns = true;
        let orig = acc_text(&self.prs[i].text);
        self.replace_pragma(
            i,
            vec![format!("{{ long {k} = 0; /* {orig}: iterations dealt to the gangs that call the routine */")],
        );
        let skip = format!(" if ({k}++ % omp_get_num_teams() != omp_get_team_num()) continue;");
        if body_kind == NK::Compound {
            self.insert(body_start + 1, &skip);
        } else {
            self.insert(body_start, &format!("{{{skip} "));
            self.insert(end, "}");
        }
        self.insert(end, "}");
        let off = self.prs[i].next_code;
        self.note(off, InfoKind::Loop, "loop parallelized: gang (iterations dealt cyclically to the gangs that call the routine)");
        true
    }

    /// `#pragma omp parallel for …` for loop `i` on the block's threads, or on the lanes of its
    /// worker's warp (`num_threads` = the vector length).
    pub(in crate::openacc::translate) fn thread_loop_pragma(
        &mut self,
        i: usize,
        plan: &Plan,
    ) -> String {
        let mut cl = Vec::new();
        if plan.lanes {
            cl.push(OmpClause::NumThreads(self.vector_lanes(i).to_string()));
        }
        self.loop_clauses(i, plan, &mut cl, false, &mut ReductionSet::default());
        OmpDirective::new(plan.omp(), cl).line()
    }
}

//! Lowering, one directive family per module: `translate_one` checks what every directive
//! needs (its statement, its loop) and `dispatch` hands it to the family's lowering.

use crate::openacc::ast::*;
use crate::openacc::parser::name_of;

use crate::openacc::translate::*;

mod compute;
mod data;
mod declare;
mod enter_exit;
mod kernels;
mod loops;
mod pointer_arrays;
mod private_sections;
mod routine;
mod runtime;

impl Tr<'_> {
    pub(in crate::openacc::translate) fn translate_one(&mut self, i: usize) {
        let k = self.prs[i].dir.kind;
        self.check_reductions(i);
        use DirectiveKind as D;
        let structured = matches!(
            k,
            D::Parallel
                | D::Serial
                | D::ParallelLoop
                | D::SerialLoop
                | D::Kernels
                | D::KernelsLoop
                | D::Data
        );
        // Sections through arrays of pointers: enter data before the construct (inserted first,
        // so they come before its own lines), exit data after it (after its own lines).
        if structured || matches!(k, D::EnterData | D::ExitData) {
            self.warn_bare_pointers(i);
        }
        let jag = if structured {
            self.structured_jagged(i)
        } else {
            None
        };
        if let Some((pre, _)) = &jag {
            let off = self.prs[i].off;
            self.insert_lines(off, "", pre);
        }
        if k == D::Loop {
            self.check_level_nesting(i);
        }
        // OpenMP's private/firstprivate take variables, not array sections: those of pointers
        // get copies allocated by their compute construct (private_sections.rs), where ptxcc
        // can; the others are errors here (clang would refuse the OpenMP text).
        let sections: Vec<(Span, &'static str, String, String)> = self.prs[i]
            .dir
            .clauses
            .iter()
            .flat_map(|c| match &c.kind {
                ClauseKind::Private(v) | ClauseKind::FirstPrivate(v) => v
                    .iter()
                    .filter_map(|x| {
                        self.private_section_problem(i, x)
                            .map(|why| (x.span, name_of(c.name), x.render(), why))
                    })
                    .collect::<Vec<_>>(),
                _ => Vec::new(),
            })
            .collect();
        for (span, clause, v, why) in sections {
            self.error(
                i,
                span,
                format!("ptxcc does not support the array section '{v}' in '{clause}': {why}"),
            );
        }
        if !matches!(k, D::Loop | D::Atomic | D::Cache | D::Routine | D::Declare) {
            if let Some(r) = self.enclosing_compute(i) {
                // OpenMP forbids these in a target region too, but clang would say so in terms of
                // the OpenMP text.
                let (what, line) = (
                    self.prs[r].dir.kind.spelling(),
                    self.line_loc(self.prs[r].li, 0).line,
                );
                let span = self.prs[i].dir.span;
                let name = k.spelling();
                self.error(
                    i,
                    span,
                    format!("'#pragma acc {name}' may not appear inside a compute construct ('#pragma acc {what}' of line {line})"),
                );
                return;
            }
        }
        self.dispatch(i, k);
        if let Some((_, post)) = jag {
            if self.prs[i].stmt.is_some() {
                let e = self.prs[i].stmt_end;
                self.insert_lines(e, "", &post);
            }
        }
    }

    pub(in crate::openacc::translate) fn dispatch(&mut self, i: usize, k: DirectiveKind) {
        use DirectiveKind as D;
        match k {
            D::Parallel | D::Serial | D::ParallelLoop | D::SerialLoop => self.compute(i),
            D::Kernels | D::KernelsLoop => self.kernels(i),
            D::Loop => self.loop_(i),
            D::Data => self.data(i),
            D::EnterData | D::ExitData => self.enter_exit(i),
            D::Update => self.update(i),
            D::HostData => self.host_data(i),
            D::Declare => self.declare(i),
            D::Routine => self.routine(i),
            D::Atomic => self.atomic(i),
            D::Wait => self.wait(i),
            D::Cache => {
                let vars = if let DirectiveArg::Cache { vars, .. } = &self.prs[i].dir.arg {
                    join(vars)
                } else {
                    String::new()
                };
                self.replace_pragma(
                    i,
                    vec![format!(
                        "/* acc cache({vars}): no-op, the data stays in device memory */"
                    )],
                );
            }
            D::Init | D::Shutdown | D::Set => self.runtime_call(i),
        }
    }
}

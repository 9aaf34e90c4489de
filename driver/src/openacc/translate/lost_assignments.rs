//! A warning for a scalar assigned in a `parallel` or `serial` construct that no clause names.
//! OpenACC 3.3 §2.6.2 makes such a scalar firstprivate there (in `kernels` it is copy): each
//! gang assigns its own copy, and the value is lost at the end of the construct. The training
//! labs' `error = fmax(error, fabs(Anew[i] - A[i]))` without `reduction(max:error)` is the
//! common case; the solver then stops after one sweep with every compiler that follows the
//! specification.
//!
//! ```text
//! #pragma acc parallel loop              t.c:9:7: warning: 'error' is assigned in the parallel
//! for (...) error = fmax(error, d);        construct but is firstprivate there (OpenACC 3.3
//!                                          2.6.2); its value is lost at the end of the construct:
//!                                          add reduction(max:error) or copy(error)
//!                                        t.c:7:3: note: 'error = fmax(error, …)' is a max
//!                                          reduction: reduction(max:error) on the construct …
//! ```
//!
//! No warning for loop variables (of any `for` in the region), variables declared inside,
//! variables a clause of the construct, of a loop inside it or of an enclosing data construct
//! or `declare` names, non-scalars, and under `default(none)` (an error there already).
use std::collections::BTreeSet;

use crate::openacc::ast::*;
use crate::openacc::cast::{self, DeclId, NodeId, NK};

use super::*;

impl Tr<'_> {
    /// Warns for each scalar of `refs` that parallel/serial construct `i` assigns directly and
    /// that `listed` does not name (see the module comment).
    pub(super) fn warn_lost_assignments(
        &mut self,
        i: usize,
        stmt: NodeId,
        refs: &[(DeclId, NodeId)],
        listed: &BTreeSet<String>,
    ) {
        let Some(an) = self.an() else { return };
        let ast = an.ast;
        // Loop variables of every `for` in the region, acc loop or not.
        let mut loop_vars = BTreeSet::new();
        ast.walk(stmt, &mut |k| {
            if ast.node(k).kind == NK::For {
                if let Some(fl) = an.for_loop(k) {
                    loop_vars.insert(fl.var);
                }
            }
        });
        // The first direct assignment of each variable: (variable, assignment, lvalue).
        let mut first: Vec<(DeclId, NodeId, NodeId)> = Vec::new();
        ast.walk(stmt, &mut |k| {
            let n = ast.node(k);
            let assigns = match n.kind {
                NK::Binary => n.op == cast::OP_ASSIGN,
                NK::CompoundAssign => true,
                NK::Unary => n.op <= cast::UOP_PREDEC,
                _ => false,
            };
            let Some(&lv) = n.children.first().filter(|_| assigns) else {
                return;
            };
            let lv = ast.strip(lv);
            let ln = ast.node(lv);
            if ln.kind != NK::DeclRef {
                return;
            }
            if let Some(d) = ln.decl {
                if !first.iter().any(|f| f.0 == d) {
                    first.push((d, k, lv));
                }
            }
        });
        let kind = match self.prs[i].dir.kind {
            DirectiveKind::Serial | DirectiveKind::SerialLoop => "serial",
            _ => "parallel",
        };
        let mut found = Vec::new();
        for (d, assign, lv) in first {
            let di = ast.decl(d);
            if !di.ty.is_scalar()
                || loop_vars.contains(&d)
                || listed.contains(&di.name)
                || !refs.iter().any(|r| r.0 == d)
                || self.is_system(di)
            {
                continue;
            }
            let op = an.reduction_of(assign, d);
            found.push((
                di.name.clone(),
                ast.node(lv).start,
                ast.node(assign).start,
                ast.node(assign).end,
                op,
            ));
        }
        for (name, at, a_start, a_end, op) in found {
            let fix = match op {
                Some(op) => format!("add reduction({}:{name}) or copy({name})", op.spelling()),
                None => format!(
                    "add copy({name}), or a reduction clause if it combines the iterations' values"
                ),
            };
            let mut message = format!(
                "'{name}' is assigned in the {kind} construct but is firstprivate there (OpenACC 3.3 2.6.2); \
                 its value is lost at the end of the construct: {fix}"
            );
            if let Some(op) = op {
                // At the pragma's `#` in the user's source (clang -E moves it to column 1).
                let li = self.prs[i].li;
                let pragma = self.sm.pragma_loc(self.text, li, 0);
                message.push_str(&format!(
                    "\n{pragma}: note: '{}' is a {} reduction of '{name}': reduction({}:{name}) on this \
                     construct (or on its loop) combines the iterations' values into '{name}' after it",
                    abbreviate(&self.text[a_start..a_end.min(self.text.len())]),
                    reduction_word(op),
                    op.spelling()
                ));
            }
            let loc = self.sm.loc(at);
            self.warnings.push(ptxcc_passes::diagnostics::Diagnostic {
                loc: Some(loc),
                message,
            });
        }
    }
}

/// `max`, `min`, `+` (sum), … as the note names the reduction.
fn reduction_word(op: ReductionOp) -> String {
    match op {
        ReductionOp::Add => "sum (+)".into(),
        ReductionOp::Mul => "product (*)".into(),
        other => other.spelling().to_string(),
    }
}

/// The assignment as the note quotes it: one line, cut after 60 characters.
fn abbreviate(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() <= 60 {
        return one;
    }
    let cut: String = one.chars().take(57).collect();
    format!("{cut}...")
}

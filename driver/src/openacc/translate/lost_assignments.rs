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
//! or `declare` names, non-scalars, and under `default(none)` (an error there already). Nor for
//! a loop temporary whose value no code can read (`value_never_read`): a local whose address is
//! not taken, which the construct's loops assign before they read it (each iteration's own, as
//! NPB CG's `tmp1 = rowstr[j]`), and which the rest of its function only assigns (`=` without
//! reading it) or uses inside loops that assign it first.
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
                || value_never_read(&an, stmt, d)
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

/// Whether the value construct `stmt` leaves in `d` (its own copy's, lost) could never be read
/// anyway, nor the value it finds there: `d` is a local whose address is not taken, and every
/// reference to it in its function is a plain `=` assigning it (not reading it) or lies in the
/// body of a `for` that assigns it before any other use in every iteration — inside `stmt`
/// too, where no such write makes the reference one the construct could read from the host.
fn value_never_read(an: &crate::openacc::analysis::Analyzer<'_>, stmt: NodeId, d: DeclId) -> bool {
    let ast = an.ast;
    if ast.decl(d).is_global {
        return false;
    }
    let (s, e) = (ast.node(stmt).start, ast.node(stmt).end);
    let Some(body) = ast
        .top
        .iter()
        .find(|t| t.is_function && t.start <= s && e <= t.end)
        .and_then(|t| t.body)
    else {
        return false;
    };
    // Plain assignments to `d` that do not read it.
    let pure_writes: Vec<NodeId> = an
        .writes(body)
        .into_iter()
        .filter(|&(_, asg)| an.assigns_without_reading(asg, d))
        .map(|(lv, _)| ast.strip(lv))
        .collect();
    // Bodies of the loops that assign `d` first in every iteration.
    let mut covered: Vec<(usize, usize)> = Vec::new();
    let mut address_taken = false;
    ast.walk(body, &mut |k| {
        let n = ast.node(k);
        if n.kind == NK::Unary && n.op == cast::UOP_ADDROF {
            if let Some(&c) = n.children.first() {
                address_taken |= ast.node(ast.strip(c)).decl == Some(d);
            }
        }
        if let Some(fl) = an.for_loop(k) {
            if an.write_first_scalars(&fl).contains(&d) {
                let b = ast.node(fl.body);
                covered.push((b.start, b.end));
            }
        }
    });
    if address_taken {
        return false;
    }
    let mut read = false;
    ast.walk(body, &mut |k| {
        let n = ast.node(k);
        if n.kind != NK::DeclRef || n.decl != Some(d) || pure_writes.contains(&k) {
            return;
        }
        read |= !covered.iter().any(|&(b, f)| b <= n.start && n.end <= f);
    });
    !read
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

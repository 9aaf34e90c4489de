//! Phase 2, regions: which statement each pragma applies to, which constructs enclose which,
//! and lookups on the tree around a pragma (the loop it governs, declarations by name,
//! what a statement writes, a function's `routine` level).
use std::collections::BTreeSet;

use crate::openacc::analysis::{Analyzer, ForLoop, Verdict};
use crate::openacc::ast::*;
use crate::openacc::cast::{self, DeclId, NodeId, NK};

use super::*;

impl Tr<'_> {
    pub(super) fn an(&self) -> Option<Analyzer<'_>> {
        self.ast.as_ref().map(|ast| Analyzer {
            ast,
            text: self.text,
        })
    }

    /// Finds the statement or declaration each pragma applies to.
    pub(super) fn associate(&mut self) {
        for i in 0..self.prs.len() {
            let mut li = self.prs[i].li + 1;
            while li < self.sm.lines.len() && self.is_skippable_line(li) {
                li += 1;
            }
            let next = if li < self.sm.lines.len() {
                let l = &self.sm.lines[li];
                let s = &self.text[l.start..l.end];
                l.start + (s.len() - s.trim_start().len())
            } else {
                self.text.len()
            };
            self.prs[i].next_code = next;
            let Some(ast) = &self.ast else { continue };
            let off = self.prs[i].off;
            self.prs[i].func = ast
                .top
                .iter()
                .position(|t| t.is_function && t.is_definition && t.start < off && off < t.end);
            self.prs[i].next_top = ast.top.iter().position(|t| t.start == next);
            if let Some(&n) = self.node_at.get(&next) {
                // Only statements inside function bodies.
                if ast.node(n).parent.is_some() {
                    self.prs[i].stmt = Some(n);
                    let an = Analyzer {
                        ast,
                        text: self.text,
                    };
                    self.prs[i].stmt_end = an.stmt_end(n);
                }
            }
        }
    }

    /// Pragmas whose directive encloses pragma `j`.
    pub(super) fn encloses(&self, i: usize, j: usize) -> bool {
        let (a, b) = (&self.prs[i], &self.prs[j]);
        i != j && a.stmt.is_some() && a.dir.kind.has_body() && b.off > a.end && b.off < a.stmt_end
    }

    pub(super) fn enclosing_compute(&self, j: usize) -> Option<usize> {
        (0..self.prs.len())
            .filter(|&i| self.prs[i].dir.kind.is_compute() && self.encloses(i, j))
            .max_by_key(|&i| self.prs[i].off)
    }

    pub(super) fn loop_of(&self, j: usize) -> Option<ForLoop> {
        let an = self.an()?;
        an.for_loop(self.prs[j].stmt?)
    }

    pub(super) fn loop_verdict(&self, j: usize) -> Option<Verdict> {
        let an = self.an()?;
        let fl = an.for_loop(self.prs[j].stmt?)?;
        Some(an.test(&fl))
    }

    pub(super) fn needs_stmt(&mut self, i: usize) -> bool {
        if self.prs[i].stmt.is_some() {
            return true;
        }
        let k = self.prs[i].dir.kind;
        let span = self.prs[i].dir.span;
        if let Some(e) = self.ast_error.clone() {
            self.error(
                i,
                span,
                format!(
                    "cannot translate '#pragma acc {}': libclang is needed and failed: {e}",
                    k.spelling()
                ),
            );
        } else {
            self.error(
                i,
                span,
                format!(
                    "'#pragma acc {}' must be followed by a statement",
                    k.spelling()
                ),
            );
        }
        false
    }

    /// Whether a `for` statement is somewhere inside `node`.
    pub(super) fn for_in(&self, node: NodeId) -> bool {
        let Some(ast) = &self.ast else { return false };
        let mut found = false;
        ast.walk(node, &mut |k| found |= ast.node(k).kind == NK::For);
        found
    }

    pub(super) fn written_in(&self, stmt: NodeId) -> BTreeSet<DeclId> {
        let mut s = BTreeSet::new();
        let Some(an) = self.an() else { return s };
        let ast = an.ast;
        ast.walk(stmt, &mut |k| {
            let n = ast.node(k);
            let lv = match n.kind {
                NK::Binary if n.op == cast::OP_ASSIGN => n.children.first().copied(),
                NK::CompoundAssign => n.children.first().copied(),
                NK::Unary if n.op <= cast::UOP_PREDEC || n.op == cast::UOP_ADDROF => {
                    n.children.first().copied()
                }
                _ => None,
            };
            if let Some(lv) = lv {
                if let Some((d, _, _)) = an.lvalue_base(lv) {
                    s.insert(d);
                }
            }
        });
        s
    }

    /// The declaration a clause's variable names, looked up around pragma `i`.
    pub(super) fn resolve(&self, i: usize, name: &str) -> Option<DeclId> {
        let ast = self.ast.as_ref()?;
        let off = self.prs[i].off;
        if let Some(stmt) = self.prs[i].stmt {
            let mut found = None;
            ast.walk(stmt, &mut |k| {
                let n = ast.node(k);
                if found.is_none() && n.kind == NK::DeclRef {
                    if let Some(d) = n.decl {
                        if ast.decl(d).name == name {
                            found = Some(d);
                        }
                    }
                }
            });
            if found.is_some() {
                return found;
            }
        }
        ast.nearest_declaration(name, off, |_| true)
    }

    /// The level (gang, worker, vector, seq) of the `routine` directive of function `top` (an
    /// index into `ast.top`), if it has one.
    pub(super) fn routine_level(&self, top: usize) -> Option<ClauseName> {
        let name = &self.ast.as_ref()?.top.get(top)?.name;
        self.prs.iter().find_map(|p| {
            if p.dir.kind != DirectiveKind::Routine {
                return None;
            }
            let applies = match &p.dir.arg {
                DirectiveArg::Routine(Some(n)) => n == name,
                _ => p.next_top == Some(top),
            };
            if !applies {
                return None;
            }
            [
                ClauseName::Gang,
                ClauseName::Worker,
                ClauseName::Vector,
                ClauseName::Seq,
            ]
            .into_iter()
            .find(|&l| p.dir.has(l))
        })
    }
}

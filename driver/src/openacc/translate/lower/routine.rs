//! `routine` (`declare target` and the function's level) and `atomic`.

use crate::openacc::analysis::Analyzer;
use crate::openacc::ast::*;
use crate::openacc::InfoKind;

use crate::openacc::translate::*;

impl Tr<'_> {
    pub(in crate::openacc::translate) fn routine(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        // nohost: ptxcc builds device code from the host version, which must therefore exist;
        // the clause only promises the host version is not called, so it is dropped.
        let dt = "";
        let level = d
            .clauses
            .iter()
            .find_map(|c| match c.name {
                ClauseName::Gang => Some("gang"),
                ClauseName::Worker => Some("worker"),
                ClauseName::Vector => Some("vector"),
                ClauseName::Seq => Some("seq"),
                _ => None,
            })
            .unwrap_or("seq");
        let off = self.prs[i].off;
        match &d.arg {
            DirectiveArg::Routine(Some(name)) => {
                if self.prs[i].func.is_some() {
                    self.replace_pragma(
                        i,
                        vec![format!("/* acc routine({name}): see its declaration */")],
                    );
                } else {
                    self.replace_pragma(
                        i,
                        vec![format!(
                            "{}{dt}",
                            OmpDirective::new(
                                OmpConstruct::DeclareTarget,
                                vec![OmpClause::To(vec![name.clone()])]
                            )
                        )],
                    );
                }
                self.note(
                    off,
                    InfoKind::Routine,
                    format!("routine {name} ({level}): compiled for the device"),
                );
            }
            _ => {
                let Some(ast) = &self.ast else {
                    let span = d.span;
                    let e = self.ast_error.clone().unwrap_or_default();
                    self.error(
                        i,
                        span,
                        format!("cannot translate '#pragma acc routine': libclang is needed and failed: {e}"),
                    );
                    return;
                };
                let Some(t) = self.prs[i].next_top.map(|k| ast.top[k].clone()) else {
                    let span = d.span;
                    self.error(
                        i,
                        span,
                        "'#pragma acc routine' must be followed by a function declaration or definition",
                    );
                    return;
                };
                if !t.is_function {
                    let span = d.span;
                    self.error(
                        i,
                        span,
                        format!(
                            "'#pragma acc routine' must be followed by a function, not '{}'",
                            t.name
                        ),
                    );
                    return;
                }
                let an = Analyzer {
                    ast,
                    text: self.text,
                };
                let end = if t.is_definition {
                    t.end
                } else {
                    an.after_semicolon(t.end)
                };
                let begin = OmpDirective::new(OmpConstruct::DeclareTarget, vec![]);
                self.replace_pragma(i, vec![format!("{begin}{dt}")]);
                let end_line = OmpDirective::new(OmpConstruct::EndDeclareTarget, vec![]).line();
                self.insert_lines(end, "", &[end_line]);
                self.note(
                    off,
                    InfoKind::Routine,
                    format!("routine {} ({level}): compiled for the device", t.name),
                );
            }
        }
    }

    pub(in crate::openacc::translate) fn atomic(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let k = match d.arg {
            DirectiveArg::Atomic(AtomicKind::Read) => Atomic::Read,
            DirectiveArg::Atomic(AtomicKind::Write) => Atomic::Write,
            DirectiveArg::Atomic(AtomicKind::Capture) => Atomic::Capture,
            _ => Atomic::Update,
        };
        if let Some(c) = d.find(ClauseName::If) {
            // Performing the operation atomically is always a correct execution.
            let _ = c;
        }
        self.replace_pragma(
            i,
            vec![OmpDirective::new(OmpConstruct::Atomic(k), vec![]).line()],
        );
    }
}

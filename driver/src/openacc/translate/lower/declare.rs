//! `declare` at file scope (`declare target`) and in a function (an enter/exit data pair).
//!
//! In a function the exit data goes where the directive's block ends and wherever the scope
//! is left early: before `return` (a returned value is computed first, while the data is still
//! on the device: `return e;` → `{ __typeof__(e) v = (e); exit data; return v; }`), and before
//! a `break`/`continue` whose loop or switch encloses the block. A `goto` out of the block (or
//! back before the directive) is an error: it would skip the exit.

use crate::openacc::analysis::Analyzer;
use crate::openacc::ast::*;
use crate::openacc::cast::{TypeClass, NK};
use crate::openacc::parser::name_of;
use crate::openacc::InfoKind;

use crate::openacc::translate::*;

impl Tr<'_> {
    pub(in crate::openacc::translate) fn declare(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        if self.prs[i].func.is_none() && self.ast.is_some() {
            // File scope: the variables live on the device for the whole program.
            let mut to = Vec::new();
            let mut link = Vec::new();
            let mut bad = Vec::new();
            let mut warned = Vec::new();
            for c in &d.clauses {
                if let ClauseKind::Data { kind, vars, .. } = &c.kind {
                    // OpenACC 3.3, 2.13: at global scope only create, copyin, deviceptr,
                    // device_resident and link (the others have no region to act at).
                    if !matches!(
                        kind,
                        DataKind::Create
                            | DataKind::CopyIn
                            | DataKind::DevicePtr
                            | DataKind::DeviceResident
                            | DataKind::Link
                    ) {
                        bad.push((c.span, format!(
                            "clause '{}' is not allowed on '#pragma acc declare' at file scope (only create, copyin, deviceptr, device_resident and link are)",
                            name_of(c.name)
                        )));
                        continue;
                    }
                    for v in vars {
                        // A global is declared whole: a section of an array is the array, but
                        // the data a pointer points to is not part of the pointer (at file scope
                        // there is no extent to allocate yet): the pointer is declared, and a
                        // warning says the data is not.
                        let ty = self
                            .resolve(i, &v.name)
                            .and_then(|id| self.ast.as_ref().map(|a| a.decl(id).ty));
                        let is_array = matches!(ty, Some(TypeClass::Array { .. }));
                        if !v.path.is_empty()
                            && (!is_array
                                || v.path.iter().any(|a| !matches!(a, Access::Subscript(_))))
                        {
                            let what = if matches!(ty, Some(TypeClass::Pointer { .. })) {
                                format!("the pointer '{}' is declared, not the data it points to: map that with 'enter data'", v.name)
                            } else {
                                format!("the whole variable '{}' is declared", v.name)
                            };
                            warned.push((
                                v.span,
                                format!(
                                    "'{}' in '#pragma acc declare' at file scope: {what}",
                                    v.render()
                                ),
                            ));
                        }
                        if *kind == DataKind::Link {
                            link.push(v.name.clone());
                        } else if declare_makes_device_global(*kind) {
                            to.push(v.name.clone());
                        }
                    }
                }
            }
            for (span, msg) in warned {
                self.warn(i, span, msg);
            }
            if !bad.is_empty() {
                for (span, msg) in bad {
                    self.error(i, span, msg);
                }
                return;
            }
            let mut lines = Vec::new();
            let off = self.prs[i].off;
            if !to.is_empty() {
                let clauses = vec![OmpClause::To(to.clone())];
                lines.push(OmpDirective::new(OmpConstruct::DeclareTarget, clauses).line());
                self.note(
                    off,
                    InfoKind::Data,
                    format!(
                        "declare: {} allocated on the device for the whole program",
                        to.join(", ")
                    ),
                );
            }
            if !link.is_empty() {
                // link: device memory only where a data clause maps the variable, which is what an
                // ordinary global gets: the compute constructs that use it get the mapped copy.
                // OpenMP's declare target link (a device pointer that device functions follow to
                // the mapped copy) is not in ptxcc: device functions may not use it (an error).
                self.check_link_uses(i, &link);
                lines.push(format!(
                    "/* acc declare link({}): mapped by the data clauses that name it */",
                    link.join(", ")
                ));
                self.note(
                    off,
                    InfoKind::Data,
                    format!(
                        "declare link: {} on the device only where a data clause maps it",
                        link.join(", ")
                    ),
                );
            }
            self.replace_pragma(i, lines);
            return;
        }
        if self.ast.is_none() {
            let span = self.prs[i].dir.span;
            let e = self.ast_error.clone().unwrap_or_default();
            self.error(
                i,
                span,
                format!(
                    "cannot translate '#pragma acc declare': libclang is needed and failed: {e}"
                ),
            );
            return;
        }
        // In a function: enter data here, exit data where the enclosing block ends and before each return.
        let mut enter = Vec::new();
        let mut exit = Vec::new();
        for c in &d.clauses {
            if let ClauseKind::Data { kind, vars, .. } = &c.kind {
                // The structured map the clause stands for, as an enter/exit data pair.
                let structured = match kind {
                    DataKind::Copy => OmpMap::new(MapType::ToFrom, items(vars)),
                    DataKind::CopyIn => OmpMap::new(MapType::To, items(vars)),
                    DataKind::CopyOut => OmpMap::new(MapType::From, items(vars)),
                    DataKind::Create | DataKind::DeviceResident => {
                        OmpMap::new(MapType::Alloc, items(vars))
                    }
                    DataKind::Present => OmpMap::new(MapType::Alloc, items(vars)).present(),
                    // link (an extern or static variable): on the device only where a data clause
                    // maps it, as at file scope; nothing to do here.
                    DataKind::Link => {
                        let names: Vec<String> = vars.iter().map(|v| v.name.clone()).collect();
                        self.check_link_uses(i, &names);
                        continue;
                    }
                    _ => continue,
                };
                if let Some((en, ex)) = structured.enter_exit() {
                    enter.push(OmpClause::Map(en));
                    exit.push(OmpClause::Map(ex));
                }
            }
        }
        if enter.is_empty() {
            let what = if d.clauses.iter().any(|c| {
                matches!(
                    c.kind,
                    ClauseKind::Data {
                        kind: DataKind::Link,
                        ..
                    }
                )
            }) {
                "/* acc declare link: mapped by the data clauses that name it */"
            } else {
                "/* acc declare deviceptr: used by the compute constructs below */"
            };
            self.replace_pragma(i, vec![what.into()]);
            return;
        }
        self.replace_pragma(
            i,
            vec![OmpDirective::new(OmpConstruct::TargetEnterData, enter).line()],
        );
        self.report_data(i);
        let exit_line = OmpDirective::new(OmpConstruct::TargetExitData, exit).line();
        let off = self.prs[i].off;
        let Some(ast) = &self.ast else { return };
        // The innermost block holding the pragma.
        let block = ast
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.kind == NK::Compound && n.start < off && off < n.end)
            .min_by_key(|(_, n)| n.end - n.start)
            .map(|(k, _)| k);
        let Some(block) = block else { return };
        let (bend, bstart) = (ast.node(block).end, ast.node(block).start);
        let mut returns = Vec::new();
        ast.walk(block, &mut |k| {
            let n = ast.node(k);
            if n.kind == NK::Return && n.start > off {
                returns.push(k);
            }
        });
        let an = Analyzer {
            ast,
            text: self.text,
        };
        // `return expr;` (in a function that returns a value): the value is computed while
        // the data is still on the device, then the exit, then the return.
        let returns_value = self.prs[i].func.is_some_and(|f| {
            let t = &ast.top[f];
            let head = &self.text[t.start..t.end];
            let head = &head[..head.find(&t.name).unwrap_or(head.len())];
            let void = head
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w == "void");
            // `void *f(…)` returns a value.
            !void || head.contains('*')
        });
        let mut valued = Vec::new();
        let ret_spans: Vec<(usize, usize)> = returns
            .iter()
            .filter(|&&r| {
                let expr = ast.node(r).children.first().copied();
                match expr {
                    // A literal reads no data: the exit can come first.
                    Some(e)
                        if returns_value
                            && !matches!(ast.node(e).kind, NK::IntLit | NK::FloatLit) =>
                    {
                        let (es, ee) = (ast.node(e).start, ast.node(e).end);
                        valued.push((ast.node(r).start, es, ee, an.stmt_end(r)));
                        false
                    }
                    _ => true,
                }
            })
            .map(|&r| (ast.node(r).start, an.stmt_end(r)))
            .collect();
        // break/continue that leave the block (their loop or switch is outside it) end the data
        // lifetime too; a goto out of it (or back before the directive) would skip the exit.
        let mut jumps = Vec::new();
        let mut bad_gotos = Vec::new();
        ast.walk(block, &mut |k| {
            let n = ast.node(k);
            if n.start <= off {
                return;
            }
            let captured = |kinds: &[NK]| {
                let mut p = n.parent;
                while let Some(q) = p {
                    if q == block {
                        return false;
                    }
                    if kinds.contains(&ast.node(q).kind) {
                        return true;
                    }
                    p = ast.node(q).parent;
                }
                false
            };
            match n.kind {
                NK::Break if !captured(&[NK::For, NK::While, NK::Do, NK::Switch]) => jumps.push(k),
                NK::Continue if !captured(&[NK::For, NK::While, NK::Do]) => jumps.push(k),
                NK::Goto => {
                    let target = goto_label(&self.text[n.start..n.end]);
                    let inside = target.is_some_and(|t| {
                        let mut found = false;
                        ast.walk(block, &mut |l| {
                            let ln = ast.node(l);
                            if ln.kind == NK::Label
                                && ln.start > off
                                && label_name(&self.text[ln.start..ln.end]) == Some(t)
                            {
                                found = true;
                            }
                        });
                        found
                    });
                    if !inside {
                        bad_gotos.push(n.start);
                    }
                }
                _ => {}
            }
        });
        let jump_spans: Vec<(usize, usize)> = jumps
            .iter()
            .map(|&r| (ast.node(r).start, an.stmt_end(r)))
            .collect();
        let line = self.line_loc(self.prs[i].li, 0).line;
        for g in bad_gotos {
            let loc = self.sm.loc(g);
            self.diags.push(ptxcc_passes::diagnostics::Diagnostic {
                loc: Some(loc),
                message: format!("this goto leaves the scope of the '#pragma acc declare' of line {line} (or jumps back before it), which would skip the end of its data lifetime; end the scope with a block of its own, or use 'data' and 'enter/exit data'"),
            });
        }
        let _ = bstart;
        for (rs, es, ee, end) in valued {
            self.tmp += 1;
            let rv = format!("__ptxcc_rv{}", self.tmp);
            let expr: String = self.text[es..ee]
                .chars()
                .map(|c| if c == '\n' { ' ' } else { c })
                .collect();
            self.insert(rs, &format!("{{ __typeof__({expr}) {rv} = ("));
            // `return` itself goes: the expression stays where it is.
            self.edit(rs, es, String::new());
            self.insert_lines(ee, ");", std::slice::from_ref(&exit_line));
            self.insert(ee, &format!("return {rv}"));
            self.insert(end, "}");
        }
        for (s, e) in ret_spans.into_iter().chain(jump_spans) {
            self.insert_lines(s, "{", std::slice::from_ref(&exit_line));
            self.insert(e, "}");
        }
        // Before the block's closing brace.
        if bend >= 1 {
            self.insert_lines(bend - 1, "", std::slice::from_ref(&exit_line));
        }
    }
}

/// A file-scope `declare` with this clause makes the variable a `declare target` global.
pub(in crate::openacc::translate) fn declare_makes_device_global(kind: DataKind) -> bool {
    !matches!(
        kind,
        DataKind::Link | DataKind::DevicePtr | DataKind::Present
    )
}

/// The label a `goto L;` statement names.
fn goto_label(text: &str) -> Option<&str> {
    let rest = text.trim_start().strip_prefix("goto")?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// The name of a labelled statement `L: …`.
fn label_name(text: &str) -> Option<&str> {
    let t = text.trim_start();
    let end = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(t.len());
    (end > 0 && t[end..].trim_start().starts_with(':')).then(|| &t[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_gotos() {
        assert_eq!(goto_label("goto done;"), Some("done"));
        assert_eq!(goto_label("goto  out_2 ;"), Some("out_2"));
        assert_eq!(goto_label("return x;"), None);
        assert_eq!(label_name("done: x = 1;"), Some("done"));
        assert_eq!(label_name("out_2 :;"), Some("out_2"));
        assert_eq!(label_name("x = 1;"), None);
    }
}

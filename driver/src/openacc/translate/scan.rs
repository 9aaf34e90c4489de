//! Phase 1, scanning: finds the `#pragma acc` lines of the preprocessed text (expanding the
//! macros `-dD` kept, blanking those `#define` lines), parses each into a [`Directive`], and
//! loads the libclang tree the later phases ask about (statement extents, declarations).
use std::collections::HashMap;

use ptxcc_passes::diagnostics::Diagnostic;

use crate::openacc::ast::*;
use crate::openacc::cast::{self};
use crate::openacc::parser::{acc_pragma_start, parse_directive};
use crate::openacc::srcmap::{expand_macros, parse_define, Macro};

use super::*;

impl Tr<'_> {
    pub(super) fn scan(&mut self) {
        let mut macros: HashMap<String, Macro> = HashMap::new();
        for li in 0..self.sm.lines.len() {
            let (s, e) = (self.sm.lines[li].start, self.sm.lines[li].end);
            let line = &self.text[s..e];
            let trimmed = line.trim_start();
            if !trimmed.starts_with('#') {
                if !self.has_openacc_h && line.contains("acc_device_nvidia") {
                    self.has_openacc_h = true;
                }
                continue;
            }
            if let Some((name, m)) = parse_define(line) {
                // Kept by -dD: remember it, and blank the line (the code is already expanded).
                match m {
                    Some(m) => {
                        macros.insert(name, m);
                    }
                    None => {
                        macros.remove(&name);
                    }
                }
                self.edit(s, e, String::new());
                continue;
            }
            let Some(after) = acc_pragma_start(line) else {
                continue;
            };
            let text = if macros.is_empty() {
                line.to_string()
            } else {
                let exp = expand_macros(&line[after..], &macros);
                format!("{}{}", &line[..after], exp)
            };
            match parse_directive(&text, after) {
                Ok(dir) => self.prs.push(Pr {
                    li,
                    off: s,
                    end: e,
                    text,
                    dir,
                    stmt: None,
                    stmt_end: e,
                    next_code: e,
                    next_top: None,
                    func: None,
                }),
                Err(pe) => {
                    let shown = text.get(pe.span.start..pe.span.end).unwrap_or("");
                    let loc = if text == line {
                        self.sm.pragma_loc(self.text, li, pe.span.start)
                    } else {
                        // Macros were expanded: find the offending text in the line as written.
                        match (!shown.is_empty()).then(|| line.find(shown)).flatten() {
                            Some(p) if line.matches(shown).count() == 1 => {
                                self.sm.pragma_loc(self.text, li, p)
                            }
                            _ => self.line_loc(li, 0),
                        }
                    };
                    let msg = if shown.is_empty() || pe.message.contains('\'') {
                        pe.message.clone()
                    } else {
                        format!("{} (in '{}')", pe.message, shown)
                    };
                    self.diags.push(Diagnostic {
                        loc: Some(loc),
                        message: msg,
                    });
                }
            }
        }
    }

    pub(super) fn load_ast(&mut self) {
        // Offsets stay the same: the -dD lines are blanked with spaces for libclang.
        let mut clang_text = self.text.as_bytes().to_vec();
        for e in &self.edits {
            if e.text.is_empty() {
                for b in &mut clang_text[e.start..e.end] {
                    *b = b' ';
                }
            }
        }
        let clang_text = String::from_utf8_lossy(&clang_text).into_owned();
        let offs: Vec<usize> = self.prs.iter().map(|p| p.off).collect();
        // The -dD lines (blanked above) say which C the preprocessor ran with.
        let mut opts = cast::ParseOptions::from_text(self.text);
        // declare link: which device functions use the variable (check_link_uses).
        opts.all_bodies = self.prs.iter().any(|p| {
            p.dir.kind == DirectiveKind::Declare
                && p.dir.clauses.iter().any(|c| {
                    matches!(
                        c.kind,
                        ClauseKind::Data {
                            kind: DataKind::Link,
                            ..
                        }
                    )
                })
        });
        match cast::parse_with(&clang_text, &offs, &opts) {
            Ok(ast) => {
                for (id, n) in ast.nodes.iter().enumerate() {
                    self.node_at.entry(n.start).or_insert(id);
                }
                self.ast = Some(ast);
            }
            // Never translate with part of a tree: every failure is an error.
            Err(cast::ParseError::Source(errors)) => {
                const SHOWN: usize = 20;
                let n = errors.len();
                for (off, message) in errors.into_iter().take(SHOWN) {
                    let loc = off.map(|o| self.sm.loc(o));
                    self.diags.push(Diagnostic { loc, message });
                }
                let more = if n > SHOWN {
                    format!(" ({} more not shown)", n - SHOWN)
                } else {
                    String::new()
                };
                self.diags.push(Diagnostic {
                    loc: None,
                    message: format!(
                        "cannot translate the OpenACC directives of '{}': clang found {n} error{} in it{more}",
                        self.file,
                        if n == 1 { "" } else { "s" }
                    ),
                });
                self.ast_error = Some("the translation unit has errors".into());
            }
            Err(cast::ParseError::Libclang(e)) => {
                self.diags.push(Diagnostic {
                    loc: None,
                    message: format!(
                        "cannot translate the OpenACC directives of '{}': {e}",
                        self.file
                    ),
                });
                self.ast_error = Some(e);
            }
        }
    }

    pub(super) fn is_skippable_line(&self, li: usize) -> bool {
        let l = &self.sm.lines[li];
        let s = self.text[l.start..l.end].trim();
        s.is_empty()
            || acc_pragma_start(s).is_some()
            || crate::openacc::srcmap::parse_line_marker(s).is_some()
            || self.is_blanked(l.start)
    }

    pub(super) fn is_blanked(&self, off: usize) -> bool {
        self.edits
            .iter()
            .any(|e| e.start == off && e.text.is_empty())
    }
}

/// `acc loop seq` from `#pragma acc loop seq`, safe inside a C comment.
pub(super) fn acc_text(line: &str) -> String {
    let t = line.trim().trim_start_matches('#').trim_start();
    let t = t.strip_prefix("pragma").unwrap_or(t).trim_start();
    t.replace("*/", "* /")
}

//! Sections through arrays of pointers (`a[0:n][0:m]` with `double **a`; jagged.rs): taken out
//! of a directive's data clauses and moved by enter/exit data lines around it.
use std::collections::BTreeSet;

use crate::openacc::ast::*;
use crate::openacc::parser::name_of;

use crate::openacc::translate::jagged;
use crate::openacc::translate::*;

impl Tr<'_> {
    /// The type levels of what `v` subscripts (`jagged::Levels`): its variable's
    /// (`DeclInfo::levels`), or its last member's (`DeclInfo::fields`); empty when unknown.
    pub(in crate::openacc::translate) fn levels_of(&self, i: usize, v: &VarRef) -> jagged::Levels {
        let Some(di) = self
            .resolve(i, &v.name)
            .and_then(|d| self.ast.as_ref().map(|a| a.decl(d)))
        else {
            return jagged::Levels::default();
        };
        let Some(last) = v
            .path
            .iter()
            .rposition(|a| matches!(a, Access::Member { .. }))
        else {
            return jagged::Levels {
                classes: di.levels.clone(),
                first: 0,
            };
        };
        let members: Vec<&str> = v.path[..=last]
            .iter()
            .filter_map(|a| {
                if let Access::Member { name, .. } = a {
                    Some(name.as_str())
                } else {
                    None
                }
            })
            .collect();
        let key = members.join(".");
        let classes = di
            .fields
            .iter()
            .find(|f| f.path == key)
            .map(|f| f.levels.clone())
            .unwrap_or_default();
        jagged::Levels {
            classes,
            first: last + 1,
        }
    }

    /// Removes the sections through arrays of pointers (`a[0:n][0:m]` with `double **a`, see
    /// jagged.rs) from pragma `i`'s data clauses and returns them with their clause's kind.
    /// Those of other kinds than `kinds`, or with the `zero:` modifier, are errors.
    pub(in crate::openacc::translate) fn take_jagged(
        &mut self,
        i: usize,
        kinds: &[DataKind],
    ) -> Vec<(DataKind, VarRef, jagged::Levels)> {
        let mut out = Vec::new();
        let mut bad = Vec::new();
        let mut clauses = std::mem::take(&mut self.prs[i].dir.clauses);
        for c in &mut clauses {
            if let ClauseKind::Data {
                kind,
                modifier,
                vars,
            } = &mut c.kind
            {
                let mut keep = Vec::new();
                for v in vars.drain(..) {
                    let levels = self.levels_of(i, &v);
                    if !jagged::is_jagged(&v, &levels) {
                        keep.push(v);
                    } else if !kinds.contains(kind) || *modifier == Some(DataModifier::Zero) {
                        let what = if *modifier == Some(DataModifier::Zero) {
                            "zero:"
                        } else {
                            ""
                        };
                        bad.push((format!("{}({what}…)", name_of(c.name)), v));
                    } else {
                        out.push((*kind, v, levels));
                    }
                }
                *vars = keep;
            }
        }
        clauses.retain(|c| !matches!(&c.kind, ClauseKind::Data { vars, .. } if vars.is_empty()));
        self.prs[i].dir.clauses = clauses;
        let dir = self.prs[i].dir.kind.spelling();
        for (clause, v) in bad {
            self.error(
                i,
                v.span,
                format!(
                    "ptxcc does not support '{clause}' on '#pragma acc {dir}' for '{}', a section through an array of pointers (its rows are not contiguous)",
                    v.render()
                ),
            );
        }
        out
    }

    /// Sections through arrays of pointers on structured construct `i` (data, compute,
    /// kernels): clang's OpenMP refuses them (not contiguous), so they are mapped by enter data
    /// lines before the construct and exit data lines after it (jagged.rs), with its `if` and
    /// async queue, and the construct holds their pointer arrays as `present`. Returns the lines
    /// before and after (a block around the construct).
    pub(in crate::openacc::translate) fn structured_jagged(
        &mut self,
        i: usize,
    ) -> Option<(Vec<String>, Vec<String>)> {
        use DataKind as K;
        let items = self.take_jagged(i, &[K::Copy, K::CopyIn, K::CopyOut, K::Create, K::Present]);
        if items.is_empty() {
            return None;
        }
        let d = self.prs[i].dir.clone();
        let mut tail = Vec::new();
        let mut before = Vec::new();
        if let Some(ic) = self.if_clause(&d, false) {
            tail.push(ic);
        }
        self.async_clauses(&d, &mut tail, &mut before, true);
        let mut pre = vec!["{".to_string()];
        pre.extend(before);
        let mut post: Vec<String> = Vec::new();
        let moves = |kind: &DataKind| match kind {
            K::Copy => Some((MapType::To, MapType::From)),
            K::CopyIn => Some((MapType::To, MapType::Release)),
            K::CopyOut => Some((MapType::Alloc, MapType::From)),
            K::Create => Some((MapType::Alloc, MapType::Release)),
            _ => None,
        };
        // A member's rows (`copy(P.a.rows[0:n][0:m])`) are mapped as members of the struct,
        // which a clause of the same construct may map whole (`copyin(P)`): the struct must be
        // on the device first, so it is entered here too, before them, and leaves after them
        // (the construct then finds it present).
        let bases: BTreeSet<&str> = items
            .iter()
            .filter(|(_, _, l)| l.first > 0)
            .map(|(_, v, _)| v.name.as_str())
            .collect();
        let mut base_post = Vec::new();
        for c in &d.clauses {
            let ClauseKind::Data { kind, vars, .. } = &c.kind else {
                continue;
            };
            let Some((en, ex)) = moves(kind) else {
                continue;
            };
            for v in vars
                .iter()
                .filter(|v| bases.contains(v.name.as_str()) && !v.has_member())
            {
                let line = |construct: OmpConstruct, map_type: MapType| {
                    let mut cl = vec![OmpClause::Map(OmpMap::new(map_type, vec![v.render()]))];
                    cl.extend(tail.iter().cloned());
                    OmpDirective::new(construct, cl).line()
                };
                pre.push(line(OmpConstruct::TargetEnterData, en));
                base_post.push(line(OmpConstruct::TargetExitData, ex));
            }
        }
        let mut present = Vec::new();
        for (kind, v, levels) in &items {
            present.push(jagged::pointer_array(v, levels));
            let Some((en, ex)) = moves(kind) else {
                continue;
            };
            let lines = jagged::enter(v, levels, en, &tail, &mut self.tmp)
                .and_then(|a| jagged::exit(v, levels, ex, &tail, &mut self.tmp).map(|b| (a, b)));
            match lines {
                Ok((a, b)) => {
                    pre.extend(a);
                    // Left in the reverse order of entry.
                    post.splice(0..0, b);
                }
                Err(e) => self.error(i, v.span, e),
            }
        }
        post.extend(base_post);
        post.push("}".into());
        let span = present.first().map(|v| v.span).unwrap_or_default();
        self.prs[i].dir.clauses.push(Clause {
            kind: ClauseKind::Data {
                kind: K::Present,
                modifier: None,
                vars: present,
            },
            name: ClauseName::Present,
            span,
        });
        Some((pre, post))
    }

    /// enter data / exit data lines for the sections through arrays of pointers of standalone
    /// directive `i` (removed from its clauses); `tail` ends each line.
    pub(in crate::openacc::translate) fn standalone_jagged(
        &mut self,
        i: usize,
        finalize: bool,
        tail: &[OmpClause],
    ) -> Vec<String> {
        use DataKind as K;
        let items = self.take_jagged(i, &[K::CopyIn, K::Create, K::CopyOut, K::Delete]);
        let mut out = Vec::new();
        for (kind, v, levels) in &items {
            let lines = match kind {
                K::CopyIn => jagged::enter(v, levels, MapType::To, tail, &mut self.tmp),
                K::Create => jagged::enter(v, levels, MapType::Alloc, tail, &mut self.tmp),
                K::CopyOut => jagged::exit(v, levels, MapType::From, tail, &mut self.tmp),
                K::Delete => jagged::exit(
                    v,
                    levels,
                    if finalize {
                        MapType::Delete
                    } else {
                        MapType::Release
                    },
                    tail,
                    &mut self.tmp,
                ),
                _ => continue,
            };
            match lines {
                Ok(l) => out.extend(l),
                Err(e) => self.error(i, v.span, e),
            }
        }
        out
    }
}

//! OpenMP clauses shared by the lowerings: data maps (with the hold count of structured
//! data), `no_create` sections, `if`, and the `nowait`/`depend` clauses of async queues.

use crate::openacc::ast::*;
use crate::openacc::cast::TypeClass;
use crate::openacc::InfoKind;

use super::*;

/// Whether directive `d` has a `wait` clause without queues (it waits for every queue: a bare
/// `taskwait` before it).
pub(super) fn waits_for_all(d: &Directive) -> bool {
    d.clauses
        .iter()
        .any(|c| matches!(c.kind, ClauseKind::Wait(None)))
}

impl Tr<'_> {
    pub(super) fn queue(&mut self, e: Option<&Expr>) -> String {
        self.need_queue = true;
        match e {
            Some(e) => format!("{QUEUE}[(unsigned)({}) % 64u]", e.text.trim()),
            None => format!("{QUEUE}[(unsigned){DEFAULT_ASYNC}() % 64u]"),
        }
    }

    /// `nowait`/`depend` clauses for async/wait on a construct that takes them, and the lines
    /// that must run before it (a bare `taskwait` for each `wait` without queues:
    /// [`waits_for_all`]).
    pub(super) fn async_clauses(
        &mut self,
        d: &Directive,
        out: &mut Vec<OmpClause>,
        before: &mut Vec<String>,
        can_nowait: bool,
    ) {
        let mut deps_in: Vec<String> = Vec::new();
        let mut dep_out: Option<String> = None;
        for c in &d.clauses {
            if let ClauseKind::Wait(w) = &c.kind {
                // None: waits_for_all.
                match w {
                    None => before.push(OmpDirective::new(OmpConstruct::Taskwait, vec![]).line()),
                    Some(w) => {
                        for q in &w.queues {
                            let qq = self.queue(Some(q));
                            deps_in.push(qq);
                        }
                    }
                }
            }
        }
        if let Some(c) = d.find(ClauseName::Async) {
            if let ClauseKind::Async(q) = &c.kind {
                if can_nowait {
                    dep_out = Some(self.queue(q.as_ref()));
                }
            }
        }
        if can_nowait {
            if let Some(o) = &dep_out {
                deps_in.retain(|x| x != o);
                out.push(OmpClause::Nowait);
            }
            for q in deps_in {
                out.push(OmpClause::Depend(DependType::In, q));
            }
            if let Some(o) = dep_out {
                out.push(OmpClause::Depend(DependType::InOut, o));
            }
        } else if !deps_in.is_empty() {
            let deps = deps_in
                .into_iter()
                .map(|q| OmpClause::Depend(DependType::InOut, q))
                .collect();
            before.push(OmpDirective::new(OmpConstruct::Taskwait, deps).line());
        }
    }

    /// `no_create(v)` as an OpenMP list item that maps nothing when the data is absent: the
    /// length of its first section is `__ptxrt_acc_no_create_len(addr, bytes, len)`, which is
    /// `len` when the data is present and 0 when not, and an unmapped zero-length section keeps
    /// the host address (OpenMP 5.1). A whole array becomes `a[0:…]`, an element `a[i]` the
    /// section `a[i:1]`, a pointer `p[0:0]` (the data it points to). None for what has no
    /// section form (a scalar, a struct, a member without subscript): see `data_maps`.
    pub(super) fn no_create_item(
        &mut self,
        i: usize,
        v: &VarRef,
    ) -> Result<Option<String>, String> {
        let ty = self
            .resolve(i, &v.name)
            .and_then(|dd| self.ast.as_ref().map(|a| a.decl(dd).ty));
        let mut v = v.clone();
        if v.is_plain() {
            match ty {
                Some(TypeClass::Pointer { .. }) => return Ok(Some(format!("{}[0:0]", v.render()))),
                Some(TypeClass::Array { .. }) => {
                    let zero = Expr {
                        text: "0".into(),
                        span: Span::default(),
                    };
                    v.path.push(Access::Subscript(Subscript::Section {
                        lower: Some(zero),
                        length: None,
                    }));
                }
                _ => return Ok(None),
            }
        }
        if !v.has_section() {
            // a[i][j], s.x[i]: the element as the section a[i][j:1]; a member (s.x) stays whole.
            if let Some(Access::Subscript(s)) = v.path.last_mut() {
                if let Subscript::Index(e) = s.clone() {
                    *s = Subscript::Section {
                        lower: Some(e),
                        length: Some(Expr {
                            text: "1".into(),
                            span: Span::default(),
                        }),
                    };
                }
            }
            if !v.has_section() {
                return Ok(None);
            }
        }
        let Some(first) = v
            .path
            .iter()
            .position(|a| matches!(a, Access::Subscript(Subscript::Section { .. })))
        else {
            return Ok(None);
        };
        // A missing length: the rest of an array of known size.
        if let Some(Access::Subscript(Subscript::Section {
            lower,
            length: length @ None,
        })) = v.path.get_mut(first)
        {
            if first != 0 || !matches!(ty, Some(TypeClass::Array { .. })) {
                return Err(format!(
                    "no_create({}) needs the length of the subarray (it cannot be inferred from the declaration)",
                    v.render()
                ));
            }
            let n = &v.name;
            let lo = lower
                .as_ref()
                .map(|e| e.text.trim().to_string())
                .unwrap_or_else(|| "0".into());
            *length = Some(Expr {
                text: if lo == "0" {
                    format!("sizeof({n}) / sizeof(({n})[0])")
                } else {
                    format!("sizeof({n}) / sizeof(({n})[0]) - ({lo})")
                },
                span: Span::default(),
            });
        }
        let (addr, bytes) = section_bytes(&v);
        if let Some(Access::Subscript(Subscript::Section {
            length: Some(len), ..
        })) = v.path.get_mut(first)
        {
            len.text = format!(
                "__ptxrt_acc_no_create_len((const void *)({addr}), (unsigned long)({bytes}), (unsigned long)({}))",
                len.text.trim()
            );
        }
        self.need_no_create_fn = true;
        Ok(Some(v.render()))
    }

    /// The `map` clauses of `no_create` on structured construct `i`: zero-length-when-absent
    /// sections (`no_create_item`), and `tofrom` for what cannot be a section (when absent, the
    /// region gets a copy of the host value for its duration: the values it would read and
    /// write in host memory, as the specification's "uses the local memory" gives).
    pub(super) fn no_create_maps(&mut self, i: usize, vars: &[VarRef]) -> Vec<OmpClause> {
        let mut sections = Vec::new();
        let mut copies = Vec::new();
        for v in vars {
            match self.no_create_item(i, v) {
                Ok(Some(s)) => sections.push(s),
                Ok(None) => copies.push(v.render()),
                Err(m) => self.error(i, v.span, m),
            }
        }
        let mut out = Vec::new();
        if !sections.is_empty() {
            out.push(OmpClause::Map(OmpMap::new(MapType::Alloc, sections).held()));
        }
        if !copies.is_empty() {
            let off = self.prs[i].next_code;
            self.note(
                off,
                InfoKind::Data,
                format!(
                    "no_create({}): not an array or pointer, so not left unmapped when absent: a copy of the host value for the region",
                    copies.join(", ")
                ),
            );
            out.push(OmpClause::Map(OmpMap::new(MapType::ToFrom, copies).held()));
        }
        out
    }

    pub(super) fn data_maps(
        &mut self,
        i: usize,
        d: &Directive,
        out: &mut Vec<OmpClause>,
        compute: bool,
    ) {
        for c in &d.clauses {
            if let ClauseKind::Data {
                kind: DataKind::NoCreate,
                vars,
                ..
            } = &c.kind
            {
                let m = self.no_create_maps(i, vars);
                out.extend(m);
                continue;
            }
            if let ClauseKind::Data { kind, vars, .. } = &c.kind {
                // present(p) with p a pointer: the data p points to (as people mean it).
                let l: Vec<String> = if matches!(kind, DataKind::Present) {
                    vars.iter()
                        .map(|v| {
                            let ptr = v.is_plain()
                                && self
                                    .resolve(i, &v.name)
                                    .and_then(|dd| {
                                        self.ast.as_ref().map(|a| {
                                            matches!(a.decl(dd).ty, TypeClass::Pointer { .. })
                                        })
                                    })
                                    .unwrap_or(false);
                            if ptr {
                                format!("{}[0:0]", v.render())
                            } else {
                                v.render()
                            }
                        })
                        .collect()
                } else {
                    items(vars)
                };
                // Structured data (data and compute constructs) holds its data with libomptarget's
                // hold count (OpenACC's structured reference counter, as Clacc maps it): exit data,
                // acc_copyout and acc_delete inside the region only touch the dynamic count.
                let held = |t: MapType, l: Vec<String>| OmpClause::Map(OmpMap::new(t, l).held());
                let s = match kind {
                    DataKind::Copy => held(MapType::ToFrom, l),
                    DataKind::CopyIn => held(MapType::To, l),
                    DataKind::CopyOut => held(MapType::From, l),
                    DataKind::Create | DataKind::DeviceResident => held(MapType::Alloc, l),
                    DataKind::NoCreate => continue,
                    DataKind::Present => {
                        OmpClause::Map(OmpMap::new(MapType::Alloc, l).held().present())
                    }
                    DataKind::DevicePtr => {
                        if compute {
                            OmpClause::IsDevicePtr(l)
                        } else {
                            continue;
                        }
                    }
                    DataKind::Attach => held(MapType::Alloc, attach_list(vars)),
                    // Not allowed on structured constructs (the parser says so); kept dynamic.
                    DataKind::Detach => {
                        OmpClause::Map(OmpMap::new(MapType::Release, attach_list(vars)))
                    }
                    DataKind::Delete => OmpClause::Map(OmpMap::new(MapType::Release, l)),
                    DataKind::Link => held(MapType::Alloc, l),
                };
                out.push(s);
            }
        }
    }

    pub(super) fn if_clause(&self, d: &Directive, target_modifier: bool) -> Option<OmpClause> {
        let cond = d.find(ClauseName::If).and_then(|c| {
            if let ClauseKind::If(e) = &c.kind {
                Some(e.text.trim().to_string())
            } else {
                None
            }
        });
        let selfc = d.find(ClauseName::SelfCond).map(|c| match &c.kind {
            ClauseKind::SelfCond(Some(e)) => e.text.trim().to_string(),
            _ => "1".to_string(),
        });
        let cond = match (cond, selfc) {
            (None, None) => return None,
            (Some(c), None) => c,
            (None, Some(s)) => format!("!({s})"),
            (Some(c), Some(s)) => format!("({c}) && !({s})"),
        };
        Some(OmpClause::If {
            target: target_modifier,
            cond,
        })
    }
}

/// The `int` async argument of an `async` clause for the runtime: the queue, or the default
/// queue of a bare `async`.
pub(super) fn async_arg(q: Option<&Expr>) -> String {
    match q {
        Some(e) => format!("(int)({})", e.text.trim()),
        None => format!("{DEFAULT_ASYNC}()"),
    }
}

/// `p` → `p[0:0]`; a section keeps its start with length 0 (attach/detach of the pointer).
pub(super) fn attach_list(vars: &[VarRef]) -> Vec<String> {
    vars.iter()
        .map(|v| {
            if v.has_section() {
                v.zero_length().render()
            } else {
                format!("{}[0:0]", v.render())
            }
        })
        .collect()
}

/// Address and size in bytes of a clause variable.
pub(super) fn section_bytes(v: &VarRef) -> (String, String) {
    // Sections: the first element of the last section and its length.
    let mut base = VarRef {
        name: v.name.clone(),
        path: Vec::new(),
        span: v.span,
    };
    let mut count: Option<String> = None;
    for a in &v.path {
        match a {
            Access::Subscript(Subscript::Section { lower, length }) => {
                let lo = lower
                    .as_ref()
                    .map(|e| e.text.trim().to_string())
                    .unwrap_or_else(|| "0".into());
                if let Some(l) = length {
                    count = Some(match count {
                        Some(c) => format!("({c}) * ({})", l.text.trim()),
                        None => l.text.trim().to_string(),
                    });
                }
                base.path.push(Access::Subscript(Subscript::Index(Expr {
                    text: lo,
                    span: Span::default(),
                })));
            }
            other => base.path.push(other.clone()),
        }
    }
    let b = base.render();
    match count {
        Some(c) => (format!("&{b}"), format!("({c}) * sizeof({b})")),
        None => (format!("&{b}"), format!("sizeof({b})")),
    }
}

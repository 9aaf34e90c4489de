//! `private(c[lo:len])` / `firstprivate(c[lo:len])` of a pointer's section on `parallel`,
//! `serial` and their loops: OpenMP's clauses take variables only. The copies live in one
//! device block that the host allocates before the construct (no kernel allocates) and frees
//! after it; each gang (or thread, as the level of the clause says) points a `c` of its own at
//! its copy, declared at the start of the construct's or loop's body, so the body's `c[j]`
//! reads and writes the copy:
//!
//! ```c
//! #pragma acc parallel loop gang private(c[0:m])          // before
//! for (i = 0; i < n; i++) { … c[j] … }
//!
//! { long __ptxcc_pl1 = (m), __ptxcc_po1 = (0);            // after
//!   int __ptxcc_pg1 = __ptxrt_acc_private_copies(__ptxcc_pl1 * sizeof(*c));
//!   void *__ptxcc_pb1 = __ptxrt_acc_private_alloc("c", __ptxcc_pg1, __ptxcc_pl1 * sizeof(*c), 0, 1);
//! #pragma omp target teams distribute … num_teams(__ptxcc_pg1) is_device_ptr(__ptxcc_pb1)
//! for (i = 0; i < n; i++) { __typeof__(c) c = (__typeof__(c))__ptxcc_pb1 + (omp_get_team_num()) * __ptxcc_pl1 - __ptxcc_po1; … c[j] … }
//! __ptxrt_acc_private_free(__ptxcc_pb1, 1); }
//! ```
//!
//! Levels: on the construct, on a gang loop or on a sequential loop outside thread loops, one
//! copy per gang (`omp_get_team_num()`; num_gangs gives the number, else the runtime's choice
//! becomes num_teams); on a worker or vector loop on the block's threads, one per thread
//! (`team * thread_limit + thread`; thread_limit is set when the construct has none). A
//! firstprivate copy starts as the host's data. A section of an array variable is the array,
//! private whole (OpenMP's own clause). Errors: a vector loop on the lanes of a worker's warp,
//! kernels constructs, members and multi-dimensional sections, a section without a length.
use crate::openacc::ast::*;
use crate::openacc::cast::{NodeId, TypeClass, NK};

use crate::openacc::translate::*;

/// The per-thread copies' block size when the construct sets no thread_limit.
const DEFAULT_THREADS: u32 = 128;

/// One private section the construct allocates copies for.
#[derive(Clone, Debug)]
struct Item {
    /// The pragma whose clause names it (the construct or one of its loops).
    pr: usize,
    name: String,
    lower: String,
    length: String,
    first: bool,
    per_thread: bool,
}

/// What a compute construct adds for the private sections of it and its loops.
#[derive(Clone, Debug, Default)]
pub(in crate::openacc::translate) struct PrivatePlan {
    /// Host lines before the construct (open a block, allocate).
    pub(in crate::openacc::translate) pre: Vec<String>,
    /// Clauses of the construct: num_teams / thread_limit when it had none, is_device_ptr.
    pub(in crate::openacc::translate) clauses: Vec<OmpClause>,
    /// Host lines after the construct's statement (free, close the block).
    pub(in crate::openacc::translate) post: Vec<String>,
}

/// How a private/firstprivate list item is lowered.
pub(in crate::openacc::translate) enum PrivateItem {
    /// Rendered in OpenMP's clause as this text.
    Clause(String),
    /// A pointer's section: copies allocated by the construct (PrivatePlan).
    Copies,
}

impl Tr<'_> {
    /// How `v`, in a private or firstprivate clause of pragma `i`, is lowered.
    pub(in crate::openacc::translate) fn private_item(&self, i: usize, v: &VarRef) -> PrivateItem {
        if !v.has_section() {
            return PrivateItem::Clause(v.render());
        }
        match self.var_type(i, &v.name) {
            Some(TypeClass::Array { .. }) if !v.has_member() => PrivateItem::Clause(v.name.clone()),
            _ => PrivateItem::Copies,
        }
    }

    /// The OpenMP list of a private/firstprivate clause of pragma `i` (None when every item
    /// is a section with copies of its own).
    pub(in crate::openacc::translate) fn private_list(
        &self,
        i: usize,
        vars: &[VarRef],
    ) -> Option<Vec<String>> {
        let items: Vec<String> = vars
            .iter()
            .filter_map(|v| match self.private_item(i, v) {
                PrivateItem::Clause(t) => Some(t),
                PrivateItem::Copies => None,
            })
            .collect();
        (!items.is_empty()).then_some(items)
    }

    fn var_type(&self, i: usize, name: &str) -> Option<TypeClass> {
        let id = self.resolve(i, name)?;
        self.ast.as_ref().map(|a| a.decl(id).ty)
    }

    /// Why a private section of pragma `i` cannot be lowered (None: it can).
    pub(in crate::openacc::translate) fn private_section_problem(
        &self,
        i: usize,
        v: &VarRef,
    ) -> Option<String> {
        if let PrivateItem::Clause(_) = self.private_item(i, v) {
            return None;
        }
        if !matches!(self.var_type(i, &v.name), Some(TypeClass::Pointer { .. })) {
            return Some("only sections of pointers and of array variables are supported".into());
        }
        let [Access::Subscript(Subscript::Section { length, .. })] = v.path.as_slice() else {
            return Some(
                "only one-dimensional sections of a variable (`c[lo:len]`) are supported".into(),
            );
        };
        if length.is_none() {
            return Some("a pointer's section needs its length (`c[lo:len]`)".into());
        }
        let d = &self.prs[i].dir;
        let region = match d.kind {
            DirectiveKind::Loop => self.enclosing_compute(i)?,
            _ => i,
        };
        if matches!(
            self.prs[region].dir.kind,
            DirectiveKind::Kernels | DirectiveKind::KernelsLoop
        ) {
            return Some("private sections are supported on parallel and serial constructs and their loops, not in kernels regions".into());
        }
        if self.level_of(region, i).is_none() {
            return Some("a vector loop on the lanes of a worker's warp has no private sections in ptxcc: put the clause on the worker loop".into());
        }
        None
    }

    /// The level of pragma `k`'s private copies in region `region`: Some(false) one per gang,
    /// Some(true) one per thread of the block, None not supported (lanes of a worker's warp).
    fn level_of(&self, region: usize, k: usize) -> Option<bool> {
        if matches!(
            self.prs[region].dir.kind,
            DirectiveKind::Serial | DirectiveKind::SerialLoop
        ) {
            return Some(false);
        }
        let own = match self.prs[k].dir.kind {
            DirectiveKind::Parallel => return Some(false),
            _ => self.plans.get(&k).cloned().unwrap_or_default(),
        };
        if own.lanes {
            return None;
        }
        if own.thread.is_some() || own.simd {
            return Some(true);
        }
        if own.gang {
            return Some(false);
        }
        // A sequential loop runs in whatever encloses it.
        let mut level = Some(false);
        for m in 0..self.prs.len() {
            if self.prs[m].dir.kind.is_loop()
                && (m == region || self.encloses(region, m))
                && self.encloses(m, k)
            {
                let p = self.plans.get(&m).cloned().unwrap_or_default();
                if p.lanes {
                    return None;
                }
                if p.thread.is_some() || p.simd {
                    level = Some(true);
                }
            }
        }
        level
    }

    /// The private sections of compute construct `i` and of its loops, lowered: the copies
    /// allocated around the construct, each body pointing its variable at its copy.
    /// `num_teams`: the construct's num_teams clause, if it has one already; `thread_limit`: its
    /// thread_limit, if any; `queue`: its `depend(inout: …)` when async.
    pub(in crate::openacc::translate) fn private_plan(
        &mut self,
        i: usize,
        num_teams: Option<String>,
        thread_limit: Option<String>,
        cond: Option<String>,
        queue: Option<OmpClause>,
    ) -> Option<PrivatePlan> {
        let serial = matches!(
            self.prs[i].dir.kind,
            DirectiveKind::Serial | DirectiveKind::SerialLoop
        );
        let mut items = Vec::new();
        for k in 0..self.prs.len() {
            let inner_loop = self.prs[k].dir.kind == DirectiveKind::Loop
                && self.encloses(i, k)
                && self.enclosing_compute(k) == Some(i);
            if k != i && !inner_loop {
                continue;
            }
            for c in &self.prs[k].dir.clauses {
                let (vars, first) = match &c.kind {
                    ClauseKind::Private(v) => (v, false),
                    ClauseKind::FirstPrivate(v) => (v, true),
                    _ => continue,
                };
                for v in vars {
                    if !matches!(self.private_item(k, v), PrivateItem::Copies)
                        || self.private_section_problem(k, v).is_some()
                    {
                        continue;
                    }
                    let Some(Access::Subscript(Subscript::Section { lower, length })) =
                        v.path.first()
                    else {
                        continue;
                    };
                    let text = |e: &Option<Expr>, d: &str| {
                        e.as_ref()
                            .map_or(d.to_string(), |e| e.text.trim().to_string())
                    };
                    items.push(Item {
                        pr: k,
                        name: v.name.clone(),
                        lower: text(lower, "0"),
                        length: text(length, "0"),
                        first,
                        per_thread: self.level_of(i, k) == Some(true),
                    });
                }
            }
        }
        if items.is_empty() {
            return None;
        }
        self.need_team_fns = true;
        self.need_private_fns = true;
        let mut plan = PrivatePlan::default();
        let on_device = cond.clone().unwrap_or_else(|| "1".into());
        self.tmp += 1;
        let id = self.tmp;
        let gangs = format!("__ptxcc_pg{id}");
        let threads = format!("__ptxcc_pt{id}");
        let any_thread = items.iter().any(|it| it.per_thread);
        let on = format!("__ptxcc_pd{id}");
        plan.pre.push(format!("{{ int {on} = ({on_device});"));
        // Threads per gang for per-thread copies: the construct's thread_limit, else ours.
        let tl = match (&thread_limit, any_thread) {
            (Some(t), true) => t.clone(),
            (None, true) => {
                plan.clauses
                    .push(OmpClause::ThreadLimit(DEFAULT_THREADS.to_string()));
                DEFAULT_THREADS.to_string()
            }
            _ => String::new(),
        };
        if any_thread {
            plan.pre.push(format!("long {threads} = ({tl});"));
        }
        // Bytes of all copies of one gang.
        let mut per_gang = Vec::new();
        for (n, it) in items.iter().enumerate() {
            let (len, lo) = (format!("__ptxcc_pl{id}_{n}"), format!("__ptxcc_po{id}_{n}"));
            plan.pre.push(format!(
                "long {len} = ({}), {lo} = ({});",
                it.length, it.lower
            ));
            let copies = if it.per_thread {
                format!("{threads} * ")
            } else {
                String::new()
            };
            per_gang.push(format!("{copies}{len} * sizeof(*{})", it.name));
        }
        let num_gangs = if serial {
            "1".to_string()
        } else if let Some(n) = num_teams {
            n
        } else {
            // On the host (if(0)) one team runs the construct.
            let g = format!(
                "{on} ? __ptxrt_acc_private_copies({}) : 1",
                per_gang.join(" + ")
            );
            plan.clauses.push(OmpClause::NumTeams(gangs.clone()));
            g
        };
        plan.pre.push(format!("long {gangs} = ({num_gangs});"));
        let mut bufs = Vec::new();
        for (n, it) in items.iter().enumerate() {
            let (len, lo) = (format!("__ptxcc_pl{id}_{n}"), format!("__ptxcc_po{id}_{n}"));
            let buf = format!("__ptxcc_pb{id}_{n}");
            let copies = if it.per_thread {
                format!("{gangs} * {threads}")
            } else {
                gangs.clone()
            };
            let init = if it.first {
                format!("(const void *)({} + {lo})", it.name)
            } else {
                "(const void *)0".into()
            };
            plan.pre.push(format!(
                "void *{buf} = __ptxrt_acc_private_alloc(\"{}\", {copies}, {len} * sizeof(*{}), {init}, {on});",
                it.name, it.name
            ));
            bufs.push(buf.clone());
            let slot = if it.per_thread {
                format!("(omp_get_team_num() * {threads} + omp_get_thread_num())")
            } else {
                "omp_get_team_num()".into()
            };
            let decl = format!(
                "__typeof__({n}) {n} = (__typeof__({n})){buf} + {slot} * {len} - {lo};",
                n = it.name
            );
            self.declare_in_body(it.pr, &decl);
        }
        plan.clauses.push(OmpClause::IsDevicePtr(bufs.clone()));
        // After the construct: free (on its queue when async: the kernel may not have run).
        let frees: Vec<String> = bufs
            .iter()
            .map(|b| format!("__ptxrt_acc_private_free({b}, {on});"))
            .collect();
        match queue {
            Some(dep) => {
                // The blocks are values captured by the task (firstprivate by default).
                plan.post
                    .push(OmpDirective::new(OmpConstruct::Task, vec![dep]).line());
                plan.post.push(format!("{{ {} }}", frees.join(" ")));
            }
            None => plan.post.push(frees.join(" ")),
        }
        plan.post.push("}".into());
        Some(plan)
    }

    /// Puts `decl` first in the body of pragma `k`'s statement: the innermost collapsed loop's
    /// body for a loop, the block of a construct.
    fn declare_in_body(&mut self, k: usize, decl: &str) {
        let Some(stmt) = self.prs[k].stmt else { return };
        let Some(an) = self.an() else { return };
        let mut body: NodeId = stmt;
        if let Some(mut fl) = an.for_loop(stmt) {
            let depth = self.prs[k].dir.clauses.iter().find_map(|c| match &c.kind {
                ClauseKind::Collapse { count, .. } => Some(*count as usize),
                ClauseKind::Tile(t) => Some(t.len()),
                _ => None,
            });
            for _ in 1..depth.unwrap_or(1) {
                match an.perfectly_nested(&fl) {
                    Some(n) => fl = n,
                    None => break,
                }
            }
            body = fl.body;
        }
        let node = an.ast.node(body);
        let (start, kind) = (node.start, node.kind);
        let end = an.stmt_end(body);
        if kind == NK::Compound {
            self.insert(start + 1, &format!(" {decl}"));
        } else {
            self.insert(start, &format!("{{ {decl} "));
            self.insert(end, " }");
        }
    }
}

//! The translation proper: each `#pragma acc` line becomes OpenMP pragma lines (plus, where
//! OpenMP has no equivalent, a few statements), with line markers after any inserted line so
//! that the user's file:line survives into clang's and ptxcc's diagnostics.
//!
//! One [`Tr`] holds the state; its methods are cut by phase, each phase in its module, and
//! [`translate`] runs them in order:
//!
//! 1. `scan`: the `#pragma acc` lines, parsed ([`Pr`]), and the libclang tree;
//! 2. `regions`: the statement of each pragma, which construct encloses which;
//! 3. `plan`: how each loop is spread over gangs, workers and vector lanes ([`plan::Plan`]),
//!    decided by `planner` (one pure function for `parallel` and `kernels` loops, unit-tested
//!    on typed loop descriptions; the kernels lowering asks it for its nests too);
//! 4. `sharing` (implicit data attributes, hoisted reductions; `implicit_sections`: the
//!    report of pointers without a data clause, mapped from the loop bounds at run time;
//!    `lost_assignments`: the warning for a scalar a parallel construct assigns but keeps
//!    firstprivate), `reductions` (the typed
//!    reduction set of one construct), `clauses` (maps, async) and
//!    `check` (errors that need the tree), used by
//! 5. `lower`: one module per directive family, each recording edits of the text; the OpenMP
//!    they emit is typed (`omp`: [`OmpDirective`], [`OmpClause`]) until it is printed;
//! 6. `report`: the `-fptxcc-info` lines the lowerings decide;
//! 7. `rewrite`: the edits applied, with line markers, and the map of generated text to pragmas.

mod check;
mod clauses;
mod implicit_sections;
mod jagged;
mod lost_assignments;
mod lower;
mod omp;
mod plan;
mod planner;
mod reductions;
mod regions;
mod report;
mod rewrite;
mod scan;
mod sharing;

use clauses::{async_arg, attach_list, section_bytes, waits_for_all};
use omp::{
    Atomic, Compute, DependType, MapType, Motion, OmpClause, OmpConstruct, OmpDirective, OmpMap,
};
use plan::{found_red, gang_dim, num_gangs_total, Plan, Thread};
use scan::acc_text;

use std::collections::HashMap;

use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

use crate::openacc::ast::*;
use crate::openacc::cast::{Ast, NodeId};
use crate::openacc::srcmap::SourceMap;
use crate::openacc::{Info, Translation};

struct Pr {
    li: usize,
    off: usize,
    end: usize,
    text: String,
    dir: Directive,
    /// The statement the directive applies to (constructs with a body, `loop`, `atomic`, `declare` in a function).
    stmt: Option<NodeId>,
    /// End of that statement, `;` included.
    stmt_end: usize,
    /// Offset of the first code after the pragma line(s).
    next_code: usize,
    /// Index into `ast.top` of the declaration that follows (routine, declare at file scope).
    next_top: Option<usize>,
    /// Index into `ast.top` of the function holding the pragma.
    func: Option<usize>,
}

struct Edit {
    start: usize,
    end: usize,
    text: String,
    seq: usize,
    /// The pragmas the text was generated from (the first is the one it stands for; none for
    /// the blanked `#define` lines): where clang's diagnostics on it belong (diagmap.rs).
    origins: Vec<usize>,
}

pub struct Tr<'a> {
    text: &'a str,
    /// The user's file, for diagnostics without a line.
    file: &'a str,
    sm: SourceMap,
    ast: Option<Ast>,
    ast_error: Option<String>,
    prs: Vec<Pr>,
    edits: Vec<Edit>,
    diags: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    info: Vec<Info>,
    need_queue: bool,
    need_acc_api: bool,
    need_omp_api: bool,
    need_finalize_fn: bool,
    need_no_create_fn: bool,
    need_wait_fn: bool,
    need_update_fn: bool,
    need_team_fns: bool,
    /// The runtime's private-copy routines (private sections, lower/private_sections.rs).
    need_private_fns: bool,
    /// Pragmas already replaced.
    done: std::collections::HashSet<usize>,
    has_openacc_h: bool,
    node_at: HashMap<usize, NodeId>,
    plans: HashMap<usize, Plan>,
    /// Extra clauses for a compute construct from its loops (reductions hoisted, maps).
    hoisted: HashMap<usize, Vec<OmpClause>>,
    thread_level: HashMap<usize, &'static str>,
    /// gang(dim:e) loops collapsed into the distribute of an enclosing gang(dim:d) loop: inner
    /// pragma → outer pragma.
    gang_collapsed: HashMap<usize, usize>,
    tmp: usize,
    seq: usize,
    /// The pragma being translated: its edits are generated from it.
    cur: Option<usize>,
    /// Compute constructs' pointers used as arrays with no data clause (`sharing`), reported
    /// once the kernels they became are known (`implicit_sections`).
    pending_sections: std::collections::BTreeMap<usize, Vec<implicit_sections::Unlisted>>,
    /// The output byte ranges the edits wrote, with their pragmas (set by `apply`).
    generated: Vec<(usize, usize, Vec<usize>)>,
}

const QUEUE: &str = "__ptxcc_acc_queue";

/// The queue of a bare `async`: the runtime's default (acc_set_default_async, set default_async),
/// whoever set it.
const DEFAULT_ASYNC: &str = "acc_get_default_async";

pub fn translate(pre: &str, file: &str) -> Result<Translation, Vec<Diagnostic>> {
    let sm = SourceMap::new(pre, file);
    let mut tr = Tr {
        text: pre,
        file,
        sm,
        ast: None,
        ast_error: None,
        prs: Vec::new(),
        edits: Vec::new(),
        diags: Vec::new(),
        warnings: Vec::new(),
        info: Vec::new(),
        need_queue: false,
        need_acc_api: false,
        need_update_fn: false,
        need_team_fns: false,
        need_private_fns: false,
        need_omp_api: false,
        need_finalize_fn: false,
        need_no_create_fn: false,
        need_wait_fn: false,
        done: Default::default(),
        has_openacc_h: false,
        node_at: HashMap::new(),
        plans: HashMap::new(),
        hoisted: HashMap::new(),
        thread_level: HashMap::new(),
        gang_collapsed: HashMap::new(),
        tmp: 0,
        seq: 0,
        cur: None,
        pending_sections: Default::default(),
        generated: Vec::new(),
    };
    tr.scan();
    if tr.prs.is_empty() && tr.diags.is_empty() {
        let text = tr.apply();
        return Ok(Translation {
            text,
            ..Default::default()
        });
    }
    tr.load_ast();
    if tr.ast.is_none() {
        // load_ast said why; going on would only add one error per directive.
        return Err(sorted_diags(std::mem::take(&mut tr.diags)));
    }
    tr.associate();
    tr.plan_loops();
    tr.plan_gang_dims();
    for i in 0..tr.prs.len() {
        tr.cur = Some(i);
        tr.translate_one(i);
    }
    tr.cur = None;
    if !tr.diags.is_empty() {
        return Err(sorted_diags(std::mem::take(&mut tr.diags)));
    }
    let text = tr.apply();
    let diag_map = tr.diag_map(&text);
    let kernels = tr.kernel_lines(&text);
    tr.note_implicit_sections(&kernels);
    // Only combined loop kernels: their launch passes the trip count the ranges are evaluated over.
    let compute_lines = kernels
        .into_iter()
        .filter(|k| k.combined)
        .map(|k| k.at)
        .collect();
    let mut info = std::mem::take(&mut tr.info);
    info.sort_by_key(|a| (a.loc.file.clone(), a.loc.line));
    let warnings = sorted_diags(std::mem::take(&mut tr.warnings))
        .into_iter()
        .map(|d| match d.loc {
            Some(l) => format!("{l}: warning: {}", d.message),
            None => format!("ptxcc: warning: {}", d.message),
        })
        .collect();
    Ok(Translation {
        text,
        info,
        warnings,
        diag_map,
        compute_lines,
    })
}

/// In file:line:col order (stable: clang's errors keep their order), without repeats; those
/// without a place (ptxcc: error: …) last.
fn sorted_diags(mut d: Vec<Diagnostic>) -> Vec<Diagnostic> {
    d.sort_by(|a, b| {
        let ka = a.loc.as_ref().map(|l| (l.file.clone(), l.line, l.col));
        let kb = b.loc.as_ref().map(|l| (l.file.clone(), l.line, l.col));
        match (ka, kb) {
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (ka, kb) => ka.cmp(&kb),
        }
    });
    d.dedup();
    d
}

fn join(v: &[VarRef]) -> String {
    v.iter().map(|x| x.render()).collect::<Vec<_>>().join(", ")
}

/// The list items of an OpenMP clause: the variables as written.
fn items(v: &[VarRef]) -> Vec<String> {
    v.iter().map(|x| x.render()).collect()
}

impl Tr<'_> {
    fn line_loc(&self, li: usize, rel: usize) -> SourceLoc {
        let o = self.sm.origin(li);
        SourceLoc {
            file: o.file,
            line: o.line,
            col: rel as u32 + 1,
        }
    }

    fn pr_loc(&self, i: usize, span: Span) -> SourceLoc {
        let p = &self.prs[i];
        let line = &self.text[p.off..p.end];
        if p.text == line {
            return self.sm.pragma_loc(self.text, p.li, span.start);
        }
        let shown = p.text.get(span.start..span.end).unwrap_or("");
        match (!shown.is_empty()).then(|| line.find(shown)).flatten() {
            Some(at) if line.matches(shown).count() == 1 => self.sm.pragma_loc(self.text, p.li, at),
            _ => self.line_loc(p.li, 0),
        }
    }

    fn error(&mut self, i: usize, span: Span, msg: impl Into<String>) {
        let loc = self.pr_loc(i, span);
        self.diags.push(Diagnostic {
            loc: Some(loc),
            message: msg.into(),
        });
    }

    fn warn(&mut self, i: usize, span: Span, msg: impl Into<String>) {
        let loc = self.pr_loc(i, span);
        self.warnings.push(Diagnostic {
            loc: Some(loc),
            message: msg.into(),
        });
    }
}

//! The translation proper: each `#pragma acc` line becomes OpenMP pragma lines (plus, where
//! OpenMP has no equivalent, a few statements), with line markers after any inserted line so
//! that the user's file:line survives into clang's and ptxcc's diagnostics.
use std::collections::{BTreeSet, HashMap};

use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

use super::analysis::{reduction_allowed, Analyzer, ForLoop, Verdict};
use super::ast::*;
use super::cast::{self, Ast, DeclId, DeclKind, NodeId, TypeClass, NK};
use super::diagmap::{self, DiagMap, PragmaSrc};
use super::jagged;
use super::parser::{acc_pragma_start, name_of, parse_directive};
use super::srcmap::{expand_macros, parse_define, Macro, Origin, SourceMap};
use super::{Info, InfoKind, Translation};

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

#[derive(Default)]
struct ZeroPlan {
    /// Before the construct: one `{ int flag = !present;` per variable.
    pre: Vec<String>,
    /// Zeroing of the absent ones, where the data is mapped.
    zero: Vec<String>,
    /// Before a compute construct: enter data + zeroing of the absent ones.
    enter_zero: Vec<String>,
    /// After a compute construct: the matching exit data.
    exit: Vec<String>,
    /// Closes the blocks `pre` opened.
    close: String,
}

/// How one `loop` is spread over the device.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Plan {
    gang: bool,
    /// worker or vector mapped to threads.
    thread: Option<&'static str>,
    /// vector mapped to SIMD lanes (under a worker level).
    simd: bool,
    /// A vector loop inside a worker loop of a parallel region: a parallel region nested in
    /// the worker's, whose threads ptxcc makes the lanes of the worker's warp (vector =
    /// threadIdx.x, worker = threadIdx.y of a 32-wide block, in CUDA's terms).
    lanes: bool,
    /// Why the loop is sequential (when no level).
    why_seq: Option<String>,
    /// From the dependence test of an `auto` loop.
    found_reductions: Vec<(ReductionOp, DeclId)>,
    /// A gang(dim:d) loop tightly nested around gang(dim:e<d) loops: how many loops its
    /// distribute covers (collapse); 0 when none are.
    gang_collapse: usize,
}

impl Plan {
    fn is_seq(&self) -> bool {
        !self.gang && self.thread.is_none() && !self.simd && !self.lanes
    }
    fn omp(&self) -> String {
        let mut v = Vec::new();
        if self.gang {
            v.push("distribute");
        }
        if self.thread.is_some() {
            v.push("parallel for");
        }
        if self.simd {
            v.push("simd");
        }
        if self.lanes {
            v.push("parallel for");
        }
        v.join(" ")
    }
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
    /// Pragmas already replaced.
    done: std::collections::HashSet<usize>,
    has_openacc_h: bool,
    node_at: HashMap<usize, NodeId>,
    plans: HashMap<usize, Plan>,
    /// Extra clauses for a compute construct from its loops (reductions hoisted, maps).
    hoisted: HashMap<usize, Vec<String>>,
    thread_level: HashMap<usize, &'static str>,
    /// gang(dim:e) loops collapsed into the distribute of an enclosing gang(dim:d) loop: inner
    /// pragma → outer pragma.
    gang_collapsed: HashMap<usize, usize>,
    tmp: usize,
    seq: usize,
    /// The pragma being translated: its edits are generated from it.
    cur: Option<usize>,
    /// The output byte ranges the edits wrote, with their pragmas (set by `apply`).
    generated: Vec<(usize, usize, Vec<usize>)>,
}

const QUEUE: &str = "__ptxcc_acc_queue";
/// The queue of a bare `async`: the runtime's default (acc_set_default_async, set default_async),
/// whoever set it.
const DEFAULT_ASYNC: &str = "acc_get_default_async";
/// The map-type modifier of structured data (clang's `-fopenmp-extensions`, on by default):
/// libomptarget's hold reference count, which `target exit data` and the `acc_*` routines leave alone.
const HOLD: &str = "ompx_hold, ";

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
    let mut info = std::mem::take(&mut tr.info);
    info.sort_by(|a, b| (a.loc.file.clone(), a.loc.line).cmp(&(b.loc.file.clone(), b.loc.line)));
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

impl<'a> Tr<'a> {
    // ---------------------------------------------------------------- scanning

    fn scan(&mut self) {
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

    /// `copy(p)` of a pointer `p` without a section moves the pointer's value, not the data it
    /// points to (OpenACC 3.3, 2.7.1): the device then follows a host address, which works on
    /// the emulator (same address space) and faults on a GPU. Valid, so a warning.
    fn warn_bare_pointers(&mut self, i: usize) {
        let mut found = Vec::new();
        for c in &self.prs[i].dir.clauses {
            let ClauseKind::Data { kind, vars, .. } = &c.kind else {
                continue;
            };
            if !matches!(
                kind,
                DataKind::Copy | DataKind::CopyIn | DataKind::CopyOut | DataKind::Create
            ) {
                continue;
            }
            for v in vars.iter().filter(|v| v.is_plain()) {
                let ptr = self
                    .resolve(i, &v.name)
                    .and_then(|d| {
                        self.ast
                            .as_ref()
                            .map(|a| matches!(a.decl(d).ty, TypeClass::Pointer { .. }))
                    })
                    .unwrap_or(false);
                if ptr {
                    found.push((v.span, name_of(c.name), v.name.clone()));
                }
            }
        }
        for (span, clause, name) in found {
            self.warn(
                i,
                span,
                format!(
                    "'{clause}({name})' moves the pointer '{name}', not the data it points to; a device that follows it reads host memory (give the data's extent, e.g. '{clause}({name}[0:n])')"
                ),
            );
        }
    }

    fn note(&mut self, off: usize, kind: InfoKind, msg: impl Into<String>) {
        let l = self.sm.loc(off);
        self.info.push(Info {
            loc: l,
            kind,
            message: msg.into(),
        });
    }

    // ---------------------------------------------------------------- libclang

    fn load_ast(&mut self) {
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

    fn an(&self) -> Option<Analyzer<'_>> {
        self.ast.as_ref().map(|ast| Analyzer {
            ast,
            text: self.text,
        })
    }

    fn is_skippable_line(&self, li: usize) -> bool {
        let l = &self.sm.lines[li];
        let s = self.text[l.start..l.end].trim();
        s.is_empty()
            || acc_pragma_start(s).is_some()
            || super::srcmap::parse_line_marker(s).is_some()
            || self.is_blanked(l.start)
    }

    fn is_blanked(&self, off: usize) -> bool {
        self.edits
            .iter()
            .any(|e| e.start == off && e.text.is_empty())
    }

    /// Finds the statement or declaration each pragma applies to.
    fn associate(&mut self) {
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
    fn encloses(&self, i: usize, j: usize) -> bool {
        let (a, b) = (&self.prs[i], &self.prs[j]);
        i != j && a.stmt.is_some() && a.dir.kind.has_body() && b.off > a.end && b.off < a.stmt_end
    }

    fn enclosing_compute(&self, j: usize) -> Option<usize> {
        (0..self.prs.len())
            .filter(|&i| self.prs[i].dir.kind.is_compute() && self.encloses(i, j))
            .max_by_key(|&i| self.prs[i].off)
    }

    /// The lanes of a vector loop inside a worker loop (`Plan::lanes`): its `vector(n)`, else
    /// the region's `vector_length(n)`, else 32; at most 32, the lanes of the worker's warp.
    fn vector_lanes(&self, j: usize) -> i64 {
        self.lanes_for(self.vector_length_of(j).as_ref()).0
    }

    /// Why a lanes loop's vector length differs from the one written, if it does.
    fn lanes_note(&self, j: usize) -> Option<String> {
        self.lanes_for(self.vector_length_of(j).as_ref()).1
    }

    /// The vector length written for loop `j`: its `vector(n)`, else its region's `vector_length(n)`.
    fn vector_length_of(&self, j: usize) -> Option<Expr> {
        let region = if self.prs[j].dir.kind == DirectiveKind::Loop {
            self.enclosing_compute(j)
        } else {
            Some(j)
        };
        let own = self.prs[j].dir.clauses.iter().find_map(|c| match &c.kind {
            ClauseKind::Vector(Some(e)) => Some(e.clone()),
            _ => None,
        });
        own.or_else(|| {
            region.and_then(|r| {
                self.prs[r].dir.clauses.iter().find_map(|c| match &c.kind {
                    ClauseKind::VectorLength(e) => Some(e.clone()),
                    _ => None,
                })
            })
        })
    }

    /// The lanes a vector length asks for, and why it is not what was written when it is not.
    fn lanes_for(&self, len: Option<&Expr>) -> (i64, Option<String>) {
        match len {
            Some(e) => match e.int_literal() {
                Some(n @ 1..=32) => (n, None),
                Some(n) if n > 32 => (32, Some(format!("vector length {n} is more than a warp: 32 lanes per worker"))),
                _ => (32, Some(format!("vector length '{}' is not a positive integer constant: 32 lanes per worker", e.text.trim()))),
            },
            None => (32, None),
        }
    }

    /// Whether a compute region or loop has a vector loop on the lanes of its workers' warps.
    fn has_lanes_inside(&self, r: usize) -> bool {
        (0..self.prs.len())
            .any(|k| (k == r || self.encloses(r, k)) && self.plans.get(&k).is_some_and(|p| p.lanes))
    }

    // ---------------------------------------------------------------- loop levels

    fn plan_loops(&mut self) {
        for j in 0..self.prs.len() {
            if !self.prs[j].dir.kind.is_loop() {
                continue;
            }
            let region = if self.prs[j].dir.kind == DirectiveKind::Loop {
                self.enclosing_compute(j)
            } else {
                Some(j)
            };
            let plan = self.plan_for(j, region);
            self.plans.insert(j, plan);
        }
    }

    fn plan_for(&self, j: usize, region: Option<usize>) -> Plan {
        let d = &self.prs[j].dir;
        let mut p = Plan::default();
        let Some(r) = region else {
            p.why_seq = Some("orphaned loop: run sequentially by each thread that calls it".into());
            return p;
        };
        let rk = self.prs[r].dir.kind;
        if matches!(rk, DirectiveKind::Serial | DirectiveKind::SerialLoop) {
            p.why_seq = Some("serial region: one thread".into());
            return p;
        }
        if d.has(ClauseName::Seq) {
            p.why_seq = Some("seq clause".into());
            return p;
        }
        // kernels regions decide per loop nest elsewhere; loops nested in them follow the same rules.
        let enclosing_loops: Vec<usize> = (0..self.prs.len())
            .filter(|&i| {
                self.prs[i].dir.kind.is_loop()
                    && self.encloses(i, j)
                    && (i == r || self.encloses(r, i))
            })
            .collect();
        let mut used_gang = false;
        let mut used_thread = false;
        let mut used_worker = false;
        for &i in &enclosing_loops {
            if let Some(pl) = self.plans.get(&i) {
                used_gang |= pl.gang;
                used_thread |= pl.thread.is_some() || pl.simd || pl.lanes;
                used_worker |= pl.thread == Some("worker");
            }
        }
        let g = d.has(ClauseName::Gang);
        let w = d.has(ClauseName::Worker);
        let v = d.has(ClauseName::Vector);
        if g || w || v {
            if g && !used_gang && !used_thread {
                p.gang = true;
            }
            if w && !used_thread {
                p.thread = Some("worker");
                if v {
                    p.simd = true;
                }
            } else if v && !used_thread {
                p.thread = Some("vector");
            } else if v && used_worker && !used_thread_simd(&enclosing_loops, &self.plans) {
                if matches!(rk, DirectiveKind::Parallel | DirectiveKind::ParallelLoop) {
                    p.lanes = true;
                } else {
                    p.simd = true;
                }
            }
            if p.is_seq() {
                p.why_seq = Some("the enclosing loops already use these levels".into());
            }
            return p;
        }
        if d.has(ClauseName::Auto) {
            match self.loop_verdict(j) {
                Some(Verdict::Parallel { reductions, .. }) => p.found_reductions = reductions,
                Some(Verdict::Sequential(why)) => {
                    p.why_seq = Some(why);
                    return p;
                }
                None => {
                    p.why_seq = Some("auto loop without analysis".into());
                    return p;
                }
            }
        }
        // independent / auto proven / no level: the compiler chooses.
        let inner_levels = (0..self.prs.len()).any(|k| {
            self.prs[k].dir.kind == DirectiveKind::Loop
                && self.encloses(j, k)
                && (self.prs[k].dir.has(ClauseName::Worker)
                    || self.prs[k].dir.has(ClauseName::Vector))
        });
        if !used_gang && !used_thread {
            p.gang = true;
            if !inner_levels {
                p.thread = Some("vector");
            }
        } else if !used_thread {
            p.thread = Some(if inner_levels { "worker" } else { "vector" });
        } else {
            p.why_seq = Some("inner loop of a parallel loop".into());
        }
        p
    }

    /// OpenACC 3.3 multi-dimensional gangs (`num_gangs(a, b, c)`, `gang(dim:d)`). The gangs of
    /// all dimensions are the region's teams (a*b*c of them). A gang(dim:d) loop is distributed
    /// over them; gang(dim:e < d) loops tightly nested in it (its body is only that loop, whose
    /// bounds do not use the outer variables, and no other level or collapse) join its
    /// distribute as collapse(n), so every dimension is spread over the gangs. A gang(dim:e) loop
    /// that is not tightly nested runs inside the gang that runs the enclosing iteration
    /// (sequentially, or over its threads if it also has worker/vector): a correct execution,
    /// as the enclosing loop's iterations are already spread over the gangs. Errors: a
    /// gang(dim:e) loop inside a gang(dim:d) loop with e >= d (OpenACC's restriction), and
    /// gang(dim:d > 1) in a kernels region.
    fn plan_gang_dims(&mut self) {
        let dims: Vec<Option<(i64, bool)>> = self.prs.iter().map(|p| gang_dim(&p.dir)).collect();
        if !dims.iter().any(|d| matches!(d, Some((_, true)))) {
            return;
        }
        let mut errors: Vec<(usize, Span, String)> = Vec::new();
        for j in 0..self.prs.len() {
            let Some((dj, explicit_j)) = dims[j] else {
                continue;
            };
            if !self.prs[j].dir.kind.is_loop() {
                continue;
            }
            let span = self.prs[j]
                .dir
                .find(ClauseName::Gang)
                .map(|c| c.span)
                .unwrap_or(self.prs[j].dir.span);
            let region = if self.prs[j].dir.kind == DirectiveKind::Loop {
                self.enclosing_compute(j)
            } else {
                Some(j)
            };
            let in_kernels = region.is_some_and(|r| {
                matches!(
                    self.prs[r].dir.kind,
                    DirectiveKind::Kernels | DirectiveKind::KernelsLoop
                )
            });
            if explicit_j && dj > 1 && in_kernels {
                errors.push((
                    j,
                    span,
                    format!("ptxcc does not support 'gang(dim:{dj})' in a kernels region; use a parallel region"),
                ));
                continue;
            }
            for i in 0..self.prs.len() {
                if i == j || !self.prs[i].dir.kind.is_loop() || !self.encloses(i, j) {
                    continue;
                }
                if region.is_some_and(|r| i != r && !self.encloses(r, i)) {
                    continue;
                }
                let Some((di, explicit_i)) = dims[i] else {
                    continue;
                };
                if (explicit_i || explicit_j) && dj >= di {
                    let line = self.line_loc(self.prs[i].li, 0).line;
                    errors.push((
                        j,
                        span,
                        format!(
                            "a 'gang(dim:{dj})' loop cannot be inside the 'gang(dim:{di})' loop of line {line}: the inner dimension must be lower"
                        ),
                    ));
                }
            }
        }
        let failed: BTreeSet<usize> = errors.iter().map(|e| e.0).collect();
        for (j, span, m) in errors {
            self.error(j, span, m);
        }
        // Tightly nested chains: gang(dim:3) > gang(dim:2) > gang(dim:1).
        let mut chains: Vec<(usize, Vec<usize>)> = Vec::new();
        if let Some(an) = self.an() {
            for j in 0..self.prs.len() {
                let Some((dj, true)) = dims[j] else { continue };
                let d = &self.prs[j].dir;
                if dj < 2
                    || failed.contains(&j)
                    || d.has(ClauseName::Collapse)
                    || d.has(ClauseName::Tile)
                    || !self
                        .plans
                        .get(&j)
                        .is_some_and(|p| p.gang && p.thread.is_none() && !p.simd)
                {
                    continue;
                }
                let Some(mut cur) = self.prs[j].stmt.and_then(|s| an.for_loop(s)) else {
                    continue;
                };
                let mut vars = vec![cur.var];
                let mut chain = Vec::new();
                let mut dim = dj;
                while let Some(inner) = an.perfectly_nested(&cur) {
                    let Some(k) = (0..self.prs.len()).find(|&k| {
                        self.prs[k].dir.kind == DirectiveKind::Loop
                            && self.prs[k].stmt == Some(inner.node)
                    }) else {
                        break;
                    };
                    let Some((e, _)) = dims[k] else { break };
                    let kd = &self.prs[k].dir;
                    let other_levels = [
                        ClauseName::Worker,
                        ClauseName::Vector,
                        ClauseName::Seq,
                        ClauseName::Collapse,
                        ClauseName::Tile,
                    ]
                    .iter()
                    .any(|c| kd.has(*c));
                    let bounds_ok = an.bounds_independent_of(&inner, &vars);
                    if e >= dim || other_levels || !bounds_ok || failed.contains(&k) {
                        break;
                    }
                    chain.push(k);
                    vars.push(inner.var);
                    dim = e;
                    cur = inner;
                }
                if !chain.is_empty() {
                    chains.push((j, chain));
                }
            }
        }
        for (j, chain) in chains {
            if let Some(p) = self.plans.get_mut(&j) {
                p.gang_collapse = chain.len() + 1;
            }
            for k in chain {
                self.gang_collapsed.insert(k, j);
            }
        }
        // gang(dim:e) loops left inside another gang loop: say why they are not spread over gangs.
        for k in 0..self.prs.len() {
            if !matches!(dims[k], Some((_, true))) || self.gang_collapsed.contains_key(&k) {
                continue;
            }
            let under_gang = (0..self.prs.len())
                .any(|i| self.encloses(i, k) && self.plans.get(&i).is_some_and(|p| p.gang));
            if let Some(p) = self.plans.get_mut(&k) {
                if under_gang && !p.gang && p.why_seq.is_some() {
                    p.why_seq = Some(
                        "gang loop not tightly nested in the enclosing gang loop: run by the gang that runs the enclosing iteration"
                            .into(),
                    );
                }
            }
        }
    }

    fn loop_of(&self, j: usize) -> Option<ForLoop> {
        let an = self.an()?;
        an.for_loop(self.prs[j].stmt?)
    }

    fn loop_verdict(&self, j: usize) -> Option<Verdict> {
        let an = self.an()?;
        let fl = an.for_loop(self.prs[j].stmt?)?;
        Some(an.test(&fl))
    }

    // ---------------------------------------------------------------- edits

    fn edit(&mut self, start: usize, end: usize, text: String) {
        self.seq += 1;
        let origins = self.cur.into_iter().collect();
        self.edits.push(Edit {
            start,
            end,
            text,
            seq: self.seq,
            origins,
        });
    }

    /// Replaces pragma `i`'s line by `lines` (a marker follows when there are several).
    fn replace_pragma(&mut self, i: usize, lines: Vec<String>) {
        if !self.done.insert(i) {
            return;
        }
        let (s, e, li) = (self.prs[i].off, self.prs[i].end, self.prs[i].li);
        let text = match lines.len() {
            0 => String::new(),
            1 => lines.into_iter().next().unwrap_or_default(),
            _ => {
                let mut o = self.sm.origin(li);
                o.line += 1;
                format!("{}\n{}", lines.join("\n"), SourceMap::marker(&o))
            }
        };
        self.edit(s, e, text);
        // The replacement stands for pragma i, whichever construct's translation wrote it.
        if let Some(last) = self.edits.last_mut() {
            last.origins.retain(|&o| o != i);
            last.origins.insert(0, i);
        }
    }

    /// Inserts whole lines before byte `off`, then a marker and padding so `off` keeps its line and column.
    fn insert_lines(&mut self, off: usize, prefix: &str, lines: &[String]) {
        let li = self.sm.line_of(off);
        let o: Origin = self.sm.origin(li);
        let ls = self.sm.lines[li].start;
        let col = off.saturating_sub(ls);
        if prefix.is_empty() && self.text[ls..off].trim().is_empty() && !self.is_blanked(ls) {
            // Only indentation before: the lines go above, the original line stays as it is.
            let text = format!("{}\n{}\n", lines.join("\n"), SourceMap::marker(&o));
            self.edit(ls, ls, text);
            return;
        }
        let pad = " ".repeat(col);
        let text = format!(
            "{prefix}\n{}\n{}\n{pad}",
            lines.join("\n"),
            SourceMap::marker(&o)
        );
        self.edit(off, off, text);
    }

    fn insert(&mut self, off: usize, s: &str) {
        self.edit(off, off, s.to_string());
    }

    fn apply(&mut self) -> String {
        let mut edits = std::mem::take(&mut self.edits);
        edits.sort_by_key(|e| (e.start, e.seq));
        let mut out = String::with_capacity(self.text.len() + 1024);
        let mut pos = 0;
        let mut generated = Vec::new();
        for e in &edits {
            if e.start < pos || e.end > self.text.len() || e.start > e.end {
                continue;
            }
            out.push_str(&self.text[pos..e.start]);
            if !e.origins.is_empty() && !e.text.is_empty() {
                let text = self.pin_lines(&e.text, self.sm.line_of(e.start));
                generated.push((out.len(), out.len() + text.len(), e.origins.clone()));
                out.push_str(&text);
            } else {
                out.push_str(&e.text);
            }
            pos = e.end;
        }
        self.generated = generated;
        out.push_str(&self.text[pos..]);
        let mut prelude = String::new();
        if self.need_queue {
            prelude.push_str(&format!(
                "__attribute__((weak)) char {QUEUE}[64]; int {DEFAULT_ASYNC}(void); /* ptxcc: OpenACC async queues */\n"
            ));
        }
        if self.need_acc_api {
            prelude.push_str(
                "void acc_init(int); void acc_shutdown(int); void acc_init_device(int, int); void acc_shutdown_device(int, int); void acc_set_device_type(int); void acc_set_device_num(int, int); void acc_set_default_async(int); /* ptxcc: openacc.h not included */\n",
            );
        }
        if self.need_finalize_fn {
            prelude.push_str("void __ptxrt_acc_finalize(const void *, unsigned long); /* ptxcc: exit data copyout finalize */\n");
        }
        if self.need_no_create_fn {
            prelude.push_str("unsigned long __ptxrt_acc_no_create_len(const void *, unsigned long, unsigned long); /* ptxcc: no_create */\n");
        }
        if self.need_wait_fn {
            prelude.push_str("void __ptxrt_acc_wait_queue(int); void __ptxrt_acc_wait_all_queues(void); void __ptxrt_acc_wait_queue_async(int, int); void __ptxrt_acc_wait_all_queues_async(int); /* ptxcc: OpenACC wait */\n");
        }
        if self.need_update_fn {
            prelude.push_str("void acc_update_self(void *, unsigned long); void acc_update_device(void *, unsigned long); /* ptxcc: update of a static declare variable */\n");
        }
        if self.need_team_fns {
            prelude.push_str("int omp_get_team_num(void); int omp_get_num_teams(void); /* ptxcc: loop gang of a routine gang */\n");
        }
        if self.need_omp_api {
            prelude.push_str(
                "int omp_target_is_present(const void *, int); int omp_get_default_device(void);\n",
            );
        }
        if prelude.is_empty() {
            return out;
        }
        let first_is_marker = out
            .lines()
            .next()
            .is_some_and(|l| super::srcmap::parse_line_marker(l).is_some());
        if !first_is_marker {
            let o = self.sm.origin(0);
            prelude.push_str(&SourceMap::marker(&Origin {
                file: o.file,
                line: 1,
                flags: o.flags,
            }));
            prelude.push('\n');
        }
        for g in &mut self.generated {
            g.0 += prelude.len();
            g.1 += prelude.len();
        }
        prelude + &out
    }

    /// `text`, generated at preprocessed line `li`, with a line marker before each of its lines
    /// after the first, so that they all count as that line (the pragma's, or that of the
    /// statement they are inserted before) and not as the user's lines after it: clang's
    /// diagnostics on them (-fno-caret-diagnostics, where the quote cannot tell the lines
    /// apart), debug line tables and the runtime's messages then name the line they came from.
    /// Its last line is a marker, or the rest of a user's line after one, and stays as it is.
    fn pin_lines(&self, text: &str, li: usize) -> String {
        if !text.contains('\n') {
            return text.to_string();
        }
        let pin = SourceMap::marker(&self.sm.origin(li));
        let parts: Vec<&str> = text.split('\n').collect();
        let mut out = String::with_capacity(text.len() + 32 * parts.len());
        for (k, part) in parts.iter().enumerate() {
            if k > 0 {
                out.push('\n');
                if k + 1 < parts.len() && super::srcmap::parse_line_marker(part).is_none() {
                    out.push_str(&pin);
                    out.push('\n');
                }
            }
            out.push_str(part);
        }
        out
    }

    /// Where clang's diagnostics on the generated parts of `out` (apply's result) belong.
    fn diag_map(&self, out: &str) -> DiagMap {
        let mut pragmas = HashMap::new();
        for (_, _, origins) in &self.generated {
            for &i in origins {
                pragmas.entry(i).or_insert_with(|| {
                    let p = &self.prs[i];
                    let o = self.sm.origin(p.li);
                    PragmaSrc {
                        text: p.text.clone(),
                        line: self.text[p.off..p.end].to_string(),
                        file: o.file,
                        line_no: o.line,
                        pieces: diagmap::pieces(&p.dir),
                    }
                });
            }
        }
        DiagMap::new(out, &self.generated, pragmas, self.file)
    }

    // ---------------------------------------------------------------- clause helpers

    fn queue(&mut self, e: Option<&Expr>) -> String {
        self.need_queue = true;
        match e {
            Some(e) => format!("{QUEUE}[(unsigned)({}) % 64u]", e.text.trim()),
            None => format!("{QUEUE}[(unsigned){DEFAULT_ASYNC}() % 64u]"),
        }
    }

    /// `nowait`/`depend` clauses for async/wait on a construct that takes them, and the lines
    /// that must run before it (a `wait` without queues).
    fn async_clauses(
        &mut self,
        d: &Directive,
        out: &mut Vec<String>,
        before: &mut Vec<String>,
        can_nowait: bool,
    ) {
        let mut deps_in: Vec<String> = Vec::new();
        let mut dep_out: Option<String> = None;
        for c in &d.clauses {
            if let ClauseKind::Wait(w) = &c.kind {
                match w {
                    None => before.push("#pragma omp taskwait".into()),
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
                out.push("nowait".into());
            }
            for q in &deps_in {
                out.push(format!("depend(in: {q})"));
            }
            if let Some(o) = dep_out {
                out.push(format!("depend(inout: {o})"));
            }
        } else if !deps_in.is_empty() {
            before.push(format!(
                "#pragma omp taskwait {}",
                deps_in
                    .iter()
                    .map(|q| format!("depend(inout: {q})"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
    }

    /// `no_create(v)` as an OpenMP list item that maps nothing when the data is absent: the
    /// length of its first section is `__ptxrt_acc_no_create_len(addr, bytes, len)`, which is
    /// `len` when the data is present and 0 when not, and an unmapped zero-length section keeps
    /// the host address (OpenMP 5.1). A whole array becomes `a[0:…]`, an element `a[i]` the
    /// section `a[i:1]`, a pointer `p[0:0]` (the data it points to). None for what has no
    /// section form (a scalar, a struct, a member without subscript): see `data_maps`.
    fn no_create_item(&mut self, i: usize, v: &VarRef) -> Result<Option<String>, String> {
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
    fn no_create_maps(&mut self, i: usize, vars: &[VarRef]) -> Vec<String> {
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
            out.push(format!("map({HOLD}alloc: {})", sections.join(", ")));
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
            out.push(format!("map({HOLD}tofrom: {})", copies.join(", ")));
        }
        out
    }

    fn data_maps(&mut self, i: usize, d: &Directive, out: &mut Vec<String>, compute: bool) {
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
                let l = if matches!(kind, DataKind::Present) {
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
                        .collect::<Vec<_>>()
                        .join(", ")
                } else {
                    join(vars)
                };
                // Structured data (data and compute constructs) holds its data with libomptarget's
                // hold count (OpenACC's structured reference counter, as Clacc maps it): exit data,
                // acc_copyout and acc_delete inside the region only touch the dynamic count.
                let s = match kind {
                    DataKind::Copy => format!("map({HOLD}tofrom: {l})"),
                    DataKind::CopyIn => format!("map({HOLD}to: {l})"),
                    DataKind::CopyOut => format!("map({HOLD}from: {l})"),
                    DataKind::Create | DataKind::DeviceResident => format!("map({HOLD}alloc: {l})"),
                    DataKind::NoCreate => continue,
                    DataKind::Present => format!("map({HOLD}present, alloc: {l})"),
                    DataKind::DevicePtr => {
                        if compute {
                            format!("is_device_ptr({l})")
                        } else {
                            continue;
                        }
                    }
                    DataKind::Attach => format!("map({HOLD}alloc: {})", attach_list(vars)),
                    // Not allowed on structured constructs (the parser says so); kept dynamic.
                    DataKind::Detach => format!("map(release: {})", attach_list(vars)),
                    DataKind::Delete => format!("map(release: {l})"),
                    DataKind::Link => format!("map({HOLD}alloc: {l})"),
                };
                out.push(s);
            }
        }
    }

    fn if_clause(&self, d: &Directive, target_modifier: bool) -> Option<String> {
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
        let m = if target_modifier { "target: " } else { "" };
        match (cond, selfc) {
            (None, None) => None,
            (Some(c), None) => Some(format!("if({m}{c})")),
            (None, Some(s)) => Some(format!("if({m}!({s}))")),
            (Some(c), Some(s)) => Some(format!("if({m}({c}) && !({s}))")),
        }
    }

    // ---------------------------------------------------------------- region analysis

    /// Names and data attributes listed by pragma `i` and by enclosing data constructs / declares.
    fn listed_names(&self, i: usize) -> (BTreeSet<String>, BTreeSet<String>, Option<DefaultKind>) {
        let mut listed = BTreeSet::new();
        let mut devptr = BTreeSet::new();
        let mut default = None;
        let add = |d: &Directive, listed: &mut BTreeSet<String>, devptr: &mut BTreeSet<String>| {
            for c in &d.clauses {
                match &c.kind {
                    ClauseKind::Data { kind, vars, .. } => {
                        for v in vars {
                            listed.insert(v.name.clone());
                            if *kind == DataKind::DevicePtr {
                                devptr.insert(v.name.clone());
                            }
                        }
                    }
                    ClauseKind::Private(v)
                    | ClauseKind::FirstPrivate(v)
                    | ClauseKind::Reduction { vars: v, .. } => {
                        for x in v {
                            listed.insert(x.name.clone());
                        }
                    }
                    _ => {}
                }
            }
        };
        add(&self.prs[i].dir, &mut listed, &mut devptr);
        if let Some(c) = self.prs[i].dir.find(ClauseName::Default) {
            if let ClauseKind::Default(k) = c.kind {
                default = Some(k);
            }
        }
        for k in 0..self.prs.len() {
            let dk = self.prs[k].dir.kind;
            let enclosing_data =
                (dk == DirectiveKind::Data || dk == DirectiveKind::HostData) && self.encloses(k, i);
            let declare_before = dk == DirectiveKind::Declare
                && self.prs[k].off < self.prs[i].off
                && (self.prs[k].func.is_none() || self.prs[k].func == self.prs[i].func);
            // Loops inside the region: their reductions and privates count as listed.
            let inner_loop = dk == DirectiveKind::Loop && self.encloses(i, k);
            if enclosing_data || declare_before || inner_loop {
                let d = self.prs[k].dir.clone();
                add(&d, &mut listed, &mut devptr);
                if enclosing_data && default.is_none() {
                    if let Some(c) = d.find(ClauseName::Default) {
                        if let ClauseKind::Default(kk) = c.kind {
                            default = Some(kk);
                        }
                    }
                }
            }
        }
        (listed, devptr, default)
    }

    /// Loop control variables of acc loops in the region (predetermined private).
    fn loop_vars_in(&self, i: usize) -> BTreeSet<DeclId> {
        let mut s = BTreeSet::new();
        let Some(an) = self.an() else { return s };
        for k in 0..self.prs.len() {
            if self.prs[k].dir.kind.is_loop() && (k == i || self.encloses(i, k)) {
                if let Some(fl) = self.prs[k].stmt.and_then(|n| an.for_loop(n)) {
                    s.insert(fl.var);
                    let depth = self.prs[k].dir.clauses.iter().find_map(|c| match &c.kind {
                        ClauseKind::Collapse { count, .. } => Some(*count as usize),
                        ClauseKind::Tile(t) => Some(t.len()),
                        _ => None,
                    });
                    let mut cur = fl;
                    for _ in 1..depth.unwrap_or(1) {
                        match an.perfectly_nested(&cur) {
                            Some(n) => {
                                s.insert(n.var);
                                cur = n;
                            }
                            None => break,
                        }
                    }
                }
            }
        }
        s
    }

    fn is_system(&self, d: &cast::DeclInfo) -> bool {
        d.loc == usize::MAX || self.sm.origin(self.sm.line_of(d.loc)).flags.contains('3')
    }

    /// Implicit data attributes of compute construct `i`: explicit maps for what OpenMP's
    /// defaults would get wrong, and default(none) errors.
    fn implicit_clauses(&mut self, i: usize, kernels: bool, out: &mut Vec<String>) {
        let Some(stmt) = self.prs[i].stmt else { return };
        let (listed, devptr, default) = self.listed_names(i);
        let loop_vars = self.loop_vars_in(i);
        let refs = match self.an() {
            Some(an) => an.outside_refs(stmt),
            None => return,
        };
        let mut present = Vec::new();
        let mut tofrom = Vec::new();
        let mut isdev = Vec::new();
        let mut errors = Vec::new();
        let written = self.written_in(stmt);
        let enclosing_listed = {
            // Names listed on enclosing data constructs / declares only (not on this construct).
            let mut s = BTreeSet::new();
            for k in 0..self.prs.len() {
                let dk = self.prs[k].dir.kind;
                if (dk == DirectiveKind::Data && self.encloses(k, i))
                    || (dk == DirectiveKind::Declare
                        && self.prs[k].off < self.prs[i].off
                        && self.prs[k].func.is_some()
                        && self.prs[k].func == self.prs[i].func)
                {
                    for c in &self.prs[k].dir.clauses {
                        if let ClauseKind::Data { kind, vars, .. } = &c.kind {
                            if *kind != DataKind::DevicePtr {
                                for v in vars {
                                    s.insert(v.name.clone());
                                }
                            }
                        }
                    }
                }
            }
            s
        };
        let own_listed: BTreeSet<String> = {
            let mut s = BTreeSet::new();
            for c in &self.prs[i].dir.clauses {
                match &c.kind {
                    ClauseKind::Data { vars, .. }
                    | ClauseKind::Private(vars)
                    | ClauseKind::FirstPrivate(vars)
                    | ClauseKind::Reduction { vars, .. } => {
                        for v in vars {
                            s.insert(v.name.clone());
                        }
                    }
                    _ => {}
                }
            }
            s
        };
        let Some(ast) = &self.ast else { return };
        // Variables indexed as arrays in the region (`p[i]`).
        let mut subscripted = BTreeSet::new();
        ast.walk(stmt, &mut |k| {
            let n = ast.node(k);
            if n.kind == NK::Subscript {
                if let Some(&b) = n.children.first() {
                    let b = ast.strip(b);
                    if ast.node(b).kind == NK::DeclRef {
                        if let Some(dd) = ast.node(b).decl {
                            subscripted.insert(dd);
                        }
                    }
                }
            }
        });
        for (d, first) in refs {
            let di = ast.decl(d);
            if loop_vars.contains(&d) || self.is_system(di) {
                continue;
            }
            let name = di.name.clone();
            if devptr.contains(&name) && !own_listed.contains(&name) {
                isdev.push(name.clone());
                continue;
            }
            if listed.contains(&name) {
                if enclosing_listed.contains(&name)
                    && !own_listed.contains(&name)
                    && di.ty.is_scalar()
                {
                    // A scalar present on the device: use that copy, not a firstprivate one (a
                    // global too: OpenMP makes a global scalar firstprivate like any other; a
                    // declare target one is always present, so the map moves nothing).
                    tofrom.push(name);
                }
                continue;
            }
            match default {
                Some(DefaultKind::None) => {
                    if di.kind == DeclKind::Var && di.is_global && di.is_const {
                        continue;
                    }
                    errors.push((first, name));
                    continue;
                }
                Some(DefaultKind::Present)
                    if !di.ty.is_scalar() && !matches!(di.ty, TypeClass::Pointer { .. }) =>
                {
                    present.push(name);
                    continue;
                }
                // A pointer used as an array: the data it points to must be present.
                Some(DefaultKind::Present)
                    if matches!(di.ty, TypeClass::Pointer { .. }) && subscripted.contains(&d) =>
                {
                    present.push(format!("{name}[0:0]"));
                    continue;
                }
                _ => {}
            }
            // kernels: a scalar the region writes is copy (globals too; declare target ones are
            // present, so the map moves nothing).
            if kernels && di.ty.is_scalar() && written.contains(&d) {
                tofrom.push(name);
            }
        }
        for (first, name) in errors {
            let off = ast.node(first).start;
            let kind = self.prs[i].dir.kind.spelling();
            let l = self.sm.loc(off);
            self.diags.push(Diagnostic {
                loc: Some(l),
                message: format!(
                    "variable '{name}' is used in the '#pragma acc {kind}' region with default(none) but appears in no data clause"
                ),
            });
        }
        if !present.is_empty() {
            out.push(format!("map(present, alloc: {})", present.join(", ")));
        }
        if !tofrom.is_empty() {
            out.push(format!("map(tofrom: {})", tofrom.join(", ")));
        }
        if !isdev.is_empty() {
            out.push(format!("is_device_ptr({})", isdev.join(", ")));
        }
    }

    fn written_in(&self, stmt: NodeId) -> BTreeSet<DeclId> {
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
    fn resolve(&self, i: usize, name: &str) -> Option<DeclId> {
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
        ast.decls
            .iter()
            .enumerate()
            .filter(|(_, d)| {
                d.name == name
                    && matches!(d.kind, DeclKind::Var | DeclKind::Param)
                    && d.loc != usize::MAX
                    && d.loc < off
            })
            .max_by_key(|(_, d)| d.loc)
            .map(|(k, _)| k)
    }

    fn check_reductions(&mut self, i: usize) {
        if self.ast.is_none() {
            return;
        }
        let d = self.prs[i].dir.clone();
        for c in &d.clauses {
            if let ClauseKind::Reduction { op, vars } = &c.kind {
                for v in vars {
                    let Some(decl) = self.resolve(i, &v.name) else {
                        continue;
                    };
                    let (ty, name, tyname) = {
                        let di = self.ast.as_ref().map(|a| a.decl(decl).clone());
                        let Some(di) = di else { continue };
                        let ty = if v.path.is_empty() { di.ty } else { di.elem };
                        (ty, di.name.clone(), di.type_name.clone())
                    };
                    let ty = match ty {
                        TypeClass::Array { .. } | TypeClass::IncompleteArray
                            if v.path.is_empty() =>
                        {
                            self.ast.as_ref().map(|a| a.decl(decl).elem).unwrap_or(ty)
                        }
                        t => t,
                    };
                    if v.has_member() {
                        continue;
                    }
                    if !reduction_allowed(*op, ty) {
                        self.error(
                            i,
                            v.span,
                            format!(
                                "reduction operator '{}' is not allowed for variable '{}' of type '{}'",
                                op.spelling(),
                                name,
                                tyname
                            ),
                        );
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------- per directive

    fn needs_stmt(&mut self, i: usize) -> bool {
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

    fn translate_one(&mut self, i: usize) {
        let k = self.prs[i].dir.kind;
        self.check_reductions(i);
        use DirectiveKind as D;
        let structured = matches!(
            k,
            D::Parallel
                | D::Serial
                | D::ParallelLoop
                | D::SerialLoop
                | D::Kernels
                | D::KernelsLoop
                | D::Data
        );
        // Sections through arrays of pointers: enter data before the construct (inserted first,
        // so they come before its own lines), exit data after it (after its own lines).
        if structured || matches!(k, D::EnterData | D::ExitData) {
            self.warn_bare_pointers(i);
        }
        let jag = if structured {
            self.structured_jagged(i)
        } else {
            None
        };
        if let Some((pre, _)) = &jag {
            let off = self.prs[i].off;
            self.insert_lines(off, "", pre);
        }
        if k == D::Loop {
            self.check_level_nesting(i);
        }
        // OpenMP's private/firstprivate take variables, not array sections (clang would refuse
        // the section on the translated text).
        let sections: Vec<(Span, &'static str, String)> = self.prs[i]
            .dir
            .clauses
            .iter()
            .flat_map(|c| match &c.kind {
                ClauseKind::Private(v) | ClauseKind::FirstPrivate(v) => v
                    .iter()
                    .filter(|x| x.has_section())
                    .map(|x| (x.span, name_of(c.name), x.render()))
                    .collect::<Vec<_>>(),
                _ => Vec::new(),
            })
            .collect();
        for (span, clause, v) in sections {
            self.error(
                i,
                span,
                format!("ptxcc does not support an array section in '{clause}' ('{v}'); make a local array in the loop body, or name a whole array variable"),
            );
        }
        if !matches!(k, D::Loop | D::Atomic | D::Cache | D::Routine | D::Declare) {
            if let Some(r) = self.enclosing_compute(i) {
                // OpenMP forbids these in a target region too, but clang would say so in terms of
                // the OpenMP text.
                let (what, line) = (
                    self.prs[r].dir.kind.spelling(),
                    self.line_loc(self.prs[r].li, 0).line,
                );
                let span = self.prs[i].dir.span;
                let name = k.spelling();
                self.error(
                    i,
                    span,
                    format!("'#pragma acc {name}' may not appear inside a compute construct ('#pragma acc {what}' of line {line})"),
                );
                return;
            }
        }
        self.dispatch(i, k);
        if let Some((_, post)) = jag {
            if self.prs[i].stmt.is_some() {
                let e = self.prs[i].stmt_end;
                self.insert_lines(e, "", &post);
            }
        }
    }

    /// OpenACC 3.3, 2.9.2-2.9.4: the region of a gang loop may not contain another gang loop,
    /// that of a worker loop no gang or worker loop, that of a vector loop no loop with a level.
    /// (Nests of gang(dim:) loops are checked with the gang dimensions, and gang-in-gang nests
    /// of kernels regions are accepted, see below.) Without this error the inner loop's level
    /// would silently be dropped (run sequentially).
    fn check_level_nesting(&mut self, j: usize) {
        let levels = |d: &Directive| {
            [ClauseName::Gang, ClauseName::Worker, ClauseName::Vector].map(|n| d.has(n))
        };
        let inner = levels(&self.prs[j].dir);
        if inner == [false; 3] {
            return;
        }
        let Some(r) = self.enclosing_compute(j) else {
            return;
        };
        // PGI-style kernels code nests gang loops (nvc gives them a 2-D grid); ptxcc runs the
        // inner one's other levels (or sequentially), so that nest is let through there.
        let kernels = matches!(
            self.prs[r].dir.kind,
            DirectiveKind::Kernels | DirectiveKind::KernelsLoop
        );
        let inner_dim = gang_dim(&self.prs[j].dir).is_some_and(|(_, given)| given) || kernels;
        let mut around: Vec<usize> = (0..self.prs.len())
            .filter(|&i| {
                self.prs[i].dir.kind.is_loop()
                    && self.encloses(i, j)
                    && (i == r || self.encloses(r, i))
            })
            .collect();
        around.sort_by_key(|&i| std::cmp::Reverse(self.prs[i].off));
        const NAMES: [&str; 3] = ["gang", "worker", "vector"];
        for i in around {
            let outer = levels(&self.prs[i].dir);
            let outer_dim = gang_dim(&self.prs[i].dir).is_some_and(|(_, given)| given);
            // Level a (inner) may not be inside level b (outer) when b is a or a level below it.
            let clash = (0..3).find_map(|a| {
                (a..3)
                    .find(|&b| {
                        inner[a] && outer[b] && !(a == 0 && b == 0 && (inner_dim || outer_dim))
                    })
                    .map(|b| (a, b))
            });
            let Some((a, b)) = clash else { continue };
            let name = [ClauseName::Gang, ClauseName::Worker, ClauseName::Vector][a];
            let span = self.prs[j]
                .dir
                .find(name)
                .map(|c| c.span)
                .unwrap_or(self.prs[j].dir.span);
            let line = self.line_loc(self.prs[i].li, 0).line;
            let (inner_name, outer_name) = (NAMES[a], NAMES[b]);
            self.error(
                j,
                span,
                format!(
                    "a '{inner_name}' loop may not be inside the '{outer_name}' loop of line {line} (OpenACC: the region of a {outer_name} loop contains no loop of its level or an outer one); use 'seq' or another level"
                ),
            );
            return;
        }
    }

    fn dispatch(&mut self, i: usize, k: DirectiveKind) {
        use DirectiveKind as D;
        match k {
            D::Parallel | D::Serial | D::ParallelLoop | D::SerialLoop => self.compute(i),
            D::Kernels | D::KernelsLoop => self.kernels(i),
            D::Loop => self.loop_(i),
            D::Data => self.data(i),
            D::EnterData | D::ExitData => self.enter_exit(i),
            D::Update => self.update(i),
            D::HostData => self.host_data(i),
            D::Declare => self.declare(i),
            D::Routine => self.routine(i),
            D::Atomic => self.atomic(i),
            D::Wait => self.wait(i),
            D::Cache => {
                let vars = if let DirectiveArg::Cache { vars, .. } = &self.prs[i].dir.arg {
                    join(vars)
                } else {
                    String::new()
                };
                self.replace_pragma(
                    i,
                    vec![format!(
                        "/* acc cache({vars}): no-op, the data stays in device memory */"
                    )],
                );
            }
            D::Init | D::Shutdown | D::Set => self.runtime_call(i),
        }
    }

    // ---------------------------------------------------------------- arrays of pointers

    /// The type levels of what `v` subscripts (`jagged::Levels`): its variable's
    /// (`DeclInfo::levels`), or its last member's (`DeclInfo::fields`); empty when unknown.
    fn levels_of(&self, i: usize, v: &VarRef) -> jagged::Levels {
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
            .find(|(k, _)| *k == key)
            .map(|(_, l)| l.clone())
            .unwrap_or_default();
        jagged::Levels {
            classes,
            first: last + 1,
        }
    }

    /// Removes the sections through arrays of pointers (`a[0:n][0:m]` with `double **a`, see
    /// jagged.rs) from pragma `i`'s data clauses and returns them with their clause's kind.
    /// Those of other kinds than `kinds`, or with the `zero:` modifier, are errors.
    fn take_jagged(
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
    fn structured_jagged(&mut self, i: usize) -> Option<(Vec<String>, Vec<String>)> {
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
        let tail = tail.join(" ");
        let mut pre = vec!["{".to_string()];
        pre.extend(before);
        let mut post: Vec<String> = Vec::new();
        let moves = |kind: &DataKind| match kind {
            K::Copy => Some(("to", "from")),
            K::CopyIn => Some(("to", "release")),
            K::CopyOut => Some(("alloc", "from")),
            K::Create => Some(("alloc", "release")),
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
                pre.push(
                    format!(
                        "#pragma omp target enter data map({en}: {}) {tail}",
                        v.render()
                    )
                    .trim_end()
                    .to_string(),
                );
                base_post.push(
                    format!(
                        "#pragma omp target exit data map({ex}: {}) {tail}",
                        v.render()
                    )
                    .trim_end()
                    .to_string(),
                );
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
    fn standalone_jagged(&mut self, i: usize, finalize: bool, tail: &str) -> Vec<String> {
        use DataKind as K;
        let items = self.take_jagged(i, &[K::CopyIn, K::Create, K::CopyOut, K::Delete]);
        let mut out = Vec::new();
        for (kind, v, levels) in &items {
            let lines = match kind {
                K::CopyIn => jagged::enter(v, levels, "to", tail, &mut self.tmp),
                K::Create => jagged::enter(v, levels, "alloc", tail, &mut self.tmp),
                K::CopyOut => jagged::exit(v, levels, "from", tail, &mut self.tmp),
                K::Delete => jagged::exit(
                    v,
                    levels,
                    if finalize { "delete" } else { "release" },
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

    fn loop_clauses(&mut self, i: usize, plan: &Plan, out: &mut Vec<String>, region_is_self: bool) {
        let d = self.prs[i].dir.clone();
        let parallel = !plan.is_seq();
        let mut private: Vec<String> = Vec::new();
        if plan.gang_collapse > 1 {
            out.push(format!("collapse({})", plan.gang_collapse));
            // The collapsed gang loops' private variables.
            let inner: Vec<usize> = self
                .gang_collapsed
                .iter()
                .filter(|(_, &o)| o == i)
                .map(|(&k, _)| k)
                .collect();
            for k in inner {
                for c in &self.prs[k].dir.clauses {
                    if let ClauseKind::Private(v) = &c.kind {
                        private.extend(v.iter().map(|x| x.render()));
                    }
                }
            }
        }
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::Collapse { count, .. } if parallel && *count > 1 => {
                    out.push(format!("collapse({count})"))
                }
                ClauseKind::Tile(t) if parallel && t.len() > 1 => {
                    out.push(format!("collapse({})", t.len()))
                }
                ClauseKind::Private(v) => private.extend(v.iter().map(|x| x.render())),
                ClauseKind::Reduction { op, vars } => {
                    if plan.thread.is_some() || plan.simd || plan.lanes || region_is_self {
                        out.push(format!("reduction({}: {})", op.spelling(), join(vars)));
                    }
                }
                ClauseKind::Gang(g) => {
                    if let Some(st) = &g.static_ {
                        if plan.gang {
                            match st {
                                GangStatic::Star => out.push("dist_schedule(static)".into()),
                                GangStatic::Size(e) => {
                                    out.push(format!("dist_schedule(static, {})", e.text.trim()))
                                }
                            }
                        }
                    }
                }
                ClauseKind::Worker(Some(e)) | ClauseKind::Vector(Some(e))
                    if plan.thread.is_some() =>
                {
                    out.push(format!("num_threads({})", e.text.trim()));
                }
                _ => {}
            }
        }
        for (op, dcl) in &plan.found_reductions {
            let n = self
                .ast
                .as_ref()
                .map(|a| a.decl(*dcl).name.clone())
                .unwrap_or_default();
            if !out
                .iter()
                .any(|o| o.starts_with("reduction(") && o.contains(&n))
            {
                out.push(format!("reduction({}: {})", op.spelling(), n));
            }
        }
        // Each thread needs its own copy of nested loop counters and write-first scalars.
        if parallel {
            if let (Some(an), Some(stmt)) = (self.an(), self.prs[i].stmt) {
                if let Some(fl) = an.for_loop(stmt) {
                    let listed: BTreeSet<String> = d
                        .clauses
                        .iter()
                        .flat_map(|c| match &c.kind {
                            ClauseKind::Private(v)
                            | ClauseKind::FirstPrivate(v)
                            | ClauseKind::Reduction { vars: v, .. } => {
                                v.iter().map(|x| x.name.clone()).collect::<Vec<_>>()
                            }
                            _ => Vec::new(),
                        })
                        .collect();
                    let stmt_start = an.ast.node(stmt).start;
                    let mut extra: Vec<String> = Vec::new();
                    let collapse_vars = self.loop_vars_in(i);
                    for d in an.auto_private(&fl) {
                        let di = an.ast.decl(d);
                        // Only variables declared outside the loop statement.
                        if di.loc != usize::MAX && di.loc >= stmt_start {
                            continue;
                        }
                        if listed.contains(&di.name)
                            || collapse_vars.contains(&d)
                            || found_red(&plan.found_reductions, d)
                        {
                            continue;
                        }
                        extra.push(di.name.clone());
                    }
                    if !extra.is_empty() {
                        let s = stmt_start;
                        self.note(
                            s,
                            InfoKind::Loop,
                            format!("made private to each thread: {}", extra.join(", ")),
                        );
                        private.extend(extra);
                    }
                }
            }
        }
        private.dedup();
        if !private.is_empty() {
            out.push(format!("private({})", private.join(", ")));
        }
    }

    fn report_loop(&mut self, i: usize, plan: &Plan, thread_limit: Option<String>) {
        let Some(stmt) = self.prs[i].stmt else { return };
        let off = self
            .ast
            .as_ref()
            .map(|a| a.node(stmt).start)
            .unwrap_or(self.prs[i].next_code);
        if plan.is_seq() {
            let why = plan.why_seq.clone().unwrap_or_else(|| "seq".into());
            self.note(off, InfoKind::Loop, format!("loop not parallelized: {why}"));
            return;
        }
        let mut parts = Vec::new();
        if plan.gang {
            parts.push("gang(blockIdx.x)".to_string());
        }
        if plan.thread == Some("worker") && self.has_lanes_inside(i) {
            // Its vector loops run on the lanes of its warp.
            parts.push("worker(threadIdx.y: one warp each)".to_string());
        } else if let Some(t) = plan.thread {
            match &thread_limit {
                Some(n) => parts.push(format!("{t}(threadIdx.x, {n})")),
                None => parts.push(format!("{t}(threadIdx.x)")),
            }
        }
        if plan.simd {
            parts.push("vector(simd)".into());
        }
        if plan.lanes {
            parts.push(format!(
                "vector(threadIdx.x: lanes of the worker's warp, {})",
                self.vector_lanes(i)
            ));
        }
        let lanes_note = if plan.lanes { self.lanes_note(i) } else { None };
        if plan.gang_collapse > 1 {
            parts.push(format!("gang dimensions collapse({})", plan.gang_collapse));
        }
        let d = self.prs[i].dir.clone();
        if let Some(c) = d.clauses.iter().find_map(|c| match &c.kind {
            ClauseKind::Collapse { count, .. } if *count > 1 => Some(format!("collapse({count})")),
            ClauseKind::Tile(t) if t.len() > 1 => Some(format!("tile → collapse({})", t.len())),
            _ => None,
        }) {
            parts.push(c);
        }
        self.note(
            off,
            InfoKind::Loop,
            format!("loop parallelized: {}", parts.join(" ")),
        );
        if let Some(n) = lanes_note {
            self.note(off, InfoKind::Loop, n);
        }
        for c in &d.clauses {
            if let ClauseKind::Reduction { op, vars } = &c.kind {
                self.note(
                    off,
                    InfoKind::Reduction,
                    format!(
                        "reduction({}: {}) combined across threads and blocks",
                        op.spelling(),
                        join(vars)
                    ),
                );
            }
        }
        for (op, dcl) in &plan.found_reductions {
            let n = self
                .ast
                .as_ref()
                .map(|a| a.decl(*dcl).name.clone())
                .unwrap_or_default();
            self.note(
                off,
                InfoKind::Reduction,
                format!("reduction({}: {}) recognised", op.spelling(), n),
            );
        }
    }

    fn report_data(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let off = self.prs[i].next_code.min(self.text.len());
        let off = if d.kind.has_body() {
            off
        } else {
            self.prs[i].off
        };
        let mut v = Vec::new();
        for c in &d.clauses {
            if let ClauseKind::Data { kind, vars, .. } = &c.kind {
                let what = match (kind, d.kind) {
                    (DataKind::Copy, _) => "copied to the device at entry and back at exit",
                    (DataKind::CopyIn, _) => "copied to the device",
                    (DataKind::CopyOut, DirectiveKind::ExitData) => "copied back to the host",
                    (DataKind::CopyOut, _) => "allocated on the device, copied back at exit",
                    (DataKind::Create, _) | (DataKind::DeviceResident, _) => {
                        "allocated on the device"
                    }
                    (DataKind::NoCreate, _) => "used on the device if present",
                    (DataKind::Present, _) => "must be present on the device",
                    (DataKind::DevicePtr, _) => "already a device pointer",
                    (DataKind::Attach, _) => "pointer attached",
                    (DataKind::Detach, _) => "pointer detached",
                    (DataKind::Delete, _) => "released on the device",
                    (DataKind::Link, _) => "linked",
                };
                for x in vars {
                    v.push(format!("{x} {what}"));
                }
            }
            if let ClauseKind::UpdateSelf(vars) = &c.kind {
                for x in vars {
                    v.push(format!("{x} copied to the host"));
                }
            }
            if let ClauseKind::UpdateDevice(vars) = &c.kind {
                for x in vars {
                    v.push(format!("{x} copied to the device"));
                }
            }
        }
        if !v.is_empty() {
            self.note(off, InfoKind::Data, format!("data: {}", v.join("; ")));
        }
    }

    /// parallel, serial and their combined loop forms.
    fn compute(&mut self, i: usize) {
        if !self.needs_stmt(i) {
            return;
        }
        let d = self.prs[i].dir.clone();
        let is_loop = d.kind.is_loop();
        if is_loop && !self.check_for(i) {
            return;
        }
        let serial = matches!(d.kind, DirectiveKind::Serial | DirectiveKind::SerialLoop);
        let plan = if is_loop {
            self.plans.get(&i).cloned().unwrap_or_default()
        } else {
            Plan::default()
        };
        let mut cl: Vec<String> = Vec::new();
        let mut before: Vec<String> = Vec::new();
        // Levels used by the region's loops decide thread_limit's meaning.
        let uses_worker = plan.thread == Some("worker")
            || (0..self.prs.len()).any(|k| {
                self.encloses(i, k)
                    && self
                        .plans
                        .get(&k)
                        .is_some_and(|p| p.thread == Some("worker"))
            });
        let num_gangs = d.clauses.iter().find_map(|c| match &c.kind {
            ClauseKind::NumGangs(v) => num_gangs_total(v),
            ClauseKind::Gang(g) => g.num.as_ref().map(|e| e.text.trim().to_string()),
            _ => None,
        });
        let mut thread_limit = None;
        // A region whose vector loops run on the lanes of its workers gives each worker a warp.
        let lanes = self.has_lanes_inside(i);
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::NumWorkers(e) if uses_worker && lanes => {
                    thread_limit = Some(format!("({}) * 32", e.text.trim()))
                }
                ClauseKind::NumWorkers(e) if uses_worker => {
                    thread_limit = Some(e.text.trim().to_string())
                }
                ClauseKind::VectorLength(e) if !uses_worker => {
                    thread_limit = Some(e.text.trim().to_string())
                }
                _ => {}
            }
        }
        // A combined loop with worker/vector but no gang level: OpenMP has no 'teams parallel
        // for' (clang would take 'target teams' and drop the rest with a warning, and every
        // thread would run every iteration). The gangs run the loop redundantly, as OpenACC
        // says: 'target teams' (one team unless num_gangs), then the loop's own 'parallel for'.
        let split = is_loop && !serial && !plan.gang && !plan.is_seq();
        let construct = if serial {
            "target".to_string()
        } else if split {
            "target teams".to_string()
        } else if is_loop {
            if plan.is_seq() && num_gangs.is_none() {
                "target".to_string()
            } else {
                format!("target teams {}", plan.omp())
                    .trim_end()
                    .to_string()
            }
        } else {
            "target teams".to_string()
        };
        let teams = construct.starts_with("target teams");
        if let Some(n) = &num_gangs {
            if teams {
                cl.push(format!("num_teams({n})"));
            }
        } else if split {
            cl.push("num_teams(1)".into());
        } else if teams && !is_loop {
            // No gang loop in the region: one gang (a valid choice of num_gangs), so that code
            // outside loops is not repeated by many gangs.
            let has_gang = (0..self.prs.len())
                .any(|k| self.encloses(i, k) && self.plans.get(&k).is_some_and(|p| p.gang));
            if !has_gang {
                cl.push("num_teams(1)".into());
            }
        }
        if let Some(t) = &thread_limit {
            if teams {
                cl.push(format!("thread_limit({t})"));
            }
        }
        if let Some(ic) = self.if_clause(&d, true) {
            cl.push(ic);
        }
        self.data_maps(i, &d, &mut cl, true);
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::Private(v) if !is_loop => cl.push(format!("private({})", join(v))),
                ClauseKind::FirstPrivate(v) => cl.push(format!("firstprivate({})", join(v))),
                ClauseKind::Reduction { op, vars } if !is_loop => {
                    if teams {
                        cl.push(format!("reduction({}: {})", op.spelling(), join(vars)));
                    } else {
                        cl.push(format!("map(tofrom: {})", join(vars)));
                    }
                }
                ClauseKind::Reduction { vars, .. } if is_loop && !teams => {
                    cl.push(format!("map(tofrom: {})", join(vars)))
                }
                // The teams combine what the loop's threads reduced in each of them.
                ClauseKind::Reduction { op, vars } if split => {
                    cl.push(format!("reduction({}: {})", op.spelling(), join(vars)))
                }
                ClauseKind::Private(v) if is_loop && plan.is_seq() => {
                    cl.push(format!("private({})", join(v)))
                }
                _ => {}
            }
        }
        // Reductions of the region's loops on variables from outside the region.
        if let Some(h) = self.hoist_reductions(i, teams) {
            cl.extend(h);
        }
        self.implicit_clauses(i, false, &mut cl);
        let mut split_loop = Vec::new();
        if split {
            self.loop_clauses(i, &plan, &mut split_loop, true);
        } else if is_loop && !plan.is_seq() {
            self.loop_clauses(i, &plan, &mut cl, true);
        } else if is_loop {
            // Sequential combined loop: privates stay on the target; nothing else.
        }
        self.async_clauses(&d, &mut cl, &mut before, true);
        let mut lines = before;
        let zp = self.zero_plan(i);
        if let Some(z) = &zp {
            lines.extend(z.pre.iter().cloned());
            lines.extend(z.enter_zero.iter().cloned());
        }
        lines.push(
            format!("#pragma omp {} {}", construct, cl.join(" "))
                .trim_end()
                .to_string(),
        );
        if split {
            lines.push(
                format!("#pragma omp {} {}", plan.omp(), split_loop.join(" "))
                    .trim_end()
                    .to_string(),
            );
        }
        self.replace_pragma(i, lines);
        if let Some(z) = zp {
            let e = self.prs[i].stmt_end;
            let mut post = z.exit;
            post.push(z.close);
            self.insert_lines(e, "", &post);
        }
        if is_loop {
            self.report_loop(i, &plan, thread_limit.clone());
        } else if serial {
            let off = self.prs[i].next_code;
            self.note(
                off,
                InfoKind::Loop,
                "serial region: one gang, one worker, one vector lane",
            );
        }
        self.report_data(i);
    }

    /// Reduction clauses of loops inside region `i` on variables declared outside the region.
    fn hoist_reductions(&self, i: usize, teams: bool) -> Option<Vec<String>> {
        let mut out = Vec::new();
        let stmt = self.prs[i].stmt?;
        let ast = self.ast.as_ref()?;
        let (s, e) = (ast.node(stmt).start, ast.node(stmt).end);
        let own: BTreeSet<String> = self.prs[i]
            .dir
            .clauses
            .iter()
            .flat_map(|c| match &c.kind {
                ClauseKind::Reduction { vars, .. } | ClauseKind::Data { vars, .. } => {
                    vars.iter().map(|v| v.name.clone()).collect()
                }
                _ => Vec::new(),
            })
            .collect();
        let mut done = BTreeSet::new();
        for k in 0..self.prs.len() {
            if self.prs[k].dir.kind != DirectiveKind::Loop || !self.encloses(i, k) {
                continue;
            }
            let plan = self.plans.get(&k).cloned().unwrap_or_default();
            for c in &self.prs[k].dir.clauses {
                if let ClauseKind::Reduction { op, vars } = &c.kind {
                    for v in vars {
                        if own.contains(&v.name) || !done.insert(v.name.clone()) {
                            continue;
                        }
                        let outside = match self.resolve(k, &v.name) {
                            Some(d) => {
                                let di = ast.decl(d);
                                !(di.loc != usize::MAX && di.loc >= s && di.loc < e)
                            }
                            None => true,
                        };
                        if !outside {
                            continue;
                        }
                        let gang_above = plan.gang
                            || (0..self.prs.len()).any(|m| {
                                self.prs[m].dir.kind.is_loop()
                                    && self.encloses(m, k)
                                    && (m == i || self.encloses(i, m))
                                    && self.plans.get(&m).is_some_and(|p| p.gang)
                            });
                        if teams && gang_above {
                            out.push(format!("reduction({}: {})", op.spelling(), v.render()));
                        } else {
                            out.push(format!("map(tofrom: {})", v.render()));
                        }
                    }
                }
            }
        }
        Some(out)
    }

    /// The level (gang, worker, vector, seq) of the `routine` directive of function `top` (an
    /// index into `ast.top`), if it has one.
    fn routine_level(&self, top: usize) -> Option<ClauseName> {
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

    /// An orphaned `loop gang` in a `routine gang` function. Every gang of the region that calls
    /// the routine runs it (gang-redundantly), and the loop's iterations are to be shared by
    /// those gangs; run sequentially, each gang would run them all (a wrong answer as soon as
    /// the body is not idempotent). OpenMP has no orphaned `distribute`, so the loop deals its
    /// iterations to the teams itself: it counts them, and team t runs those whose number is t
    /// modulo the number of teams (a call from the host or from one gang runs them all).
    /// Returns false when the loop is not such a loop.
    fn routine_gang_loop(&mut self, i: usize) -> bool {
        if !self.prs[i].dir.has(ClauseName::Gang) {
            return false;
        }
        let Some(top) = self.prs[i].func else {
            return false;
        };
        if self.routine_level(top) != Some(ClauseName::Gang) {
            return false;
        }
        // An inner gang loop of the routine (an error of its own) stays as it is.
        if (0..self.prs.len())
            .any(|k| k != i && self.prs[k].dir.has(ClauseName::Gang) && self.encloses(k, i))
        {
            return false;
        }
        if let Some(c) = self.prs[i].dir.find(ClauseName::Reduction) {
            let span = c.span;
            self.error(
                i,
                span,
                "ptxcc does not support a reduction on the gang loop of a 'routine gang' function",
            );
            return true;
        }
        let (Some(stmt), Some(ast)) = (self.prs[i].stmt, self.ast.as_ref()) else {
            return false;
        };
        let Some(&body) = ast.node(stmt).children.last() else {
            return false;
        };
        let (body_kind, body_start) = (ast.node(body).kind, ast.node(body).start);
        let end = self.prs[i].stmt_end;
        self.tmp += 1;
        let k = format!("__ptxcc_gang_iter{}", self.tmp);
        self.need_team_fns = true;
        let orig = acc_text(&self.prs[i].text);
        self.replace_pragma(
            i,
            vec![format!("{{ long {k} = 0; /* {orig}: iterations dealt to the gangs that call the routine */")],
        );
        let skip = format!(" if ({k}++ % omp_get_num_teams() != omp_get_team_num()) continue;");
        if body_kind == NK::Compound {
            self.insert(body_start + 1, &skip);
        } else {
            self.insert(body_start, &format!("{{{skip} "));
            self.insert(end, "}");
        }
        self.insert(end, "}");
        let off = self.prs[i].next_code;
        self.note(off, InfoKind::Loop, "loop parallelized: gang (iterations dealt cyclically to the gangs that call the routine)");
        true
    }

    fn check_for(&mut self, i: usize) -> bool {
        let Some(stmt) = self.prs[i].stmt else {
            return false;
        };
        let ok = self
            .ast
            .as_ref()
            .is_some_and(|a| a.node(stmt).kind == NK::For);
        if !ok {
            let k = self.prs[i].dir.kind.spelling();
            let span = self.prs[i].dir.span;
            self.error(
                i,
                span,
                format!("'#pragma acc {k}' must be followed by a 'for' loop"),
            );
        }
        ok && self.check_tightly_nested(i, stmt)
    }

    /// `collapse(n)` (without `force:`) and `tile` with n sizes apply to n tightly nested loops
    /// (OpenACC 3.3, 2.9.1 and 2.9.8): nothing but the next loop in each loop's body. clang's
    /// OpenMP takes statements between them as intervening code and may run them once per
    /// iteration of the collapsed space, which computes something else than the program says,
    /// so that is an error here.
    fn check_tightly_nested(&mut self, i: usize, stmt: NodeId) -> bool {
        let Some((n, clause, span)) = self.prs[i].dir.clauses.iter().find_map(|c| match &c.kind {
            ClauseKind::Collapse {
                force: false,
                count,
            } => Some((*count as usize, "collapse", c.span)),
            ClauseKind::Tile(t) => Some((t.len(), "tile", c.span)),
            _ => None,
        }) else {
            return true;
        };
        let Some(ast) = &self.ast else { return true };
        let mut node = stmt;
        let mut problem = None;
        for depth in 1..n {
            // The body is a for statement's last child; braces around one statement do not count.
            let Some(mut body) = ast.node(node).children.last().copied() else {
                break;
            };
            while ast.node(body).kind == NK::Compound && ast.node(body).children.len() == 1 {
                body = ast.node(body).children[0];
            }
            if ast.node(body).kind != NK::For {
                let line = self.line_loc(self.sm.line_of(ast.node(node).start), 0).line;
                problem = Some(
                    if ast.node(body).kind == NK::Compound || self.for_in(body) {
                        (format!("the body of the loop of line {line} has other statements than the next loop"), true)
                    } else if depth == 1 {
                        ("only 1 loop follows".to_string(), false)
                    } else {
                        (format!("only {depth} loops follow"), false)
                    },
                );
                break;
            }
            node = body;
        }
        let Some((problem, intervening)) = problem else {
            return true;
        };
        let text: String = self.prs[i]
            .text
            .get(span.start..span.end)
            .unwrap_or(clause)
            .to_string();
        let force = if clause == "collapse" && intervening {
            format!(" ('collapse(force:{n})' runs them in the innermost loop)")
        } else {
            String::new()
        };
        self.error(
            i,
            span,
            format!("'{text}' needs {n} tightly nested loops, but {problem}{force}"),
        );
        false
    }

    /// Whether a `for` statement is somewhere inside `node`.
    fn for_in(&self, node: NodeId) -> bool {
        let Some(ast) = &self.ast else { return false };
        let mut found = false;
        ast.walk(node, &mut |k| found |= ast.node(k).kind == NK::For);
        found
    }

    fn loop_(&mut self, i: usize) {
        if !self.needs_stmt(i) || !self.check_for(i) {
            return;
        }
        let region = self.enclosing_compute(i);
        if let Some(r) = region {
            if matches!(
                self.prs[r].dir.kind,
                DirectiveKind::Kernels | DirectiveKind::KernelsLoop
            ) {
                // Handled by the kernels translation.
                return;
            }
        }
        let plan = self.plans.get(&i).cloned().unwrap_or_default();
        let orig = acc_text(&self.prs[i].text);
        if let Some(&outer) = self.gang_collapsed.get(&i) {
            let line = self.line_loc(self.prs[outer].li, 0).line;
            self.replace_pragma(
                i,
                vec![format!(
                    "/* {orig}: in the collapse of the gang loop of line {line} */"
                )],
            );
            if let Some(stmt) = self.prs[i].stmt {
                let off = self
                    .ast
                    .as_ref()
                    .map(|a| a.node(stmt).start)
                    .unwrap_or(self.prs[i].next_code);
                self.note(off, InfoKind::Loop, format!("loop parallelized: gang(blockIdx.x), collapsed with the gang loop of line {line}"));
            }
            return;
        }
        if region.is_none() && self.routine_gang_loop(i) {
            return;
        }
        if plan.is_seq() {
            let why = plan.why_seq.clone().unwrap_or_default();
            self.replace_pragma(i, vec![format!("/* {orig}: sequential ({why}) */")]);
            self.report_loop(i, &plan, None);
            return;
        }
        let line = self.thread_loop_pragma(i, &plan);
        self.replace_pragma(i, vec![line]);
        self.report_loop(i, &plan, None);
    }

    /// `#pragma omp parallel for …` for loop `i` on the block's threads, or on the lanes of its
    /// worker's warp (`num_threads` = the vector length).
    fn thread_loop_pragma(&mut self, i: usize, plan: &Plan) -> String {
        let mut cl = Vec::new();
        if plan.lanes {
            cl.push(format!("num_threads({})", self.vector_lanes(i)));
        }
        self.loop_clauses(i, plan, &mut cl, false);
        format!("#pragma omp {} {}", plan.omp(), cl.join(" "))
            .trim_end()
            .to_string()
    }

    fn data(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let mut cl = Vec::new();
        let mut before = Vec::new();
        self.data_maps(i, &d, &mut cl, false);
        if let Some(ic) = self.if_clause(&d, false) {
            cl.push(ic);
        }
        self.async_clauses(&d, &mut Vec::new(), &mut before, false);
        let has_map = cl.iter().any(|c| c.starts_with("map("));
        // async(q): OpenMP's target data has no nowait. Its entry comes after the work already on
        // queue q and its exit after the region's own work on q (a taskwait on q's slot at the end
        // of the body): the data moves in queue order, and the host waits at both ends.
        let async_wait = match d.find(ClauseName::Async).map(|c| &c.kind) {
            Some(ClauseKind::Async(q)) if has_map && self.prs[i].stmt.is_some() => Some(format!(
                "#pragma omp taskwait depend(inout: {})",
                self.queue(q.as_ref())
            )),
            _ => None,
        };
        let mut lines = before;
        if let Some(w) = &async_wait {
            lines.push(w.clone());
            let off = self.prs[i].next_code;
            self.note(
                off,
                InfoKind::Data,
                "data async: entry after the queue's earlier work, exit after the region's work on the queue (the host waits at both)",
            );
        }
        let zp = if self.prs[i].stmt.is_some() {
            self.zero_plan(i)
        } else {
            None
        };
        if let Some(z) = &zp {
            lines.extend(z.pre.iter().cloned());
        }
        if has_map {
            lines.push(format!("#pragma omp target data {}", cl.join(" ")));
        } else {
            lines.push("/* acc data: no data to map */".into());
        }
        self.replace_pragma(i, lines);
        self.report_data(i);
        if let Some(w) = async_wait {
            self.at_end_of_body(i, &[w]);
        } else if has_map && self.prs[i].stmt.is_some() && self.async_inside(i) {
            // Async work inside the region (a pipeline of 'update async' and 'parallel async')
            // may not have started when the body ends: the data it uses must stay until it is
            // done, as OpenACC compilers make it; OpenMP's target data would unmap it at once.
            self.at_end_of_body(i, &["#pragma omp taskwait".to_string()]);
            let off = self.prs[i].next_code;
            self.note(
                off,
                InfoKind::Data,
                "data: waits at its end for the async work inside it",
            );
        }
        if let Some(z) = zp {
            self.zero_in_block(i, &z.zero);
            let e = self.prs[i].stmt_end;
            self.insert(e, &z.close);
        }
    }

    /// Whether a directive with an `async` clause is inside construct `i`.
    fn async_inside(&self, i: usize) -> bool {
        (0..self.prs.len()).any(|k| self.encloses(i, k) && self.prs[k].dir.has(ClauseName::Async))
    }

    /// `create(zero: …)` / `copyout(zero: …)`: a device copy the clause creates starts as zeros
    /// (data already present is left alone). Each variable gets a flag, set before the construct,
    /// telling whether it was absent; the lines open a block per flag that `close` ends.
    fn zero_plan(&mut self, i: usize) -> Option<ZeroPlan> {
        let d = self.prs[i].dir.clone();
        let zero: Vec<(DataKind, VarRef)> = d
            .clauses
            .iter()
            .flat_map(|c| match &c.kind {
                ClauseKind::Data {
                    kind,
                    modifier: Some(DataModifier::Zero),
                    vars,
                } => vars.iter().map(|v| (*kind, v.clone())).collect(),
                _ => Vec::new(),
            })
            .collect();
        if zero.is_empty() {
            return None;
        }
        self.need_omp_api = true;
        let mut plan = ZeroPlan::default();
        for (kind, v) in zero {
            self.tmp += 1;
            let flag = format!("__ptxcc_zf{}", self.tmp);
            let (addr, _) = section_bytes(&v);
            plan.pre.push(format!(
                "{{ int {flag} = !omp_target_is_present((const void *)({addr}), omp_get_default_device());"
            ));
            let zl = self.zero_lines(std::slice::from_ref(&v));
            plan.zero.push(format!("if ({flag}) {{"));
            plan.zero.extend(zl.iter().cloned());
            plan.zero.push("}".into());
            plan.enter_zero.push(format!("if ({flag}) {{"));
            plan.enter_zero
                .push(format!("#pragma omp target enter data map(alloc: {v})"));
            plan.enter_zero.extend(zl);
            plan.enter_zero.push("}".into());
            let how = if kind == DataKind::CopyOut {
                "from"
            } else {
                "release"
            };
            plan.exit.push(format!("if ({flag}) {{"));
            plan.exit
                .push(format!("#pragma omp target exit data map({how}: {v})"));
            plan.exit.push("}".into());
            plan.close.push('}');
        }
        Some(plan)
    }

    /// Zeroes at the start of structured construct `i`'s block (the data is mapped there).
    fn zero_in_block(&mut self, i: usize, lines: &[String]) {
        if let Some(stmt) = self.prs[i].stmt {
            let is_compound = self
                .ast
                .as_ref()
                .is_some_and(|a| a.node(stmt).kind == NK::Compound);
            let s = self.ast.as_ref().map(|a| a.node(stmt).start).unwrap_or(0);
            let e = self.prs[i].stmt_end;
            if is_compound {
                self.insert_lines(s + 1, "", lines);
            } else {
                // The lines go before the statement, inside the braces that make it a block.
                self.insert_lines(s, "{", lines);
                self.insert(e, "}");
            }
        }
    }

    /// Lines at the end of structured construct `i`'s body, inside the construct: before the
    /// closing brace of a block, else after the statement, which becomes a block.
    fn at_end_of_body(&mut self, i: usize, lines: &[String]) {
        let Some(stmt) = self.prs[i].stmt else { return };
        let Some((kind, s, e)) = self
            .ast
            .as_ref()
            .map(|a| (a.node(stmt).kind, a.node(stmt).start, a.node(stmt).end))
        else {
            return;
        };
        if kind == NK::Compound && e > s {
            self.insert_lines(e - 1, "", lines);
        } else {
            let e = self.prs[i].stmt_end;
            self.insert(s, "{");
            self.insert_lines(e, "", lines);
            self.insert(e, "}");
        }
    }

    fn zero_lines(&mut self, vars: &[VarRef]) -> Vec<String> {
        let mut lines = Vec::new();
        for v in vars {
            self.tmp += 1;
            let (addr, bytes) = section_bytes(v);
            let p = format!("__ptxcc_zp{}", self.tmp);
            let n = format!("__ptxcc_zn{}", self.tmp);
            lines.push(format!(
                "{{ unsigned char *{p} = (unsigned char *)({addr}); unsigned long {n} = (unsigned long)({bytes});"
            ));
            lines.push(format!(
                "#pragma omp target teams distribute parallel for map(present, alloc: {p}[0:{n}])"
            ));
            lines.push(format!(
                "for (unsigned long __ptxcc_k = 0; __ptxcc_k < {n}; ++__ptxcc_k) {p}[__ptxcc_k] = 0; }}"
            ));
        }
        lines
    }

    fn enter_exit(&mut self, i: usize) {
        // Sections through arrays of pointers: their own enter/exit data lines (jagged.rs), with
        // the directive's if and queue, after its other maps.
        let finalize = self.prs[i].dir.has(ClauseName::Finalize);
        let jag_tail = {
            let d = self.prs[i].dir.clone();
            let mut t: Vec<String> = self.if_clause(&d, false).into_iter().collect();
            self.async_clauses(&d, &mut t, &mut Vec::new(), true);
            t.join(" ")
        };
        let jag = self.standalone_jagged(i, finalize, &jag_tail);
        let d = self.prs[i].dir.clone();
        let mut cl = Vec::new();
        let mut before = Vec::new();
        for c in &d.clauses {
            if let ClauseKind::Data { kind, vars, .. } = &c.kind {
                let l = join(vars);
                cl.push(match kind {
                    DataKind::CopyIn => format!("map(to: {l})"),
                    DataKind::Create => format!("map(alloc: {l})"),
                    DataKind::Attach => format!("map(alloc: {})", attach_list(vars)),
                    DataKind::CopyOut => format!("map(from: {l})"),
                    DataKind::Delete if finalize => format!("map(delete: {l})"),
                    DataKind::Delete => format!("map(release: {l})"),
                    DataKind::Detach => format!("map(release: {})", attach_list(vars)),
                    _ => continue,
                });
            }
        }
        // copyout + finalize: OpenMP has no `from` that also deletes. The runtime first lowers
        // the dynamic count to one, and the exit data's `from` takes it to zero: copied out and
        // deleted unless a data region still holds it. With async/wait, the queues' earlier work
        // (which may count references) is waited for first.
        let mut finalize_calls = Vec::new();
        if finalize && d.kind == DirectiveKind::ExitData {
            for c in &d.clauses {
                if let ClauseKind::Data {
                    kind: DataKind::CopyOut,
                    vars,
                    ..
                } = &c.kind
                {
                    for v in vars {
                        let (addr, bytes) = section_bytes(v);
                        finalize_calls
                            .push(format!("__ptxrt_acc_finalize((const void *)({addr}), (unsigned long)({bytes}));"));
                    }
                }
            }
        }
        if let Some(ic) = self.if_clause(&d, false) {
            cl.push(ic);
        }
        // enter data create(zero: …) async(q): the zeroing kernels need the data mapped, so the
        // enter data runs synchronously, after the queue's earlier work.
        let zero_async = d.kind == DirectiveKind::EnterData
            && d.clauses.iter().any(|c| {
                matches!(
                    &c.kind,
                    ClauseKind::Data {
                        modifier: Some(DataModifier::Zero),
                        ..
                    }
                )
            });
        match d.find(ClauseName::Async).map(|c| &c.kind) {
            Some(ClauseKind::Async(q)) if zero_async => {
                let q = self.queue(q.as_ref());
                self.async_clauses(&d, &mut cl, &mut before, false);
                before.push(format!("#pragma omp taskwait depend(inout: {q})"));
            }
            _ => self.async_clauses(&d, &mut cl, &mut before, true),
        }
        let what = if d.kind == DirectiveKind::EnterData {
            "enter"
        } else {
            "exit"
        };
        if !finalize_calls.is_empty() {
            self.need_finalize_fn = true;
            let waits = d.has(ClauseName::Async) || d.has(ClauseName::Wait);
            let mut lines = vec!["{".to_string()];
            lines.extend(before);
            if waits && !lines.iter().any(|l| l == "#pragma omp taskwait") {
                lines.push("#pragma omp taskwait".into());
            }
            let calls = finalize_calls.join(" ");
            let cond = d.clauses.iter().find_map(|c| match &c.kind {
                ClauseKind::If(e) => Some(e.text.trim().to_string()),
                _ => None,
            });
            match cond {
                Some(c) => {
                    // The condition is evaluated once.
                    self.tmp += 1;
                    let flag = format!("__ptxcc_fc{}", self.tmp);
                    lines.insert(1, format!("int {flag} = ({c});"));
                    lines.push(format!("if ({flag}) {{ {calls} }}"));
                    for x in cl.iter_mut().filter(|x| x.starts_with("if(")) {
                        *x = format!("if({flag})");
                    }
                }
                None => lines.push(calls),
            }
            let mut jag = jag;
            if d.kind == DirectiveKind::ExitData {
                lines.append(&mut jag);
            }
            if cl.iter().any(|c| c.starts_with("map(")) {
                lines.push(format!("#pragma omp target {what} data {}", cl.join(" ")));
            }
            lines.extend(jag);
            lines.push("}".into());
            self.replace_pragma(i, lines);
            self.report_data(i);
            return;
        }
        let mut lines = before;
        let zp = if d.kind == DirectiveKind::EnterData {
            self.zero_plan(i)
        } else {
            None
        };
        if let Some(z) = &zp {
            lines.extend(z.pre.iter().cloned());
        }
        // exit data: the rows leave before the directive's other items (a struct holding the
        // pointer array may be among them); enter data: after them.
        let exiting = d.kind == DirectiveKind::ExitData;
        let mut jag = jag;
        if exiting {
            lines.append(&mut jag);
        }
        if cl.iter().any(|c| c.starts_with("map(")) {
            lines.push(format!("#pragma omp target {what} data {}", cl.join(" ")));
        }
        if let Some(z) = zp {
            lines.extend(z.zero);
            lines.push(z.close);
        }
        lines.extend(jag);
        self.replace_pragma(i, lines);
        self.report_data(i);
    }

    fn update(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let mut cl = Vec::new();
        let mut before = Vec::new();
        // Runtime calls for the `static` globals of a file-scope `declare` (see below).
        let mut calls = Vec::new();
        // Sections through arrays of pointers: one update per row (jagged.rs).
        let mut jag: Vec<(&str, VarRef)> = Vec::new();
        // Data that is not present is an error unless if_present (OpenACC 3.3, 2.14.4), where
        // OpenMP's target update would skip it silently: the motion's `present` modifier.
        let present = if d.has(ClauseName::IfPresent) {
            ""
        } else {
            "present: "
        };
        let mut has_motion = false;
        for c in &d.clauses {
            let (vars, motion, routine) = match &c.kind {
                ClauseKind::UpdateSelf(v) => (v, "from", "acc_update_self"),
                ClauseKind::UpdateDevice(v) => (v, "to", "acc_update_device"),
                _ => continue,
            };
            let (stat, rest): (Vec<VarRef>, Vec<VarRef>) = vars
                .iter()
                .cloned()
                .partition(|v| self.is_static_declared(i, v));
            let (rows, rest): (Vec<VarRef>, Vec<VarRef>) = rest
                .into_iter()
                .partition(|v| jagged::is_jagged(v, &self.levels_of(i, v)));
            jag.extend(rows.into_iter().map(|v| (motion, v)));
            for v in &stat {
                let (addr, bytes) = section_bytes(v);
                calls.push(format!("{routine}({addr}, {bytes});"));
            }
            if !rest.is_empty() {
                cl.push(format!("{motion}({present}{})", join(&rest)));
                has_motion = true;
            }
        }
        let cond = self.if_clause(&d, false);
        if let Some(ic) = &cond {
            cl.push(ic.clone());
        }
        self.async_clauses(&d, &mut cl, &mut before, true);
        let mut lines = before;
        if !calls.is_empty() {
            // clang refuses `target update` of a `declare target` variable with internal linkage
            // (its device copy has no name the host knows); ptxcc registers those with the
            // runtime (device extraction), so the acc_update_* routines move them. They are
            // synchronous: an async(q) update first waits for q's earlier work.
            self.need_update_fn = !self.has_openacc_h;
            if let Some(c) = d.find(ClauseName::Async) {
                if let ClauseKind::Async(q) = &c.kind {
                    let slot = self.queue(q.as_ref());
                    lines.push(format!("#pragma omp taskwait depend(inout: {slot})"));
                }
            }
            // The OpenMP if clause (`if(c)`) is the C statement's condition too.
            lines.push(format!(
                "{} {{ {} }}",
                cond.as_deref().unwrap_or("if (1)"),
                calls.join(" ")
            ));
        }
        // The if and queue clauses, for the rows' updates.
        let tail: Vec<String> = cl
            .iter()
            .filter(|c| !c.starts_with("from(") && !c.starts_with("to("))
            .cloned()
            .collect();
        if has_motion {
            lines.push(format!("#pragma omp target update {}", cl.join(" ")));
        }
        for (motion, v) in jag {
            let levels = self.levels_of(i, &v);
            match jagged::update(&v, &levels, motion, present, &tail.join(" "), &mut self.tmp) {
                Ok(l) => lines.extend(l),
                Err(e) => self.error(i, v.span, e),
            }
        }
        self.replace_pragma(i, lines);
        self.report_data(i);
    }

    /// Whether `v` in pragma `i` names a `static` variable (internal linkage) that a file-scope
    /// `declare` puts on the device (`declare target` in OpenMP terms).
    fn is_static_declared(&self, i: usize, v: &VarRef) -> bool {
        let Some(ast) = &self.ast else { return false };
        let Some(id) = self.resolve(i, &v.name) else {
            return false;
        };
        if !ast.decl(id).is_internal {
            return false;
        }
        self.prs.iter().enumerate().any(|(k, p)| {
            p.dir.kind == DirectiveKind::Declare
                && p.func.is_none()
                && p.dir.clauses.iter().any(|c| match &c.kind {
                    ClauseKind::Data { kind, vars, .. } => {
                        declare_makes_device_global(*kind)
                            && vars
                                .iter()
                                .any(|x| x.name == v.name && self.resolve(k, &x.name) == Some(id))
                    }
                    _ => false,
                })
        })
    }

    fn host_data(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let mut ptrs = Vec::new();
        let mut addrs = Vec::new();
        for c in &d.clauses {
            if let ClauseKind::UseDevice(v) = &c.kind {
                for x in v {
                    let is_array = self
                        .resolve(i, &x.name)
                        .and_then(|dd| self.ast.as_ref().map(|a| a.decl(dd).ty))
                        .is_some_and(|t| {
                            matches!(t, TypeClass::Array { .. } | TypeClass::IncompleteArray)
                        });
                    if is_array || !x.path.is_empty() {
                        addrs.push(x.render());
                    } else {
                        ptrs.push(x.render());
                    }
                }
            }
        }
        let mut cl = Vec::new();
        if !ptrs.is_empty() {
            cl.push(format!("use_device_ptr({})", ptrs.join(", ")));
        }
        if !addrs.is_empty() {
            cl.push(format!("use_device_addr({})", addrs.join(", ")));
        }
        if let Some(ic) = self.if_clause(&d, false) {
            cl.push(ic);
        }
        self.replace_pragma(i, vec![format!("#pragma omp target data {}", cl.join(" "))]);
    }

    fn declare(&mut self, i: usize) {
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
                            && !(is_array
                                && v.path.iter().all(|a| matches!(a, Access::Subscript(_))))
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
                lines.push(format!("#pragma omp declare target to({})", to.join(", ")));
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
                let l = join(vars);
                let (en, ex) = match kind {
                    DataKind::Copy => (format!("map(to: {l})"), format!("map(from: {l})")),
                    DataKind::CopyIn => (format!("map(to: {l})"), format!("map(release: {l})")),
                    DataKind::CopyOut => (format!("map(alloc: {l})"), format!("map(from: {l})")),
                    DataKind::Create | DataKind::DeviceResident => {
                        (format!("map(alloc: {l})"), format!("map(release: {l})"))
                    }
                    DataKind::Present => (
                        format!("map(present, alloc: {l})"),
                        format!("map(release: {l})"),
                    ),
                    // link (an extern or static variable): on the device only where a data clause
                    // maps it, as at file scope; nothing to do here.
                    DataKind::Link => {
                        let names: Vec<String> = vars.iter().map(|v| v.name.clone()).collect();
                        self.check_link_uses(i, &names);
                        continue;
                    }
                    _ => continue,
                };
                enter.push(en);
                exit.push(ex);
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
            vec![format!("#pragma omp target enter data {}", enter.join(" "))],
        );
        self.report_data(i);
        let exit_line = format!("#pragma omp target exit data {}", exit.join(" "));
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
        let ret_spans: Vec<(usize, usize)> = returns
            .iter()
            .map(|&r| (ast.node(r).start, an.stmt_end(r)))
            .collect();
        let _ = bstart;
        for (s, e) in ret_spans {
            self.insert_lines(s, "{", std::slice::from_ref(&exit_line));
            self.insert(e, "}");
        }
        // Before the block's closing brace.
        if bend >= 1 {
            self.insert_lines(bend - 1, "", std::slice::from_ref(&exit_line));
        }
    }

    /// `declare link(names)`: ptxcc maps a link variable where data clauses name it, so compute
    /// constructs get the mapped copy, but has no device-side link pointer for device functions
    /// to follow: a use in a function compiled for the device (a `routine`, or a function that
    /// a compute construct or such a function calls) is an error at the use.
    fn check_link_uses(&mut self, i: usize, names: &[String]) {
        let ids: Vec<DeclId> = names.iter().filter_map(|n| self.resolve(i, n)).collect();
        let Some(ast) = &self.ast else { return };
        // Device functions: routines, then what compute constructs and routines call.
        let mut device: Vec<String> = Vec::new();
        for p in &self.prs {
            if p.dir.kind != DirectiveKind::Routine {
                continue;
            }
            match &p.dir.arg {
                DirectiveArg::Routine(Some(n)) => device.push(n.clone()),
                _ => {
                    if let Some(t) = p.next_top.and_then(|k| ast.top.get(k)) {
                        if t.is_function {
                            device.push(t.name.clone());
                        }
                    }
                }
            }
        }
        let callees = |root: NodeId, out: &mut Vec<String>| {
            ast.walk(root, &mut |k| {
                let n = ast.node(k);
                if n.kind == NK::Call {
                    if let Some(d) = n.decl {
                        let di = ast.decl(d);
                        if di.kind == DeclKind::Function && !out.contains(&di.name) {
                            out.push(di.name.clone());
                        }
                    }
                }
            });
        };
        for p in &self.prs {
            if p.dir.kind.is_compute() {
                if let Some(st) = p.stmt {
                    callees(st, &mut device);
                }
            }
        }
        let mut k = 0;
        while k < device.len() {
            let name = device[k].clone();
            for t in ast
                .top
                .iter()
                .filter(|t| t.is_function && t.is_definition && t.name == name)
            {
                if let Some(b) = t.body {
                    callees(b, &mut device);
                }
            }
            k += 1;
        }
        let mut uses: Vec<(usize, String, String)> = Vec::new();
        for t in ast
            .top
            .iter()
            .filter(|t| t.is_function && t.is_definition && device.contains(&t.name))
        {
            let Some(b) = t.body else { continue };
            ast.walk(b, &mut |k| {
                let n = ast.node(k);
                if n.kind != NK::DeclRef {
                    return;
                }
                if let Some(d) = n.decl {
                    let di = ast.decl(d);
                    // The variable itself or another declaration of the same global (not a
                    // local, or a static local of some function, of the same name).
                    let in_function = di.loc != usize::MAX
                        && ast
                            .top
                            .iter()
                            .any(|f| f.is_function && f.start <= di.loc && di.loc < f.end);
                    let same = ids.contains(&d)
                        || (di.kind == DeclKind::Var
                            && di.is_global
                            && !in_function
                            && names.contains(&di.name));
                    if same {
                        uses.push((n.start, di.name.clone(), t.name.clone()));
                    }
                }
            });
        }
        let line = self.line_loc(self.prs[i].li, 0).line;
        for (at, var, func) in uses {
            let loc = self.sm.loc(at);
            self.diags.push(Diagnostic {
                loc: Some(loc),
                message: format!(
                    "ptxcc does not support 'declare link' variables in device functions: '{var}' (declare link on line {line}) is used in '{func}', which runs on the device; declare it with 'declare create' or 'declare copyin', or pass it to the function"
                ),
            });
        }
    }

    fn routine(&mut self, i: usize) {
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
                        vec![format!("#pragma omp declare target to({name}){dt}")],
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
                self.replace_pragma(i, vec![format!("#pragma omp declare target{dt}")]);
                self.insert_lines(end, "", &["#pragma omp end declare target".to_string()]);
                self.note(
                    off,
                    InfoKind::Routine,
                    format!("routine {} ({level}): compiled for the device", t.name),
                );
            }
        }
    }

    fn atomic(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let k = match d.arg {
            DirectiveArg::Atomic(AtomicKind::Read) => "read",
            DirectiveArg::Atomic(AtomicKind::Write) => "write",
            DirectiveArg::Atomic(AtomicKind::Capture) => "capture",
            _ => "update",
        };
        if let Some(c) = d.find(ClauseName::If) {
            // Performing the operation atomically is always a correct execution.
            let _ = c;
        }
        self.replace_pragma(i, vec![format!("#pragma omp atomic {k}")]);
    }

    fn wait(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let queues: Vec<Expr> = match &d.arg {
            DirectiveArg::Wait(Some(w)) => w.queues.clone(),
            _ => Vec::new(),
        };
        let cond = d.find(ClauseName::If).and_then(|c| {
            if let ClauseKind::If(e) = &c.kind {
                Some(e.text.trim().to_string())
            } else {
                None
            }
        });
        let asyncq = d.find(ClauseName::Async).map(|c| {
            if let ClauseKind::Async(q) = &c.kind {
                q.clone()
            } else {
                None
            }
        });
        // Two halves: the async constructs of the queues are OpenMP tasks (a taskwait, or a task
        // ordered by depend), and what the acc_*_async routines put on the queues' device queues
        // is waited for by the runtime (`__ptxrt_acc_wait_*`).
        self.need_wait_fn = true;
        let mut body = Vec::new();
        let deps: Vec<String> = queues.iter().map(|q| self.queue(Some(q))).collect();
        let args: Vec<String> = queues
            .iter()
            .map(|q| format!("(int)({})", q.text.trim()))
            .collect();
        match asyncq {
            Some(q) if !deps.is_empty() => {
                // The waiting goes on queue q: an empty task ordered after the queues and before
                // q's next work; q's device queue waits (on the device) for theirs.
                let out = self.queue(q.as_ref());
                let r = async_arg(q.as_ref());
                let mut cl: Vec<String> = deps
                    .iter()
                    .filter(|x| **x != out)
                    .map(|x| format!("depend(in: {x})"))
                    .collect();
                cl.push(format!("depend(inout: {out})"));
                body.push(format!("#pragma omp task {}", cl.join(" ")));
                body.push("{}".into());
                body.push(
                    args.iter()
                        .map(|a| format!("__ptxrt_acc_wait_queue_async({a}, {r});"))
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
            Some(q) => {
                // wait async(q) without queues: q waits for every queue. The host waits for every
                // async construct (OpenMP cannot order a task after all 64 queue slots cheaply),
                // q's device queue for every device queue.
                let r = async_arg(q.as_ref());
                body.push("#pragma omp taskwait".into());
                body.push(format!("__ptxrt_acc_wait_all_queues_async({r});"));
            }
            None if deps.is_empty() => {
                body.push("#pragma omp taskwait".into());
                body.push("__ptxrt_acc_wait_all_queues();".into());
            }
            None => {
                body.push(format!(
                    "#pragma omp taskwait {}",
                    deps.iter()
                        .map(|x| format!("depend(inout: {x})"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
                body.push(
                    args.iter()
                        .map(|a| format!("__ptxrt_acc_wait_queue({a});"))
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
        }
        let mut lines = vec![match cond {
            Some(c) => format!("if ({c}) {{"),
            None => "{".to_string(),
        }];
        lines.extend(body);
        lines.push("}".into());
        self.replace_pragma(i, lines);
    }

    fn runtime_call(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let dev_type = d.clauses.iter().find_map(|c| match &c.kind {
            ClauseKind::DeviceType(v) => v.first().cloned(),
            _ => None,
        });
        let ty = match dev_type {
            Some(DeviceTypeName::Named(n)) => self.device_type_value(&n),
            _ => self.device_type_value("default"),
        };
        let num = d.clauses.iter().find_map(|c| match &c.kind {
            ClauseKind::DeviceNum(e) => Some(e.text.trim().to_string()),
            _ => None,
        });
        let mut stmts = Vec::new();
        match d.kind {
            // With device_num, only that device (OpenACC 3.3, 2.14.1-2: the current device
            // stays; `set` is what changes it).
            DirectiveKind::Init => stmts.push(match &num {
                Some(n) => format!("acc_init_device({n}, {ty});"),
                None => format!("acc_init({ty});"),
            }),
            DirectiveKind::Shutdown => stmts.push(match &num {
                Some(n) => format!("acc_shutdown_device({n}, {ty});"),
                None => format!("acc_shutdown({ty});"),
            }),
            _ => {
                if d.has(ClauseName::DeviceType) {
                    stmts.push(format!("acc_set_device_type({ty});"));
                }
                if let Some(n) = &num {
                    stmts.push(format!("acc_set_device_num({n}, {ty});"));
                }
                if let Some(c) = d.find(ClauseName::DefaultAsync) {
                    if let ClauseKind::DefaultAsync(e) = &c.kind {
                        stmts.push(format!("acc_set_default_async({});", e.text.trim()));
                    }
                }
            }
        }
        if !self.has_openacc_h && stmts.iter().any(|s| s.starts_with("acc_")) {
            self.need_acc_api = true;
        }
        let cond = d.find(ClauseName::If).and_then(|c| {
            if let ClauseKind::If(e) = &c.kind {
                Some(e.text.trim().to_string())
            } else {
                None
            }
        });
        let line = match cond {
            Some(c) => format!("if ({c}) {{ {} }}", stmts.join(" ")),
            None => format!("{{ {} }}", stmts.join(" ")),
        };
        self.replace_pragma(i, vec![line]);
    }

    fn device_type_value(&self, n: &str) -> String {
        let name = n.trim_start_matches("acc_device_");
        let known = ["none", "default", "host", "not_host", "nvidia"];
        let name = if known.contains(&name) {
            name
        } else if name == "multicore" {
            "host"
        } else {
            "not_host"
        };
        if self.has_openacc_h {
            format!("acc_device_{name}")
        } else {
            // openacc.h's numbering (the one nvc uses).
            let v = match name {
                "none" => 0,
                "default" => 1,
                "host" => 2,
                "not_host" => 3,
                _ => 4,
            };
            format!("{v} /* acc_device_{name} */")
        }
    }

    // ---------------------------------------------------------------- kernels

    fn kernels(&mut self, i: usize) {
        if !self.needs_stmt(i) {
            return;
        }
        let d = self.prs[i].dir.clone();
        if d.kind == DirectiveKind::KernelsLoop {
            if !self.check_for(i) {
                return;
            }
            let stmt = self.prs[i].stmt.unwrap_or(0);
            let mut cl = Vec::new();
            let mut before = Vec::new();
            self.data_maps(i, &d, &mut cl, true);
            if let Some(ic) = self.if_clause(&d, true) {
                cl.push(ic);
            }
            self.implicit_clauses(i, true, &mut cl);
            self.async_clauses(&d, &mut cl, &mut before, true);
            let (construct, more) = self.kernels_nest(i, Some(i), stmt, &d);
            cl.extend(more);
            let mut lines = before;
            let zp = self.zero_plan(i);
            if let Some(z) = &zp {
                lines.extend(z.pre.iter().cloned());
                lines.extend(z.enter_zero.iter().cloned());
            }
            lines.push(
                format!("#pragma omp {construct} {}", cl.join(" "))
                    .trim_end()
                    .to_string(),
            );
            self.replace_pragma(i, lines);
            if let Some(z) = zp {
                let e = self.prs[i].stmt_end;
                let mut post = z.exit;
                post.push(z.close);
                self.insert_lines(e, "", &post);
            }
            self.report_data(i);
            return;
        }
        // A region: one target data around one target per loop nest.
        let stmt = self.prs[i].stmt.unwrap_or(0);
        let Some(ast) = &self.ast else { return };
        let body: Vec<NodeId> = if ast.node(stmt).kind == NK::Compound {
            ast.node(stmt).children.clone()
        } else {
            vec![stmt]
        };
        let has_decl = body.iter().any(|&c| ast.node(c).kind == NK::DeclStmt);
        let mut dcl = Vec::new();
        let mut before = Vec::new();
        self.data_maps(i, &d, &mut dcl, false);
        let devptrs: Vec<String> = d
            .clauses
            .iter()
            .flat_map(|c| match &c.kind {
                ClauseKind::Data {
                    kind: DataKind::DevicePtr,
                    vars,
                    ..
                } => vars.iter().map(|v| v.render()).collect(),
                _ => Vec::new(),
            })
            .collect();
        let mut implicit = Vec::new();
        self.implicit_clauses(i, true, &mut implicit);
        // Visible-size arrays referenced in the region are copied once for the whole region.
        let arrays = self.kernels_arrays(i, stmt);
        if !arrays.is_empty() {
            dcl.push(format!("map({HOLD}tofrom: {})", arrays.join(", ")));
        }
        let scalar_maps: Vec<String> = implicit
            .iter()
            .filter(|c| c.starts_with("map("))
            .cloned()
            .collect();
        dcl.extend(scalar_maps.iter().cloned());
        if let Some(ic) = self.if_clause(&d, false) {
            if d.has(ClauseName::If) {
                dcl.push(ic);
            }
        }
        self.async_clauses(&d, &mut Vec::new(), &mut before, false);
        // async(q): every kernel of the region is a target task on queue q (in order), and so are
        // the region's data movements: enter data before the kernels, exit data after them.
        let async_q = match d.find(ClauseName::Async).map(|c| &c.kind) {
            Some(ClauseKind::Async(q)) => Some(self.queue(q.as_ref())),
            _ => None,
        };
        let kscalars: Vec<String> = scalar_maps
            .iter()
            .filter_map(|m| {
                m.strip_prefix("map(tofrom: ")
                    .and_then(|r| r.strip_suffix(')'))
            })
            .flat_map(|r| r.split(", ").map(|x| x.to_string()).collect::<Vec<_>>())
            .collect();
        // Scalars of the region's own data clauses live on the device too: every kernel uses that copy.
        let mut kscalars = kscalars;
        for c in &d.clauses {
            if let ClauseKind::Data { kind, vars, .. } = &c.kind {
                if matches!(kind, DataKind::DevicePtr) {
                    continue;
                }
                for v in vars.iter().filter(|v| v.is_plain()) {
                    let scalar = self
                        .resolve(i, &v.name)
                        .and_then(|dd| self.ast.as_ref().map(|a| a.decl(dd).ty.is_scalar()));
                    if scalar == Some(true) && !kscalars.contains(&v.name) {
                        kscalars.push(v.name.clone());
                    }
                }
            }
        }
        let mut per_target: Vec<String> = Vec::new();
        if !devptrs.is_empty() {
            per_target.push(format!("is_device_ptr({})", devptrs.join(", ")));
        }
        // no_create: each kernel maps the same zero-length-when-absent sections, so that absent
        // data reaches it as the host address (explicitly, not as an unmapped implicit pointer).
        let mut nc_maps = Vec::new();
        for c in &d.clauses {
            if let ClauseKind::Data {
                kind: DataKind::NoCreate,
                vars,
                ..
            } = &c.kind
            {
                let secs: Vec<String> = vars
                    .iter()
                    .filter_map(|v| self.no_create_item(i, v).ok().flatten())
                    .collect();
                if !secs.is_empty() {
                    nc_maps.push(format!("map({HOLD}alloc: {})", secs.join(", ")));
                }
            }
        }
        per_target.extend(nc_maps.iter().cloned());
        per_target.extend(
            implicit
                .iter()
                .filter(|c| c.starts_with("is_device_ptr"))
                .cloned(),
        );
        if let Some(ic) = self.if_clause(&d, true) {
            per_target.push(ic);
        }
        if let Some(q) = &async_q {
            per_target.push("nowait".into());
            per_target.push(format!("depend(inout: {q})"));
        }
        let has_data = dcl.iter().any(|c| c.starts_with("map("));
        // async: the target data's maps as an enter data / exit data pair on the queue (dynamic
        // reference counts: a kernels region holds no host code that could release the data in
        // between). The no_create sections are left to each kernel (evaluated once per kernel).
        let enter_exit = async_q.as_ref().filter(|_| has_data).and_then(|q| {
            let (mut en, mut ex) = (Vec::new(), Vec::new());
            let mut cond = None;
            for c in &dcl {
                if nc_maps.contains(c) {
                    continue;
                }
                if c.starts_with("if(") {
                    cond = Some(c.clone());
                    continue;
                }
                let (a, b) = enter_exit_maps(c)?;
                en.push(a);
                ex.push(b);
            }
            if en.is_empty() {
                return Some(Vec::new());
            }
            if let Some(c) = cond {
                en.push(c.clone());
                ex.push(c);
            }
            let tail = format!("nowait depend(inout: {q})");
            Some(vec![
                format!("#pragma omp target enter data {} {tail}", en.join(" ")),
                format!("#pragma omp target exit data {} {tail}", ex.join(" ")),
            ])
        });
        // What runs after the region (inside the block that opens before it when async).
        let mut post: Vec<String> = Vec::new();
        let mut lines = Vec::new();
        if async_q.is_some() {
            lines.push("{".to_string());
        }
        lines.extend(before);
        let zp = self.zero_plan(i);
        if let Some(z) = &zp {
            lines.extend(z.pre.iter().cloned());
            lines.extend(z.enter_zero.iter().cloned());
        }
        match (&enter_exit, &async_q) {
            (Some(ee), Some(_)) => {
                if let [en, ex] = ee.as_slice() {
                    lines.push(en.clone());
                    post.push(ex.clone());
                } else {
                    lines.push("/* acc kernels async: no data to map */".into());
                }
                let off = self.prs[i].next_code;
                self.note(
                    off,
                    InfoKind::Data,
                    "kernels async: the region's data moves in (enter data) and out (exit data) on the queue, around its kernels, all in order on it",
                );
            }
            (None, Some(q)) if has_data => {
                // Not expressible as enter/exit data: the host waits for the queue at both ends.
                let w = format!("#pragma omp taskwait depend(inout: {q})");
                lines.push(w.clone());
                lines.push(format!("#pragma omp target data {}", dcl.join(" ")));
                self.at_end_of_body(i, std::slice::from_ref(&w));
            }
            _ if has_data => lines.push(format!("#pragma omp target data {}", dcl.join(" "))),
            _ => lines.push("/* acc kernels: no data to map */".into()),
        }
        self.replace_pragma(i, lines);
        if let Some(z) = zp {
            if let Some(q) = &async_q {
                // The zeroed copies go once the queue is done with them.
                post.push(format!("#pragma omp taskwait depend(inout: {q})"));
            }
            post.extend(z.exit);
            post.push(z.close);
        }
        if async_q.is_some() {
            post.push("}".into());
        }
        if !post.is_empty() {
            let e = self.prs[i].stmt_end;
            self.insert_lines(e, "", &post);
        }
        self.report_data(i);
        if has_decl {
            // Declarations at the top of the region are shared by its statements: one kernel.
            let first = body.first().copied();
            if let Some(f) = first {
                let ast = self.ast.as_ref();
                let s = ast.map(|a| a.node(stmt).start).unwrap_or(0);
                let e = self.prs[i].stmt_end;
                let _ = (f, e);
                let mut cl = self.scalar_maps_for(&[stmt], &kscalars);
                cl.extend(per_target.iter().cloned());
                self.insert_lines(
                    s,
                    "",
                    &[format!("#pragma omp target {}", cl.join(" "))
                        .trim_end()
                        .to_string()],
                );
                // Inner acc loops run sequentially in that one thread.
                self.silence_inner_loops(
                    i,
                    "sequential: the kernels region has top-level declarations",
                );
                let off = self.prs[i].next_code;
                self.note(
                    off,
                    InfoKind::Loop,
                    "kernels region not split: declarations at its top level; run by one device thread",
                );
            }
            return;
        }
        // Group the statements: loops on their own, runs of other statements together.
        let an_nodes: Vec<(NodeId, NK, usize)> = {
            let ast = self.ast.as_ref().expect("checked above");
            body.iter()
                .map(|&c| (c, ast.node(c).kind, ast.node(c).start))
                .collect()
        };
        let mut group: Vec<NodeId> = Vec::new();
        let flush =
            |tr: &mut Tr, group: &mut Vec<NodeId>, per_target: &[String], kscalars: &[String]| {
                if group.is_empty() {
                    return;
                }
                let ast = tr.ast.as_ref().expect("checked above");
                let s = ast.node(group[0]).start;
                let last = *group.last().unwrap_or(&group[0]);
                let e = Analyzer { ast, text: tr.text }.stmt_end(last);
                let all_null = group.iter().all(|&g| ast.node(g).kind == NK::Null);
                if !all_null {
                    let mut cl = tr.scalar_maps_for(group, kscalars);
                    cl.extend(per_target.iter().cloned());
                    tr.insert_lines(
                        s,
                        "",
                        &[format!("#pragma omp target {}", cl.join(" "))
                            .trim_end()
                            .to_string()],
                    );
                    tr.insert(s, "{");
                    tr.insert(e, "}");
                    tr.note(
                        s,
                        InfoKind::Loop,
                        "kernels: statements run by one device thread",
                    );
                }
                group.clear();
            };
        for (c, kind, _start) in an_nodes {
            if kind == NK::For {
                flush(self, &mut group, &per_target, &kscalars);
                self.kernels_for(i, c, &d, &per_target, &kscalars, 0);
            } else {
                group.push(c);
            }
        }
        flush(self, &mut group, &per_target, &kscalars);
        // Loops nested in statements that run on one thread.
        for k in 0..self.prs.len() {
            if self.prs[k].dir.kind == DirectiveKind::Loop
                && self.encloses(i, k)
                && !self.done.contains(&k)
            {
                let orig = acc_text(&self.prs[k].text);
                let off = self.prs[k].next_code;
                self.replace_pragma(
                    k,
                    vec![format!(
                        "/* {orig}: sequential (inside a kernels statement run by one thread) */"
                    )],
                );
                self.note(
                    off,
                    InfoKind::Loop,
                    "loop not parallelized: inside a statement of the kernels region that is not a loop nest",
                );
            }
        }
    }

    /// `map(tofrom: …)` of the kernels scalars that statements `nodes` reference.
    fn scalar_maps_for(&self, nodes: &[NodeId], kscalars: &[String]) -> Vec<String> {
        let Some(an) = self.an() else {
            return Vec::new();
        };
        let mut used = Vec::new();
        for &n in nodes {
            for (d, _) in an.outside_refs(n) {
                let name = &an.ast.decl(d).name;
                if kscalars.contains(name) && !used.contains(name) {
                    used.push(name.clone());
                }
            }
        }
        if used.is_empty() {
            Vec::new()
        } else {
            vec![format!("map(tofrom: {})", used.join(", "))]
        }
    }

    fn own_loop_pragma(&self, stmt: NodeId) -> (Option<usize>, Directive) {
        let own = (0..self.prs.len()).find(|&k| {
            self.prs[k].dir.kind == DirectiveKind::Loop && self.prs[k].stmt == Some(stmt)
        });
        let dd = own.map(|k| self.prs[k].dir.clone()).unwrap_or(Directive {
            kind: DirectiveKind::Loop,
            arg: DirectiveArg::None,
            clauses: Vec::new(),
            span: Span::default(),
        });
        (own, dd)
    }

    /// Whether a loop of a kernels region would run in parallel on its own.
    fn kernels_parallel(&self, stmt: NodeId) -> bool {
        let (_, d) = self.own_loop_pragma(stmt);
        if d.has(ClauseName::Seq) {
            return false;
        }
        if d.has(ClauseName::Independent)
            || d.has(ClauseName::Gang)
            || d.has(ClauseName::Worker)
            || d.has(ClauseName::Vector)
        {
            return true;
        }
        let Some(an) = self.an() else { return false };
        an.for_loop(stmt)
            .is_some_and(|fl| matches!(an.test(&fl), Verdict::Parallel { .. }))
    }

    /// The loops of a sequential loop's body when it holds nothing else and one of them is
    /// parallel: the sequential loop then runs on the host and launches them.
    fn host_loop_children(&self, stmt: NodeId) -> Option<Vec<NodeId>> {
        let an = self.an()?;
        let fl = an.for_loop(stmt)?;
        let body = an.ast.node(fl.body);
        let kids: Vec<NodeId> = if body.kind == NK::Compound {
            body.children.clone()
        } else {
            vec![fl.body]
        };
        let kids: Vec<NodeId> = kids
            .into_iter()
            .filter(|&k| an.ast.node(k).kind != NK::Null)
            .collect();
        if kids.is_empty() || !kids.iter().all(|&k| an.ast.node(k).kind == NK::For) {
            return None;
        }
        // The host loop's control must not read data the region writes on the device.
        let written = self.written_in(fl.body);
        let mut ctl_ok = true;
        for part in [fl.lower, fl.upper].into_iter().flatten() {
            an.ast.walk(part, &mut |k| {
                if an.ast.node(k).decl.is_some_and(|d| written.contains(&d))
                    || an.ast.node(k).kind == NK::Subscript
                {
                    ctl_ok = false;
                }
            });
        }
        if !ctl_ok
            || !kids
                .iter()
                .any(|&k| self.kernels_parallel(k) || self.host_loop_children(k).is_some())
        {
            return None;
        }
        Some(kids)
    }

    /// One loop nest of kernels region `i`.
    fn kernels_for(
        &mut self,
        i: usize,
        c: NodeId,
        d: &Directive,
        per_target: &[String],
        kscalars: &[String],
        depth: usize,
    ) {
        let (own, dd) = self.own_loop_pragma(c);
        if depth < 4 && !self.kernels_parallel(c) {
            if let Some(kids) = self.host_loop_children(c) {
                let off = self.ast.as_ref().map(|a| a.node(c).start).unwrap_or(0);
                if let Some(k) = own {
                    let orig = acc_text(&self.prs[k].text);
                    self.replace_pragma(k, vec![format!("/* {orig}: sequential, on the host */")]);
                }
                self.note(
                    off,
                    InfoKind::Loop,
                    "loop not parallelized: run on the host, its inner loops are kernels",
                );
                for k in kids {
                    self.kernels_for(i, k, d, per_target, kscalars, depth + 1);
                }
                return;
            }
        }
        let start = self.ast.as_ref().map(|a| a.node(c).start).unwrap_or(0);
        let (construct, more) = self.kernels_nest(i, own, c, &dd);
        let mut cl = self.scalar_maps_for(&[c], kscalars);
        cl.extend(per_target.iter().cloned());
        cl.extend(more);
        let line = format!("#pragma omp {construct} {}", cl.join(" "))
            .trim_end()
            .to_string();
        match own {
            Some(k) => self.replace_pragma(k, vec![line]),
            None => self.insert_lines(start, "", &[line]),
        }
    }

    fn silence_inner_loops(&mut self, i: usize, why: &str) {
        for k in 0..self.prs.len() {
            if self.prs[k].dir.kind == DirectiveKind::Loop && self.encloses(i, k) {
                let orig = acc_text(&self.prs[k].text);
                self.replace_pragma(k, vec![format!("/* {orig}: {why} */")]);
            }
        }
    }

    /// Arrays with a visible size referenced in kernels region `i` and not listed anywhere.
    fn kernels_arrays(&self, i: usize, stmt: NodeId) -> Vec<String> {
        let Some(an) = self.an() else {
            return Vec::new();
        };
        let (listed, _, default) = self.listed_names(i);
        if default.is_some() {
            return Vec::new();
        }
        an.outside_refs(stmt)
            .into_iter()
            .filter_map(|(d, _)| {
                let di = an.ast.decl(d);
                (matches!(di.ty, TypeClass::Array { .. })
                    && !listed.contains(&di.name)
                    && !self.is_system(di))
                .then(|| di.name.clone())
            })
            .collect()
    }

    /// Decides one loop nest of a kernels region: the OpenMP construct and its loop clauses.
    fn kernels_nest(
        &mut self,
        region: usize,
        own: Option<usize>,
        stmt: NodeId,
        d: &Directive,
    ) -> (String, Vec<String>) {
        let fl = self.an().and_then(|an| an.for_loop(stmt));
        let explicit = d.has(ClauseName::Independent)
            || d.has(ClauseName::Gang)
            || d.has(ClauseName::Worker)
            || d.has(ClauseName::Vector);
        let seq = d.has(ClauseName::Seq);
        let verdict = match (&fl, seq) {
            (_, true) => Verdict::Sequential("seq clause".into()),
            (None, _) => Verdict::Sequential("loop not in canonical form".into()),
            (Some(fl), _) => match self.an().map(|an| an.test(fl)) {
                Some(v) => v,
                None => Verdict::Sequential("no analysis".into()),
            },
        };
        let verdict = match verdict {
            Verdict::Sequential(_) if explicit && fl.is_some() => Verdict::Parallel {
                reductions: Vec::new(),
                privates: Vec::new(),
            },
            v => v,
        };
        let loc_off = self.ast.as_ref().map(|a| a.node(stmt).start).unwrap_or(0);
        let mut cl = Vec::new();
        match verdict {
            Verdict::Sequential(why) => {
                self.note(
                    loc_off,
                    InfoKind::Loop,
                    format!("loop not parallelized: {why}"),
                );
                // Inner acc loop pragmas: sequential too.
                self.silence_loops_in(stmt, "sequential: inside a kernels loop run by one thread");
                let mut v = Vec::new();
                for c in &d.clauses {
                    if let ClauseKind::Reduction { vars, .. } = &c.kind {
                        v.push(format!("map(tofrom: {})", join(vars)));
                    }
                }
                ("target".to_string(), v)
            }
            Verdict::Parallel {
                reductions,
                privates,
            } => {
                let Some(fl) = fl else {
                    return ("target".to_string(), Vec::new());
                };
                // Inner loops: explicit vector/worker loops become the thread level.
                let inner_levels = (0..self.prs.len()).any(|k| {
                    self.prs[k].dir.kind == DirectiveKind::Loop
                        && self.prs[k].stmt.is_some_and(|s| {
                            s != stmt && self.an().is_some_and(|an| an.inside(s, stmt))
                        })
                        && (self.prs[k].dir.has(ClauseName::Vector)
                            || self.prs[k].dir.has(ClauseName::Worker))
                });
                let gang_only = d.has(ClauseName::Gang)
                    && !d.has(ClauseName::Vector)
                    && !d.has(ClauseName::Worker)
                    && inner_levels;
                let thread = match (
                    gang_only,
                    d.has(ClauseName::Worker) && !d.has(ClauseName::Vector),
                ) {
                    (true, _) => None,
                    (false, true) => Some("worker"),
                    (false, false) => Some("vector"),
                };
                let plan = Plan {
                    gang: true,
                    thread,
                    found_reductions: reductions.clone(),
                    ..Plan::default()
                };
                let inner = self.kernels_inner_plans(stmt, own, thread);
                let lanes = inner.iter().any(|(_, p)| p.lanes);
                let construct = format!("target teams {}", plan.omp());
                // Perfectly nested parallel loops collapse (not over the levels the user wrote
                // for the inner loops).
                let mut depth = 1;
                let mut collapsed: Vec<NodeId> = Vec::new();
                if !d.has(ClauseName::Collapse) && !d.has(ClauseName::Tile) && !gang_only && !lanes
                {
                    if let Some(an) = self.an() {
                        let mut cur = fl.clone();
                        let mut outer_vars = vec![fl.var];
                        while depth < 3 {
                            let Some(inner) = an.perfectly_nested(&cur) else {
                                break;
                            };
                            if !an.bounds_independent_of(&inner, &outer_vars)
                                || !matches!(an.test(&inner), Verdict::Parallel { .. })
                            {
                                break;
                            }
                            outer_vars.push(inner.var);
                            collapsed.push(inner.node);
                            depth += 1;
                            cur = inner;
                        }
                    }
                }
                if depth > 1 {
                    cl.push(format!("collapse({depth})"));
                }
                // Loop clauses written by the user (private, reduction, collapse…).
                for c in &d.clauses {
                    match &c.kind {
                        ClauseKind::Collapse { count, .. } if *count > 1 => {
                            cl.push(format!("collapse({count})"))
                        }
                        ClauseKind::Tile(t) if t.len() > 1 => {
                            cl.push(format!("collapse({})", t.len()))
                        }
                        ClauseKind::Private(v) => cl.push(format!("private({})", join(v))),
                        ClauseKind::Reduction { op, vars } => {
                            cl.push(format!("reduction({}: {})", op.spelling(), join(vars)))
                        }
                        _ => {}
                    }
                }
                let listed: BTreeSet<String> = d
                    .clauses
                    .iter()
                    .flat_map(|c| match &c.kind {
                        ClauseKind::Private(v) | ClauseKind::Reduction { vars: v, .. } => {
                            v.iter().map(|x| x.name.clone()).collect()
                        }
                        _ => Vec::new(),
                    })
                    .collect();
                let mut reds = Vec::new();
                for (op, dd) in &reductions {
                    let n = self
                        .ast
                        .as_ref()
                        .map(|a| a.decl(*dd).name.clone())
                        .unwrap_or_default();
                    if !listed.contains(&n) {
                        cl.push(format!("reduction({}: {})", op.spelling(), n));
                        reds.push(format!("{}: {}", op.spelling(), n));
                    }
                }
                let stmt_start = loc_off;
                let mut privs: Vec<String> = Vec::new();
                if let Some(an) = self.an() {
                    let mut ps = privates.clone();
                    ps.extend(an.auto_private(&fl));
                    let mut cur = fl.clone();
                    for _ in 1..depth {
                        if let Some(n) = an.perfectly_nested(&cur) {
                            ps.retain(|x| *x != n.var);
                            cur = n;
                        }
                    }
                    for p in ps {
                        let di = an.ast.decl(p);
                        if di.is_global
                            || (di.loc != usize::MAX && di.loc >= stmt_start)
                            || listed.contains(&di.name)
                            || privs.contains(&di.name)
                        {
                            continue;
                        }
                        privs.push(di.name.clone());
                    }
                }
                // In a kernels region these variables keep the value the loop leaves in them (a
                // scalar there is 'copy', and the program may read it after the loop): each
                // thread has its own copy, and the last iteration's is copied out. (The test
                // privatises only what every iteration writes before reading it.)
                if !privs.is_empty() {
                    cl.push(format!("lastprivate({})", privs.join(", ")));
                }
                let (teams, threads) = self.kernels_sizes(region, d, &plan, &inner);
                cl.extend(teams.iter().map(|n| format!("num_teams({n})")));
                cl.extend(threads.iter().map(|n| format!("thread_limit({n})")));
                let mut parts = vec!["gang(blockIdx.x)".to_string()];
                match (plan.thread, &threads) {
                    (Some("worker"), _) if lanes => {
                        parts.push("worker(threadIdx.y: one warp each)".into())
                    }
                    (Some(t), Some(n)) => parts.push(format!("{t}(threadIdx.x, {n})")),
                    (Some(t), None) => parts.push(format!("{t}(threadIdx.x)")),
                    (None, _) => {}
                }
                if depth > 1 {
                    parts.push(format!("collapse({depth})"));
                }
                let how = if explicit {
                    ""
                } else {
                    " (independent iterations proven)"
                };
                self.note(
                    loc_off,
                    InfoKind::Loop,
                    format!("loop parallelized: {}{how}", parts.join(" ")),
                );
                for r in reds {
                    self.note(
                        loc_off,
                        InfoKind::Reduction,
                        format!("reduction({r}) recognised"),
                    );
                }
                if !privs.is_empty() {
                    self.note(
                        loc_off,
                        InfoKind::Loop,
                        format!(
                            "made private to each thread, the last iteration's value kept: {}",
                            privs.join(", ")
                        ),
                    );
                }
                if let Some(k) = own {
                    self.plans.insert(k, plan.clone());
                }
                for (k, p) in &inner {
                    self.plans.insert(*k, p.clone());
                }
                for (k, p) in inner {
                    if p.is_seq() {
                        let orig = acc_text(&self.prs[k].text);
                        let why = match self.prs[k].stmt {
                            Some(s) if collapsed.contains(&s) => {
                                format!("in the collapse({depth}) of the parallel loop")
                            }
                            _ => p.why_seq.clone().unwrap_or_default(),
                        };
                        self.replace_pragma(k, vec![format!("/* {orig}: {why} */")]);
                    } else {
                        let line = self.thread_loop_pragma(k, &p);
                        self.replace_pragma(k, vec![line]);
                        let shown = if p.thread.is_some() && plan.thread.is_none() {
                            threads.clone()
                        } else {
                            None
                        };
                        self.report_loop(k, &p, shown);
                    }
                }
                (construct, cl)
            }
        }
    }

    /// The levels of the acc loops inside a parallel kernels nest whose own loop takes `outer`
    /// (None: gang only), as written: under a gang-only loop the first worker or vector loop
    /// of each path takes the block's threads; a vector loop under a worker level runs on the
    /// lanes of the worker's warp, as in a parallel region; every other loop is sequential.
    fn kernels_inner_plans(
        &self,
        stmt: NodeId,
        own: Option<usize>,
        outer: Option<&'static str>,
    ) -> Vec<(usize, Plan)> {
        let mut plans: Vec<(usize, Plan)> = Vec::new();
        for k in 0..self.prs.len() {
            let inside = self.prs[k]
                .stmt
                .is_some_and(|s| s != stmt && self.an().is_some_and(|an| an.inside(s, stmt)));
            if self.prs[k].dir.kind != DirectiveKind::Loop || Some(k) == own || !inside {
                continue;
            }
            let dk = &self.prs[k].dir;
            let (w, v) = (dk.has(ClauseName::Worker), dk.has(ClauseName::Vector));
            let around: Vec<&Plan> = plans
                .iter()
                .filter(|(o, _)| self.encloses(*o, k))
                .map(|(_, p)| p)
                .collect();
            let in_threads = outer.is_some() || around.iter().any(|p| !p.is_seq());
            let in_worker =
                outer == Some("worker") || around.iter().any(|p| p.thread == Some("worker"));
            let in_lanes = around.iter().any(|p| p.lanes || p.thread == Some("vector"));
            let plan = if dk.has(ClauseName::Seq) {
                Plan {
                    why_seq: Some("seq clause".into()),
                    ..Plan::default()
                }
            } else if !in_threads && (w || v) {
                Plan {
                    thread: Some(if w && !v { "worker" } else { "vector" }),
                    ..Plan::default()
                }
            } else if v && !w && in_worker && !in_lanes {
                Plan {
                    lanes: true,
                    ..Plan::default()
                }
            } else {
                Plan {
                    why_seq: Some("sequential inside the parallel loop".into()),
                    ..Plan::default()
                }
            };
            plans.push((k, plan));
        }
        plans
    }

    /// `num_teams` and `thread_limit` of a parallel kernels nest: the gangs of the loop's
    /// `gang(num:)` or the region's `num_gangs`; a block of `num_workers` warps when vector
    /// loops run on the workers' lanes, of `num_workers` threads when the workers are the
    /// threads, else of the vector length (`vector(n)` of the vector loop, or `vector_length`).
    fn kernels_sizes(
        &self,
        region: usize,
        d: &Directive,
        outer: &Plan,
        inner: &[(usize, Plan)],
    ) -> (Option<String>, Option<String>) {
        let rd = &self.prs[region].dir;
        let text = |e: &Expr| e.text.trim().to_string();
        let teams = d
            .clauses
            .iter()
            .find_map(|c| match &c.kind {
                ClauseKind::Gang(g) => g.num.as_ref().map(text),
                _ => None,
            })
            .or_else(|| {
                rd.clauses.iter().find_map(|c| match &c.kind {
                    ClauseKind::NumGangs(v) => num_gangs_total(v),
                    _ => None,
                })
            });
        // The directive of the loop that takes a level: the nest's own loop or an inner one.
        let level_dir = |level: &str| -> Option<&Directive> {
            if outer.thread == Some(level) {
                return Some(d);
            }
            inner
                .iter()
                .find(|(_, p)| p.thread == Some(level))
                .map(|(k, _)| &self.prs[*k].dir)
        };
        let workers = || {
            rd.clauses
                .iter()
                .find_map(|c| match &c.kind {
                    ClauseKind::NumWorkers(e) => Some(text(e)),
                    _ => None,
                })
                .or_else(|| {
                    level_dir("worker")?
                        .clauses
                        .iter()
                        .find_map(|c| match &c.kind {
                            ClauseKind::Worker(Some(e)) => Some(text(e)),
                            _ => None,
                        })
                })
        };
        let vector_length = |dir: &Directive| {
            dir.clauses
                .iter()
                .find_map(|c| match &c.kind {
                    ClauseKind::Vector(Some(e)) => Some(text(e)),
                    _ => None,
                })
                .or_else(|| {
                    rd.clauses.iter().find_map(|c| match &c.kind {
                        ClauseKind::VectorLength(e) => Some(text(e)),
                        _ => None,
                    })
                })
        };
        let threads = if inner.iter().any(|(_, p)| p.lanes) {
            workers().map(|w| format!("({w}) * 32"))
        } else if level_dir("worker").is_some() {
            workers()
        } else {
            level_dir("vector").and_then(vector_length)
        };
        (teams, threads)
    }

    fn silence_loops_in(&mut self, stmt: NodeId, why: &str) {
        for k in 0..self.prs.len() {
            if self.prs[k].dir.kind != DirectiveKind::Loop {
                continue;
            }
            let inside = self.prs[k]
                .stmt
                .is_some_and(|s| s != stmt && self.an().is_some_and(|an| an.inside(s, stmt)));
            if inside {
                let orig = acc_text(&self.prs[k].text);
                self.replace_pragma(k, vec![format!("/* {orig}: {why} */")]);
            }
        }
    }
}

fn used_thread_simd(loops: &[usize], plans: &HashMap<usize, Plan>) -> bool {
    loops
        .iter()
        .any(|i| plans.get(i).is_some_and(|p| p.simd || p.lanes))
}

fn found_red(v: &[(ReductionOp, DeclId)], d: DeclId) -> bool {
    v.iter().any(|(_, x)| *x == d)
}

/// The gang dimension of a directive with a `gang` clause, and whether `dim:` was written.
fn gang_dim(d: &Directive) -> Option<(i64, bool)> {
    d.clauses.iter().find_map(|c| match &c.kind {
        ClauseKind::Gang(g) => Some(match &g.dim {
            Some(e) => (e.int_literal().unwrap_or(1), true),
            None => (1, false),
        }),
        _ => None,
    })
}

/// `num_gangs(a[, b[, c]])` as one number of teams: every gang of every dimension.
fn num_gangs_total(v: &[Expr]) -> Option<String> {
    match v {
        [] => None,
        [a] => Some(a.text.trim().to_string()),
        _ => Some(
            v.iter()
                .map(|e| format!("({})", e.text.trim()))
                .collect::<Vec<_>>()
                .join(" * "),
        ),
    }
}

/// A structured `map(…)` clause of a data region as the `(enter data, exit data)` pair that does
/// the same with the dynamic reference count; None for what has no such pair.
fn enter_exit_maps(m: &str) -> Option<(String, String)> {
    let inner = m.strip_prefix("map(")?.strip_suffix(')')?;
    let inner = inner.strip_prefix(HOLD).unwrap_or(inner);
    let (present, inner) = match inner.strip_prefix("present, ") {
        Some(r) => (true, r),
        None => (false, inner),
    };
    let (kind, list) = inner.split_once(": ")?;
    let (en, ex) = match kind {
        "tofrom" => ("to", "from"),
        "to" => ("to", "release"),
        "from" => ("alloc", "from"),
        "alloc" => ("alloc", "release"),
        _ => return None,
    };
    let en = if present {
        format!("present, {en}")
    } else {
        en.to_string()
    };
    Some((format!("map({en}: {list})"), format!("map({ex}: {list})")))
}

/// The `int` async argument of an `async` clause for the runtime: the queue, or the default
/// queue of a bare `async`.
/// A file-scope `declare` with this clause makes the variable a `declare target` global.
fn declare_makes_device_global(kind: DataKind) -> bool {
    !matches!(
        kind,
        DataKind::Link | DataKind::DevicePtr | DataKind::Present
    )
}

fn async_arg(q: Option<&Expr>) -> String {
    match q {
        Some(e) => format!("(int)({})", e.text.trim()),
        None => format!("{DEFAULT_ASYNC}()"),
    }
}

/// `p` → `p[0:0]`; a section keeps its start with length 0 (attach/detach of the pointer).
fn attach_list(vars: &[VarRef]) -> String {
    vars.iter()
        .map(|v| {
            if v.has_section() {
                v.zero_length().render()
            } else {
                format!("{}[0:0]", v.render())
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Address and size in bytes of a clause variable.
fn section_bytes(v: &VarRef) -> (String, String) {
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

/// `acc loop seq` from `#pragma acc loop seq`, safe inside a C comment.
fn acc_text(line: &str) -> String {
    let t = line.trim().trim_start_matches('#').trim_start();
    let t = t.strip_prefix("pragma").unwrap_or(t).trim_start();
    t.replace("*/", "* /")
}

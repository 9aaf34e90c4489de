//! Checks that need the tree: reduction types, loop-level nesting (OpenACC 3.3, 2.9.2-2.9.4),
//! tightly nested `collapse`/`tile` nests, uses of `declare link` variables in device code, and
//! the warning on bare pointers in data clauses.

use ptxcc_passes::diagnostics::Diagnostic;

use crate::openacc::analysis::reduction_allowed;
use crate::openacc::ast::*;
use crate::openacc::cast::{DeclId, DeclKind, NodeId, TypeClass, NK};
use crate::openacc::parser::name_of;

use super::*;

impl Tr<'_> {
    /// `copy(p)` of a pointer `p` without a section moves the pointer's value, not the data it
    /// points to (OpenACC 3.3, 2.7.1): the device then follows a host address, which works on
    /// the emulator (same address space) and faults on a GPU. Valid, so a warning.
    pub(super) fn warn_bare_pointers(&mut self, i: usize) {
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
                let Some(d) = self.resolve(i, &v.name) else {
                    continue;
                };
                let Some(di) = self.ast.as_ref().map(|a| a.decl(d)) else {
                    continue;
                };
                // A parameter declared as an array is a pointer too (`DeclInfo::declared_array`).
                if matches!(di.ty, TypeClass::Pointer { .. }) {
                    found.push((v.span, name_of(c.name), v.name.clone(), di.declared_array));
                }
            }
        }
        for (span, clause, name, declared) in found {
            let (what, extent) = match declared {
                None => (String::new(), "n".to_string()),
                Some(len) => (
                    " (a parameter declared as an array is a pointer in C)".to_string(),
                    len.map_or("n".to_string(), |n| n.to_string()),
                ),
            };
            self.warn(
                i,
                span,
                format!(
                    "'{clause}({name})' moves the pointer '{name}'{what}, not the data it points to; a device that follows it reads host memory (give the data's extent, e.g. '{clause}({name}[0:{extent}])')"
                ),
            );
        }
    }

    pub(super) fn check_reductions(&mut self, i: usize) {
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

    /// OpenACC 3.3, 2.9.2-2.9.4: the region of a gang loop may not contain another gang loop,
    /// that of a worker loop no gang or worker loop, that of a vector loop no loop with a level.
    /// (Nests of gang(dim:) loops are checked with the gang dimensions, and gang-in-gang nests
    /// of kernels regions are accepted, see below.) Without this error the inner loop's level
    /// would silently be dropped (run sequentially).
    pub(super) fn check_level_nesting(&mut self, j: usize) {
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

    pub(super) fn check_for(&mut self, i: usize) -> bool {
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
        ok && self.check_tightly_nested(i, stmt) && self.check_forced_collapse(i, stmt)
    }

    /// `collapse(n)` (without `force:`) and `tile` with n sizes apply to n tightly nested loops
    /// (OpenACC 3.3, 2.9.1 and 2.9.8): nothing but the next loop in each loop's body. clang's
    /// OpenMP takes statements between them as intervening code and may run them once per
    /// iteration of the collapsed space, which computes something else than the program says,
    /// so that is an error here.
    pub(super) fn check_tightly_nested(&mut self, i: usize, stmt: NodeId) -> bool {
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

    /// `collapse(force:n)` (OpenACC 3.3, 2.9.1): the code between the loops runs in the
    /// innermost one, but each level still holds exactly one loop, and the trip counts must be
    /// computable before the nest and invariant in it. A bound that reads a variable the code
    /// between the loops declares or sets (`int s = rp[i], e = rp[i+1]; for (j = s; j < e; j++)`,
    /// a CSR row) has no value when clang's collapse computes the iteration space: the kernel
    /// then runs a garbage number of iterations and writes past the data (on the emulator, into
    /// the host's heap). Both are errors; bounds that name the outer loops' variables
    /// (`for (j = i; …)`, a triangle) are OpenMP's non-rectangular loops and are let through.
    pub(super) fn check_forced_collapse(&mut self, i: usize, stmt: NodeId) -> bool {
        let Some((n, span)) = self.prs[i].dir.clauses.iter().find_map(|c| match &c.kind {
            ClauseKind::Collapse { force: true, count } => Some((*count as usize, c.span)),
            _ => None,
        }) else {
            return true;
        };
        let text: String = self.prs[i]
            .text
            .get(span.start..span.end)
            .unwrap_or("collapse")
            .to_string();
        let Some(an) = self.an() else { return true };
        let ast = an.ast;
        let outer = ast.node(stmt);
        let (nest_start, nest_end) = (outer.start, outer.end);
        let written = self.written_in(stmt);
        let mut loops = vec![stmt];
        let mut problem = None;
        for depth in 1..n {
            let node = loops[depth - 1];
            let Some(mut body) = ast.node(node).children.last().copied() else {
                break;
            };
            while ast.node(body).kind == NK::Compound && ast.node(body).children.len() == 1 {
                body = ast.node(body).children[0];
            }
            let line = self.line_loc(self.sm.line_of(ast.node(node).start), 0).line;
            let fors: Vec<NodeId> = if ast.node(body).kind == NK::For {
                vec![body]
            } else if ast.node(body).kind == NK::Compound {
                ast.node(body)
                    .children
                    .iter()
                    .copied()
                    .filter(|&c| ast.node(c).kind == NK::For)
                    .collect()
            } else {
                Vec::new()
            };
            match fors.len() {
                1 => loops.push(fors[0]),
                0 if self.for_in(body) => {
                    problem = Some(format!(
                        "the body of the loop of line {line} holds the next loop only inside another statement"
                    ));
                    break;
                }
                0 => {
                    problem = Some(if depth == 1 {
                        "only 1 loop follows".to_string()
                    } else {
                        format!("only {depth} loops follow")
                    });
                    break;
                }
                k => {
                    problem = Some(format!(
                        "the body of the loop of line {line} has {k} loops, and a collapsed level holds one"
                    ));
                    break;
                }
            }
        }
        if problem.is_none() {
            // The bounds of the inner loops: what their headers (all but the body) read.
            let outer_vars: Vec<DeclId> = loops
                .iter()
                .filter_map(|&l| an.for_loop(l).map(|f| f.var))
                .collect();
            'levels: for &l in &loops[1..] {
                let own = an.for_loop(l).map(|f| f.var);
                let node = ast.node(l);
                let header: Vec<NodeId> = node
                    .children
                    .iter()
                    .take(node.children.len().saturating_sub(1))
                    .copied()
                    .collect();
                for h in header {
                    let mut bad = None;
                    ast.walk(h, &mut |k| {
                        let Some(d) = ast.node(k).decl else { return };
                        if bad.is_some() || Some(d) == own || outer_vars.contains(&d) {
                            return;
                        }
                        let di = ast.decl(d);
                        let inside =
                            di.loc != usize::MAX && di.loc >= nest_start && di.loc < nest_end;
                        if matches!(di.kind, DeclKind::Var | DeclKind::Param)
                            && (inside || written.contains(&d))
                        {
                            bad = Some(di.name.clone());
                        }
                    });
                    if let Some(name) = bad {
                        let line = self.line_loc(self.sm.line_of(node.start), 0).line;
                        problem = Some(format!(
                            "the bounds of the loop of line {line} read '{name}', which the code between the loops sets: the trip counts must be known before the nest (OpenACC 3.3, 2.9.1); collapse fewer loops"
                        ));
                        break 'levels;
                    }
                }
            }
        }
        let Some(problem) = problem else { return true };
        self.error(i, span, format!("'{text}': {problem}"));
        false
    }

    /// `declare link(names)`: ptxcc maps a link variable where data clauses name it, so compute
    /// constructs get the mapped copy, but has no device-side link pointer for device functions
    /// to follow: a use in a function compiled for the device (a `routine`, or a function that
    /// a compute construct or such a function calls) is an error at the use.
    pub(super) fn check_link_uses(&mut self, i: usize, names: &[String]) {
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
}

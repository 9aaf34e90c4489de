//! The decisions of `-fopenmp-offload-parallel-for`, on the preprocessed text and the tree libclang
//! gives for it (the OpenACC front end's `cast` layer, read with the `#pragma omp` lines blanked
//! so that the bodies of OpenMP constructs are plain statements).
use std::collections::{HashMap, HashSet};

use ptxcc_passes::diagnostics::Diagnostic;
use ptxcc_passes::driver_hints::SourceLine;

use super::directive::{self, Clause, Pragma};
use super::{Message, Translation};
use crate::openacc::cast::{self, Ast, DeclInfo, DeclKind, NodeId, TypeClass, NK};
use crate::openacc::srcmap::SourceMap;

/// What becomes of one `parallel for`.
enum Outcome {
    /// Rewritten as this pragma line; the notes say what changed besides the construct.
    Offloaded {
        line: String,
        construct: String,
        notes: Vec<String>,
    },
    /// Left on the host, for this reason.
    Host(String),
    /// Already device code (in a target region or a function compiled for the device): unchanged.
    Skip,
}

/// How a pragma relates to the statements around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    ParallelFor {
        simd: bool,
    },
    /// A construct that runs its statement on the device (`target`, `target teams …`).
    Target,
    TargetData,
    TargetEnterData,
    Other,
}

fn kind(p: &Pragma) -> Kind {
    let w: Vec<&str> = p.words.iter().map(String::as_str).collect();
    match w.as_slice() {
        ["parallel", "for"] => Kind::ParallelFor { simd: false },
        ["parallel", "for", "simd"] => Kind::ParallelFor { simd: true },
        ["target", "data"] => Kind::TargetData,
        ["target", "enter", "data"] => Kind::TargetEnterData,
        ["target", "exit", "data"] | ["target", "update"] => Kind::Other,
        ["target", ..] => Kind::Target,
        _ => Kind::Other,
    }
}

/// Directives without a statement of their own.
fn standalone(p: &Pragma) -> bool {
    let name = p.words.join(" ");
    match name.as_str() {
        "ordered" => p
            .clauses
            .iter()
            .any(|c| matches!(c.name.as_str(), "depend" | "doacross")),
        "barrier"
        | "taskwait"
        | "taskyield"
        | "flush"
        | "target enter data"
        | "target exit data"
        | "target update"
        | "cancel"
        | "cancellation point"
        | "threadprivate"
        | "requires"
        | "declare target"
        | "begin declare target"
        | "end declare target"
        | "declare simd"
        | "declare reduction"
        | "declare mapper"
        | "declare variant"
        | "begin declare variant"
        | "end declare variant"
        | "declare induction"
        | "depobj"
        | "scan"
        | "error"
        | "nothing"
        | "assumes"
        | "begin assumes"
        | "end assumes"
        | "interop"
        | "allocate"
        | "metadirective" => true,
        _ => p.words.is_empty(),
    }
}

/// Directives a loop may contain and still be offloaded.
fn allowed_inside(p: &Pragma) -> bool {
    matches!(p.words.join(" ").as_str(), "atomic" | "simd")
}

/// Functions the device provides although the translation unit does not define them: libclc's
/// math, and what clang turns into LLVM intrinsics.
fn provided_on_device(name: &str) -> bool {
    name.starts_with("__builtin_")
        || ptxcc_passes::math_library::libclc_name_for(name).is_some()
        || matches!(
            name,
            "abs" | "labs" | "llabs" | "memcpy" | "memset" | "memmove"
        )
}

fn is_const(d: &DeclInfo) -> bool {
    d.is_const || d.type_name.starts_with("const ")
}

/// A variable whose value is an address the loop would dereference on the device: pointers,
/// array parameters (pointers too), arrays of unknown size.
fn is_pointer_like(d: &DeclInfo) -> bool {
    if !matches!(d.kind, DeclKind::Var | DeclKind::Param) {
        return false;
    }
    match d.ty {
        TypeClass::Pointer { .. } => d.elem != TypeClass::Function,
        TypeClass::Array { .. } => d.kind == DeclKind::Param,
        TypeClass::IncompleteArray => true,
        _ => false,
    }
}

struct Cx<'a> {
    text: &'a str,
    sm: &'a SourceMap,
    pragmas: &'a [Pragma],
    ast: &'a Ast,
    /// The outermost node starting at each offset.
    outer_at: HashMap<usize, NodeId>,
    /// Function definitions with their tree: name → Function node.
    functions: HashMap<String, NodeId>,
    /// The statement of each pragma (None for standalone directives or when it was not found).
    stmt: Vec<Option<NodeId>>,
    /// `declare target` … `end declare target` ranges (byte offsets).
    dt_ranges: Vec<(usize, usize)>,
    /// Names listed by `declare target(list)` / `to`/`enter`/`link`.
    dt_names: HashSet<String>,
    threadprivate: HashSet<String>,
    /// Functions compiled for the device: declare target, and everything target regions reach.
    device_fns: HashSet<String>,
}

impl<'a> Cx<'a> {
    fn new(text: &'a str, sm: &'a SourceMap, pragmas: &'a [Pragma], ast: &'a Ast) -> Cx<'a> {
        let mut outer_at: HashMap<usize, NodeId> = HashMap::new();
        let mut functions = HashMap::new();
        for top in &ast.top {
            let Some(body) = top.body else { continue };
            if top.is_function && top.is_definition {
                functions.insert(top.name.clone(), body);
            }
            ast.walk(body, &mut |n| {
                let node = ast.node(n);
                if node.kind == NK::Function {
                    return;
                }
                match outer_at.get(&node.start) {
                    Some(&o) if ast.node(o).end >= node.end => {}
                    _ => {
                        outer_at.insert(node.start, n);
                    }
                }
            });
        }
        let mut cx = Cx {
            text,
            sm,
            pragmas,
            ast,
            outer_at,
            functions,
            stmt: Vec::new(),
            dt_ranges: Vec::new(),
            dt_names: HashSet::new(),
            threadprivate: HashSet::new(),
            device_fns: HashSet::new(),
        };
        cx.stmt = (0..pragmas.len()).map(|i| cx.statement_of(i)).collect();
        cx.declare_target();
        cx.device_functions();
        cx
    }

    /// The statement after pragma `i`: the outermost node at the first code after it (other
    /// pragma lines, line markers and blank lines skipped: `target data` may hold a `parallel for`).
    fn statement_of(&self, i: usize) -> Option<NodeId> {
        let p = &self.pragmas[i];
        if standalone(p) {
            return None;
        }
        let mut li = p.line + 1;
        while let Some(l) = self.sm.lines.get(li) {
            let line = self.text.get(l.start..l.end).unwrap_or("");
            let t = line.trim_start();
            if t.is_empty() || t.starts_with('#') {
                li += 1;
                continue;
            }
            let off = l.start + (line.len() - t.len());
            return self.outer_at.get(&off).copied();
        }
        None
    }

    fn extent(&self, n: NodeId) -> (usize, usize) {
        let node = self.ast.node(n);
        (node.start, node.end)
    }

    fn declare_target(&mut self) {
        let mut open: Vec<(usize, bool)> = Vec::new();
        for p in self.pragmas {
            let name = p.words.join(" ");
            let host_only = p.clauses.iter().any(|c| {
                c.name == "device_type" && c.args.as_deref().map(str::trim) == Some("host")
            });
            let lists: Vec<&Clause> = p
                .clauses
                .iter()
                .filter(|c| matches!(c.name.as_str(), "" | "to" | "enter" | "link"))
                .collect();
            match name.as_str() {
                "declare target" if !lists.is_empty() && !host_only => {
                    for c in lists {
                        let names = directive::list_names(&Clause {
                            name: "list".into(),
                            args: c.args.clone(),
                        });
                        self.dt_names.extend(names);
                    }
                }
                "declare target" | "begin declare target" => open.push((p.end, host_only)),
                "end declare target" => {
                    if let Some((from, host_only)) = open.pop() {
                        if !host_only {
                            self.dt_ranges.push((from, p.start));
                        }
                    }
                }
                "threadprivate" => {
                    for c in &p.clauses {
                        let names = directive::list_names(&Clause {
                            name: "list".into(),
                            args: c.args.clone(),
                        });
                        self.threadprivate.extend(names);
                    }
                }
                _ => {}
            }
        }
        for (from, host_only) in open {
            if !host_only {
                self.dt_ranges.push((from, self.text.len()));
            }
        }
    }

    fn in_declare_target(&self, off: usize) -> bool {
        self.dt_ranges.iter().any(|&(a, b)| off >= a && off < b)
    }

    fn is_declare_target_var(&self, d: &DeclInfo) -> bool {
        self.dt_names.contains(&d.name) || (d.loc != usize::MAX && self.in_declare_target(d.loc))
    }

    /// The functions called under `n`: Some(name), or None for a call through a pointer.
    fn calls(&self, n: NodeId) -> Vec<(Option<String>, usize)> {
        let mut out = Vec::new();
        self.ast.walk(n, &mut |id| {
            let node = self.ast.node(id);
            if node.kind == NK::Call {
                let callee = node.decl.map(|d| self.ast.decl(d));
                match callee {
                    Some(d) if d.kind == DeclKind::Function => {
                        out.push((Some(d.name.clone()), node.start))
                    }
                    // A builtin libclang does not resolve, or a call through a pointer.
                    _ => {
                        let name = self.callee_spelling(id);
                        out.push((name, node.start));
                    }
                }
            }
        });
        out
    }

    /// The callee of a call libclang did not resolve to a function: its spelled name when it is
    /// one (`__builtin_…`), None for a call through a pointer.
    fn callee_spelling(&self, call: NodeId) -> Option<String> {
        let node = self.ast.node(call);
        let first = *node.children.first()?;
        let callee = self.ast.node(self.ast.strip(first));
        match callee.kind {
            NK::DeclRef => match callee.decl.map(|d| self.ast.decl(d)) {
                Some(d) if matches!(d.kind, DeclKind::Var | DeclKind::Param) => None,
                _ => self.text.get(callee.start..callee.end).map(str::to_string),
            },
            _ => None,
        }
    }

    fn device_functions(&mut self) {
        let mut work: Vec<String> = Vec::new();
        for (name, &f) in &self.functions {
            let start = self.ast.node(f).start;
            if self.dt_names.contains(name) || self.in_declare_target(start) {
                work.push(name.clone());
            }
        }
        for (i, p) in self.pragmas.iter().enumerate() {
            if kind(p) == Kind::Target {
                if let Some(s) = self.stmt[i] {
                    work.extend(self.calls(s).into_iter().filter_map(|(c, _)| c));
                }
            }
        }
        while let Some(name) = work.pop() {
            if !self.device_fns.insert(name.clone()) {
                continue;
            }
            if let Some(&f) = self.functions.get(&name) {
                work.extend(self.calls(f).into_iter().filter_map(|(c, _)| c));
            }
        }
    }

    /// The function definition holding byte `off`.
    fn function_at(&self, off: usize) -> Option<(&str, NodeId)> {
        self.functions
            .iter()
            .find(|(_, &f)| {
                let (s, e) = self.extent(f);
                off >= s && off < e
            })
            .map(|(n, &f)| (n.as_str(), f))
    }

    /// Pragmas strictly inside `(from, to)`.
    fn pragmas_in(&self, from: usize, to: usize) -> impl Iterator<Item = &Pragma> {
        self.pragmas
            .iter()
            .filter(move |q| q.start > from && q.start < to)
    }

    /// Why the code of function `name` cannot run on the device, as the end of a sentence
    /// ("contains 'critical'"); None when it can. `seen` stops recursion.
    fn function_problem(&self, name: &str, seen: &mut HashSet<String>) -> Option<String> {
        if name.starts_with("omp_") {
            return Some(format!(
                "calls '{name}' (OpenMP runtime routines answer differently on the device)"
            ));
        }
        let Some(&f) = self.functions.get(name) else {
            if provided_on_device(name) {
                return None;
            }
            return Some(format!(
                "calls '{name}', which is not defined in this translation unit"
            ));
        };
        if !seen.insert(name.to_string()) {
            return None;
        }
        let (s, e) = self.extent(f);
        if let Some(q) = self.pragmas_in(s, e).find(|q| !allowed_inside(q)) {
            return Some(format!(
                "calls '{name}', which contains '{}'",
                q.words.join(" ")
            ));
        }
        let mut global = None;
        self.ast.walk(f, &mut |n| {
            let node = self.ast.node(n);
            if node.kind != NK::DeclRef || global.is_some() {
                return;
            }
            if let Some(d) = node.decl.map(|d| self.ast.decl(d)) {
                if d.kind == DeclKind::Var
                    && d.is_global
                    && !is_const(d)
                    && !self.is_declare_target_var(d)
                {
                    global = Some(d.name.clone());
                }
            }
        });
        if let Some(g) = global {
            return Some(format!(
                "calls '{name}', which uses the global '{g}' (only the globals a loop names itself are mapped; \
                 declare it with 'declare target' or pass it as an argument)"
            ));
        }
        for (callee, _) in self.calls(f) {
            match callee {
                None => {
                    return Some(format!(
                        "calls '{name}', which calls a function through a pointer"
                    ))
                }
                Some(c) => {
                    if let Some(why) = self.function_problem(&c, seen) {
                        return Some(format!("calls '{name}', which {why}"));
                    }
                }
            }
        }
        None
    }

    /// The enclosing construct that decides the loop's fate, if any.
    fn enclosing(&self, i: usize, l: NodeId) -> Result<Vec<usize>, Outcome> {
        let (ls, le) = self.extent(l);
        let mut data = Vec::new();
        let mut other = None;
        for (j, q) in self.pragmas.iter().enumerate() {
            if j == i {
                continue;
            }
            let Some(s) = self.stmt[j] else { continue };
            let (qs, qe) = self.extent(s);
            if !(qs <= ls && le <= qe) || q.start > self.pragmas[i].start {
                continue;
            }
            match kind(q) {
                Kind::Target => return Err(Outcome::Skip),
                Kind::TargetData => data.push(j),
                _ => {
                    other.get_or_insert(j);
                }
            }
        }
        match other {
            Some(j) => Err(Outcome::Host(format!(
                "it is nested in a '{}' construct",
                self.pragmas[j].words.join(" ")
            ))),
            None => Ok(data),
        }
    }

    /// The loops associated with `l` under collapse(n): `l` and the loops nested directly in it.
    fn associated_loops(&self, l: NodeId, n: usize) -> Vec<NodeId> {
        let mut out = vec![l];
        let mut cur = l;
        while out.len() < n {
            let Some(&body) = self.ast.node(cur).children.last() else {
                break;
            };
            let b = self.ast.node(body);
            let next = match b.kind {
                NK::For => Some(body),
                NK::Compound => {
                    let kids: Vec<NodeId> = b
                        .children
                        .iter()
                        .copied()
                        .filter(|&c| self.ast.node(c).kind != NK::Null)
                        .collect();
                    match kids.as_slice() {
                        [only] if self.ast.node(*only).kind == NK::For => Some(*only),
                        _ => None,
                    }
                }
                _ => None,
            };
            match next {
                Some(x) => {
                    out.push(x);
                    cur = x;
                }
                None => break,
            }
        }
        out
    }

    /// Declarations written under `n` (assignment, compound assignment, ++/--), with the offset
    /// of the write.
    fn writes(&self, n: NodeId) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        self.ast.walk(n, &mut |id| {
            let node = self.ast.node(id);
            let target = match node.kind {
                NK::Binary if node.op == cast::OP_ASSIGN => node.children.first(),
                NK::CompoundAssign => node.children.first(),
                NK::Unary
                    if matches!(
                        node.op,
                        cast::UOP_POSTINC | cast::UOP_POSTDEC | cast::UOP_PREINC | cast::UOP_PREDEC
                    ) =>
                {
                    node.children.first()
                }
                NK::VarDecl => {
                    if let Some(d) = node.decl {
                        out.push((d, node.start));
                    }
                    None
                }
                _ => None,
            };
            if let Some(&t) = target {
                let t = self.ast.node(self.ast.strip(t));
                if t.kind == NK::DeclRef {
                    if let Some(d) = t.decl {
                        out.push((d, t.start));
                    }
                }
            }
        });
        out
    }

    fn decide(&self, i: usize, simd: bool) -> Outcome {
        let p = &self.pragmas[i];
        let Some(l) = self.stmt[i].filter(|&s| self.ast.node(s).kind == NK::For) else {
            return Outcome::Host("ptxcc could not read the loop that follows it".into());
        };
        if self.in_declare_target(p.start) {
            return Outcome::Skip;
        }
        let data = match self.enclosing(i, l) {
            Ok(d) => d,
            Err(o) => return o,
        };
        let Some((func, _)) = self.function_at(p.start) else {
            return Outcome::Host("ptxcc could not read the function that holds it".into());
        };
        if self.device_fns.contains(func) {
            return Outcome::Skip;
        }

        // The clauses.
        let mut clauses: Vec<String> = Vec::new();
        let mut notes: Vec<String> = Vec::new();
        let mut excluded: HashSet<String> = HashSet::new();
        let mut collapse = 1usize;
        let mut default_private = false;
        for c in &p.clauses {
            let args = c.args.as_deref().unwrap_or("");
            match c.name.as_str() {
                "private" | "firstprivate" | "reduction" | "linear" => {
                    if c.name == "linear" && !simd {
                        return Outcome::Host(
                            "its linear clause (allowed on the target construct only with simd: use 'parallel for simd')".into(),
                        );
                    }
                    if c.name == "reduction" {
                        let parts = directive::split_top(args, ':');
                        if parts.len() < 2 {
                            return Outcome::Host("its reduction clause could not be read".into());
                        }
                        let mods = directive::split_top(parts[0], ',');
                        if mods.iter().any(|m| matches!(m.trim(), "inscan" | "task")) {
                            return Outcome::Host(format!(
                                "its reduction({}) modifier",
                                mods[0].trim()
                            ));
                        }
                        let op = mods.last().map(|m| m.trim()).unwrap_or("");
                        if !matches!(
                            op,
                            "+" | "-" | "*" | "&" | "|" | "^" | "&&" | "||" | "max" | "min"
                        ) {
                            return Outcome::Host(format!("its user-defined reduction '{op}'"));
                        }
                    }
                    excluded.extend(directive::list_names(c));
                    clauses.push(c.render());
                }
                "shared" | "order" | "safelen" | "simdlen" | "aligned" | "nontemporal" => {
                    clauses.push(c.render())
                }
                "default" => {
                    if !matches!(args.trim(), "shared" | "none") {
                        default_private = true;
                    }
                    clauses.push(c.render());
                }
                "collapse" => {
                    collapse = args.trim().parse().unwrap_or(1);
                    clauses.push(c.render());
                }
                "schedule" => {
                    let k = directive::schedule_kind(args);
                    if k != "static" {
                        return Outcome::Host(format!(
                            "schedule({k}) (ptxcc offloads static schedules only)"
                        ));
                    }
                    clauses.push(c.render());
                }
                "num_threads" => {
                    clauses.push(format!("thread_limit({args})"));
                    notes.push(format!(
                        "num_threads({}) became thread_limit({})",
                        args.trim(),
                        args.trim()
                    ));
                }
                "if" => {
                    let (m, e) = directive::directive_name_modifier(args);
                    match m.as_deref() {
                        None | Some("parallel") => {
                            clauses.push(format!("if(target: {e})"));
                            notes.push(format!("if({}) became if(target: {e}): when false the loop runs on the host", args.trim()));
                        }
                        _ => clauses.push(c.render()),
                    }
                }
                "proc_bind" => notes.push(format!("proc_bind({}) dropped", args.trim())),
                "lastprivate" => return Outcome::Host(
                    "its lastprivate clause (last values are not brought back from the device yet)"
                        .into(),
                ),
                "copyin" => {
                    return Outcome::Host(
                        "its copyin clause (threadprivate data stays on the host)".into(),
                    )
                }
                "" => return Outcome::Host("its clauses could not be read".into()),
                other => return Outcome::Host(format!("its {other} clause")),
            }
        }

        // What the loop contains and calls.
        let (ls, le) = self.extent(l);
        if let Some(q) = self.pragmas_in(ls, le).find(|q| !allowed_inside(q)) {
            return Outcome::Host(format!("it contains '{}'", q.words.join(" ")));
        }
        let mut seen = HashSet::new();
        for (callee, _) in self.calls(l) {
            match callee {
                None => return Outcome::Host("it calls a function through a pointer".into()),
                Some(c) => {
                    if let Some(why) = self.function_problem(&c, &mut seen) {
                        return Outcome::Host(format!("it {why}"));
                    }
                }
            }
        }
        let mut refs: Vec<(usize, usize)> = Vec::new(); // (decl, offset)
        self.ast.walk(l, &mut |n| {
            let node = self.ast.node(n);
            if node.kind == NK::DeclRef {
                if let Some(d) = node.decl {
                    refs.push((d, node.start));
                }
            }
        });
        for &(d, _) in &refs {
            let info = self.ast.decl(d);
            if info.is_global && self.threadprivate.contains(&info.name) {
                return Outcome::Host(format!(
                    "it uses the threadprivate variable '{}'",
                    info.name
                ));
            }
        }
        let outside = |info: &DeclInfo| info.loc == usize::MAX || info.loc < ls || info.loc >= le;

        // Scalars the loop writes that are shared: map(tofrom), or the device's copy would be
        // private to the kernel (scalars are firstprivate on target constructs).
        let mut loop_vars: HashSet<usize> = HashSet::new();
        for a in self.associated_loops(l, collapse) {
            let kids = &self.ast.node(a).children;
            for &k in kids.iter().take(kids.len().saturating_sub(1)) {
                loop_vars.extend(self.writes(k).into_iter().map(|(d, _)| d));
            }
        }
        let mut mapped_scalars: Vec<String> = Vec::new();
        if !default_private {
            for (d, _) in self.writes(l) {
                let info = self.ast.decl(d);
                if loop_vars.contains(&d)
                    || !matches!(info.kind, DeclKind::Var | DeclKind::Param)
                    || !info.ty.is_scalar()
                    || !outside(info)
                    || excluded.contains(&info.name)
                    || self.is_declare_target_var(info)
                    || mapped_scalars.contains(&info.name)
                {
                    continue;
                }
                mapped_scalars.push(info.name.clone());
            }
        }
        if !mapped_scalars.is_empty() {
            let list = mapped_scalars.join(", ");
            clauses.push(format!("map(tofrom: {list})"));
            notes.push(format!(
                "map(tofrom: {list}) added: the loop writes {} shared scalar{}",
                if mapped_scalars.len() == 1 {
                    "a"
                } else {
                    "these"
                },
                if mapped_scalars.len() == 1 { "" } else { "s" }
            ));
        }

        // Pointers: passed as zero-length array sections, they must be present already.
        let mut mapped: HashSet<String> = HashSet::new();
        for j in data {
            for c in self.pragmas[j].clauses.iter().filter(|c| c.name == "map") {
                mapped.extend(directive::list_names(c));
            }
        }
        let func_range = self
            .function_at(p.start)
            .map(|(_, f)| self.extent(f))
            .unwrap_or((0, 0));
        let mut entered_local: HashSet<String> = HashSet::new();
        let mut entered_global: HashSet<String> = HashSet::new();
        for q in self
            .pragmas
            .iter()
            .filter(|q| kind(q) == Kind::TargetEnterData)
        {
            for c in q.clauses.iter().filter(|c| c.name == "map") {
                let names = directive::list_names(c);
                if q.start >= func_range.0 && q.start < p.start {
                    entered_local.extend(names.iter().cloned());
                }
                entered_global.extend(names);
            }
        }
        let mut seen: HashSet<usize> = HashSet::new();
        let mut by_ranges: Vec<String> = Vec::new();
        for &(d, _) in &refs {
            let info = self.ast.decl(d);
            if !is_pointer_like(info)
                || !outside(info)
                || self.is_declare_target_var(info)
                || !seen.insert(d)
            {
                continue;
            }
            if mapped.contains(&info.name)
                || entered_local.contains(&info.name)
                || (info.is_global && entered_global.contains(&info.name))
            {
                continue;
            }
            by_ranges.push(format!("'{}'", info.name));
        }
        if !by_ranges.is_empty() {
            notes.push(format!(
                "{} {}: mapped at each launch by the loop's access ranges unless present",
                if by_ranges.len() == 1 {
                    "pointer"
                } else {
                    "pointers"
                },
                by_ranges.join(", ")
            ));
        }

        let prefix = self
            .text
            .get(p.start..p.start + p.words_rel)
            .unwrap_or("#pragma omp ");
        let construct = if simd {
            "target teams distribute parallel for simd"
        } else {
            "target teams distribute parallel for"
        };
        let mut line = format!("{prefix}{construct}");
        for c in &clauses {
            line.push(' ');
            line.push_str(c);
        }
        Outcome::Offloaded {
            line,
            construct: construct.to_string(),
            notes,
        }
    }
}

/// Translates every `parallel for` of `text` it can; see the module documentation.
pub fn translate(text: &str, file: &str) -> Result<Translation, Vec<Diagnostic>> {
    let sm = SourceMap::new(text, file);
    let lines: Vec<(usize, usize)> = sm.lines.iter().map(|l| (l.start, l.end)).collect();
    let pragmas = directive::scan(text, &lines);
    if !pragmas
        .iter()
        .any(|p| matches!(kind(p), Kind::ParallelFor { .. }))
    {
        return Ok(Translation {
            text: text.to_string(),
            ..Default::default()
        });
    }
    let blank = directive::blank_for_libclang(text, &pragmas);
    // Every function definition holds a '{': all of them are read in full.
    let braces: Vec<usize> = blank.match_indices('{').map(|(i, _)| i).collect();
    let ast = cast::parse(&blank, &braces).map_err(|e| {
        vec![Diagnostic {
            loc: None,
            message: format!("-fopenmp-offload-parallel-for needs libclang to read '{file}': {e}"),
        }]
    })?;
    let cx = Cx::new(text, &sm, &pragmas, &ast);

    let mut out = Translation::default();
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for (i, p) in pragmas.iter().enumerate() {
        let Kind::ParallelFor { simd } = kind(p) else {
            continue;
        };
        let name = p.words.join(" ");
        let loc = sm.pragma_loc(text, p.line, p.words_rel);
        match cx.decide(i, simd) {
            Outcome::Skip => {}
            Outcome::Host(why) => {
                out.messages.push(Message::Diagnostic(format!(
                    "{loc}: remark: {name} stays on the host: {why}"
                )));
                out.messages.push(Message::Report(format!(
                    "{}:{}: {name} stays on the host: {why}",
                    loc.file, loc.line
                )));
            }
            Outcome::Offloaded {
                line,
                construct,
                notes,
            } => {
                let notes = if notes.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", notes.join("; "))
                };
                out.offloaded.push(SourceLine {
                    file: loc.file.clone(),
                    line: loc.line,
                });
                out.messages.push(Message::Report(format!(
                    "{}:{}: {name} offloaded: {construct}{notes}",
                    loc.file, loc.line
                )));
                edits.push((p.start, p.end, line));
            }
        }
    }
    let mut text_out = String::with_capacity(text.len() + edits.len() * 32);
    let mut at = 0;
    for (s, e, line) in edits {
        text_out.push_str(&text[at..s]);
        text_out.push_str(&line);
        at = e;
    }
    text_out.push_str(&text[at..]);
    out.text = text_out;
    Ok(out)
}

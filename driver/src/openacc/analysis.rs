//! Questions the translation asks about the C code, answered on the libclang tree: which
//! variables a region references, where a statement ends, the shape of a `for` loop, and the
//! simple dependence test that decides whether a loop of a `kernels` region (or an `auto`
//! loop) may run in parallel.
use std::collections::{BTreeSet, HashMap};

use super::ast::ReductionOp;
use super::cast::*;

/// The canonical form of a `for` loop.
#[derive(Clone, Debug)]
pub struct ForLoop {
    pub node: NodeId,
    pub var: DeclId,
    /// The variable is declared in the loop's init (`for (int i = …)`).
    pub var_declared_in_init: bool,
    pub body: NodeId,
    /// Bounds and step, as nodes (None when not recognisable).
    pub lower: Option<NodeId>,
    pub upper: Option<NodeId>,
    pub step: Option<i64>,
    /// The condition is `var < upper`.
    pub strict_less: bool,
}

/// Byte offsets of the top-level `;` of a `for (init; cond; inc)` header and its `)`.
fn for_header(text: &str, start: usize, end: usize) -> Option<(usize, usize, usize, usize)> {
    let b = text.as_bytes();
    let mut i = start;
    while i < end && b[i] != b'(' {
        i += 1;
    }
    let open = i;
    let mut depth = 0i32;
    let mut semis = Vec::new();
    while i < end {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    if semis.len() == 2 {
                        return Some((open, semis[0], semis[1], i));
                    }
                    return None;
                }
            }
            b';' if depth == 1 => semis.push(i),
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < end && b[i] != q {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

pub struct Analyzer<'a> {
    pub ast: &'a Ast,
    pub text: &'a str,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Parallel {
        reductions: Vec<(ReductionOp, DeclId)>,
        privates: Vec<DeclId>,
    },
    Sequential(String),
}

impl<'a> Analyzer<'a> {
    pub fn name(&self, d: DeclId) -> &str {
        &self.ast.decl(d).name
    }

    /// The pieces of a `for` statement.
    pub fn for_loop(&self, id: NodeId) -> Option<ForLoop> {
        let n = self.ast.node(id);
        if n.kind != NK::For {
            return None;
        }
        let (_open, s1, s2, close) = for_header(self.text, n.start, n.end)?;
        let (mut init, mut cond, mut inc, mut body) = (None, None, None, None);
        for &c in &n.children {
            let cs = self.ast.node(c).start;
            if cs < s1 {
                init = Some(c);
            } else if cs < s2 {
                cond = Some(c);
            } else if cs < close {
                inc = Some(c);
            } else {
                body = Some(c);
            }
        }
        let body = body?;
        // Loop variable from init.
        let init = init?;
        let ni = self.ast.node(init);
        let (var, declared, lower) = match ni.kind {
            NK::DeclStmt => {
                let vd = *ni.children.first()?;
                let v = self.ast.node(vd);
                (v.decl?, true, v.children.last().copied())
            }
            NK::Binary if ni.op == OP_ASSIGN => {
                let l = self.ast.strip(*ni.children.first()?);
                let ln = self.ast.node(l);
                if ln.kind != NK::DeclRef {
                    return None;
                }
                (ln.decl?, false, ni.children.get(1).copied())
            }
            _ => return None,
        };
        // Condition: var OP bound or bound OP var.
        let mut upper = None;
        let mut strict_less = false;
        if let Some(c) = cond {
            let c = self.ast.strip(c);
            let cn = self.ast.node(c);
            if cn.kind == NK::Binary
                && [OP_LT, OP_LE, OP_GT, OP_GE, OP_NE].contains(&cn.op)
                && cn.children.len() == 2
            {
                let l = self.ast.strip(cn.children[0]);
                let r = self.ast.strip(cn.children[1]);
                if self.ast.node(l).decl == Some(var) && self.ast.node(l).kind == NK::DeclRef {
                    upper = Some(r);
                    strict_less = cn.op == OP_LT;
                } else if self.ast.node(r).decl == Some(var) && self.ast.node(r).kind == NK::DeclRef
                {
                    upper = Some(l);
                }
            }
        }
        // Increment.
        let mut step = None;
        if let Some(i) = inc {
            let i = self.ast.strip(i);
            let inn = self.ast.node(i);
            match inn.kind {
                NK::Unary if [UOP_POSTINC, UOP_PREINC].contains(&inn.op) => step = Some(1),
                NK::Unary if [UOP_POSTDEC, UOP_PREDEC].contains(&inn.op) => step = Some(-1),
                NK::CompoundAssign if inn.op == OP_ADD_ASSIGN => {
                    step = inn.children.get(1).and_then(|&c| self.ast.node(c).value)
                }
                NK::CompoundAssign if inn.op == OP_SUB_ASSIGN => {
                    step = inn
                        .children
                        .get(1)
                        .and_then(|&c| self.ast.node(c).value)
                        .map(|v| -v)
                }
                _ => {}
            }
        }
        Some(ForLoop {
            node: id,
            var,
            var_declared_in_init: declared,
            body,
            lower,
            upper,
            step,
            strict_less,
        })
    }

    /// Whether node `id` lies inside node `anc`.
    pub fn inside(&self, id: NodeId, anc: NodeId) -> bool {
        let mut cur = Some(id);
        while let Some(c) = cur {
            if c == anc {
                return true;
            }
            cur = self.ast.node(c).parent;
        }
        false
    }

    /// Variables (and parameters) referenced under `id`, declared outside it, in order of first
    /// reference, with the node of that first reference.
    pub fn outside_refs(&self, id: NodeId) -> Vec<(DeclId, NodeId)> {
        let n = self.ast.node(id);
        let (s, e) = (n.start, n.end);
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        self.ast.walk(id, &mut |k| {
            let kn = self.ast.node(k);
            if kn.kind == NK::DeclRef {
                if let Some(d) = kn.decl {
                    let di = self.ast.decl(d);
                    if matches!(di.kind, DeclKind::Var | DeclKind::Param)
                        && !(di.loc != usize::MAX && di.loc >= s && di.loc < e)
                        && seen.insert(d)
                    {
                        out.push((d, k));
                    }
                }
            }
        });
        out
    }

    /// The variable an lvalue expression writes, with the subscripts on the way (outermost first).
    pub fn lvalue_base(&self, id: NodeId) -> Option<(DeclId, Vec<NodeId>, bool)> {
        let mut cur = self.ast.strip(id);
        let mut subs = Vec::new();
        let mut through_member = false;
        for _ in 0..64 {
            let n = self.ast.node(cur);
            match n.kind {
                NK::DeclRef => {
                    subs.reverse();
                    return n.decl.map(|d| (d, subs, through_member));
                }
                NK::Subscript if n.children.len() == 2 => {
                    subs.push(n.children[1]);
                    cur = self.ast.strip(n.children[0]);
                }
                NK::Member if !n.children.is_empty() => {
                    through_member = true;
                    cur = self.ast.strip(n.children[0]);
                }
                _ => return None,
            }
        }
        None
    }

    /// Every write under `id`: (lvalue node, assignment node, operator, is plain `=`).
    pub(crate) fn writes(&self, id: NodeId) -> Vec<(NodeId, NodeId)> {
        let mut out = Vec::new();
        self.ast.walk(id, &mut |k| {
            let n = self.ast.node(k);
            match n.kind {
                NK::Binary if n.op == OP_ASSIGN => {
                    if let Some(&l) = n.children.first() {
                        out.push((l, k));
                    }
                }
                NK::CompoundAssign => {
                    if let Some(&l) = n.children.first() {
                        out.push((l, k));
                    }
                }
                NK::Unary if [UOP_POSTINC, UOP_PREINC, UOP_POSTDEC, UOP_PREDEC].contains(&n.op) => {
                    if let Some(&l) = n.children.first() {
                        out.push((l, k));
                    }
                }
                _ => {}
            }
        });
        out
    }

    /// Is `asg` a plain `=` whose right side does not read `d` (`d = rowstr[j]`, not
    /// `d = d + 1`)?
    pub(crate) fn assigns_without_reading(&self, asg: NodeId, d: DeclId) -> bool {
        let n = self.ast.node(asg);
        n.kind == NK::Binary
            && n.op == OP_ASSIGN
            && !self.refs_decl(*n.children.get(1).unwrap_or(&asg), d)
    }

    fn refs_decl(&self, id: NodeId, d: DeclId) -> bool {
        let mut found = false;
        self.ast.walk(id, &mut |k| {
            let n = self.ast.node(k);
            if n.kind == NK::DeclRef && n.decl == Some(d) {
                found = true;
            }
        });
        found
    }

    fn text_of(&self, id: NodeId) -> String {
        let n = self.ast.node(id);
        self.text
            .get(n.start..n.end)
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("")
    }

    /// `e` is `v`, `v ± c`, `c + v`, `k * v (± c)` with c, k invariant (no written variable).
    fn affine_in(&self, e: NodeId, v: DeclId, written: &BTreeSet<DeclId>) -> bool {
        self.affine_in_r(e, v, written, &HashMap::new())
    }

    /// `v * K` (or `K * v`, or `v` with K = 1): K's text or constant value.
    fn coefficient(
        &self,
        e: NodeId,
        v: DeclId,
        written: &BTreeSet<DeclId>,
    ) -> Option<(Option<i64>, String)> {
        let e = self.ast.strip(e);
        let n = self.ast.node(e);
        let is_v = |x: NodeId| {
            let x = self.ast.strip(x);
            self.ast.node(x).kind == NK::DeclRef && self.ast.node(x).decl == Some(v)
        };
        if is_v(e) {
            return Some((Some(1), "1".into()));
        }
        if n.kind == NK::Binary && n.op == OP_MUL && n.children.len() == 2 {
            let (l, r) = (n.children[0], n.children[1]);
            let k = if is_v(l) {
                r
            } else if is_v(r) {
                l
            } else {
                return None;
            };
            if !self.invariant(k, v, written) {
                return None;
            }
            return Some((self.ast.node(self.ast.strip(k)).value, self.text_of(k)));
        }
        None
    }

    /// Like `affine_in`, and also `v * K + w` where `w` is the counter of an inner loop running
    /// over [0, K) (`a[i*n + j]` with `for (j = 0; j < n; j++)`): distinct v, distinct elements.
    fn affine_in_r(
        &self,
        e: NodeId,
        v: DeclId,
        written: &BTreeSet<DeclId>,
        inner: &HashMap<DeclId, (Option<i64>, String)>,
    ) -> bool {
        let e = self.ast.strip(e);
        let n = self.ast.node(e);
        if n.kind == NK::Binary && n.op == OP_ADD && n.children.len() == 2 {
            let (l, r) = (n.children[0], n.children[1]);
            for (a, b) in [(l, r), (r, l)] {
                let bn = self.ast.node(self.ast.strip(b));
                if bn.kind != NK::DeclRef {
                    continue;
                }
                let (Some(w), Some((kv, kt))) = (bn.decl, self.coefficient(a, v, written)) else {
                    continue;
                };
                if let Some((uv, ut)) = inner.get(&w) {
                    let fits = match (kv, uv) {
                        (Some(k), Some(u)) => *u <= k && k > 0,
                        _ => *ut == kt,
                    };
                    if fits {
                        return true;
                    }
                }
            }
        }
        match n.kind {
            NK::DeclRef => n.decl == Some(v),
            NK::Binary if n.children.len() == 2 => {
                let (l, r) = (n.children[0], n.children[1]);
                let inv = |x: NodeId| self.invariant(x, v, written);
                match n.op {
                    OP_ADD => {
                        (self.affine_in(l, v, written) && inv(r))
                            || (inv(l) && self.affine_in(r, v, written))
                    }
                    OP_SUB => self.affine_in(l, v, written) && inv(r),
                    OP_MUL => {
                        (self.affine_in(l, v, written)
                            && self
                                .ast
                                .node(self.ast.strip(r))
                                .value
                                .is_some_and(|k| k != 0))
                            || (self.affine_in(r, v, written)
                                && self
                                    .ast
                                    .node(self.ast.strip(l))
                                    .value
                                    .is_some_and(|k| k != 0))
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    fn invariant(&self, e: NodeId, v: DeclId, written: &BTreeSet<DeclId>) -> bool {
        let mut ok = true;
        self.ast.walk(e, &mut |k| {
            let n = self.ast.node(k);
            match n.kind {
                NK::DeclRef => {
                    if let Some(d) = n.decl {
                        if d == v || written.contains(&d) {
                            ok = false;
                        }
                    }
                }
                NK::Call | NK::Binary if n.kind == NK::Call || n.op == OP_ASSIGN => ok = false,
                NK::CompoundAssign | NK::Unary
                    if n.kind == NK::CompoundAssign || n.op <= UOP_PREDEC =>
                {
                    ok = false
                }
                _ => {}
            }
        });
        ok
    }

    /// Whether an assignment node sits under a conditional relative to `body`.
    fn conditional_between(&self, id: NodeId, body: NodeId) -> bool {
        let mut cur = self.ast.node(id).parent;
        while let Some(c) = cur {
            // The body itself counts: a loop whose body is one `if` writes conditionally.
            let n = self.ast.node(c);
            if matches!(
                n.kind,
                NK::If | NK::Conditional | NK::Switch | NK::While | NK::Do | NK::Case | NK::Label
            ) {
                return true;
            }
            if n.kind == NK::Binary && (n.op == OP_LAND || n.op == OP_LOR) {
                return true;
            }
            if c == body {
                return false;
            }
            cur = n.parent;
        }
        false
    }

    /// The reduction `stmt` performs on `d`, if it is `d op= e`, `d = d op e`, `d = e op d`,
    /// `d = max(d, e)`-like or `d = d > e ? d : e`-like, with `d` not in `e`.
    pub fn reduction_of(&self, assign: NodeId, d: DeclId) -> Option<ReductionOp> {
        let n = self.ast.node(assign);
        let rhs = *n.children.get(1)?;
        let is_d = |x: NodeId| {
            let x = self.ast.strip(x);
            let xn = self.ast.node(x);
            xn.kind == NK::DeclRef && xn.decl == Some(d)
        };
        if n.kind == NK::CompoundAssign {
            if self.refs_decl(rhs, d) {
                return None;
            }
            return match n.op {
                OP_ADD_ASSIGN | OP_SUB_ASSIGN => Some(ReductionOp::Add),
                OP_MUL_ASSIGN => Some(ReductionOp::Mul),
                OP_AND_ASSIGN => Some(ReductionOp::BitAnd),
                OP_OR_ASSIGN => Some(ReductionOp::BitOr),
                OP_XOR_ASSIGN => Some(ReductionOp::BitXor),
                _ => None,
            };
        }
        if n.kind != NK::Binary || n.op != OP_ASSIGN {
            return None;
        }
        let r = self.ast.strip(rhs);
        let rn = self.ast.node(r);
        match rn.kind {
            NK::Binary if rn.children.len() == 2 => {
                let (a, b) = (rn.children[0], rn.children[1]);
                let op = match rn.op {
                    OP_ADD => ReductionOp::Add,
                    OP_SUB => ReductionOp::Add,
                    OP_MUL => ReductionOp::Mul,
                    OP_AND => ReductionOp::BitAnd,
                    OP_OR => ReductionOp::BitOr,
                    OP_XOR => ReductionOp::BitXor,
                    OP_LAND => ReductionOp::LogAnd,
                    OP_LOR => ReductionOp::LogOr,
                    _ => return None,
                };
                if is_d(a) && !self.refs_decl(b, d) {
                    return Some(op);
                }
                if rn.op != OP_SUB && is_d(b) && !self.refs_decl(a, d) {
                    return Some(op);
                }
                None
            }
            NK::Call => {
                let callee = rn
                    .decl
                    .map(|c| self.ast.decl(c).name.clone())
                    .unwrap_or_default();
                let op = match callee.as_str() {
                    "fmax" | "fmaxf" | "fmaxl" | "max" => ReductionOp::Max,
                    "fmin" | "fminf" | "fminl" | "min" => ReductionOp::Min,
                    _ => return None,
                };
                // Arguments are the children after the callee reference.
                let args: Vec<NodeId> = rn.children.iter().copied().skip(1).collect();
                if args.len() == 2
                    && (is_d(args[0]) && !self.refs_decl(args[1], d)
                        || is_d(args[1]) && !self.refs_decl(args[0], d))
                {
                    return Some(op);
                }
                None
            }
            NK::Conditional if rn.children.len() == 3 => {
                // d = (d > e) ? d : e   /  (e > d) ? e : d  …
                let c = self.ast.strip(rn.children[0]);
                let cn = self.ast.node(c);
                if cn.kind != NK::Binary || cn.children.len() != 2 {
                    return None;
                }
                let (t, f) = (rn.children[1], rn.children[2]);
                let (cl, cr) = (cn.children[0], cn.children[1]);
                let same = |x: NodeId, y: NodeId| self.text_of(x) == self.text_of(y);
                let greater = matches!(cn.op, OP_GT | OP_GE);
                let less = matches!(cn.op, OP_LT | OP_LE);
                if !(greater || less) {
                    return None;
                }
                // Pick the form: cond (X ? Y), value t, value f with {X, Y} = {d, e}.
                let picks_left = same(cl, t) && same(cr, f);
                let picks_right = same(cl, f) && same(cr, t);
                if !(picks_left || picks_right) {
                    return None;
                }
                let d_left = is_d(cl);
                let d_right = is_d(cr);
                if d_left == d_right {
                    return None;
                }
                let other = if d_left { cr } else { cl };
                if self.refs_decl(other, d) {
                    return None;
                }
                // picks_left with '>' → max; picks_left with '<' → min; picks_right inverts.
                let max = (greater && picks_left) || (less && picks_right);
                Some(if max {
                    ReductionOp::Max
                } else {
                    ReductionOp::Min
                })
            }
            _ => None,
        }
    }

    /// The simple dependence test for loop `l`: iterations are independent when every written
    /// array is indexed, in one dimension, by an affine function of the loop variable that every
    /// other access of that array repeats; written scalars must be private (written before read)
    /// or reductions. Distinct named arrays are assumed not to overlap.
    pub fn test(&self, l: &ForLoop) -> Verdict {
        let body = l.body;
        let (bs, be) = (self.ast.node(body).start, self.ast.node(body).end);
        let local = |d: DeclId| {
            let di = self.ast.decl(d);
            di.loc != usize::MAX && di.loc >= bs && di.loc < be && !di.is_global
        };
        // Control flow leaving the loop.
        let mut exit = None;
        self.ast.walk(body, &mut |k| {
            let n = self.ast.node(k);
            match n.kind {
                NK::Return | NK::Goto => exit = Some("a return or goto leaves the loop"),
                NK::Break => {
                    // A break belongs to this loop unless a nested loop or switch owns it.
                    let mut cur = n.parent;
                    let mut owned = false;
                    while let Some(c) = cur {
                        if c == body {
                            break;
                        }
                        if matches!(
                            self.ast.node(c).kind,
                            NK::For | NK::While | NK::Do | NK::Switch
                        ) {
                            owned = true;
                            break;
                        }
                        cur = self.ast.node(c).parent;
                    }
                    if !owned {
                        exit = Some("a break leaves the loop");
                    }
                }
                _ => {}
            }
        });
        if let Some(e) = exit {
            return Verdict::Sequential(e.to_string());
        }
        let writes = self.writes(body);
        let mut written: BTreeSet<DeclId> = BTreeSet::new();
        let mut bases: Vec<(DeclId, Vec<NodeId>, NodeId, NodeId)> = Vec::new(); // (var, subs, lvalue, assign)
        for &(lv, asg) in &writes {
            match self.lvalue_base(lv) {
                Some((d, subs, _m)) => {
                    if !local(d) {
                        written.insert(d);
                        bases.push((d, subs, lv, asg));
                    }
                }
                None => {
                    return Verdict::Sequential(format!(
                        "a write through '{}' cannot be analysed",
                        self.text
                            .get(self.ast.node(lv).start..self.ast.node(lv).end)
                            .unwrap_or("?")
                    ))
                }
            }
        }
        // Calls that get an array, pointer or address may write anything.
        let mut bad_call = None;
        self.ast.walk(body, &mut |k| {
            let n = self.ast.node(k);
            if n.kind == NK::Call && bad_call.is_none() {
                for &a in n.children.iter().skip(1) {
                    let a = self.ast.strip(a);
                    let an = self.ast.node(a);
                    let nonscalar_ref = an.kind == NK::DeclRef
                        && an.decl.is_some_and(|d| {
                            let di = self.ast.decl(d);
                            matches!(di.kind, DeclKind::Var | DeclKind::Param) && !di.ty.is_scalar()
                        });
                    let addr = an.kind == NK::Unary && an.op == UOP_ADDROF;
                    if nonscalar_ref || addr {
                        let callee = n
                            .decl
                            .map(|c| self.ast.decl(c).name.clone())
                            .unwrap_or_else(|| "a function".into());
                        bad_call = Some(format!("the call to {callee} may write its argument"));
                    }
                }
            }
        });
        if let Some(b) = bad_call {
            return Verdict::Sequential(b);
        }
        // Every variable the body writes, its own locals and inner loop counters included: none is
        // invariant. Inner loops counting from 0 below a bound give index ranges.
        let mut written_all: BTreeSet<DeclId> = written.clone();
        for &(lv, _) in &writes {
            if let Some((d, _, _)) = self.lvalue_base(lv) {
                written_all.insert(d);
            }
        }
        let mut inner: HashMap<DeclId, (Option<i64>, String)> = HashMap::new();
        self.ast.walk(body, &mut |k| {
            if let Some(fl) = self.for_loop(k) {
                written_all.insert(fl.var);
                let from_zero = fl
                    .lower
                    .is_some_and(|lo| self.ast.node(self.ast.strip(lo)).value == Some(0));
                if let (true, true, Some(1), Some(u)) =
                    (from_zero, fl.strict_less, fl.step, fl.upper)
                {
                    inner.insert(
                        fl.var,
                        (self.ast.node(self.ast.strip(u)).value, self.text_of(u)),
                    );
                }
            }
        });
        let mut reductions = Vec::new();
        let mut privates = Vec::new();
        // All references to each written variable, in textual order.
        let mut refs: HashMap<DeclId, Vec<NodeId>> = HashMap::new();
        self.ast.walk(body, &mut |k| {
            let n = self.ast.node(k);
            if n.kind == NK::DeclRef {
                if let Some(d) = n.decl {
                    if written.contains(&d) {
                        refs.entry(d).or_default().push(k);
                    }
                }
            }
        });
        for d in &written {
            let d = *d;
            if d == l.var {
                return Verdict::Sequential(format!(
                    "the loop variable {} is written in the body",
                    self.name(d)
                ));
            }
            let di = self.ast.decl(d);
            let my_writes: Vec<&(DeclId, Vec<NodeId>, NodeId, NodeId)> =
                bases.iter().filter(|b| b.0 == d).collect();
            let is_array_access = my_writes.iter().all(|w| !w.1.is_empty());
            if is_array_access && !di.ty.is_scalar() {
                // Find a dimension indexed by an affine function of the loop variable in every write.
                let first = &my_writes[0].1;
                let mut ok_dim = None;
                for (dim, &s) in first.iter().enumerate() {
                    if !self.affine_in_r(s, l.var, &written_all, &inner) {
                        continue;
                    }
                    let key = self.text_of(s);
                    // Every access of d (reads too) must use the same subscript in that dimension.
                    let mut all_same = true;
                    for &r in refs.get(&d).map(|v| v.as_slice()).unwrap_or(&[]) {
                        // Climb from the reference through its subscripts.
                        let mut cur = r;
                        let mut chain = Vec::new();
                        while let Some(p) = self.ast.node(cur).parent {
                            let pn = self.ast.node(p);
                            if matches!(pn.kind, NK::Paren | NK::Cast | NK::OtherExpr) {
                                cur = p;
                                continue;
                            }
                            if pn.kind == NK::Subscript
                                && pn.children.first() == Some(&cur)
                                && pn.children.len() == 2
                            {
                                chain.push(pn.children[1]);
                                cur = p;
                                continue;
                            }
                            if pn.kind == NK::Member {
                                cur = p;
                                continue;
                            }
                            break;
                        }
                        match chain.get(dim) {
                            Some(&sx) if self.text_of(sx) == key => {}
                            _ => {
                                all_same = false;
                                break;
                            }
                        }
                    }
                    if all_same {
                        ok_dim = Some(dim);
                        break;
                    }
                }
                if ok_dim.is_none() {
                    return Verdict::Sequential(format!("loop-carried dependence on {}", di.name));
                }
                continue;
            }
            if !di.ty.is_scalar() && !matches!(di.ty, TypeClass::Pointer { .. }) {
                return Verdict::Sequential(format!("loop-carried dependence on {}", di.name));
            }
            // A scalar: reduction?
            let all_refs = refs.get(&d).cloned().unwrap_or_default();
            let red_ops: Vec<Option<ReductionOp>> = my_writes
                .iter()
                .map(|w| self.reduction_of(w.3, d))
                .collect();
            if !red_ops.is_empty() && red_ops.iter().all(|r| r.is_some()) {
                let op = red_ops[0];
                let same_op = red_ops.iter().all(|r| *r == op);
                // Every reference must be inside one of the reduction statements.
                let inside_stmt = all_refs
                    .iter()
                    .all(|&r| my_writes.iter().any(|w| self.inside(r, w.3)));
                if let (true, true, Some(op)) = (same_op, inside_stmt, op) {
                    if reduction_allowed(op, di.ty) {
                        reductions.push((op, d));
                        continue;
                    }
                }
            }
            // Written before read in every iteration?
            let first = all_refs
                .iter()
                .copied()
                .min_by_key(|&r| self.ast.node(r).start);
            if let Some(f) = first {
                let plain_first = my_writes.iter().any(|w| {
                    self.ast.strip(w.2) == f
                        && self.assigns_without_reading(w.3, d)
                        && !self.conditional_between(w.3, body)
                });
                if plain_first {
                    privates.push(d);
                    continue;
                }
            }
            return Verdict::Sequential(format!("loop-carried dependence on {}", di.name));
        }
        Verdict::Parallel {
            reductions,
            privates,
        }
    }

    /// Scalars declared outside `lp`'s body (and not global) that the body writes before it reads
    /// them, and the control variables of nested loops declared outside: each thread needs its own.
    /// The scalars are found whatever the test says about arrays: a loop the user declared
    /// independent (or gave a level) runs in parallel even when the test cannot prove it, and
    /// its temporaries declared outside (C89 style) must not be shared by its threads.
    pub fn auto_private(&self, l: &ForLoop) -> Vec<DeclId> {
        let mut v = match self.test(l) {
            Verdict::Parallel { privates, .. } => privates,
            Verdict::Sequential(_) => Vec::new(),
        };
        for d in self.write_first_scalars(l) {
            if !v.contains(&d) {
                v.push(d);
            }
        }
        self.ast.walk(l.body, &mut |k| {
            if let Some(fl) = self.for_loop(k) {
                if !fl.var_declared_in_init && fl.var != l.var && !v.contains(&fl.var) {
                    v.push(fl.var);
                }
            }
        });
        v.retain(|&d| !self.ast.decl(d).is_global);
        v
    }

    /// Scalars and pointers declared outside `l`'s body that every iteration assigns with a plain,
    /// unconditional `=` (not reading them) before any other use: privatisable.
    pub(crate) fn write_first_scalars(&self, l: &ForLoop) -> Vec<DeclId> {
        let body = l.body;
        let (bs, be) = (self.ast.node(body).start, self.ast.node(body).end);
        let writes = self.writes(body);
        let mut candidates: BTreeSet<DeclId> = BTreeSet::new();
        for &(lv, _) in &writes {
            if let Some((d, subs, through_member)) = self.lvalue_base(lv) {
                let di = self.ast.decl(d);
                let inside = di.loc != usize::MAX && di.loc >= bs && di.loc < be;
                let scalar = di.ty.is_scalar() || matches!(di.ty, TypeClass::Pointer { .. });
                if subs.is_empty() && !through_member && scalar && !inside && d != l.var {
                    candidates.insert(d);
                }
            }
        }
        candidates
            .into_iter()
            .filter(|&d| {
                let mut first: Option<NodeId> = None;
                self.ast.walk(body, &mut |k| {
                    let n = self.ast.node(k);
                    if n.kind == NK::DeclRef
                        && n.decl == Some(d)
                        && first.is_none_or(|f| n.start < self.ast.node(f).start)
                    {
                        first = Some(k);
                    }
                });
                let Some(f) = first else { return false };
                writes.iter().any(|&(lv, asg)| {
                    self.ast.strip(lv) == f
                        && self.assigns_without_reading(asg, d)
                        && !self.conditional_between(asg, body)
                })
            })
            .collect()
    }

    /// The loops directly nested in `l`'s body when it is exactly one `for` (perfect nesting).
    pub fn perfectly_nested(&self, l: &ForLoop) -> Option<ForLoop> {
        let mut b = l.body;
        loop {
            let n = self.ast.node(b);
            if n.kind == NK::Compound && n.children.len() == 1 {
                b = n.children[0];
            } else {
                break;
            }
        }
        self.for_loop(b)
    }

    /// Whether `inner`'s bounds are known and name none of `outer_vars` (a rectangular nest, which
    /// can be collapsed into one iteration space).
    pub fn bounds_independent_of(&self, inner: &ForLoop, outer_vars: &[DeclId]) -> bool {
        [inner.lower, inner.upper].iter().all(|b| {
            b.is_some_and(|b| {
                let mut ok = true;
                self.ast.walk(b, &mut |k| {
                    if self
                        .ast
                        .node(k)
                        .decl
                        .is_some_and(|d| outer_vars.contains(&d))
                    {
                        ok = false;
                    }
                });
                ok
            })
        })
    }

    /// Where a statement ends, its `;` included.
    pub fn stmt_end(&self, id: NodeId) -> usize {
        let n = self.ast.node(id);
        match n.kind {
            NK::Compound | NK::DeclStmt | NK::Null | NK::Function => n.end,
            NK::For | NK::While | NK::If | NK::Switch | NK::Label | NK::Case | NK::Omp => {
                match n.children.last() {
                    Some(&c) if self.ast.node(c).end >= n.end => self.stmt_end(c).max(n.end),
                    _ => self.after_semicolon(n.end),
                }
            }
            _ => self.after_semicolon(n.end),
        }
    }

    pub fn after_semicolon(&self, end: usize) -> usize {
        let b = self.text.as_bytes();
        let mut i = end;
        while i < b.len() && (b[i] == b' ' || b[i] == b'\t' || b[i] == b'\r') {
            i += 1;
        }
        if i < b.len() && b[i] == b';' {
            i + 1
        } else {
            end
        }
    }
}

/// Whether OpenACC allows reduction operator `op` on a variable of class `ty`.
pub fn reduction_allowed(op: ReductionOp, ty: TypeClass) -> bool {
    match op {
        ReductionOp::Add | ReductionOp::Mul => {
            matches!(
                ty,
                TypeClass::Integer | TypeClass::Floating | TypeClass::Complex
            )
        }
        ReductionOp::Max | ReductionOp::Min | ReductionOp::LogAnd | ReductionOp::LogOr => {
            matches!(ty, TypeClass::Integer | TypeClass::Floating)
        }
        ReductionOp::BitAnd | ReductionOp::BitOr | ReductionOp::BitXor => ty == TypeClass::Integer,
    }
}

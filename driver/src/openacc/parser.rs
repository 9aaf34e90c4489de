//! Tokenizer and parser for the text of one `#pragma acc` line, with the clause tables of
//! OpenACC 3.3 (which clauses each directive accepts, which may follow `device_type`).
use super::ast::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    Ident,
    Number,
    Str,
    Char,
    Punct,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tok {
    pub kind: TokKind,
    pub text: String,
    pub start: usize,
    pub end: usize,
}

/// A parse error at a byte range of the pragma line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub span: Span,
    pub message: String,
}

/// `e` when it is not a constant at or below zero: sizes (gangs, workers, vector length, tile,
/// gang chunk) must be positive, and clang would word the error on the OpenMP text.
fn positive(e: Expr, what: &str) -> Result<Expr, ParseError> {
    match e.int_literal() {
        Some(v) if v <= 0 => err(
            e.span.start,
            e.span.end,
            format!("{what} must be positive, found '{}'", e.text.trim()),
        ),
        _ => Ok(e),
    }
}

fn err<T>(start: usize, end: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        span: Span { start, end },
        message: message.into(),
    })
}

const PUNCT3: [&str; 3] = ["<<=", ">>=", "..."];
const PUNCT2: [&str; 19] = [
    "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=",
    "&=", "|=", "^=",
];

/// Splits `text[from..]` into C tokens; offsets are relative to `text`.
pub fn tokenize(text: &str, from: usize) -> Result<Vec<Tok>, ParseError> {
    let b = text.as_bytes();
    let mut i = from.min(b.len());
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // Comments can only be here when the preprocessor kept them (-C).
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            match text.get(i + 2..).and_then(|r| r.find("*/")) {
                Some(p) => {
                    i = i + 2 + p + 2;
                    continue;
                }
                None => return err(i, b.len(), "unterminated comment in directive"),
            }
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            break;
        }
        let start = i;
        let kind;
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            kind = TokKind::Ident;
        } else if c.is_ascii_digit()
            || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            // pp-number
            i += 1;
            while i < b.len() {
                let d = b[i];
                let exponent_sign =
                    (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if exponent_sign
                    || d.is_ascii_alphanumeric()
                    || d == b'.'
                    || d == b'_'
                    || d == b'\''
                {
                    i += 1;
                } else {
                    break;
                }
            }
            kind = TokKind::Number;
        } else if c == b'"' || c == b'\'' {
            i += 1;
            let mut closed = false;
            while i < b.len() {
                if b[i] == b'\\' {
                    i += 2;
                    continue;
                }
                if b[i] == c {
                    i += 1;
                    closed = true;
                    break;
                }
                i += 1;
            }
            if !closed {
                return err(start, b.len(), "unterminated literal in directive");
            }
            i = i.min(b.len());
            kind = if c == b'"' {
                TokKind::Str
            } else {
                TokKind::Char
            };
        } else if c.is_ascii() {
            let rest = &text[i..];
            let len = if PUNCT3.iter().any(|p| rest.starts_with(p)) {
                3
            } else if PUNCT2.iter().any(|p| rest.starts_with(p)) {
                2
            } else {
                1
            };
            i += len;
            kind = TokKind::Punct;
        } else {
            // A non-ASCII character: take the whole UTF-8 sequence so that slicing stays valid.
            let ch_len = text[i..]
                .chars()
                .next()
                .map(|ch| ch.len_utf8())
                .unwrap_or(1);
            i += ch_len;
            kind = TokKind::Punct;
        }
        out.push(Tok {
            kind,
            text: text[start..i].to_string(),
            start,
            end: i,
        });
    }
    Ok(out)
}

/// Where `#pragma acc` ends in a line, if the line is an OpenACC pragma.
pub fn acc_pragma_start(line: &str) -> Option<usize> {
    let t = line.trim_start();
    let lead = line.len() - t.len();
    let t2 = t.strip_prefix('#')?;
    let t3 = t2.trim_start();
    let t4 = t3.strip_prefix("pragma")?;
    if !t4.starts_with([' ', '\t']) {
        return None;
    }
    let t5 = t4.trim_start();
    let t6 = t5.strip_prefix("acc")?;
    if t6
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return None;
    }
    Some(lead + (t.len() - t6.len()))
}

struct P<'a> {
    text: &'a str,
    toks: Vec<Tok>,
    pos: usize,
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k)
    }
    fn is(&self, s: &str) -> bool {
        self.peek().is_some_and(|t| t.text == s)
    }
    fn is_punct(&self, s: &str) -> bool {
        self.peek()
            .is_some_and(|t| t.kind == TokKind::Punct && t.text == s)
    }
    fn bump(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }
    fn end_off(&self) -> usize {
        self.text.len()
    }
    fn here(&self) -> usize {
        self.peek().map(|t| t.start).unwrap_or(self.end_off())
    }
    fn prev_end(&self) -> usize {
        if self.pos == 0 {
            0
        } else {
            self.toks.get(self.pos - 1).map(|t| t.end).unwrap_or(0)
        }
    }
    fn expect(&mut self, s: &str, what: &str) -> Result<Tok, ParseError> {
        match self.peek() {
            Some(t) if t.text == s => Ok(self.bump().unwrap_or_else(t_dummy)),
            Some(t) => err(
                t.start,
                t.end,
                format!("expected '{s}' {what}, found '{}'", t.text),
            ),
            None => err(
                self.end_off(),
                self.end_off(),
                format!("expected '{s}' {what} at end of directive"),
            ),
        }
    }
    /// Collects the tokens of one expression up to a top-level `,` or the closing `)` / `]`
    /// (not consumed). With `stop_colon`, a top-level `:` that is not part of `?:` ends it too.
    fn expr(&mut self, stop_colon: bool, what: &str) -> Result<Expr, ParseError> {
        let start_pos = self.pos;
        let mut depth: i32 = 0;
        let mut ternary = 0;
        while let Some(t) = self.peek() {
            if t.kind == TokKind::Punct {
                match t.text.as_str() {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => {
                        if depth == 0 {
                            break;
                        }
                        depth -= 1;
                    }
                    "," if depth == 0 => break,
                    "?" if depth == 0 => ternary += 1,
                    ":" if depth == 0 => {
                        if ternary > 0 {
                            ternary -= 1;
                        } else if stop_colon {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            self.pos += 1;
        }
        if self.pos == start_pos {
            let h = self.here();
            let found = self
                .peek()
                .map(|t| format!("'{}'", t.text))
                .unwrap_or_else(|| "end of directive".into());
            return err(h, h, format!("expected {what}, found {found}"));
        }
        let s = self.toks[start_pos].start;
        let e = self.toks[self.pos - 1].end;
        Ok(Expr {
            text: self.text[s..e].to_string(),
            span: Span { start: s, end: e },
        })
    }

    /// `name` followed by `:` (not `::`) at the current position.
    fn modifier(&self, name: &str) -> bool {
        self.peek()
            .is_some_and(|t| t.kind == TokKind::Ident && t.text == name)
            && self.peek_at(1).is_some_and(|t| t.text == ":")
    }

    fn var_ref(&mut self) -> Result<VarRef, ParseError> {
        let t = match self.peek() {
            Some(t) if t.kind == TokKind::Ident => t.clone(),
            Some(t) => {
                return err(
                    t.start,
                    t.end,
                    format!("expected a variable name, found '{}'", t.text),
                )
            }
            None => {
                return err(
                    self.end_off(),
                    self.end_off(),
                    "expected a variable name at end of directive",
                )
            }
        };
        self.pos += 1;
        let mut path = Vec::new();
        loop {
            if self.is_punct(".") || self.is_punct("->") {
                let arrow = self.is_punct("->");
                self.pos += 1;
                match self.peek() {
                    Some(m) if m.kind == TokKind::Ident => {
                        path.push(Access::Member {
                            arrow,
                            name: m.text.clone(),
                        });
                        self.pos += 1;
                    }
                    Some(m) => {
                        return err(
                            m.start,
                            m.end,
                            format!(
                                "expected a member name after '{}'",
                                if arrow { "->" } else { "." }
                            ),
                        )
                    }
                    None => {
                        return err(
                            self.end_off(),
                            self.end_off(),
                            "expected a member name at end of directive",
                        )
                    }
                }
            } else if self.is_punct("[") {
                let open = self.bump().map(|t| t.start).unwrap_or(0);
                let lower = if self.is_punct(":") {
                    None
                } else {
                    Some(self.expr(true, "an array subscript")?)
                };
                if self.is_punct(":") {
                    self.pos += 1;
                    let length = if self.is_punct("]") {
                        None
                    } else {
                        Some(self.expr(true, "a section length")?)
                    };
                    if self.is_punct(":") {
                        let h = self.here();
                        return err(
                            open,
                            h + 1,
                            format!(
                                "malformed array section '{}': a section is [lower:length]",
                                self.slice_from(open, h + 1)
                            ),
                        );
                    }
                    path.push(Access::Subscript(Subscript::Section { lower, length }));
                } else if let Some(l) = lower {
                    path.push(Access::Subscript(Subscript::Index(l)));
                }
                if !self.is_punct("]") {
                    let h = self.here();
                    let shown = self.slice_from(open, self.peek().map(|t| t.end).unwrap_or(h));
                    return err(
                        open,
                        h,
                        format!("malformed array section '{shown}': expected ']'"),
                    );
                }
                self.pos += 1;
            } else {
                break;
            }
        }
        // A section must not be followed by a member access (`a[0:n].x` is not a contiguous section).
        let mut seen_section = false;
        for a in &path {
            match a {
                Access::Subscript(Subscript::Section { .. }) => seen_section = true,
                Access::Member { .. } if seen_section => {
                    let e = self.prev_end();
                    return err(
                        t.start,
                        e,
                        format!(
                            "malformed array section '{}': a member cannot follow an array section",
                            self.slice_from(t.start, e)
                        ),
                    );
                }
                _ => {}
            }
        }
        Ok(VarRef {
            name: t.text.clone(),
            path,
            span: Span {
                start: t.start,
                end: self.prev_end(),
            },
        })
    }

    fn slice_from(&self, s: usize, e: usize) -> &str {
        let e = e.min(self.text.len());
        self.text.get(s.min(e)..e).unwrap_or("")
    }

    fn var_list(&mut self) -> Result<Vec<VarRef>, ParseError> {
        let mut v = vec![self.var_ref()?];
        while self.is_punct(",") {
            self.pos += 1;
            v.push(self.var_ref()?);
        }
        Ok(v)
    }

    fn expr_list(&mut self, what: &str) -> Result<Vec<Expr>, ParseError> {
        let mut v = vec![self.expr(false, what)?];
        while self.is_punct(",") {
            self.pos += 1;
            v.push(self.expr(false, what)?);
        }
        Ok(v)
    }

    fn close(&mut self, clause: &str) -> Result<(), ParseError> {
        match self.peek() {
            Some(t) if t.text == ")" => {
                self.pos += 1;
                Ok(())
            }
            Some(t) => err(
                t.start,
                t.end,
                format!("expected ')' to end '{clause}(', found '{}'", t.text),
            ),
            None => err(
                self.end_off(),
                self.end_off(),
                format!("expected ')' to end '{clause}(' at end of directive"),
            ),
        }
    }

    fn wait_args(&mut self) -> Result<WaitArgs, ParseError> {
        let mut w = WaitArgs::default();
        if self.modifier("devnum") {
            self.pos += 2;
            w.devnum = Some(self.expr(true, "a device number")?);
            self.expect(":", "after the wait device number")?;
        }
        if self.modifier("queues") {
            self.pos += 2;
        }
        w.queues = self.expr_list("a queue number")?;
        Ok(w)
    }
}

fn t_dummy() -> Tok {
    Tok {
        kind: TokKind::Punct,
        text: String::new(),
        start: 0,
        end: 0,
    }
}

fn clause_name(s: &str, dir: DirectiveKind) -> Option<ClauseName> {
    use ClauseName::*;
    Some(match s {
        "copy" | "pcopy" | "present_or_copy" => Copy,
        "copyin" | "pcopyin" | "present_or_copyin" => CopyIn,
        "copyout" | "pcopyout" | "present_or_copyout" => CopyOut,
        "create" | "pcreate" | "present_or_create" => Create,
        "no_create" => NoCreate,
        "present" => Present,
        "deviceptr" => DevicePtr,
        "attach" => Attach,
        "detach" => Detach,
        "delete" => Delete,
        "device_resident" => DeviceResident,
        "link" => Link,
        "private" => Private,
        "firstprivate" => FirstPrivate,
        "reduction" => Reduction,
        "use_device" => UseDevice,
        "self" if dir == DirectiveKind::Update => SelfList,
        "self" => SelfCond,
        "host" => Host,
        "device" => Device,
        "gang" => Gang,
        "worker" => Worker,
        "vector" => Vector,
        "seq" => Seq,
        "independent" => Independent,
        "auto" => Auto,
        "collapse" => Collapse,
        "tile" => Tile,
        "num_gangs" => NumGangs,
        "num_workers" => NumWorkers,
        "vector_length" => VectorLength,
        "if" => If,
        "if_present" => IfPresent,
        "finalize" => Finalize,
        "default" => Default,
        "async" => Async,
        "wait" => Wait,
        "device_type" | "dtype" => DeviceType,
        "device_num" => DeviceNum,
        "default_async" => DefaultAsync,
        "bind" => Bind,
        "nohost" => NoHost,
        _ => return None,
    })
}

const DATA_CLAUSES: &[ClauseName] = &[
    ClauseName::Copy,
    ClauseName::CopyIn,
    ClauseName::CopyOut,
    ClauseName::Create,
    ClauseName::NoCreate,
    ClauseName::Present,
    ClauseName::DevicePtr,
    ClauseName::Attach,
];

/// Clauses OpenACC 3.3 allows on each directive (section 2 tables).
pub fn allowed(dir: DirectiveKind, c: ClauseName) -> bool {
    use ClauseName::*;
    use DirectiveKind as D;
    let compute_common = [Async, Wait, DeviceType, If, SelfCond, Default];
    let loop_clauses = [
        Collapse,
        Gang,
        Worker,
        Vector,
        Seq,
        Independent,
        Auto,
        Tile,
        DeviceType,
        Private,
        Reduction,
    ];
    match dir {
        D::Parallel => {
            compute_common.contains(&c)
                || DATA_CLAUSES.contains(&c)
                || [
                    NumGangs,
                    NumWorkers,
                    VectorLength,
                    Reduction,
                    Private,
                    FirstPrivate,
                ]
                .contains(&c)
        }
        D::Serial => {
            compute_common.contains(&c)
                || DATA_CLAUSES.contains(&c)
                || [Reduction, Private, FirstPrivate].contains(&c)
        }
        D::Kernels => {
            compute_common.contains(&c)
                || DATA_CLAUSES.contains(&c)
                || [NumGangs, NumWorkers, VectorLength].contains(&c)
        }
        D::Loop => loop_clauses.contains(&c),
        D::ParallelLoop => allowed(D::Parallel, c) || loop_clauses.contains(&c),
        D::SerialLoop => allowed(D::Serial, c) || loop_clauses.contains(&c),
        D::KernelsLoop => allowed(D::Kernels, c) || loop_clauses.contains(&c),
        D::Data => [If, Async, Wait, DeviceType, Default].contains(&c) || DATA_CLAUSES.contains(&c),
        D::EnterData => [If, Async, Wait, CopyIn, Create, Attach].contains(&c),
        D::ExitData => [If, Async, Wait, CopyOut, Delete, Detach, Finalize].contains(&c),
        D::HostData => [UseDevice, If, IfPresent].contains(&c),
        D::Update => [
            Async, Wait, DeviceType, If, IfPresent, SelfList, Host, Device,
        ]
        .contains(&c),
        D::Declare => [
            Copy,
            CopyIn,
            CopyOut,
            Create,
            Present,
            DevicePtr,
            DeviceResident,
            Link,
        ]
        .contains(&c),
        D::Routine => [Gang, Worker, Vector, Seq, Bind, DeviceType, NoHost].contains(&c),
        D::Atomic => c == If,
        D::Wait => [Async, If].contains(&c),
        D::Cache => false,
        D::Init | D::Shutdown => [DeviceType, DeviceNum, If].contains(&c),
        D::Set => [DefaultAsync, DeviceNum, DeviceType, If].contains(&c),
    }
}

/// Clauses that may follow a `device_type` clause on each directive.
fn allowed_after_device_type(dir: DirectiveKind, c: ClauseName) -> bool {
    use ClauseName::*;
    use DirectiveKind as D;
    let compute = [Async, Wait, NumGangs, NumWorkers, VectorLength];
    let lp = [Collapse, Gang, Worker, Vector, Seq, Independent, Auto, Tile];
    match dir {
        D::Parallel | D::Kernels => compute.contains(&c),
        D::Serial => [Async, Wait].contains(&c),
        D::Loop => lp.contains(&c),
        D::ParallelLoop | D::KernelsLoop => compute.contains(&c) || lp.contains(&c),
        D::SerialLoop => [Async, Wait].contains(&c) || lp.contains(&c),
        D::Data | D::Update => [Async, Wait].contains(&c),
        D::Routine => [Gang, Worker, Vector, Seq, Bind].contains(&c),
        _ => false,
    }
}

/// Whether a clause may appear more than once on one directive.
fn repeatable(c: ClauseName) -> bool {
    use ClauseName::*;
    !matches!(
        c,
        Gang | Worker
            | Vector
            | Seq
            | Independent
            | Auto
            | Collapse
            | Tile
            | NumGangs
            | NumWorkers
            | VectorLength
            | If
            | SelfCond
            | IfPresent
            | Finalize
            | Default
            | Async
            | DeviceNum
            | DefaultAsync
            | Bind
            | NoHost
    )
}

fn directive_display(d: DirectiveKind) -> String {
    format!("'#pragma acc {}'", d.spelling())
}

/// Parses the directive that starts at byte `from` of `line` (just after `#pragma acc`).
pub fn parse_directive(line: &str, from: usize) -> Result<Directive, ParseError> {
    let toks = tokenize(line, from)?;
    let mut p = P {
        text: line,
        toks,
        pos: 0,
    };
    let first = match p.bump() {
        Some(t) => t,
        None => {
            return err(
                from,
                line.len(),
                "expected an OpenACC directive name after '#pragma acc'",
            )
        }
    };
    if first.kind != TokKind::Ident {
        return err(
            first.start,
            first.end,
            format!("expected an OpenACC directive name, found '{}'", first.text),
        );
    }
    let dstart = first.start;
    use DirectiveKind as D;
    let follows_loop = |p: &P| {
        p.peek()
            .is_some_and(|t| t.kind == TokKind::Ident && t.text == "loop")
    };
    let kind = match first.text.as_str() {
        "parallel" | "serial" | "kernels" => {
            let combined = follows_loop(&p);
            if combined {
                p.pos += 1;
            }
            match (first.text.as_str(), combined) {
                ("parallel", false) => D::Parallel,
                ("parallel", true) => D::ParallelLoop,
                ("serial", false) => D::Serial,
                ("serial", true) => D::SerialLoop,
                ("kernels", false) => D::Kernels,
                _ => D::KernelsLoop,
            }
        }
        "loop" => D::Loop,
        "data" => D::Data,
        "enter" | "exit" => {
            if p.peek().is_some_and(|t| t.text == "data") {
                p.pos += 1;
                if first.text == "enter" {
                    D::EnterData
                } else {
                    D::ExitData
                }
            } else {
                let e = p.peek().map(|t| t.end).unwrap_or(first.end);
                return err(
                    dstart,
                    e,
                    format!("unknown OpenACC directive '{}'", &line[dstart..e]),
                );
            }
        }
        "host_data" => D::HostData,
        "update" => D::Update,
        "declare" => D::Declare,
        "routine" => D::Routine,
        "atomic" => D::Atomic,
        "wait" => D::Wait,
        "cache" => D::Cache,
        "init" => D::Init,
        "shutdown" => D::Shutdown,
        "set" => D::Set,
        other => {
            return err(
                first.start,
                first.end,
                format!("unknown OpenACC directive '{other}'"),
            )
        }
    };
    let dspan = Span {
        start: dstart,
        end: p.prev_end(),
    };

    // Directive arguments.
    let arg = match kind {
        D::Wait => {
            if p.is_punct("(") {
                p.pos += 1;
                let w = p.wait_args()?;
                p.close("wait")?;
                DirectiveArg::Wait(Some(w))
            } else {
                DirectiveArg::Wait(None)
            }
        }
        D::Cache => {
            p.expect("(", "after 'cache'")?;
            let readonly = if p.modifier("readonly") {
                p.pos += 2;
                true
            } else {
                false
            };
            let vars = p.var_list()?;
            p.close("cache")?;
            DirectiveArg::Cache { readonly, vars }
        }
        D::Routine => {
            if p.is_punct("(") {
                p.pos += 1;
                let name = match p.bump() {
                    Some(t) if t.kind == TokKind::Ident => t.text,
                    Some(t) => {
                        return err(
                            t.start,
                            t.end,
                            format!("expected a function name in 'routine(', found '{}'", t.text),
                        )
                    }
                    None => {
                        return err(
                            line.len(),
                            line.len(),
                            "expected a function name in 'routine('",
                        )
                    }
                };
                p.close("routine")?;
                DirectiveArg::Routine(Some(name))
            } else {
                DirectiveArg::Routine(None)
            }
        }
        D::Atomic => {
            let k = match p.peek().map(|t| t.text.as_str()) {
                Some("read") => Some(AtomicKind::Read),
                Some("write") => Some(AtomicKind::Write),
                Some("update") => Some(AtomicKind::Update),
                Some("capture") => Some(AtomicKind::Capture),
                _ => None,
            };
            if k.is_some() {
                p.pos += 1;
            }
            DirectiveArg::Atomic(k.unwrap_or(AtomicKind::Update))
        }
        _ => DirectiveArg::None,
    };

    // Clauses, each validated against the tables.
    let mut clauses: Vec<(Clause, usize)> = Vec::new(); // (clause, device_type group index; 0 = before any)
    let mut group = 0usize;
    let mut group_applies: Vec<bool> = vec![true];
    let dt_is_group = !matches!(kind, D::Init | D::Shutdown | D::Set);
    while let Some(t) = p.peek().cloned() {
        if t.kind == TokKind::Punct && t.text == "," {
            p.pos += 1;
            continue;
        }
        if t.kind != TokKind::Ident {
            return err(
                t.start,
                t.end,
                format!("expected an OpenACC clause, found '{}'", t.text),
            );
        }
        let name = match clause_name(&t.text, kind) {
            Some(n) => n,
            None => {
                return err(
                    t.start,
                    t.end,
                    format!("unknown OpenACC clause '{}'", t.text),
                )
            }
        };
        if !allowed(kind, name) {
            return err(
                t.start,
                t.end,
                format!(
                    "clause '{}' is not allowed on {}",
                    t.text,
                    directive_display(kind)
                ),
            );
        }
        if group > 0
            && dt_is_group
            && name != ClauseName::DeviceType
            && !allowed_after_device_type(kind, name)
        {
            return err(
                t.start,
                t.end,
                format!(
                    "clause '{}' may not follow a 'device_type' clause on {}",
                    t.text,
                    directive_display(kind)
                ),
            );
        }
        p.pos += 1;
        let ck = parse_clause_args(&mut p, name, &t.text, kind)?;
        let span = Span {
            start: t.start,
            end: p.prev_end(),
        };
        let clause = Clause {
            kind: ck,
            name,
            span,
        };
        if name == ClauseName::DeviceType && dt_is_group {
            let applies = match &clause.kind {
                ClauseKind::DeviceType(v) => v.iter().any(|d| d.applies_to_nvidia()),
                _ => false,
            };
            group_applies.push(applies);
            group = group_applies.len() - 1;
            clauses.push((clause, group));
            continue;
        }
        if !repeatable(name) {
            if let Some((prev, _)) = clauses.iter().find(|(c, g)| c.name == name && *g == group) {
                let _ = prev;
                return err(
                    t.start,
                    span.end,
                    format!(
                        "clause '{}' appears more than once on {}",
                        t.text,
                        directive_display(kind)
                    ),
                );
            }
        }
        clauses.push((clause, group));
    }

    // Resolve device_type groups: default clauses, overridden by matching groups.
    let mut effective: Vec<Clause> = Vec::new();
    let mut overridden: Vec<ClauseName> = Vec::new();
    for (c, g) in &clauses {
        if *g > 0
            && c.name != ClauseName::DeviceType
            && group_applies.get(*g).copied().unwrap_or(false)
        {
            overridden.push(c.name);
        }
    }
    for (c, g) in clauses {
        if c.name == ClauseName::DeviceType && dt_is_group {
            continue;
        }
        if g == 0 {
            if repeatable(c.name) || !overridden.contains(&c.name) {
                effective.push(c);
            }
        } else if group_applies.get(g).copied().unwrap_or(false) {
            if !repeatable(c.name) {
                effective.retain(|e| e.name != c.name);
            }
            effective.push(c);
        }
    }

    let d = Directive {
        kind,
        arg,
        clauses: effective,
        span: dspan,
    };
    check_semantics(&d)?;
    Ok(d)
}

fn parse_clause_args(
    p: &mut P,
    name: ClauseName,
    spelled: &str,
    dir: DirectiveKind,
) -> Result<ClauseKind, ParseError> {
    use ClauseName as N;
    let name_start = p
        .toks
        .get(p.pos.wrapping_sub(1))
        .map(|t| t.start)
        .unwrap_or(0);
    let takes_optional = matches!(
        name,
        N::Gang | N::Worker | N::Vector | N::Async | N::Wait | N::SelfCond
    );
    let takes_none = matches!(
        name,
        N::Seq | N::Independent | N::Auto | N::IfPresent | N::Finalize | N::NoHost
    );
    if takes_none {
        if p.is_punct("(") {
            let h = p.here();
            return err(h, h + 1, format!("clause '{spelled}' takes no argument"));
        }
        return Ok(match name {
            N::Seq => ClauseKind::Seq,
            N::Independent => ClauseKind::Independent,
            N::Auto => ClauseKind::Auto,
            N::IfPresent => ClauseKind::IfPresent,
            N::Finalize => ClauseKind::Finalize,
            _ => ClauseKind::NoHost,
        });
    }
    if !p.is_punct("(") {
        if takes_optional {
            return Ok(match name {
                N::Gang => ClauseKind::Gang(GangArgs::default()),
                N::Worker => ClauseKind::Worker(None),
                N::Vector => ClauseKind::Vector(None),
                N::Async => ClauseKind::Async(None),
                N::Wait => ClauseKind::Wait(None),
                _ => ClauseKind::SelfCond(None),
            });
        }
        let h = p.here();
        return err(
            name_start,
            h.max(name_start + spelled.len()),
            format!("clause '{spelled}' requires an argument in parentheses"),
        );
    }
    p.pos += 1; // (
    let data = |kind: DataKind| -> Option<DataKind> { Some(kind) };
    let data_kind = match name {
        N::Copy => data(DataKind::Copy),
        N::CopyIn => data(DataKind::CopyIn),
        N::CopyOut => data(DataKind::CopyOut),
        N::Create => data(DataKind::Create),
        N::NoCreate => data(DataKind::NoCreate),
        N::Present => data(DataKind::Present),
        N::DevicePtr => data(DataKind::DevicePtr),
        N::Attach => data(DataKind::Attach),
        N::Detach => data(DataKind::Detach),
        N::Delete => data(DataKind::Delete),
        N::DeviceResident => data(DataKind::DeviceResident),
        N::Link => data(DataKind::Link),
        _ => None,
    };
    let kind = if let Some(dk) = data_kind {
        let mut modifier = None;
        if p.modifier("readonly")
            || p.modifier("zero")
            || p.modifier("always")
            || p.modifier("alwaysin")
            || p.modifier("alwaysout")
            || p.modifier("capture")
        {
            let m = p.peek().cloned().unwrap_or_else(t_dummy);
            let ok = match (m.text.as_str(), dk) {
                ("readonly", DataKind::CopyIn) => Some(DataModifier::ReadOnly),
                ("zero", DataKind::Create) | ("zero", DataKind::CopyOut) => {
                    Some(DataModifier::Zero)
                }
                _ => None,
            };
            match ok {
                Some(md) => modifier = Some(md),
                None => {
                    return err(
                        m.start,
                        m.end,
                        format!("modifier '{}' is not allowed on clause '{spelled}'", m.text),
                    )
                }
            }
            p.pos += 2;
        }
        ClauseKind::Data {
            kind: dk,
            modifier,
            vars: p.var_list()?,
        }
    } else {
        match name {
            N::Private => ClauseKind::Private(p.var_list()?),
            N::FirstPrivate => ClauseKind::FirstPrivate(p.var_list()?),
            N::UseDevice => ClauseKind::UseDevice(p.var_list()?),
            N::SelfList | N::Host => ClauseKind::UpdateSelf(p.var_list()?),
            N::Device => ClauseKind::UpdateDevice(p.var_list()?),
            N::Reduction => {
                let t = p.bump().unwrap_or_else(t_dummy);
                let op = match t.text.as_str() {
                    "+" => ReductionOp::Add,
                    "*" => ReductionOp::Mul,
                    "max" => ReductionOp::Max,
                    "min" => ReductionOp::Min,
                    "&" => ReductionOp::BitAnd,
                    "|" => ReductionOp::BitOr,
                    "^" => ReductionOp::BitXor,
                    "&&" => ReductionOp::LogAnd,
                    "||" => ReductionOp::LogOr,
                    "-" => ReductionOp::Add,
                    _ => {
                        return err(
                            t.start,
                            t.end,
                            format!(
                                "unknown reduction operator '{}' (expected +, *, max, min, &, |, ^, && or ||)",
                                t.text
                            ),
                        )
                    }
                };
                p.expect(":", "after the reduction operator")?;
                ClauseKind::Reduction {
                    op,
                    vars: p.var_list()?,
                }
            }
            N::Gang => {
                let mut g = GangArgs::default();
                loop {
                    if p.modifier("num") {
                        p.pos += 2;
                        g.num = Some(positive(
                            p.expr(false, "a number of gangs")?,
                            "the number of gangs",
                        )?);
                    } else if p.modifier("dim") {
                        p.pos += 2;
                        g.dim = Some(p.expr(false, "a gang dimension")?);
                    } else if p.modifier("static") {
                        p.pos += 2;
                        if p.is_punct("*")
                            && p.peek_at(1).is_some_and(|t| t.text == ")" || t.text == ",")
                        {
                            p.pos += 1;
                            g.static_ = Some(GangStatic::Star);
                        } else {
                            g.static_ = Some(GangStatic::Size(positive(
                                p.expr(false, "a gang chunk size")?,
                                "the gang chunk size",
                            )?));
                        }
                    } else {
                        if g.num.is_some() {
                            let h = p.here();
                            return err(h, h, "'gang' takes at most one num: argument");
                        }
                        g.num = Some(positive(
                            p.expr(false, "a gang argument")?,
                            "the number of gangs",
                        )?);
                    }
                    if p.is_punct(",") {
                        p.pos += 1;
                    } else {
                        break;
                    }
                }
                ClauseKind::Gang(g)
            }
            N::Worker => {
                if p.modifier("num") {
                    p.pos += 2;
                }
                ClauseKind::Worker(Some(positive(
                    p.expr(false, "a number of workers")?,
                    "the number of workers",
                )?))
            }
            N::Vector => {
                if p.modifier("length") {
                    p.pos += 2;
                }
                ClauseKind::Vector(Some(positive(
                    p.expr(false, "a vector length")?,
                    "the vector length",
                )?))
            }
            N::Collapse => {
                let force = if p.modifier("force") {
                    p.pos += 2;
                    true
                } else {
                    false
                };
                let e = p.expr(false, "a collapse count")?;
                match e.int_literal() {
                    Some(n) if (1..=64).contains(&n) => ClauseKind::Collapse {
                        force,
                        count: n as u32,
                    },
                    _ => {
                        return err(
                            e.span.start,
                            e.span.end,
                            format!(
                                "collapse count '{}' must be a positive integer constant",
                                e.text
                            ),
                        )
                    }
                }
            }
            N::Tile => {
                let mut v = Vec::new();
                loop {
                    if p.is_punct("*")
                        && p.peek_at(1).is_some_and(|t| t.text == ")" || t.text == ",")
                    {
                        p.pos += 1;
                        v.push(TileSize::Star);
                    } else {
                        v.push(TileSize::Size(positive(
                            p.expr(false, "a tile size")?,
                            "a tile size",
                        )?));
                    }
                    if p.is_punct(",") {
                        p.pos += 1;
                    } else {
                        break;
                    }
                }
                ClauseKind::Tile(v)
            }
            N::NumGangs => {
                let v = p
                    .expr_list("a number of gangs")?
                    .into_iter()
                    .map(|e| positive(e, "the number of gangs"))
                    .collect::<Result<Vec<_>, _>>()?;
                if v.len() > 3 {
                    return err(
                        v[3].span.start,
                        v[3].span.end,
                        "'num_gangs' takes at most three arguments",
                    );
                }
                ClauseKind::NumGangs(v)
            }
            N::NumWorkers => ClauseKind::NumWorkers(positive(
                p.expr(false, "a number of workers")?,
                "the number of workers",
            )?),
            N::VectorLength => ClauseKind::VectorLength(positive(
                p.expr(false, "a vector length")?,
                "the vector length",
            )?),
            N::If => ClauseKind::If(p.expr(false, "a condition")?),
            N::SelfCond => ClauseKind::SelfCond(Some(p.expr(false, "a condition")?)),
            N::Default => {
                let t = p.bump().unwrap_or_else(t_dummy);
                match t.text.as_str() {
                    "none" => ClauseKind::Default(DefaultKind::None),
                    "present" => ClauseKind::Default(DefaultKind::Present),
                    _ => {
                        return err(
                            t.start,
                            t.end,
                            format!(
                                "expected 'none' or 'present' in 'default(', found '{}'",
                                t.text
                            ),
                        )
                    }
                }
            }
            N::Async => ClauseKind::Async(Some(p.expr(false, "an async queue")?)),
            N::Wait => ClauseKind::Wait(Some(p.wait_args()?)),
            N::DeviceType => {
                let mut v = Vec::new();
                loop {
                    let t = p.bump().unwrap_or_else(t_dummy);
                    if t.text == "*" {
                        v.push(DeviceTypeName::Star);
                    } else if t.kind == TokKind::Ident {
                        v.push(DeviceTypeName::Named(t.text.clone()));
                    } else {
                        let (s, e) = if t.text.is_empty() {
                            (p.end_off(), p.end_off())
                        } else {
                            (t.start, t.end)
                        };
                        return err(
                            s,
                            e,
                            format!("expected a device type name, found '{}'", t.text),
                        );
                    }
                    if p.is_punct(",") {
                        p.pos += 1;
                    } else {
                        break;
                    }
                }
                ClauseKind::DeviceType(v)
            }
            N::DeviceNum => ClauseKind::DeviceNum(p.expr(false, "a device number")?),
            N::DefaultAsync => ClauseKind::DefaultAsync(p.expr(false, "an async queue")?),
            N::Bind => {
                let t = p.bump().unwrap_or_else(t_dummy);
                match t.kind {
                    TokKind::Ident => ClauseKind::Bind(t.text),
                    TokKind::Str => ClauseKind::Bind(t.text.trim_matches('"').to_string()),
                    _ => {
                        return err(
                            t.start,
                            t.end,
                            format!("expected a name in 'bind(', found '{}'", t.text),
                        )
                    }
                }
            }
            _ => {
                let h = p.here();
                return err(h, h, format!("clause '{spelled}' takes no argument"));
            }
        }
    };
    let _ = dir;
    p.close(spelled)?;
    Ok(kind)
}

/// Rules between clauses of one directive.
fn check_semantics(d: &Directive) -> Result<(), ParseError> {
    use ClauseName as N;
    let levels = [N::Gang, N::Worker, N::Vector];
    if let Some(seq) = d.find(N::Seq) {
        if let Some(c) = d
            .clauses
            .iter()
            .find(|c| levels.contains(&c.name) || c.name == N::Independent || c.name == N::Auto)
        {
            let _ = seq;
            return err(
                c.span.start,
                c.span.end,
                format!("clause '{}' cannot be combined with 'seq'", name_of(c.name)),
            );
        }
    }
    if let (Some(_), Some(i)) = (d.find(N::Auto), d.find(N::Independent)) {
        return err(
            i.span.start,
            i.span.end,
            "clause 'independent' cannot be combined with 'auto'",
        );
    }
    if let (Some(_), Some(t)) = (d.find(N::Collapse), d.find(N::Tile)) {
        return err(
            t.span.start,
            t.span.end,
            "clause 'tile' cannot be combined with 'collapse'",
        );
    }
    // gang(dim:d): a constant 1, 2 or 3 (OpenACC 3.3 2.9.2).
    for c in &d.clauses {
        if let ClauseKind::Gang(GangArgs { dim: Some(e), .. }) = &c.kind {
            if !matches!(e.int_literal(), Some(1..=3)) {
                return err(
                    e.span.start,
                    e.span.end,
                    "the 'dim' argument of 'gang' must be the constant 1, 2 or 3",
                );
            }
        }
    }
    if matches!(d.kind, DirectiveKind::Kernels | DirectiveKind::KernelsLoop) {
        for c in &d.clauses {
            if let ClauseKind::NumGangs(v) = &c.kind {
                if v.len() > 1 {
                    return err(
                        v[1].span.start,
                        v[1].span.end,
                        "'num_gangs' on a kernels construct takes one argument",
                    );
                }
            }
        }
    }
    match d.kind {
        DirectiveKind::EnterData | DirectiveKind::ExitData
            if !d
                .clauses
                .iter()
                .any(|c| matches!(c.kind, ClauseKind::Data { .. })) =>
        {
            return err(
                d.span.start,
                d.span.end,
                format!(
                    "{} requires at least one data clause",
                    directive_display(d.kind)
                ),
            );
        }
        DirectiveKind::Data
            if !d
                .clauses
                .iter()
                .any(|c| matches!(c.kind, ClauseKind::Data { .. } | ClauseKind::Default(_))) =>
        {
            return err(
                d.span.start,
                d.span.end,
                "'#pragma acc data' requires at least one data clause",
            );
        }
        DirectiveKind::HostData if !d.has(N::UseDevice) => {
            return err(
                d.span.start,
                d.span.end,
                "'#pragma acc host_data' requires a 'use_device' clause",
            );
        }
        DirectiveKind::Update
            if !d.clauses.iter().any(|c| {
                matches!(
                    c.kind,
                    ClauseKind::UpdateSelf(_) | ClauseKind::UpdateDevice(_)
                )
            }) =>
        {
            return err(
                d.span.start,
                d.span.end,
                "'#pragma acc update' requires a 'self', 'host' or 'device' clause",
            );
        }
        DirectiveKind::Declare if d.clauses.is_empty() => {
            return err(
                d.span.start,
                d.span.end,
                "'#pragma acc declare' requires at least one data clause",
            );
        }
        DirectiveKind::Set if d.clauses.is_empty() => {
            return err(
                    d.span.start,
                    d.span.end,
                    "'#pragma acc set' requires a 'default_async', 'device_num' or 'device_type' clause",
                );
        }
        DirectiveKind::Routine => {
            let n = d
                .clauses
                .iter()
                .filter(|c| levels.contains(&c.name) || c.name == N::Seq)
                .count();
            if n > 1 {
                return err(
                    d.span.start,
                    d.span.end,
                    "'#pragma acc routine' takes exactly one of gang, worker, vector and seq",
                );
            }
        }
        _ => {}
    }
    Ok(())
}

pub fn name_of(n: ClauseName) -> &'static str {
    use ClauseName::*;
    match n {
        Copy => "copy",
        CopyIn => "copyin",
        CopyOut => "copyout",
        Create => "create",
        NoCreate => "no_create",
        Present => "present",
        DevicePtr => "deviceptr",
        Attach => "attach",
        Detach => "detach",
        Delete => "delete",
        DeviceResident => "device_resident",
        Link => "link",
        Private => "private",
        FirstPrivate => "firstprivate",
        Reduction => "reduction",
        UseDevice => "use_device",
        SelfList => "self",
        Host => "host",
        Device => "device",
        Gang => "gang",
        Worker => "worker",
        Vector => "vector",
        Seq => "seq",
        Independent => "independent",
        Auto => "auto",
        Collapse => "collapse",
        Tile => "tile",
        NumGangs => "num_gangs",
        NumWorkers => "num_workers",
        VectorLength => "vector_length",
        If => "if",
        SelfCond => "self",
        IfPresent => "if_present",
        Finalize => "finalize",
        Default => "default",
        Async => "async",
        Wait => "wait",
        DeviceType => "device_type",
        DeviceNum => "device_num",
        DefaultAsync => "default_async",
        Bind => "bind",
        NoHost => "nohost",
    }
}

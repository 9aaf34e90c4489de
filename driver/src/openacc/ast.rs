//! The parsed form of one `#pragma acc` directive.
//!
//! Every clause carries its arguments in a typed form (a reduction has an operator and a list, a
//! `gang` has its `num:`/`dim:`/`static:` arguments, a data clause its modifier), and a directive
//! only ever holds clauses that the OpenACC 3.3 tables allow on it: the parser checks that before
//! it builds a [`Directive`], and `device_type` groups are resolved into the one clause list that
//! applies to ptxcc's device (nvidia).
use std::fmt;

/// Byte range inside the pragma line (0 = first character of the line).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// A C expression inside a clause, kept as its source text (it is emitted as it is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub text: String,
    pub span: Span,
}

impl Expr {
    /// The value when the expression is a plain integer literal.
    pub fn int_literal(&self) -> Option<i64> {
        let t = self.text.trim().trim_end_matches(['u', 'U', 'l', 'L']);
        if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            return i64::from_str_radix(h, 16).ok();
        }
        if t.len() > 1 && t.starts_with('0') && t.bytes().all(|b| b.is_ascii_digit()) {
            return i64::from_str_radix(&t[1..], 8).ok();
        }
        t.parse().ok()
    }
}

/// One subscript of a variable reference in a clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subscript {
    /// `a[i]`: one element.
    Index(Expr),
    /// `a[lower:length]`, either part may be absent (`a[:n]`, `a[2:]`, `a[:]`).
    Section {
        lower: Option<Expr>,
        length: Option<Expr>,
    },
}

/// One step after the base name of a variable reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    Member { arrow: bool, name: String },
    Subscript(Subscript),
}

/// A variable, array section, array element or struct member named in a clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarRef {
    pub name: String,
    pub path: Vec<Access>,
    pub span: Span,
}

impl VarRef {
    pub fn has_section(&self) -> bool {
        self.path
            .iter()
            .any(|a| matches!(a, Access::Subscript(Subscript::Section { .. })))
    }
    /// A plain name (`x`), no member or subscript.
    pub fn is_plain(&self) -> bool {
        self.path.is_empty()
    }
    pub fn has_member(&self) -> bool {
        self.path.iter().any(|a| matches!(a, Access::Member { .. }))
    }
    /// The text of the reference as OpenMP writes it (sections stay `[lo:len]`).
    pub fn render(&self) -> String {
        let mut s = self.name.clone();
        for a in &self.path {
            match a {
                Access::Member { arrow, name } => {
                    s.push_str(if *arrow { "->" } else { "." });
                    s.push_str(name);
                }
                Access::Subscript(Subscript::Index(e)) => {
                    s.push('[');
                    s.push_str(e.text.trim());
                    s.push(']');
                }
                Access::Subscript(Subscript::Section { lower, length }) => {
                    s.push('[');
                    if let Some(l) = lower {
                        s.push_str(l.text.trim());
                    }
                    s.push(':');
                    if let Some(l) = length {
                        s.push_str(l.text.trim());
                    }
                    s.push(']');
                }
            }
        }
        s
    }
    /// The same reference with the length of its last section replaced by 0 (`p[lo:0]`).
    pub fn zero_length(&self) -> VarRef {
        let mut v = self.clone();
        if let Some(Access::Subscript(Subscript::Section { length, .. })) = v
            .path
            .iter_mut()
            .rev()
            .find(|a| matches!(a, Access::Subscript(Subscript::Section { .. })))
        {
            *length = Some(Expr {
                text: "0".into(),
                span: Span::default(),
            });
        }
        v
    }
}

impl fmt::Display for VarRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReductionOp {
    Add,
    Mul,
    Max,
    Min,
    BitAnd,
    BitOr,
    BitXor,
    LogAnd,
    LogOr,
}

impl ReductionOp {
    pub fn spelling(self) -> &'static str {
        match self {
            ReductionOp::Add => "+",
            ReductionOp::Mul => "*",
            ReductionOp::Max => "max",
            ReductionOp::Min => "min",
            ReductionOp::BitAnd => "&",
            ReductionOp::BitOr => "|",
            ReductionOp::BitXor => "^",
            ReductionOp::LogAnd => "&&",
            ReductionOp::LogOr => "||",
        }
    }
}

/// Data clauses (and the clauses of `declare`, `host_data` and `update` that take a variable list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataKind {
    Copy,
    CopyIn,
    CopyOut,
    Create,
    NoCreate,
    Present,
    DevicePtr,
    Attach,
    Detach,
    Delete,
    DeviceResident,
    Link,
}

/// The modifier a data clause may carry (`copyin(readonly: …)`, `create(zero: …)`, `copyout(zero: …)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataModifier {
    ReadOnly,
    Zero,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultKind {
    None,
    Present,
}

/// `gang`'s `static:` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GangStatic {
    Star,
    Size(Expr),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GangArgs {
    pub num: Option<Expr>,
    pub dim: Option<Expr>,
    pub static_: Option<GangStatic>,
}

/// One `tile` size: `*` or an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TileSize {
    Star,
    Size(Expr),
}

/// The argument of a `wait` clause or directive: `[devnum: e :] [queues:] e, e…`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WaitArgs {
    pub devnum: Option<Expr>,
    pub queues: Vec<Expr>,
}

/// A device type named in `device_type(…)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceTypeName {
    Star,
    Named(String),
}

impl DeviceTypeName {
    /// Whether clauses for this device type apply to ptxcc's device.
    pub fn applies_to_nvidia(&self) -> bool {
        match self {
            DeviceTypeName::Star => true,
            DeviceTypeName::Named(n) => {
                matches!(
                    n.as_str(),
                    "nvidia" | "default" | "acc_device_nvidia" | "acc_device_default" | "not_host"
                )
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClauseKind {
    Data {
        kind: DataKind,
        modifier: Option<DataModifier>,
        vars: Vec<VarRef>,
    },
    Private(Vec<VarRef>),
    FirstPrivate(Vec<VarRef>),
    Reduction {
        op: ReductionOp,
        vars: Vec<VarRef>,
    },
    UseDevice(Vec<VarRef>),
    /// `update self(…)` / `update host(…)`.
    UpdateSelf(Vec<VarRef>),
    /// `update device(…)`.
    UpdateDevice(Vec<VarRef>),
    Gang(GangArgs),
    Worker(Option<Expr>),
    Vector(Option<Expr>),
    Seq,
    Independent,
    Auto,
    Collapse {
        force: bool,
        count: u32,
    },
    Tile(Vec<TileSize>),
    NumGangs(Vec<Expr>),
    NumWorkers(Expr),
    VectorLength(Expr),
    If(Expr),
    /// `self[(cond)]` on a compute construct.
    SelfCond(Option<Expr>),
    IfPresent,
    Finalize,
    Default(DefaultKind),
    Async(Option<Expr>),
    Wait(Option<WaitArgs>),
    DeviceType(Vec<DeviceTypeName>),
    DeviceNum(Expr),
    DefaultAsync(Expr),
    Bind(String),
    NoHost,
}

/// The name of a clause, for the validity tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClauseName {
    Copy,
    CopyIn,
    CopyOut,
    Create,
    NoCreate,
    Present,
    DevicePtr,
    Attach,
    Detach,
    Delete,
    DeviceResident,
    Link,
    Private,
    FirstPrivate,
    Reduction,
    UseDevice,
    SelfList,
    Host,
    Device,
    Gang,
    Worker,
    Vector,
    Seq,
    Independent,
    Auto,
    Collapse,
    Tile,
    NumGangs,
    NumWorkers,
    VectorLength,
    If,
    SelfCond,
    IfPresent,
    Finalize,
    Default,
    Async,
    Wait,
    DeviceType,
    DeviceNum,
    DefaultAsync,
    Bind,
    NoHost,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    pub kind: ClauseKind,
    pub name: ClauseName,
    /// The clause as written (name and arguments).
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DirectiveKind {
    Parallel,
    Serial,
    Kernels,
    Loop,
    ParallelLoop,
    SerialLoop,
    KernelsLoop,
    Data,
    EnterData,
    ExitData,
    HostData,
    Update,
    Declare,
    Routine,
    Atomic,
    Wait,
    Cache,
    Init,
    Shutdown,
    Set,
}

impl DirectiveKind {
    pub fn spelling(self) -> &'static str {
        match self {
            DirectiveKind::Parallel => "parallel",
            DirectiveKind::Serial => "serial",
            DirectiveKind::Kernels => "kernels",
            DirectiveKind::Loop => "loop",
            DirectiveKind::ParallelLoop => "parallel loop",
            DirectiveKind::SerialLoop => "serial loop",
            DirectiveKind::KernelsLoop => "kernels loop",
            DirectiveKind::Data => "data",
            DirectiveKind::EnterData => "enter data",
            DirectiveKind::ExitData => "exit data",
            DirectiveKind::HostData => "host_data",
            DirectiveKind::Update => "update",
            DirectiveKind::Declare => "declare",
            DirectiveKind::Routine => "routine",
            DirectiveKind::Atomic => "atomic",
            DirectiveKind::Wait => "wait",
            DirectiveKind::Cache => "cache",
            DirectiveKind::Init => "init",
            DirectiveKind::Shutdown => "shutdown",
            DirectiveKind::Set => "set",
        }
    }
    /// Constructs that own the statement after them (a structured block or a loop).
    pub fn has_body(self) -> bool {
        matches!(
            self,
            DirectiveKind::Parallel
                | DirectiveKind::Serial
                | DirectiveKind::Kernels
                | DirectiveKind::Loop
                | DirectiveKind::ParallelLoop
                | DirectiveKind::SerialLoop
                | DirectiveKind::KernelsLoop
                | DirectiveKind::Data
                | DirectiveKind::HostData
                | DirectiveKind::Atomic
        )
    }
    pub fn is_compute(self) -> bool {
        matches!(
            self,
            DirectiveKind::Parallel
                | DirectiveKind::Serial
                | DirectiveKind::Kernels
                | DirectiveKind::ParallelLoop
                | DirectiveKind::SerialLoop
                | DirectiveKind::KernelsLoop
        )
    }
    pub fn is_loop(self) -> bool {
        matches!(
            self,
            DirectiveKind::Loop
                | DirectiveKind::ParallelLoop
                | DirectiveKind::SerialLoop
                | DirectiveKind::KernelsLoop
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicKind {
    Read,
    Write,
    Update,
    Capture,
}

/// What a directive takes besides its clauses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectiveArg {
    None,
    /// `wait [(args)]`.
    Wait(Option<WaitArgs>),
    /// `cache([readonly:] list)`.
    Cache {
        readonly: bool,
        vars: Vec<VarRef>,
    },
    /// `routine [(name)]`.
    Routine(Option<String>),
    /// `atomic [read|write|update|capture]` (update when absent).
    Atomic(AtomicKind),
}

/// One validated directive: the clause list is the one that applies to the nvidia device type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    pub kind: DirectiveKind,
    pub arg: DirectiveArg,
    pub clauses: Vec<Clause>,
    /// The directive name(s) as written.
    pub span: Span,
}

impl Directive {
    pub fn has(&self, name: ClauseName) -> bool {
        self.clauses.iter().any(|c| c.name == name)
    }
    pub fn find(&self, name: ClauseName) -> Option<&Clause> {
        self.clauses.iter().find(|c| c.name == name)
    }
    pub fn all(&self, name: ClauseName) -> impl Iterator<Item = &Clause> {
        self.clauses.iter().filter(move |c| c.name == name)
    }
}

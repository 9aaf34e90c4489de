//! The PTX module as written: directives, declarations and instructions with their opcode kept
//! as text (`ld.global.u32`). What an opcode means is `program::decode`'s business; the parser
//! only knows PTX's syntax.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Global,
    Shared,
    Local,
    Const,
    Param,
    Reg,
}

impl Space {
    pub fn from_directive(d: &str) -> Option<Space> {
        Some(match d {
            ".global" => Space::Global,
            ".shared" => Space::Shared,
            ".local" => Space::Local,
            ".const" => Space::Const,
            ".param" => Space::Param,
            ".reg" => Space::Reg,
            _ => return None,
        })
    }
}

/// `.b8` … `.f64`, `.pred`: the element type of a declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclType {
    /// Without the dot: "b32", "f64", "pred".
    pub name: String,
    /// `.v2` / `.v4` vectors: the element count (1 for scalars).
    pub vector: u32,
}

/// A variable of a state space: a module-level `.global`/`.const`/`.shared` variable, a
/// function's `.local`/`.shared` variable, a `.param` of a signature or a call sequence.
#[derive(Clone, Debug)]
pub struct VarDecl {
    pub space: Space,
    pub linkage: Linkage,
    pub align: Option<u32>,
    pub ty: DeclType,
    pub name: String,
    /// Array dimensions; `None` for `[]` (size from the initializer, or an `.extern` array).
    pub dims: Vec<Option<u64>>,
    pub init: Option<Init>,
    pub line: u32,
    /// Which input of a link it came from (1-based; 0 when the module was loaded alone), so
    /// that errors name the right PTX text.
    pub input: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    Default,
    Visible,
    Extern,
    Weak,
    Common,
}

#[derive(Clone, Debug)]
pub enum Init {
    Value(InitValue),
    List(Vec<Init>),
}

#[derive(Clone, Debug)]
pub enum InitValue {
    Int(u64),
    F32(u32),
    F64(u64),
    /// The address of a variable (`sym`, `generic(sym)`, `sym+8`).
    Symbol {
        name: String,
        offset: i64,
        generic: bool,
    },
}

/// A register declaration: `%r<12>` (twelve registers %r0 … %r11) or one name.
#[derive(Clone, Debug, PartialEq)]
pub enum RegName {
    Range { prefix: String, count: u32 },
    One(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncKind {
    Entry,
    Func,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub kind: FuncKind,
    pub linkage: Linkage,
    pub name: String,
    pub returns: Vec<VarDecl>,
    pub params: Vec<VarDecl>,
    /// Performance directives: `.maxntid 128, 1, 1` → ("maxntid", [128, 1, 1]).
    pub directives: Vec<(String, Vec<u64>)>,
    /// None for a declaration (`.extern .func`, or a prototype).
    pub body: Option<Vec<Stmt>>,
    pub line: u32,
    /// Which input of a link it came from (see `VarDecl::input`).
    pub input: u32,
}

/// `label: .callprototype (.param .b32 _) _ (.param .b64 _);`: the signature an indirect call
/// (`call (r), %rd, (a), label;`) promises its target has.
#[derive(Clone, Debug)]
pub struct Prototype {
    pub name: String,
    pub returns: Vec<VarDecl>,
    pub params: Vec<VarDecl>,
    pub line: u32,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Reg {
        ty: DeclType,
        names: Vec<RegName>,
        line: u32,
    },
    Var(VarDecl),
    Label(String),
    Prototype(Prototype),
    Inst(Instruction),
    /// `{`: a new scope (call sequences declare their `.param`s in one).
    Open,
    Close,
}

#[derive(Clone, Debug)]
pub struct Instruction {
    /// `@%p` / `@!%p`: the predicate register and whether it is negated.
    pub guard: Option<(String, bool)>,
    /// The opcode with its modifiers, as written: "setp.lt.s32".
    pub opcode: String,
    pub operands: Vec<Operand>,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// `%r1`, `%tid.x`.
    Reg(String),
    /// A label, function or variable name (`_` is the sink).
    Symbol(String),
    /// `sym+4` outside brackets.
    SymbolOffset(String, i64),
    Int(u64),
    F32(u32),
    F64(u64),
    /// `[base+offset]`.
    Address {
        base: AddressBase,
        offset: i64,
    },
    /// `{a, b}`.
    Vector(Vec<Operand>),
    /// `(a, b)`: a call's return or argument list.
    List(Vec<Operand>),
    /// `!%p`.
    Not(Box<Operand>),
    /// `%p|%q`: setp's two destinations.
    Pair(String, String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum AddressBase {
    Reg(String),
    Symbol(String),
    Int(u64),
}

#[derive(Clone, Debug, Default)]
pub struct Module {
    pub version: String,
    pub target: Vec<String>,
    pub address_size: u32,
    pub vars: Vec<VarDecl>,
    pub functions: Vec<Function>,
}

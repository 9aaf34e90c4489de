//! The part of the translation unit the OpenACC front end needs, read with libclang (clang-sys,
//! loaded at run time): statement extents, variable references, operators and declaration types
//! of the functions that hold `#pragma acc` lines, and the declarations that follow pragmas.
//! Everything is copied into plain Rust data, so the rest of the front end never touches FFI.
//!
//! The tree is complete or there is none: every libclang failure is an error ([`ParseError`]) —
//! libclang missing, no index or translation unit, a crash, a parse that takes longer than
//! `PTXCC_LIBCLANG_TIMEOUT` seconds (default 600), errors in the translation unit (clang's own
//! diagnostics of severity error; warnings that are errors by default leave the tree whole and are
//! left to the compile), a null cursor, a tree too deep to read. The front end turns them into
//! `ptxcc: error:` or `file:line:col: error:` diagnostics, so that it never translates with half a
//! tree (a translation that silently lacked, say, a taskwait).
//!
//! `PTXCC_TEST_LIBCLANG_FAULT` makes a test see one failure: `load` (libclang cannot be loaded),
//! `index` (no index), `parse` (no translation unit), `crash` (libclang crashed), `hang` (the
//! parse never ends: with a small PTXCC_LIBCLANG_TIMEOUT), `cursor` (a null translation-unit
//! cursor), `tree` (a statement of a function with a pragma cannot be read).
#![allow(non_upper_case_globals)]
use std::collections::HashMap;
use std::ffi::{c_void, CStr, CString};
use std::fmt;
use std::sync::{mpsc, Arc, OnceLock};
use std::time::Duration;

use clang_sys::*;

pub type NodeId = usize;
pub type DeclId = usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NK {
    Function,
    Compound,
    For,
    While,
    Do,
    If,
    Switch,
    Return,
    DeclStmt,
    VarDecl,
    Null,
    Break,
    Continue,
    Goto,
    Label,
    Case,
    DeclRef,
    Member,
    Subscript,
    /// Binary operator; `op` holds clang's CXBinaryOperatorKind.
    Binary,
    /// Compound assignment (`+=` …); `op` holds the CXBinaryOperatorKind.
    CompoundAssign,
    /// Unary operator; `op` holds clang's CXUnaryOperatorKind.
    Unary,
    Call,
    IntLit,
    FloatLit,
    Paren,
    Cast,
    Conditional,
    /// Any `#pragma omp` construct the user wrote.
    Omp,
    OtherStmt,
    OtherExpr,
}

impl NK {
    pub fn is_stmt_container(self) -> bool {
        matches!(
            self,
            NK::Compound
                | NK::For
                | NK::While
                | NK::Do
                | NK::If
                | NK::Switch
                | NK::Label
                | NK::Case
        )
    }
}

#[derive(Clone, Debug)]
pub struct Node {
    pub kind: NK,
    pub start: usize,
    pub end: usize,
    pub children: Vec<NodeId>,
    pub parent: Option<NodeId>,
    pub decl: Option<DeclId>,
    pub op: u32,
    /// Value of an integer constant expression.
    pub value: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeClass {
    Integer,
    Floating,
    Complex,
    Pointer {
        restrict: bool,
    },
    /// An array whose size is visible (constant or VLA); `len` when constant.
    Array {
        len: Option<u64>,
    },
    /// `T a[]`: size not visible.
    IncompleteArray,
    Record,
    Function,
    Other,
}

impl TypeClass {
    pub fn is_scalar(self) -> bool {
        matches!(
            self,
            TypeClass::Integer | TypeClass::Floating | TypeClass::Complex
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclKind {
    Var,
    Param,
    Function,
    Other,
}

#[derive(Clone, Debug)]
pub struct DeclInfo {
    pub name: String,
    pub kind: DeclKind,
    pub ty: TypeClass,
    /// The element type of an array or pointer (for reduction checks on elements).
    pub elem: TypeClass,
    /// The type's class, then that of what each subscript reaches (`double **p`: pointer,
    /// pointer, floating; `double (*a)[M]`: pointer, array, floating).
    pub levels: Vec<TypeClass>,
    /// For a struct (or a pointer to or array of one): its members, by member path (`rows`,
    /// `mesh.coords`; two levels deep), for the member sections of data clauses.
    pub fields: Vec<Field>,
    pub type_name: String,
    /// The canonical spelling of what the last of `levels` is (`vec` for `vec a[3][2]`, also
    /// through typedefs): declarations of one element type spell it alike.
    pub elem_type: String,
    pub is_const: bool,
    /// File-scope or `static` storage.
    pub is_global: bool,
    /// A variable with internal linkage (`static` at file scope): clang refuses `target update`
    /// of one that is `declare target`.
    pub is_internal: bool,
    /// A parameter declared as an array (`double a[16]`, `double a[][4]`): C makes it a pointer,
    /// which `ty` and `levels` say (libclang gives the written type); here the declared first
    /// extent (None: not a constant, or none written).
    pub declared_array: Option<Option<u64>>,
    /// Offset of the declared name; usize::MAX when outside the main buffer.
    pub loc: usize,
    /// Extent of the declaration.
    pub start: usize,
    pub end: usize,
}

/// A member of a struct variable (`DeclInfo::fields`).
#[derive(Clone, Debug)]
pub struct Field {
    /// `rows`, `mesh.coords`.
    pub path: String,
    /// As [`DeclInfo::levels`].
    pub levels: Vec<TypeClass>,
    /// As [`DeclInfo::elem_type`].
    pub elem_type: String,
}

#[derive(Default, Debug)]
pub struct Ast {
    pub nodes: Vec<Node>,
    pub decls: Vec<DeclInfo>,
    /// Top-level declarations (functions, variables, …): (start, end, name, is function definition, decl).
    pub top: Vec<TopDecl>,
    decl_by_key: HashMap<(u32, u32, u32), DeclId>,
}

#[derive(Clone, Debug)]
pub struct TopDecl {
    pub start: usize,
    pub end: usize,
    pub name: String,
    pub is_function: bool,
    pub is_definition: bool,
    pub body: Option<NodeId>,
    pub decl: Option<DeclId>,
}

impl Ast {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }
    pub fn decl(&self, id: DeclId) -> &DeclInfo {
        &self.decls[id]
    }
    /// Every node under `id` (itself included), depth first.
    pub fn walk(&self, id: NodeId, f: &mut dyn FnMut(NodeId)) {
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            f(n);
            if let Some(node) = self.nodes.get(n) {
                for &c in node.children.iter().rev() {
                    stack.push(c);
                }
            }
        }
    }
    /// The variable or parameter `name` declared nearest before offset `at` in the main buffer
    /// that `also` accepts (how the front ends resolve a clause's name when no reference in
    /// the construct's statement says).
    pub fn nearest_declaration(
        &self,
        name: &str,
        at: usize,
        also: impl Fn(&DeclInfo) -> bool,
    ) -> Option<DeclId> {
        self.decls
            .iter()
            .enumerate()
            .filter(|(_, d)| {
                d.name == name
                    && matches!(d.kind, DeclKind::Var | DeclKind::Param)
                    && d.loc != usize::MAX
                    && d.loc < at
                    && also(d)
            })
            .max_by_key(|(_, d)| d.loc)
            .map(|(k, _)| k)
    }

    /// Strips parentheses and implicit casts.
    pub fn strip(&self, mut id: NodeId) -> NodeId {
        loop {
            let n = &self.nodes[id];
            if matches!(n.kind, NK::Paren | NK::Cast | NK::OtherExpr) && n.children.len() == 1 {
                id = n.children[0];
            } else {
                return id;
            }
        }
    }
}

static LIBRARY: OnceLock<Result<Arc<SharedLibrary>, String>> = OnceLock::new();

/// Loads libclang once per process (and attaches it to this thread). Prefers the libclang of the
/// clang the driver runs (LLVM 19), then whatever clang-sys finds.
pub fn ensure_loaded() -> Result<(), String> {
    if clang_sys::is_loaded() {
        return Ok(());
    }
    // clang-sys looks at LIBCLANG_PATH, then llvm-config, then the usual directories
    // (/usr/lib/llvm-*/lib among them) and takes the newest libclang it finds.
    let lib = LIBRARY.get_or_init(|| clang_sys::load_manually().map(Arc::new));
    match lib {
        Ok(l) => {
            clang_sys::set_library(Some(l.clone()));
            Ok(())
        }
        Err(e) => Err(e.clone()),
    }
}

struct Ctx<'a> {
    ast: Ast,
    text_len: usize,
    /// Pragma line offsets: functions whose extent holds one are read in full.
    pragma_offsets: &'a [usize],
    /// Why part of a function could not be read: the tree would be partial.
    failure: Option<String>,
    fault: Option<Fault>,
}

fn children(c: CXCursor) -> Vec<CXCursor> {
    extern "C" fn visit(c: CXCursor, _p: CXCursor, data: CXClientData) -> CXChildVisitResult {
        // SAFETY: data is the &mut Vec passed below, alive for the whole visit.
        let v = unsafe { &mut *(data as *mut Vec<CXCursor>) };
        v.push(c);
        CXChildVisit_Continue
    }
    let mut v: Vec<CXCursor> = Vec::new();
    // SAFETY: libclang is loaded and c belongs to a live translation unit.
    unsafe {
        clang_visitChildren(c, visit, &mut v as *mut Vec<CXCursor> as *mut c_void);
    }
    v
}

fn cx_string(s: CXString) -> String {
    // SAFETY: s is a CXString returned by libclang; it is disposed here once.
    unsafe {
        let p = clang_getCString(s);
        let r = if p.is_null() {
            String::new()
        } else {
            CStr::from_ptr(p).to_string_lossy().into_owned()
        };
        clang_disposeString(s);
        r
    }
}

/// Offset of a location inside the main buffer.
fn offset(loc: CXSourceLocation) -> Option<usize> {
    // SAFETY: plain libclang queries on a valid location.
    unsafe {
        if clang_Location_isFromMainFile(loc) == 0 {
            return None;
        }
        let mut file: CXFile = std::ptr::null_mut();
        let (mut l, mut c, mut o) = (0u32, 0u32, 0u32);
        clang_getFileLocation(loc, &mut file, &mut l, &mut c, &mut o);
        Some(o as usize)
    }
}

fn extent(c: CXCursor) -> Option<(usize, usize)> {
    // SAFETY: c is a live cursor.
    unsafe {
        let r = clang_getCursorExtent(c);
        let s = offset(clang_getRangeStart(r))?;
        let e = offset(clang_getRangeEnd(r))?;
        Some((s, e.max(s)))
    }
}

fn type_class(t: CXType) -> TypeClass {
    // SAFETY: libclang type queries.
    unsafe {
        let t = clang_getCanonicalType(t);
        match t.kind {
            CXType_Bool | CXType_Char_U | CXType_UChar | CXType_Char16 | CXType_Char32
            | CXType_UShort | CXType_UInt | CXType_ULong | CXType_ULongLong | CXType_UInt128
            | CXType_Char_S | CXType_SChar | CXType_WChar | CXType_Short | CXType_Int
            | CXType_Long | CXType_LongLong | CXType_Int128 | CXType_Enum => TypeClass::Integer,
            CXType_Float | CXType_Double | CXType_LongDouble | CXType_Half | CXType_Float16
            | CXType_Float128 => TypeClass::Floating,
            CXType_Complex => TypeClass::Complex,
            CXType_Pointer => TypeClass::Pointer {
                restrict: clang_isRestrictQualifiedType(t) != 0,
            },
            CXType_ConstantArray => {
                let n = clang_getArraySize(t);
                TypeClass::Array {
                    len: if n >= 0 { Some(n as u64) } else { None },
                }
            }
            CXType_VariableArray | CXType_DependentSizedArray => TypeClass::Array { len: None },
            CXType_IncompleteArray => TypeClass::IncompleteArray,
            CXType_Record => TypeClass::Record,
            CXType_FunctionProto | CXType_FunctionNoProto => TypeClass::Function,
            _ => TypeClass::Other,
        }
    }
}

fn subscript_levels(t: CXType) -> Vec<TypeClass> {
    // SAFETY: libclang type queries.
    unsafe {
        let mut t = clang_getCanonicalType(t);
        let mut out = vec![type_class(t)];
        for _ in 0..8 {
            let e = match t.kind {
                CXType_Pointer => clang_getPointeeType(t),
                CXType_ConstantArray
                | CXType_VariableArray
                | CXType_IncompleteArray
                | CXType_DependentSizedArray => clang_getArrayElementType(t),
                _ => break,
            };
            t = clang_getCanonicalType(e);
            out.push(type_class(t));
        }
        out
    }
}

/// The members of the struct `t` is (or points to, or is an array of), with their levels; a
/// struct member's own members follow as `outer.inner`, down to `depth` 2.
fn record_fields(t: CXType, prefix: &str, depth: u32) -> Vec<Field> {
    extern "C" fn collect(c: CXCursor, data: CXClientData) -> CXVisitorResult {
        // SAFETY: `data` is the Vec that record_fields passes, alive for the visit.
        unsafe {
            let v = &mut *(data as *mut Vec<(String, CXType)>);
            v.push((
                cx_string(clang_getCursorSpelling(c)),
                clang_getCursorType(c),
            ));
        }
        CXVisit_Continue
    }
    let mut out = Vec::new();
    // SAFETY: libclang type queries.
    unsafe {
        let t = innermost(t);
        if t.kind != CXType_Record {
            return out;
        }
        let mut members: Vec<(String, CXType)> = Vec::new();
        clang_Type_visitFields(t, collect, &mut members as *mut _ as CXClientData);
        for (name, ty) in members {
            let path = format!("{prefix}{name}");
            out.push(Field {
                path: path.clone(),
                levels: subscript_levels(ty),
                elem_type: elem_spelling(ty),
            });
            // Nested structs by value (not through pointers: a list's next would never end).
            if depth < 2 && clang_getCanonicalType(ty).kind == CXType_Record {
                out.extend(record_fields(ty, &format!("{path}."), depth + 1));
            }
        }
    }
    out
}

/// The canonical type under every pointer and array level of `t` (eight at most).
fn innermost(t: CXType) -> CXType {
    // SAFETY: libclang type queries.
    unsafe {
        let mut t = clang_getCanonicalType(t);
        for _ in 0..8 {
            let e = match t.kind {
                CXType_Pointer => clang_getPointeeType(t),
                CXType_ConstantArray
                | CXType_VariableArray
                | CXType_IncompleteArray
                | CXType_DependentSizedArray => clang_getArrayElementType(t),
                _ => break,
            };
            t = clang_getCanonicalType(e);
        }
        t
    }
}

/// [`innermost`], spelled without qualifiers.
fn elem_spelling(t: CXType) -> String {
    // SAFETY: libclang type queries.
    unsafe {
        cx_string(clang_getTypeSpelling(clang_getCanonicalType(
            clang_getUnqualifiedType(innermost(t)),
        )))
    }
}

fn elem_class(t: CXType) -> TypeClass {
    type_class(innermost(t))
}

impl<'a> Ctx<'a> {
    fn decl_of(&mut self, d: CXCursor) -> Option<DeclId> {
        // SAFETY: libclang queries on a live cursor.
        unsafe {
            if clang_Cursor_isNull(d) != 0 {
                return None;
            }
            let kind = match d.kind {
                CXCursor_VarDecl => DeclKind::Var,
                CXCursor_ParmDecl => DeclKind::Param,
                CXCursor_FunctionDecl => DeclKind::Function,
                _ => DeclKind::Other,
            };
            let loc = clang_getCursorLocation(d);
            let mut file: CXFile = std::ptr::null_mut();
            let (mut l, mut c, mut o) = (0u32, 0u32, 0u32);
            clang_getFileLocation(loc, &mut file, &mut l, &mut c, &mut o);
            let key = (l, c, d.kind as u32);
            if let Some(&id) = self.ast.decl_by_key.get(&key) {
                return Some(id);
            }
            let in_main = clang_Location_isFromMainFile(loc) != 0;
            let ty = clang_getCursorType(d);
            let sem = clang_getCursorSemanticParent(d);
            let is_global = kind == DeclKind::Var
                && (sem.kind == CXCursor_TranslationUnit
                    || clang_Cursor_getStorageClass(d) == CX_SC_Static
                    || clang_Cursor_getStorageClass(d) == CX_SC_Extern);
            let (start, end) = extent(d).unwrap_or((usize::MAX, usize::MAX));
            let mut levels = subscript_levels(ty);
            let written = type_class(ty);
            let declared_array = match (kind, written) {
                (DeclKind::Param, TypeClass::Array { len }) => Some(len),
                (DeclKind::Param, TypeClass::IncompleteArray) => Some(None),
                _ => None,
            };
            let ty_class = if declared_array.is_some() {
                let pointer = TypeClass::Pointer { restrict: false };
                if let Some(first) = levels.first_mut() {
                    *first = pointer;
                }
                pointer
            } else {
                written
            };
            let info = DeclInfo {
                name: cx_string(clang_getCursorSpelling(d)),
                kind,
                ty: ty_class,
                elem: elem_class(ty),
                levels,
                fields: record_fields(ty, "", 0),
                type_name: cx_string(clang_getTypeSpelling(ty)),
                elem_type: elem_spelling(ty),
                is_const: clang_isConstQualifiedType(ty) != 0,
                is_global,
                is_internal: kind == DeclKind::Var
                    && clang_getCursorLinkage(d) == CXLinkage_Internal,
                declared_array,
                loc: if in_main { o as usize } else { usize::MAX },
                start,
                end,
            };
            let id = self.ast.decls.len();
            self.ast.decls.push(info);
            self.ast.decl_by_key.insert(key, id);
            Some(id)
        }
    }

    fn fail(&mut self, why: String) -> Option<NodeId> {
        self.failure.get_or_insert(why);
        None
    }

    fn build(&mut self, c: CXCursor, parent: Option<NodeId>, depth: usize) -> Option<NodeId> {
        if self.failure.is_some() {
            return None;
        }
        // Nodes without a place in the text are implicit (clang made them): nothing to read.
        let (start, end) = extent(c)?;
        if depth > MAX_DEPTH {
            return self.fail(format!(
                "a statement at offset {start} is nested more than {MAX_DEPTH} levels deep, too deep for the OpenACC front end"
            ));
        }
        if end > self.text_len {
            return self.fail(format!(
                "libclang placed a node at offsets {start}..{end}, past the end of the text"
            ));
        }
        if self.fault == Some(Fault::Tree) && c.kind == CXCursor_ForStmt {
            return self.fail(format!(
                "cannot read the statement at offset {start} (injected by {FAULT_ENV})"
            ));
        }
        // SAFETY: libclang queries on a live cursor.
        let (kind, op, decl) = unsafe {
            let k = c.kind;
            let mut op = 0u32;
            let mut decl = None;
            let kind = match k {
                CXCursor_FunctionDecl => {
                    decl = self.decl_of(c);
                    NK::Function
                }
                CXCursor_CompoundStmt => NK::Compound,
                CXCursor_ForStmt => NK::For,
                CXCursor_WhileStmt => NK::While,
                CXCursor_DoStmt => NK::Do,
                CXCursor_IfStmt => NK::If,
                CXCursor_SwitchStmt => NK::Switch,
                CXCursor_ReturnStmt => NK::Return,
                CXCursor_DeclStmt => NK::DeclStmt,
                CXCursor_VarDecl | CXCursor_ParmDecl => {
                    decl = self.decl_of(c);
                    NK::VarDecl
                }
                CXCursor_NullStmt => NK::Null,
                CXCursor_BreakStmt => NK::Break,
                CXCursor_ContinueStmt => NK::Continue,
                CXCursor_GotoStmt | CXCursor_IndirectGotoStmt => NK::Goto,
                CXCursor_LabelStmt => NK::Label,
                CXCursor_CaseStmt | CXCursor_DefaultStmt => NK::Case,
                CXCursor_DeclRefExpr => {
                    decl = self.decl_of(clang_getCursorReferenced(c));
                    NK::DeclRef
                }
                CXCursor_MemberRefExpr => NK::Member,
                CXCursor_ArraySubscriptExpr => NK::Subscript,
                CXCursor_BinaryOperator => {
                    op = clang_getCursorBinaryOperatorKind(c) as u32;
                    NK::Binary
                }
                CXCursor_CompoundAssignOperator => {
                    op = clang_getCursorBinaryOperatorKind(c) as u32;
                    NK::CompoundAssign
                }
                CXCursor_UnaryOperator => {
                    op = clang_getCursorUnaryOperatorKind(c) as u32;
                    NK::Unary
                }
                CXCursor_CallExpr => {
                    decl = self.decl_of(clang_getCursorReferenced(c));
                    NK::Call
                }
                CXCursor_IntegerLiteral | CXCursor_CharacterLiteral => NK::IntLit,
                CXCursor_FloatingLiteral => NK::FloatLit,
                CXCursor_ParenExpr => NK::Paren,
                CXCursor_CStyleCastExpr => NK::Cast,
                CXCursor_ConditionalOperator => NK::Conditional,
                k if (CXCursor_OMPParallelDirective..=320).contains(&k) => NK::Omp,
                k if clang_isStatement(k) != 0 => NK::OtherStmt,
                k if clang_isExpression(k) != 0 => NK::OtherExpr,
                _ => NK::OtherExpr,
            };
            (kind, op, decl)
        };
        let id = self.ast.nodes.len();
        self.ast.nodes.push(Node {
            kind,
            start,
            end,
            children: Vec::new(),
            parent,
            decl,
            op,
            value: None,
        });
        if matches!(
            kind,
            NK::IntLit | NK::Binary | NK::Unary | NK::Paren | NK::OtherExpr | NK::DeclRef
        ) {
            self.ast.nodes[id].value = eval_int(c);
        }
        let mut kids = Vec::new();
        for ch in children(c) {
            // Skip type references and attributes: only statements, expressions and declarations matter.
            // SAFETY: cursor kind query.
            let k = ch.kind;
            let keep = unsafe {
                clang_isStatement(k) != 0
                    || clang_isExpression(k) != 0
                    || clang_isDeclaration(k) != 0
            };
            if !keep {
                continue;
            }
            if let Some(n) = self.build(ch, Some(id), depth + 1) {
                kids.push(n);
            }
        }
        self.ast.nodes[id].children = kids;
        Some(id)
    }
}

/// The value of an integer constant expression at `c`, if it is one. Only expressions of
/// integer (or enum) type are evaluated: libclang 19's `clang_Cursor_Evaluate` crashes on some
/// others (a nested initializer list with implicit zeros, `double s[8][64] = {{0}};`, in a
/// function with an OpenACC construct), and their values are never integers anyway.
fn eval_int(c: CXCursor) -> Option<i64> {
    // SAFETY: the evaluation result is disposed before returning.
    unsafe {
        let ty = clang_getCanonicalType(clang_getCursorType(c)).kind;
        if !((CXType_Bool..=CXType_Int128).contains(&ty) || ty == CXType_Enum) {
            return None;
        }
        let r = clang_Cursor_Evaluate(c);
        if r.is_null() {
            return None;
        }
        let v = if clang_EvalResult_getKind(r) == CXEval_Int {
            Some(clang_EvalResult_getAsLongLong(r))
        } else {
            None
        };
        clang_EvalResult_dispose(r);
        v
    }
}

/// How deep a statement/expression tree may be read.
const MAX_DEPTH: usize = 4000;
/// Stack of the thread that runs libclang and reads its tree (deep trees recurse).
const READER_STACK: usize = 256 << 20;
const TIMEOUT_ENV: &str = "PTXCC_LIBCLANG_TIMEOUT";
const DEFAULT_TIMEOUT_S: f64 = 600.0;
const FAULT_ENV: &str = "PTXCC_TEST_LIBCLANG_FAULT";

/// A failure that a test can ask for (`PTXCC_TEST_LIBCLANG_FAULT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    Load,
    Index,
    Parse,
    Crash,
    Hang,
    Cursor,
    Tree,
}

fn fault_from_env() -> Result<Option<Fault>, ParseError> {
    let Ok(v) = std::env::var(FAULT_ENV) else {
        return Ok(None);
    };
    Ok(Some(match v.trim() {
        "" => return Ok(None),
        "load" => Fault::Load,
        "index" => Fault::Index,
        "parse" => Fault::Parse,
        "crash" => Fault::Crash,
        "hang" => Fault::Hang,
        "cursor" => Fault::Cursor,
        "tree" => Fault::Tree,
        other => {
            return Err(ParseError::Libclang(format!(
                "{FAULT_ENV}='{other}' is not one of load, index, parse, crash, hang, cursor, tree"
            )))
        }
    }))
}

fn timeout_from_env() -> Result<Duration, ParseError> {
    let Ok(v) = std::env::var(TIMEOUT_ENV) else {
        return Ok(Duration::from_secs_f64(DEFAULT_TIMEOUT_S));
    };
    match v.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Duration::from_secs_f64(s)),
        _ => Err(ParseError::Libclang(format!(
            "{TIMEOUT_ENV}='{v}' is not a positive number of seconds"
        ))),
    }
}

/// Why libclang gave no tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// libclang itself failed (missing, no translation unit, crashed, timed out, partial tree).
    Libclang(String),
    /// clang found errors in the translation unit: the offset in the text (where it has one) and
    /// clang's message, in clang's order.
    Source(Vec<(Option<usize>, String)>),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Libclang(m) => write!(f, "{m}"),
            ParseError::Source(errors) => {
                let first = errors.first().map(|(_, m)| m.as_str()).unwrap_or("");
                write!(
                    f,
                    "the translation unit has {} error{} (libclang; the first: {first})",
                    errors.len(),
                    if errors.len() == 1 { "" } else { "s" }
                )
            }
        }
    }
}

/// The language options to read the text with: those the preprocessor ran with, as the
/// `#define` lines of `clang -E -dD` show them (`__STDC_VERSION__`, `__STRICT_ANSI__`, …).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    pub args: Vec<String>,
    /// Read the body of every function definition, not only of those holding a pragma (the
    /// front end then sees which functions use a `declare link` variable).
    pub all_bodies: bool,
}

impl ParseOptions {
    pub fn from_text(text: &str) -> ParseOptions {
        let mut version: Option<u64> = None;
        let mut strict = false;
        let mut args = Vec::new();
        for line in text.lines() {
            let Some(rest) = line.trim_start().strip_prefix("#define ") else {
                continue;
            };
            let mut words = rest.split_whitespace();
            let (Some(name), value) = (words.next(), words.next()) else {
                continue;
            };
            match name {
                "__STDC_VERSION__" => {
                    version = value.and_then(|v| v.trim_end_matches(['L', 'l']).parse().ok());
                }
                "__STRICT_ANSI__" => strict = true,
                "__CHAR_UNSIGNED__" => args.push("-funsigned-char".to_string()),
                "__BLOCKS__" => args.push("-fblocks".to_string()),
                _ => {}
            }
        }
        if let Some(v) = version {
            let std = match v {
                0..=199409 => "9x",
                199410..=199901 => "99",
                199902..=201112 => "11",
                201113..=201710 => "17",
                201711..=202310 => "2x",
                _ => "23",
            };
            let std = if std == "9x" {
                if strict {
                    "-std=iso9899:199409".to_string()
                } else {
                    "-std=gnu89".to_string()
                }
            } else {
                format!("-std={}{std}", if strict { "c" } else { "gnu" })
            };
            args.insert(0, std);
        }
        ParseOptions {
            args,
            all_bodies: false,
        }
    }
}

/// Parses `text` (the preprocessed translation unit, `#pragma acc` lines left in: clang ignores
/// them) and reads the functions that contain one of `pragma_offsets`. The language options come
/// from `text`'s `#define` lines when it has them ([`ParseOptions::from_text`]).
pub fn parse(text: &str, pragma_offsets: &[usize]) -> Result<Ast, String> {
    parse_with(text, pragma_offsets, &ParseOptions::from_text(text)).map_err(|e| e.to_string())
}

/// [`parse`] with the language options given, and the errors of the translation unit kept apart
/// with their offsets, for `file:line:col` diagnostics.
pub fn parse_with(
    text: &str,
    pragma_offsets: &[usize],
    opts: &ParseOptions,
) -> Result<Ast, ParseError> {
    let fault = fault_from_env()?;
    let timeout = timeout_from_env()?;
    // libclang runs on a thread of its own: a stack for deep trees, and a limit on the time the
    // driver waits (libclang has none; a thread that never answers is left behind, and the
    // driver exits with the error).
    let (tx, rx) = mpsc::channel();
    let (text, offs, opts) = (text.to_string(), pragma_offsets.to_vec(), opts.clone());
    let reader = std::thread::Builder::new()
        .name("ptxcc-libclang".into())
        .stack_size(READER_STACK)
        .spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                parse_here(&text, &offs, &opts, fault)
            }))
            .unwrap_or_else(|p| {
                let what = crate::error::panic_text(p.as_ref()).unwrap_or_else(|| "unknown".into());
                Err(ParseError::Libclang(format!(
                    "internal error while reading libclang's tree: {what}"
                )))
            });
            let _ = tx.send(r);
        });
    let reader = match reader {
        Ok(h) => h,
        Err(e) => {
            return Err(ParseError::Libclang(format!(
                "cannot start a thread for libclang: {e}"
            )))
        }
    };
    match rx.recv_timeout(timeout) {
        Ok(r) => {
            let _ = reader.join();
            r
        }
        Err(mpsc::RecvTimeoutError::Timeout) => Err(ParseError::Libclang(format!(
            "libclang did not finish reading the translation unit within {} s ({TIMEOUT_ENV} sets the limit)",
            timeout.as_secs_f64()
        ))),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err(ParseError::Libclang("the libclang thread ended without an answer".into()))
        }
    }
}

/// The index and translation unit, disposed on every way out.
struct Session {
    index: CXIndex,
    tu: CXTranslationUnit,
}

impl Drop for Session {
    fn drop(&mut self) {
        // SAFETY: both were created by libclang in this thread and are disposed once.
        unsafe {
            if !self.tu.is_null() {
                clang_disposeTranslationUnit(self.tu);
            }
            if !self.index.is_null() {
                clang_disposeIndex(self.index);
            }
        }
    }
}

fn cx_error_name(rc: CXErrorCode) -> &'static str {
    match rc {
        CXError_Failure => "libclang failed",
        CXError_Crashed => "libclang crashed",
        CXError_InvalidArguments => "invalid arguments",
        CXError_ASTReadError => "AST read error",
        _ => "unknown error",
    }
}

fn parse_here(
    text: &str,
    pragma_offsets: &[usize],
    opts: &ParseOptions,
    fault: Option<Fault>,
) -> Result<Ast, ParseError> {
    use ParseError::Libclang;
    if fault == Some(Fault::Load) {
        return Err(Libclang(format!(
            "cannot load libclang (injected by {FAULT_ENV})"
        )));
    }
    ensure_loaded().map_err(|e| Libclang(format!("cannot load libclang: {e}")))?;
    if fault == Some(Fault::Hang) {
        std::thread::sleep(Duration::from_secs(24 * 3600));
    }
    let name = CString::new("ptxcc-openacc-input.c").map_err(|e| Libclang(e.to_string()))?;
    let contents = CString::new(text.replace('\0', " ")).map_err(|e| Libclang(e.to_string()))?;
    let mut words: Vec<String> = [
        "-x",
        "c",
        "-fopenmp",
        "-w",
        "-ferror-limit=0",
        "-fno-spell-checking",
        "-Wno-unknown-pragmas",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    words.extend(opts.args.iter().cloned());
    let args: Vec<CString> = words
        .iter()
        .filter_map(|a| CString::new(a.as_str()).ok())
        .collect();
    let argv: Vec<*const std::os::raw::c_char> = args.iter().map(|a| a.as_ptr()).collect();
    // SAFETY: all pointers stay alive for the calls; Session disposes the index and the TU.
    unsafe {
        let mut session = Session {
            index: std::ptr::null_mut(),
            tu: std::ptr::null_mut(),
        };
        if fault != Some(Fault::Index) {
            session.index = clang_createIndex(0, 0);
        }
        if session.index.is_null() {
            return Err(Libclang("libclang could not create an index".into()));
        }
        let mut unsaved = CXUnsavedFile {
            Filename: name.as_ptr(),
            Contents: contents.as_ptr(),
            Length: text.len() as std::os::raw::c_ulong,
        };
        let mut rc = clang_parseTranslationUnit2(
            session.index,
            name.as_ptr(),
            argv.as_ptr(),
            argv.len() as i32,
            &mut unsaved,
            1,
            CXTranslationUnit_KeepGoing,
            &mut session.tu,
        );
        match fault {
            Some(Fault::Parse) => rc = CXError_Failure,
            Some(Fault::Crash) => rc = CXError_Crashed,
            _ => {}
        }
        if rc != CXError_Success || session.tu.is_null() {
            let injected = if matches!(fault, Some(Fault::Parse | Fault::Crash)) {
                format!(", injected by {FAULT_ENV}")
            } else {
                String::new()
            };
            return Err(Libclang(format!(
                "libclang could not parse the translation unit ({}, error {rc}{injected})",
                cx_error_name(rc)
            )));
        }
        // clang's errors: the tree around them is clang's guess. Warnings that are errors by
        // default (implicit declarations, int conversions) have an option and a whole tree; the
        // compile reports them as the user's flags say.
        let mut errors = Vec::new();
        for k in 0..clang_getNumDiagnostics(session.tu) {
            let d = clang_getDiagnostic(session.tu, k);
            if d.is_null() {
                continue;
            }
            let severity = clang_getDiagnosticSeverity(d);
            let option = cx_string(clang_getDiagnosticOption(d, std::ptr::null_mut()));
            if severity == CXDiagnostic_Fatal
                || (severity == CXDiagnostic_Error && option.is_empty())
            {
                let off = offset(clang_getDiagnosticLocation(d)).filter(|&o| o <= text.len());
                errors.push((off, cx_string(clang_getDiagnosticSpelling(d))));
            }
            clang_disposeDiagnostic(d);
        }
        if !errors.is_empty() {
            return Err(ParseError::Source(errors));
        }
        let root = clang_getTranslationUnitCursor(session.tu);
        if fault == Some(Fault::Cursor) || clang_Cursor_isNull(root) != 0 {
            let injected = if fault == Some(Fault::Cursor) {
                format!(" (injected by {FAULT_ENV})")
            } else {
                String::new()
            };
            return Err(Libclang(format!(
                "libclang gave a null translation-unit cursor{injected}"
            )));
        }
        let mut ctx = Ctx {
            ast: Ast::default(),
            text_len: text.len(),
            pragma_offsets,
            failure: None,
            fault,
        };
        for c in children(root) {
            if clang_Cursor_isNull(c) != 0 {
                return Err(Libclang(
                    "libclang gave a null cursor among the top-level declarations".into(),
                ));
            }
            let Some((s, e)) = extent(c) else { continue };
            let is_function = c.kind == CXCursor_FunctionDecl;
            let is_definition = clang_isCursorDefinition(c) != 0;
            let decl = if matches!(c.kind, CXCursor_FunctionDecl | CXCursor_VarDecl) {
                ctx.decl_of(c)
            } else {
                None
            };
            let mut body = None;
            if is_function
                && is_definition
                && (opts.all_bodies || ctx.pragma_offsets.iter().any(|&p| p > s && p < e))
            {
                body = ctx.build(c, None, 0);
                if body.is_none() && ctx.failure.is_none() {
                    ctx.failure = Some(format!("cannot read the function at offset {s}"));
                }
            }
            if let Some(why) = ctx.failure.take() {
                return Err(Libclang(format!("incomplete tree from libclang: {why}")));
            }
            ctx.ast.top.push(TopDecl {
                start: s,
                end: e,
                name: cx_string(clang_getCursorSpelling(c)),
                is_function,
                is_definition,
                body,
                decl,
            });
        }
        Ok(ctx.ast)
    }
}

// Binary operator kinds (CXBinaryOperatorKind).
pub const OP_MUL: u32 = 3;
pub const OP_DIV: u32 = 4;
pub const OP_ADD: u32 = 6;
pub const OP_SUB: u32 = 7;
pub const OP_LT: u32 = 11;
pub const OP_GT: u32 = 12;
pub const OP_LE: u32 = 13;
pub const OP_GE: u32 = 14;
pub const OP_NE: u32 = 16;
pub const OP_AND: u32 = 17;
pub const OP_XOR: u32 = 18;
pub const OP_OR: u32 = 19;
pub const OP_LAND: u32 = 20;
pub const OP_LOR: u32 = 21;
pub const OP_ASSIGN: u32 = 22;
pub const OP_MUL_ASSIGN: u32 = 23;
pub const OP_ADD_ASSIGN: u32 = 26;
pub const OP_SUB_ASSIGN: u32 = 27;
pub const OP_AND_ASSIGN: u32 = 30;
pub const OP_XOR_ASSIGN: u32 = 31;
pub const OP_OR_ASSIGN: u32 = 32;
pub const OP_COMMA: u32 = 33;
// Unary operator kinds (CXUnaryOperatorKind).
pub const UOP_POSTINC: u32 = 1;
pub const UOP_POSTDEC: u32 = 2;
pub const UOP_PREINC: u32 = 3;
pub const UOP_PREDEC: u32 = 4;
pub const UOP_ADDROF: u32 = 5;
pub const UOP_DEREF: u32 = 6;
pub const UOP_MINUS: u32 = 8;

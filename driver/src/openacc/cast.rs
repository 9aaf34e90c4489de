//! The part of the translation unit the OpenACC front end needs, read with libclang (clang-sys,
//! loaded at run time): statement extents, variable references, operators and declaration types
//! of the functions that hold `#pragma acc` lines, and the declarations that follow pragmas.
//! Everything is copied into plain Rust data, so the rest of the front end never touches FFI.
#![allow(non_upper_case_globals)]
use std::collections::HashMap;
use std::ffi::{c_void, CStr, CString};
use std::sync::{Arc, OnceLock};

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
        matches!(self, NK::Compound | NK::For | NK::While | NK::Do | NK::If | NK::Switch | NK::Label | NK::Case)
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
        matches!(self, TypeClass::Integer | TypeClass::Floating | TypeClass::Complex)
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
    pub type_name: String,
    pub is_const: bool,
    /// File-scope or `static` storage.
    pub is_global: bool,
    /// Offset of the declared name; usize::MAX when outside the main buffer.
    pub loc: usize,
    /// Extent of the declaration.
    pub start: usize,
    pub end: usize,
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
        let r = if p.is_null() { String::new() } else { CStr::from_ptr(p).to_string_lossy().into_owned() };
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
            CXType_Bool | CXType_Char_U | CXType_UChar | CXType_Char16 | CXType_Char32 | CXType_UShort
            | CXType_UInt | CXType_ULong | CXType_ULongLong | CXType_UInt128 | CXType_Char_S | CXType_SChar
            | CXType_WChar | CXType_Short | CXType_Int | CXType_Long | CXType_LongLong | CXType_Int128
            | CXType_Enum => TypeClass::Integer,
            CXType_Float | CXType_Double | CXType_LongDouble | CXType_Half | CXType_Float16 | CXType_Float128 => {
                TypeClass::Floating
            }
            CXType_Complex => TypeClass::Complex,
            CXType_Pointer => TypeClass::Pointer { restrict: clang_isRestrictQualifiedType(t) != 0 },
            CXType_ConstantArray => {
                let n = clang_getArraySize(t);
                TypeClass::Array { len: if n >= 0 { Some(n as u64) } else { None } }
            }
            CXType_VariableArray | CXType_DependentSizedArray => TypeClass::Array { len: None },
            CXType_IncompleteArray => TypeClass::IncompleteArray,
            CXType_Record => TypeClass::Record,
            CXType_FunctionProto | CXType_FunctionNoProto => TypeClass::Function,
            _ => TypeClass::Other,
        }
    }
}

fn elem_class(t: CXType) -> TypeClass {
    // SAFETY: libclang type queries.
    unsafe {
        let mut t = clang_getCanonicalType(t);
        for _ in 0..8 {
            let e = match t.kind {
                CXType_Pointer => clang_getPointeeType(t),
                CXType_ConstantArray | CXType_VariableArray | CXType_IncompleteArray | CXType_DependentSizedArray => {
                    clang_getArrayElementType(t)
                }
                _ => return type_class(t),
            };
            t = clang_getCanonicalType(e);
        }
        type_class(t)
    }
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
            let info = DeclInfo {
                name: cx_string(clang_getCursorSpelling(d)),
                kind,
                ty: type_class(ty),
                elem: elem_class(ty),
                type_name: cx_string(clang_getTypeSpelling(ty)),
                is_const: clang_isConstQualifiedType(ty) != 0,
                is_global,
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

    fn build(&mut self, c: CXCursor, parent: Option<NodeId>, depth: usize) -> Option<NodeId> {
        if depth > 2000 {
            return None;
        }
        let (start, end) = extent(c)?;
        if end > self.text_len {
            return None;
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
        self.ast.nodes.push(Node { kind, start, end, children: Vec::new(), parent, decl, op, value: None });
        if matches!(kind, NK::IntLit | NK::Binary | NK::Unary | NK::Paren | NK::OtherExpr | NK::DeclRef) {
            self.ast.nodes[id].value = eval_int(c);
        }
        let mut kids = Vec::new();
        for ch in children(c) {
            // Skip type references and attributes: only statements, expressions and declarations matter.
            // SAFETY: cursor kind query.
            let k = ch.kind;
            let keep =
                unsafe { clang_isStatement(k) != 0 || clang_isExpression(k) != 0 || clang_isDeclaration(k) != 0 };
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

fn eval_int(c: CXCursor) -> Option<i64> {
    // SAFETY: the evaluation result is disposed before returning.
    unsafe {
        let r = clang_Cursor_Evaluate(c);
        if r.is_null() {
            return None;
        }
        let v = if clang_EvalResult_getKind(r) == CXEval_Int { Some(clang_EvalResult_getAsLongLong(r)) } else { None };
        clang_EvalResult_dispose(r);
        v
    }
}

/// Parses `text` (the preprocessed translation unit, `#pragma acc` lines left in: clang ignores
/// them) and reads the functions that contain one of `pragma_offsets`.
pub fn parse(text: &str, pragma_offsets: &[usize]) -> Result<Ast, String> {
    ensure_loaded()?;
    let name = CString::new("ptxcc-openacc-input.c").map_err(|e| e.to_string())?;
    let contents = CString::new(text.replace('\0', " ")).map_err(|e| e.to_string())?;
    let args: Vec<CString> =
        ["-x", "c", "-fopenmp", "-w", "-ferror-limit=0", "-fno-spell-checking", "-Wno-unknown-pragmas"]
            .iter()
            .filter_map(|a| CString::new(*a).ok())
            .collect();
    let argv: Vec<*const std::os::raw::c_char> = args.iter().map(|a| a.as_ptr()).collect();
    // SAFETY: all pointers stay alive for the calls; the index and TU are disposed at the end.
    unsafe {
        let index = clang_createIndex(0, 0);
        if index.is_null() {
            return Err("libclang: cannot create an index".into());
        }
        let mut unsaved = CXUnsavedFile {
            Filename: name.as_ptr(),
            Contents: contents.as_ptr(),
            Length: text.len() as std::os::raw::c_ulong,
        };
        let mut tu: CXTranslationUnit = std::ptr::null_mut();
        let rc = clang_parseTranslationUnit2(
            index,
            name.as_ptr(),
            argv.as_ptr(),
            argv.len() as i32,
            &mut unsaved,
            1,
            CXTranslationUnit_KeepGoing,
            &mut tu,
        );
        if rc != CXError_Success || tu.is_null() {
            clang_disposeIndex(index);
            return Err(format!("libclang could not parse the translation unit (error {rc})"));
        }
        let mut ctx = Ctx { ast: Ast::default(), text_len: text.len(), pragma_offsets };
        let root = clang_getTranslationUnitCursor(tu);
        for c in children(root) {
            let Some((s, e)) = extent(c) else { continue };
            let is_function = c.kind == CXCursor_FunctionDecl;
            let is_definition = clang_isCursorDefinition(c) != 0;
            let decl = if matches!(c.kind, CXCursor_FunctionDecl | CXCursor_VarDecl) { ctx.decl_of(c) } else { None };
            let mut body = None;
            if is_function && is_definition && ctx.pragma_offsets.iter().any(|&p| p > s && p < e) {
                body = ctx.build(c, None, 0);
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
        clang_disposeTranslationUnit(tu);
        clang_disposeIndex(index);
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

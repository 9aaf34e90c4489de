//! PTX text → `ast::Module`: the syntax of the PTX ISA (module directives, variable and function
//! declarations, statements), with no knowledge of what opcodes mean.

use super::ast::*;
use super::lexer::{lex, Tok, Token};

/// A syntax error at a PTX line.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub line: u32,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

type R<T> = Result<T, ParseError>;

pub fn parse(text: &str) -> R<Module> {
    let tokens = lex(text).map_err(|e| ParseError {
        line: e.line,
        message: e.message,
    })?;
    let mut p = Parser { t: tokens, i: 0 };
    p.module()
}

struct Parser {
    t: Vec<Token>,
    i: usize,
}

const LINKAGES: [(&str, Linkage); 5] = [
    (".visible", Linkage::Visible),
    (".extern", Linkage::Extern),
    (".weak", Linkage::Weak),
    (".common", Linkage::Common),
    (".entry", Linkage::Default), // placeholder, never matched as linkage (see `linkage`)
];

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.t.get(self.i).map(|t| &t.tok)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.t.get(self.i + k).map(|t| &t.tok)
    }

    fn line(&self) -> u32 {
        self.t
            .get(self.i)
            .or_else(|| self.t.last())
            .map(|t| t.line)
            .unwrap_or(0)
    }

    fn err<T>(&self, message: impl Into<String>) -> R<T> {
        Err(ParseError {
            line: self.line(),
            message: message.into(),
        })
    }

    fn next(&mut self) -> R<Tok> {
        match self.t.get(self.i) {
            Some(t) => {
                self.i += 1;
                Ok(t.tok.clone())
            }
            None => self.err("unexpected end of the PTX text"),
        }
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char) -> R<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            self.err(format!("expected '{c}', found {}", self.describe()))
        }
    }

    fn describe(&self) -> String {
        match self.peek() {
            None => "the end of the text".into(),
            Some(Tok::Word(w)) => format!("'{w}'"),
            Some(Tok::Punct(c)) => format!("'{c}'"),
            Some(Tok::Int(v)) => format!("'{v}'"),
            Some(t) => format!("{t:?}"),
        }
    }

    fn peek_word(&self) -> Option<&str> {
        match self.peek() {
            Some(Tok::Word(w)) => Some(w.as_str()),
            _ => None,
        }
    }

    fn word(&mut self) -> R<String> {
        match self.next()? {
            Tok::Word(w) => Ok(w),
            t => {
                self.i -= 1;
                self.err(format!("expected a name, found {t:?}"))
            }
        }
    }

    fn int(&mut self) -> R<u64> {
        let neg = self.eat_punct('-');
        match self.next()? {
            Tok::Int(v) => Ok(if neg { v.wrapping_neg() } else { v }),
            t => {
                self.i -= 1;
                self.err(format!("expected an integer, found {t:?}"))
            }
        }
    }

    /// Skips the rest of the current line (`.loc`, `.file` have no terminating ';').
    fn skip_line(&mut self) {
        let line = self.t[self.i - 1].line;
        while self.t.get(self.i).is_some_and(|t| t.line == line) {
            self.i += 1;
        }
    }

    /// Skips a balanced `{ … }` (debug sections).
    fn skip_braces(&mut self) -> R<()> {
        self.expect_punct('{')?;
        let mut depth = 1;
        while depth > 0 {
            match self.next()? {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }

    fn module(&mut self) -> R<Module> {
        let mut m = Module {
            address_size: 64,
            ..Default::default()
        };
        while self.peek().is_some() {
            let line = self.line();
            let Some(w) = self.peek_word().map(str::to_string) else {
                return self.err(format!("expected a directive, found {}", self.describe()));
            };
            match w.as_str() {
                ".version" => {
                    self.i += 1;
                    m.version = match self.next()? {
                        Tok::Decimal(d) => d,
                        Tok::Int(v) => v.to_string(),
                        _ => return self.err("malformed .version"),
                    };
                }
                ".target" => {
                    self.i += 1;
                    m.target.push(self.word()?);
                    while self.eat_punct(',') {
                        m.target.push(self.word()?);
                    }
                }
                ".address_size" => {
                    self.i += 1;
                    m.address_size = self.int()? as u32;
                }
                ".file" | ".loc" => {
                    self.i += 1;
                    self.skip_line();
                }
                ".section" => {
                    self.i += 1;
                    self.word()?;
                    self.skip_braces()?;
                }
                ".pragma" => {
                    self.i += 1;
                    while !self.eat_punct(';') {
                        self.next()?;
                    }
                }
                _ => {
                    let linkage = self.linkage();
                    match self.peek_word() {
                        Some(".entry") | Some(".func") => {
                            let f = self.function(linkage, line)?;
                            m.functions.push(f);
                        }
                        Some(d) if Space::from_directive(d).is_some() => {
                            let v = self.var_decl(linkage)?;
                            self.expect_punct(';')?;
                            m.vars.extend(v);
                        }
                        _ => {
                            return self.err(format!(
                                "unknown module-level directive {}",
                                self.describe()
                            ))
                        }
                    }
                }
            }
        }
        Ok(m)
    }

    fn linkage(&mut self) -> Linkage {
        let mut l = Linkage::Default;
        while let Some(w) = self.peek_word() {
            match LINKAGES.iter().find(|(n, _)| *n == w && *n != ".entry") {
                Some((_, k)) => {
                    l = *k;
                    self.i += 1;
                }
                None => break,
            }
        }
        l
    }

    /// `.global .align 8 .u64 name[4] = {…}` (and `.param`, `.shared`, …), without the ';'.
    /// A parameterized name (`.param .b64 %P<2>`) declares several variables, `%P0` and `%P1`.
    fn var_decl(&mut self, linkage: Linkage) -> R<Vec<VarDecl>> {
        let line = self.line();
        let d = self.word()?;
        let space = Space::from_directive(&d).ok_or_else(|| ParseError {
            line,
            message: format!("expected a state space, found '{d}'"),
        })?;
        let mut align = None;
        let mut vector = 1;
        let mut ty = None;
        while let Some(w) = self.peek_word().map(str::to_string) {
            if !w.starts_with('.') {
                break;
            }
            self.i += 1;
            match w.as_str() {
                ".align" => align = Some(self.int()? as u32),
                ".v2" => vector = 2,
                ".v4" => vector = 4,
                ".v8" => vector = 8,
                // Pointer attributes of kernel parameters and state spaces they name.
                ".ptr" | ".global" | ".shared" | ".local" | ".const" => {}
                _ => ty = Some(w[1..].to_string()),
            }
        }
        let Some(name_ty) = ty else {
            return self.err("declaration without a type");
        };
        let name = self.word()?;
        let range = if self.eat_punct('<') {
            let n = self.int()?;
            self.expect_punct('>')?;
            if n > 65536 {
                return self.err(format!("'{name}<{n}>' declares too many variables"));
            }
            Some(n as u32)
        } else {
            None
        };
        let mut dims = Vec::new();
        while self.eat_punct('[') {
            if self.eat_punct(']') {
                dims.push(None);
            } else {
                dims.push(Some(self.int()?));
                self.expect_punct(']')?;
            }
        }
        let init = if self.eat_punct('=') {
            Some(self.init()?)
        } else {
            None
        };
        let v = VarDecl {
            space,
            linkage,
            align,
            ty: DeclType {
                name: name_ty,
                vector,
            },
            name,
            dims,
            init,
            line,
            input: 0,
        };
        Ok(match range {
            None => vec![v],
            Some(n) => (0..n)
                .map(|k| VarDecl {
                    name: format!("{}{k}", v.name),
                    ..v.clone()
                })
                .collect(),
        })
    }

    fn init(&mut self) -> R<Init> {
        if self.eat_punct('{') {
            let mut items = Vec::new();
            if !self.eat_punct('}') {
                loop {
                    items.push(self.init()?);
                    if self.eat_punct('}') {
                        break;
                    }
                    self.expect_punct(',')?;
                }
            }
            return Ok(Init::List(items));
        }
        let neg = self.eat_punct('-');
        let v = match self.next()? {
            Tok::Int(v) => InitValue::Int(if neg { v.wrapping_neg() } else { v }),
            Tok::F32(v) => InitValue::F32(v),
            Tok::F64(v) => InitValue::F64(v),
            Tok::Word(w) if w == "generic" => {
                self.expect_punct('(')?;
                let name = self.word()?;
                let inner = self.offset()?;
                self.expect_punct(')')?;
                // GCC writes `generic(__sf) + 176`.
                let outer = self.offset()?;
                InitValue::Symbol {
                    name,
                    offset: inner.wrapping_add(outer),
                    generic: true,
                }
            }
            Tok::Word(name) => {
                let offset = self.offset()?;
                InitValue::Symbol {
                    name,
                    offset,
                    generic: false,
                }
            }
            _ => {
                self.i -= 1;
                return self.err(format!("malformed initializer at {}", self.describe()));
            }
        };
        Ok(Init::Value(v))
    }

    /// An optional `+N`, `+-N` or `-N`.
    fn offset(&mut self) -> R<i64> {
        // `+` is eaten; a `-` is the sign of the number int() reads.
        if self.eat_punct('+') || self.is_punct('-') {
            Ok(self.int()? as i64)
        } else {
            Ok(0)
        }
    }

    fn function(&mut self, linkage: Linkage, line: u32) -> R<Function> {
        let kind = if self.word()? == ".entry" {
            FuncKind::Entry
        } else {
            FuncKind::Func
        };
        let mut returns = Vec::new();
        if self.is_punct('(') {
            returns = self.param_list()?;
        }
        let name = self.word()?;
        let params = if self.is_punct('(') {
            self.param_list()?
        } else {
            Vec::new()
        };
        let mut directives = Vec::new();
        let mut body = None;
        loop {
            match self.peek() {
                Some(Tok::Punct(';')) => {
                    self.i += 1;
                    break;
                }
                Some(Tok::Punct('{')) => {
                    self.i += 1;
                    body = Some(self.body()?);
                    break;
                }
                Some(Tok::Word(w)) if w.starts_with('.') => {
                    let d = w[1..].to_string();
                    self.i += 1;
                    let mut args = Vec::new();
                    while matches!(self.peek(), Some(Tok::Int(_))) {
                        args.push(self.int()?);
                        if !self.eat_punct(',') {
                            break;
                        }
                    }
                    directives.push((d, args));
                }
                _ => {
                    return self.err(format!(
                        "expected a function body or ';', found {}",
                        self.describe()
                    ))
                }
            }
        }
        Ok(Function {
            kind,
            linkage,
            name,
            returns,
            params,
            directives,
            body,
            line,
            input: 0,
        })
    }

    /// `.callprototype (.param .b32 _) _ (.param .b64 _) .noreturn;` after its label.
    fn prototype(&mut self, name: String, line: u32) -> R<Prototype> {
        self.word()?; // .callprototype
        let returns = if self.is_punct('(') {
            self.param_list()?
        } else {
            Vec::new()
        };
        match self.word()? {
            w if w == "_" => {}
            w => return self.err(format!("expected '_' in .callprototype, found '{w}'")),
        }
        let params = if self.is_punct('(') {
            self.param_list()?
        } else {
            Vec::new()
        };
        while self.peek_word().is_some_and(|w| w.starts_with('.')) {
            self.i += 1; // .noreturn
        }
        self.expect_punct(';')?;
        Ok(Prototype {
            name,
            returns,
            params,
            line,
        })
    }

    fn param_list(&mut self) -> R<Vec<VarDecl>> {
        self.expect_punct('(')?;
        let mut out = Vec::new();
        if self.eat_punct(')') {
            return Ok(out);
        }
        loop {
            out.extend(self.var_decl(Linkage::Default)?);
            if self.eat_punct(')') {
                return Ok(out);
            }
            self.expect_punct(',')?;
        }
    }

    /// Statements up to the function's closing brace.
    fn body(&mut self) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        let mut depth = 1;
        loop {
            let line = self.line();
            match self.peek().cloned() {
                None => return self.err("function body not closed"),
                Some(Tok::Punct('{')) => {
                    self.i += 1;
                    depth += 1;
                    out.push(Stmt::Open);
                }
                Some(Tok::Punct('}')) => {
                    self.i += 1;
                    depth -= 1;
                    if depth == 0 {
                        return Ok(out);
                    }
                    out.push(Stmt::Close);
                }
                Some(Tok::Punct('@')) => {
                    self.i += 1;
                    let neg = self.eat_punct('!');
                    let p = self.word()?;
                    let mut inst = self.instruction(line)?;
                    inst.guard = Some((p, neg));
                    out.push(Stmt::Inst(inst));
                }
                Some(Tok::Word(w))
                    if self.peek_at(1) == Some(&Tok::Punct(':')) && !w.starts_with('.') =>
                {
                    self.i += 2;
                    if self.peek_word() == Some(".callprototype") {
                        out.push(Stmt::Prototype(self.prototype(w, line)?));
                    } else {
                        out.push(Stmt::Label(w));
                    }
                }
                Some(Tok::Word(w)) if w == ".reg" => {
                    self.i += 1;
                    let mut ty = None;
                    let mut vector = 1;
                    while let Some(d) = self
                        .peek_word()
                        .filter(|d| d.starts_with('.'))
                        .map(str::to_string)
                    {
                        self.i += 1;
                        match d.as_str() {
                            ".v2" => vector = 2,
                            ".v4" => vector = 4,
                            ".align" => {
                                self.int()?;
                            }
                            _ => ty = Some(d[1..].to_string()),
                        }
                    }
                    let Some(ty) = ty else {
                        return self.err(".reg without a type");
                    };
                    let mut names = Vec::new();
                    loop {
                        let n = self.word()?;
                        if self.eat_punct('<') {
                            let count = self.int()? as u32;
                            self.expect_punct('>')?;
                            names.push(RegName::Range { prefix: n, count });
                        } else {
                            names.push(RegName::One(n));
                        }
                        if !self.eat_punct(',') {
                            break;
                        }
                    }
                    self.expect_punct(';')?;
                    out.push(Stmt::Reg {
                        ty: DeclType { name: ty, vector },
                        names,
                        line,
                    });
                }
                Some(Tok::Word(w)) if w == ".loc" || w == ".file" => {
                    self.i += 1;
                    self.skip_line();
                }
                Some(Tok::Word(w)) if w == ".pragma" => {
                    while !self.eat_punct(';') {
                        self.next()?;
                    }
                }
                Some(Tok::Word(w)) if Space::from_directive(&w).is_some() => {
                    let v = self.var_decl(Linkage::Default)?;
                    self.expect_punct(';')?;
                    out.extend(v.into_iter().map(Stmt::Var));
                }
                Some(Tok::Word(w)) if w.starts_with('.') => {
                    let linkage = self.linkage();
                    if self
                        .peek_word()
                        .is_some_and(|d| Space::from_directive(d).is_some())
                    {
                        let v = self.var_decl(linkage)?;
                        self.expect_punct(';')?;
                        out.extend(v.into_iter().map(Stmt::Var));
                    } else {
                        return self.err(format!(
                            "unsupported directive {} in a function body",
                            self.describe()
                        ));
                    }
                }
                Some(Tok::Word(_)) => {
                    let inst = self.instruction(line)?;
                    out.push(Stmt::Inst(inst));
                }
                Some(_) => {
                    return self.err(format!("unexpected {} in a function body", self.describe()))
                }
            }
        }
    }

    fn instruction(&mut self, line: u32) -> R<Instruction> {
        let opcode = self.word()?;
        let mut operands = Vec::new();
        if !self.eat_punct(';') {
            loop {
                operands.push(self.operand()?);
                if self.eat_punct(';') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        Ok(Instruction {
            guard: None,
            opcode,
            operands,
            line,
        })
    }

    fn operand(&mut self) -> R<Operand> {
        match self.peek().cloned() {
            Some(Tok::Punct('[')) => {
                self.i += 1;
                let base = match self.next()? {
                    Tok::Word(w) if w.starts_with('%') => AddressBase::Reg(w),
                    Tok::Word(w) => AddressBase::Symbol(w),
                    Tok::Int(v) => AddressBase::Int(v),
                    _ => {
                        self.i -= 1;
                        return self.err(format!("malformed address at {}", self.describe()));
                    }
                };
                let offset = self.offset()?;
                self.expect_punct(']')?;
                Ok(Operand::Address { base, offset })
            }
            Some(Tok::Punct('{')) => {
                self.i += 1;
                Ok(Operand::Vector(self.operand_list('}')?))
            }
            Some(Tok::Punct('(')) => {
                self.i += 1;
                Ok(Operand::List(self.operand_list(')')?))
            }
            Some(Tok::Punct('!')) => {
                self.i += 1;
                Ok(Operand::Not(Box::new(self.operand()?)))
            }
            Some(Tok::Punct('-')) => {
                self.i += 1;
                match self.next()? {
                    Tok::Int(v) => Ok(Operand::Int(v.wrapping_neg())),
                    _ => {
                        self.i -= 1;
                        self.err("expected a number after '-'")
                    }
                }
            }
            Some(Tok::Int(v)) => {
                self.i += 1;
                Ok(Operand::Int(v))
            }
            Some(Tok::F32(v)) => {
                self.i += 1;
                Ok(Operand::F32(v))
            }
            Some(Tok::F64(v)) => {
                self.i += 1;
                Ok(Operand::F64(v))
            }
            Some(Tok::Word(w)) => {
                self.i += 1;
                if self.eat_punct('|') {
                    let second = self.word()?;
                    return Ok(Operand::Pair(w, second));
                }
                if w.starts_with('%') {
                    return Ok(Operand::Reg(w));
                }
                if self.is_punct('+') {
                    let off = self.offset()?;
                    return Ok(Operand::SymbolOffset(w, off));
                }
                Ok(Operand::Symbol(w))
            }
            _ => self.err(format!("expected an operand, found {}", self.describe())),
        }
    }

    fn operand_list(&mut self, close: char) -> R<Vec<Operand>> {
        let mut out = Vec::new();
        if self.eat_punct(close) {
            return Ok(out);
        }
        loop {
            out.push(self.operand()?);
            if self.eat_punct(close) {
                return Ok(out);
            }
            self.expect_punct(',')?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAXPY: &str = r#"
//
// Generated by LLVM NVPTX Back-End
//
.version 8.5
.target sm_90
.address_size 64

.visible .global .align 4 .u32 scale = 3;
.global .align 8 .u64 ptrs[3] = {generic(scale), scale+4, generic(scale) + 8};
.extern .shared .align 16 .b8 dyn[];

	// .globl	saxpy
.visible .entry saxpy(
	.param .u64 .ptr .global .align 4 saxpy_param_0,
	.param .f32 saxpy_param_1
)
.maxntid 128, 1, 1
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<4>;
	.local .align 8 .b8 	__local_depot0[16];

	ld.param.u64 	%rd1, [saxpy_param_0];
	mov.u32 	%r1, %tid.x;
	setp.lt.s32 	%p1|%p2, %r1, 10;
	@!%p1 bra 	$L__BB0_2;
	st.global.v2.f32 	[%rd1+-8], {%r1, %r2};
	.pragma "nounroll";
$L__BB0_2:
	{ // callseq 0, 0
	.param .b64 param0;
	st.param.b64 	[param0], %rd1;
	call.uni (retval0), foo, (param0);
	}
	ret;
}
.func  (.param .b32 func_retval0) foo(.param .b64 foo_param_0) .noreturn;
"#;

    #[test]
    fn parses_a_module() {
        let m = parse(SAXPY).unwrap();
        assert_eq!(m.version, "8.5");
        assert_eq!(m.target, vec!["sm_90".to_string()]);
        assert_eq!(m.vars.len(), 3);
        assert_eq!(m.vars[1].dims, vec![Some(3)]);
        assert!(matches!(
            &m.vars[1].init,
            Some(Init::List(l)) if matches!(&l[2], Init::Value(InitValue::Symbol { offset: 8, generic: true, .. }))
        ));
        assert_eq!(m.vars[2].dims, vec![None]);
        assert_eq!(m.vars[2].linkage, Linkage::Extern);
        let f = &m.functions[0];
        assert_eq!(f.name, "saxpy");
        assert_eq!(f.kind, FuncKind::Entry);
        assert_eq!(f.params.len(), 2);
        assert_eq!(f.params[1].ty.name, "f32");
        assert_eq!(f.directives, vec![("maxntid".to_string(), vec![128, 1, 1])]);
        let body = f.body.as_ref().unwrap();
        let insts: Vec<&Instruction> = body
            .iter()
            .filter_map(|s| if let Stmt::Inst(i) = s { Some(i) } else { None })
            .collect();
        assert_eq!(
            insts[2].operands[0],
            Operand::Pair("%p1".into(), "%p2".into())
        );
        assert_eq!(insts[3].guard, Some(("%p1".into(), true)));
        assert_eq!(
            insts[4].operands[0],
            Operand::Address {
                base: AddressBase::Reg("%rd1".into()),
                offset: -8
            }
        );
        assert!(matches!(&insts[6].operands[0], Operand::List(l) if l.len() == 1));
        assert!(body
            .iter()
            .any(|s| matches!(s, Stmt::Label(l) if l == "$L__BB0_2")));
        let g = &m.functions[1];
        assert!(g.body.is_none());
        assert_eq!(g.returns.len(), 1);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse(".version 8.5\n.target sm_90\n.visible .entry k()\n{\n add.s32 %r1 %r2;\n}")
            .unwrap_err();
        assert_eq!(e.line, 5);
    }
}

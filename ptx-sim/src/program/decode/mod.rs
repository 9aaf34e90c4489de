//! `ast::Module` → `Program`: lays out the module's variables (globals and constants in device
//! memory, shared variables in a block's shared memory), then decodes every function's
//! statements into `Inst`s.
//!
//! Anything ptxsim cannot run is an error here, with its PTX line, not a wrong answer later.
//! The instructions are decoded by family: `arith.rs`, `memory.rs`, `control.rs`.

mod arith;
mod control;
mod memory;

use super::*;
use crate::exec::specialize;
use crate::ptx::ast::{self, AddressBase, Init, InitValue, Linkage, Operand, RegName, Space, Stmt};
use std::collections::HashMap;

/// Where the module's `.global`/`.const` variables are allocated: the device's memory.
pub trait GlobalMemory {
    /// Device memory of `bytes` bytes aligned to `align`; its address.
    fn alloc(&mut self, bytes: u64, align: u64) -> Result<u64, String>;
    /// Copies `data` to device memory at `addr` (inside an allocation made by `alloc`).
    fn write(&mut self, addr: u64, data: &[u8]);
}

#[derive(Clone, Debug, PartialEq)]
pub struct DecodeError {
    pub line: u32,
    pub message: String,
    /// The input of a link the line is in (1-based); 0 for a module loaded alone.
    pub input: u32,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.input > 0 {
            write!(f, "input {}, ", self.input)?;
        }
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl DecodeError {
    /// The error, placed in link input `input` unless it is placed already.
    fn in_input(mut self, input: u32) -> DecodeError {
        if self.input == 0 {
            self.input = input;
        }
        self
    }
}

type R<T> = Result<T, DecodeError>;

fn err<T>(line: u32, message: impl Into<String>) -> R<T> {
    Err(DecodeError {
        line,
        message: message.into(),
        input: 0,
    })
}

/// Tags programs, so that a function address of one is not taken for one of another.
static PROGRAM_TAGS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// What a module-level name stands for.
#[derive(Clone, Copy, Debug)]
enum ModuleSym {
    /// A `.global`/`.const` variable at this device address.
    Global(u64),
    /// A `.shared` variable at this offset in a block's shared memory.
    Shared(u32),
    Function(usize),
}

/// Parses and decodes a PTX module, allocating its variables in `memory`.
pub fn load(text: &str, memory: &mut dyn GlobalMemory) -> R<Program> {
    let module = crate::ptx::parser::parse(text).map_err(|e| DecodeError {
        line: e.line,
        message: e.message,
        input: 0,
    })?;
    decode(&module, memory)
}

pub fn decode(m: &ast::Module, memory: &mut dyn GlobalMemory) -> R<Program> {
    if m.address_size != 64 {
        return err(
            0,
            format!(
                ".address_size {} is not supported (only 64)",
                m.address_size
            ),
        );
    }
    let tag = PROGRAM_TAGS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) & FUNC_TAG_MASK;
    let mut syms: HashMap<String, ModuleSym> = HashMap::new();
    let mut globals = Vec::new();
    let mut shared = SharedLayout::default();

    // Functions first: initializers and instructions may name them.
    let mut functions: Vec<&ast::Function> = Vec::new();
    let mut function_index = HashMap::new();
    for f in &m.functions {
        match function_index.get(&f.name) {
            Some(&i) => {
                if f.body.is_some() {
                    functions[i] = f;
                }
            }
            None => {
                function_index.insert(f.name.clone(), functions.len());
                syms.insert(f.name.clone(), ModuleSym::Function(functions.len()));
                functions.push(f);
            }
        }
    }

    for v in &m.vars {
        let placed = place_var(v, memory, &mut shared, &mut syms, &mut globals);
        placed.map_err(|e| e.in_input(v.input))?;
    }
    // Function-scope shared variables live in the same layout.
    let mut function_shared: Vec<HashMap<String, u32>> = Vec::new();
    for f in &functions {
        let mut map = HashMap::new();
        for s in f.body.iter().flatten() {
            if let Stmt::Var(v) = s {
                if v.space == Space::Shared {
                    let off = shared.place(v).map_err(|e| e.in_input(f.input))?;
                    map.insert(v.name.clone(), off);
                }
            }
        }
        function_shared.push(map);
    }
    finish_layout(
        m,
        tag,
        memory,
        functions,
        function_index,
        syms,
        globals,
        shared,
        function_shared,
    )
}

/// Places a module-level variable: device memory for `.global`/`.const`, the shared layout for
/// `.shared`.
fn place_var<'m>(
    v: &'m ast::VarDecl,
    memory: &mut dyn GlobalMemory,
    shared: &mut SharedLayout,
    syms: &mut HashMap<String, ModuleSym>,
    globals: &mut Vec<(&'m ast::VarDecl, u64, u64)>,
) -> R<()> {
    {
        match v.space {
            Space::Global | Space::Const => {
                let bytes = var_bytes(v)?;
                let align = v.align.unwrap_or_else(|| elem_bytes(v).unwrap_or(1)).max(1) as u64;
                let addr = memory.alloc(bytes.max(1), align).map_err(|e| DecodeError {
                    line: v.line,
                    message: e,
                    input: 0,
                })?;
                syms.insert(v.name.clone(), ModuleSym::Global(addr));
                globals.push((v, addr, bytes));
            }
            Space::Shared => {
                let off = shared.place(v)?;
                syms.insert(v.name.clone(), ModuleSym::Shared(off));
            }
            _ => {
                return err(
                    v.line,
                    format!("a module-level {:?} variable is not supported", v.space),
                )
            }
        }
    }
    Ok(())
}

/// The rest of `decode`, once every variable has a place: initial values, then the functions.
#[allow(clippy::too_many_arguments)]
fn finish_layout(
    m: &ast::Module,
    tag: u64,
    memory: &mut dyn GlobalMemory,
    functions: Vec<&ast::Function>,
    function_index: HashMap<String, usize>,
    mut syms: HashMap<String, ModuleSym>,
    globals: Vec<(&ast::VarDecl, u64, u64)>,
    mut shared: SharedLayout,
    mut function_shared: Vec<HashMap<String, u32>>,
) -> R<Program> {
    // Dynamic shared memory follows the static layout, now complete.
    let dynamic = shared.dynamic_offset();
    let fix = |o: &mut u32| {
        if *o == DYNAMIC_SHARED {
            *o = dynamic;
        }
    };
    for s in syms.values_mut() {
        if let ModuleSym::Shared(o) = s {
            fix(o);
        }
    }
    function_shared
        .iter_mut()
        .flat_map(|m| m.values_mut())
        .for_each(fix);
    // Initial values, once every variable has its address.
    for (v, addr, bytes) in &globals {
        let mut data = vec![0u8; *bytes as usize];
        if let Some(init) = &v.init {
            let elem = elem_bytes(v).map_err(|e| e.in_input(v.input))? as usize;
            let mut pos = 0usize;
            write_init(init, elem, &syms, tag, &mut data, &mut pos, v.line)
                .map_err(|e| e.in_input(v.input))?;
        }
        memory.write(*addr, &data);
    }

    let mut decoded = Vec::with_capacity(functions.len());
    for (i, f) in functions.iter().enumerate() {
        let d = FunctionDecoder::new(f, &syms, &function_shared[i], &functions, tag).decode();
        decoded.push(d.map_err(|e| e.in_input(f.input))?);
    }
    let mut program = Program {
        functions: decoded,
        function_index,
        globals: globals
            .iter()
            .map(|(v, addr, bytes)| GlobalVar {
                name: v.name.clone(),
                addr: *addr,
                bytes: *bytes,
            })
            .collect(),
        shared_bytes: shared.bytes,
        shared_vars: std::mem::take(&mut shared.vars),
        dynamic_shared_offset: dynamic,
        target: m.target.first().cloned().unwrap_or_default(),
        tag,
        lockstep: m.target.iter().any(|t| pre_volta(t)),
        blocks: Vec::new(),
        sites: Vec::new(),
    };
    super::blocks::annotate(&mut program);
    Ok(program)
}

/// Whether `.target` names an architecture before sm_70 (Volta), whose warps ran in lockstep.
fn pre_volta(target: &str) -> bool {
    let digits: String = target
        .strip_prefix("sm_")
        .unwrap_or("")
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse::<u32>().is_ok_and(|n| n < 70)
}

#[derive(Default)]
struct SharedLayout {
    bytes: u32,
    dynamic_align: u32,
    vars: Vec<(String, u32, u32)>,
}

impl SharedLayout {
    /// The offset of a shared variable (`DYNAMIC_SHARED` for an `.extern` array: dynamic shared
    /// memory, placed after the static variables once they are all known).
    fn place(&mut self, v: &ast::VarDecl) -> R<u32> {
        let align = v.align.unwrap_or_else(|| elem_bytes(v).unwrap_or(1)).max(1);
        if v.linkage == Linkage::Extern || v.dims.first() == Some(&None) {
            self.dynamic_align = self.dynamic_align.max(align);
            return Ok(DYNAMIC_SHARED);
        }
        let bytes = var_bytes(v)? as u32;
        let off = self.bytes.next_multiple_of(align);
        self.bytes = off + bytes;
        self.vars.push((v.name.clone(), off, bytes));
        Ok(off)
    }

    fn dynamic_offset(&self) -> u32 {
        self.bytes.next_multiple_of(self.dynamic_align.max(16))
    }
}

/// Placeholder offset of dynamic shared memory until the static layout is complete.
const DYNAMIC_SHARED: u32 = u32::MAX;

fn elem_bytes(v: &ast::VarDecl) -> R<u32> {
    let ty = Ty::parse(&v.ty.name).ok_or_else(|| DecodeError {
        line: v.line,
        message: format!("type .{} is not supported", v.ty.name),
        input: 0,
    })?;
    if ty == Ty::Pred {
        return err(v.line, "a .pred variable in memory is not supported");
    }
    Ok(ty.bytes() * v.ty.vector)
}

fn init_len(init: &Init) -> u64 {
    match init {
        Init::Value(_) => 1,
        Init::List(l) => l.iter().map(init_len).sum(),
    }
}

fn var_bytes(v: &ast::VarDecl) -> R<u64> {
    let elem = elem_bytes(v)? as u64;
    let mut count = 1u64;
    for d in &v.dims {
        match d {
            Some(n) => count = count.saturating_mul(*n),
            None => match &v.init {
                Some(init) => count = count.saturating_mul(init_len(init)),
                None => count = 0,
            },
        }
    }
    Ok(elem.saturating_mul(count))
}

fn write_init(
    init: &Init,
    elem: usize,
    syms: &HashMap<String, ModuleSym>,
    tag: u64,
    data: &mut [u8],
    pos: &mut usize,
    line: u32,
) -> R<()> {
    match init {
        Init::List(items) => {
            for i in items {
                write_init(i, elem, syms, tag, data, pos, line)?;
            }
            Ok(())
        }
        Init::Value(v) => {
            let bits: u64 = match v {
                InitValue::Int(i) => *i,
                InitValue::F32(b) if elem == 8 => (f32::from_bits(*b) as f64).to_bits(),
                InitValue::F32(b) => *b as u64,
                InitValue::F64(b) if elem == 4 => (f64::from_bits(*b) as f32).to_bits() as u64,
                InitValue::F64(b) => *b,
                InitValue::Symbol { name, offset, .. } => match syms.get(name) {
                    Some(ModuleSym::Global(a)) => a.wrapping_add(*offset as u64),
                    Some(ModuleSym::Shared(o)) => (*o as u64).wrapping_add(*offset as u64),
                    Some(ModuleSym::Function(id)) if *offset == 0 => function_address(tag, *id),
                    _ => return err(line, format!("initializer names '{name}', which is not a global variable or function ptxsim can place")),
                },
            };
            let end = *pos + elem;
            if end > data.len() {
                return err(line, "more initial values than the variable has elements");
            }
            data[*pos..end].copy_from_slice(&bits.to_le_bytes()[..elem.min(8)]);
            *pos = end;
            Ok(())
        }
    }
}

/// A name declared in a function (a register or a variable), in a scope.
#[derive(Clone, Copy, Debug)]
enum LocalSym {
    Param(u32),
    Local(u32),
    Shared(u32),
}

/// The registers a block (`{ … }`) declares.
#[derive(Default)]
struct RegScope {
    singles: HashMap<String, Reg>,
    /// `%r<N>` ranges: prefix → first index, count.
    ranges: HashMap<String, (Reg, u32)>,
    /// Vector registers (`.reg .v2 .u32 %v`): first of their consecutive registers, elements.
    vectors: HashMap<String, (Reg, u8)>,
}

/// What a `.callprototype` says of the functions an indirect call may reach.
#[derive(Clone, Debug)]
struct Proto {
    params: Vec<u32>,
    ret: Option<u32>,
}

struct FunctionDecoder<'a> {
    f: &'a ast::Function,
    module: &'a HashMap<String, ModuleSym>,
    shared: &'a HashMap<String, u32>,
    functions: &'a [&'a ast::Function],
    /// The program's tag (see `function_address`).
    tag: u64,
    reg_scopes: Vec<RegScope>,
    /// `.callprototype`s by label (function-wide, like labels).
    prototypes: HashMap<String, Proto>,
    var_scopes: Vec<HashMap<String, LocalSym>>,
    num_regs: usize,
    param_bytes: u32,
    local_bytes: u32,
    labels: HashMap<String, u32>,
    /// The line of the instruction being decoded, for errors.
    line: u32,
    /// Registers holding immediates and special registers (see `Src`).
    init: Vec<(Reg, RegInit)>,
    constants: HashMap<u64, Reg>,
    sregs: Vec<(Sreg, Reg)>,
}

impl<'a> FunctionDecoder<'a> {
    fn new(
        f: &'a ast::Function,
        module: &'a HashMap<String, ModuleSym>,
        shared: &'a HashMap<String, u32>,
        functions: &'a [&'a ast::Function],
        tag: u64,
    ) -> Self {
        FunctionDecoder {
            f,
            module,
            shared,
            functions,
            tag,
            reg_scopes: vec![RegScope::default()],
            prototypes: HashMap::new(),
            var_scopes: vec![HashMap::new()],
            // Register 0 is the sink `_` writes to.
            num_regs: 1,
            param_bytes: 0,
            local_bytes: 0,
            labels: HashMap::new(),
            line: f.line,
            init: Vec::new(),
            constants: HashMap::new(),
            sregs: Vec::new(),
        }
    }

    fn param_var(&mut self, v: &ast::VarDecl) -> R<(u32, u32)> {
        let bytes = var_bytes(v)? as u32;
        let align = v.align.unwrap_or_else(|| elem_bytes(v).unwrap_or(1)).max(1);
        let off = self.param_bytes.next_multiple_of(align);
        self.param_bytes = off + bytes;
        self.var_scopes
            .last_mut()
            .expect("scope")
            .insert(v.name.clone(), LocalSym::Param(off));
        Ok((off, bytes))
    }

    fn decode(mut self) -> R<Function> {
        let f = self.f;
        let mut ret = None;
        for r in &f.returns {
            if r.space != Space::Param {
                return err(f.line, "register return values are not supported");
            }
            ret = Some(self.param_var(r)?);
        }
        let mut params = Vec::new();
        for p in &f.params {
            if p.space != Space::Param {
                return err(f.line, "register parameters are not supported");
            }
            params.push(self.param_var(p)?);
        }
        let dims = |name: &str| -> Option<[u32; 3]> {
            f.directives.iter().find(|(d, _)| d == name).map(|(_, v)| {
                let g = |i: usize| v.get(i).copied().unwrap_or(1).max(1) as u32;
                [g(0), g(1), g(2)]
            })
        };
        let (maxntid, reqntid) = (dims("maxntid"), dims("reqntid"));
        let Some(body) = &f.body else {
            let builtin = match f.name.as_str() {
                "vprintf" => Some(Builtin::Vprintf),
                "__assertfail" => Some(Builtin::AssertFail),
                "malloc" => Some(Builtin::Malloc),
                "free" => Some(Builtin::Free),
                _ => None,
            };
            return Ok(Function {
                name: f.name.clone(),
                is_entry: f.kind == ast::FuncKind::Entry,
                code: Vec::new(),
                num_regs: 1,
                init: Vec::new(),
                param_bytes: self.param_bytes,
                params,
                ret,
                local_bytes: 0,
                maxntid,
                reqntid,
                builtin,
            });
        };

        // Pass 1: labels (function-wide).
        let mut n = 0u32;
        for s in body {
            match s {
                Stmt::Label(l) => {
                    self.labels.insert(l.clone(), n);
                }
                Stmt::Prototype(p) => {
                    let sizes = |vs: &[ast::VarDecl]| -> R<Vec<u32>> {
                        vs.iter()
                            .map(|v| {
                                if v.space != Space::Param {
                                    return err(p.line, "a .callprototype with register parameters is not supported");
                                }
                                Ok(var_bytes(v)? as u32)
                            })
                            .collect()
                    };
                    let proto = Proto {
                        params: sizes(&p.params)?,
                        ret: sizes(&p.returns)?.first().copied(),
                    };
                    self.prototypes.insert(p.name.clone(), proto);
                }
                Stmt::Inst(_) => n += 1,
                _ => {}
            }
        }
        // Pass 2: declarations in scope order, and instructions.
        let mut code = Vec::with_capacity(n as usize);
        for s in body {
            match s {
                Stmt::Open => {
                    self.reg_scopes.push(RegScope::default());
                    self.var_scopes.push(HashMap::new());
                }
                Stmt::Close => {
                    if self.reg_scopes.len() > 1 {
                        self.reg_scopes.pop();
                        self.var_scopes.pop();
                    }
                }
                Stmt::Reg { ty, names, line } => {
                    if Ty::parse(&ty.name).is_none() {
                        return err(
                            *line,
                            format!("registers of type .{} are not supported", ty.name),
                        );
                    }
                    if ty.vector != 1 {
                        // A vector register: consecutive registers, one per element.
                        let n = ty.vector as usize;
                        let all: Vec<String> = names
                            .iter()
                            .flat_map(|name| match name {
                                RegName::One(x) => vec![x.clone()],
                                RegName::Range { prefix, count } => {
                                    (0..*count).map(|k| format!("{prefix}{k}")).collect()
                                }
                            })
                            .collect();
                        for x in all {
                            let r = self.new_regs(n, *line)?;
                            self.scope().vectors.insert(x, (r, n as u8));
                        }
                        continue;
                    }
                    for name in names {
                        match name {
                            RegName::One(n) => {
                                let r = self.new_regs(1, *line)?;
                                self.scope().singles.insert(n.clone(), r);
                            }
                            RegName::Range { prefix, count } => {
                                let r = self.new_regs(*count as usize, *line)?;
                                self.scope().ranges.insert(prefix.clone(), (r, *count));
                            }
                        }
                    }
                }
                Stmt::Var(v) => match v.space {
                    Space::Param => {
                        self.param_var(v)?;
                    }
                    Space::Local => {
                        let bytes = var_bytes(v)? as u32;
                        let align = v.align.unwrap_or_else(|| elem_bytes(v).unwrap_or(1)).max(1);
                        let off = self.local_bytes.next_multiple_of(align);
                        self.local_bytes = off + bytes;
                        self.var_scopes
                            .last_mut()
                            .expect("scope")
                            .insert(v.name.clone(), LocalSym::Local(off));
                    }
                    Space::Shared => {
                        let off = self.shared.get(&v.name).copied().unwrap_or(0);
                        self.var_scopes
                            .last_mut()
                            .expect("scope")
                            .insert(v.name.clone(), LocalSym::Shared(off));
                    }
                    other => {
                        return err(
                            v.line,
                            format!("a {other:?} variable inside a function is not supported"),
                        )
                    }
                },
                Stmt::Label(_) | Stmt::Prototype(_) => {}
                Stmt::Inst(i) => {
                    self.line = i.line;
                    let guard = match &i.guard {
                        Some((p, negate)) => Some(Guard {
                            reg: self.reg(p)?,
                            negate: *negate,
                        }),
                        None => None,
                    };
                    let op = self.inst(i)?;
                    code.push(Inst::new(op, guard, i.line));
                }
            }
        }
        if code.last().is_none_or(|i| {
            !matches!(i.op, Op::Ret | Op::Exit | Op::Bra { .. } | Op::Trap) || i.guard.is_some()
        }) {
            code.push(Inst::new(Op::Ret, None, self.line));
        }
        let num_regs = self.num_regs;
        Ok(Function {
            name: f.name.clone(),
            is_entry: f.kind == ast::FuncKind::Entry,
            code,
            num_regs,
            init: self.init,
            param_bytes: self.param_bytes,
            params,
            ret,
            local_bytes: self.local_bytes,
            maxntid,
            reqntid,
            builtin: None,
        })
    }

    fn new_regs(&mut self, count: usize, line: u32) -> R<Reg> {
        let first = self.num_regs;
        self.num_regs += count;
        if self.num_regs > Reg::MAX as usize {
            return err(line, "more than 65534 registers in one function");
        }
        Ok(first as Reg)
    }

    fn sink(&self) -> Reg {
        0
    }

    fn scope(&mut self) -> &mut RegScope {
        self.reg_scopes.last_mut().expect("a function has a scope")
    }

    /// A vector register named as a whole: its first register and element count.
    fn vector_reg(&self, name: &str) -> Option<(Reg, u8)> {
        self.reg_scopes
            .iter()
            .rev()
            .find_map(|s| s.vectors.get(name).copied())
    }

    /// Whether `o` names a vector register as a whole.
    fn names_vector(&self, o: &Operand) -> bool {
        matches!(o, Operand::Reg(r) | Operand::Symbol(r) if self.vector_reg(r).is_some())
    }

    /// The first register of the vector register `o` names, which must have `n` elements.
    fn vector_operand(&self, o: &Operand, n: usize) -> R<Reg> {
        let name = match o {
            Operand::Reg(r) | Operand::Symbol(r) => r,
            _ => {
                return err(
                    self.line,
                    format!("expected a vector of {n} elements, found {o:?}"),
                )
            }
        };
        match self.vector_reg(name) {
            Some((r, k)) if k as usize == n => Ok(r),
            Some((_, k)) => err(
                self.line,
                format!("vector register '{name}' has {k} elements; the instruction needs {n}"),
            ),
            None => err(
                self.line,
                format!("'{name}' is not a vector register of {n} elements"),
            ),
        }
    }

    fn reg(&self, name: &str) -> R<Reg> {
        // An element of a vector register: `%v.x`, `%v.y`, …
        if let Some((base, elem)) = name.rsplit_once('.') {
            let k = match elem {
                "x" | "r" => Some(0),
                "y" | "g" => Some(1),
                "z" | "b" => Some(2),
                "w" | "a" => Some(3),
                _ => None,
            };
            if let (Some(k), Some((r, n))) = (k, self.vector_reg(base)) {
                if k < n {
                    return Ok(r + k as Reg);
                }
                return err(
                    self.line,
                    format!("'{name}': the vector register has {n} elements"),
                );
            }
        }
        if self.vector_reg(name).is_some() {
            return err(
                self.line,
                format!("vector register '{name}' used where a scalar register is expected"),
            );
        }
        for scope in self.reg_scopes.iter().rev() {
            let (singles, ranges) = (&scope.singles, &scope.ranges);
            if let Some(r) = singles.get(name) {
                return Ok(*r);
            }
            let digits = name.len()
                - name
                    .bytes()
                    .rev()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
            if digits < name.len() {
                if let Some((first, count)) = ranges.get(&name[..digits]) {
                    if let Ok(i) = name[digits..].parse::<u32>() {
                        if i < *count {
                            return Ok(first + i as Reg);
                        }
                    }
                }
            }
        }
        err(self.line, format!("register '{name}' is not declared"))
    }

    fn var(&self, name: &str) -> Option<LocalSym> {
        self.var_scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
    }

    fn dst(&self, o: &Operand) -> R<Reg> {
        match o {
            Operand::Reg(r) => self.reg(r),
            Operand::Symbol(s) if s == "_" => Ok(self.sink()),
            // Register names need no '%' (`{ .reg .b32 tmp; mov.b64 {tmp, %r1}, %rd1; }`).
            Operand::Symbol(s) => self.reg(s),
            _ => err(
                self.line,
                format!("expected a destination register, found {o:?}"),
            ),
        }
    }

    fn opt_dst(&self, o: &Operand) -> R<Option<Reg>> {
        match o {
            Operand::Symbol(s) if s == "_" => Ok(None),
            _ => self.dst(o).map(Some),
        }
    }

    /// The register holding constant `v`.
    fn constant(&mut self, v: u64) -> R<Src> {
        if let Some(r) = self.constants.get(&v) {
            return Ok(*r);
        }
        let r = self.new_regs(1, self.line)?;
        self.init.push((r, RegInit::Const(v)));
        self.constants.insert(v, r);
        Ok(r)
    }

    /// The register holding special register `s` (one that is constant for a thread).
    fn special(&mut self, s: Sreg) -> R<Src> {
        if matches!(s, Sreg::Clock | Sreg::Clock64 | Sreg::GlobalTimer) {
            return err(
                self.line,
                "%clock, %clock64 and %globaltimer can only be read by mov",
            );
        }
        if let Some((_, r)) = self.sregs.iter().find(|(x, _)| *x == s) {
            return Ok(*r);
        }
        let r = self.new_regs(1, self.line)?;
        self.init.push((r, RegInit::Sreg(s)));
        self.sregs.push((s, r));
        Ok(r)
    }

    /// A source operand of an instruction of type `ty` (immediates are converted to it).
    fn src(&mut self, o: &Operand, ty: Ty) -> R<Src> {
        let v = match o {
            Operand::Reg(r) => {
                return match self.reg(r) {
                    Ok(r) => Ok(r),
                    Err(e) => match Sreg::parse(r) {
                        Some(s) => self.special(s),
                        None => Err(e),
                    },
                }
            }
            Operand::Int(v) => match ty {
                Ty::F32 => (*v as i64 as f32).to_bits() as u64,
                Ty::F64 => (*v as i64 as f64).to_bits(),
                Ty::Pred => (*v != 0) as u64,
                _ => *v,
            },
            Operand::F32(b) => match ty {
                Ty::F64 => (f32::from_bits(*b) as f64).to_bits(),
                _ => *b as u64,
            },
            Operand::F64(b) => match ty {
                Ty::F32 => (f64::from_bits(*b) as f32).to_bits() as u64,
                _ => *b,
            },
            Operand::Symbol(s) => match self.reg(s) {
                Ok(r) => return Ok(r),
                Err(_) => self.symbol_address(s, 0)?,
            },
            Operand::SymbolOffset(s, off) => self.symbol_address(s, *off)?,
            _ => return err(self.line, format!("unsupported source operand {o:?}")),
        };
        self.constant(v)
    }

    /// A predicate source that may be negated (`!%p`).
    fn pred_src(&mut self, o: &Operand) -> R<(Src, bool)> {
        match o {
            Operand::Not(inner) => Ok((self.src(inner, Ty::Pred)?, true)),
            _ => Ok((self.src(o, Ty::Pred)?, false)),
        }
    }

    /// The address `mov` gives a variable name: a global's device address, a shared variable's
    /// offset in the `.shared` space, a parameter's in the `.param` space.
    fn symbol_address(&self, name: &str, offset: i64) -> R<u64> {
        if let Some(v) = self.var(name) {
            return match v {
                LocalSym::Shared(o) => Ok(o as u64 + offset as u64),
                LocalSym::Local(_) => {
                    err(self.line, "internal: local address used as an immediate")
                }
                // Its offset in the parameter block: what `ld.param [%rd]` reads through
                // (nvcc's CUB kernels read a struct parameter so). The `.param` space only:
                // there is no generic address of a parameter (`cvta.param`).
                LocalSym::Param(o) => Ok(u64::from(o).wrapping_add(offset as u64)),
            };
        }
        match self.module.get(name) {
            Some(ModuleSym::Global(a)) => Ok(a.wrapping_add(offset as u64)),
            Some(ModuleSym::Shared(o)) => Ok(*o as u64 + offset as u64),
            Some(ModuleSym::Function(id)) if offset == 0 => Ok(function_address(self.tag, *id)),
            Some(ModuleSym::Function(_)) => err(
                self.line,
                format!("'{name}+{offset}': an offset from a function's address"),
            ),
            None => err(self.line, format!("'{name}' is not declared")),
        }
    }

    fn addr(&self, o: &Operand, space: MemSpace) -> R<Addr> {
        let Operand::Address { base, offset } = o else {
            return err(self.line, format!("expected an address [..], found {o:?}"));
        };
        let base = match base {
            AddressBase::Reg(r) if self.var(r).is_none() => AddrBase::Reg(self.reg(r)?),
            AddressBase::Int(v) => AddrBase::Abs(*v),
            // Variable names may start with '%' too (GCC's `.param .u64 %in_ar0`).
            AddressBase::Reg(s) | AddressBase::Symbol(s) => {
                match self
                    .var(s)
                    .map(Ok)
                    .unwrap_or_else(|| match self.module.get(s) {
                        Some(ModuleSym::Shared(o)) => Ok(LocalSym::Shared(*o)),
                        Some(ModuleSym::Global(a)) => Err(Some(*a)),
                        Some(ModuleSym::Function(_)) => Err(None),
                        None => Err(None),
                    }) {
                    Ok(LocalSym::Param(off)) => match space {
                        MemSpace::Param => AddrBase::Param(off),
                        _ => {
                            return err(
                                self.line,
                                format!("parameter '{s}' used in a non-.param access"),
                            )
                        }
                    },
                    Ok(LocalSym::Local(off)) => match space {
                        MemSpace::Local => AddrBase::Local {
                            offset: off,
                            generic: false,
                        },
                        MemSpace::Generic => AddrBase::Local {
                            offset: off,
                            generic: true,
                        },
                        _ => {
                            return err(
                                self.line,
                                format!("local variable '{s}' used in a {space:?} access"),
                            )
                        }
                    },
                    Ok(LocalSym::Shared(off)) => match space {
                        MemSpace::Shared => AddrBase::Abs(off as u64),
                        MemSpace::Generic => AddrBase::Abs(SHARED_WINDOW + off as u64),
                        _ => {
                            return err(
                                self.line,
                                format!("shared variable '{s}' used in a {space:?} access"),
                            )
                        }
                    },
                    Err(Some(a)) => match space {
                        MemSpace::Global | MemSpace::Const | MemSpace::Generic => AddrBase::Abs(a),
                        _ => {
                            return err(
                                self.line,
                                format!("global variable '{s}' used in a {space:?} access"),
                            )
                        }
                    },
                    Err(None) => return err(self.line, format!("'{s}' is not a variable")),
                }
            }
        };
        Ok(Addr {
            base,
            offset: *offset,
        })
    }

    fn label(&self, o: &Operand) -> R<u32> {
        match o {
            Operand::Symbol(l) => self.labels.get(l).copied().ok_or_else(|| DecodeError {
                line: self.line,
                message: format!("label '{l}' is not defined"),
                input: 0,
            }),
            _ => err(self.line, format!("expected a label, found {o:?}")),
        }
    }

    fn inst(&mut self, i: &ast::Instruction) -> R<Op> {
        let mut parts = i.opcode.split('.');
        let mnemonic = parts.next().unwrap_or("");
        let mods: Vec<&str> = parts.collect();
        let c = InstCtx {
            i,
            mnemonic,
            m: Mods(&mods),
            ops: &i.operands,
            line: i.line,
        };
        if let Some(op) = self.arith(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.memory(&c)? {
            return Ok(op);
        }
        if let Some(op) = self.control(&c)? {
            return Ok(op);
        }
        err(
            i.line,
            format!("instruction '{}' is not supported by ptxsim", i.opcode),
        )
    }
}

/// The type twice as wide (mul.wide's result).
fn wide(ty: Ty) -> Ty {
    match ty {
        Ty::U16 => Ty::U32,
        Ty::S16 => Ty::S32,
        Ty::U32 => Ty::U64,
        Ty::S32 => Ty::S64,
        t => t,
    }
}

/// An instruction being decoded: its mnemonic, modifiers and operands.
pub(super) struct InstCtx<'a> {
    pub i: &'a ast::Instruction,
    pub mnemonic: &'a str,
    pub m: Mods<'a>,
    pub ops: &'a [Operand],
    pub line: u32,
}

impl InstCtx<'_> {
    /// An error unless the instruction has at least `n` operands.
    pub fn need(&self, n: usize) -> R<()> {
        if self.ops.len() < n {
            err(self.line, format!("'{}' needs {n} operands", self.i.opcode))
        } else {
            Ok(())
        }
    }

    /// The first modifier `parse` accepts (a mode, an operation), or an error saying the
    /// instruction has no `what`.
    pub fn required<T>(&self, what: &str, parse: impl Fn(&str) -> Option<T>) -> R<T> {
        self.m.find(parse).ok_or_else(|| DecodeError {
            line: self.line,
            message: format!("'{}': no {what}", self.i.opcode),
            input: 0,
        })
    }

    /// The instruction's type (its last type modifier).
    pub fn ty(&self) -> R<Ty> {
        self.m.ty().ok_or_else(|| DecodeError {
            line: self.line,
            message: format!("'{}': no type or an unsupported one", self.i.opcode),
            input: 0,
        })
    }
}

/// An opcode's modifiers.
pub(super) struct Mods<'a>(pub &'a [&'a str]);

impl Mods<'_> {
    pub fn has(&self, m: &str) -> bool {
        self.0.contains(&m)
    }

    fn find<T>(&self, f: impl Fn(&str) -> Option<T>) -> Option<T> {
        self.0.iter().find_map(|s| f(s))
    }

    pub fn types(&self) -> Vec<Ty> {
        self.0.iter().filter_map(|s| Ty::parse(s)).collect()
    }

    /// The instruction's type: the last type modifier.
    pub fn ty(&self) -> Option<Ty> {
        self.types().last().copied()
    }

    pub fn space(&self) -> Option<MemSpace> {
        self.find(MemSpace::parse)
    }

    pub fn vector(&self) -> u8 {
        if self.has("v4") {
            4
        } else if self.has("v2") {
            2
        } else {
            1
        }
    }

    pub fn round(&self) -> Option<Round> {
        self.find(|s| match s {
            "rn" => Some(Round::Nearest),
            "rz" => Some(Round::Zero),
            "rm" => Some(Round::Down),
            "rp" => Some(Round::Up),
            _ => None,
        })
    }
}

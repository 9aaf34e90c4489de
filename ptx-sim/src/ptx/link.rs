//! Linking PTX modules into one, at the syntax-tree level: what the CUDA JIT linker
//! (`cuLinkAddData` … `cuLinkComplete`) does with PTX inputs. GCC's offloading passes the
//! program's PTX and that of its device libraries (libgomp, newlib) as separate inputs.
//!
//! The rules are PTX's linking directives:
//!
//! - no linkage directive: the name is local to its input. Local names that another input also
//!   declares are renamed (`name@3`, for input 3) so that they cannot meet;
//! - `.extern`: a declaration, resolved against the definition another input makes;
//! - `.visible`: a strong definition; two of one name are an error;
//! - `.weak`: a definition a strong one overrides (the first weak one wins among weak ones);
//! - `.common` (`.global` variables): the largest definition wins.
//!
//! An `.extern` function nothing defines stays a declaration: the decoder provides the ones
//! ptxsim implements (`vprintf`, `malloc`…) and refuses a call of any other, with its line. An
//! `.extern .shared` array of unspecified size nothing defines is dynamic shared memory, as in
//! one module; any other unresolved variable is an error here.

use super::ast::*;
use std::collections::{HashMap, HashSet};

/// Why a link failed: the input (1-based) and line of the declaration concerned.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkError {
    pub input: u32,
    pub line: u32,
    pub message: String,
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "input {}, line {}: {}",
            self.input, self.line, self.message
        )
    }
}

/// What a module-level name is, to check that every input agrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Func,
    Var(Space),
}

impl Kind {
    fn describe(self) -> String {
        match self {
            Kind::Func => "a function".into(),
            Kind::Var(s) => format!("a .{} variable", format!("{s:?}").to_lowercase()),
        }
    }
}

/// One module-level declaration or definition of a global name.
#[derive(Clone, Copy, Debug)]
struct Site {
    input: usize,
    /// Index in its module's `vars` or `functions`.
    index: usize,
    kind: Kind,
    linkage: Linkage,
    defines: bool,
    line: u32,
}

/// Parses PTX texts and links them into one module: a syntax error is a [`LinkError`] of its
/// input too (1-based), as a link error is.
pub fn parse_and_link<T: AsRef<str>>(texts: &[T]) -> Result<Module, LinkError> {
    let inputs = texts
        .iter()
        .enumerate()
        .map(|(k, t)| {
            super::parser::parse(t.as_ref()).map_err(|e| LinkError {
                input: k as u32 + 1,
                line: e.line,
                message: e.message,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    link(inputs)
}

/// Links `inputs` (each parsed on its own) into one module.
pub fn link(mut inputs: Vec<Module>) -> Result<Module, LinkError> {
    for (k, m) in inputs.iter_mut().enumerate() {
        let input = k as u32 + 1;
        if m.address_size != 64 {
            return Err(LinkError {
                input,
                line: 0,
                message: format!(".address_size {} (only 64 is supported)", m.address_size),
            });
        }
        m.vars.iter_mut().for_each(|v| v.input = input);
        m.functions.iter_mut().for_each(|f| f.input = input);
    }

    // Which names each input makes global, and every site of each global name.
    let mut sites: HashMap<String, Vec<Site>> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut global_in: Vec<HashSet<String>> = vec![HashSet::new(); inputs.len()];
    let mut declared_in: Vec<HashSet<String>> = vec![HashSet::new(); inputs.len()];
    for (k, m) in inputs.iter().enumerate() {
        let items = m
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| {
                (
                    &v.name,
                    i,
                    Kind::Var(v.space),
                    v.linkage,
                    v.linkage != Linkage::Extern,
                    v.line,
                )
            })
            .chain(m.functions.iter().enumerate().map(|(i, f)| {
                // Kernels are found by name (cuModuleGetFunction): global whatever their linkage.
                let linkage = match (f.kind, f.linkage) {
                    (FuncKind::Entry, Linkage::Default) => Linkage::Visible,
                    (_, l) => l,
                };
                (&f.name, i, Kind::Func, linkage, f.body.is_some(), f.line)
            }));
        for (name, index, kind, linkage, defines, line) in items {
            declared_in[k].insert(name.clone());
            if linkage == Linkage::Default {
                continue;
            }
            global_in[k].insert(name.clone());
            let s = sites.entry(name.clone()).or_default();
            if s.is_empty() {
                order.push(name.clone());
            }
            s.push(Site {
                input: k,
                index,
                kind,
                linkage,
                defines,
                line,
            });
        }
    }

    // The site each global name resolves to (None: an unresolved declaration to keep as it is).
    let mut chosen: HashMap<String, Site> = HashMap::new();
    for name in &order {
        let s = &sites[name];
        let first = s[0];
        if let Some(other) = s.iter().find(|x| x.kind != first.kind) {
            return Err(LinkError {
                input: other.input as u32 + 1,
                line: other.line,
                message: format!(
                    "'{name}' is {} here but {} in input {} (line {})",
                    other.kind.describe(),
                    first.kind.describe(),
                    first.input + 1,
                    first.line
                ),
            });
        }
        let defs: Vec<&Site> = s.iter().filter(|x| x.defines).collect();
        let strong: Vec<&&Site> = defs
            .iter()
            .filter(|x| x.linkage == Linkage::Visible)
            .collect();
        if strong.len() > 1 {
            return Err(LinkError {
                input: strong[1].input as u32 + 1,
                line: strong[1].line,
                message: format!(
                    "'{name}' is defined (.visible) here and in input {} (line {}): one of them must be .extern or .weak",
                    strong[0].input + 1,
                    strong[0].line
                ),
            });
        }
        let pick = if let Some(d) = strong.first() {
            Some(***d)
        } else if defs.iter().any(|d| d.linkage == Linkage::Common) {
            // The largest common definition (the first of equal sizes).
            let mut best: Option<(&Site, u64)> = None;
            for d in defs.iter().filter(|d| d.linkage == Linkage::Common) {
                let bytes = var_bytes(&inputs[d.input].vars[d.index]);
                if best.is_none_or(|(_, b)| bytes > b) {
                    best = Some((d, bytes));
                }
            }
            best.map(|(d, _)| *d)
        } else {
            defs.first().map(|d| **d)
        };
        match pick {
            Some(d) => {
                chosen.insert(name.clone(), d);
            }
            None => {
                // Unresolved: a function stays a declaration; a variable must be dynamic
                // shared memory.
                if let Kind::Var(space) = first.kind {
                    let v = &inputs[first.input].vars[first.index];
                    let dynamic = space == Space::Shared && v.dims.first() == Some(&None);
                    if !dynamic {
                        return Err(LinkError {
                            input: first.input as u32 + 1,
                            line: first.line,
                            message: format!(
                                "unresolved external variable '{name}': no input defines it"
                            ),
                        });
                    }
                }
                chosen.insert(name.clone(), first);
            }
        }
    }

    // Local names another input declares too get the input's number.
    let renames: Vec<HashMap<String, String>> = (0..inputs.len())
        .map(|k| {
            declared_in[k]
                .iter()
                .filter(|n| !global_in[k].contains(*n))
                .filter(|n| (0..inputs.len()).any(|j| j != k && declared_in[j].contains(*n)))
                .map(|n| (n.clone(), format!("{n}@{}", k + 1)))
                .collect()
        })
        .collect();

    let mut out = Module {
        version: String::new(),
        target: Vec::new(),
        address_size: 64,
        vars: Vec::new(),
        functions: Vec::new(),
    };
    let mut best_target: Option<(u32, String)> = None;
    let mut best_version = 0.0f64;
    for (k, m) in inputs.into_iter().enumerate() {
        let map = &renames[k];
        if let Ok(v) = m.version.parse::<f64>() {
            if v > best_version {
                best_version = v;
                out.version = m.version.clone();
            }
        }
        for t in &m.target {
            if let Some(n) = sm_number(t) {
                if best_target.as_ref().is_none_or(|(b, _)| n > *b) {
                    best_target = Some((n, t.clone()));
                }
            }
        }
        for (i, mut v) in m.vars.into_iter().enumerate() {
            if global_in[k].contains(&v.name) {
                match chosen.get(&v.name) {
                    Some(c) if c.input == k && c.index == i && matches!(c.kind, Kind::Var(_)) => {}
                    _ => continue,
                }
            } else if let Some(n) = map.get(&v.name) {
                v.name = n.clone();
            }
            if let Some(init) = &mut v.init {
                rename_init(init, map);
            }
            out.vars.push(v);
        }
        for (i, mut f) in m.functions.into_iter().enumerate() {
            if global_in[k].contains(&f.name) {
                match chosen.get(&f.name) {
                    Some(c) if c.input == k && c.index == i && c.kind == Kind::Func => {}
                    // Other declarations of a global function, and losing weak definitions.
                    _ => continue,
                }
            } else if let Some(n) = map.get(&f.name) {
                f.name = n.clone();
            }
            if !map.is_empty() {
                rename_function(&mut f, map);
            }
            out.functions.push(f);
        }
    }
    if let Some((_, t)) = best_target {
        out.target = vec![t];
    }
    Ok(out)
}

/// "sm_90a" → 90.
fn sm_number(t: &str) -> Option<u32> {
    let digits: String = t
        .strip_prefix("sm_")?
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// Bytes of a variable as declared (for choosing among `.common` definitions).
fn var_bytes(v: &VarDecl) -> u64 {
    let elem: u64 = match v.ty.name.trim_start_matches(['b', 'u', 's', 'f']) {
        "8" => 1,
        "16" => 2,
        "32" => 4,
        "64" => 8,
        _ => 1,
    };
    let count = v.dims.iter().fold(1u64, |c, d| match d {
        Some(n) => c.saturating_mul(*n),
        None => c.saturating_mul(v.init.as_ref().map(init_len).unwrap_or(0)),
    });
    elem.saturating_mul(v.ty.vector as u64)
        .saturating_mul(count)
}

fn init_len(i: &Init) -> u64 {
    match i {
        Init::Value(_) => 1,
        Init::List(l) => l.iter().map(init_len).sum(),
    }
}

fn rename_init(init: &mut Init, map: &HashMap<String, String>) {
    match init {
        Init::List(l) => l.iter_mut().for_each(|i| rename_init(i, map)),
        Init::Value(InitValue::Symbol { name, .. }) => {
            if let Some(n) = map.get(name) {
                *name = n.clone();
            }
        }
        Init::Value(_) => {}
    }
}

/// Names declared inside a function, by scope: a module-level name they shadow is not renamed.
struct Scopes {
    /// Labels, prototypes, parameters and return values: the whole function.
    function: HashSet<String>,
    blocks: Vec<HashSet<String>>,
    /// `%r<N>` ranges declared in each block (prefix, count).
    ranges: Vec<Vec<(String, u32)>>,
}

impl Scopes {
    fn shadows(&self, name: &str) -> bool {
        if self.function.contains(name) || self.blocks.iter().any(|b| b.contains(name)) {
            return true;
        }
        let digits = name.len()
            - name
                .bytes()
                .rev()
                .take_while(|b| b.is_ascii_digit())
                .count();
        if digits == name.len() {
            return false;
        }
        let (prefix, n) = name.split_at(digits);
        let Ok(n) = n.parse::<u32>() else {
            return false;
        };
        self.ranges
            .iter()
            .flatten()
            .any(|(p, count)| p == prefix && n < *count)
    }

    fn rename(&self, name: &mut String, map: &HashMap<String, String>) {
        if let Some(n) = map.get(name.as_str()) {
            if !self.shadows(name) {
                *name = n.clone();
            }
        }
    }
}

fn rename_function(f: &mut Function, map: &HashMap<String, String>) {
    let Some(body) = &mut f.body else {
        return;
    };
    let mut scopes = Scopes {
        function: f
            .params
            .iter()
            .chain(&f.returns)
            .map(|v| v.name.clone())
            .collect(),
        blocks: vec![HashSet::new()],
        ranges: vec![Vec::new()],
    };
    for s in body.iter() {
        match s {
            Stmt::Label(l) => {
                scopes.function.insert(l.clone());
            }
            Stmt::Prototype(p) => {
                scopes.function.insert(p.name.clone());
            }
            _ => {}
        }
    }
    for s in body.iter_mut() {
        match s {
            Stmt::Open => {
                scopes.blocks.push(HashSet::new());
                scopes.ranges.push(Vec::new());
            }
            Stmt::Close => {
                if scopes.blocks.len() > 1 {
                    scopes.blocks.pop();
                    scopes.ranges.pop();
                }
            }
            Stmt::Reg { names, .. } => {
                for n in names.iter() {
                    match n {
                        RegName::One(n) => {
                            scopes.blocks.last_mut().map(|b| b.insert(n.clone()));
                        }
                        RegName::Range { prefix, count } => {
                            if let Some(r) = scopes.ranges.last_mut() {
                                r.push((prefix.clone(), *count))
                            }
                        }
                    }
                }
            }
            Stmt::Var(v) => {
                scopes.blocks.last_mut().map(|b| b.insert(v.name.clone()));
            }
            Stmt::Inst(i) => {
                for o in i.operands.iter_mut() {
                    rename_operand(o, &scopes, map);
                }
            }
            Stmt::Label(_) | Stmt::Prototype(_) => {}
        }
    }
}

fn rename_operand(o: &mut Operand, scopes: &Scopes, map: &HashMap<String, String>) {
    match o {
        Operand::Reg(n) | Operand::Symbol(n) | Operand::SymbolOffset(n, _) => scopes.rename(n, map),
        Operand::Address { base, .. } => match base {
            AddressBase::Reg(n) | AddressBase::Symbol(n) => scopes.rename(n, map),
            AddressBase::Int(_) => {}
        },
        Operand::Vector(l) | Operand::List(l) => {
            l.iter_mut().for_each(|o| rename_operand(o, scopes, map))
        }
        Operand::Not(inner) => rename_operand(inner, scopes, map),
        Operand::Int(_) | Operand::F32(_) | Operand::F64(_) | Operand::Pair(..) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::parser::parse;

    fn m(text: &str) -> Module {
        parse(text).unwrap()
    }

    const HEAD: &str = ".version 6.0\n.target sm_30\n.address_size 64\n";

    #[test]
    fn resolves_externs_and_renames_colliding_locals() {
        let a = m(&format!(
            "{HEAD}.extern .func (.param .u32 r) f (.param .u32 x);\n\
             .extern .global .u32 g[1];\n\
             .const .u8 $LC0[2] = {{1, 2}};\n\
             .visible .entry k() {{ .reg .u64 %r<2>; mov.u64 %r0, $LC0; mov.u64 %r1, g; ret; }}"
        ));
        let b = m(&format!(
            "{HEAD}.const .u8 $LC0[2] = {{3, 4}};\n\
             .visible .global .u32 g[1];\n\
             .visible .func (.param .u32 r) f (.param .u32 x) {{ .reg .u64 %r1; mov.u64 %r1, $LC0; ret; }}"
        ));
        let l = link(vec![a, b]).unwrap();
        let names: Vec<&str> = l.vars.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, vec!["$LC0@1", "$LC0@2", "g"]);
        assert_eq!(l.functions.len(), 2);
        let f = l.functions.iter().find(|f| f.name == "f").unwrap();
        assert!(f.body.is_some());
        assert_eq!(f.input, 2);
        let k = l.functions.iter().find(|f| f.name == "k").unwrap();
        let Some(Stmt::Inst(i)) = k.body.as_ref().unwrap().get(1) else {
            panic!()
        };
        assert_eq!(i.operands[1], Operand::Symbol("$LC0@1".into()));
    }

    #[test]
    fn strong_beats_weak_and_two_strong_conflict() {
        let w = format!("{HEAD}.weak .global .u32 v[1] = {{1}};\n");
        let s = format!("{HEAD}.visible .global .u32 v[1] = {{2}};\n");
        let l = link(vec![m(&w), m(&s)]).unwrap();
        assert_eq!(l.vars.len(), 1);
        assert_eq!(l.vars[0].input, 2);
        let e = link(vec![m(&s), m(&s)]).unwrap_err();
        assert_eq!(e.input, 2);
        assert!(e.message.contains("defined"), "{}", e.message);
    }

    #[test]
    fn common_takes_the_largest_and_unresolved_variables_fail() {
        let a = format!("{HEAD}.common .global .u32 c[1];\n");
        let b = format!("{HEAD}.common .global .u32 c[4];\n");
        let l = link(vec![m(&a), m(&b)]).unwrap();
        assert_eq!(l.vars.len(), 1);
        assert_eq!(l.vars[0].dims, vec![Some(4)]);
        let e = link(vec![m(&format!("{HEAD}.extern .global .u32 x[1];\n"))]).unwrap_err();
        assert!(e.message.contains("unresolved"), "{}", e.message);
        // Dynamic shared memory stays an extern array.
        let d = link(vec![m(&format!(
            "{HEAD}.extern .shared .align 16 .b8 dyn[];\n"
        ))])
        .unwrap();
        assert_eq!(d.vars.len(), 1);
    }

    #[test]
    fn local_names_shadow_module_names() {
        let a = m(&format!(
            "{HEAD}.global .u32 t[1];\n\
             .visible .entry k() {{ .reg .u64 t; mov.u64 t, 0; {{ .reg .u64 %x; mov.u64 %x, t; }} ret; }}"
        ));
        let b = m(&format!("{HEAD}.global .u32 t[1];\n"));
        let l = link(vec![a, b]).unwrap();
        let k = &l.functions[0];
        let insts: Vec<&Instruction> = k
            .body
            .as_ref()
            .unwrap()
            .iter()
            .filter_map(|s| if let Stmt::Inst(i) = s { Some(i) } else { None })
            .collect();
        // `t` is the register here, not the renamed variable `t@1`.
        assert_eq!(insts[1].operands[1], Operand::Symbol("t".into()));
        assert_eq!(l.vars[0].name, "t@1");
    }

    #[test]
    fn kinds_must_agree() {
        let a = m(&format!("{HEAD}.extern .func x;\n"));
        let b = m(&format!("{HEAD}.visible .global .u32 x[1];\n"));
        let e = link(vec![a, b]).unwrap_err();
        assert!(e.message.contains("function"), "{}", e.message);
    }
}

//! Map and motion list items over multi-dimensional arrays of structs that a `declare mapper`
//! applies to. Clang 19 maps such an item without the mapper in most of its spellings: it
//! copies the structs' bytes, and their pointer members reach the device unattached (a fault on
//! a GPU, a silently wrong answer on the emulator and in a `target update from`, which copies
//! the host pointers back over themselves). Measured on clang 19 with `vec a[3][2]` of a struct
//! with a default mapper (`lit/e2e/mapper-multidim.c`):
//!
//! | item | clang 19 |
//! |---|---|
//! | `a[0:3]`, `a[1:2]` (one section, rows of a 2-D array) | through the mapper |
//! | `a` (the whole 2-D array) | without it |
//! | `a[0:3][0:2]`, `a[0:3][:]` | without it |
//! | `a[1:2][0:2]` | the mapper runs over the wrong rows (0 and 1) |
//! | `b`, `b[0:2]`, `b[0:2][0:3]` of `vec b[2][3][2]` | without it |
//!
//! So, in a translation unit that declares a mapper, each `map`, `to` and `from` item whose base
//! variable is an array of two or more dimensions (a pointer to an array counts its pointer as a
//! dimension) of a struct or union the mapper applies to (the type's default mapper, or any
//! mapper a `mapper(…)` modifier names) is
//!
//! * **rewritten** in place to the spelling clang maps right, naming the same bytes, where one
//!   exists: the whole 2-D array `a` becomes `a[0:sizeof(a)/sizeof((a)[0])]`, and rows whose
//!   last section covers its whole dimension (`a[lo:n][:]`, `a[lo:n][0:M]` with `M` the
//!   extent) lose that section. In a `target update`, the whole array of any rank becomes a
//!   full section of every dimension, which `strided_update` then moves element by element
//!   through clang's own update of one element (that path applies the mapper);
//! * **refused** with a located error, where none exists (any other item of three or more
//!   dimensions in a map clause; rows with a partial last section), saying how to map the
//!   structs through a pointer to the first one, which clang maps right.
//!
//! Items with indices only (`a[i][j]`, `a[i]`) and 1-D arrays are clang's. A struct member
//! (`s.grid[0:3][0:2]`, `p->in.grid`) is an array like any other. The variables' types come
//! from libclang's tree of the text (pragmas blanked, one declaration per mapper type
//! appended), read only in a unit that declares a mapper and maps a candidate item; without it (libclang missing, the tree refused) nothing is
//! rewritten and a warning says the items could not be checked.
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

use super::section::{ArraySection, Subscript};
use crate::offload_parallel_for::directive::{self, split_top, Pragma};
use crate::openacc::cast::{self, Ast, TypeClass};

/// One `declare mapper`: its identifier (None: the type's default mapper) and type as written.
#[derive(Clone, Debug, PartialEq, Eq)]
struct MapperDecl {
    id: Option<String>,
    ty: String,
}

/// The mappers the pragmas declare.
fn mapper_decls(pragmas: &[Pragma]) -> Vec<MapperDecl> {
    pragmas
        .iter()
        .filter(|p| p.words == ["declare", "mapper"])
        .filter_map(|p| {
            // The directive's argument is the first "clause": `(id: type var)` or `(type var)`.
            let arg = p.clauses.first()?.args.as_deref()?;
            let (id, decl) = match split_top(arg, ':').as_slice() {
                [id, decl] if !decl.trim_start().starts_with(':') => {
                    (Some(id.trim().to_string()), decl.trim())
                }
                _ => (None, arg.trim()),
            };
            // `struct S s` / `vec v`: the type is everything before the variable's name.
            let decl = decl.trim_end();
            let name_start = decl
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |i| i + 1);
            let ty = decl[..name_start].trim().to_string();
            let id = id.filter(|i| i != "default");
            (!ty.is_empty()).then_some(MapperDecl { id, ty })
        })
        .collect()
}

/// Which clause a list item is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ItemClause {
    /// `map(…)` of a `target` construct (`target`, `target data`, `enter/exit data`, combined).
    Map,
    /// `to(…)` / `from(…)` of `target update`.
    Motion,
}

/// One list item of a map or motion clause, with its place in the text.
#[derive(Clone, Debug)]
struct Item {
    pragma: usize,
    clause: ItemClause,
    /// Offset of the item's first character (after blanks), and its end, in the whole text.
    start: usize,
    end: usize,
    text: String,
    /// The clause has a `mapper(…)` modifier.
    named_mapper: bool,
}

/// The list items of the map clauses of `target` constructs and the motion clauses of `target
/// update` in pragma `p` (line `line`, at `p.start` in the text).
fn items_of(pi: usize, p: &Pragma, line: &str) -> Vec<Item> {
    if p.words.first().map(String::as_str) != Some("target") {
        return Vec::new();
    }
    let (wanted, clause): (&[&str], _) = if p.words == ["target", "update"] {
        (&["to", "from"], ItemClause::Motion)
    } else {
        (&["map"], ItemClause::Map)
    };
    let mut out = Vec::new();
    // The clauses' arguments are slices of the line, in order: each is found after the last.
    let mut cursor = p.words_rel;
    for c in &p.clauses {
        let Some(args) = c.args.as_deref() else {
            continue;
        };
        let Some(args_at) = args_offset(line, cursor, &c.name, args) else {
            break;
        };
        cursor = args_at + args.len();
        if !wanted.contains(&c.name.as_str()) {
            continue;
        }
        let parts = split_top(args, ':');
        let list = parts[parts.len() - 1];
        let mods = &args[..args.len() - list.len()];
        let named_mapper = split_top(mods, ',')
            .iter()
            .any(|m| m.trim_start().starts_with("mapper"));
        let mut at = args_at + (args.len() - list.len());
        for piece in split_top(list, ',') {
            let lead = piece.len() - piece.trim_start().len();
            let t = piece.trim();
            if !t.is_empty() {
                out.push(Item {
                    pragma: pi,
                    clause,
                    start: p.start + at + lead,
                    end: p.start + at + lead + t.len(),
                    text: t.to_string(),
                    named_mapper,
                });
            }
            at += piece.len() + 1;
        }
    }
    out
}

/// The offset in `line` of clause `name`'s arguments `args`, the first `name (args` at or after
/// `from`.
fn args_offset(line: &str, from: usize, name: &str, args: &str) -> Option<usize> {
    let mut at = from;
    while let Some(i) = line.get(at..)?.find(name) {
        let after = at + i + name.len();
        let rest = &line[after..];
        let open = after + (rest.len() - rest.trim_start().len());
        if line[open..].starts_with('(') && line[open + 1..].starts_with(args) {
            return Some(open + 1);
        }
        at = after;
    }
    None
}

/// The item as its base (`g`, `s.grid`, `p->in.grid`: a variable and a member path) and its
/// trailing subscripts (None: a call, a cast, a subscript inside the base…).
fn base_and_subscripts(item: &str) -> Option<(Base, Vec<Subscript>)> {
    let (base, subs) = match ArraySection::parse(item).ok()? {
        Some(s) => (s.base, s.subscripts),
        None if !item.contains('[') => (item.trim().to_string(), Vec::new()),
        None => return None,
    };
    Base::parse(&base).map(|b| (b, subs))
}

/// The base of an item: its text, the variable, and the member path (`in.grid`; empty for the
/// variable itself).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Base {
    text: String,
    var: String,
    members: String,
}

impl Base {
    fn parse(text: &str) -> Option<Base> {
        let is_ident = |s: &str| {
            !s.is_empty()
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !s.starts_with(|c: char| c.is_ascii_digit())
        };
        let flat = text.replace("->", ".");
        let mut parts = flat.split('.').map(str::trim);
        let var = parts.next()?;
        let members: Vec<&str> = parts.collect();
        if !is_ident(var) || !members.iter().all(|m| is_ident(m)) {
            return None;
        }
        Some(Base {
            text: text.trim().to_string(),
            var: var.to_string(),
            members: members.join("."),
        })
    }

    /// A name for a pointer to the first struct, in the error's advice (`grid_p`).
    fn pointer_name(&self) -> String {
        let last = self.members.rsplit('.').next().filter(|m| !m.is_empty());
        format!("{}_p", last.unwrap_or(&self.var))
    }
}

/// What to do with one item.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    /// Clang maps it through the mapper as written.
    Keep,
    /// Write it this way instead (the same bytes).
    Rewrite(String),
    /// No spelling clang maps right: what the item is, for the error (None: a
    /// `dims`-dimensional array), and a spelling to offer before the pointer one.
    Refuse {
        what: Option<&'static str>,
        offer: Option<String>,
    },
}

/// The dimensions of an object of these `levels` before its element (`[Array, Array, Record]`:
/// 2; a pointer counts only in first place), and whether the element is a struct or union.
fn dimensions(levels: &[TypeClass]) -> Option<usize> {
    let rec = levels.iter().position(|l| *l == TypeClass::Record)?;
    let dims = &levels[..rec];
    let ok = dims.iter().enumerate().all(|(k, l)| match l {
        TypeClass::Array { .. } | TypeClass::IncompleteArray => true,
        TypeClass::Pointer { .. } => k == 0,
        _ => false,
    });
    ok.then_some(rec)
}

/// Whether `sub` covers the whole of a dimension of `len` elements.
fn covers(sub: &Subscript, len: Option<u64>) -> bool {
    match sub {
        Subscript::Section {
            lower,
            length,
            stride,
        } => {
            let lower_zero = lower.as_deref().is_none_or(|l| l.trim() == "0");
            let unit = stride.as_deref().is_none_or(|s| s.trim() == "1");
            let whole = match length.as_deref() {
                None => true,
                Some(n) => {
                    let n = n.trim().trim_end_matches(['u', 'U', 'l', 'L']);
                    len.is_some_and(|len| n.parse::<u64>().ok() == Some(len))
                }
            };
            lower_zero && unit && whole
        }
        Subscript::Index(_) => false,
    }
}

/// `sizeof((base)[0]…[0]) / sizeof((base)[0]…[0][0])`: the extent of dimension `k`.
fn extent(base: &str, k: usize) -> String {
    let z = |n: usize| format!("({base}){}", "[0]".repeat(n));
    if k == 0 {
        format!("sizeof({base})/sizeof({})", z(1))
    } else {
        format!("sizeof({})/sizeof({})", z(k), z(k + 1))
    }
}

/// The verdict for an item over `dims` dimensions (`levels`) of a mapped struct.
fn verdict(
    item: &Item,
    base: &str,
    subs: &[Subscript],
    levels: &[TypeClass],
    dims: usize,
) -> Verdict {
    let first_is_pointer = matches!(levels.first(), Some(TypeClass::Pointer { .. }));
    if subs.iter().all(|s| !s.is_section()) && !subs.is_empty() {
        return Verdict::Keep;
    }
    if subs.is_empty() && first_is_pointer {
        // The pointer itself.
        return Verdict::Keep;
    }
    let len = |k: usize| match levels.get(k) {
        Some(TypeClass::Array { len }) => *len,
        _ => None,
    };
    match item.clause {
        ItemClause::Motion => {
            // Rows of a 2-D array (one section) clang updates through the mapper; sections of
            // several subscripts strided_update moves element by element through it. Anything
            // else gets a full section for each dimension it leaves out.
            if (dims == 2 && subs.len() == 1) || subs.len() >= dims {
                Verdict::Keep
            } else {
                let full: String = (subs.len()..dims)
                    .map(|k| format!("[0:{}]", extent(base, k)))
                    .collect();
                let written: String = subs.iter().map(Subscript::render).collect();
                Verdict::Rewrite(format!("{base}{written}{full}"))
            }
        }
        ItemClause::Map => {
            let indices_then_one =
                subs.len() == dims && subs[..dims - 1].iter().all(|s| !s.is_section());
            if indices_then_one {
                // One row (or part of one) named by indices: measured right for 2-D.
                return Verdict::Keep;
            }
            if dims == 2 {
                match subs {
                    [] => Verdict::Rewrite(format!("{base}[0:{}]", extent(base, 0))),
                    [Subscript::Section { .. }] => Verdict::Keep,
                    [first @ Subscript::Section { .. }, last] if covers(last, len(1)) => {
                        Verdict::Rewrite(format!("{base}{}", first.render()))
                    }
                    _ => Verdict::Refuse {
                        what: Some("rows with only part of each row"),
                        offer: Some(format!("map whole rows with one section ('{base}[lo:n]')")),
                    },
                }
            } else {
                Verdict::Refuse {
                    what: None,
                    offer: None,
                }
            }
        }
    }
}

/// The result of this check on a translation unit.
pub struct Checked {
    /// The text with the items rewritten (None: unchanged).
    pub text: Option<String>,
    pub warnings: Vec<String>,
}

/// Rewrites or refuses the items clang 19 would map without their mapper (module doc).
pub fn check(
    text: &str,
    pragmas: &[Pragma],
    loc_of: &dyn Fn(&Pragma, usize) -> SourceLoc,
) -> Result<Checked, Vec<Diagnostic>> {
    let unchanged = Checked {
        text: None,
        warnings: Vec::new(),
    };
    let mappers = mapper_decls(pragmas);
    if mappers.is_empty() {
        return Ok(unchanged);
    }
    let items: Vec<(Item, Base, Vec<Subscript>)> = pragmas
        .iter()
        .enumerate()
        .flat_map(|(i, p)| items_of(i, p, &text[p.start..p.end]))
        .filter_map(|it| {
            let (base, subs) = base_and_subscripts(&it.text)?;
            Some((it, base, subs))
        })
        .collect();
    if items.is_empty() {
        return Ok(unchanged);
    }
    // libclang's tree of the text, with one pointer declared per mapper type after it.
    let mut blank = directive::blank_for_libclang(text, pragmas);
    for (k, m) in mappers.iter().enumerate() {
        blank.push_str(&format!("\n;extern {} *__ptxcc_mapper_type_{k};", m.ty));
    }
    let at: Vec<usize> = items
        .iter()
        .map(|(it, _, _)| pragmas[it.pragma].end)
        .collect();
    let ast = match cast::parse(&blank, &at) {
        Ok(ast) => ast,
        Err(why) => {
            let p = &pragmas[items[0].0.pragma];
            return Ok(Checked {
                text: None,
                warnings: vec![format!(
                    "{}: warning: ptxcc could not check the map items of this translation unit \
                     against its mappers (clang 19 maps a multi-dimensional array of structs \
                     without their mapper in most spellings): {why}",
                    loc_of(p, p.words_rel)
                )],
            });
        }
    };
    let mapper_types: Vec<(Option<&str>, &str)> = mappers
        .iter()
        .enumerate()
        .filter_map(|(k, m)| {
            let name = format!("__ptxcc_mapper_type_{k}");
            let d = ast.decls.iter().find(|d| d.name == name)?;
            Some((m.id.as_deref(), d.elem_type.as_str()))
        })
        .collect();
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut errors = Vec::new();
    for (it, base, subs) in &items {
        let p = &pragmas[it.pragma];
        let Some(d) = resolve(&ast, &base.var, p.start) else {
            continue;
        };
        let d = ast.decl(d);
        let (levels, elem_type) = if base.members.is_empty() {
            (&d.levels, &d.elem_type)
        } else {
            match d.fields.iter().find(|f| f.path == base.members) {
                Some(f) => (&f.levels, &f.elem_type),
                None => continue,
            }
        };
        let Some(dims) = dimensions(levels) else {
            continue;
        };
        if dims < 2 {
            continue;
        }
        let mapped = it.named_mapper
            || mapper_types
                .iter()
                .any(|(id, ty)| id.is_none() && ty == elem_type);
        if !mapped {
            continue;
        }
        let base_text = base.text.as_str();
        match verdict(it, base_text, subs, levels, dims) {
            Verdict::Keep => {}
            Verdict::Rewrite(new) => edits.push((it.start, it.end, new)),
            Verdict::Refuse { what, offer } => {
                let elems: Option<u64> = levels[..dims]
                    .iter()
                    .map(|l| match l {
                        TypeClass::Array { len } => *len,
                        _ => None,
                    })
                    .product();
                let zeros = "[0]".repeat(dims);
                let count = elems.map_or("N".to_string(), |n| n.to_string());
                let detail = what.map_or(format!("a {dims}-dimensional array"), str::to_string);
                let or = offer.map_or(String::new(), |o| format!("{o}, or "));
                let ptr = base.pointer_name();
                errors.push(Diagnostic {
                    loc: Some(loc_of(p, it.start - p.start)),
                    message: format!(
                        "clang 19 does not apply the mapper of '{elem_type}' reliably to the \
                         structs of '{}' ({detail}): their pointer members would reach the \
                         device unattached; {or}map them through a pointer to the first one: \
                         '{elem_type} *{ptr} = &{base_text}{zeros};' before the construct, then \
                         '{ptr}[0:{count}]' (the construct still finds '{base_text}' present)",
                        it.text,
                    ),
                });
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if edits.is_empty() {
        return Ok(unchanged);
    }
    edits.sort_by_key(|e| e.0);
    let out = super::apply_edits(text, edits);
    Ok(Checked {
        text: Some(out),
        warnings: Vec::new(),
    })
}

/// The variable `name` names at offset `at`: the nearest declaration before it (a parameter
/// or a variable of the enclosing function, else a file-scope one).
fn resolve(ast: &Ast, name: &str, at: usize) -> Option<usize> {
    ast.nearest_declaration(name, at, |d| {
        d.is_global || d.end == usize::MAX || enclosing(ast, d.start, at)
    })
}

/// Whether the declaration starting at `decl_start` is in a function whose body holds `at`.
fn enclosing(ast: &Ast, decl_start: usize, at: usize) -> bool {
    ast.top
        .iter()
        .any(|t| t.is_function && t.start <= decl_start && at < t.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pragma(line: &str) -> Pragma {
        Pragma::for_test(line)
    }

    #[test]
    fn mapper_declarations() {
        let ps = [
            pragma("#pragma omp declare mapper(vec v) map(v, v.x[0:v.n])"),
            pragma("#pragma omp declare mapper(halo : struct cell c) map(c)"),
            pragma("#pragma omp declare mapper(default: vec2 w) map(w)"),
        ];
        assert_eq!(
            mapper_decls(&ps),
            vec![
                MapperDecl {
                    id: None,
                    ty: "vec".into()
                },
                MapperDecl {
                    id: Some("halo".into()),
                    ty: "struct cell".into()
                },
                MapperDecl {
                    id: None,
                    ty: "vec2".into()
                },
            ]
        );
    }

    #[test]
    fn items_with_offsets() {
        let line = "#pragma omp target map(always, tofrom: a, b[0:3][0:2]) map(mapper(m), to: c)";
        let p = pragma(line);
        let items = items_of(0, &p, line);
        let texts: Vec<&str> = items.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(texts, ["a", "b[0:3][0:2]", "c"]);
        for i in &items {
            assert_eq!(&line[i.start..i.end], i.text);
        }
        assert!(!items[0].named_mapper && items[2].named_mapper);
        let line = "#pragma omp target update from(a) to(present: b[1:2]) if(x)";
        let items = items_of(0, &pragma(line), line);
        let texts: Vec<&str> = items.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(texts, ["a", "b[1:2]"]);
        assert!(items.iter().all(|i| i.clause == ItemClause::Motion));
        // Not a target construct.
        let line = "#pragma omp parallel for map(a)";
        assert!(items_of(0, &pragma(line), line).is_empty());
    }

    fn arr(len: u64) -> TypeClass {
        TypeClass::Array { len: Some(len) }
    }

    fn v(item: &str, clause: ItemClause, levels: &[TypeClass]) -> Verdict {
        // Indices only: not an array section, never looked at.
        let Some((base, subs)) = base_and_subscripts(item) else {
            return Verdict::Keep;
        };
        let it = Item {
            pragma: 0,
            clause,
            start: 0,
            end: item.len(),
            text: item.into(),
            named_mapper: false,
        };
        verdict(&it, &base.text, &subs, levels, dimensions(levels).unwrap())
    }

    #[test]
    fn verdicts_for_two_dimensions() {
        let l = [arr(3), arr(2), TypeClass::Record];
        let m = ItemClause::Map;
        assert_eq!(
            v("a", m, &l),
            Verdict::Rewrite("a[0:sizeof(a)/sizeof((a)[0])]".into())
        );
        assert_eq!(v("a[0:3]", m, &l), Verdict::Keep);
        assert_eq!(v("a[1][1]", m, &l), Verdict::Keep);
        assert_eq!(v("a[1][0:2]", m, &l), Verdict::Keep);
        assert_eq!(v("a[0:3][0:2]", m, &l), Verdict::Rewrite("a[0:3]".into()));
        assert_eq!(v("a[1:2][:]", m, &l), Verdict::Rewrite("a[1:2]".into()));
        assert_eq!(v("a[1:2][0:2u]", m, &l), Verdict::Rewrite("a[1:2]".into()));
        assert!(matches!(v("a[0:3][0:1]", m, &l), Verdict::Refuse { .. }));
        assert!(matches!(v("a[0:3][1:1]", m, &l), Verdict::Refuse { .. }));
        // A pointer to rows: the pointer itself, or rows through it.
        let p = [
            TypeClass::Pointer { restrict: false },
            arr(2),
            TypeClass::Record,
        ];
        assert_eq!(v("p", m, &p), Verdict::Keep);
        assert_eq!(v("p[0:3]", m, &p), Verdict::Keep);
        assert_eq!(v("p[0:3][0:2]", m, &p), Verdict::Rewrite("p[0:3]".into()));
        // target update: the whole array as full sections (then element by element).
        assert_eq!(
            v("a", ItemClause::Motion, &l),
            Verdict::Rewrite(
                "a[0:sizeof(a)/sizeof((a)[0])][0:sizeof((a)[0])/sizeof((a)[0][0])]".into()
            )
        );
        assert_eq!(v("a[0:3][0:2]", ItemClause::Motion, &l), Verdict::Keep);
    }

    #[test]
    fn three_dimensions_are_refused_in_map_clauses() {
        let l = [arr(2), arr(3), arr(2), TypeClass::Record];
        assert!(matches!(
            v("b", ItemClause::Map, &l),
            Verdict::Refuse { .. }
        ));
        assert!(matches!(
            v("b[0:2]", ItemClause::Map, &l),
            Verdict::Refuse { .. }
        ));
        assert!(matches!(
            v("b[0:2][0:3]", ItemClause::Map, &l),
            Verdict::Refuse { .. }
        ));
        assert_eq!(v("b[1][2][0]", ItemClause::Map, &l), Verdict::Keep);
        assert!(matches!(
            v("b", ItemClause::Motion, &l),
            Verdict::Rewrite(_)
        ));
    }

    #[test]
    fn bases() {
        let (b, subs) = base_and_subscripts("p->in.grid[0:3][:]").unwrap();
        assert_eq!((b.var.as_str(), b.members.as_str()), ("p", "in.grid"));
        assert_eq!(subs.len(), 2);
        assert_eq!(b.pointer_name(), "grid_p");
        let (b, subs) = base_and_subscripts("g").unwrap();
        assert_eq!(
            (b.var.as_str(), b.members.as_str(), subs.len()),
            ("g", "", 0)
        );
        assert_eq!(b.pointer_name(), "g_p");
        assert!(base_and_subscripts("f(x)[0:2]").is_none());
        assert!(base_and_subscripts("a[i].grid[0:2]").is_none());
        assert!(base_and_subscripts("a[1][2]").is_none());
    }

    #[test]
    fn dimensions_of_levels() {
        assert_eq!(dimensions(&[TypeClass::Record]), Some(0));
        assert_eq!(dimensions(&[arr(3), TypeClass::Record]), Some(1));
        let pp = TypeClass::Pointer { restrict: false };
        assert_eq!(dimensions(&[pp, pp, TypeClass::Record]), None);
        assert_eq!(dimensions(&[arr(3), TypeClass::Integer]), None);
    }
}

//! Sections through arrays of pointers: `copyin(a[0:n][0:m])` with `double **a` (or `double
//! *a[N]`), the "jagged" 2-D arrays of C codes. The storage is not contiguous — an array of `n`
//! row pointers and `n` separate rows — so clang's OpenMP refuses the section ("array section
//! does not specify contiguous storage"); OpenACC compilers copy both levels and point the
//! device's row pointers at the device rows.
//!
//! ptxcc spells that in OpenMP: the pointer array is mapped first (`target enter data
//! map(alloc: a[0:n])`), then every row in a loop (`map(to: a[j][0:m])`), which libomptarget's
//! pointer attachment makes the device row pointer `a[j]` point at (the pointer array being
//! present). Leaving is the reverse: the rows (`from` copies them back), then the pointer array,
//! which is never copied back (it holds device addresses). Deeper levels (`double ***`) nest the
//! loops. `update` moves the rows only.
//!
//! The lines are typed OpenMP ([`OmpDirective`]) until printed: the caller gives the map type
//! or motion and the clauses that end every line (`if`, `nowait`, `depend`) as [`OmpClause`]s.
use crate::openacc::ast::{Access, Expr, Span, Subscript, VarRef};
use crate::openacc::cast::TypeClass;

use super::omp::{MapType, Motion, OmpClause, OmpConstruct, OmpDirective, OmpMap};

/// A reference split where it goes through a stored pointer.
struct Split {
    /// The part up to the pointers, `a[0:n]`: contiguous (as far as this level goes).
    outer: VarRef,
    /// The sections of `outer`, one loop each: (position in the path, lower bound, length).
    loops: Vec<(usize, String, String)>,
}

/// The type levels of the expression a reference subscripts, and where its subscripts start
/// in its path: the variable's (`a[..][..]`, from 0), or the last member's
/// (`s->rows[..][..]`, after `->rows`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Levels {
    pub(super) classes: Vec<TypeClass>,
    pub(super) first: usize,
}

/// Splits `v` at the first subscript that follows a stored pointer with a section before it.
/// `levels` are the classes of the subscripted expression's type and of what each subscript
/// reaches.
fn split(v: &VarRef, levels: &Levels) -> Result<Option<Split>, String> {
    let (first, levels) = (levels.first, &levels.classes[..]);
    // Only subscripts after the base (a member path with a section before its last member is
    // not one array: clang judges it).
    let Some(tail) = v.path.get(first..) else {
        return Ok(None);
    };
    if tail.iter().any(|a| matches!(a, Access::Member { .. }))
        || v.path[..first]
            .iter()
            .any(|a| matches!(a, Access::Subscript(Subscript::Section { .. })))
    {
        return Ok(None);
    }
    let subscripts: Vec<&Subscript> = tail
        .iter()
        .filter_map(|a| {
            if let Access::Subscript(s) = a {
                Some(s)
            } else {
                None
            }
        })
        .collect();
    let at = (1..subscripts.len()).find(|&t| {
        matches!(levels.get(t), Some(TypeClass::Pointer { .. }))
            && subscripts[..t]
                .iter()
                .any(|s| matches!(s, Subscript::Section { .. }))
    });
    let Some(t) = at else { return Ok(None) };
    let mut loops = Vec::new();
    for (k, s) in subscripts[..t].iter().enumerate() {
        if let Subscript::Section { lower, length } = s {
            let lo = lower
                .as_ref()
                .map(|e| e.text.trim().to_string())
                .unwrap_or_else(|| "0".into());
            let len = match (length, levels.get(k)) {
                (Some(l), _) => l.text.trim().to_string(),
                (None, Some(TypeClass::Array { len: Some(n) })) => format!("{n} - ({lo})"),
                _ => {
                    return Err(format!(
                        "the section '{}' of an array of pointers needs a length at each level",
                        v.render()
                    ))
                }
            };
            loops.push((first + k, lo, len));
        }
    }
    let outer = VarRef {
        name: v.name.clone(),
        path: v.path[..first + t].to_vec(),
        span: v.span,
    };
    Ok(Some(Split { outer, loops }))
}

/// Whether `v` goes through stored pointers after a section (needs the loops of this module).
pub(super) fn is_jagged(v: &VarRef, levels: &Levels) -> bool {
    !matches!(split(v, levels), Ok(None))
}

/// The pointer array of a jagged reference (`a[0:n]` of `a[0:n][0:m]`), what a construct that
/// uses the rows needs present; `v` itself when it is not jagged.
pub(super) fn pointer_array(v: &VarRef, levels: &Levels) -> VarRef {
    match split(v, levels) {
        Ok(Some(s)) => s.outer,
        _ => v.clone(),
    }
}

/// Generates the loops of one split: the `for` lines, the closing line and the reference of one
/// row (the sections of the outer part replaced by the loop counters).
fn row_loops(v: &VarRef, s: &Split, ids: &mut usize) -> (Vec<String>, String, VarRef) {
    let mut open = Vec::new();
    let mut row = v.clone();
    for (k, lo, len) in &s.loops {
        *ids += 1;
        let j = format!("__ptxcc_j{ids}");
        open.push(format!(
            "for (long {j} = (long)({lo}); {j} < (long)({lo}) + (long)({len}); ++{j}) {{"
        ));
        row.path[*k] = Access::Subscript(Subscript::Index(Expr {
            text: j,
            span: Span::default(),
        }));
    }
    let close = "}".repeat(s.loops.len());
    (open, close, row)
}

/// `target enter data` lines mapping `v` (pointer arrays allocated, the data with `map_type`);
/// `tail` (async, if) ends every directive.
pub(super) fn enter(
    v: &VarRef,
    levels: &Levels,
    map_type: MapType,
    tail: &[OmpClause],
    ids: &mut usize,
) -> Result<Vec<String>, String> {
    let Some(s) = split(v, levels)? else {
        return Ok(vec![map_line(
            OmpConstruct::TargetEnterData,
            map_type,
            v,
            tail,
        )]);
    };
    let mut lines = vec![map_line(
        OmpConstruct::TargetEnterData,
        MapType::Alloc,
        &s.outer,
        tail,
    )];
    let (open, close, row) = row_loops(v, &s, ids);
    lines.extend(open);
    lines.extend(enter(&row, levels, map_type, tail, ids)?);
    lines.push(close);
    Ok(lines)
}

/// `target exit data` lines for `v`: the data with `map_type` (`from`, `release`, `delete`),
/// then the pointer arrays with `release` (or `delete` when `map_type` is `delete`).
pub(super) fn exit(
    v: &VarRef,
    levels: &Levels,
    map_type: MapType,
    tail: &[OmpClause],
    ids: &mut usize,
) -> Result<Vec<String>, String> {
    let Some(s) = split(v, levels)? else {
        return Ok(vec![map_line(
            OmpConstruct::TargetExitData,
            map_type,
            v,
            tail,
        )]);
    };
    let (open, close, row) = row_loops(v, &s, ids);
    let mut lines = open;
    lines.extend(exit(&row, levels, map_type, tail, ids)?);
    lines.push(close);
    let pointers = if map_type == MapType::Delete {
        MapType::Delete
    } else {
        MapType::Release
    };
    lines.push(map_line(
        OmpConstruct::TargetExitData,
        pointers,
        &s.outer,
        tail,
    ));
    Ok(lines)
}

/// `target update` lines moving the data of `v` (`motion` is `to` or `from`, with the `present`
/// modifier or not), not its pointers.
pub(super) fn update(
    v: &VarRef,
    levels: &Levels,
    motion: Motion,
    present: bool,
    tail: &[OmpClause],
    ids: &mut usize,
) -> Result<Vec<String>, String> {
    let Some(s) = split(v, levels)? else {
        let mut cl = vec![OmpClause::Motion {
            motion,
            present,
            items: vec![v.render()],
        }];
        cl.extend(tail.iter().cloned());
        return Ok(vec![
            OmpDirective::new(OmpConstruct::TargetUpdate, cl).line()
        ]);
    };
    let (open, close, row) = row_loops(v, &s, ids);
    let mut lines = open;
    lines.extend(update(&row, levels, motion, present, tail, ids)?);
    lines.push(close);
    Ok(lines)
}

/// `#pragma omp CONSTRUCT map(MAP_TYPE: v) TAIL`.
fn map_line(construct: OmpConstruct, map_type: MapType, v: &VarRef, tail: &[OmpClause]) -> String {
    let mut cl = vec![OmpClause::Map(OmpMap::new(map_type, vec![v.render()]))];
    cl.extend(tail.iter().cloned());
    OmpDirective::new(construct, cl).line()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openacc::parser::{acc_pragma_start, parse_directive};

    fn var(text: &str) -> VarRef {
        let line = format!("#pragma acc update self({text})");
        let at = acc_pragma_start(&line).expect("an acc pragma");
        let d = parse_directive(&line, at).expect("parses");
        match &d.clauses[0].kind {
            crate::openacc::ast::ClauseKind::UpdateSelf(v) => v[0].clone(),
            _ => panic!("not an update"),
        }
    }
    fn lv(classes: &[TypeClass]) -> Levels {
        Levels {
            classes: classes.to_vec(),
            first: 0,
        }
    }
    const PTR: TypeClass = TypeClass::Pointer { restrict: false };
    const PP: [TypeClass; 3] = [PTR, PTR, TypeClass::Floating];

    #[test]
    fn contiguous_sections_are_not_split() {
        let pa = [
            TypeClass::Pointer { restrict: false },
            TypeClass::Array { len: Some(8) },
            TypeClass::Floating,
        ];
        assert!(!is_jagged(&var("a[0:n][0:8]"), &lv(&pa)));
        let aa = [
            TypeClass::Array { len: Some(4) },
            TypeClass::Array { len: Some(8) },
            TypeClass::Floating,
        ];
        assert!(!is_jagged(&var("a[0:4][0:8]"), &lv(&aa)));
        // One row through the pointer: contiguous.
        assert!(!is_jagged(&var("p[3][0:m]"), &lv(&PP)));
        assert!(!is_jagged(&var("p[0:n]"), &lv(&PP)));
    }

    #[test]
    fn pointer_to_pointer_rows_loop() {
        let v = var("p[1:n][0:m]");
        assert!(is_jagged(&v, &lv(&PP)));
        assert_eq!(pointer_array(&v, &lv(&PP)).render(), "p[1:n]");
        let mut ids = 0;
        let cond = [OmpClause::If {
            target: false,
            cond: "c".into(),
        }];
        let l = enter(&v, &lv(&PP), MapType::To, &cond, &mut ids).expect("splits");
        assert_eq!(
            l,
            vec![
                "#pragma omp target enter data map(alloc: p[1:n]) if(c)",
                "for (long __ptxcc_j1 = (long)(1); __ptxcc_j1 < (long)(1) + (long)(n); ++__ptxcc_j1) {",
                "#pragma omp target enter data map(to: p[__ptxcc_j1][0:m]) if(c)",
                "}",
            ]
        );
        let l = exit(&v, &lv(&PP), MapType::From, &[], &mut ids).expect("splits");
        assert_eq!(
            l[1],
            "#pragma omp target exit data map(from: p[__ptxcc_j2][0:m])"
        );
        assert_eq!(l[3], "#pragma omp target exit data map(release: p[1:n])");
        let l = exit(&v, &lv(&PP), MapType::Delete, &[], &mut ids).expect("splits");
        assert_eq!(l[3], "#pragma omp target exit data map(delete: p[1:n])");
        let l = update(&v, &lv(&PP), Motion::From, true, &[], &mut ids).expect("splits");
        assert_eq!(l.len(), 3);
        assert_eq!(
            l[1],
            "#pragma omp target update from(present: p[__ptxcc_j4][0:m])"
        );
        let l = update(
            &v,
            &lv(&PP),
            Motion::To,
            false,
            &[OmpClause::Nowait],
            &mut ids,
        )
        .expect("splits");
        assert_eq!(
            l[1],
            "#pragma omp target update to(p[__ptxcc_j5][0:m]) nowait"
        );
    }

    #[test]
    fn array_of_pointers_takes_its_length() {
        let ap = [
            TypeClass::Array { len: Some(16) },
            TypeClass::Pointer { restrict: false },
            TypeClass::Floating,
        ];
        let mut ids = 0;
        let l = enter(&var("r[:][0:m]"), &lv(&ap), MapType::Alloc, &[], &mut ids).expect("splits");
        assert_eq!(
            l[1],
            "for (long __ptxcc_j1 = (long)(0); __ptxcc_j1 < (long)(0) + (long)(16 - (0)); ++__ptxcc_j1) {"
        );
        assert!(enter(&var("p[0:][0:m]"), &lv(&PP), MapType::To, &[], &mut ids).is_err());
    }

    #[test]
    fn member_sections_start_after_the_member() {
        // s->rows[0:n][0:m] with `double **rows`: the levels are the member's.
        let v = var("s->rows[0:n][0:m]");
        let levels = Levels {
            classes: PP.to_vec(),
            first: 1,
        };
        assert_eq!(pointer_array(&v, &levels).render(), "s->rows[0:n]");
        let mut ids = 0;
        let l = enter(&v, &levels, MapType::To, &[], &mut ids).expect("splits");
        assert_eq!(
            l[2],
            "#pragma omp target enter data map(to: s->rows[__ptxcc_j1][0:m])"
        );
        // An element before the member is fine (the parser refuses a section there).
        let w = var("s[2].rows[1:n][0:m]");
        let levels = Levels {
            classes: PP.to_vec(),
            first: 2,
        };
        assert_eq!(pointer_array(&w, &levels).render(), "s[2].rows[1:n]");
    }

    #[test]
    fn three_levels_nest() {
        let ppp = [
            TypeClass::Pointer { restrict: false },
            TypeClass::Pointer { restrict: false },
            TypeClass::Pointer { restrict: false },
            TypeClass::Floating,
        ];
        let mut ids = 0;
        let l = enter(
            &var("q[0:a][0:b][0:c]"),
            &lv(&ppp),
            MapType::To,
            &[],
            &mut ids,
        )
        .expect("splits");
        assert_eq!(l[0], "#pragma omp target enter data map(alloc: q[0:a])");
        assert_eq!(
            l[2],
            "#pragma omp target enter data map(alloc: q[__ptxcc_j1][0:b])"
        );
        assert_eq!(
            l[4],
            "#pragma omp target enter data map(to: q[__ptxcc_j1][__ptxcc_j2][0:c])"
        );
    }
}

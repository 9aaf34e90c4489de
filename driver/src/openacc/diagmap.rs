//! Where clang's diagnostics on the translated text are in the user's source.
//!
//! The translation keeps the user's line numbers (line markers), but a column on a line the
//! front end wrote (the OpenMP a pragma became, the statements it added) is a column of that
//! text. [`DiagMap`] records which output lines the translation generated, from which pragmas,
//! and maps a column on them back: the token clang points at is found in an occurrence of a
//! piece of the pragma that the translation copied (a variable reference of a clause, an
//! expression), and that piece's token is located in the user's file. When no piece claims
//! the token unambiguously (clang points at text the translation made up, or the same piece
//! occurs twice), the diagnostic points at the pragma itself; without the user's file, at its
//! line with no column. It never guesses a column.
use std::collections::HashMap;

use super::ast::{
    Access, Directive, DirectiveArg, Expr, GangStatic, Subscript, TileSize, VarRef, WaitArgs,
};
use super::ast::{ClauseKind, Span};
use super::parser::tokenize;
use super::srcmap::{align_pragma, parse_line_marker, read_lines, SourceMap};
use crate::diag_relay::{Located, Locator};

/// A pragma the translation generated text from.
#[derive(Clone, Debug, Default)]
pub struct PragmaSrc {
    /// The pragma as parsed (macros inside it expanded).
    pub text: String,
    /// The preprocessed line it is on, as clang -E wrote it.
    pub line: String,
    /// The user's file and line of that line.
    pub file: String,
    pub line_no: u32,
    /// The pieces of `text` the translation copies: variable references and expressions.
    pub pieces: Vec<Span>,
}

/// An output line with text the translation generated.
#[derive(Clone, Debug, Default)]
struct GenLine {
    text: String,
    /// Byte ranges of the line that are generated (the rest is the user's own text).
    ranges: Vec<(usize, usize)>,
    /// The pragmas it was generated from; the first is the one it stands for.
    origins: Vec<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct DiagMap {
    /// Generated lines by presumed (file, line), as clang names them.
    lines: HashMap<(String, u32), Vec<GenLine>>,
    /// The longest of the user's own lines (not generated) that have a presumed position of
    /// `lines`: clang's column can only be on them when it is at most one past their end.
    user_len: HashMap<(String, u32), usize>,
    pragmas: HashMap<usize, PragmaSrc>,
}

/// The pieces of a directive the translation copies into its output.
pub fn pieces(d: &Directive) -> Vec<Span> {
    let mut out = Vec::new();
    let expr = |e: &Expr, out: &mut Vec<Span>| out.push(e.span);
    let var = |v: &VarRef, out: &mut Vec<Span>| {
        out.push(v.span);
        for a in &v.path {
            match a {
                Access::Subscript(Subscript::Index(e)) => out.push(e.span),
                Access::Subscript(Subscript::Section { lower, length }) => {
                    out.extend(lower.iter().chain(length.iter()).map(|e| e.span))
                }
                Access::Member { .. } => {}
            }
        }
    };
    let wait = |w: &WaitArgs, out: &mut Vec<Span>| {
        out.extend(w.devnum.iter().chain(w.queues.iter()).map(|e| e.span));
    };
    for c in &d.clauses {
        match &c.kind {
            ClauseKind::Data { vars, .. }
            | ClauseKind::Private(vars)
            | ClauseKind::FirstPrivate(vars)
            | ClauseKind::Reduction { vars, .. }
            | ClauseKind::UseDevice(vars)
            | ClauseKind::UpdateSelf(vars)
            | ClauseKind::UpdateDevice(vars) => vars.iter().for_each(|v| var(v, &mut out)),
            ClauseKind::Gang(g) => {
                g.num
                    .iter()
                    .chain(g.dim.iter())
                    .for_each(|e| expr(e, &mut out));
                if let Some(GangStatic::Size(e)) = &g.static_ {
                    expr(e, &mut out);
                }
            }
            ClauseKind::Worker(Some(e))
            | ClauseKind::Vector(Some(e))
            | ClauseKind::SelfCond(Some(e)) => expr(e, &mut out),
            ClauseKind::Async(Some(e)) => expr(e, &mut out),
            ClauseKind::Tile(sizes) => sizes.iter().for_each(|s| {
                if let TileSize::Size(e) = s {
                    expr(e, &mut out)
                }
            }),
            ClauseKind::NumGangs(v) => v.iter().for_each(|e| expr(e, &mut out)),
            ClauseKind::NumWorkers(e)
            | ClauseKind::VectorLength(e)
            | ClauseKind::If(e)
            | ClauseKind::DeviceNum(e)
            | ClauseKind::DefaultAsync(e) => expr(e, &mut out),
            ClauseKind::Wait(Some(w)) => wait(w, &mut out),
            _ => {}
        }
    }
    match &d.arg {
        DirectiveArg::Wait(Some(w)) => wait(w, &mut out),
        DirectiveArg::Cache { vars, .. } => vars.iter().for_each(|v| var(v, &mut out)),
        _ => {}
    }
    out.retain(|s| s.end > s.start);
    out
}

/// The tokens of `text` as (text, start); none when it does not tokenize.
fn toks(text: &str) -> Vec<(String, usize)> {
    tokenize(text, 0)
        .map(|v| v.into_iter().map(|t| (t.text, t.start)).collect())
        .unwrap_or_default()
}

/// Text without its blanks, to compare a line with clang's quote of it (tabs expanded).
fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

impl DiagMap {
    /// `out` is the translated text, `regions` the byte ranges of it that the translation
    /// generated with the pragmas each came from, `pragmas` those pragmas; `file` names the
    /// translation unit where the text has no line marker.
    pub fn new(
        out: &str,
        regions: &[(usize, usize, Vec<usize>)],
        pragmas: HashMap<usize, PragmaSrc>,
        file: &str,
    ) -> DiagMap {
        let sm = SourceMap::new(out, file);
        let is_marker = |li: usize| {
            let l = &sm.lines[li];
            parse_line_marker(&out[l.start..l.end]).is_some()
        };
        let mut by_line: std::collections::BTreeMap<usize, GenLine> = Default::default();
        for (s, e, origins) in regions {
            if s >= e || origins.is_empty() {
                continue;
            }
            let (first, last) = (sm.line_of(*s), sm.line_of(e.saturating_sub(1)));
            for li in first..=last {
                let l = &sm.lines[li];
                let (a, b) = ((*s).max(l.start), (*e).min(l.end));
                if a >= b || out[a..b].trim().is_empty() || is_marker(li) {
                    continue;
                }
                let g = by_line.entry(li).or_insert_with(|| GenLine {
                    text: out[l.start..l.end].to_string(),
                    ..Default::default()
                });
                g.ranges.push((a - l.start, b - l.start));
                for &o in origins {
                    if !g.origins.contains(&o) {
                        g.origins.push(o);
                    }
                }
            }
        }
        // The lines the translation generated (in part or whole): not the user's.
        let generated: std::collections::BTreeSet<usize> = by_line.keys().copied().collect();
        let mut map = DiagMap::default();
        for (li, g) in by_line {
            let o = sm.origin(li);
            map.lines.entry((o.file, o.line)).or_default().push(g);
        }
        if map.lines.is_empty() {
            return DiagMap::default();
        }
        for li in 0..sm.lines.len() {
            if is_marker(li) {
                continue;
            }
            let o = sm.origin(li);
            let key = (o.file, o.line);
            let l = &sm.lines[li];
            let text = &out[l.start..l.end];
            if map.lines.contains_key(&key) && !generated.contains(&li) {
                let len = map.user_len.entry(key).or_default();
                *len = (*len).max(text.len());
            }
        }
        map.pragmas = pragmas;
        map
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The user's location of byte `rel` of pragma `p`'s text: (line, column) in its file, when
    /// the file can be read and its pragma is the one parsed (no macro expanded in it).
    fn user_pos(
        &self,
        p: &PragmaSrc,
        rel: usize,
        lines: &Option<Vec<String>>,
    ) -> Option<(u32, u32)> {
        if p.text != p.line {
            return None;
        }
        align_pragma(&p.line, lines.as_ref()?, p.line_no, rel)
    }

    /// What pragma `origins` generated at byte `off` of `line` stands for: (pragma, byte of its
    /// text), when exactly one piece position claims the token there.
    fn piece_at(&self, line: &str, off: usize, origins: &[usize]) -> Option<(usize, usize)> {
        let out = toks(line);
        let t = out
            .iter()
            .position(|(s, start)| *start <= off && off < start + s.len())?;
        // (piece length in tokens, pragma, byte in its text) of every piece occurrence covering t.
        let mut claims: Vec<(usize, usize, usize)> = Vec::new();
        for &p in origins {
            let Some(src) = self.pragmas.get(&p) else {
                continue;
            };
            let ptoks = toks(&src.text);
            for span in &src.pieces {
                let piece: Vec<&(String, usize)> = ptoks
                    .iter()
                    .filter(|(s, start)| *start >= span.start && start + s.len() <= span.end)
                    .collect();
                let n = piece.len();
                if n == 0 || n > out.len() {
                    continue;
                }
                let lo = t.saturating_sub(n - 1);
                for at in lo..=t.min(out.len() - n) {
                    if piece.iter().zip(&out[at..at + n]).all(|(a, b)| a.0 == b.0) {
                        // The same token: clang's byte inside it is the same byte of the piece's.
                        claims.push((n, p, piece[t - at].1 + (off - out[t].1)));
                    }
                }
            }
        }
        // The longest pieces say the most about where the token came from.
        let longest = claims.iter().map(|c| c.0).max()?;
        let mut at: Vec<(usize, usize)> = claims
            .iter()
            .filter(|c| c.0 == longest)
            .map(|c| (c.1, c.2))
            .collect();
        at.sort();
        at.dedup();
        (at.len() == 1).then(|| at[0])
    }

    /// The location of pragma `p` itself.
    fn pragma_loc(&self, p: usize) -> Option<Located> {
        self.located(self.pragmas.get(&p)?, None)
    }

    /// The location for a column of generated line `g`.
    fn locate_in(&self, g: &GenLine, off: usize) -> Option<Located> {
        let &stand_for = g.origins.first()?;
        match self.piece_at(&g.text, off, &g.origins) {
            Some((q, rel)) => self.located(self.pragmas.get(&q)?, Some(rel)),
            None => self.pragma_loc(stand_for),
        }
    }

    /// Byte `pos` of `pragma`'s text in the user's file, else the pragma's `#`; its line alone
    /// when the user's file cannot be read or does not have that pragma.
    fn located(&self, pragma: &PragmaSrc, pos: Option<usize>) -> Option<Located> {
        let lines = read_lines(&pragma.file);
        // The `#` is found in the line as written, macros and all.
        let hash = pragma.line.find('#').unwrap_or(0);
        let found = pos
            .and_then(|rel| self.user_pos(pragma, rel, &lines))
            .or_else(|| align_pragma(&pragma.line, lines.as_ref()?, pragma.line_no, hash));
        Some(match found {
            Some((line, col)) => Located {
                file: pragma.file.clone(),
                line,
                col: Some(col),
                source: lines
                    .as_ref()
                    .and_then(|l| l.get(line as usize - 1))
                    .cloned(),
            },
            None => Located {
                file: pragma.file.clone(),
                line: pragma.line_no,
                col: None,
                source: None,
            },
        })
    }
}

impl Locator for DiagMap {
    fn locate(&self, file: &str, line: u32, col: u32, quoted: Option<&str>) -> Option<Located> {
        let key = (file.to_string(), line);
        let gens = self.lines.get(&key)?;
        let off = (col as usize).checked_sub(1)?;
        let candidates: Vec<&GenLine> = match quoted {
            Some(q) => {
                let q = squeeze(q);
                gens.iter().filter(|g| squeeze(&g.text) == q).collect()
            }
            // Without clang's quote, only when the column cannot be on a line of the user's
            // that has that position (then the generated lines that have it must agree, below).
            None if self.user_len.get(&key).is_none_or(|&n| off > n) => gens.iter().collect(),
            None => Vec::new(),
        };
        // Clang's column is right on the user's own text of a partly generated line.
        let covering: Vec<&GenLine> = candidates
            .into_iter()
            .filter(|g| {
                g.ranges
                    .iter()
                    .any(|&(a, b)| a <= off && (off < b || off == g.text.len()))
            })
            .collect();
        let hits: Vec<Located> = covering
            .iter()
            .filter_map(|g| self.locate_in(g, off))
            .collect();
        match hits.split_first() {
            Some((first, rest)) if rest.iter().all(|h| h == first) => Some(first.clone()),
            // Several generated lines, which say different things: when they all stand for
            // one pragma, the diagnostic is about that pragma.
            Some(_) => {
                let p = covering[0].origins.first()?;
                if covering.iter().all(|g| g.origins.first() == Some(p)) {
                    self.pragma_loc(*p)
                } else {
                    None
                }
            }
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openacc::parser::{acc_pragma_start, parse_directive};

    /// A user's file holding `src`, and the DiagMap of `out` (the translated text, presumed
    /// lines from its markers) generated from the pragma on line `pragma_line` of `src`; the
    /// generated regions are `out`'s lines that start with `#pragma omp` or `__`.
    fn setup(src: &str, pragma_line: u32, out_body: &str) -> (tempfile::TempDir, String, DiagMap) {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("u.c").to_string_lossy().into_owned();
        std::fs::write(&file, src).expect("write");
        let pre_line = src
            .lines()
            .nth(pragma_line as usize - 1)
            .expect("line")
            .trim_start()
            .to_string();
        let dir_text = pre_line.clone();
        let after = acc_pragma_start(&dir_text).expect("an OpenACC pragma");
        let d = parse_directive(&dir_text, after).expect("parses");
        let out = out_body.replace("FILE", &file);
        let mut regions = Vec::new();
        let mut pos = 0;
        for l in out.split_inclusive('\n') {
            let t = l.trim_end_matches('\n');
            if t.starts_with("#pragma omp") || t.starts_with("__") {
                regions.push((pos, pos + t.len(), vec![0]));
            }
            pos += l.len();
        }
        let p = PragmaSrc {
            text: dir_text,
            line: pre_line,
            file: file.clone(),
            line_no: pragma_line,
            pieces: pieces(&d),
        };
        let map = DiagMap::new(&out, &regions, HashMap::from([(0, p)]), &file);
        (dir, file, map)
    }

    fn col_of(hay: &str, needle: &str, nth: usize) -> u32 {
        hay.match_indices(needle).nth(nth).expect("needle").0 as u32 + 1
    }

    const SRC: &str = "void f(double *a, int n) {\n  #pragma acc parallel loop copyin(a[0:m]) copyout(a[0:m]) num_gangs(g)\n  for (int i = 0; i < n; i++) a[i] = i;\n}\n";
    const OMP: &str = "# 1 \"FILE\"\nvoid f(double *a, int n) {\n#pragma omp target teams distribute parallel for num_teams(g) map(ompx_hold, to: a[0:m]) map(ompx_hold, from: a[0:m])\n# 3 \"FILE\"\n  for (int i = 0; i < n; i++) a[i] = i;\n}\n";

    #[test]
    fn a_piece_found_once_is_located_exactly() {
        let (_d, file, map) = setup(SRC, 2, OMP);
        let omp = OMP.lines().nth(2).expect("pragma line");
        let user = SRC.lines().nth(1).expect("line");
        let got = map
            .locate(&file, 2, col_of(omp, "g)", 0), Some(omp))
            .expect("claimed");
        assert_eq!((got.line, got.col), (2, Some(col_of(user, "g)", 0))));
        assert_eq!(got.source.as_deref(), Some(user));
        // Without clang's quote too: no line of the user's has that position.
        assert_eq!(map.locate(&file, 2, col_of(omp, "g)", 0), None), Some(got));
    }

    #[test]
    fn a_piece_found_twice_is_the_pragma() {
        let (_d, file, map) = setup(SRC, 2, OMP);
        let omp = OMP.lines().nth(2).expect("pragma line");
        // `a[0:m]` is in the pragma twice: which one clang means is not known.
        let got = map
            .locate(&file, 2, col_of(omp, "m]", 1), Some(omp))
            .expect("claimed");
        assert_eq!((got.line, got.col), (2, Some(3)));
        // Text the translation made up: the pragma.
        let got = map
            .locate(&file, 2, col_of(omp, "ompx_hold", 0), Some(omp))
            .expect("claimed");
        assert_eq!(got.col, Some(3));
    }

    #[test]
    fn what_is_not_generated_is_left_alone() {
        let (_d, file, map) = setup(SRC, 2, OMP);
        let omp = OMP.lines().nth(2).expect("pragma line");
        // Another quote: not this line.
        assert_eq!(map.locate(&file, 2, 40, Some("int x;")), None);
        // A user's line.
        assert_eq!(
            map.locate(&file, 3, 30, Some(SRC.lines().nth(2).expect("line"))),
            None
        );
        // Another file.
        assert_eq!(map.locate("v.c", 2, col_of(omp, "g)", 0), Some(omp)), None);
    }

    #[test]
    fn without_the_quote_a_shared_line_is_only_claimed_past_the_users_text() {
        let src = "void f(int n) {\n  #pragma acc wait(q)\n  n++;\n}\n";
        let out = "# 1 \"FILE\"\nvoid f(int n) {\n{\n# 2 \"FILE\"\n#pragma omp taskwait depend(inout: __ptxcc_acc_queue[(unsigned)(q) % 64u])\n# 2 \"FILE\"\n__ptxrt_acc_wait_queue((int)(q));\n# 3 \"FILE\"\n  n++;\n}\n";
        let (_d, file, map) = setup(src, 2, out);
        let call = "__ptxrt_acc_wait_queue((int)(q));";
        // The `{` counts as a user's line 2 here: column 1 may be on it.
        assert_eq!(map.locate(&file, 2, 1, None), None);
        // Two generated lines have line 2: they disagree on column 30, so the pragma.
        let got = map
            .locate(&file, 2, col_of(call, "q)", 0), None)
            .expect("claimed");
        assert_eq!(got.col, Some(3));
        let got = map
            .locate(&file, 2, col_of(call, "q)", 0), Some(call))
            .expect("claimed");
        assert_eq!(
            got.col,
            Some(col_of(src.lines().nth(1).expect("line"), "q)", 0))
        );
    }

    #[test]
    fn a_file_that_cannot_be_read_gives_no_column() {
        let (dir, file, map) = setup(SRC, 2, OMP);
        drop(dir);
        let omp = OMP.lines().nth(2).expect("pragma line");
        let got = map
            .locate(&file, 2, col_of(omp, "g)", 0), Some(omp))
            .expect("claimed");
        assert_eq!((got.line, got.col, got.source), (2, None, None));
    }
}

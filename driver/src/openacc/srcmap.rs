//! Lines of the preprocessed text, the user's file:line behind each one (from the `# N "file"`
//! line markers), and object-/function-like macros kept by `-dD` so that macros used inside
//! `#pragma acc` lines can be expanded (clang -E leaves unknown pragmas unexpanded).
use std::collections::HashMap;

use ptxcc_passes::diagnostics::SourceLoc;

#[derive(Clone, Debug)]
pub struct Line {
    /// Byte offset of the first character.
    pub start: usize,
    /// Byte offset just past the last character (before the newline).
    pub end: usize,
}

/// Where the user's source says a preprocessed line came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub file: String,
    pub line: u32,
    /// Line-marker flags 3 (system header) and 4 (extern "C"), to repeat on re-synchronising markers.
    pub flags: String,
}

pub struct SourceMap {
    pub lines: Vec<Line>,
    origins: Vec<Option<Origin>>,
    default_file: String,
    file_cache: std::cell::RefCell<HashMap<String, Option<Vec<String>>>>,
}

/// Parses `# 12 "file" 1 3` or `#line 12 "file"`.
pub fn parse_line_marker(line: &str) -> Option<(u32, Option<String>, String)> {
    let t = line.trim_start().strip_prefix('#')?.trim_start();
    let t = t.strip_prefix("line").map(|r| r.trim_start()).unwrap_or(t);
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    let rest = t[digits.len()..].trim_start();
    if rest.is_empty() {
        return Some((n, None, String::new()));
    }
    let rest = rest.strip_prefix('"')?;
    let mut name = String::new();
    let mut chars = rest.char_indices();
    let mut end = None;
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, c2)) = chars.next() {
                    name.push(c2);
                }
            }
            '"' => {
                end = Some(i);
                break;
            }
            _ => name.push(c),
        }
    }
    let end = end?;
    let flags: Vec<&str> = rest[end + 1..]
        .split_whitespace()
        .filter(|f| *f == "3" || *f == "4")
        .collect();
    Some((n, Some(name), flags.join(" ")))
}

impl SourceMap {
    pub fn new(text: &str, default_file: &str) -> SourceMap {
        let mut lines = Vec::new();
        let mut start = 0;
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                lines.push(Line { start, end: i });
                start = i + 1;
            }
        }
        if start < text.len() || lines.is_empty() {
            lines.push(Line {
                start,
                end: text.len(),
            });
        }
        let mut origins = Vec::with_capacity(lines.len());
        let mut cur = Origin {
            file: default_file.to_string(),
            line: 1,
            flags: String::new(),
        };
        for l in &lines {
            let s = &text[l.start..l.end];
            if let Some((n, f, flags)) = parse_line_marker(s) {
                origins.push(None);
                if let Some(f) = f {
                    cur.file = f;
                    cur.flags = flags;
                }
                cur.line = n;
                continue;
            }
            origins.push(Some(cur.clone()));
            cur.line = cur.line.saturating_add(1);
        }
        SourceMap {
            lines,
            origins,
            default_file: default_file.to_string(),
            file_cache: Default::default(),
        }
    }

    /// Index of the line holding byte `off`.
    pub fn line_of(&self, off: usize) -> usize {
        match self.lines.binary_search_by(|l| {
            if off < l.start {
                std::cmp::Ordering::Greater
            } else if off > l.end {
                std::cmp::Ordering::Less
            } else {
                std::cmp::Ordering::Equal
            }
        }) {
            Ok(i) => i,
            Err(i) => i.min(self.lines.len().saturating_sub(1)),
        }
    }

    pub fn origin(&self, line_idx: usize) -> Origin {
        match self.origins.get(line_idx).cloned().flatten() {
            Some(o) => o,
            None => {
                // A marker line itself: the line after it.
                let next = self.origins.iter().skip(line_idx).flatten().next().cloned();
                next.unwrap_or(Origin {
                    file: self.default_file.clone(),
                    line: 1,
                    flags: String::new(),
                })
            }
        }
    }

    /// The user's location of byte `off` (column counted in the preprocessed line).
    pub fn loc(&self, off: usize) -> SourceLoc {
        let li = self.line_of(off);
        let o = self.origin(li);
        let col = off.saturating_sub(self.lines.get(li).map(|l| l.start).unwrap_or(0)) as u32 + 1;
        SourceLoc {
            file: o.file,
            line: o.line,
            col,
        }
    }

    /// A line marker that makes the next line count as `origin`'s line.
    pub fn marker(o: &Origin) -> String {
        let mut s = format!("# {} \"{}\"", o.line, escape_file(&o.file));
        if !o.flags.is_empty() {
            s.push(' ');
            s.push_str(&o.flags);
        }
        s
    }

    /// The location of byte `rel` of the pragma on preprocessed line `line_idx`, with the column
    /// mapped back to the user's file when it can be read and its pragma matches token by token
    /// (clang -E re-spells pragma lines: indentation is lost, continuation lines are joined);
    /// else the preprocessed line's column.
    pub fn pragma_loc(&self, text: &str, line_idx: usize, rel: usize) -> SourceLoc {
        let Some(l) = self.lines.get(line_idx) else {
            return SourceLoc {
                file: self.default_file.clone(),
                line: 1,
                col: 1,
            };
        };
        let o = self.origin(line_idx);
        let pre = &text[l.start..l.end];
        let mapped = self
            .read_file(&o.file)
            .and_then(|lines| align_pragma(pre, &lines, o.line, rel));
        match mapped {
            Some((line, col)) => SourceLoc {
                file: o.file,
                line,
                col,
            },
            None => SourceLoc {
                file: o.file,
                line: o.line,
                col: rel as u32 + 1,
            },
        }
    }

    fn read_file(&self, f: &str) -> Option<Vec<String>> {
        let mut cache = self.file_cache.borrow_mut();
        cache
            .entry(f.to_string())
            .or_insert_with(|| read_lines(f))
            .clone()
    }
}

/// The lines of the user's file `f`, if it can be read.
pub fn read_lines(f: &str) -> Option<Vec<String>> {
    let bytes = std::fs::read(f).ok()?;
    let s = String::from_utf8_lossy(&bytes).into_owned();
    Some(s.lines().map(|l| l.to_string()).collect())
}

/// Where byte `rel` of `pre`, a pragma line as clang -E wrote it, is in the user's file
/// (`orig_lines`), whose pragma starts on line `line` (1-based): (line, column), aligning the
/// non-blank characters of both (the logical line: physical lines joined at backslash-newlines).
/// None when the texts differ up to there (a pragma from _Pragma("...") or a macro).
pub fn align_pragma(pre: &str, orig_lines: &[String], line: u32, rel: usize) -> Option<(u32, u32)> {
    let idx = line as usize;
    if idx == 0 || idx > orig_lines.len() {
        return None;
    }
    // The logical line, with each char's (line, col).
    let mut chars: Vec<(char, u32, u32)> = Vec::new();
    let mut li = idx - 1;
    while let Some(s) = orig_lines.get(li) {
        let (body, cont) = match s.trim_end().strip_suffix('\\') {
            Some(b) => (b, true),
            None => (s.as_str(), false),
        };
        for (ci, ch) in body.chars().enumerate() {
            chars.push((ch, li as u32 + 1, ci as u32 + 1));
        }
        chars.push((' ', li as u32 + 1, body.chars().count() as u32 + 1));
        if !cont {
            break;
        }
        li += 1;
    }
    // Align the non-blank characters of both lines.
    let pre_nb: Vec<(usize, char)> = pre
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .collect();
    let orig_nb: Vec<&(char, u32, u32)> = chars
        .iter()
        .filter(|(c, _, _)| !c.is_whitespace())
        .collect();
    let target = pre_nb.iter().position(|(i, _)| *i >= rel)?;
    if orig_nb.len() < pre_nb.len() {
        return None;
    }
    for k in 0..=target {
        if pre_nb[k].1 != orig_nb[k].0 {
            return None;
        }
    }
    let (_, line, col) = *orig_nb[target];
    Some((line, col))
}

fn escape_file(f: &str) -> String {
    f.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One macro kept by `-dD`.
#[derive(Clone, Debug)]
pub struct Macro {
    pub params: Option<Vec<String>>,
    pub variadic: bool,
    pub body: String,
}

/// Parses `#define NAME body` / `#define NAME(a, b) body`; `#undef NAME` returns body None.
pub fn parse_define(line: &str) -> Option<(String, Option<Macro>)> {
    let t = line.trim_start().strip_prefix('#')?.trim_start();
    if let Some(r) = t.strip_prefix("undef") {
        let name: String = r
            .trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        return if name.is_empty() {
            None
        } else {
            Some((name, None))
        };
    }
    let r = t.strip_prefix("define")?;
    if !r.starts_with([' ', '\t']) {
        return None;
    }
    let r = r.trim_start();
    let name: String = r
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        return None;
    }
    let rest = &r[name.len()..];
    if let Some(p) = rest.strip_prefix('(') {
        let close = p.find(')')?;
        let mut params = Vec::new();
        let mut variadic = false;
        for a in p[..close].split(',') {
            let a = a.trim();
            if a.is_empty() {
                continue;
            }
            if a == "..." {
                variadic = true;
                params.push("__VA_ARGS__".into());
            } else if let Some(n) = a.strip_suffix("...") {
                variadic = true;
                params.push(n.trim().to_string());
            } else {
                params.push(a.to_string());
            }
        }
        Some((
            name,
            Some(Macro {
                params: Some(params),
                variadic,
                body: p[close + 1..].trim().to_string(),
            }),
        ))
    } else {
        Some((
            name,
            Some(Macro {
                params: None,
                variadic: false,
                body: rest.trim().to_string(),
            }),
        ))
    }
}

/// Expands the macros of `table` in `text` (pragma text: no directives inside), with the
/// usual rule that a macro is not expanded again inside its own expansion. Bounded work.
pub fn expand_macros(text: &str, table: &HashMap<String, Macro>) -> String {
    let mut budget = 20_000usize;
    expand(text, table, &mut Vec::new(), &mut budget)
}

fn ident_at(b: &[u8], i: usize) -> usize {
    let mut j = i;
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
        j += 1;
    }
    j
}

fn expand(
    text: &str,
    table: &HashMap<String, Macro>,
    active: &mut Vec<String>,
    budget: &mut usize,
) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            let s = i;
            i += 1;
            while i < b.len() && b[i] != c {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(b.len());
            out.push_str(&text[s..i]);
            continue;
        }
        if c.is_ascii_digit() {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_') {
                i += 1;
            }
            out.push_str(&text[s..i]);
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let e = ident_at(b, i);
            let name = &text[i..e];
            if *budget > 0 && !active.iter().any(|a| a == name) {
                if let Some(m) = table.get(name) {
                    *budget -= 1;
                    match &m.params {
                        None => {
                            active.push(name.to_string());
                            let x = expand(&m.body, table, active, budget);
                            active.pop();
                            out.push_str(&x);
                            i = e;
                            continue;
                        }
                        Some(params) => {
                            // Needs '(' next.
                            let mut j = e;
                            while j < b.len() && b[j].is_ascii_whitespace() {
                                j += 1;
                            }
                            if j < b.len() && b[j] == b'(' {
                                if let Some((args, after)) = split_args(text, j) {
                                    let body = substitute(m, params, &args, table, active, budget);
                                    active.push(name.to_string());
                                    let x = expand(&body, table, active, budget);
                                    active.pop();
                                    out.push_str(&x);
                                    i = after;
                                    continue;
                                }
                            }
                        }
                    }
                }
            }
            out.push_str(name);
            i = e;
            continue;
        }
        let ch_len = text[i..]
            .chars()
            .next()
            .map(|ch| ch.len_utf8())
            .unwrap_or(1);
        out.push_str(&text[i..i + ch_len]);
        i += ch_len;
    }
    out
}

/// Arguments of a macro call whose '(' is at `open`; returns them and the offset after ')'.
fn split_args(text: &str, open: usize) -> Option<(Vec<String>, usize)> {
    let b = text.as_bytes();
    let mut depth = 0i32;
    let mut args = Vec::new();
    let mut cur_start = open + 1;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    args.push(text[cur_start..i].trim().to_string());
                    return Some((args, i + 1));
                }
            }
            b',' if depth == 1 => {
                args.push(text[cur_start..i].trim().to_string());
                cur_start = i + 1;
            }
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn substitute(
    m: &Macro,
    params: &[String],
    args: &[String],
    table: &HashMap<String, Macro>,
    active: &mut Vec<String>,
    budget: &mut usize,
) -> String {
    let body = m.body.as_bytes();
    let arg_of = |name: &str| -> Option<String> {
        let k = params.iter().position(|p| p == name)?;
        if m.variadic && k == params.len() - 1 {
            return Some(args.get(k..).map(|a| a.join(", ")).unwrap_or_default());
        }
        Some(args.get(k).cloned().unwrap_or_default())
    };
    let mut out = String::new();
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c == b'#' && body.get(i + 1) == Some(&b'#') {
            // Token pasting: drop the operator and the spaces around it.
            while out.ends_with(' ') {
                out.pop();
            }
            i += 2;
            while i < body.len() && body[i] == b' ' {
                i += 1;
            }
            if i < body.len() && (body[i].is_ascii_alphabetic() || body[i] == b'_') {
                let e = ident_at(body, i);
                let n = &m.body[i..e];
                out.push_str(&arg_of(n).unwrap_or_else(|| n.to_string()));
                i = e;
            }
            continue;
        }
        if c == b'#' {
            let mut j = i + 1;
            while j < body.len() && body[j] == b' ' {
                j += 1;
            }
            let e = ident_at(body, j);
            if e > j {
                if let Some(a) = arg_of(&m.body[j..e]) {
                    out.push('"');
                    out.push_str(&a.replace('\\', "\\\\").replace('"', "\\\""));
                    out.push('"');
                    i = e;
                    continue;
                }
            }
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let e = ident_at(body, i);
            let n = &m.body[i..e];
            let next_is_paste = m.body[e..].trim_start().starts_with("##");
            match arg_of(n) {
                Some(a) if next_is_paste => out.push_str(&a),
                Some(a) => out.push_str(&expand(&a, table, active, budget)),
                None => out.push_str(n),
            }
            i = e;
            continue;
        }
        let ch_len = m.body[i..]
            .chars()
            .next()
            .map(|ch| ch.len_utf8())
            .unwrap_or(1);
        out.push_str(&m.body[i..i + ch_len]);
        i += ch_len;
    }
    out
}

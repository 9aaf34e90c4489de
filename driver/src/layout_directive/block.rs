//! The structured block after a `trans` pragma in the preprocessed text: where it ends, and
//! whether control could leave it without passing its end (`return`, `goto`, or a
//! `break`/`continue` of a loop outside it), which would skip the conversion back.

/// Skips whitespace, comments and whole lines starting with `#` (line markers, the pragmas
/// that belong to the statement). Returns the offset of the next code character.
pub(crate) fn skip_trivia(t: &[u8], mut i: usize) -> usize {
    loop {
        while i < t.len() && t[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= t.len() {
            return i;
        }
        if t[i] == b'#' && at_line_start(t, i) {
            // A directive line, with backslash continuations.
            while i < t.len() && t[i] != b'\n' {
                if t[i] == b'\\' && t.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                i += 1;
            }
            continue;
        }
        if t[i] == b'/' && t.get(i + 1) == Some(&b'/') {
            while i < t.len() && t[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if t[i] == b'/' && t.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < t.len() && !(t[i] == b'*' && t[i + 1] == b'/') {
                i += 1;
            }
            i = (i + 2).min(t.len());
            continue;
        }
        return i;
    }
}

pub(crate) fn at_line_start(t: &[u8], i: usize) -> bool {
    t[..i]
        .iter()
        .rev()
        .take_while(|&&c| c != b'\n')
        .all(|c| c.is_ascii_whitespace())
}

pub(crate) fn skip_literal(t: &[u8], mut i: usize) -> usize {
    let q = t[i];
    i += 1;
    while i < t.len() && t[i] != q {
        if t[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    (i + 1).min(t.len())
}

fn ident_end(t: &[u8], mut i: usize) -> usize {
    while i < t.len() && (t[i].is_ascii_alphanumeric() || t[i] == b'_') {
        i += 1;
    }
    i
}

/// The offset just past the bracket group opening at `i` (`(`, `{` or `[`), skipping
/// literals, comments and directive lines.
fn group_end(t: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut j = i;
    while j < t.len() {
        match t[j] {
            b'"' | b'\'' => {
                j = skip_literal(t, j);
                continue;
            }
            b'#' if at_line_start(t, j) => {
                j = skip_trivia(t, j);
                continue;
            }
            b'/' if matches!(t.get(j + 1), Some(b'/') | Some(b'*')) => {
                j = skip_trivia(t, j);
                continue;
            }
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

/// The end (offset just past it) of the statement that starts at or after `i`; None when
/// there is no complete statement.
pub fn statement_end(t: &[u8], i: usize) -> Option<usize> {
    let i = skip_trivia(t, i);
    if i >= t.len() {
        return None;
    }
    if t[i] == b'{' {
        return group_end(t, i);
    }
    let e = ident_end(t, i);
    let word = std::str::from_utf8(&t[i..e]).unwrap_or("");
    match word {
        "for" | "while" | "switch" => {
            let p = skip_trivia(t, e);
            if t.get(p) != Some(&b'(') {
                return None;
            }
            statement_end(t, group_end(t, p)?)
        }
        "if" => {
            let p = skip_trivia(t, e);
            if t.get(p) != Some(&b'(') {
                return None;
            }
            let then_end = statement_end(t, group_end(t, p)?)?;
            let q = skip_trivia(t, then_end);
            if t[q..].starts_with(b"else") && ident_end(t, q) == q + 4 {
                statement_end(t, q + 4)
            } else {
                Some(then_end)
            }
        }
        "do" => {
            let body_end = statement_end(t, e)?;
            let w = skip_trivia(t, body_end);
            if !(t[w..].starts_with(b"while") && ident_end(t, w) == w + 5) {
                return None;
            }
            let p = skip_trivia(t, w + 5);
            let close = group_end(t, p)?;
            let s = skip_trivia(t, close);
            (t.get(s) == Some(&b';')).then_some(s + 1)
        }
        _ => {
            // An expression statement: up to the `;` at depth 0.
            let mut j = i;
            while j < t.len() {
                match t[j] {
                    b';' => return Some(j + 1),
                    b'(' | b'[' | b'{' => j = group_end(t, j)?,
                    b'"' | b'\'' => j = skip_literal(t, j),
                    _ => j += 1,
                }
            }
            None
        }
    }
}

/// The first jump in `t[start..end]` that would leave the block without passing its end:
/// `return`, `goto`, or `break`/`continue` outside every loop (and, for `break`, switch) of the
/// block. Returns (offset, keyword).
pub fn escaping_jump(t: &[u8], start: usize, end: usize) -> Option<(usize, &'static str)> {
    // Offsets where loop / switch bodies end, innermost last.
    let mut loops: Vec<(usize, bool)> = Vec::new(); // (end, is_switch)
    let mut i = start;
    while i < end {
        loops.retain(|&(e, _)| e > i);
        let c = t[i];
        if c == b'"' || c == b'\'' {
            i = skip_literal(t, i);
            continue;
        }
        if (c == b'#' && at_line_start(t, i))
            || (c == b'/' && matches!(t.get(i + 1), Some(b'/') | Some(b'*')))
        {
            i = skip_trivia(t, i);
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let e = ident_end(t, i);
            let prev_ok = i == 0 || !(t[i - 1].is_ascii_alphanumeric() || t[i - 1] == b'_');
            let word = std::str::from_utf8(&t[i..e]).unwrap_or("");
            if prev_ok {
                match word {
                    "return" => return Some((i, "return")),
                    "goto" => return Some((i, "goto")),
                    "for" | "while" | "switch" | "do" => {
                        if let Some(se) = statement_end(t, i) {
                            loops.push((se, word == "switch"));
                        }
                    }
                    "break" if loops.is_empty() => return Some((i, "break")),
                    "continue" if !loops.iter().any(|&(_, sw)| !sw) => {
                        return Some((i, "continue"))
                    }
                    _ => {}
                }
            }
            i = e;
            continue;
        }
        i += 1;
    }
    None
}

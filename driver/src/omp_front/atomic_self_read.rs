//! An atomic `write` or `capture` whose new value is computed from an expression that reads the
//! variable itself, in a form OpenMP does not read atomically:
//!
//! ```c
//! #pragma omp atomic capture
//! { old = max; max = max > i ? max : i; }   // not 'x = x op expr': clang's "x = expr" form
//! ```
//!
//! OpenMP's read-modify-write forms are `x = x op expr` and `x = expr op x` (op one of
//! `+ * - / & ^ | << >>`, `expr` not reading `x`), `x op= expr`, `x++` and the like; anything
//! else in `x = expr` is a write, and `expr` "must not access the storage location designated
//! by x" (OpenMP 5.2, §15.8.4). Clang 19 accepts such a statement and compiles it as written:
//!
//! ```llvm
//! %3 = load i32, ptr @max                          ; a plain load, outside the atomic
//! %4 = call i32 @llvm.smax.i32(i32 %3, i32 %i)
//! %5 = atomicrmw xchg ptr @max, i32 %4 monotonic   ; the atomic part: the exchange only
//! ```
//!
//! so two threads may read the same old value and one update is lost — on ptxsim a maximum over
//! 4096 iterations came out 1023 in one CI run (and right in 20 reruns: rare, not absent). Valid input to clang, a program error by
//! the specification, and certainly not what was meant: a warning at the atomic directive
//! saying which form is read atomically and what to write for a maximum or minimum (OpenMP
//! 5.1's `atomic compare`, or a reduction, which is what OpenACC, with no such form in C,
//! offers). OpenACC's `atomic write` and `atomic capture` (OpenACC 3.3, §2.12) reach this check
//! in their OpenMP form.
use crate::layout_directive::block;
use crate::offload_parallel_for::directive::{matching_close, split_top, Pragma};

/// The kind of atomic `p` is when it is a `write` or a `capture` without `compare`.
fn kind(p: &Pragma) -> Option<&'static str> {
    if p.words.first().map(String::as_str) != Some("atomic") {
        return None;
    }
    let all: Vec<&str> = p
        .words
        .iter()
        .map(String::as_str)
        .chain(p.clauses.iter().map(|c| c.name.as_str()))
        .collect();
    if all.contains(&"compare") {
        return None;
    }
    if all.contains(&"capture") {
        Some("capture")
    } else if all.contains(&"write") {
        Some("write")
    } else {
        None
    }
}

/// `s` without whitespace and without parentheses that enclose all of it.
fn normal(s: &str) -> String {
    let mut t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    while t.starts_with('(') && matching_close(&t, 0) == Some(t.len() - 1) {
        t = t[1..t.len() - 1].to_string();
    }
    t
}

/// Does `expr` (normalised) read `x` (normalised): `x` as a whole token sequence, not part of
/// a longer name?
fn reads(expr: &str, x: &str) -> bool {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let mut from = 0;
    while let Some(i) = expr[from..].find(x) {
        let at = from + i;
        let end = at + x.len();
        let before = expr[..at].chars().next_back();
        let after = expr[end..].chars().next();
        let x_ident_start = x.chars().next().is_some_and(|c| ident(Some(c)));
        let x_ident_end = x.chars().next_back().is_some_and(|c| ident(Some(c)));
        let longer_name = (x_ident_start && ident(before)) || (x_ident_end && ident(after));
        if !longer_name {
            return true;
        }
        from = at + 1;
    }
    false
}

/// The binary operators at the top level of `e` (normalised): (position, operator, precedence
/// in C, higher binds tighter). Unary operators (an operator where an operand is expected)
/// and `->` are left out; `?` stands for the conditional operator.
fn top_level_operators(e: &str) -> Vec<(usize, &str, u8)> {
    const OPS: &[(&str, u8)] = &[
        ("<<", 11),
        (">>", 11),
        ("<=", 10),
        (">=", 10),
        ("==", 9),
        ("!=", 9),
        ("&&", 5),
        ("||", 4),
        ("->", 0),
        ("*", 13),
        ("/", 13),
        ("%", 13),
        ("+", 12),
        ("-", 12),
        ("<", 10),
        (">", 10),
        ("&", 8),
        ("^", 7),
        ("|", 6),
        ("?", 3),
    ];
    let b = e.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut operand_expected = true;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' => {
                depth += 1;
                operand_expected = true;
                i += 1;
                continue;
            }
            b')' | b']' => {
                depth -= 1;
                operand_expected = false;
                i += 1;
                continue;
            }
            _ => {}
        }
        if let Some(&(op, prec)) = OPS.iter().find(|(op, _)| e[i..].starts_with(op)) {
            if op == "->" {
                i += 2;
                continue;
            }
            if depth == 0 && !operand_expected {
                out.push((i, op, prec));
            }
            operand_expected = true;
            i += op.len();
            continue;
        }
        operand_expected = matches!(b[i], b'!' | b'~' | b':');
        i += 1;
    }
    out
}

/// Is `x = expr` one of OpenMP's read-modify-write forms, `x = x op e` or `x = e op x` with `e`
/// not reading `x` (as clang classifies it: the outermost operator, left-associative)?
fn is_update_form(x: &str, expr: &str) -> bool {
    let e = normal(expr);
    let ops = top_level_operators(&e);
    let Some(lowest) = ops.iter().map(|&(_, _, p)| p).min() else {
        return false;
    };
    let Some(&(at, op, _)) = ops.iter().rev().find(|&&(_, _, p)| p == lowest) else {
        return false;
    };
    if !matches!(op, "+" | "*" | "-" | "/" | "&" | "^" | "|" | "<<" | ">>") {
        return false;
    }
    let (left, right) = (normal(&e[..at]), normal(&e[at + op.len()..]));
    (left == x && !reads(&right, x)) || (right == x && !reads(&left, x))
}

/// The parts of `stmt` split at its top-level simple assignments (`v = x = e` → `[v, x, e]`;
/// `==`, `<=`, `>=`, `!=` and compound assignments do not split).
fn assignment_parts(stmt: &str) -> Vec<&str> {
    let b = stmt.as_bytes();
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut last = 0;
    for i in 0..b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'=' if depth == 0 => {
                let prev = if i > 0 { b[i - 1] } else { b' ' };
                let next = b.get(i + 1).copied().unwrap_or(b' ');
                if next != b'='
                    && !matches!(
                        prev,
                        b'=' | b'!'
                            | b'<'
                            | b'>'
                            | b'+'
                            | b'-'
                            | b'*'
                            | b'/'
                            | b'%'
                            | b'&'
                            | b'|'
                            | b'^'
                    )
                {
                    parts.push(&stmt[last..i]);
                    last = i + 1;
                }
            }
            _ => {}
        }
    }
    parts.push(&stmt[last..]);
    parts
}

/// The variable of the first assignment in `statements` (the atomic's statement, or its
/// structured block's) that assigns a variable an expression reading it in a form that is not a
/// read-modify-write one; for an atomic `write`, in any form (a write never reads atomically).
fn self_read(statements: &str, write: bool) -> Option<String> {
    let body = statements.trim();
    let body = body
        .strip_prefix('{')
        .and_then(|b| b.strip_suffix('}'))
        .unwrap_or(body);
    for stmt in split_top(body, ';') {
        let parts = assignment_parts(stmt);
        for w in parts.windows(2) {
            let (x, e) = (normal(w[0]), w[1]);
            if !x.is_empty() && reads(&normal(e), &x) && (write || !is_update_form(&x, e)) {
                return Some(x);
            }
        }
    }
    None
}

/// The warning (located at the directive) for atomic `p` of `text` when its statement assigns a
/// variable a value computed from a non-atomic read of it.
pub fn check(p: &Pragma, text: &str, loc_of: &dyn Fn(&Pragma) -> String) -> Vec<String> {
    let Some(kind) = kind(p) else {
        return Vec::new();
    };
    let Some(end) = block::statement_end(text.as_bytes(), p.end) else {
        return Vec::new();
    };
    let Some(x) = self_read(&text[p.end..end], kind == "write") else {
        return Vec::new();
    };
    let how = if kind == "write" {
        "an atomic write reads nothing atomically): concurrent updates are lost; for \
         'x = x op expr' write '#pragma omp atomic update'"
    } else {
        "only 'x = x op expr' and 'x = expr op x' are read atomically, op one of \
         + * - / & ^ | << >>): concurrent updates are lost; for a maximum or minimum use a \
         max/min reduction, or OpenMP's 'atomic compare capture' with \
         '{ v = x; if (x < e) x = e; }'"
    };
    vec![format!(
        "{}: warning: atomic {kind} assigns '{x}' an expression that reads '{x}' outside the atomic \
         operation ({how}",
        loc_of(p)
    )]
}

#[cfg(test)]
mod tests {
    use super::{is_update_form, reads, self_read};

    fn self_read_c(s: &str) -> Option<String> {
        self_read(s, false)
    }

    #[test]
    fn update_forms_as_clang_reads_them() {
        // clang 19: atomicrmw/cmpxchg for these…
        assert!(is_update_form("x", " x + e"));
        assert!(is_update_form("x", "b + a + x"));
        assert!(is_update_form("x", "(x + a)"));
        assert!(is_update_form("x", "e - x"));
        assert!(is_update_form("x", "x << a"));
        assert!(is_update_form("a[i]", "a[i] * (b + c)"));
        // …a plain load and an exchange for these.
        assert!(!is_update_form("x", "x > e ? x : e"));
        assert!(!is_update_form("x", "x * a + b"));
        assert!(!is_update_form("x", "x + a + b"));
        assert!(!is_update_form("x", "e + x * 2"));
        assert!(!is_update_form("x", "x - (a + x)"));
        assert!(!is_update_form("x", "x % 3"));
        assert!(!is_update_form("x", "-x"));
    }

    #[test]
    fn statements_that_read_their_variable() {
        assert_eq!(
            self_read_c(" { old = max; max = max > i ? max : i; }"),
            Some("max".into())
        );
        assert_eq!(self_read_c(" x = x + e;"), None);
        assert_eq!(self_read_c(" { v = x; x = x + e; }"), None);
        assert_eq!(self_read_c(" { x = e + x * 2; v = x; }"), Some("x".into()));
        assert_eq!(self_read_c(" v = x = x * a + b;"), Some("x".into()));
        assert_eq!(self_read_c(" v = x = x + b;"), None);
        assert_eq!(self_read_c(" { v = x; x += e; }"), None);
        assert_eq!(self_read_c(" { v = x; x = e; }"), None);
        assert_eq!(
            self_read_c(" { v = h[k]; h[k] = h[k] == 0 ? 1 : 2; }"),
            Some("h[k]".into())
        );
        assert_eq!(self_read_c(" m = maximum > i ? maximum : i;"), None);
        assert_eq!(self_read_c(" x = (x <= e);"), Some("x".into()));
        // A write reads nothing atomically, whatever the form.
        assert_eq!(self_read(" x = x + e;", true), Some("x".into()));
        assert_eq!(self_read(" x = e + 1;", true), None);
    }

    #[test]
    fn reads_whole_names() {
        assert!(reads("a+x", "x"));
        assert!(!reads("xx+1", "x"));
        assert!(reads("a[i]*2", "a[i]"));
        assert!(!reads("a[j]*2", "a[i]"));
    }
}

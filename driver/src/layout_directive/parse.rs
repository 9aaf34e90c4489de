//! The text of one `trans` pragma: `transpose(a[0:I][0:J][0:K], [1,3,2])` (or the paper's
//! `transpose { a[0:I][0:J][0:K], [1,3,2] }`) and `soa(p[0:n])`, after the macros inside it
//! have been expanded. An extent is an integer constant expression (+ - * / % and
//! parentheses), evaluated here, or any other C expression (`nx`, `n * 4`), evaluated by the
//! program at the start of the block (a run-time extent). Lower bounds and the permutation
//! are constants.
use ptxcc_passes::layout::desc::Extent;

/// One extent of the section: its value (or `Runtime`) and the text written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dim {
    pub extent: Extent,
    pub text: String,
}

/// A parsed clause, with byte offsets (into the clause text) for located errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Clause {
    Transpose {
        name: String,
        name_at: usize,
        dims: Vec<Dim>,
        goes_to: Vec<usize>,
        perm_at: usize,
    },
    Soa {
        name: String,
        name_at: usize,
        n: Dim,
    },
}

/// A parse error: where (offset into the clause text) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub at: usize,
    pub message: String,
}

fn err<T>(at: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        at,
        message: message.into(),
    })
}

struct Cursor<'a> {
    s: &'a str,
    i: usize,
}

impl<'a> Cursor<'a> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s.as_bytes()[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.as_bytes().get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8, what: &str) -> Result<(), ParseError> {
        if self.eat(c) {
            Ok(())
        } else {
            err(self.i, format!("expected '{}' {what}", c as char))
        }
    }
    fn ident(&mut self) -> Option<(String, usize)> {
        self.skip_ws();
        let start = self.i;
        let b = self.s.as_bytes();
        if start < b.len() && (b[start].is_ascii_alphabetic() || b[start] == b'_') {
            let mut j = start;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            self.i = j;
            Some((self.s[start..j].to_string(), start))
        } else {
            None
        }
    }
    /// The text up to the `close` that balances, at depth 0 (not consumed).
    fn until(&mut self, stops: &[u8]) -> (String, usize) {
        self.skip_ws();
        let start = self.i;
        let b = self.s.as_bytes();
        let mut depth = 0i32;
        while self.i < b.len() {
            let c = b[self.i];
            if depth == 0 && stops.contains(&c) {
                break;
            }
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ => {}
            }
            self.i += 1;
        }
        (self.s[start..self.i].to_string(), start)
    }
}

/// Parses the clause text after `trans` (e.g. ` transpose(a[0:4][0:5], [2,1])`).
pub fn parse(text: &str) -> Result<Clause, ParseError> {
    let mut c = Cursor { s: text, i: 0 };
    let Some((kind, kind_at)) = c.ident() else {
        return err(
            c.i,
            "expected 'transpose(array-section, [permutation])' or 'soa(array-section)' after 'trans'",
        );
    };
    let close = if c.eat(b'(') {
        b')'
    } else if c.eat(b'{') {
        b'}'
    } else {
        return err(c.i, format!("expected '(' after '{kind}'"));
    };
    let Some((name, name_at)) = c.ident() else {
        return err(c.i, "expected the name of an array");
    };
    if matches!(c.peek(), Some(b'.') | Some(b'-')) {
        return err(
            name_at,
            format!("the array of a trans directive must be a variable, not a member of '{name}'"),
        );
    }
    let mut sections = Vec::new();
    while c.eat(b'[') {
        let (lower, lower_at) = c.until(b":]");
        if !c.eat(b':') {
            return err(
                c.i,
                format!("expected '[0:extent]' in the section of '{name}'"),
            );
        }
        let (len, len_at) = c.until(b"]");
        c.expect(b']', "to close the array section")?;
        match eval(&lower) {
            Ok(0) => {}
            Ok(_) => {
                return err(
                    lower_at,
                    format!(
                        "the section of '{name}' must start at 0 in every dimension: the trans directive \
                         describes the whole array"
                    ),
                )
            }
            Err(m) => return err(lower_at, m),
        }
        match eval(&len) {
            Ok(n) if n > 0 => sections.push(Dim {
                extent: Extent::Const(n as u64),
                text: n.to_string(),
            }),
            Ok(n) => {
                return err(
                    len_at,
                    format!("the extent {n} of '{name}' is not positive"),
                )
            }
            // Not a constant: the program computes it at the block's start.
            Err(_) if !len.trim().is_empty() && !len.contains(['"', '\'', ';', '{', '}']) => {
                sections.push(Dim {
                    extent: Extent::Runtime,
                    text: len.trim().to_string(),
                })
            }
            Err(m) => return err(len_at, m),
        }
    }
    if sections.is_empty() {
        return err(
            c.i,
            format!("'{name}' needs an array section giving its shape, e.g. {name}[0:N][0:M]"),
        );
    }
    let clause = match kind.as_str() {
        "transpose" => {
            c.expect(
                b',',
                &format!("and a permutation after the section of '{name}'"),
            )?;
            let perm_at = {
                c.skip_ws();
                c.i
            };
            c.expect(b'[', "to open the permutation, e.g. [1,3,2]")?;
            let (list, list_at) = c.until(b"]");
            c.expect(b']', "to close the permutation")?;
            let mut goes_to = Vec::new();
            for item in list.split(',') {
                match eval(item) {
                    Ok(v) if v >= 1 => goes_to.push(v as usize),
                    Ok(v) => {
                        return err(
                            list_at,
                            format!("the permutation of '{name}' has {v}: positions count from 1"),
                        )
                    }
                    Err(m) => return err(list_at, m),
                }
            }
            let rank = sections.len();
            if goes_to.len() != rank {
                return err(
                    perm_at,
                    format!(
                        "the permutation of '{name}' has {} entries but its section has {rank} dimensions",
                        goes_to.len()
                    ),
                );
            }
            let mut seen = vec![false; rank];
            for &g in &goes_to {
                if g > rank || seen[g - 1] {
                    return err(
                        perm_at,
                        format!(
                            "the permutation of '{name}' is not a permutation of 1..{rank} (each position once)"
                        ),
                    );
                }
                seen[g - 1] = true;
            }
            Clause::Transpose {
                name,
                name_at,
                dims: sections,
                goes_to,
                perm_at,
            }
        }
        "soa" if sections.len() == 1 => Clause::Soa {
            name,
            name_at,
            n: sections.remove(0),
        },
        "soa" => {
            return err(
                name_at,
                format!(
                    "soa takes a one-dimensional section of structs, e.g. {name}[0:n], not {} dimensions",
                    sections.len()
                ),
            )
        }
        other => {
            return err(
                kind_at,
                format!("unknown trans clause '{other}' (expected 'transpose' or 'soa')"),
            )
        }
    };
    c.expect(close, "to close the clause")?;
    if let Some(x) = c.peek() {
        return err(
            c.i,
            format!("unexpected '{}' after the trans clause", x as char),
        );
    }
    Ok(clause)
}

/// Evaluates an integer constant expression: literals (decimal, hex, octal; u/l suffixes),
/// `+ - * / %` and parentheses. Err: the message (for a lower bound or the permutation,
/// which must be constants).
pub fn eval(s: &str) -> Result<i64, String> {
    let toks = tokens(s)?;
    let mut p = 0;
    let v = expr(&toks, &mut p)?;
    if p != toks.len() {
        return Err(format!(
            "'{}' is not an integer constant expression (ptxcc needs constant lower bounds and permutations)",
            s.trim()
        ));
    }
    Ok(v)
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(i64),
    Op(u8),
}

fn tokens(s: &str) -> Result<Vec<Tok>, String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let not_const = || {
        format!(
            "'{}' is not an integer constant expression (ptxcc needs constant lower bounds and permutations)",
            s.trim()
        )
    };
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let lit = s[start..i].trim_end_matches(['u', 'U', 'l', 'L']);
            let v = if let Some(h) = lit.strip_prefix("0x").or_else(|| lit.strip_prefix("0X")) {
                i64::from_str_radix(h, 16)
            } else if lit.len() > 1 && lit.starts_with('0') {
                i64::from_str_radix(&lit[1..], 8)
            } else {
                lit.parse()
            };
            out.push(Tok::Num(v.map_err(|_| not_const())?));
        } else if b"+-*/%()".contains(&c) {
            out.push(Tok::Op(c));
            i += 1;
        } else {
            return Err(not_const());
        }
    }
    Ok(out)
}

fn expr(t: &[Tok], p: &mut usize) -> Result<i64, String> {
    let mut v = term(t, p)?;
    while let Some(Tok::Op(op @ (b'+' | b'-'))) = t.get(*p) {
        *p += 1;
        let r = term(t, p)?;
        v = if *op == b'+' {
            v.checked_add(r)
        } else {
            v.checked_sub(r)
        }
        .ok_or("integer overflow in an extent")?;
    }
    Ok(v)
}

fn term(t: &[Tok], p: &mut usize) -> Result<i64, String> {
    let mut v = unary(t, p)?;
    while let Some(Tok::Op(op @ (b'*' | b'/' | b'%'))) = t.get(*p) {
        *p += 1;
        let r = unary(t, p)?;
        v = match op {
            b'*' => v.checked_mul(r),
            b'/' => v.checked_div(r),
            _ => v.checked_rem(r),
        }
        .ok_or("division by zero or overflow in an extent")?;
    }
    Ok(v)
}

fn unary(t: &[Tok], p: &mut usize) -> Result<i64, String> {
    match t.get(*p) {
        Some(Tok::Op(b'-')) => {
            *p += 1;
            Ok(-unary(t, p)?)
        }
        Some(Tok::Op(b'+')) => {
            *p += 1;
            unary(t, p)
        }
        Some(Tok::Op(b'(')) => {
            *p += 1;
            let v = expr(t, p)?;
            if t.get(*p) != Some(&Tok::Op(b')')) {
                return Err("unbalanced parentheses in an extent".into());
            }
            *p += 1;
            Ok(v)
        }
        Some(Tok::Num(n)) => {
            *p += 1;
            Ok(*n)
        }
        _ => Err("expected an integer constant in an extent".into()),
    }
}

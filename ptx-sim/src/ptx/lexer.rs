//! PTX tokens.
//!
//! Words keep their dots: `ld.global.u32`, `%tid.x` and `.reg` are one token each, which is how
//! PTX reads (an opcode and its modifiers, a special register and its component, a directive).
//! `::` inside a word is kept too (`ld.global.L1::evict_last.u32`).

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier, opcode, register, directive or label name.
    Word(String),
    /// An integer literal (decimal, hex `0x…`, octal `0…`, binary `0b…`), as its 64-bit pattern.
    Int(u64),
    /// A single-precision literal `0fXXXXXXXX` (its bits).
    F32(u32),
    /// A double-precision literal `0dXXXXXXXXXXXXXXXX` (its bits).
    F64(u64),
    /// A decimal number with a fraction (`.version 8.5`).
    Decimal(String),
    Str(String),
    Punct(char),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    /// 1-based line in the PTX text.
    pub line: u32,
}

#[derive(Debug)]
pub struct LexError {
    pub line: u32,
    pub message: String,
}

fn word_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || matches!(c, b'_' | b'$' | b'%' | b'.')
}

fn word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
}

pub fn lex(text: &str) -> Result<Vec<Token>, LexError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1u32;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                if b[i] == b'\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 2;
        } else if c == b'"' {
            let start = i + 1;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            let s = String::from_utf8_lossy(&b[start..i.min(b.len())]).into_owned();
            i += 1;
            out.push(Token {
                tok: Tok::Str(s),
                line,
            });
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                i += 1;
            }
            let s = &text[start..i];
            let tok = number(s).ok_or_else(|| LexError {
                line,
                message: format!("malformed number '{s}'"),
            })?;
            out.push(Token { tok, line });
        } else if word_start(c) {
            let start = i;
            i += 1;
            while i < b.len() {
                if word_char(b[i]) {
                    i += 1;
                } else if b[i] == b':'
                    && b.get(i + 1) == Some(&b':')
                    && b.get(i + 2).is_some_and(|c| word_char(*c))
                {
                    i += 2;
                } else {
                    break;
                }
            }
            out.push(Token {
                tok: Tok::Word(text[start..i].to_string()),
                line,
            });
        } else if b",;:[]{}()+-!|<>=@*".contains(&c) {
            out.push(Token {
                tok: Tok::Punct(c as char),
                line,
            });
            i += 1;
        } else {
            return Err(LexError {
                line,
                message: format!("unexpected character '{}'", c as char),
            });
        }
    }
    Ok(out)
}

fn number(s: &str) -> Option<Tok> {
    let lower = s.to_ascii_lowercase();
    let digits = lower.trim_end_matches('u');
    if let Some(h) = lower.strip_prefix("0f") {
        return (h.len() == 8)
            .then(|| u32::from_str_radix(h, 16).ok().map(Tok::F32))
            .flatten();
    }
    if let Some(h) = lower.strip_prefix("0d") {
        return (h.len() == 16)
            .then(|| u64::from_str_radix(h, 16).ok().map(Tok::F64))
            .flatten();
    }
    if let Some(h) = digits.strip_prefix("0x") {
        return u64::from_str_radix(h, 16).ok().map(Tok::Int);
    }
    if let Some(h) = digits.strip_prefix("0b") {
        return u64::from_str_radix(h, 2).ok().map(Tok::Int);
    }
    if s.contains('.') {
        return s.parse::<f64>().ok().map(|_| Tok::Decimal(s.to_string()));
    }
    if digits.len() > 1
        && digits.starts_with('0')
        && digits.bytes().all(|c| (b'0'..=b'7').contains(&c))
    {
        return u64::from_str_radix(&digits[1..], 8).ok().map(Tok::Int);
    }
    digits.parse::<u64>().ok().map(Tok::Int)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn words_keep_dots_and_double_colons() {
        assert_eq!(
            toks("ld.global.L1::evict_last.u32 %r1, [%rd2+-8];"),
            vec![
                Tok::Word("ld.global.L1::evict_last.u32".into()),
                Tok::Word("%r1".into()),
                Tok::Punct(','),
                Tok::Punct('['),
                Tok::Word("%rd2".into()),
                Tok::Punct('+'),
                Tok::Punct('-'),
                Tok::Int(8),
                Tok::Punct(']'),
                Tok::Punct(';'),
            ]
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(
            toks("0f3F800000 0d3FF0000000000000 0x10 010 42U 8.5"),
            vec![
                Tok::F32(0x3F80_0000),
                Tok::F64(0x3FF0_0000_0000_0000),
                Tok::Int(16),
                Tok::Int(8),
                Tok::Int(42),
                Tok::Decimal("8.5".into()),
            ]
        );
    }

    #[test]
    fn labels_comments_and_lines() {
        let t = lex("// c\n$L__BB0_2:\n/* a\nb */ ret;").unwrap();
        assert_eq!(t[0].tok, Tok::Word("$L__BB0_2".into()));
        assert_eq!(t[0].line, 2);
        assert_eq!(t[1].tok, Tok::Punct(':'));
        assert_eq!(t[2].line, 4);
    }
}

//! CUDA's device-side `printf`: `vprintf(format, args)`, where `args` points to the arguments
//! packed one after another, each aligned to its size (integers of 4 or 8 bytes, doubles,
//! pointers).

use super::thread::{BlockEnv, Thread};

/// The NUL-terminated string at a generic address (at most 64 KiB).
pub fn read_string(t: &Thread, addr: u64, env: &BlockEnv, shared: &[u8]) -> Option<String> {
    let mut bytes = Vec::new();
    for i in 0..(64u64 << 10) {
        let b = t.read_generic(addr + i, 1, env, shared)? as u8;
        if b == 0 {
            return Some(String::from_utf8_lossy(&bytes).into_owned());
        }
        bytes.push(b);
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

struct Args<'a> {
    t: &'a Thread,
    env: &'a BlockEnv<'a>,
    shared: &'a [u8],
    at: u64,
}

impl Args<'_> {
    fn next(&mut self, bytes: u32) -> Result<u64, String> {
        self.at = self.at.next_multiple_of(bytes as u64);
        let v = self
            .t
            .read_generic(self.at, bytes, self.env, self.shared)
            .ok_or_else(|| format!("printf: its arguments at {:#x} are not readable", self.at))?;
        self.at += bytes as u64;
        Ok(v)
    }
}

/// The text `vprintf(fmt, args)` prints.
pub fn format(
    t: &Thread,
    fmt: u64,
    args: u64,
    env: &BlockEnv,
    shared: &[u8],
) -> Result<Vec<u8>, String> {
    let f = read_string(t, fmt, env, shared)
        .ok_or_else(|| format!("printf: format string at {fmt:#x} is not readable"))?;
    let mut a = Args {
        t,
        env,
        shared,
        at: args,
    };
    let mut out = String::new();
    let mut chars = f.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        // %[flags][width][.precision][length]conversion
        let mut spec = String::from("%");
        while let Some(&c) = chars.peek() {
            if "-+ #0".contains(c) {
                spec.push(c);
                chars.next();
            } else {
                break;
            }
        }
        let mut width = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_ascii_digit() || c == '*' {
                width.push(c);
                chars.next();
            } else {
                break;
            }
        }
        let mut precision = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut p = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_ascii_digit() {
                    p.push(c);
                    chars.next();
                } else {
                    break;
                }
            }
            precision = Some(p.parse::<usize>().unwrap_or(0));
        }
        let mut long = 0;
        while let Some(&c) = chars.peek() {
            match c {
                'l' | 'z' | 'j' | 't' | 'L' => {
                    long += 1;
                    chars.next();
                }
                'h' => {
                    chars.next();
                }
                _ => break,
            }
        }
        let Some(conv) = chars.next() else { break };
        let width: usize = if width == "*" {
            a.next(4)? as i32 as usize
        } else {
            width.parse().unwrap_or(0)
        };
        let left = spec.contains('-');
        let zero = spec.contains('0') && !left;
        let plus = spec.contains('+');
        let text = match conv {
            '%' => "%".to_string(),
            'd' | 'i' => {
                let v = if long > 0 {
                    a.next(8)? as i64
                } else {
                    a.next(4)? as i32 as i64
                };
                if plus && v >= 0 {
                    format!("+{v}")
                } else {
                    v.to_string()
                }
            }
            'u' | 'x' | 'X' | 'o' => {
                let v = if long > 0 {
                    a.next(8)?
                } else {
                    a.next(4)? as u32 as u64
                };
                let s = match conv {
                    'u' => v.to_string(),
                    'x' => format!("{v:x}"),
                    'X' => format!("{v:X}"),
                    _ => format!("{v:o}"),
                };
                if spec.contains('#') && v != 0 && conv != 'u' {
                    format!(
                        "{}{s}",
                        if conv == 'o' {
                            "0"
                        } else if conv == 'x' {
                            "0x"
                        } else {
                            "0X"
                        }
                    )
                } else {
                    s
                }
            }
            'c' => ((a.next(4)? as u8) as char).to_string(),
            'p' => format!("{:#x}", a.next(8)?),
            's' => {
                let p = a.next(8)?;
                let s = read_string(t, p, env, shared).unwrap_or_else(|| "(null)".into());
                match precision {
                    Some(n) => s.chars().take(n).collect(),
                    None => s,
                }
            }
            'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => {
                let v = f64::from_bits(a.next(8)?);
                let p = precision.unwrap_or(6);
                let s = if v.is_nan() {
                    "nan".to_string()
                } else if v.is_infinite() {
                    if v > 0.0 { "inf" } else { "-inf" }.to_string()
                } else {
                    match conv {
                        'f' | 'F' => format!("{v:.p$}"),
                        'e' | 'E' => c_exp(v, p),
                        _ => c_general(v, if p == 0 { 1 } else { p }, spec.contains('#')),
                    }
                };
                let s = if conv.is_ascii_uppercase() {
                    s.to_uppercase()
                } else {
                    s
                };
                if plus && v >= 0.0 {
                    format!("+{s}")
                } else {
                    s
                }
            }
            other => {
                return Err(format!(
                    "printf: conversion '%{other}' is not supported by ptxsim"
                ))
            }
        };
        let pad = width.saturating_sub(text.chars().count());
        if left {
            out.push_str(&text);
            out.extend(std::iter::repeat_n(' ', pad));
        } else if zero && conv != 's' && conv != 'c' {
            let (sign, digits) = if text.starts_with(['-', '+']) {
                text.split_at(1)
            } else {
                ("", text.as_str())
            };
            out.push_str(sign);
            out.extend(std::iter::repeat_n('0', pad));
            out.push_str(digits);
        } else {
            out.extend(std::iter::repeat_n(' ', pad));
            out.push_str(&text);
        }
    }
    Ok(out.into_bytes())
}

/// `%.{p}e` as C prints it (two-digit exponent at least).
fn c_exp(v: f64, p: usize) -> String {
    let s = format!("{v:.p$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    format!("{mantissa}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

/// `%.{p}g` as C prints it.
fn c_general(v: f64, p: usize, keep_zeros: bool) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let exp = v.abs().log10().floor() as i32;
    let s = if exp < -4 || exp >= p as i32 {
        c_exp(v, p - 1)
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        format!("{v:.decimals$}")
    };
    if keep_zeros {
        return s;
    }
    // Trailing zeros of the fraction go.
    let (m, e) = match s.split_once('e') {
        Some((m, e)) => (m.to_string(), format!("e{e}")),
        None => (s.clone(), String::new()),
    };
    let m = if m.contains('.') {
        m.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        m
    };
    format!("{m}{e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_like_c() {
        assert_eq!(c_exp(12345.678, 2), "1.23e+04");
        assert_eq!(c_exp(0.00012, 1), "1.2e-04");
        assert_eq!(c_general(0.5, 6, false), "0.5");
        assert_eq!(c_general(1e-5, 6, false), "1e-05");
        assert_eq!(c_general(123456789.0, 6, false), "1.23457e+08");
        assert_eq!(c_general(100.0, 6, false), "100");
    }
}

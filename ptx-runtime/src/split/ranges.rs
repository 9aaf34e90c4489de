//! Access ranges of a split kernel (`-fptxcc-multi-device`): the table the compiler's
//! `access-ranges` pass embedded (`ptxrt_kernel_desc::accesses`, its layout in
//! passes/src/access_ranges/table.rs), decoded once at registration, and the evaluator that
//! turns it, for one part `[lo, hi)` of the loop's iterations and the launch's scalar
//! arguments, into the bytes of each mapped section the part reads and writes:
//!
//! ```text
//! table: argument 2 read [8*i - 8, 8*i + 16), argument 1 written [8*i, 8*i + 8)   (i = iteration + 1 folded in)
//! part [250, 500), sections of 8000 bytes  →  argument 2 reads [1992, 4016), argument 1 writes [2000, 4000)
//! ```
//!
//! An offset is a polynomial: every term a coefficient times scalar arguments times at most one
//! variable (the iteration `i` in `[lo, hi-1]`, `i / d`, `i % d`, an inner loop's variable
//! between its first and last values), so its least and greatest values over the part are the
//! sums of each term's. An access the compiler could not express is the whole section; so is
//! one whose bounds overflow or whose divisor is not positive at run time. Every range is
//! clamped to the mapped section (the kernel can reach no other bytes through it).
//!
//! The table's guards are the values the kernel computes in `int` (or narrower) arithmetic that
//! the offsets read as exact: where one may leave its signed range over the part, the kernel's
//! integers may wrap there, and every access of the table is the whole section.
use std::ops::Range;

use crate::coherence::range_set::{RangeSet, Span};

pub use ptxcc_abi::access_table::Access;
use ptxcc_abi::access_table::{Factor, Guard, Poly, Table, Var};

/// A kernel's access table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessTable {
    vars: Vec<Var>,
    pub accesses: Vec<Access>,
    guards: Vec<Guard>,
}

/// What a part touches of one argument: byte offsets from the start of its mapped section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Touched {
    pub read: RangeSet,
    pub written: RangeSet,
}

impl Touched {
    /// The bytes the part needs on its device: what it reads, and what it writes (a write that
    /// does not happen must leave the source's bytes for the merge).
    pub fn needed(&self) -> RangeSet {
        self.read.union(&self.written)
    }
}

/// Where a loop reaches one pointer argument ([`AccessTable::reach`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The table names no access of it (or the loop has no iterations).
    Untouched,
    /// Bytes `[lo, hi)` from the pointer, read and/or written.
    Bytes {
        lo: i128,
        hi: i128,
        read: bool,
        write: bool,
    },
    /// Not known: the compiler tabled it as the whole section (`whole`), or the bounds
    /// overflow or use a divisor that is not positive with these arguments.
    Unknown { whole: bool },
}

/// A mapped pointer argument as the evaluator needs it.
#[derive(Clone, Copy, Debug)]
pub struct Section {
    /// Bytes from the section's start to where the kernel's pointer points (`base - begin`).
    pub delta: i64,
    pub bytes: u64,
}

impl AccessTable {
    /// Decodes the words of `ptxrt_kernel_desc::accesses` (`ptxcc_abi::access_table`).
    pub fn decode(words: &[i64]) -> Result<AccessTable, String> {
        let Table {
            vars,
            accesses,
            guards,
        } = Table::decode(words)?;
        Ok(AccessTable {
            vars,
            accesses,
            guards,
        })
    }

    /// What the iterations `iters` touch of each argument (`sections[k]`: argument k's mapped
    /// section, None for by-value arguments), as offsets in the section. An argument the
    /// table does not name is not touched.
    pub fn evaluate(
        &self,
        args: &[u64],
        iters: Range<u64>,
        sections: &[Option<Section>],
    ) -> Vec<Touched> {
        let mut out = vec![Touched::default(); sections.len()];
        if iters.is_empty() {
            return out;
        }
        let bounds = self.var_bounds(args, &iters);
        let exact = self.guards_hold(args, &bounds);
        for a in &self.accesses {
            let Some(Some(sec)) = sections.get(a.param as usize) else {
                continue;
            };
            let whole = Span::new(0, sec.bytes);
            let span = match a.offset.as_ref().filter(|_| exact) {
                Some(p) => range_of(p, args, &bounds)
                    .and_then(|(lo, hi)| {
                        let start = lo.checked_add(sec.delta as i128)?;
                        let end = hi
                            .checked_add(a.size as i128)?
                            .checked_add(sec.delta as i128)?;
                        Some(Span::new(
                            start.clamp(0, sec.bytes as i128) as u64,
                            end.clamp(0, sec.bytes as i128) as u64,
                        ))
                    })
                    .unwrap_or(whole),
                None => whole,
            };
            let t = &mut out[a.param as usize];
            if a.read {
                t.read.insert(span);
            }
            if a.write {
                t.written.insert(span);
            }
        }
        out
    }

    /// Where the iterations `iters` reach argument `param`: the hull of its accesses in bytes
    /// from the pointer the kernel gets, not clamped to any section (`access_maps.rs` maps
    /// exactly that).
    pub fn reach(&self, args: &[u64], iters: Range<u64>, param: u32) -> Reach {
        let mut out = Reach::Untouched;
        if iters.is_empty() {
            return out;
        }
        let bounds = self.var_bounds(args, &iters);
        let exact = self.guards_hold(args, &bounds);
        for a in self.accesses.iter().filter(|a| a.param == param) {
            let span = a.offset.as_ref().filter(|_| exact).and_then(|p| {
                let (lo, hi) = range_of(p, args, &bounds)?;
                Some((lo, hi.checked_add(a.size as i128)?))
            });
            let Some((lo, hi)) = span else {
                return Reach::Unknown {
                    whole: a.offset.is_none(),
                };
            };
            out = match out {
                Reach::Untouched => Reach::Bytes {
                    lo,
                    hi,
                    read: a.read,
                    write: a.write,
                },
                Reach::Bytes {
                    lo: l,
                    hi: h,
                    read,
                    write,
                } => Reach::Bytes {
                    lo: l.min(lo),
                    hi: h.max(hi),
                    read: read || a.read,
                    write: write || a.write,
                },
                u @ Reach::Unknown { .. } => u,
            };
        }
        out
    }

    /// Whether the table's offsets are exact over the iterations `iters` (every guard stays in
    /// its range); where not, every access is the whole section (`PTXRT_DEBUG` says so).
    pub fn exact_over(&self, args: &[u64], iters: Range<u64>) -> bool {
        iters.is_empty() || self.guards_hold(args, &self.var_bounds(args, &iters))
    }

    /// Whether every guard stays in its signed range with the variables in `bounds`: the
    /// kernel's narrow integers then hold the polynomials' values, and the offsets are exact.
    fn guards_hold(&self, args: &[u64], bounds: &[Option<(i128, i128)>]) -> bool {
        self.guards.iter().all(|g| {
            let half = 1i128 << (g.bits.clamp(1, 64) - 1);
            range_of(&g.poly, args, bounds).is_some_and(|(lo, hi)| -half <= lo && hi < half)
        })
    }

    /// The least and greatest value of every variable over the part; None for one that cannot
    /// be bounded (a divisor that is not positive, an overflow): an access that uses it is the
    /// whole section.
    fn var_bounds(&self, args: &[u64], iters: &Range<u64>) -> Vec<Option<(i128, i128)>> {
        let mut out: Vec<Option<(i128, i128)>> = Vec::with_capacity(self.vars.len());
        for v in &self.vars {
            let b = bound(v, args, iters, &out);
            out.push(b);
        }
        out
    }

    /// The greatest divisor `d` of the loop's iteration (`i / d`: a collapsed loop's outer
    /// index) at these arguments: parts that start at multiples of it cover whole rows (planes)
    /// of the outer index, so their write ranges do not share one.
    pub fn outer_divisor(&self, args: &[u64]) -> Option<u64> {
        self.vars
            .iter()
            .filter_map(|v| match v {
                Var::Div(d) => exact(d, args).filter(|&d| d > 1),
                _ => None,
            })
            .max()
            .and_then(|d| u64::try_from(d).ok())
    }
}

/// `n / d` for `n` in `[a, b]`, `a >= 0`.
fn quotient((a, b): (i128, i128), d: i128) -> Option<(i128, i128)> {
    (a >= 0 && d > 0).then(|| (a / d, b / d))
}

/// `n % d` for `n` in `[a, b]`, `a >= 0`: exact while the range does not wrap.
fn remainder((a, b): (i128, i128), d: i128) -> Option<(i128, i128)> {
    if a < 0 || d <= 0 {
        return None;
    }
    Some(if b - a < d && a % d <= b % d {
        (a % d, b % d)
    } else {
        (0, d - 1)
    })
}

fn bound(
    v: &Var,
    args: &[u64],
    iters: &Range<u64>,
    earlier: &[Option<(i128, i128)>],
) -> Option<(i128, i128)> {
    let (lo, hi) = (iters.start as i128, iters.end as i128 - 1);
    let of = |var: u32| earlier.get(var as usize).copied().flatten();
    Some(match v {
        Var::Iter => (lo, hi),
        Var::Div(d) => quotient((lo, hi), exact(d, args)?)?,
        Var::Rem(d) => remainder((lo, hi), exact(d, args)?)?,
        Var::DivOf { var, d } => quotient(of(*var)?, exact(d, args)?)?,
        Var::RemOf { var, d } => remainder(of(*var)?, exact(d, args)?)?,
        Var::Loop { first, last } => {
            let (f, l) = (exact(first, args)?, exact(last, args)?);
            (f.min(l), f.max(l))
        }
    })
}

/// The value of a polynomial without variables.
fn exact(p: &Poly, args: &[u64]) -> Option<i128> {
    let (lo, hi) = range_of(p, args, &[])?;
    (lo == hi).then_some(lo)
}

/// The least and greatest value of `p` with each variable in its bounds.
fn range_of(p: &Poly, args: &[u64], bounds: &[Option<(i128, i128)>]) -> Option<(i128, i128)> {
    const LIMIT: i128 = 1 << 100;
    let (mut lo, mut hi) = (0i128, 0i128);
    for t in &p.terms {
        let mut c = t.coef as i128;
        let mut var = None;
        for f in &t.factors {
            match *f {
                Factor::Var(v) => var = Some((*bounds.get(v as usize)?)?),
                Factor::Param { .. } | Factor::ParamMasked { .. } => {
                    c = c.checked_mul(f.param_value(args)?)?
                }
            }
            if c.abs() > LIMIT {
                return None;
            }
        }
        let (a, b) = match var {
            None => (c, c),
            Some((vl, vh)) => {
                let (x, y) = (c.checked_mul(vl)?, c.checked_mul(vh)?);
                (x.min(y), x.max(y))
            }
        };
        lo = lo.checked_add(a)?;
        hi = hi.checked_add(b)?;
        if lo.abs() > LIMIT || hi.abs() > LIMIT {
            return None;
        }
    }
    Some((lo, hi))
}

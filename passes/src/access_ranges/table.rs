//! The access table of a split kernel: what the analysis found (`Table`) and its encoding as
//! the `i64` words the host registration embeds (`ptxrt_kernel_desc::accesses`), which
//! ptx-runtime's `split/ranges.rs` decodes. Layout (every field one `i64`):
//!
//! ```text
//! table  := VERSION nvars naccesses var* access*
//! var    := 1                     the split loop's normalised iteration i, in [lo, hi-1]
//!         | 2 poly                i / d (d the poly, > 0), in [lo/d, (hi-1)/d]
//!         | 3 poly                i % d, in [0, d-1]
//!         | 4 poly poly           an inner loop's variable, in [first, last]
//!         | 5 var poly            variable `var` / d (an earlier variable of kinds 2, 3, 5, 6)
//!         | 6 var poly            variable `var` % d (likewise)
//! access := param flags size poly?   flags: 1 read, 2 write, 4 whole section (no poly)
//! poly   := nterms (coef nfactors factor*)*
//! factor := 1<<40 | bits<<20 | param      a by-value argument, low `bits` bits sign-extended
//!         | 2<<40 | var                    a variable of the table
//! ```
//!
//! An access at offset `poly` from its pointer argument touches `[poly, poly + size)` bytes for
//! every value of the variables in their ranges.
use std::fmt;

use super::poly::{Atom, Poly};

/// Version 2 added variables of kinds 5 and 6 (the runtime reads 1 and 2).
pub const VERSION: i64 = 2;
pub const READ: i64 = 1;
pub const WRITE: i64 = 2;
pub const WHOLE: i64 = 4;
const FACTOR_PARAM: i64 = 1 << 40;
const FACTOR_VAR: i64 = 2 << 40;

/// A variable the offsets range over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Var {
    /// The split loop's normalised iteration (always variable 0).
    Iter,
    /// `iteration / d` (a collapsed loop's outer index).
    Div(Poly),
    /// `iteration % d` (a collapsed loop's inner index).
    Rem(Poly),
    /// An inner loop's variable from `first` to `last`.
    Loop { first: Poly, last: Poly },
    /// `v / d`, `v` an earlier variable of the Div/Rem family (never negative): the middle
    /// index of a `collapse(3)` loop, `(i % (nj*nk)) / nk`.
    DivOf { var: u32, d: Poly },
    /// `v % d`, likewise.
    RemOf { var: u32, d: Poly },
}

impl Var {
    /// Is the variable never negative (the iteration, and quotients and remainders of it by
    /// positive divisors, which the runtime checks)?
    pub fn non_negative(&self) -> bool {
        !matches!(self, Var::Loop { .. })
    }
}

/// Where an argument is accessed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offset {
    /// Bytes `[poly, poly + size)` from the pointer argument.
    At(Poly),
    /// Anywhere in the mapped section, and why the analysis could not say more.
    Whole(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// Kernel parameter index.
    pub param: u32,
    pub read: bool,
    pub write: bool,
    pub size: u64,
    pub offset: Offset,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub vars: Vec<Var>,
    pub accesses: Vec<Access>,
}

impl Table {
    /// Adds an access, merging it with one of the same place (read and write of `a[i]`) and
    /// keeping one whole-section entry per argument.
    pub fn add(&mut self, a: Access) {
        // The argument is already whole: any access of it is in there.
        if let Some(w) = self
            .accesses
            .iter_mut()
            .find(|e| e.param == a.param && matches!(e.offset, Offset::Whole(_)))
        {
            w.read |= a.read;
            w.write |= a.write;
            return;
        }
        if let Offset::Whole(_) = a.offset {
            // A whole-section access makes the argument's other entries redundant.
            let (mut r, mut w) = (a.read, a.write);
            self.accesses.retain(|e| {
                if e.param == a.param {
                    r |= e.read;
                    w |= e.write;
                    false
                } else {
                    true
                }
            });
            self.accesses.push(Access {
                read: r,
                write: w,
                ..a
            });
            return;
        }
        if let Some(e) = self
            .accesses
            .iter_mut()
            .find(|e| e.param == a.param && e.size == a.size && e.offset == a.offset)
        {
            e.read |= a.read;
            e.write |= a.write;
            return;
        }
        // Accesses a constant apart with the same use (x[i-1], x[i], x[i+1]) become one
        // range (a gap between them is taken in: correct, and one range to move).
        if let Offset::At(p) = &a.offset {
            for e in &mut self.accesses {
                let Offset::At(q) = &e.offset else { continue };
                if e.param != a.param || (e.read, e.write) != (a.read, a.write) {
                    continue;
                }
                let Some(d) = p.sub(q).and_then(|d| d.as_constant()) else {
                    continue;
                };
                // [q, q + e.size) ∪ [q + d, q + d + a.size)
                let start = d.min(0);
                let end = (e.size as i64).max(d.saturating_add(a.size as i64));
                if let Some(new) = q.add(&Poly::constant(start)) {
                    e.offset = Offset::At(new);
                    e.size = (end - start) as u64;
                    return;
                }
            }
        }
        self.accesses.push(a);
    }

    pub fn encode(&self) -> Vec<i64> {
        let mut w = vec![VERSION, self.vars.len() as i64, self.accesses.len() as i64];
        for v in &self.vars {
            match v {
                Var::Iter => w.push(1),
                Var::Div(d) => {
                    w.push(2);
                    encode_poly(d, &mut w);
                }
                Var::Rem(d) => {
                    w.push(3);
                    encode_poly(d, &mut w);
                }
                Var::Loop { first, last } => {
                    w.push(4);
                    encode_poly(first, &mut w);
                    encode_poly(last, &mut w);
                }
                Var::DivOf { var, d } => {
                    w.extend([5, *var as i64]);
                    encode_poly(d, &mut w);
                }
                Var::RemOf { var, d } => {
                    w.extend([6, *var as i64]);
                    encode_poly(d, &mut w);
                }
            }
        }
        for a in &self.accesses {
            let flags = if a.read { READ } else { 0 }
                | if a.write { WRITE } else { 0 }
                | if matches!(a.offset, Offset::Whole(_)) {
                    WHOLE
                } else {
                    0
                };
            w.extend([a.param as i64, flags, a.size as i64]);
            if let Offset::At(p) = &a.offset {
                encode_poly(p, &mut w);
            }
        }
        w
    }
}

fn encode_poly(p: &Poly, w: &mut Vec<i64>) {
    w.push(p.terms.len() as i64);
    for (m, &c) in &p.terms {
        w.push(c);
        w.push(m.len() as i64);
        for a in m {
            w.push(match *a {
                Atom::Param { index, bits } => FACTOR_PARAM | (bits as i64) << 20 | index as i64,
                Atom::Var(v) => FACTOR_VAR | v as i64,
            });
        }
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Var::Iter => write!(f, "the loop's iteration"),
            Var::Div(d) => write!(f, "i / ({d})"),
            Var::Rem(d) => write!(f, "i % ({d})"),
            Var::Loop { first, last } => write!(f, "{first} .. {last}"),
            Var::DivOf { var, d } => write!(f, "v{var} / ({d})"),
            Var::RemOf { var, d } => write!(f, "v{var} % ({d})"),
        }
    }
}

impl Access {
    /// `argument 2: read [8*i + 8, 8*i + 16)`, `argument 3: read, written: whole section (…)`.
    pub fn describe(&self) -> String {
        let what = match (self.read, self.write) {
            (true, true) => "read and written",
            (true, false) => "read",
            (false, true) => "written",
            (false, false) => "touched",
        };
        match &self.offset {
            Offset::At(p) => {
                let end = p
                    .add(&Poly::constant(self.size as i64))
                    .map(|e| e.to_string())
                    .unwrap_or_else(|| "?".into());
                format!("argument {}: {what} [{p}, {end})", self.param + 1)
            }
            Offset::Whole(why) => {
                format!("argument {}: {what}: whole section ({why})", self.param + 1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_and_merges() {
        let i = Poly::atom(Atom::Var(0));
        let mut t = Table {
            vars: vec![Var::Iter],
            accesses: Vec::new(),
        };
        let at = Offset::At(i.scale(8).unwrap());
        t.add(Access {
            param: 1,
            read: true,
            write: false,
            size: 8,
            offset: at.clone(),
        });
        t.add(Access {
            param: 1,
            read: false,
            write: true,
            size: 8,
            offset: at,
        });
        assert_eq!(t.accesses.len(), 1);
        assert!(t.accesses[0].read && t.accesses[0].write);
        assert_eq!(
            t.accesses[0].describe(),
            "argument 2: read and written [8*i, 8*i + 8)"
        );
        assert_eq!(
            t.encode(),
            vec![VERSION, 1, 1, 1, 1, READ | WRITE, 8, 1, 8, 1, FACTOR_VAR]
        );
        t.add(Access {
            param: 1,
            read: true,
            write: false,
            size: 4,
            offset: Offset::Whole("x".into()),
        });
        assert_eq!(t.accesses.len(), 1);
        assert_eq!(t.encode()[3..], [1, 1, READ | WRITE | WHOLE, 4]);
        // x[i+1], x[i-1], x[i]: one range
        let mut t = Table {
            vars: vec![Var::Iter],
            accesses: Vec::new(),
        };
        for c in [8, -8, 0] {
            let p = i.scale(8).unwrap().add(&Poly::constant(c)).unwrap();
            t.add(Access {
                param: 0,
                read: true,
                write: false,
                size: 8,
                offset: Offset::At(p),
            });
        }
        assert_eq!(t.accesses.len(), 1);
        assert_eq!(
            t.accesses[0].describe(),
            "argument 1: read [8*i - 8, 8*i + 16)"
        );
    }
}

//! The access table of a split kernel: what the analysis found (`Table`, over the analysis'
//! own polynomials), and its encoding as the `i64` words the host registration embeds
//! (`ptxrt_kernel_desc::accesses`), which ptx-runtime's `split/ranges.rs` decodes: the format
//! (its layout, encoder and decoder) is `ptxcc_abi::access_table`, shared with the runtime;
//! `encode` hands it the table in its terms.

use super::poly::{Atom, Poly};

use ptxcc_abi::access_table as abi;

/// A variable the offsets range over, its bounds the analysis' polynomials (the format's
/// variable kinds: `ptxcc_abi::access_table::Var`).
pub type Var = abi::Var<Poly>;

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
    /// Values the kernel computes `bits` wide that the offsets read as the polynomial
    /// (`ptxcc_abi::access_table::Guard`): the runtime checks each stays in its signed range.
    pub guards: Vec<(u32, Poly)>,
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

    /// The words of `ptxrt_kernel_desc::accesses`.
    pub fn encode(&self) -> Vec<i64> {
        self.to_abi().encode()
    }

    /// The table in the terms of the format the runtime reads.
    pub fn to_abi(&self) -> abi::Table {
        abi::Table {
            vars: self.vars.iter().map(|v| v.map(poly_to_abi)).collect(),
            accesses: self
                .accesses
                .iter()
                .map(|a| abi::Access {
                    param: a.param,
                    read: a.read,
                    write: a.write,
                    size: a.size,
                    offset: match &a.offset {
                        Offset::At(p) => Some(poly_to_abi(p)),
                        Offset::Whole(_) => None,
                    },
                })
                .collect(),
            guards: self
                .guards
                .iter()
                .map(|(bits, p)| abi::Guard {
                    bits: *bits,
                    poly: poly_to_abi(p),
                })
                .collect(),
        }
    }
}

fn poly_to_abi(p: &Poly) -> abi::Poly {
    abi::Poly {
        terms: p
            .terms
            .iter()
            .map(|(m, &coef)| abi::Term {
                coef,
                factors: m
                    .iter()
                    .map(|a| match *a {
                        Atom::Param { index, bits } => abi::Factor::Param { index, bits },
                        Atom::ParamMasked { index, bits } => {
                            abi::Factor::ParamMasked { index, bits }
                        }
                        Atom::Var(v) => abi::Factor::Var(v),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// How -fptxcc-info shows a variable of the table.
pub fn describe_var(v: &Var) -> String {
    match v {
        Var::Iter => "the loop's iteration".to_string(),
        Var::Div(d) => format!("i / ({d})"),
        Var::Rem(d) => format!("i % ({d})"),
        Var::Loop { first, last } => format!("{first} .. {last}"),
        Var::DivOf { var, d } => format!("v{var} / ({d})"),
        Var::RemOf { var, d } => format!("v{var} % ({d})"),
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
            guards: Vec::new(),
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
        let read_written_at = |size, p: Option<abi::Poly>| abi::Access {
            param: 1,
            read: true,
            write: true,
            size,
            offset: p,
        };
        let eight_i = abi::Poly {
            terms: vec![abi::Term {
                coef: 8,
                factors: vec![abi::Factor::Var(0)],
            }],
        };
        assert_eq!(t.to_abi().accesses, [read_written_at(8, Some(eight_i))]);
        t.add(Access {
            param: 1,
            read: true,
            write: false,
            size: 4,
            offset: Offset::Whole("x".into()),
        });
        assert_eq!(t.accesses.len(), 1);
        assert_eq!(t.to_abi().accesses, [read_written_at(4, None)]);
        // x[i+1], x[i-1], x[i]: one range
        let mut t = Table {
            vars: vec![Var::Iter],
            accesses: Vec::new(),
            guards: Vec::new(),
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

//! Polynomials over a split kernel's scalar arguments and loop variables: what the access-range
//! analysis expresses byte offsets, loop bounds and divisors in.
//!
//! ```text
//! 8*a1*v0 + 8*v1 - 8      a1: the kernel's scalar argument 1 (as the 32-bit int it was cut to)
//!                         v0: the split loop's normalised iteration, v1: an inner loop's variable
//! ```
//!
//! Every monomial has at most one variable (`Atom::Var`) of degree one: an offset is affine in
//! the variables, its coefficients products of arguments. A product that would break that is
//! refused (`None`), and the access falls back to the whole mapped section.
use std::collections::BTreeMap;
use std::fmt;

/// One factor of a monomial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Atom {
    /// Kernel parameter `index` (a by-value scalar), its low `bits` bits sign-extended.
    Param { index: u32, bits: u32 },
    /// Variable `index` of the kernel's variable table (`table::Var`).
    Var(u32),
    /// Kernel parameter `index`, its low `bits` bits zero-extended: `arg & (2^bits - 1)`.
    ParamMasked { index: u32, bits: u32 },
}

/// Monomials with more factors than this are not kept (none of the forms the analysis meets
/// needs them).
const MAX_FACTORS: usize = 4;

/// A sum of `coefficient × product of atoms`; the empty product is the constant term.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Poly {
    pub terms: BTreeMap<Vec<Atom>, i64>,
}

impl Poly {
    pub fn constant(c: i64) -> Poly {
        let mut p = Poly::default();
        if c != 0 {
            p.terms.insert(Vec::new(), c);
        }
        p
    }

    pub fn atom(a: Atom) -> Poly {
        let mut p = Poly::default();
        p.terms.insert(vec![a], 1);
        p
    }

    /// The constant, when the polynomial is one.
    pub fn as_constant(&self) -> Option<i64> {
        match self.terms.len() {
            0 => Some(0),
            1 => self.terms.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    /// Whether the polynomial is exactly `1 × a`.
    pub fn is_atom(&self, a: Atom) -> bool {
        self.terms.len() == 1 && self.terms.get(&vec![a]) == Some(&1)
    }

    /// Whether any term has a variable.
    pub fn has_var(&self) -> bool {
        self.terms
            .keys()
            .any(|m| m.iter().any(|a| matches!(a, Atom::Var(_))))
    }

    pub fn add(&self, o: &Poly) -> Option<Poly> {
        let mut r = self.clone();
        for (m, &c) in &o.terms {
            let e = r.terms.entry(m.clone()).or_insert(0);
            *e = e.checked_add(c)?;
            if *e == 0 {
                r.terms.remove(m);
            }
        }
        Some(r)
    }

    pub fn scale(&self, k: i64) -> Option<Poly> {
        let mut r = Poly::default();
        if k == 0 {
            return Some(r);
        }
        for (m, &c) in &self.terms {
            r.terms.insert(m.clone(), c.checked_mul(k)?);
        }
        Some(r)
    }

    pub fn sub(&self, o: &Poly) -> Option<Poly> {
        self.add(&o.scale(-1)?)
    }

    /// The polynomial as a `bits`-bit integer computes it (what `trunc` leaves): every
    /// coefficient taken into the signed `bits`-bit range, every argument read `bits` wide at
    /// most. Congruent modulo 2^bits; like the rest of the analysis it assumes the program's
    /// `bits`-bit arithmetic does not overflow. `(m + 4294967294) * q` cut to 32 bits is
    /// `(m - 2) * q`: clang's form of a collapsed loop's divisor in the remainder `it - q*d`.
    pub fn narrowed(&self, bits: u32) -> Option<Poly> {
        if bits == 0 || bits >= 64 {
            return Some(self.clone());
        }
        let modulus = 1i128 << bits;
        let half = modulus / 2;
        let mut r = Poly::default();
        for (m, &c) in &self.terms {
            let mut c = (c as i128).rem_euclid(modulus);
            if c >= half {
                c -= modulus;
            }
            if c == 0 {
                continue;
            }
            let mut m: Vec<Atom> = m
                .iter()
                .map(|a| match *a {
                    Atom::Param { index, bits: b } => Atom::Param {
                        index,
                        bits: b.min(bits),
                    },
                    // Below 2^b: the same value in a wider signed range; else its low bits.
                    Atom::ParamMasked { index, bits: b } if b >= bits => {
                        Atom::Param { index, bits }
                    }
                    v => v,
                })
                .collect();
            m.sort();
            let e = r.terms.entry(m.clone()).or_insert(0);
            *e = e.checked_add(c as i64)?;
            if *e == 0 {
                r.terms.remove(&m);
            }
        }
        Some(r)
    }

    /// The product, or None when a monomial would have two variables (not affine) or too
    /// many factors.
    pub fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut r = Poly::default();
        for (m1, &c1) in &self.terms {
            for (m2, &c2) in &o.terms {
                let mut m: Vec<Atom> = m1.iter().chain(m2).copied().collect();
                m.sort();
                if m.iter().filter(|a| matches!(a, Atom::Var(_))).count() > 1
                    || m.len() > MAX_FACTORS
                {
                    return None;
                }
                let c = c1.checked_mul(c2)?;
                let e = r.terms.entry(m.clone()).or_insert(0);
                *e = e.checked_add(c)?;
                if *e == 0 {
                    r.terms.remove(&m);
                }
            }
        }
        Some(r)
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Atom::Param { index, .. } | Atom::ParamMasked { index, .. } => {
                write!(f, "arg{}", index + 1)
            }
            Atom::Var(0) => write!(f, "i"),
            Atom::Var(v) => write!(f, "v{v}"),
        }
    }
}

impl fmt::Display for Poly {
    /// `8*i + 16`, `8*arg1*i`, `0`: constant last, terms in a fixed order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut constant = 0;
        for (m, &c) in &self.terms {
            if m.is_empty() {
                constant = c;
                continue;
            }
            let factors: Vec<String> = m.iter().map(|a| a.to_string()).collect();
            let body = factors.join("*");
            let (sign, mag) = if c < 0 {
                ("-", c.unsigned_abs())
            } else {
                ("+", c as u64)
            };
            if first {
                if c < 0 {
                    write!(f, "-")?;
                }
            } else {
                write!(f, " {sign} ")?;
            }
            if mag == 1 {
                write!(f, "{body}")?;
            } else {
                write!(f, "{mag}*{body}")?;
            }
            first = false;
        }
        if first {
            write!(f, "{constant}")
        } else if constant > 0 {
            write!(f, " + {constant}")
        } else if constant < 0 {
            write!(f, " - {}", constant.unsigned_abs())
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const I: Atom = Atom::Var(0);
    const N: Atom = Atom::Param { index: 0, bits: 32 };

    #[test]
    fn affine_products() {
        let i = Poly::atom(I);
        let n = Poly::atom(N);
        let row = i.mul(&n).unwrap().add(&Poly::constant(-1)).unwrap();
        assert_eq!(row.scale(8).unwrap().to_string(), "8*arg1*i - 8");
        // i*i is not affine
        assert!(i.mul(&i).is_none());
        // (i/n)*n - i*... cancels to nothing
        assert_eq!(row.sub(&row).unwrap(), Poly::constant(0));
        assert_eq!(Poly::constant(0).to_string(), "0");
        assert!(row.has_var() && !n.has_var());
    }

    #[test]
    fn narrowed_is_the_value_cut_to_fewer_bits() {
        let wide = Atom::Param { index: 0, bits: 64 };
        let q = Poly::atom(Atom::Var(1));
        // (m + 2^32 - 2) * q, cut to 32 bits: (m - 2) * q with m read as an int
        let d = Poly::atom(wide).add(&Poly::constant(4294967294)).unwrap();
        let cut = d.mul(&q).unwrap().narrowed(32).unwrap();
        let want = Poly::atom(N)
            .add(&Poly::constant(-2))
            .unwrap()
            .mul(&q)
            .unwrap();
        assert_eq!(cut, want);
        // Terms that vanish modulo 2^32 go; 64 bits change nothing.
        let gone = Poly::constant(1 << 32).add(&q).unwrap();
        assert_eq!(gone.narrowed(32).unwrap(), q);
        assert_eq!(d.narrowed(64).unwrap(), d);
        // -1 stays -1, 2^31 becomes -2^31.
        assert_eq!(Poly::constant(-1).narrowed(32).unwrap(), Poly::constant(-1));
        assert_eq!(
            Poly::constant(1 << 31).narrowed(32).unwrap(),
            Poly::constant(-(1 << 31))
        );
        // A masked argument below 2^31 is the same value in 32 bits; cut to 16 bits, only its
        // low bits are left, sign-extended.
        let masked = Poly::atom(Atom::ParamMasked { index: 0, bits: 31 });
        assert_eq!(masked.narrowed(32).unwrap(), masked);
        assert_eq!(
            masked.narrowed(16).unwrap(),
            Poly::atom(Atom::Param { index: 0, bits: 16 })
        );
    }
}

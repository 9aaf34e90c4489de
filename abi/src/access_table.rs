//! A kernel's access table: for each pointer argument, the byte offsets its loop reads and
//! writes, as polynomials over the loop's variables and the kernel's by-value arguments. The
//! passes' `access-ranges` analysis builds it and [`Table::encode`]s it into the `i64` words the
//! host registration embeds (`ptxrt_kernel_desc::accesses`); libptxrt [`Table::decode`]s them
//! once at registration and evaluates them for each part of a split loop (`split/ranges.rs`).
//!
//! ```text
//! table  := VERSION nvars naccesses var* access* guards?
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
//!         | 3<<40 | bits<<20 | param      a by-value argument, low `bits` bits zero-extended
//!                                          (`arg & (2^bits - 1)`; version 3)
//! guards := nguards (bits poly)*          version 3: values the kernel computes `bits` wide
//! ```
//!
//! An access at offset `poly` from its pointer argument touches `[poly, poly + size)` bytes for
//! every value of the variables in their ranges.
//!
//! A guard is a value the kernel computes in `bits`-bit integers (an `int` subscript, a
//! truncation) that the offsets take as the polynomial's exact value. They are equal only while
//! the polynomial stays in the signed `bits`-bit range; the runtime checks that over each part,
//! and where a guard may leave its range, every access of the table is the whole section.

/// Version 2 added variables of kinds 5 and 6, version 3 the masked argument factor and the
/// guards; [`Table::decode`] reads versions 1 to 3. [`Table::encode`] writes version 2 unless
/// the table has a masked argument or a guard, so that a runtime that reads 2 still reads
/// every other table.
pub const VERSION: i64 = 3;
const VERSION_UNMASKED: i64 = 2;
const READ: i64 = 1;
const WRITE: i64 = 2;
const WHOLE: i64 = 4;
const FACTOR_PARAM: i64 = 1;
const FACTOR_VAR: i64 = 2;
const FACTOR_PARAM_MASKED: i64 = 3;
const FACTOR_SHIFT: u32 = 40;

/// One factor of a term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Factor {
    /// A by-value argument of the kernel, its low `bits` bits sign-extended.
    Param { index: u32, bits: u32 },
    /// A variable of the table.
    Var(u32),
    /// A by-value argument of the kernel, its low `bits` bits zero-extended: `arg & (2^bits - 1)`
    /// (instcombine's mask on an `int` argument it knows is not negative).
    ParamMasked { index: u32, bits: u32 },
}

impl Factor {
    /// The factor's value for the kernel's arguments `args` (each as its 64 bits), or None for
    /// an argument index past them.
    pub fn param_value(&self, args: &[u64]) -> Option<i128> {
        match *self {
            Factor::Param { index, bits } => {
                let shift = 64 - bits.clamp(1, 64);
                Some((((*args.get(index as usize)? << shift) as i64) >> shift) as i128)
            }
            Factor::ParamMasked { index, bits } => {
                let raw = *args.get(index as usize)?;
                Some(if bits >= 64 {
                    raw as i64 as i128
                } else {
                    (raw & ((1u64 << bits) - 1)) as i128
                })
            }
            Factor::Var(_) => None,
        }
    }
}

/// `coef` times the product of `factors`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub coef: i64,
    pub factors: Vec<Factor>,
}

/// A sum of terms.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Poly {
    pub terms: Vec<Term>,
}

/// A variable the offsets range over; `P` is the polynomial of its bounds (the passes' analysis
/// builds the table over its own polynomials and maps them to [`Poly`] with [`Var::map`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Var<P = Poly> {
    /// The split loop's normalised iteration (always variable 0).
    Iter,
    /// `iteration / d` (a collapsed loop's outer index).
    Div(P),
    /// `iteration % d` (a collapsed loop's inner index).
    Rem(P),
    /// An inner loop's variable from `first` to `last`.
    Loop { first: P, last: P },
    /// `v / d`, `v` an earlier variable of the Div/Rem family (never negative): the middle index
    /// of a `collapse(3)` loop, `(i % (nj*nk)) / nk`.
    DivOf { var: u32, d: P },
    /// `v % d`, likewise.
    RemOf { var: u32, d: P },
}

impl<P> Var<P> {
    /// A quotient or remainder of the iteration or of another such variable (kinds 2, 3, 5, 6),
    /// which kinds 5 and 6 may take apart again.
    pub fn is_quotient_family(&self) -> bool {
        matches!(
            self,
            Var::Div(_) | Var::Rem(_) | Var::DivOf { .. } | Var::RemOf { .. }
        )
    }

    /// Is the variable never negative (the iteration, and quotients and remainders of it by
    /// positive divisors, which the runtime checks)?
    pub fn non_negative(&self) -> bool {
        !matches!(self, Var::Loop { .. })
    }

    /// The same variable with its polynomials mapped by `f`.
    pub fn map<Q>(&self, f: impl Fn(&P) -> Q) -> Var<Q> {
        match self {
            Var::Iter => Var::Iter,
            Var::Div(d) => Var::Div(f(d)),
            Var::Rem(d) => Var::Rem(f(d)),
            Var::Loop { first, last } => Var::Loop {
                first: f(first),
                last: f(last),
            },
            Var::DivOf { var, d } => Var::DivOf { var: *var, d: f(d) },
            Var::RemOf { var, d } => Var::RemOf { var: *var, d: f(d) },
        }
    }
}

/// One access of a pointer argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The kernel parameter's index.
    pub param: u32,
    pub read: bool,
    pub write: bool,
    pub size: u64,
    /// Bytes `[offset, offset + size)` from the pointer; None: anywhere in the mapped section.
    pub offset: Option<Poly>,
}

/// A value the kernel computes `bits` wide, which the table's offsets read as `poly`: they are
/// right only while `poly` lies in `[-2^(bits-1), 2^(bits-1))`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    pub bits: u32,
    pub poly: Poly,
}

/// A kernel's access table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub vars: Vec<Var>,
    pub accesses: Vec<Access>,
    pub guards: Vec<Guard>,
}

impl Table {
    /// The words of `ptxrt_kernel_desc::accesses`.
    pub fn encode(&self) -> Vec<i64> {
        let version = if self.has_masked_param() || !self.guards.is_empty() {
            VERSION
        } else {
            VERSION_UNMASKED
        };
        let mut w = vec![version, self.vars.len() as i64, self.accesses.len() as i64];
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
                | if a.offset.is_none() { WHOLE } else { 0 };
            w.extend([a.param as i64, flags, a.size as i64]);
            if let Some(p) = &a.offset {
                encode_poly(p, &mut w);
            }
        }
        if version >= 3 {
            w.push(self.guards.len() as i64);
            for g in &self.guards {
                w.push(g.bits as i64);
                encode_poly(&g.poly, &mut w);
            }
        }
        w
    }

    /// Whether a polynomial of the table has a [`Factor::ParamMasked`] (version 3).
    fn has_masked_param(&self) -> bool {
        let masked = |p: &Poly| {
            p.terms
                .iter()
                .flat_map(|t| &t.factors)
                .any(|f| matches!(f, Factor::ParamMasked { .. }))
        };
        self.vars.iter().any(|v| match v {
            Var::Iter => false,
            Var::Div(d) | Var::Rem(d) | Var::DivOf { d, .. } | Var::RemOf { d, .. } => masked(d),
            Var::Loop { first, last } => masked(first) || masked(last),
        }) || self.accesses.iter().flat_map(|a| &a.offset).any(masked)
            || self.guards.iter().any(|g| masked(&g.poly))
    }

    /// Decodes the words of `ptxrt_kernel_desc::accesses`; the error says what is wrong with
    /// them.
    pub fn decode(words: &[i64]) -> Result<Table, String> {
        let mut r = Reader {
            words,
            at: 0,
            version: 0,
        };
        let version = r.next()?;
        r.version = version;
        if !(1..=VERSION).contains(&version) {
            return Err(format!(
                "version {version}, this runtime reads versions 1 to {VERSION}"
            ));
        }
        let nvars = r.count("variable")?;
        let naccesses = r.count("access")?;
        let mut vars: Vec<Var> = Vec::with_capacity(nvars);
        for _ in 0..nvars {
            vars.push(match r.next()? {
                1 => Var::Iter,
                2 => Var::Div(r.poly(nvars)?),
                3 => Var::Rem(r.poly(nvars)?),
                4 => Var::Loop {
                    first: r.poly(nvars)?,
                    last: r.poly(nvars)?,
                },
                k @ (5 | 6) => {
                    let var = r.next()?;
                    // A quotient or remainder of an earlier quotient or remainder.
                    let ok = usize::try_from(var)
                        .ok()
                        .and_then(|v| vars.get(v))
                        .is_some_and(Var::is_quotient_family);
                    if !ok {
                        return Err(format!("a variable of kind {k} over variable {var}"));
                    }
                    let (var, d) = (var as u32, r.poly(nvars)?);
                    if k == 5 {
                        Var::DivOf { var, d }
                    } else {
                        Var::RemOf { var, d }
                    }
                }
                k => return Err(format!("a variable of unknown kind {k}")),
            });
        }
        let mut accesses = Vec::with_capacity(naccesses);
        for _ in 0..naccesses {
            let param = u32::try_from(r.next()?).map_err(|_| "a negative argument index")?;
            let flags = r.next()?;
            let size = u64::try_from(r.next()?).map_err(|_| "a negative access size")?;
            let offset = if flags & WHOLE != 0 {
                None
            } else {
                Some(r.poly(nvars)?)
            };
            accesses.push(Access {
                param,
                read: flags & READ != 0,
                write: flags & WRITE != 0,
                size,
                offset,
            });
        }
        let mut guards = Vec::new();
        if version >= 3 {
            for _ in 0..r.count("guard")? {
                let bits = r.next()?;
                if !(1..=64).contains(&bits) {
                    return Err(format!("a guard of {bits} bits"));
                }
                guards.push(Guard {
                    bits: bits as u32,
                    poly: r.poly(nvars)?,
                });
            }
        }
        if r.at != words.len() {
            return Err(format!("{} words left over", words.len() - r.at));
        }
        Ok(Table {
            vars,
            accesses,
            guards,
        })
    }
}

fn encode_poly(p: &Poly, w: &mut Vec<i64>) {
    w.push(p.terms.len() as i64);
    for t in &p.terms {
        w.push(t.coef);
        w.push(t.factors.len() as i64);
        for f in &t.factors {
            w.push(match *f {
                Factor::Param { index, bits } => {
                    FACTOR_PARAM << FACTOR_SHIFT | (bits as i64) << 20 | index as i64
                }
                Factor::Var(v) => FACTOR_VAR << FACTOR_SHIFT | v as i64,
                Factor::ParamMasked { index, bits } => {
                    FACTOR_PARAM_MASKED << FACTOR_SHIFT | (bits as i64) << 20 | index as i64
                }
            });
        }
    }
}

struct Reader<'a> {
    words: &'a [i64],
    at: usize,
    version: i64,
}

impl Reader<'_> {
    fn next(&mut self) -> Result<i64, String> {
        let w = *self
            .words
            .get(self.at)
            .ok_or_else(|| format!("it ends early, at word {}", self.at))?;
        self.at += 1;
        Ok(w)
    }

    fn count(&mut self, what: &str) -> Result<usize, String> {
        let n = self.next()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.words.len())
            .ok_or_else(|| format!("a {what} count of {n}"))
    }

    fn poly(&mut self, nvars: usize) -> Result<Poly, String> {
        let n = self.count("term")?;
        let mut terms = Vec::with_capacity(n);
        for _ in 0..n {
            let coef = self.next()?;
            let nf = self.count("factor")?;
            let mut factors = Vec::with_capacity(nf);
            for _ in 0..nf {
                let w = self.next()?;
                factors.push(match w >> FACTOR_SHIFT {
                    kind @ (FACTOR_PARAM | FACTOR_PARAM_MASKED) => {
                        let bits = ((w >> 20) & 0xfffff) as u32;
                        if !(1..=64).contains(&bits) {
                            return Err(format!("an argument of {bits} bits"));
                        }
                        let index = (w & 0xfffff) as u32;
                        if kind == FACTOR_PARAM {
                            Factor::Param { index, bits }
                        } else if self.version >= 3 {
                            Factor::ParamMasked { index, bits }
                        } else {
                            return Err(format!(
                                "a masked argument in a table of version {}",
                                self.version
                            ));
                        }
                    }
                    FACTOR_VAR if ((w & 0xffff_ffff) as usize) < nvars.max(1) => {
                        Factor::Var((w & 0xffff_ffff) as u32)
                    }
                    _ => return Err(format!("an unknown factor {w:#x}")),
                });
            }
            terms.push(Term { coef, factors });
        }
        Ok(Poly { terms })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(coef: i64, factors: &[Factor]) -> Term {
        Term {
            coef,
            factors: factors.to_vec(),
        }
    }

    /// A collapse(3) table: i, i / (n*m) over argument 0's 32 bits, its remainder by m, and two
    /// accesses (one whole).
    fn sample() -> Table {
        let n = Factor::Param { index: 0, bits: 32 };
        let d = Poly {
            terms: vec![term(4, &[n])],
        };
        Table {
            vars: vec![
                Var::Iter,
                Var::Rem(d.clone()),
                Var::DivOf {
                    var: 1,
                    d: d.clone(),
                },
                Var::RemOf { var: 1, d },
                Var::Loop {
                    first: Poly::default(),
                    last: Poly {
                        terms: vec![term(-1, &[]), term(1, &[n])],
                    },
                },
            ],
            accesses: vec![
                Access {
                    param: 1,
                    read: true,
                    write: false,
                    size: 8,
                    offset: Some(Poly {
                        terms: vec![term(8, &[Factor::Var(0)]), term(-8, &[])],
                    }),
                },
                Access {
                    param: 2,
                    read: true,
                    write: true,
                    size: 4,
                    offset: None,
                },
            ],
            guards: Vec::new(),
        }
    }

    #[test]
    fn a_table_round_trips() {
        let t = sample();
        assert_eq!(Table::decode(&t.encode()), Ok(t));
    }

    #[test]
    fn the_words_are_the_documented_layout() {
        let t = Table {
            vars: vec![Var::Iter],
            accesses: vec![Access {
                param: 1,
                read: true,
                write: true,
                size: 4,
                offset: None,
            }],
            guards: Vec::new(),
        };
        assert_eq!(
            t.encode(),
            [VERSION_UNMASKED, 1, 1, 1, 1, READ | WRITE | WHOLE, 4]
        );
        let p = Poly {
            terms: vec![term(
                8,
                &[Factor::Param { index: 3, bits: 32 }, Factor::Var(0)],
            )],
        };
        let mut w = Vec::new();
        encode_poly(&p, &mut w);
        assert_eq!(w, [1, 8, 2, 1 << 40 | 32 << 20 | 3, 2 << 40]);
    }

    #[test]
    fn version_1_tables_still_decode() {
        let mut w = Table {
            vars: vec![Var::Iter],
            accesses: Vec::new(),
            guards: Vec::new(),
        }
        .encode();
        w[0] = 1;
        assert!(Table::decode(&w).is_ok());
    }

    #[test]
    fn malformed_words_are_errors_not_panics() {
        let good = sample().encode();
        for cut in 0..good.len() {
            assert!(Table::decode(&good[..cut]).is_err(), "cut at {cut}");
        }
        let mut bad = good.clone();
        bad.push(0);
        assert_eq!(Table::decode(&bad), Err("1 words left over".into()));
        assert!(Table::decode(&[4, 0, 0]).unwrap_err().contains("version 4"));
        // A masked argument needs version 3.
        let masked = [2, 1, 1, 1, 0, 1, 8, 1, 1, 1, 3 << 40 | 31 << 20];
        assert!(Table::decode(&masked).unwrap_err().contains("masked"));
        // A kind-5 variable over the iteration itself.
        assert!(Table::decode(&[2, 2, 0, 1, 5, 0, 0]).is_err());
        // A factor naming a variable that does not exist.
        assert!(Table::decode(&[2, 1, 1, 1, 0, 1, 8, 1, 1, 1, 2 << 40 | 5]).is_err());
    }

    #[test]
    fn a_masked_argument_is_version_3_and_its_low_bits_zero_extended() {
        let m = Factor::ParamMasked { index: 0, bits: 31 };
        let mut t = sample();
        t.accesses[0].offset = Some(Poly {
            terms: vec![term(4, &[m, Factor::Var(0)])],
        });
        let w = t.encode();
        assert_eq!(w[0], 3);
        assert_eq!(Table::decode(&w), Ok(t));
        // Without one, the table stays version 2.
        assert_eq!(sample().encode()[0], 2);
        // arg & 0x7fffffff: bit 31 (and the high word) dropped, never negative.
        let args = [0xffff_ffff_8000_0005u64];
        assert_eq!(m.param_value(&args), Some(5));
        let s = Factor::Param { index: 0, bits: 32 };
        assert_eq!(s.param_value(&args), Some(-(1i128 << 31) + 5));
        assert_eq!(m.param_value(&[]), None);
        assert_eq!(Factor::Var(0).param_value(&args), None);
    }

    #[test]
    fn guards_are_version_3_and_round_trip() {
        let mut t = sample();
        t.guards.push(Guard {
            bits: 32,
            poly: Poly {
                terms: vec![term(3, &[Factor::Var(0)]), term(-1, &[])],
            },
        });
        let w = t.encode();
        assert_eq!(w[0], 3);
        // One guard: 32 bits, 2 terms (3 * v0, -1).
        assert_eq!(w[w.len() - 8..], [1, 32, 2, 3, 1, 2 << 40, -1, 0]);
        assert_eq!(Table::decode(&w), Ok(t.clone()));
        for cut in 0..w.len() {
            assert!(Table::decode(&w[..cut]).is_err(), "cut at {cut}");
        }
        // A guard of 0 bits is malformed.
        let mut bad = w.clone();
        let at = w.len() - 7;
        bad[at] = 0;
        assert!(Table::decode(&bad).unwrap_err().contains("guard of 0 bits"));
    }
}

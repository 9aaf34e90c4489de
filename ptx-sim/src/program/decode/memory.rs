//! Decoding of loads, stores and atomics.

use super::*;

impl FunctionDecoder<'_> {
    /// The instruction if it is one of this family's (None: another family's).
    pub(super) fn memory(&mut self, c: &InstCtx) -> R<Option<Op>> {
        let (i, m, ops, line, mnemonic) = (c.i, &c.m, c.ops, c.line, c.mnemonic);
        let need = |n: usize| c.need(n);
        let ty = || c.ty();
        Ok(Some(match mnemonic {
            "ld" | "ldu" => {
                need(2)?;
                let ty = ty()?;
                let space = m.space().unwrap_or(MemSpace::Generic);
                let n = m.vector();
                let mut ds = [None; 4];
                match &ops[0] {
                    Operand::Vector(v) => {
                        if v.len() != n as usize {
                            return err(line, "vector load with a destination of the wrong size");
                        }
                        for (k, d) in v.iter().enumerate() {
                            ds[k] = self.opt_dst(d)?;
                        }
                    }
                    d if n > 1 => {
                        let r = self.vector_operand(d, n as usize)?;
                        for (k, x) in ds.iter_mut().take(n as usize).enumerate() {
                            *x = Some(r + k as Reg);
                        }
                    }
                    d => ds[0] = Some(self.dst(d)?),
                }
                Op::Ld {
                    space,
                    ty,
                    n,
                    volatile: m.has("volatile") || m.has("relaxed") || m.has("acquire"),
                    ds,
                    addr: self.addr(&ops[1], space)?,
                }
            }
            "st" => {
                need(2)?;
                let ty = ty()?;
                let space = m.space().unwrap_or(MemSpace::Generic);
                let n = m.vector();
                let zero = self.constant(0)?;
                let mut srcs = [zero; 4];
                match &ops[1] {
                    Operand::Vector(v) => {
                        if v.len() != n as usize {
                            return err(line, "vector store with a source of the wrong size");
                        }
                        for (k, s) in v.iter().enumerate() {
                            srcs[k] = self.src(s, ty)?;
                        }
                    }
                    s if n > 1 => {
                        let r = self.vector_operand(s, n as usize)?;
                        for (k, x) in srcs.iter_mut().take(n as usize).enumerate() {
                            *x = r + k as Reg;
                        }
                    }
                    s => srcs[0] = self.src(s, ty)?,
                }
                Op::St {
                    space,
                    ty,
                    n,
                    volatile: m.has("volatile") || m.has("relaxed") || m.has("release"),
                    srcs,
                    addr: self.addr(&ops[0], space)?,
                }
            }
            "atom" | "red" => {
                let ty = ty()?;
                let space = m.space().unwrap_or(MemSpace::Generic);
                let op = c.required("operation", AtomOp::parse)?;
                if ty.bits() < 32 {
                    return err(
                        line,
                        format!("'{}': sub-word atomics are not supported", i.opcode),
                    );
                }
                let (d, rest) = if mnemonic == "atom" {
                    need(3)?;
                    (Some(self.dst(&ops[0])?), &ops[1..])
                } else {
                    need(2)?;
                    (None, ops)
                };
                let addr = self.addr(&rest[0], space)?;
                let a = self.src(&rest[1], ty)?;
                let b = if op == AtomOp::Cas {
                    match rest.get(2) {
                        Some(o) => self.src(o, ty)?,
                        None => return err(line, "atom.cas needs a new value"),
                    }
                } else {
                    self.constant(0)?
                };
                Op::Atom {
                    space,
                    op,
                    ty,
                    d,
                    addr,
                    a,
                    b,
                }
            }
            _ => return Ok(None),
        }))
    }
}

//! Narrow integers in subscripts: C's `int` arithmetic as clang leaves it (32-bit values,
//! `int` bounds passed in 64 bits: masked, sign-extended by `ashr (shl x, 32), 32`, truncated
//! back). A truncation is read modulo 2^bits as it is computed, a mask `arg & (2^k - 1)` as the
//! argument's low k bits ([`Atom::ParamMasked`]), and every value held narrower than 64 bits
//! that may have wrapped becomes a guard the runtime checks (`ptxcc_abi::access_table::Guard`).
//!
//! ```llvm
//! %m2 = ashr exact i64 (add nsw (shl i64 %m, 32), -8589934592), 32   ; (long)(m - 2): m - 2
//! %k  = trunc i64 (sub i64 %it, (mul i64 %q, (add i64 %l, 4294967294))) to i32
//!                                                 ; it - q*(l - 2), guarded to fit in 32 bits
//! %x  = add i32 %row, %k                          ; no nsw: guarded
//! ```

use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

use super::{Analysis, ITER};
use crate::access_ranges::poly::{Atom, Poly};
use crate::ir;

impl Analysis {
    /// An add, sub, mul or shl narrower than 64 bits without `nsw` (instcombine drops it when
    /// it reassociates `(x + (k + 1)) - 1`; C's `unsigned` never has it) holds its polynomial
    /// only while that stays in the signed range: a guard the runtime checks. With `nsw` the
    /// program has no overflow there (it would be poison).
    pub(super) fn narrow_arithmetic(&mut self, v: LLVMValueRef, p: &Poly) {
        unsafe {
            if llvm::LLVMIsAInstruction(v).is_null() {
                return;
            }
            let arith = matches!(
                llvm::LLVMGetInstructionOpcode(v),
                LLVMOpcode::LLVMAdd
                    | LLVMOpcode::LLVMSub
                    | LLVMOpcode::LLVMMul
                    | LLVMOpcode::LLVMShl
            );
            let ty = llvm::LLVMTypeOf(v);
            if arith
                && llvm::LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMIntegerTypeKind
                && llvm::LLVMGetNSW(v) == 0
            {
                self.guard(llvm::LLVMGetIntTypeWidth(ty), p);
            }
        }
    }

    /// What `v` cut to `bits` bits computes: its polynomial with coefficients and arguments
    /// read that wide ([`Poly::narrowed`]), then the collapsed loops' remainders found again
    /// (clang computes `it - q*d` in 64 bits with `d` as a 64-bit constant plus the argument).
    pub(super) fn truncated(&mut self, v: LLVMValueRef, bits: u32) -> Option<Poly> {
        let p = self.low_bits_poly(v, bits)?;
        self.held_narrow(p, bits)
    }

    /// A value the kernel holds `bits` wide whose low bits `p` computes: `p` narrowed to that
    /// width, the collapsed loops' remainders found again, and guarded.
    pub(super) fn held_narrow(&mut self, p: Poly, bits: u32) -> Option<Poly> {
        let p = self.remainders(p.narrowed(bits)?);
        self.guard(bits, &p);
        Some(p)
    }

    /// Records that the kernel holds `p` in a `bits`-bit integer: the table's offsets are right
    /// only while `p` stays in the signed `bits`-bit range, which the runtime checks for each
    /// part (`ptxcc_abi::access_table::Guard`). Values that always fit are not recorded: a
    /// constant in range, an argument read at most `bits` wide.
    pub(super) fn guard(&mut self, bits: u32, p: &Poly) {
        if bits >= 64 || self.table.guards.iter().any(|(b, q)| *b == bits && q == p) {
            return;
        }
        // The split loop's iteration, when its static-init is the signed 32-bit one (an `int`
        // loop): it never leaves the `int` range.
        if bits >= 32 && p.is_atom(ITER) && self.split_loop_is_int() {
            return;
        }
        let half = 1i64 << (bits - 1);
        if let Some(c) = p.as_constant() {
            if (-half..half).contains(&c) {
                return;
            }
        }
        if let Some((m, 1)) = p.terms.iter().next().filter(|_| p.terms.len() == 1) {
            match m.as_slice() {
                [Atom::Param { bits: b, .. }] if *b <= bits => return,
                [Atom::ParamMasked { bits: b, .. }] if *b < bits => return,
                _ => {}
            }
        }
        self.table.guards.push((bits, p.clone()));
    }

    /// `v`'s low `bits` bits as a polynomial, computed modulo 2^bits through the operations
    /// whose low bits depend only on their operands' low bits (add, sub, mul, shl): clang's
    /// `(m + 4294967294) * (l + 4294967294)` of two `int` trip counts passed in 64 bits
    /// overflows an i64 coefficient when multiplied out whole, not when narrowed as it goes.
    pub(super) fn low_bits_poly(&mut self, v: LLVMValueRef, bits: u32) -> Option<Poly> {
        if bits >= 64 {
            return self.affine(v);
        }
        let v = self.low_bits(v, bits);
        let key = (v, bits);
        if let Some(p) = self.low_memo.get(&key) {
            return p.clone();
        }
        self.low_memo.insert(key, None);
        let p = self.low_bits_poly_uncached(v, bits);
        self.low_memo.insert(key, p.clone());
        p
    }

    fn low_bits_poly_uncached(&mut self, v: LLVMValueRef, bits: u32) -> Option<Poly> {
        unsafe {
            if let Some(c) = ir::const_int(v) {
                return Poly::constant(c).narrowed(bits);
            }
            if llvm::LLVMIsAInstruction(v).is_null() {
                return self.affine(v)?.narrowed(bits);
            }
            let op = |i| llvm::LLVMGetOperand(v, i);
            let p = match llvm::LLVMGetInstructionOpcode(v) {
                LLVMOpcode::LLVMAdd => self
                    .low_bits_poly(op(0), bits)?
                    .add(&self.low_bits_poly(op(1), bits)?)?,
                LLVMOpcode::LLVMSub => self
                    .low_bits_poly(op(0), bits)?
                    .sub(&self.low_bits_poly(op(1), bits)?)?,
                LLVMOpcode::LLVMMul => self
                    .low_bits_poly(op(0), bits)?
                    .mul(&self.low_bits_poly(op(1), bits)?)?,
                LLVMOpcode::LLVMShl => {
                    let s = ir::const_int(op(1)).filter(|s| (0..bits as i64).contains(s))?;
                    self.low_bits_poly(op(0), bits)?.scale(1i64 << s)?
                }
                LLVMOpcode::LLVMAnd => self.masked(op(0), op(1))?,
                _ => self.affine(v)?,
            };
            p.narrowed(bits)
        }
    }

    /// `a & b` where one is the mask `2^k - 1` and the other's low `k` bits are an argument's:
    /// that argument's low `k` bits, zero-extended ([`Atom::ParamMasked`]). Instcombine narrows
    /// the `and i64 %n, 4294967295` of an `int` passed in 64 bits to `2147483647` where it
    /// knows `n` is positive (a collapsed loop's bound checked `n > 2`); the mask is kept, not
    /// assumed away, so a program that masks a negative value itself is still read right.
    pub(super) fn masked(&mut self, a: LLVMValueRef, b: LLVMValueRef) -> Option<Poly> {
        for (x, m) in [(a, b), (b, a)] {
            let Some(mask) = ir::const_int(m) else {
                continue;
            };
            if mask == -1 {
                return self.affine(x);
            }
            let k = (mask as u64).trailing_ones();
            if mask <= 0 || (mask as u64) != (1u64 << k) - 1 {
                return None;
            }
            let p = self.low_bits_poly(x, k)?;
            let (m, &c) = p.terms.iter().next().filter(|_| p.terms.len() == 1)?;
            let atom = match (m.as_slice(), c) {
                ([Atom::Param { index, bits }], 1) if *bits >= k => Atom::ParamMasked {
                    index: *index,
                    bits: k,
                },
                ([Atom::ParamMasked { index, bits }], 1) => Atom::ParamMasked {
                    index: *index,
                    bits: (*bits).min(k),
                },
                _ => return None,
            };
            return Some(Poly::atom(atom));
        }
        None
    }

    /// Whether the split loop's static-init is a signed 32-bit one (`__kmpc_for_static_init_4`,
    /// `__kmpc_distribute_static_init_4`): its iterations are `int`s.
    pub(super) fn split_loop_is_int(&self) -> bool {
        let call = unsafe { inkwell::values::InstructionValue::new(self.marked) };
        ir::callee_name(call).is_some_and(|n| n.ends_with("_init_4"))
    }
}

/// `x` for `and x, m` where `m` keeps every one of the low `bits` bits: cut to `bits` bits the
/// two are equal (instcombine writes `zext (trunc x)` of a by-value `int` argument passed on
/// as an `i64` so: `and i64 %x, 4294967295`); else `v`.
pub(super) fn unmasked(v: LLVMValueRef, bits: u32) -> LLVMValueRef {
    unsafe {
        if llvm::LLVMIsAInstruction(v).is_null()
            || llvm::LLVMGetInstructionOpcode(v) != LLVMOpcode::LLVMAnd
            || bits >= 64
        {
            return v;
        }
        let low = (1u64 << bits) - 1;
        for (x, m) in [(0, 1), (1, 0)] {
            let mask = llvm::LLVMGetOperand(v, m);
            if ir::const_int(mask).is_some_and(|c| (c as u64) & low == low) {
                return llvm::LLVMGetOperand(v, x);
            }
        }
        v
    }
}

/// `(x, c, t)` when `v` is `shl x, t` or `add (shl x, t), c << t` with `s <= t < width`:
/// `(x + c) << t` in its low bits, which an `ashr` by `s` makes the sign extension of the low
/// `width - t` bits of `x + c`, times 2^(t - s) (the shifts leave the low t bits zero).
pub(super) fn shifted_left(
    v: LLVMValueRef,
    s: u32,
    width: u32,
) -> Option<(LLVMValueRef, i64, u32)> {
    unsafe {
        let shl = |x: LLVMValueRef| -> Option<(LLVMValueRef, u32)> {
            if llvm::LLVMIsAInstruction(x).is_null()
                || llvm::LLVMGetInstructionOpcode(x) != LLVMOpcode::LLVMShl
            {
                return None;
            }
            let t = ir::const_int(llvm::LLVMGetOperand(x, 1))?;
            let t = u32::try_from(t).ok().filter(|&t| t >= s && t < width)?;
            Some((llvm::LLVMGetOperand(x, 0), t))
        };
        if let Some((x, t)) = shl(v) {
            return Some((x, 0, t));
        }
        if llvm::LLVMIsAInstruction(v).is_null()
            || llvm::LLVMGetInstructionOpcode(v) != LLVMOpcode::LLVMAdd
        {
            return None;
        }
        for (a, b) in [(0, 1), (1, 0)] {
            let (x, c) = (llvm::LLVMGetOperand(v, a), llvm::LLVMGetOperand(v, b));
            if let (Some(c), Some((x, t))) = (ir::const_int(c), shl(x)) {
                if c % (1i64 << t) == 0 {
                    return Some((x, c >> t, t));
                }
            }
        }
        None
    }
}

/// Whether an integer value may wrap before it is extended.
pub(super) fn wraps(v: LLVMValueRef) -> bool {
    unsafe {
        if llvm::LLVMIsAInstruction(v).is_null() {
            return false;
        }
        match llvm::LLVMGetInstructionOpcode(v) {
            LLVMOpcode::LLVMAdd
            | LLVMOpcode::LLVMSub
            | LLVMOpcode::LLVMMul
            | LLVMOpcode::LLVMShl => llvm::LLVMGetNSW(v) == 0 && llvm::LLVMGetNUW(v) == 0,
            _ => false,
        }
    }
}

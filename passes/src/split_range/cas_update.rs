//! The compare-and-swap loops a split's parts can combine: the one atomic per block of a
//! floating-point `min`/`max` or product reduction (and integer products, `&&`, `||`), which
//! NVPTX has no native atomic for, so the reduction lowering emits a CAS loop on the mapped
//! variable:
//!
//! ```llvm
//! %init = load atomic i64, ptr %m monotonic                       ; kernel parameter m
//! loop:
//!   %old  = phi i64 [ %init, %pre ], [ %seen, %loop ]
//!   %oldf = bitcast i64 %old to double
//!   %lt   = fcmp olt double %partial, %oldf
//!   %new  = select i1 %lt, double %oldf, double %partial           ; max(old, partial)
//!   %newi = bitcast double %new to i64
//!   %r    = cmpxchg ptr %m, i64 %old, i64 %newi monotonic monotonic
//!   %seen = extractvalue { i64, i1 } %r, 0
//! ; → Combine { op: Max, elem: F64 }: each part's copy of m starts at -inf, the host folds
//! ;   m = max(max(m_host, part0), part1) ...
//! ```
//!
//! [`kind`] reads the operation the loop applies (`fmul`/`mul`: product, `fadd`: sum, a
//! compare-and-select of the old value and the operand or `llvm.minnum`/`maxnum`: min/max,
//! `old != 0` and-ed or or-ed with the operand: `&&`, `||`);
//! [`initial_loads`] the loads of the variable that start the loop, which are part of the
//! update, not plain reads of the variable. Any other CAS (a `critical` lock, an atomic
//! capture, an update that is not one of those operations) is not combinable.
use inkwell::values::{AsValueRef, InstructionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::{LLVMOpcode, LLVMRealPredicate, LLVMTypeKind};

use super::combine::{CombineOp, Elem};

const NOT_COMBINABLE: &str = "it updates memory with an atomic compare-and-swap that is not a reduction's min, max or product ('critical', an atomic capture): its parts cannot be combined";

/// The phi whose value the CAS compares with (the loop's "old" value), when it is one.
fn old_phi(cas: LLVMValueRef) -> Option<LLVMValueRef> {
    unsafe {
        let cmp = llvm::LLVMGetOperand(cas, 1);
        (!llvm::LLVMIsAPHINode(cmp).is_null()).then_some(cmp)
    }
}

fn opcode(v: LLVMValueRef) -> Option<LLVMOpcode> {
    unsafe {
        if v.is_null() || llvm::LLVMIsAInstruction(v).is_null() {
            None
        } else {
            Some(llvm::LLVMGetInstructionOpcode(v))
        }
    }
}

/// `v` without a bitcast around it.
fn uncast(v: LLVMValueRef) -> LLVMValueRef {
    if opcode(v) == Some(LLVMOpcode::LLVMBitCast) {
        unsafe { llvm::LLVMGetOperand(v, 0) }
    } else {
        v
    }
}

/// Whether `v` is the loop's old value (the phi, or it bitcast to the element type).
fn is_old(v: LLVMValueRef, phi: LLVMValueRef) -> bool {
    uncast(v) == phi
}

/// The loads of the CAS's variable that give the loop its first old value.
pub fn initial_loads(cas: InstructionValue<'_>) -> Vec<LLVMValueRef> {
    let cas = cas.as_value_ref();
    let Some(phi) = old_phi(cas) else {
        return Vec::new();
    };
    unsafe {
        let ptr = llvm::LLVMGetOperand(cas, 0);
        (0..llvm::LLVMCountIncoming(phi))
            .map(|i| llvm::LLVMGetIncomingValue(phi, i))
            .filter(|&v| {
                opcode(v) == Some(LLVMOpcode::LLVMLoad) && llvm::LLVMGetOperand(v, 0) == ptr
            })
            .collect()
    }
}

/// Whether the values of the CAS loop (the old value it saw, the new value it stored) are used
/// for anything but the update itself: an atomic capture (`v = x *= e;`), whose captured value
/// on a device would be that device's partial one, not the whole loop's. The update's own
/// values flow only through pure arithmetic and compares into the CAS, the loop's phi and its
/// branch; a store, a call with effects, another phi (a value carried out of the loop) among
/// them captures it.
pub fn captured(cas: InstructionValue<'_>) -> bool {
    let cas = cas.as_value_ref();
    let Some(phi) = old_phi(cas) else {
        return true;
    };
    let mut seen: std::collections::HashSet<LLVMValueRef> = std::collections::HashSet::new();
    let mut work: Vec<LLVMValueRef> = crate::ir::users(phi);
    work.extend(crate::ir::users(cas));
    while let Some(v) = work.pop() {
        if v == cas || v == phi || !seen.insert(v) {
            continue;
        }
        let pure = match opcode(v) {
            Some(
                LLVMOpcode::LLVMBitCast
                | LLVMOpcode::LLVMFCmp
                | LLVMOpcode::LLVMICmp
                | LLVMOpcode::LLVMSelect
                | LLVMOpcode::LLVMFMul
                | LLVMOpcode::LLVMFAdd
                | LLVMOpcode::LLVMMul
                | LLVMOpcode::LLVMZExt
                | LLVMOpcode::LLVMAnd
                | LLVMOpcode::LLVMOr
                | LLVMOpcode::LLVMExtractValue
                | LLVMOpcode::LLVMBr,
            ) => true,
            Some(LLVMOpcode::LLVMCall) => unsafe {
                let callee = llvm::LLVMGetCalledValue(v);
                let mut len = 0;
                let name = llvm::LLVMGetValueName2(callee, &mut len);
                let name = std::slice::from_raw_parts(name as *const u8, len);
                [
                    &b"llvm.minnum."[..],
                    b"llvm.maxnum.",
                    b"llvm.minimum.",
                    b"llvm.maximum.",
                ]
                .iter()
                .any(|p| name.starts_with(p))
            },
            _ => false,
        };
        if !pure {
            return true;
        }
        work.extend(crate::ir::users(v));
    }
    false
}

/// The operation and element of a reduction's CAS loop, or why its parts cannot be combined.
pub fn kind(cas: InstructionValue<'_>) -> Result<(CombineOp, Elem), String> {
    let cas = cas.as_value_ref();
    recognise(cas).ok_or_else(|| NOT_COMBINABLE.to_string())
}

fn recognise(cas: LLVMValueRef) -> Option<(CombineOp, Elem)> {
    unsafe {
        let phi = old_phi(cas)?;
        // Every other incoming value is what the CAS saw (the loop back) or the first load.
        let ptr = llvm::LLVMGetOperand(cas, 0);
        for i in 0..llvm::LLVMCountIncoming(phi) {
            let v = llvm::LLVMGetIncomingValue(phi, i);
            let back = opcode(v) == Some(LLVMOpcode::LLVMExtractValue)
                && llvm::LLVMGetOperand(v, 0) == cas;
            let first =
                opcode(v) == Some(LLVMOpcode::LLVMLoad) && llvm::LLVMGetOperand(v, 0) == ptr;
            if !back && !first {
                return None;
            }
        }
        let new = uncast(llvm::LLVMGetOperand(cas, 2));
        let ty = llvm::LLVMTypeOf(new);
        let elem = match llvm::LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMDoubleTypeKind => Elem::F64,
            LLVMTypeKind::LLVMFloatTypeKind => Elem::F32,
            LLVMTypeKind::LLVMIntegerTypeKind => match llvm::LLVMGetIntTypeWidth(ty) {
                32 => Elem::I32,
                64 => Elem::I64,
                _ => return None,
            },
            _ => return None,
        };
        let float = matches!(elem, Elem::F32 | Elem::F64);
        let operands = |v: LLVMValueRef| (llvm::LLVMGetOperand(v, 0), llvm::LLVMGetOperand(v, 1));
        // One operand the old value, the other not.
        let with_old = |a: LLVMValueRef, b: LLVMValueRef| is_old(a, phi) != is_old(b, phi);
        match opcode(new)? {
            LLVMOpcode::LLVMFMul if float => {
                let (a, b) = operands(new);
                with_old(a, b).then_some((CombineOp::Mul, elem))
            }
            LLVMOpcode::LLVMFAdd if float => {
                let (a, b) = operands(new);
                with_old(a, b).then_some((CombineOp::Add, elem))
            }
            LLVMOpcode::LLVMMul if !float => {
                let (a, b) = operands(new);
                with_old(a, b).then_some((CombineOp::Mul, elem))
            }
            LLVMOpcode::LLVMZExt if !float => {
                logical(llvm::LLVMGetOperand(new, 0), phi).map(|op| (op, elem))
            }
            LLVMOpcode::LLVMSelect if float => {
                let cond = llvm::LLVMGetOperand(new, 0);
                let (t, f) = (llvm::LLVMGetOperand(new, 1), llvm::LLVMGetOperand(new, 2));
                if llvm::LLVMIsAFCmpInst(cond).is_null() || !with_old(t, f) {
                    return None;
                }
                let (a, b) = operands(cond);
                // The select picks between the compared values: {t, f} = {a, b}.
                let same = t == a && f == b;
                let swapped = t == b && f == a;
                if !(same || swapped) {
                    return None;
                }
                use LLVMRealPredicate::*;
                let less = match llvm::LLVMGetFCmpPredicate(cond) {
                    LLVMRealOLT | LLVMRealOLE | LLVMRealULT | LLVMRealULE => true,
                    LLVMRealOGT | LLVMRealOGE | LLVMRealUGT | LLVMRealUGE => false,
                    _ => return None,
                };
                // a < b ? a : b is the minimum; a < b ? b : a the maximum (and the reverse for >).
                let op = if less == same {
                    CombineOp::Min
                } else {
                    CombineOp::Max
                };
                Some((op, elem))
            }
            LLVMOpcode::LLVMCall if float => {
                let n = llvm::LLVMGetNumArgOperands(new);
                let callee = llvm::LLVMGetCalledValue(new);
                if n != 2 || llvm::LLVMIsAFunction(callee).is_null() {
                    return None;
                }
                let mut len = 0;
                let name = llvm::LLVMGetValueName2(callee, &mut len);
                let name =
                    std::str::from_utf8(std::slice::from_raw_parts(name as *const u8, len)).ok()?;
                let (a, b) = operands(new);
                if !with_old(a, b) {
                    return None;
                }
                if name.starts_with("llvm.maxnum.") || name.starts_with("llvm.maximum.") {
                    Some((CombineOp::Max, elem))
                } else if name.starts_with("llvm.minnum.") || name.starts_with("llvm.minimum.") {
                    Some((CombineOp::Min, elem))
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

/// `&&` or `||` of the old value and the operand, as the reduction lowering writes them on an
/// `int`: `zext (select (icmp ne old, 0), p, false)` (or `select p, (icmp ne old, 0), false`,
/// `and i1`) for `&&`; `select c, true, p` (`or i1`) for `||`.
fn logical(v: LLVMValueRef, phi: LLVMValueRef) -> Option<CombineOp> {
    unsafe {
        let is_const = |c: LLVMValueRef, want: u64| {
            !llvm::LLVMIsAConstantInt(c).is_null() && llvm::LLVMConstIntGetZExtValue(c) == want
        };
        let (op, x, y) = match opcode(v)? {
            LLVMOpcode::LLVMSelect => {
                let (c, t, f) = (
                    llvm::LLVMGetOperand(v, 0),
                    llvm::LLVMGetOperand(v, 1),
                    llvm::LLVMGetOperand(v, 2),
                );
                if is_const(f, 0) {
                    (CombineOp::LogicalAnd, c, t)
                } else if is_const(t, 1) {
                    (CombineOp::LogicalOr, c, f)
                } else {
                    return None;
                }
            }
            LLVMOpcode::LLVMAnd => (
                CombineOp::LogicalAnd,
                llvm::LLVMGetOperand(v, 0),
                llvm::LLVMGetOperand(v, 1),
            ),
            LLVMOpcode::LLVMOr => (
                CombineOp::LogicalOr,
                llvm::LLVMGetOperand(v, 0),
                llvm::LLVMGetOperand(v, 1),
            ),
            _ => return None,
        };
        // `old != 0`, in either operand order.
        let tests_old = |c: LLVMValueRef| {
            if llvm::LLVMIsAICmpInst(c).is_null()
                || llvm::LLVMGetICmpPredicate(c) != llvm_sys::LLVMIntPredicate::LLVMIntNE
            {
                return false;
            }
            let (a, b) = (llvm::LLVMGetOperand(c, 0), llvm::LLVMGetOperand(c, 1));
            (a == phi && is_const(b, 0)) || (b == phi && is_const(a, 0))
        };
        // The operand must not read the old value itself.
        let uses_old = |c: LLVMValueRef| {
            c == phi
                || (!llvm::LLVMIsAInstruction(c).is_null()
                    && (0..llvm::LLVMGetNumOperands(c))
                        .any(|i| llvm::LLVMGetOperand(c, i as u32) == phi))
        };
        ((tests_old(x) && !uses_old(y)) || (tests_old(y) && !uses_old(x))).then_some(op)
    }
}

#[cfg(test)]
mod tests {
    use super::super::combine::{combined_arguments, Combine, CombineOp, Elem};
    use inkwell::context::Context;

    /// A kernel whose parameter %p is updated by a CAS loop computing `NEW` from `%old` (i64,
    /// `%oldf` the double) and `%x` (a double) or `%b` (an i1).
    fn kernel(ctx: &Context, ty: &str, body: &str) -> Result<Vec<Combine>, String> {
        let ir = format!(
            "define void @k(ptr %p, double %x, i1 %b) {{
entry:
  %init = load atomic {ty}, ptr %p monotonic, align 8
  br label %loop
loop:
  %old = phi {ty} [ %init, %entry ], [ %seen, %loop ]
{body}
  %r = cmpxchg ptr %p, {ty} %old, {ty} %newi monotonic monotonic, align 8
  %seen = extractvalue {{ {ty}, i1 }} %r, 0
  %ok = extractvalue {{ {ty}, i1 }} %r, 1
  br i1 %ok, label %done, label %loop
done:
  ret void
}}
declare double @llvm.minnum.f64(double, double)
"
        );
        let buf =
            inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "k");
        let m = ctx.create_module_from_ir(buf).expect("valid IR");
        let f = m.get_function("k").expect("k");
        combined_arguments(f)
    }

    fn one(op: CombineOp, elem: Elem) -> Result<Vec<Combine>, String> {
        Ok(vec![Combine { param: 0, op, elem }])
    }

    #[test]
    fn reduction_cas_loops_are_combined() {
        let ctx = Context::create();
        let f64_body = |v: &str| {
            format!(
                "  %oldf = bitcast i64 %old to double\n{v}\n  %newi = bitcast double %new to i64"
            )
        };
        // max: partial < old ? old : partial (what the reduction lowering emits).
        let max = f64_body(
            "  %lt = fcmp olt double %x, %oldf\n  %new = select i1 %lt, double %oldf, double %x",
        );
        assert_eq!(kernel(&ctx, "i64", &max), one(CombineOp::Max, Elem::F64));
        let min = f64_body(
            "  %gt = fcmp ogt double %x, %oldf\n  %new = select i1 %gt, double %oldf, double %x",
        );
        assert_eq!(kernel(&ctx, "i64", &min), one(CombineOp::Min, Elem::F64));
        let min2 = f64_body("  %new = call double @llvm.minnum.f64(double %oldf, double %x)");
        assert_eq!(kernel(&ctx, "i64", &min2), one(CombineOp::Min, Elem::F64));
        let mul = f64_body("  %new = fmul double %x, %oldf");
        assert_eq!(kernel(&ctx, "i64", &mul), one(CombineOp::Mul, Elem::F64));
        let imul = "  %newi = mul i64 %old, 3";
        assert_eq!(kernel(&ctx, "i64", imul), one(CombineOp::Mul, Elem::I64));
        let land = "  %nz = icmp ne i32 %old, 0\n  %a = select i1 %nz, i1 %b, i1 false\n  %newi = zext i1 %a to i32";
        assert_eq!(
            kernel(&ctx, "i32", land),
            one(CombineOp::LogicalAnd, Elem::I32)
        );
        let lor = "  %nz = icmp ne i32 %old, 0\n  %a = select i1 %nz, i1 true, i1 %b\n  %newi = zext i1 %a to i32";
        assert_eq!(
            kernel(&ctx, "i32", lor),
            one(CombineOp::LogicalOr, Elem::I32)
        );
    }

    #[test]
    fn other_cas_loops_are_not() {
        let ctx = Context::create();
        // old - x is not a reduction's operation; neither is a select that ignores the old value.
        let sub = "  %oldf = bitcast i64 %old to double\n  %new = fsub double %oldf, %x\n  %newi = bitcast double %new to i64";
        let e = kernel(&ctx, "i64", sub).unwrap_err();
        assert!(
            e.contains("compare-and-swap that is not a reduction's"),
            "{e}"
        );
        let other = "  %oldf = bitcast i64 %old to double\n  %lt = fcmp olt double %x, 0.0\n  %new = select i1 %lt, double %x, double 0.0\n  %newi = bitcast double %new to i64";
        assert!(kernel(&ctx, "i64", other).is_err());
        // old * old: both operands are the old value.
        let sq = "  %newi = mul i64 %old, %old";
        assert!(kernel(&ctx, "i64", sq).is_err());
    }

    #[test]
    fn a_captured_update_is_not_combined() {
        let ctx = Context::create();
        // v = p *= x: the new value goes somewhere besides the CAS.
        let capture = "  %oldf = bitcast i64 %old to double\n  %new = fmul double %x, %oldf\n  %slot = alloca double\n  store double %new, ptr %slot\n  %newi = bitcast double %new to i64";
        let e = kernel(&ctx, "i64", capture).unwrap_err();
        assert!(e.contains("atomic capture"), "{e}");
        // An atomicrmw whose old value is used (t = count++).
        let ir = "define void @k(ptr %p, ptr %q) {
  %t = atomicrmw add ptr %p, i32 1 monotonic, align 4
  store i32 %t, ptr %q, align 4
  ret void
}";
        let buf =
            inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "k");
        let m = ctx.create_module_from_ir(buf).expect("valid IR");
        let e = combined_arguments(m.get_function("k").expect("k")).unwrap_err();
        assert!(e.contains("atomic capture"), "{e}");
    }
}

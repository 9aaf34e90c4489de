//! Which kernel arguments of a split loop the devices' parts must combine rather than merge.
//!
//! A part of a split loop (see the module above) writes its results into its own copy of the
//! data, and the runtime takes back the bytes each part changed. That is wrong for memory the
//! iterations update together: a reduction variable (`reduction(+: s)` ends in one
//! `atomicrmw fadd` per block into the mapped `s`) or a histogram (`#pragma omp atomic update`
//! `h[k] += 1`). Every part changes the same bytes, each with its partial result. Such an
//! argument is *combined*: each device's copy starts at the operation's identity, and the host
//! folds the parts into its value in device order (the same answer every run):
//!
//! ```llvm
//! %old = atomicrmw fadd ptr %0, double %partial monotonic     ; kernel parameter 0
//! ; → Combine { param: 0, op: Add, elem: F64 }: s = s_host + part0 + part1 + ...
//! ```
//!
//! The analysis runs on the optimised device module (the parallel regions inlined into the
//! kernel, each reduction one atomic on the parameter). An argument is combined when every
//! access through it is an `atomicrmw` of one combinable operation on one element type; an
//! argument updated atomically and also read or written plainly, a compare-and-swap loop that
//! is not a reduction's min, max or product (`cas_update.rs` reads those: floating-point min/max
//! and products have no native atomic), an atomic whose address the analysis cannot trace to
//! one parameter, memory it cannot tell apart from a combined argument, and an update whose value
//! is used (an atomic capture: a part would read its own partial value, not the variable's) make
//! the kernel unsplittable, with the reason.
use std::collections::BTreeMap;

use inkwell::values::{AsValueRef, FunctionValue, InstructionOpcode, InstructionValue};
use inkwell::AtomicRMWBinOp;
use llvm_sys::prelude::LLVMValueRef;

use crate::ir;

/// How the parts of a combined argument fold together, and the element an atomic updates
/// (`ptxrt_combine_op`), defined once with the runtime that folds them.
pub use ptxcc_abi::combine::{CombineOp, Elem};

/// One combined kernel argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combine {
    /// Index of the kernel parameter.
    pub param: u32,
    pub op: CombineOp,
    pub elem: Elem,
}

impl Combine {
    /// `ptxrt_split_combine::op`: the operation in the low byte, the element in the next.
    pub fn abi_op(&self) -> u32 {
        ptxcc_abi::combine::encode(self.op, self.elem)
    }
}

/// Why a kernel whose atomic update's value is used does not split.
const CAPTURED: &str = "it uses the value of an atomic update (an atomic capture): each device's part would see only its own partial value, not the variable's";

/// The combined arguments of `kernel`, in parameter order, or why its parts cannot be
/// combined.
pub fn combined_arguments(kernel: FunctionValue<'_>) -> Result<Vec<Combine>, String> {
    let params: Vec<LLVMValueRef> = kernel.get_param_iter().map(|p| p.as_value_ref()).collect();
    let mut combined: BTreeMap<usize, (CombineOp, Elem)> = BTreeMap::new();
    // Accesses of memory the analysis cannot trace to parameters, and the plain accesses of
    // parameters, checked against the combined ones at the end.
    let mut untraced = false;
    let mut plain: Vec<usize> = Vec::new();
    let calls_elsewhere = ir::calls(kernel)
        .into_iter()
        .any(|(c, _)| ir::called_function(c).is_some_and(|f| f.count_basic_blocks() > 0));
    // The loads that start a reduction's compare-and-swap loop belong to its update.
    let cas_loads: std::collections::HashSet<LLVMValueRef> = ir::instructions(kernel)
        .into_iter()
        .filter(|i| i.get_opcode() == InstructionOpcode::AtomicCmpXchg)
        .flat_map(super::cas_update::initial_loads)
        .collect();
    for inst in ir::instructions(kernel) {
        match inst.get_opcode() {
            InstructionOpcode::AtomicRMW | InstructionOpcode::AtomicCmpXchg => {
                let ptr = operand(inst, 0);
                let rmw = inst.get_opcode() == InstructionOpcode::AtomicRMW;
                let (op, elem) = if rmw {
                    rmw_kind(inst)?
                } else {
                    super::cas_update::kind(inst)?
                };
                // A captured update reads the variable's running value, which a device's part
                // knows only for its own iterations.
                let captured = if rmw {
                    !ir::users(inst.as_value_ref()).is_empty()
                } else {
                    super::cas_update::captured(inst)
                };
                if captured {
                    return Err(CAPTURED.into());
                }
                match ir::param_roots(ptr, &params).as_deref() {
                    Some([p]) => match combined.get(p) {
                        Some(&(o, e)) if (o, e) != (op, elem) => {
                            return Err(format!(
                                "argument {} is updated atomically with two different operations",
                                p + 1
                            ))
                        }
                        _ => {
                            combined.insert(*p, (op, elem));
                        }
                    },
                    _ => {
                        return Err(
                            "it updates memory atomically through a pointer the split cannot trace to one mapped variable"
                                .into(),
                        )
                    }
                }
            }
            InstructionOpcode::Load if cas_loads.contains(&inst.as_value_ref()) => {}
            InstructionOpcode::Load | InstructionOpcode::Store => {
                let ptr = operand(
                    inst,
                    if inst.get_opcode() == InstructionOpcode::Load {
                        0
                    } else {
                        1
                    },
                );
                if ir::points_to_local(ptr) || is_shared(ptr) || based_on_global(ptr) {
                    continue;
                }
                match ir::param_roots(ptr, &params) {
                    Some(roots) => plain.extend(roots),
                    None => untraced = true,
                }
            }
            _ => {}
        }
    }
    if combined.is_empty() {
        return Ok(Vec::new());
    }
    if calls_elsewhere {
        return Err("it updates memory atomically and calls a function ptxcc did not inline: the split cannot see all its accesses".into());
    }
    if let Some(p) = plain.iter().find(|p| combined.contains_key(p)) {
        return Err(format!(
            "argument {} is updated atomically and also read or written plainly",
            p + 1
        ));
    }
    if untraced {
        return Err("it updates memory atomically and also accesses memory the split cannot trace to a mapped variable".into());
    }
    Ok(combined
        .into_iter()
        .map(|(p, (op, elem))| Combine {
            param: p as u32,
            op,
            elem,
        })
        .collect())
}

fn operand(inst: InstructionValue<'_>, i: u32) -> LLVMValueRef {
    inst.get_operand(i)
        .and_then(|o| o.value())
        .map(|v| v.as_value_ref())
        .unwrap_or(std::ptr::null_mut())
}

/// A pointer into shared memory (addrspace 3): the block's own, never a mapped variable.
fn is_shared(ptr: LLVMValueRef) -> bool {
    if ptr.is_null() {
        return false;
    }
    unsafe {
        let ty = llvm_sys::core::LLVMTypeOf(ptr);
        llvm_sys::core::LLVMGetPointerAddressSpace(ty) == 3
    }
}

/// A pointer into a module global (shared memory, the split range, a `declare target`
/// variable): never a mapped argument's device copy.
fn based_on_global(mut v: LLVMValueRef) -> bool {
    use llvm_sys::core::*;
    unsafe {
        for _ in 0..64 {
            if v.is_null() {
                return false;
            }
            if !LLVMIsAGlobalVariable(v).is_null() {
                return true;
            }
            let through = !LLVMIsAGetElementPtrInst(v).is_null()
                || !LLVMIsACastInst(v).is_null()
                || (!LLVMIsAConstantExpr(v).is_null()
                    && matches!(
                        LLVMGetConstOpcode(v),
                        llvm_sys::LLVMOpcode::LLVMGetElementPtr
                            | llvm_sys::LLVMOpcode::LLVMAddrSpaceCast
                            | llvm_sys::LLVMOpcode::LLVMBitCast
                    ));
            if !through {
                return false;
            }
            v = LLVMGetOperand(v, 0);
        }
    }
    false
}

/// The operation and element of an `atomicrmw`, when the parts can be folded with it.
fn rmw_kind(inst: InstructionValue<'_>) -> Result<(CombineOp, Elem), String> {
    let op = inst
        .get_atomic_rmw_bin_op()
        .ok_or("an atomicrmw without an operation")?;
    let ty = inst.get_type();
    let width = match ty {
        inkwell::types::AnyTypeEnum::IntType(t) => Some(t.get_bit_width()),
        _ => None,
    };
    let float = match ty {
        inkwell::types::AnyTypeEnum::FloatType(t) => Some(t == t.get_context().f64_type()),
        _ => None,
    };
    let int = |signed: bool| -> Result<Elem, String> {
        match (width, signed) {
            (Some(32), true) => Ok(Elem::I32),
            (Some(64), true) => Ok(Elem::I64),
            (Some(32), false) => Ok(Elem::U32),
            (Some(64), false) => Ok(Elem::U64),
            _ => Err("it updates a value that is not a 32- or 64-bit integer atomically".into()),
        }
    };
    let fp = || -> Result<Elem, String> {
        match float {
            Some(true) => Ok(Elem::F64),
            Some(false) => Ok(Elem::F32),
            None => Err("it updates a value that is not a float or double atomically".into()),
        }
    };
    Ok(match op {
        AtomicRMWBinOp::Add => (CombineOp::Add, int(true)?),
        AtomicRMWBinOp::FAdd => (CombineOp::Add, fp()?),
        AtomicRMWBinOp::Min => (CombineOp::Min, int(true)?),
        AtomicRMWBinOp::Max => (CombineOp::Max, int(true)?),
        AtomicRMWBinOp::UMin => (CombineOp::Min, int(false)?),
        AtomicRMWBinOp::UMax => (CombineOp::Max, int(false)?),
        AtomicRMWBinOp::FMin => (CombineOp::Min, fp()?),
        AtomicRMWBinOp::FMax => (CombineOp::Max, fp()?),
        AtomicRMWBinOp::And => (CombineOp::And, int(false)?),
        AtomicRMWBinOp::Or => (CombineOp::Or, int(false)?),
        AtomicRMWBinOp::Xor => (CombineOp::Xor, int(false)?),
        other => {
            return Err(format!(
            "it updates memory atomically with {other:?}, which the parts cannot be combined with"
        ))
        }
    })
}

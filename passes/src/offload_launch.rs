//! What a target region's launch in host code passes the runtime: the map types of its
//! arguments, read from clang's `__tgt_target_kernel` call (an analysis, no change to the IR).
//!
//! ```llvm
//! @.K.region_id = weak constant i8 0
//! @.offload_maptypes = private unnamed_addr constant [2 x i64] [i64 800, i64 288]
//!   %16 = getelementptr inbounds i8, ptr %args, i64 32   ; or a struct GEP: field 5, ArgTypes
//!   store ptr @.offload_maptypes, ptr %16
//!   call i32 @__tgt_target_kernel(ptr @3, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %args)
//! ```
//!
//! gives `[800, 288]` for kernel `K`: the second argument is `TARGET_PARAM | LITERAL` (288), a
//! value the kernel receives as it is. When that parameter is a pointer (`is_device_ptr`,
//! OpenACC `deviceptr`, a `firstprivate` pointer) it points into one device's memory, or the
//! host's: the loop cannot be split over devices nor run in part by the host (`split_range`,
//! `host_part`). Launch code of another shape (map types built at run time, several launches
//! of one region) gives no answer, and the runtime's own check of each launch decides.
use inkwell::module::Module;
use inkwell::values::InstructionValue;
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::LLVMOpcode;

use crate::ir;

use ptxcc_abi::map_type::MapType;

/// A field of `__tgt_kernel_arguments` that clang's launch code stores before the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelArgsField {
    /// `ArgTypes`: the map types (after version, num_args: 2 x i32; base pointers, pointers,
    /// sizes: 3 pointers).
    ArgTypes,
    /// `Tripcount`: the distributed loop's iterations (after ArgNames, ArgMappers).
    Tripcount,
}

impl KernelArgsField {
    /// Its field number in clang's struct type.
    fn index(self) -> i64 {
        match self {
            Self::ArgTypes => 5,
            Self::Tripcount => 8,
        }
    }

    /// Its byte offset (for launch code that addresses it as `i8` + offset).
    fn offset(self) -> i64 {
        match self {
            Self::ArgTypes => 32,
            Self::Tripcount => 56,
        }
    }
}

/// The map types of the one launch of `kernel` in `host`, None when they cannot be read.
pub fn map_types(host: &Module<'_>, kernel: &str) -> Option<Vec<u64>> {
    let [launch] = crate::openmp::kernel_launches(host, kernel)[..] else {
        return None;
    };
    constant_i64s(stored_field(launch, KernelArgsField::ArgTypes)?)
}

/// The one value that the code before `launch` (a `__tgt_target_kernel` call) stores into
/// `field` of its kernel arguments, casts stripped; None when it stores none or several.
pub fn stored_field(launch: InstructionValue<'_>, field: KernelArgsField) -> Option<LLVMValueRef> {
    if ir::call_arg_count(launch) < 6 {
        return None;
    }
    let args = ir::strip_casts(ir::call_arg_raw(launch, 5));
    let mut found = None;
    for slot in ir::users(args) {
        if !is_field(slot, args, field) {
            continue;
        }
        for store in ir::users(slot) {
            if ir::opcode(store) != Some(LLVMOpcode::LLVMStore)
                || unsafe { llvm::LLVMGetOperand(store, 1) } != slot
            {
                continue;
            }
            if found.is_some() {
                return None;
            }
            found = Some(ir::strip_casts(unsafe { llvm::LLVMGetOperand(store, 0) }));
        }
    }
    found
}

/// Is `v` the address of `field` of the kernel arguments `base`?
fn is_field(v: LLVMValueRef, base: LLVMValueRef, field: KernelArgsField) -> bool {
    if unsafe { llvm::LLVMIsAGetElementPtrInst(v) }.is_null()
        || unsafe { llvm::LLVMGetOperand(v, 0) } != base
    {
        return false;
    }
    let n = unsafe { llvm::LLVMGetNumOperands(v) };
    let index = |k: u32| ir::const_int(unsafe { llvm::LLVMGetOperand(v, k) });
    let source = unsafe { llvm::LLVMGetGEPSourceElementType(v) };
    let kind = unsafe { llvm::LLVMGetTypeKind(source) };
    match (kind, n) {
        (llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind, 2) => {
            let width = unsafe { llvm::LLVMGetIntTypeWidth(source) };
            width == 8 && index(1) == Some(field.offset())
        }
        (llvm_sys::LLVMTypeKind::LLVMStructTypeKind, 3) => {
            index(1) == Some(0) && index(2) == Some(field.index())
        }
        _ => false,
    }
}

/// The elements of a constant global `[N x i64]`.
pub(crate) fn constant_i64s(global: LLVMValueRef) -> Option<Vec<u64>> {
    if unsafe { llvm::LLVMIsAGlobalVariable(global) }.is_null()
        || unsafe { llvm::LLVMIsGlobalConstant(global) } == 0
    {
        return None;
    }
    let init = unsafe { llvm::LLVMGetInitializer(global) };
    if init.is_null() {
        return None;
    }
    let ty = unsafe { llvm::LLVMTypeOf(init) };
    if unsafe { llvm::LLVMGetTypeKind(ty) } != llvm_sys::LLVMTypeKind::LLVMArrayTypeKind {
        return None;
    }
    let n = unsafe { llvm::LLVMGetArrayLength2(ty) };
    (0..n as u32)
        .map(|i| {
            let e = unsafe { llvm::LLVMGetAggregateElement(init, i) };
            (!e.is_null())
                .then(|| ir::const_int(e))
                .flatten()
                .map(|v| v as u64)
        })
        .collect()
}

/// The kernel parameters (0-based) that receive a pointer by value, given the host version's
/// pointer parameters (`host_part::pointer_params`); None when the launch cannot be read.
pub fn by_value_pointers(host: &Module<'_>, kernel: &str, pointers: u64) -> Option<Vec<usize>> {
    let types = map_types(host, kernel)?;
    let params: Vec<u64> = types
        .into_iter()
        .filter(|&t| MapType(t).target_param())
        .collect();
    Some(
        params
            .iter()
            .enumerate()
            .filter(|&(i, &t)| MapType(t).literal() && i < 64 && pointers & (1 << i) != 0)
            .map(|(i, _)| i)
            .collect(),
    )
}

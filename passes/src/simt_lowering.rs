//! SIMT lowering: device IR → host code for the emulator.
//!
//! The emulator (ptx-runtime) runs kernels on the CPU when no GPU answers. Instead of
//! interpreting PTX it runs the *same device IR*, compiled for the host after this pass has
//! turned every GPU-specific operation into a call of the "Emulator ABI" half of
//! `ptx-runtime/include/ptxcc_abi.h`. The runtime decides how GPU threads map onto host
//! threads/fibers; the lowered code only asks it questions (`__ptxemu_sreg`) and synchronises
//! through it (`__ptxemu_barrier`, shuffles, votes).
//!
//! # Input
//!
//! A device module (`nvptx64-nvidia-cuda`) as the earlier passes produce it: before libclc is
//! linked (calls to `sin`, `pow`, … stay and resolve to the host libm) and before optimisation.
//! Kernels are the functions named by `!nvvm.annotations` `!{ptr @k, !"kernel", i32 1}` (or with
//! the `ptx_kernel` calling convention); their parameters are pointers or ≤ 8-byte scalars.
//!
//! # Transformation
//!
//! 1. **GPU operations → ABI calls.**
//!    `llvm.nvvm.read.ptx.sreg.{tid,ntid,ctaid,nctaid}.{x,y,z}`, `.laneid`, `.warpsize` →
//!    `__ptxemu_sreg(enum ptxemu_sreg)` with the GPU's `!range`, declared
//!    `memory(none) nounwind willreturn nosync speculatable` (a register never changes during a
//!    thread's life) so LLVM hoists and CSEs the reads; `.lanemask.*` are computed from the lane
//!    id, `.clock`/`.clock64`/`.globaltimer` read `llvm.readcyclecounter`.
//!    `barrier0`, `barrier.sync`, `barrier.n`, `barrier`, `barrier.sync.cnt`, `bar.sync` and
//!    inline `bar.sync 0` → `__ptxemu_barrier()`; `bar.warp.sync` → `__ptxemu_warp_sync`;
//!    `shfl[.sync].{idx,up,down,bfly}.{i32,f32}[p]` → `__ptxemu_shfl_sync(mask, bits, b, c,
//!    mode)` (floats as bits; the `p` forms compute PTX's in-range bit from the lane id);
//!    `vote[.sync].{all,any,uni,ballot}` → `__ptxemu_vote_sync`. Barrier, shuffle and vote
//!    declarations and calls are `convergent`. `barrier0.{popc,and,or}` count through a hidden
//!    shared `i32` between three barriers. `membar.*`, `fence.sc.cluster` and inline
//!    `membar`/`fence` → `fence seq_cst`; `llvm.trap` → `__ptxemu_trap()` (noreturn);
//!    Loads of `@__ptxcc_device_num` (`omp_get_device_num()`, see `device_number.rs`) →
//!    `__ptxemu_sreg(PTXEMU_DEVICE_NUM)`: the emulated devices share one copy of the code.
//!    `ldg`/`ldu` → loads; the old `ptr.*.to.*` conversions → `addrspacecast`. Anything else
//!    NVPTX-specific (other intrinsics, other inline PTX) is an error naming the operation, the
//!    function and the source line. An empty inline asm (a compiler barrier) stays.
//! 2. **Shared memory.** Every `addrspace(3)` global becomes `__ptxemu_shared_base() + offset`,
//!    computed at the top of each function that uses it (constant expressions over it become
//!    instructions). One layout serves the whole module: first fit in module order honouring
//!    alignment, where two variables may overlap unless some kernel reaches both through its
//!    call graph. A kernel's `shared_bytes` is the end of the last variable it reaches. The
//!    ABI's base is 16-byte aligned; a variable aligned beyond that makes every user re-align
//!    the base with `llvm.ptrmask` and the kernels reserve the slack.
//! 3. **Other address spaces** (global 1, constant 4, local 5, any non-zero one) → generic:
//!    globals and allocas are re-created in address space 0, signatures flattened, and every
//!    instruction producing or consuming such a pointer rebuilt (see `addrspace.rs`);
//!    overloaded intrinsics move to their `p0` overload. GPU sync scopes on fences and atomics
//!    become system scope (the x86 back end treats unknown scopes as compiler-only fences).
//! 4. **NVPTX leftovers** go: `ptx_kernel`/`ptx_device` calling conventions become C,
//!    NVPTX `target-cpu`/`target-features` and `nvvm.*` attributes are removed (x86 ones from the
//!    cloned host code stay), as are `!nvvm.*`, `!nvvmir.version`, clang's `!omp_offload.info`,
//!    ptxcc's `!ptxcc.*`, device-only module flags (`openmp-device` would make OpenMPOpt treat the
//!    host module as device code) and copies of offload-entry tables. Triple and data layout
//!    become the host's.
//! 5. **Renaming.** The module is linked into the host module of the same translation unit,
//!    which has its own `@helper`, `@tab` and kernel-named host fallback. Every definition
//!    becomes `@__ptxemu.<name>`: functions internal; global variables with external linkage
//!    (`declare target`) stay exported with hidden visibility and become writable (the runtime
//!    updates them), so another TU's emulator code that declares them `extern` links to the same
//!    copy; declarations of globals are renamed the same way. Function declarations (libm,
//!    printf) and libc globals (`stderr`, …) keep their names: they are the host's.
//! 6. **Entry wrappers.** For each kernel `K`, `void @__ptxemu_entry.K(ptr %args)` loads
//!    parameter i from `*(T *)args[i]` and calls the kernel
//!    (`ptxrt_kernel_desc::emu_entry`).
//!
//! The module is verified before and after.
//!
//! # Example
//!
//! ```text
//! target triple = "nvptx64-nvidia-cuda"
//! @tab = addrspace(1) global [4 x double] zeroinitializer, align 8
//! @red = internal addrspace(3) global [32 x double] undef, align 8
//!
//! define internal double @helper(i64 %i) {
//!   %p = getelementptr inbounds [4 x double], ptr addrspace(1) @tab, i64 0, i64 %i
//!   %v = load double, ptr addrspace(1) %p, align 8
//!   ret double %v
//! }
//! define void @__omp_offloading_fe00_1_f_l7(ptr %out, i64 %n) {
//!   %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//!   %t = zext i32 %tid to i64
//!   %v = call double @helper(i64 %t)
//!   %slot = getelementptr inbounds [32 x double], ptr addrspace(3) @red, i32 0, i32 %tid
//!   store double %v, ptr addrspace(3) %slot, align 8
//!   call void @llvm.nvvm.barrier0()
//!   %bits = bitcast double %v to i64
//!   %lo = trunc i64 %bits to i32
//!   %x = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %lo, i32 16, i32 31)
//!   store i32 %x, ptr %out, align 4
//!   ret void
//! }
//! !nvvm.annotations = !{!0}
//! !0 = !{ptr @__omp_offloading_fe00_1_f_l7, !"kernel", i32 1}
//! ```
//! becomes (`shared_bytes` = 256, `needs_sync`, global `tab` → `__ptxemu.tab`, 32 bytes):
//! ```text
//! target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
//! target triple = "x86_64-pc-linux-gnu"
//! @__ptxemu.tab = hidden global [4 x double] zeroinitializer, align 8
//!
//! define internal double @__ptxemu.helper(i64 %i) {
//!   %p = getelementptr inbounds [4 x double], ptr @__ptxemu.tab, i64 0, i64 %i
//!   %v = load double, ptr %p, align 8
//!   ret double %v
//! }
//! define internal void @__ptxemu.__omp_offloading_fe00_1_f_l7(ptr %out, i64 %n) {
//!   %ptxemu.shared = call ptr @__ptxemu_shared_base()
//!   %red = getelementptr inbounds i8, ptr %ptxemu.shared, i64 0
//!   %tid = call i32 @__ptxemu_sreg(i32 0), !range !0          ; !0 = !{i32 0, i32 1024}
//!   %t = zext i32 %tid to i64
//!   %v = call double @__ptxemu.helper(i64 %t)
//!   %slot = getelementptr inbounds [32 x double], ptr %red, i32 0, i32 %tid
//!   store double %v, ptr %slot, align 8
//!   call void @__ptxemu_barrier() #2                          ; #2 = { convergent }
//!   %bits = bitcast double %v to i64
//!   %lo = trunc i64 %bits to i32
//!   %x = call i32 @__ptxemu_shfl_sync(i32 -1, i32 %lo, i32 16, i32 31, i32 3) #2
//!   store i32 %x, ptr %out, align 4
//!   ret void
//! }
//! declare noundef i32 @__ptxemu_sreg(i32) #0   ; nosync nounwind speculatable willreturn memory(none)
//! declare void @__ptxemu_barrier() #1          ; convergent nounwind
//! declare i32 @__ptxemu_shfl_sync(i32, i32, i32, i32, i32) #1
//! declare noundef nonnull align 16 ptr @__ptxemu_shared_base() #0
//!
//! define hidden void @__ptxemu_entry.__omp_offloading_fe00_1_f_l7(ptr noundef %args) {
//! entry:
//!   %out.slot = getelementptr inbounds ptr, ptr %args, i64 0
//!   %out.addr = load ptr, ptr %out.slot, align 8
//!   %out = load ptr, ptr %out.addr, align 8
//!   %n.slot = getelementptr inbounds ptr, ptr %args, i64 1
//!   %n.addr = load ptr, ptr %n.slot, align 8
//!   %n = load i64, ptr %n.addr, align 8
//!   call void @__ptxemu.__omp_offloading_fe00_1_f_l7(ptr %out, i64 %n)
//!   ret void
//! }
//! ```
//!
//! # Limits
//!
//! Named barriers and barriers with a thread count act as whole-block barriers (exact for
//! barrier 0 and for counts equal to the block size). Dynamic (`extern __shared__`) shared
//! memory, initialised shared variables and shared addresses stored in other globals'
//! initializers are errors. Pointers inside aggregates or vectors keep their address space
//! (a no-op on the host). A call to a function only declared here resolves to the host's
//! definition of that name.
//!
//! Submodules: `intrinsics` (step 1), `callgraph` (reachability for `needs_sync` and the
//! layout), `shared` (2), `addrspace` (3), `symbols` (4–6), `ir` (LLVM-C helpers).

use std::collections::HashSet;

use anyhow::{bail, Result};
use inkwell::module::Module;
use inkwell::targets::TargetTriple;
use llvm_sys::core::*;

mod addrspace;
mod callgraph;
mod intrinsics;
mod ir;
mod shared;
mod symbols;
#[cfg(test)]
mod tests;

use ir::*;

/// Prefix of every renamed device definition: `@helper` → `@__ptxemu.helper`.
pub const EMU_PREFIX: &str = "__ptxemu.";
/// Prefix of the per-kernel entry wrappers: `@__ptxemu_entry.<kernel>`.
pub const ENTRY_PREFIX: &str = "__ptxemu_entry.";

/// The hidden shared `i32` used by `llvm.nvvm.barrier0.{popc,and,or}`.
pub(crate) const BARRIER_REDUCE_SLOT: &str = "__ptxemu.barrier_reduce";

/// Names of the emulator ABI functions (ptxcc_abi.h, "Emulator ABI").
pub(crate) mod abi {
    pub const SREG: &str = "__ptxemu_sreg";
    pub const BARRIER: &str = "__ptxemu_barrier";
    pub const WARP_SYNC: &str = "__ptxemu_warp_sync";
    pub const SHFL_SYNC: &str = "__ptxemu_shfl_sync";
    pub const VOTE_SYNC: &str = "__ptxemu_vote_sync";
    pub const SHARED_BASE: &str = "__ptxemu_shared_base";
    pub const TRAP: &str = "__ptxemu_trap";
    /// Calls to these make a kernel `needs_sync` (PTXRT_EMU_NEEDS_SYNC).
    pub const SYNC_FUNCTIONS: &[&str] = &[BARRIER, WARP_SYNC, SHFL_SYNC, VOTE_SYNC];
}

/// One kernel of the lowered module (one `ptxrt_kernel_desc`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmuKernel {
    /// The kernel's name in the device module: the PTX `.entry` name.
    pub kernel: String,
    /// `__ptxemu_entry.<kernel>`: `void (void **args)`, for `ptxrt_kernel_desc::emu_entry`.
    pub entry: String,
    /// Number of parameters (each 8 bytes in the ABI): `ptxrt_kernel_desc::num_params`.
    pub num_params: u32,
    /// The kernel reaches a barrier, warp sync, shuffle or vote: `PTXRT_EMU_NEEDS_SYNC`.
    pub needs_sync: bool,
    /// Static shared memory per block: `ptxrt_kernel_desc::emu_shared_bytes`.
    pub shared_bytes: u32,
}

/// One exported (`declare target`) global of the lowered module (one `ptxrt_global_desc`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmuGlobal {
    /// Its name in the device module (= the host copy's name, = the PTX symbol).
    pub device_name: String,
    /// `__ptxemu.<device_name>`: the emulator's copy, for `ptxrt_global_desc::emu_addr`.
    pub emu_name: String,
    /// Bytes, in the host data layout.
    pub size: u64,
}

/// Where one `addrspace(3)` variable lives in the block's shared memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmuShared {
    /// Its name in the device module.
    pub name: String,
    /// Byte offset from the (re-aligned, see `align`) shared base.
    pub offset: u64,
    pub size: u64,
    pub align: u64,
}

/// What [`lower_for_emulator`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EmuLowering {
    /// In module order.
    pub kernels: Vec<EmuKernel>,
    /// Exported global variable definitions, in module order.
    pub globals: Vec<EmuGlobal>,
    /// The module's shared-memory layout (for diagnostics and tests).
    pub shared: Vec<EmuShared>,
}

/// Symbol of the emulator's copy of device definition `device_name`.
pub fn emu_symbol(device_name: &str) -> String {
    format!("{EMU_PREFIX}{device_name}")
}

/// Symbol of the emulator entry wrapper of `kernel`.
pub fn entry_symbol(kernel: &str) -> String {
    format!("{ENTRY_PREFIX}{kernel}")
}

/// Rewrite the device module `device` (nvptx64, before libclc and optimisation) in place into
/// host code for the emulator; see the module documentation. `device` should be a clone: on
/// error it is left half-transformed.
pub fn lower_for_emulator(
    device: &Module<'_>,
    host_triple: &TargetTriple,
    host_data_layout: &str,
) -> Result<EmuLowering> {
    let m = device.as_mut_ptr();
    let triple = unsafe { std::ffi::CStr::from_ptr(LLVMGetTarget(m)) }
        .to_string_lossy()
        .into_owned();
    if !triple.is_empty() && !triple.starts_with("nvptx") {
        bail!("simt-lowering expects an NVPTX device module, not one for `{triple}`");
    }
    if let Err(e) = verify(m) {
        bail!(
            "simt-lowering: the input device module is invalid:\n{}",
            e.trim_end()
        );
    }
    let ir = Ir::new(m);
    unsafe {
        LLVMSetTarget(m, host_triple.as_str().as_ptr());
        let dl = cstring(host_data_layout);
        LLVMSetDataLayout(m, dl.as_ptr());
    }

    let kernels = find_kernels(&ir)?;
    let kernel_names: Vec<String> = kernels.iter().map(|k| name(*k)).collect();
    let num_params: Vec<u32> = kernels.iter().map(|k| params(*k).len() as u32).collect();

    let mut emu = intrinsics::EmuDecls::new();
    intrinsics::lower(&ir, &mut emu)?;

    let cg = callgraph::CallGraph::build(m);
    let reach: Vec<HashSet<Value>> = kernels.iter().map(|k| cg.reachable(*k)).collect();
    let sync_fns: Vec<Value> = abi::SYNC_FUNCTIONS
        .iter()
        .filter_map(|n| ir.named_function(n))
        .collect();
    let needs_sync: Vec<bool> = reach
        .iter()
        .map(|r| sync_fns.iter().any(|f| r.contains(f)))
        .collect();

    let shared = shared::lower(&ir, &mut emu, &kernels, &reach)?;
    drop(reach);

    addrspace::flatten_globals(&ir)?;
    addrspace::flatten_signatures(&ir)?;
    addrspace::flatten_instructions(&ir)?;

    symbols::cleanup(&ir)?;
    let globals = symbols::rename(&ir)?;
    let mut out = EmuLowering {
        kernels: Vec::new(),
        globals,
        shared: shared.layout,
    };
    for (k, kname) in kernel_names.iter().enumerate() {
        let entry = symbols::build_entry(&ir, kname)?;
        out.kernels.push(EmuKernel {
            kernel: kname.clone(),
            entry,
            num_params: num_params[k],
            needs_sync: needs_sync[k],
            shared_bytes: shared.kernel_bytes[k],
        });
    }

    if let Err(e) = verify(m) {
        bail!(
            "simt-lowering: internal error, the lowered module is invalid:\n{}",
            e.trim_end()
        );
    }
    Ok(out)
}

/// Kernels: functions named by `!nvvm.annotations` `!{ptr @k, !"kernel", i32 1}` or using the
/// `ptx_kernel` calling convention, in module order; each must be a definition returning void
/// whose parameters are pointers or scalars of at most 8 bytes.
fn find_kernels(ir: &Ir) -> Result<Vec<Value>> {
    let mut annotated = HashSet::new();
    for node in named_metadata_operands(ir.m, "nvvm.annotations") {
        let ops = md_node_operands(node);
        let Some(&f) = ops.first() else { continue };
        if f.is_null() || !is_function(f) {
            continue;
        }
        let mut k = 1;
        while k + 1 < ops.len() {
            if md_string(ops[k]).as_deref() == Some("kernel")
                && const_int_value(ops[k + 1]) == Some(1)
            {
                annotated.insert(f);
            }
            k += 2;
        }
    }
    let byval = enum_attr_kind("byval")?;
    let byref = enum_attr_kind("byref")?;
    let mut out = Vec::new();
    for f in functions(ir.m) {
        let cc = unsafe { LLVMGetFunctionCallConv(f) };
        if !annotated.contains(&f) && cc != 71 {
            continue;
        }
        let n = name(f);
        if is_declaration(f) {
            bail!("kernel @{n} is only declared in the device module");
        }
        let fnty = value_type(f);
        if type_kind(fn_return_type(fnty)) != llvm_sys::LLVMTypeKind::LLVMVoidTypeKind {
            bail!("kernel @{n} must return void");
        }
        if fn_is_vararg(fnty) {
            bail!("kernel @{n} is variadic");
        }
        for (i, t) in fn_param_types(fnty).into_iter().enumerate() {
            use llvm_sys::LLVMTypeKind::*;
            let ok = match type_kind(t) {
                LLVMPointerTypeKind | LLVMFloatTypeKind | LLVMDoubleTypeKind => true,
                LLVMIntegerTypeKind => int_width(t).is_some_and(|w| w <= 64),
                _ => false,
            };
            let idx = i as u32 + 1;
            let by_mem = unsafe {
                !LLVMGetEnumAttributeAtIndex(f, idx, byval).is_null()
                    || !LLVMGetEnumAttributeAtIndex(f, idx, byref).is_null()
            };
            if !ok || by_mem {
                bail!(
                    "kernel @{n}: parameter {i} has type `{}`{}; the launch ABI passes every \
                     parameter as one 8-byte pointer or scalar",
                    print_type(t),
                    if by_mem { " passed by memory" } else { "" }
                );
            }
        }
        out.push(f);
    }
    Ok(out)
}

/// Remove the elements that mention any of `gone` from `@llvm.used` / `@llvm.compiler.used`.
pub(crate) fn used_lists_remove(ir: &Ir, gone: &HashSet<Value>) -> Result<()> {
    fn mentions(c: Value, gone: &HashSet<Value>) -> bool {
        if gone.contains(&c) {
            return true;
        }
        if !unsafe { LLVMIsAGlobalValue(c) }.is_null() {
            return false;
        }
        operands(c)
            .into_iter()
            .any(|o| !o.is_null() && mentions(o, gone))
    }
    for list in ["llvm.used", "llvm.compiler.used"] {
        let Some(g) = ir.named_global(list) else {
            continue;
        };
        let init = unsafe { LLVMGetInitializer(g) };
        if init.is_null() {
            continue;
        }
        let elems = operands(init);
        let keep: Vec<Value> = elems
            .iter()
            .copied()
            .filter(|e| !mentions(*e, gone))
            .collect();
        if keep.len() == elems.len() {
            continue;
        }
        unsafe {
            if keep.is_empty() {
                LLVMDeleteGlobal(g);
                continue;
            }
            let elem_ty = type_of(keep[0]);
            let mut k = keep.clone();
            let arr = LLVMConstArray2(elem_ty, k.as_mut_ptr(), k.len() as u64);
            set_name(g, "");
            let c = cstring(list);
            let ng = LLVMAddGlobal(ir.m, type_of(arr), c.as_ptr());
            LLVMSetInitializer(ng, arr);
            LLVMSetLinkage(ng, llvm_sys::LLVMLinkage::LLVMAppendingLinkage);
            LLVMSetSection(ng, c"llvm.metadata".as_ptr());
            LLVMDeleteGlobal(g);
        }
    }
    Ok(())
}

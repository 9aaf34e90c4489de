//! Device extraction: host module → device module.
//!
//! For every offload entry clang made, the host-fallback function `__omp_offloading_<id>_<fn>_l<line>`
//! is the body of the region (it calls `__kmpc_fork_teams`/`__kmpc_fork_call` on the outlined
//! functions). The device module is a clone of the host module pruned to what those functions and
//! the `declare target` globals reach, retargeted to `nvptx64-nvidia-cuda`:
//!
//! ```llvm
//! ; host (x86_64)                                   ; device (nvptx64) after this pass
//! @tab = global [4 x double] [...]                   @tab = global [4 x double] [...]     ; declare target
//! @g = global i32 0                                  ; (dropped: not reachable)
//! define void @saxpy(...) { ... __tgt_target_kernel  ; (dropped)
//! define internal void @__omp_offloading_..._l7(...)  define void @__omp_offloading_..._l7(...)
//! define internal void @..._l7.omp_outlined(...)      define internal void @..._l7.omp_outlined(...)
//! define void @helper(...)                           define internal void @helper(...)
//! ```
//!
//! Kernels keep external linkage (their names are the PTX `.entry` names), `declare target`
//! globals keep theirs (the runtime looks them up by name); everything else becomes internal so
//! the optimiser may specialise it. x86 function attributes are removed, and so are
//! `optnone`/`noinline` from `-O0` host code: device code is always optimised.
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir;
use crate::openmp::{self, GlobalEntry, OffloadEntries};
use inkwell::module::{Linkage, Module};
use inkwell::targets::TargetTriple;
use inkwell::values::AsValueRef;
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use std::collections::HashSet;

pub const NVPTX_TRIPLE: &str = "nvptx64-nvidia-cuda";
pub const NVPTX_DATA_LAYOUT: &str = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64";

/// Function attributes that describe the host target and mean nothing (or the wrong thing) on NVPTX.
const HOST_ONLY_FN_ATTRS: &[&str] = &[
    "target-cpu",
    "target-features",
    "tune-cpu",
    "stack-protector-buffer-size",
];

/// Builds the device module of `host`. Returns `Ok(None)` when the module has no offload entries.
pub fn extract_device_module<'ctx>(
    host: &Module<'ctx>,
) -> Result<Option<(Module<'ctx>, OffloadEntries)>, Diagnostics> {
    let mut entries = openmp::offload_entries(host);
    entries.globals.extend(expose_static_globals(host));
    if entries.is_empty() {
        return Ok(None);
    }
    let mut diags = Vec::new();
    for k in &entries.kernels {
        if host
            .get_function(&k.name)
            .map(|f| f.count_basic_blocks() == 0)
            .unwrap_or(true)
        {
            diags.push(Diagnostic {
                loc: openmp::kernel_loc(host, k),
                message: format!("host IR has no body for offload region '{}' (was it compiled with -Xclang -disable-llvm-passes?)", k.name),
            });
        }
    }
    // `declare target link` globals: clang's device compile reaches them through a reference
    // pointer (`X_decl_tgt_ref_ptr`, the registered entry, initialised with `@X`) that the
    // runtime sets when the variable is mapped; ptxcc's device code comes from the host IR,
    // which names the variable itself, so the declare-target-link pass rewrites those uses (it
    // finds the reference pointers in LINK_VARS_MD).
    let links: Vec<String> = entries
        .globals
        .iter()
        .filter(|g| g.is_link)
        .map(|g| g.name.clone())
        .collect();
    if !diags.is_empty() {
        return Err(Diagnostics(diags));
    }
    if let Err(e) = host.verify() {
        return Err(Diagnostics(vec![Diagnostic {
            loc: None,
            message: format!("invalid host IR: {}", e.to_string()),
        }]));
    }
    let device = host.clone();
    // Device variants (`declare variant` with device traits) replace their base functions
    // before pruning, so that what they reach comes along.
    crate::declare_variant::apply_device_variants(&device);
    prune_and_retarget(&device, &entries);
    link_vars_note(&device, &links);
    if !diags.is_empty() {
        return Err(Diagnostics(diags));
    }
    Ok(Some((device, entries)))
}

/// Named metadata listing the reference pointers of the `declare target link` variables of the
/// device module (`!{!"g_decl_tgt_ref_ptr"}`), for the declare-target-link pass.
pub const LINK_VARS_MD: &str = "ptxcc.declare_target_link";

/// Records `links` in the device module (see [`LINK_VARS_MD`]).
fn link_vars_note(device: &Module<'_>, links: &[String]) {
    let ctx = device.get_context();
    for l in links {
        let node = ctx.metadata_node(&[ctx.metadata_string(l).into()]);
        let _ = device.add_global_metadata(LINK_VARS_MD, &node);
    }
}

/// The reference pointers of the `declare target link` variables recorded by device extraction.
pub fn link_vars(device: &Module<'_>) -> Vec<String> {
    device
        .get_global_metadata(LINK_VARS_MD)
        .iter()
        .filter_map(|n| {
            let values = n.get_node_values()?;
            let v = values.first()?.into_metadata_value();
            v.get_string_value()
                .map(|s| String::from_utf8_lossy(s).into_owned())
        })
        .collect()
}

/// Prefix of the name a `static` `declare target` global gets (host and device alike).
pub const STATIC_GLOBAL_PREFIX: &str = "__ptxcc_static_";

/// The `static` `declare target` globals of the module, renamed so that the device and the
/// runtime can know them by name: clang's host compile makes no offload entry for a global
/// with internal linkage (its device compile would give it a name of its own), so without this
/// the device copy would be an unregistered internal global the host never sees.
///
/// The new name, `__ptxcc_static_<unit>_<name>`, is kept by the host global (still internal,
/// so no other object sees it) and by the device copy (external, as every `declare target`
/// global is). `<unit>` tells this translation unit from the others of the program, which keeps
/// the emulator's copy (`__ptxemu.<name>`, linked into the executable) apart from another
/// file's static of the same name; only PTX identifier characters are used (NVPTX would rename
/// a '.').
fn expose_static_globals(host: &Module<'_>) -> Vec<GlobalEntry> {
    let unit = unit_tag(host);
    let mut out = Vec::new();
    for d in openmp::declared_globals(host) {
        let Some(g) = host.get_global(&d.name) else {
            continue;
        };
        if g.is_declaration() || !matches!(g.get_linkage(), Linkage::Internal | Linkage::Private) {
            continue;
        }
        let name = format!("{STATIC_GLOBAL_PREFIX}{unit}_{}", d.name);
        let size = unsafe {
            let td = llvm_sys::target::LLVMGetModuleDataLayout(host.as_mut_ptr());
            llvm_sys::target::LLVMABISizeOfType(td, llvm::LLVMGlobalGetValueType(g.as_value_ref()))
        };
        g.set_linkage(Linkage::Internal);
        g.as_pointer_value().set_name(&name);
        out.push(GlobalEntry {
            name,
            size,
            is_link: d.is_link,
        });
    }
    out
}

/// A tag of the translation unit, unique in the program: a hash of clang's device/file id of the
/// source (its inode), the source's name and the names of the unit's external definitions (no
/// two objects of one program define the same one, even when one source is compiled twice with
/// different macros).
fn unit_tag(host: &Module<'_>) -> String {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes.iter().chain(std::iter::once(&0u8)) {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(openmp::unit_id(host).unwrap_or_default().as_bytes());
    eat(host.get_source_file_name().to_bytes());
    for f in host.get_functions() {
        if f.count_basic_blocks() > 0 && f.get_linkage() == Linkage::External {
            eat(f.get_name().to_bytes());
        }
    }
    for g in host.get_globals() {
        if !g.is_declaration() && g.get_linkage() == Linkage::External {
            eat(g.get_name().to_bytes());
        }
    }
    format!("{h:016x}")
}

/// Removes everything the kernels and `declare target` globals do not reach, then retargets.
pub fn prune_and_retarget(device: &Module<'_>, entries: &OffloadEntries) {
    let roots: Vec<LLVMValueRef> = entries
        .kernels
        .iter()
        .filter_map(|k| device.get_function(&k.name).map(|f| f.as_value_ref()))
        .chain(
            entries
                .globals
                .iter()
                .filter_map(|g| device.get_global(&g.name).map(|g| g.as_value_ref())),
        )
        .collect();
    let live = reachable(&roots);

    // Drop bodies and initializers of dead definitions first, so that the dead values only have
    // uses among themselves (or in metadata-like globals), then delete them.
    let dead_fns: Vec<_> = device
        .get_functions()
        .filter(|f| !live.contains(&f.as_value_ref()))
        .collect();
    let dead_globals: Vec<_> = device
        .get_globals()
        .filter(|g| !live.contains(&g.as_value_ref()))
        .collect();
    unsafe {
        for f in &dead_fns {
            for bb in f.get_basic_blocks() {
                let _ = bb.delete();
            }
        }
        for g in &dead_globals {
            llvm::LLVMSetInitializer(g.as_value_ref(), std::ptr::null_mut());
        }
        let mut alias = llvm::LLVMGetFirstGlobalAlias(device.as_mut_ptr());
        while !alias.is_null() {
            let next = llvm::LLVMGetNextGlobalAlias(alias);
            if !live.contains(&alias) {
                let ty = llvm::LLVMTypeOf(alias);
                llvm::LLVMReplaceAllUsesWith(alias, llvm::LLVMGetPoison(ty));
                llvm::LLVMDeleteGlobal(alias);
            }
            alias = next;
        }
        for g in dead_globals {
            let v = g.as_value_ref();
            llvm::LLVMReplaceAllUsesWith(v, llvm::LLVMGetPoison(llvm::LLVMTypeOf(v)));
            llvm::LLVMDeleteGlobal(v);
        }
        for f in dead_fns {
            let v = f.as_value_ref();
            llvm::LLVMReplaceAllUsesWith(v, llvm::LLVMGetPoison(llvm::LLVMTypeOf(v)));
            llvm::LLVMDeleteFunction(v);
        }
    }

    device.set_triple(&TargetTriple::create(NVPTX_TRIPLE));
    unsafe {
        let dl = std::ffi::CString::new(NVPTX_DATA_LAYOUT).unwrap_or_default();
        llvm::LLVMSetDataLayout(device.as_mut_ptr(), dl.as_ptr());
    }
    let kernel_names: HashSet<&str> = entries.kernels.iter().map(|k| k.name.as_str()).collect();
    let global_names: HashSet<&str> = entries.globals.iter().map(|g| g.name.as_str()).collect();
    for f in device.get_functions() {
        for attr in HOST_ONLY_FN_ATTRS {
            f.remove_string_attribute(inkwell::attributes::AttributeLoc::Function, attr);
        }
        // Device code is always optimised (as nvcc does), whatever -O the host code gets.
        for attr in ["optnone", "noinline"] {
            let kind = inkwell::attributes::Attribute::get_named_enum_kind_id(attr);
            f.remove_enum_attribute(inkwell::attributes::AttributeLoc::Function, kind);
        }
        if f.count_basic_blocks() == 0 {
            continue;
        }
        let name = ir::fn_name(f);
        if kernel_names.contains(name.as_str()) {
            f.set_linkage(Linkage::External);
        } else {
            f.set_linkage(Linkage::Internal);
        }
        unsafe { llvm::LLVMSetSection(f.as_value_ref(), std::ptr::null()) };
    }
    for g in device.get_globals() {
        if g.is_declaration() {
            continue;
        }
        let name = ir::global_name(g);
        if global_names.contains(name.as_str()) {
            g.set_linkage(Linkage::External);
        } else if !matches!(g.get_linkage(), Linkage::Private) {
            g.set_linkage(Linkage::Internal);
        }
        g.set_section(None);
    }
}

/// Every function, global and alias reachable from `roots` through instruction operands,
/// constant expressions and initializers.
fn reachable(roots: &[LLVMValueRef]) -> HashSet<LLVMValueRef> {
    let mut live: HashSet<LLVMValueRef> = HashSet::new();
    let mut work: Vec<LLVMValueRef> = roots.to_vec();
    let mut seen_consts: HashSet<LLVMValueRef> = HashSet::new();
    unsafe {
        while let Some(v) = work.pop() {
            if !live.insert(v) {
                continue;
            }
            let mut operands: Vec<LLVMValueRef> = Vec::new();
            if !llvm::LLVMIsAFunction(v).is_null() {
                let mut bb = llvm::LLVMGetFirstBasicBlock(v);
                while !bb.is_null() {
                    let mut inst = llvm::LLVMGetFirstInstruction(bb);
                    while !inst.is_null() {
                        for i in 0..llvm::LLVMGetNumOperands(inst).max(0) as u32 {
                            operands.push(llvm::LLVMGetOperand(inst, i));
                        }
                        inst = llvm::LLVMGetNextInstruction(inst);
                    }
                    bb = llvm::LLVMGetNextBasicBlock(bb);
                }
                if llvm::LLVMHasPersonalityFn(v) != 0 {
                    operands.push(llvm::LLVMGetPersonalityFn(v));
                }
            } else if !llvm::LLVMIsAGlobalVariable(v).is_null() {
                let init = llvm::LLVMGetInitializer(v);
                if !init.is_null() {
                    operands.push(init);
                }
            } else if !llvm::LLVMIsAGlobalAlias(v).is_null() {
                operands.push(llvm::LLVMAliasGetAliasee(v));
            }
            // Constants (expressions, aggregates) are walked to the globals they contain.
            while let Some(op) = operands.pop() {
                if op.is_null() {
                    continue;
                }
                if !llvm::LLVMIsAGlobalValue(op).is_null() {
                    if !live.contains(&op) {
                        work.push(op);
                    }
                } else if !llvm::LLVMIsAConstant(op).is_null() && seen_consts.insert(op) {
                    for i in 0..llvm::LLVMGetNumOperands(op).max(0) as u32 {
                        operands.push(llvm::LLVMGetOperand(op, i));
                    }
                }
            }
        }
    }
    live
}

//! Steps 7–9: NVPTX leftovers removed, symbols renamed, one entry wrapper per kernel.

use anyhow::{bail, Result};
use llvm_sys::core::*;
use llvm_sys::target::*;
use llvm_sys::{LLVMLinkage, LLVMOpcode, LLVMVisibility};

use super::ir::*;
use super::{used_lists_remove, EmuGlobal, EMU_PREFIX, ENTRY_PREFIX};

const PTX_KERNEL_CC: u32 = 71;
const PTX_DEVICE_CC: u32 = 72;

/// Sections holding libomptarget offload-entry tables: copies of them must not reach the host
/// object, where they would add bogus entries to the host's own table.
const OFFLOAD_ENTRY_SECTIONS: &[&str] = &["omp_offloading_entries", "llvm_offload_entries"];

/// External globals of the C library that device code may name and that must stay the host's.
const HOST_LIBC_GLOBALS: &[&str] = &["stdin", "stdout", "stderr", "errno", "environ", "__environ"];

fn is_nvptx_attr(key: &str, value: &str) -> bool {
    match key {
        "target-cpu" => value.starts_with("sm_"),
        "target-features" => value
            .split(',')
            .any(|f| f.starts_with("+ptx") || f.starts_with("+sm_")),
        _ => key.starts_with("nvvm.") || key.starts_with("nvptx"),
    }
}

/// Calling conventions, NVPTX attributes, GPU sync scopes, offload-entry tables, NVVM metadata
/// and module flags.
pub(crate) fn cleanup(ir: &Ir) -> Result<()> {
    for f in functions(ir.m) {
        let cc = unsafe { LLVMGetFunctionCallConv(f) };
        if cc == PTX_KERNEL_CC || cc == PTX_DEVICE_CC {
            unsafe { LLVMSetFunctionCallConv(f, 0) };
        }
        for key in string_attr_keys(f, llvm_sys::LLVMAttributeFunctionIndex) {
            let value = fn_string_attr(f, &key).unwrap_or_default();
            if is_nvptx_attr(&key, &value) {
                remove_fn_string_attr(f, llvm_sys::LLVMAttributeFunctionIndex, &key);
            }
        }
        for i in insts(f) {
            if is_call_base(i) {
                let cc = unsafe { LLVMGetInstructionCallConv(i) };
                if cc == PTX_KERNEL_CC || cc == PTX_DEVICE_CC {
                    unsafe { LLVMSetInstructionCallConv(i, 0) };
                }
            }
            // GPU scopes ("block", "device", "cluster", ...) mean nothing to the host back end,
            // which would treat a non-system fence as a compiler-only barrier: make them system.
            let atomic = match opcode(i) {
                LLVMOpcode::LLVMFence
                | LLVMOpcode::LLVMAtomicRMW
                | LLVMOpcode::LLVMAtomicCmpXchg => true,
                LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMStore => {
                    (unsafe { LLVMGetOrdering(i) })
                        != llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
                }
                _ => false,
            };
            if atomic && unsafe { LLVMIsAtomicSingleThread(i) } == 0 {
                unsafe { LLVMSetAtomicSingleThread(i, 0) };
            }
        }
    }

    // Offload-entry tables.
    let entries: Vec<Value> = global_vars(ir.m)
        .into_iter()
        .filter(|g| {
            let sec = unsafe { LLVMGetSection(*g) };
            if sec.is_null() {
                return false;
            }
            let s = unsafe { std::ffi::CStr::from_ptr(sec) }.to_string_lossy();
            OFFLOAD_ENTRY_SECTIONS.contains(&s.as_ref()) || s.starts_with(".llvm.offloading")
        })
        .collect();
    if !entries.is_empty() {
        used_lists_remove(ir, &entries.iter().copied().collect())?;
        // The entry-name strings they point to go with them.
        let mut names = Vec::new();
        for &g in &entries {
            let init = unsafe { LLVMGetInitializer(g) };
            if !init.is_null() {
                names.extend(
                    operands(init)
                        .into_iter()
                        .filter(|o| !o.is_null() && is_global_var(*o)),
                );
            }
        }
        for g in entries {
            delete_global_value(g);
        }
        names.sort();
        names.dedup();
        for n in names {
            if is_local(n) && !has_live_uses(n) {
                delete_global_value(n);
            }
        }
    }

    // NVVM annotations, and the device compilation's own bookkeeping (clang's offload-entry
    // info, ptxcc's kernel list), which must not be appended to the host module's copies.
    for n in named_metadata_names(ir.m) {
        if n.starts_with("nvvm")
            || n.starts_with("nvptx")
            || n.starts_with("ptxcc.")
            || n == "omp_offload.info"
        {
            erase_named_metadata(ir.m, &n);
        }
    }
    filter_module_flags(ir);
    Ok(())
}

/// Drop module flags that describe the device compilation ("openmp-device" would make
/// OpenMPOpt treat the host module as device code; "nvvm-reflect-*" are NVPTX-only).
fn filter_module_flags(ir: &Ir) {
    let drop = |k: &str| k == "openmp-device" || k.starts_with("nvvm") || k.starts_with("nvptx");
    unsafe {
        let mut len = 0usize;
        let entries = LLVMCopyModuleFlagsMetadata(ir.m, &mut len);
        if entries.is_null() {
            return;
        }
        let mut keep = Vec::new();
        let mut dropped = false;
        for i in 0..len as u32 {
            let mut klen = 0usize;
            let kp = LLVMModuleFlagEntriesGetKey(entries, i, &mut klen);
            let key = String::from_utf8_lossy(std::slice::from_raw_parts(kp as *const u8, klen))
                .into_owned();
            if drop(&key) {
                dropped = true;
            } else {
                keep.push((
                    LLVMModuleFlagEntriesGetFlagBehavior(entries, i),
                    key,
                    LLVMModuleFlagEntriesGetMetadata(entries, i),
                ));
            }
        }
        if dropped {
            erase_named_metadata(ir.m, "llvm.module.flags");
            for (b, k, md) in keep {
                LLVMAddModuleFlag(ir.m, b, k.as_ptr() as *const std::ffi::c_char, k.len(), md);
            }
        }
        LLVMDisposeModuleFlagsMetadata(entries);
    }
}

fn make_internal(g: Value) {
    unsafe {
        LLVMSetLinkage(g, LLVMLinkage::LLVMInternalLinkage);
        LLVMSetVisibility(g, LLVMVisibility::LLVMDefaultVisibility);
        LLVMSetDLLStorageClass(g, llvm_sys::LLVMDLLStorageClass::LLVMDefaultStorageClass);
        llvm_sys::comdat::LLVMSetComdat(g, std::ptr::null_mut());
    }
}

fn is_local(g: Value) -> bool {
    matches!(
        unsafe { LLVMGetLinkage(g) },
        LLVMLinkage::LLVMInternalLinkage | LLVMLinkage::LLVMPrivateLinkage
    )
}

/// `@x` → `@__ptxemu.x`. Function definitions become internal; external declarations (the C
/// library, libm) keep their names; exported globals stay exported with hidden visibility and
/// are returned for the registration table.
pub(crate) fn rename(ir: &Ir) -> Result<Vec<EmuGlobal>> {
    let td = unsafe { LLVMGetModuleDataLayout(ir.m) };
    let skip = |n: &str| n.is_empty() || n.starts_with("llvm.") || n.starts_with("__ptxemu");
    for f in functions(ir.m) {
        let n = name(f);
        if skip(&n) || intrinsic_id(f) != 0 || is_declaration(f) {
            continue;
        }
        set_name(f, &format!("{EMU_PREFIX}{n}"));
        make_internal(f);
    }
    let mut out = Vec::new();
    for g in global_vars(ir.m) {
        let n = name(g);
        if skip(&n) {
            continue;
        }
        let emu = format!("{EMU_PREFIX}{n}");
        if is_declaration(g) {
            if HOST_LIBC_GLOBALS.contains(&n.as_str()) {
                continue;
            }
            // Defined by another translation unit's emulator code.
            set_name(g, &emu);
            unsafe { LLVMSetVisibility(g, LLVMVisibility::LLVMHiddenVisibility) };
            continue;
        }
        set_name(g, &emu);
        if is_local(g) {
            continue;
        }
        unsafe {
            LLVMSetVisibility(g, LLVMVisibility::LLVMHiddenVisibility);
            LLVMSetDLLStorageClass(g, llvm_sys::LLVMDLLStorageClass::LLVMDefaultStorageClass);
            // The runtime copies `target update`/`declare target` data into it.
            LLVMSetGlobalConstant(g, 0);
            out.push(EmuGlobal {
                device_name: n,
                emu_name: name(g),
                size: LLVMABISizeOfType(td, value_type(g)),
            });
        }
    }
    for a in aliases(ir.m) {
        let n = name(a);
        if skip(&n) {
            continue;
        }
        set_name(a, &format!("{EMU_PREFIX}{n}"));
        make_internal(a);
    }
    Ok(out)
}

/// `define void @__ptxemu_entry.K(ptr %args)`: parameter i is loaded from `*(ptr)args[i]`.
pub(crate) fn build_entry(ir: &Ir, kernel: &str) -> Result<String> {
    let body_name = format!("{EMU_PREFIX}{kernel}");
    let Some(body) = ir.named_function(&body_name) else {
        bail!("internal error: kernel body @{body_name} disappeared");
    };
    let entry_name = format!("{ENTRY_PREFIX}{kernel}");
    if ir.named_function(&entry_name).is_some() || ir.named_global(&entry_name).is_some() {
        bail!("@{entry_name} already exists in the device module");
    }
    let td = unsafe { LLVMGetModuleDataLayout(ir.m) };
    let fnty = ir.fn_type(ir.void(), &[ir.ptr()], false);
    let c = cstring(&entry_name);
    unsafe {
        let e = LLVMAddFunction(ir.m, c.as_ptr(), fnty);
        LLVMSetVisibility(e, LLVMVisibility::LLVMHiddenVisibility);
        let args = LLVMGetParam(e, 0);
        set_name(args, "args");
        ir.add_fn_attr(e, 1, "noundef", 0)?;
        let bb = LLVMAppendBasicBlockInContext(ir.ctx, e, c"entry".as_ptr());
        LLVMPositionBuilderAtEnd(ir.b, bb);
        ir.clear_debug_loc();
        let mut vals = Vec::new();
        for (i, p) in params(body).into_iter().enumerate() {
            let ty = type_of(p);
            let pn = match name(p) {
                n if n.is_empty() => format!("arg{i}"),
                n => n,
            };
            let slot = ir.gep(
                ir.ptr(),
                args,
                &[ir.c64(i as u64)],
                true,
                &format!("{pn}.slot"),
            );
            let addr = ir.load(ir.ptr(), slot, 8, &format!("{pn}.addr"));
            let align = LLVMABIAlignmentOfType(td, ty);
            vals.push(ir.load(ty, addr, align, &pn));
        }
        ir.call(body, &vals, "");
        LLVMBuildRetVoid(ir.b);
    }
    Ok(entry_name)
}

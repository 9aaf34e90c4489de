//! What ptxcc knows about the OpenMP offload ABI that clang 19 emits for the host
//! (`clang -fopenmp --offload-arch=sm_XX --offload-host-only`): offload entries, ident_t source
//! locations, runtime entry points and schedule kinds.
use crate::diagnostics::SourceLoc;
use crate::ir;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, InstructionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;

/// Section clang puts `__tgt_offload_entry` records in.
pub const ENTRY_SECTION: &str = "omp_offloading_entries";
/// Prefix of every kernel's entry name (and of its host-fallback function).
pub const KERNEL_PREFIX: &str = "__omp_offloading_";

/// One `target` region: clang emits a host-fallback function with this name, a region-id global
/// `.NAME.region_id` whose address identifies the kernel at run time, and an offload entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelEntry {
    pub name: String,
}

impl KernelEntry {
    pub fn region_id_name(&self) -> String {
        region_id_name(&self.name)
    }
}

/// A `declare target` global: the host and the device each have a copy named `name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalEntry {
    pub name: String,
    pub size: u64,
    /// `declare target link` (flags bit 0) rather than `to`/`enter`.
    pub is_link: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OffloadEntries {
    pub kernels: Vec<KernelEntry>,
    pub globals: Vec<GlobalEntry>,
}

impl OffloadEntries {
    pub fn is_empty(&self) -> bool {
        self.kernels.is_empty() && self.globals.is_empty()
    }
}

/// Reads the `omp_offloading_entries` records of a host module.
pub fn offload_entries(host: &Module<'_>) -> OffloadEntries {
    let mut out = OffloadEntries::default();
    for g in host.get_globals() {
        let in_section = g
            .get_section()
            .map(|s| s.to_bytes() == ENTRY_SECTION.as_bytes())
            .unwrap_or(false);
        if !in_section {
            continue;
        }
        unsafe {
            let init = llvm::LLVMGetInitializer(g.as_value_ref());
            if init.is_null() || llvm::LLVMGetNumOperands(init) < 4 {
                continue;
            }
            let addr = ir::strip_casts(llvm::LLVMGetOperand(init, 0));
            let name = ir::global_c_string(llvm::LLVMGetOperand(init, 1));
            let size = ir::const_int(llvm::LLVMGetOperand(init, 2)).unwrap_or(0) as u64;
            let flags = ir::const_int(llvm::LLVMGetOperand(init, 3)).unwrap_or(0);
            let Some(name) = name else { continue };
            let addr_name = ir::value_name(addr);
            if addr_name == region_id_name(&name) {
                out.kernels.push(KernelEntry { name });
            } else {
                out.globals.push(GlobalEntry {
                    name: addr_name,
                    size,
                    is_link: flags & 1 != 0,
                });
            }
        }
    }
    out
}

/// The `omp_offload.info` records clang writes for the host (`!{i32 kind, ...}`): what it knows
/// of the offload entries, including those it makes no `omp_offloading_entries` record for.
pub const OFFLOAD_INFO: &str = "omp_offload.info";
/// Record kind of a target region: `!{i32 0, i32 device_id, i32 file_id, !"fn", i32 line, ...}`.
const INFO_KIND_REGION: i64 = 0;
/// Record kind of a `declare target` global: `!{i32 1, !"name", i32 flags, i32 order}`.
const INFO_KIND_GLOBAL: i64 = 1;

/// A `declare target` global named in `!omp_offload.info`: its host name and whether it is
/// `link` (flags 1; 0 is `to`, 2 `enter`, 3 "none", which is not a device global).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredGlobal {
    pub name: String,
    pub is_link: bool,
}

/// The operands of each `!omp_offload.info` record (MDNodes as values; constants are themselves).
fn offload_info_records(host: &Module<'_>) -> Vec<Vec<LLVMValueRef>> {
    let Ok(name) = std::ffi::CString::new(OFFLOAD_INFO) else {
        return Vec::new();
    };
    unsafe {
        let m = host.as_mut_ptr();
        let n = llvm::LLVMGetNamedMetadataNumOperands(m, name.as_ptr()) as usize;
        let mut nodes: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); n];
        if n > 0 {
            llvm::LLVMGetNamedMetadataOperands(m, name.as_ptr(), nodes.as_mut_ptr());
        }
        nodes
            .into_iter()
            .filter(|node| !node.is_null() && !llvm::LLVMIsAMDNode(*node).is_null())
            .map(crate::ir::md_node_operands)
            .collect()
    }
}

/// The text of an `!"…"` operand.
fn md_string(v: LLVMValueRef) -> Option<String> {
    unsafe {
        if v.is_null() || llvm::LLVMIsAMDString(v).is_null() {
            return None;
        }
        let mut len = 0u32;
        let p = llvm::LLVMGetMDString(v, &mut len);
        (!p.is_null()).then(|| {
            String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize))
                .into_owned()
        })
    }
}

/// Every `declare target` global of the translation unit (`to`, `enter` and `link`), from
/// `!omp_offload.info`. Clang's host compile makes an offload entry only for the externally
/// visible ones; a `static` one is known from this record alone.
pub fn declared_globals(host: &Module<'_>) -> Vec<DeclaredGlobal> {
    offload_info_records(host)
        .into_iter()
        .filter(|ops| ops.len() >= 3 && ir::const_int(ops[0]) == Some(INFO_KIND_GLOBAL))
        .filter_map(|ops| {
            let name = md_string(ops[1])?;
            let flags = ir::const_int(ops[2])?;
            match flags & 3 {
                3 => None,
                f => Some(DeclaredGlobal {
                    name,
                    is_link: f == 1,
                }),
            }
        })
        .collect()
}

/// `DEVICE_FILE` of the translation unit's kernel names (`__omp_offloading_fe00_98c25f_main_l5`):
/// clang's device and file ids (the source file's inode), unique per source file on the machine.
pub fn unit_id(host: &Module<'_>) -> Option<String> {
    offload_info_records(host)
        .into_iter()
        .filter(|ops| ops.len() >= 3 && ir::const_int(ops[0]) == Some(INFO_KIND_REGION))
        .find_map(|ops| {
            Some(format!(
                "{:x}_{:x}",
                ir::const_int(ops[1])? as u32,
                ir::const_int(ops[2])? as u32
            ))
        })
}

/// The source location in an `ident_t` constant (`;file;function;line;col;;`).
pub fn ident_loc(ident: LLVMValueRef) -> Option<SourceLoc> {
    unsafe {
        let g = ir::strip_casts(ident);
        if llvm::LLVMIsAGlobalVariable(g).is_null() {
            return None;
        }
        let init = llvm::LLVMGetInitializer(g);
        if init.is_null() || llvm::LLVMGetNumOperands(init) < 5 {
            return None;
        }
        parse_psource(&ir::global_c_string(llvm::LLVMGetOperand(init, 4))?)
    }
}

/// Parses clang's `psource` string: `;file;function;line;col;;`.
pub fn parse_psource(s: &str) -> Option<SourceLoc> {
    let mut parts = s.split(';');
    parts.next()?; // leading empty field
    let file = parts.next()?.to_string();
    let _function = parts.next()?;
    let line = parts.next()?.parse().ok()?;
    let col = parts.next()?.parse().ok()?;
    if file.is_empty() || file == "unknown" {
        return None;
    }
    Some(SourceLoc { file, line, col })
}

/// Source location of a call whose first argument is an `ident_t*` (every `__kmpc_*` entry point).
pub fn call_loc(call: inkwell::values::InstructionValue<'_>) -> Option<SourceLoc> {
    ident_loc(ir::call_arg_raw(call, 0)).or_else(|| debug_loc(call))
}

/// Source location of an instruction from its debug location (`-gline-tables-only`).
pub fn debug_loc(inst: inkwell::values::InstructionValue<'_>) -> Option<SourceLoc> {
    unsafe {
        let v = inst.as_value_ref();
        let line = llvm_sys::core::LLVMGetDebugLocLine(v);
        if line == 0 {
            return None;
        }
        let col = llvm_sys::core::LLVMGetDebugLocColumn(v);
        let mut len = 0u32;
        let p = llvm_sys::core::LLVMGetDebugLocFilename(v, &mut len);
        if p.is_null() {
            return None;
        }
        let file =
            String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize))
                .into_owned();
        Some(SourceLoc { file, line, col })
    }
}

/// `.NAME.region_id`: the global whose address identifies kernel `kernel` at run time.
pub fn region_id_name(kernel: &str) -> String {
    format!(".{kernel}.region_id")
}

/// The `__tgt_target_kernel` calls (any variant) that launch the kernel named `kernel`: those
/// whose region id argument is its `.NAME.region_id`.
/// A layout version (`layout/versions.rs`) is launched through its kernel's launches.
pub fn kernel_launches<'ctx>(host: &Module<'ctx>, kernel: &str) -> Vec<InstructionValue<'ctx>> {
    let versions = crate::layout::versions::versions_of(host);
    let kernel = versions.get(kernel).map(String::as_str).unwrap_or(kernel);
    let Some(region) = host.get_global(&region_id_name(kernel)) else {
        return Vec::new();
    };
    host.get_functions()
        .flat_map(ir::calls)
        .filter(|(call, name)| {
            name.starts_with("__tgt_target_kernel")
                && ir::call_arg_count(*call) > 4
                && ir::strip_casts(ir::call_arg_raw(*call, 4)) == region.as_value_ref()
        })
        .map(|(call, _)| call)
        .collect()
}

/// The source location of a kernel: where its `__tgt_target_kernel` call (or, failing that, any
/// runtime call in its host-fallback function) points.
pub fn kernel_loc(host: &Module<'_>, kernel: &KernelEntry) -> Option<SourceLoc> {
    if let Some(call) = kernel_launches(host, &kernel.name).first() {
        return call_loc(*call);
    }
    let f = host.get_function(&kernel.name)?;
    ir::calls(f).into_iter().find_map(|(c, n)| {
        if n.starts_with("__kmpc") {
            call_loc(c)
        } else {
            None
        }
    })
}

/// The constant `thread_limit` of each kernel's launches: `__tgt_target_kernel`'s fourth argument,
/// which clang makes the clause's value (0 without one). The runtime never gives a block more
/// threads than a thread_limit (launch_config.rs), so device code may rely on it. Kernels
/// launched without one, or with one that is not a constant, are absent.
pub fn kernel_thread_limits(
    host: &Module<'_>,
    entries: &OffloadEntries,
) -> std::collections::HashMap<String, u32> {
    let mut limits: std::collections::HashMap<String, Option<u32>> =
        std::collections::HashMap::new();
    let regions: Vec<(LLVMValueRef, &str)> = entries
        .kernels
        .iter()
        .filter_map(|k| {
            host.get_global(&k.region_id_name())
                .map(|g| (g.as_value_ref(), k.name.as_str()))
        })
        .collect();
    for f in host.get_functions() {
        for (call, name) in ir::calls(f) {
            if !name.starts_with("__tgt_target_kernel") {
                continue;
            }
            let id = ir::strip_casts(ir::call_arg_raw(call, 4));
            let Some(&(_, kernel)) = regions.iter().find(|(r, _)| *r == id) else {
                continue;
            };
            let limit = ir::const_int(ir::call_arg_raw(call, 3))
                .filter(|&t| t > 0)
                .map(|t| t as u32);
            let e = limits.entry(kernel.to_string()).or_insert(limit);
            *e = match (*e, limit) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            };
        }
    }
    limits
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect()
}

/// Schedule kinds of `__kmpc_for_static_init_*` (kmp_sched_t in openmp/runtime/src/kmp.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticSchedule {
    /// kmp_sch_static_chunked (33): chunks of `chunk` iterations dealt round-robin to threads.
    Chunked,
    /// kmp_sch_static (34) / static_balanced (35): one contiguous block per thread.
    Block,
    /// kmp_distribute_static_chunked (91): chunks dealt round-robin to teams.
    DistributeChunked,
    /// kmp_distribute_static (92): one contiguous block per team.
    DistributeBlock,
}

impl StaticSchedule {
    /// Decodes the schedule argument (schedule modifiers in the high bits are ignored).
    pub fn from_kmp(value: i64) -> Option<Self> {
        const MODIFIER_MASK: i64 = (1 << 29) | (1 << 30) | (1 << 31);
        match value & !MODIFIER_MASK {
            33 => Some(Self::Chunked),
            34 | 35 => Some(Self::Block),
            91 => Some(Self::DistributeChunked),
            92 => Some(Self::DistributeBlock),
            _ => None,
        }
    }

    pub fn is_distribute(self) -> bool {
        matches!(self, Self::DistributeChunked | Self::DistributeBlock)
    }

    pub fn is_chunked(self) -> bool {
        matches!(self, Self::Chunked | Self::DistributeChunked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn psource_parses() {
        assert_eq!(
            parse_psource(";saxpy.c;saxpy;7;85;;"),
            Some(SourceLoc {
                file: "saxpy.c".into(),
                line: 7,
                col: 85
            })
        );
        assert_eq!(parse_psource(";unknown;unknown;0;0;;"), None);
        assert_eq!(parse_psource("garbage"), None);
    }

    #[test]
    fn schedules_decode() {
        assert_eq!(StaticSchedule::from_kmp(34), Some(StaticSchedule::Block));
        assert_eq!(
            StaticSchedule::from_kmp(33 | (1 << 29)),
            Some(StaticSchedule::Chunked)
        );
        assert_eq!(
            StaticSchedule::from_kmp(92),
            Some(StaticSchedule::DistributeBlock)
        );
        assert_eq!(
            StaticSchedule::from_kmp(91),
            Some(StaticSchedule::DistributeChunked)
        );
        assert_eq!(StaticSchedule::from_kmp(35), Some(StaticSchedule::Block));
        assert_eq!(StaticSchedule::from_kmp(36), None);
    }
}

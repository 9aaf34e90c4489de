//! Automatic layout selection (`-fptxcc-layout=auto`, issue 18): the directive's machinery with
//! the permutation chosen by the compiler.
//!
//! Host side (`plan_auto`, host IR, before `layout-plan`): every data region (a
//! `__tgt_target_data_begin_mapper` … `__tgt_target_data_end_mapper` pair of one function),
//! and every compute construct outside one that maps its own data (kernel level: its
//! `__tgt_target_kernel` call alone), is bracketed with the directive's markers for each
//! candidate array, the permutation left to the device side. Candidates: the globals of
//! constant shape its kernels get (rank ≥ 2 of scalars, or one dimension of structs) and the
//! pointer sections it maps (`auto_sections.rs`: `p;?;auto:24;…`, the length in the begin
//! call's extents array) that no other pointer of its kernels may alias (`may_alias`: a
//! kernel reaches the converted copy only through the array's own parameter; `&v[r][0]`
//! mapped beside a global `v` would reach it unrewritten, which libptxrt's launch check stops):
//!
//! ```llvm
//! ; before                                               ; after
//! call void @__tgt_target_data_begin_mapper(@1, …)       call void @__ptxcc_layout_begin(ptr @a, i64 0, ptr @d, ptr null, ptr null)
//!                                                        call void @__tgt_target_data_begin_mapper(@1, …)
//! … kernels …                                            … kernels …
//! call void @__tgt_target_data_end_mapper(@1, …)         call void @__tgt_target_data_end_mapper(@1, …)
//!                                                        call void @__ptxcc_layout_end(ptr @a, ptr @d)
//! ; @d = "a;8,6,40,4;auto;x.c:12:1"
//! ```
//!
//! A region that calls a function launching kernels is left alone, with a remark (those kernels
//! would get the converted copy without being rewritten), and so is an array a `trans` directive
//! already lays out, or a `declare target` one.
//!
//! Device side (`decide`, called by the rewrite for an `auto` description, on the accesses it
//! found in every kernel of the region): for each access whose subscripts are C's
//! per-dimension ones, the derivative of each subscript with respect to the counter of the
//! loop the threads share (the worksharing loop, whose iterations consecutive threads take in
//! turn) says along which dimension consecutive lanes move. The dimension most accesses move
//! along becomes the innermost one (the others keep their order): `a[I][J][K][4]`, lanes
//! along k → `[I][J][4][K]`. Left alone, with the reason in the remark: the array already
//! coalesced (lanes move along the innermost dimension, or each thread reads the whole small
//! block inside the lanes' dimension, which NVPTX loads with one vector access: Himeno's
//! `a[I][J][K][4]` of floats, `vector_coalesced`), no access moving along one dimension,
//! accesses that disagree (no dimension for more than half of them), or an address the rewrite
//! cannot follow (safety). Each access weighs the constant trip counts of the loops around it
//! inside the kernel (`trips.rs`; 1 where a loop's count is not a constant), and the weights
//! decide; the remark gives both counts where they differ.
//! `choose` adds arrays of structs: a one-dimensional array whose accesses select fields is
//! the grid `[n][fields]`; lanes along the struct index make it `soa` (`[fields][n]`).
//! Before committing, `choose` checks the rewrite can take every access (`rewrite::rewritable`).
use super::desc::{Extent, LayoutDesc, SectionLen};
use super::rewrite::{access_type, dimension_subscripts, rewritable, soa_struct, terms, Access};
use super::{auto_sections, trips, BEGIN, DATA_BEGIN, DATA_END, END, LAUNCH};
use crate::diagnostics::{Diagnostics, SourceLoc};
use crate::ir;
use crate::ir::opcode;
use inkwell::module::Module;
use inkwell::types::AsTypeRef;
use inkwell::values::{AsValueRef, InstructionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMTypeRef, LLVMValueRef};
use llvm_sys::target::LLVMTargetDataRef;
use llvm_sys::LLVMOpcode;
use std::collections::{HashMap, HashSet};

/// Sections of at most this many bytes are not layout candidates (one vector access reads them).
const SMALLEST_CANDIDATE: u64 = 16;

/// The permutation text of a description the device side decides.
pub const AUTO: &str = "auto";

/// The array behind the offload arrays' pointer operand (`.offload_baseptrs`).
fn offload_array(v: LLVMValueRef) -> LLVMValueRef {
    unsafe {
        let v = ir::strip_casts(v);
        if !llvm::LLVMIsAGetElementPtrInst(v).is_null() {
            return llvm::LLVMGetOperand(v, 0);
        }
        v
    }
}

/// (extents, scalar element type) of an array type of rank ≥ 2.
fn array_shape(mut ty: LLVMTypeRef) -> Option<Vec<u64>> {
    let mut dims = Vec::new();
    unsafe {
        while llvm::LLVMGetTypeKind(ty) == llvm_sys::LLVMTypeKind::LLVMArrayTypeKind {
            dims.push(llvm::LLVMGetArrayLength2(ty));
            ty = llvm::LLVMGetElementType(ty);
        }
        let scalar = matches!(
            llvm::LLVMGetTypeKind(ty),
            llvm_sys::LLVMTypeKind::LLVMDoubleTypeKind
                | llvm_sys::LLVMTypeKind::LLVMFloatTypeKind
                | llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind
        );
        (scalar && dims.len() >= 2 && dims.iter().all(|&d| d > 0)).then_some(dims)
    }
}

/// The extents `auto` describes a global of type `ty` with: an array of rank ≥ 2 of scalars
/// (a transpose candidate) or a one-dimensional array of structs (an SoA candidate; the
/// device side looks at the fields).
fn candidate_shape(ty: LLVMTypeRef) -> Option<Vec<u64>> {
    array_shape(ty).or_else(|| unsafe {
        if llvm::LLVMGetTypeKind(ty) != llvm_sys::LLVMTypeKind::LLVMArrayTypeKind {
            return None;
        }
        let n = llvm::LLVMGetArrayLength2(ty);
        let elem = llvm::LLVMGetElementType(ty);
        (n > 0 && llvm::LLVMGetTypeKind(elem) == llvm_sys::LLVMTypeKind::LLVMStructTypeKind)
            .then(|| vec![n])
    })
}

/// The functions of `host` that do something (`direct`: what a call does, by the call and its
/// callee's name; `indirect`: what a call through a pointer may do), directly or through the
/// functions they call, with what the first such call found does (through a call:
/// `through(what the callee does, its name)`).
fn transitively<T: Clone>(
    host: &Module<'_>,
    direct: impl Fn(InstructionValue<'_>, &str) -> Option<T>,
    indirect: Option<T>,
    through: impl Fn(&T, &str) -> T,
) -> HashMap<String, T> {
    let mut out: HashMap<String, T> = HashMap::new();
    loop {
        let before = out.len();
        for f in host.get_functions() {
            let name = f.get_name().to_string_lossy().into_owned();
            if out.contains_key(&name) {
                continue;
            }
            // A function a call passes (`__kmpc_fork_call`'s outlined body) counts as called.
            let found = ir::instructions(f)
                .into_iter()
                .find_map(|c| match ir::callee_name(c) {
                    Some(n) => direct(c, &n)
                        .or_else(|| out.get(&n).map(|t| through(t, &n)))
                        .or_else(|| {
                            ir::passed_functions(c)
                                .into_iter()
                                .find_map(|g| out.get(&g).map(|t| through(t, &g)))
                        }),
                    None if ir::is_indirect_call(c) => indirect.clone(),
                    None => None,
                });
            if let Some(t) = found {
                out.insert(name, t);
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// Routines of libraries and runtimes that launch no kernel of the program's (by name prefix,
/// then by name): a region may call them with its arrays.
const LIBRARY_PREFIXES: &[&str] = &[
    "llvm.", "__tgt_", "__kmpc_", "__ptxcc_", "__ptxrt_", "omp_", "acc_", "MPI_", "PMPI_",
];
const LIBRARY: &[&str] = &[
    "printf",
    "fprintf",
    "sprintf",
    "snprintf",
    "puts",
    "putchar",
    "fputs",
    "fputc",
    "fflush",
    "fopen",
    "fclose",
    "fread",
    "fwrite",
    "fscanf",
    "sscanf",
    "scanf",
    "perror",
    "malloc",
    "calloc",
    "realloc",
    "free",
    "aligned_alloc",
    "posix_memalign",
    "memcpy",
    "memset",
    "memmove",
    "memcmp",
    "strlen",
    "strcmp",
    "strncmp",
    "strcpy",
    "strncpy",
    "strcat",
    "strchr",
    "strstr",
    "strtok",
    "exit",
    "abort",
    "atexit",
    "__assert_fail",
    "getenv",
    "atoi",
    "atol",
    "atof",
    "strtol",
    "strtoul",
    "strtod",
    "strtof",
    "rand",
    "srand",
    "drand48",
    "srand48",
    "clock",
    "time",
    "gettimeofday",
    "clock_gettime",
    "sleep",
    "usleep",
    "qsort",
    "bsearch",
    "abs",
    "labs",
    "sqrt",
    "sqrtf",
    "cbrt",
    "exp",
    "expf",
    "exp2",
    "log",
    "logf",
    "log2",
    "log10",
    "sin",
    "sinf",
    "cos",
    "cosf",
    "tan",
    "atan",
    "atan2",
    "asin",
    "acos",
    "sinh",
    "cosh",
    "tanh",
    "pow",
    "powf",
    "fabs",
    "fabsf",
    "floor",
    "floorf",
    "ceil",
    "ceilf",
    "round",
    "fmod",
    "fmax",
    "fmin",
    "hypot",
];

/// A routine of a library or runtime (`LIBRARY_PREFIXES`, `LIBRARY`).
pub(super) fn is_library(name: &str) -> bool {
    LIBRARY_PREFIXES.iter().any(|p| name.starts_with(p)) || LIBRARY.contains(&name)
}

/// A function of another file (declared only), or an indirect call (`None`): it may launch
/// kernels that ptxcc did not compile for a layout this file chose.
fn foreign(host: &Module<'_>, callee: Option<&str>) -> bool {
    let Some(name) = callee else {
        return true;
    };
    if is_library(name) {
        return false;
    }
    host.get_function(name)
        .is_none_or(|f| f.count_basic_blocks() == 0)
}

/// Functions (defined in `host`) that call a foreign one, directly or through calls (name →
/// what they reach: `'f' of another file`, or a function through a pointer).
fn reaching_foreign(host: &Module<'_>) -> HashMap<String, String> {
    transitively(
        host,
        |_, n| foreign(host, Some(n)).then(|| format!("'{n}' of another file")),
        Some(THROUGH_POINTER.to_string()),
        |t, _| t.clone(),
    )
}

/// What a call through a pointer is, in remarks.
pub(super) const THROUGH_POINTER: &str = "a function through a pointer";

/// Some(why) when a call of the region may reach the array at `v` from another file's code,
/// whose kernels were not compiled for the layout: the array (or a pointer that may point
/// into it) passed to a foreign function or to one that calls one; for an array other code
/// may find by itself (`escape::others_may_reach`: a global other files can name, a pointer
/// stored where they can read it…), any such call.
fn reached_from_elsewhere(
    host: &Module<'_>,
    r: &Region<'_>,
    v: LLVMValueRef,
    opaque: &HashMap<String, String>,
) -> Option<String> {
    let mut found_elsewhere: Option<Option<String>> = None;
    for &call in &r.calls {
        let name = ir::callee_name(call);
        let through = match name.as_deref() {
            _ if foreign(host, name.as_deref()) => None,
            Some(n) => match opaque.get(n) {
                Some(f) => Some(f.clone()),
                None => continue,
            },
            None => continue,
        };
        let what = match (&name, &through) {
            (Some(n), None) => format!("'{n}', a function of another file"),
            (Some(n), Some(f)) => format!("'{n}', which calls {f}"),
            (None, _) => THROUGH_POINTER.to_string(),
        };
        let passes_it = (0..ir::call_arg_count(call)).any(|k| {
            let a = ir::call_arg_raw(call, k);
            is_pointer(a) && !auto_sections::distinct(a, v)
        });
        if passes_it {
            return Some(format!(
                "the region passes it, or a pointer that may point into it, to {what}, whose kernels were not \
                 compiled for its layout"
            ));
        }
        if let Some(how) = found_elsewhere
            .get_or_insert_with(|| super::escape::others_may_reach(v))
            .as_deref()
        {
            return Some(format!(
                "the region calls {what}, which may find it ({how}) and launch kernels not compiled for its layout"
            ));
        }
    }
    None
}

/// Functions (defined in `host`) that launch a kernel, or may (a call through a pointer),
/// directly or through calls.
pub(super) fn launching_functions(host: &Module<'_>) -> HashSet<String> {
    transitively(
        host,
        |_, n| (n == LAUNCH).then_some(()),
        Some(()),
        |_, _| (),
    )
    .into_keys()
    .collect()
}

/// The data regions of `host` (begin call, end call), per function.
fn data_regions<'ctx>(
    calls: &[(InstructionValue<'ctx>, String)],
) -> Vec<(InstructionValue<'ctx>, InstructionValue<'ctx>)> {
    calls
        .iter()
        .filter(|(_, n)| n == DATA_BEGIN)
        .filter_map(|(begin, _)| {
            let key = offload_array(ir::call_arg_raw(*begin, 3));
            calls
                .iter()
                .find(|(c, n)| n == DATA_END && offload_array(ir::call_arg_raw(*c, 3)) == key)
                .map(|(end, _)| (*begin, *end))
        })
        .collect()
}

/// Functions called, directly or through calls, inside a data region (name → the region's
/// location): their compute constructs may get arrays the region made present, which `auto`
/// at kernel level would convert in place at every launch and back.
fn called_in_data_regions(host: &Module<'_>) -> HashMap<String, SourceLoc> {
    let mut out: HashMap<String, SourceLoc> = HashMap::new();
    for f in host.get_functions() {
        let calls = ir::calls(f);
        for (begin, end) in data_regions(&calls) {
            let end_ptr = end.as_value_ref();
            let loc = region_loc(ir::call_arg_raw(begin, 0));
            for i in super::host_plan::reachable_until(begin, |i| i.as_value_ref() == end_ptr) {
                if let Some(n) = ir::callee_name(i) {
                    out.entry(n).or_insert_with(|| loc.clone());
                }
            }
        }
    }
    loop {
        let before = out.len();
        for f in host.get_functions() {
            let Some(loc) = out
                .get(&f.get_name().to_string_lossy().into_owned())
                .cloned()
            else {
                continue;
            };
            for (_, c) in ir::calls(f) {
                out.entry(c).or_insert_with(|| loc.clone());
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// Runtime routines that hand out, or take, device addresses of mapped data: code that reads a
/// device copy through them expects the host's layout.
const DEVICE_ADDRESS_ROUTINES: &[&str] = &[
    "omp_get_mapped_ptr",
    "omp_target_memcpy",
    "omp_target_memcpy_rect",
    "omp_target_memcpy_async",
    "omp_target_memcpy_rect_async",
    "omp_target_associate_ptr",
    "omp_target_disassociate_ptr",
    "acc_deviceptr",
    "acc_hostptr",
    "acc_map_data",
    "acc_unmap_data",
    "acc_memcpy_to_device",
    "acc_memcpy_from_device",
    "acc_memcpy_device",
    "acc_memcpy_to_device_async",
    "acc_memcpy_from_device_async",
    "acc_memcpy_device_async",
];

/// How `call` exposes device addresses, if it does: a device-address routine, or a data
/// region's begin with `use_device_ptr`/`use_device_addr`/`host_data use_device` (a map type
/// with RETURN_PARAM: clang reads the device address back from the base pointers).
fn exposes_device_address(call: InstructionValue<'_>, name: &str) -> Option<String> {
    if DEVICE_ADDRESS_ROUTINES.contains(&name) {
        return Some(format!("'{name}'"));
    }
    if name != DATA_BEGIN || ir::call_arg_count(call) < 7 {
        return None;
    }
    let types = crate::offload_launch::constant_i64s(ir::strip_casts(ir::call_arg_raw(call, 6)))?;
    types
        .into_iter()
        .any(|t| ptxcc_abi::map_type::MapType::from_raw(t as i64).return_param())
        .then(|| "use_device_ptr, use_device_addr or host_data use_device".to_string())
}

/// Functions (defined in `host`) that expose device addresses, directly or through calls, and
/// how (the first way found).
fn exposing_functions(host: &Module<'_>) -> HashMap<String, String> {
    transitively(
        host,
        exposes_device_address,
        Some(format!("{THROUGH_POINTER}, which may hand them out")),
        in_callee,
    )
}

/// How a call of `callee` exposes device addresses, `how` being what `callee` does.
fn in_callee(how: &String, callee: &str) -> String {
    format!("{how}, in '{callee}'")
}

/// Where the address of global `g` (or of a part of it) is kept in memory that becomes device
/// memory: another global's initializer (`float *vp = &v[0][0];` at file scope) or a store
/// into a global. A device copy of that pointer would point into the converted copy, where
/// the rewrite cannot follow it (libptxrt would stop the launch). Stores into a function's
/// locals are not such memory: a local pointer reaches a kernel as a parameter, which the
/// launch checks.
fn kept_in_global(g: LLVMValueRef) -> Option<String> {
    let mut work = vec![g];
    let mut seen: HashSet<LLVMValueRef> = HashSet::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        for u in ir::users(v) {
            unsafe {
                if !llvm::LLVMIsAGlobalVariable(u).is_null() {
                    return Some(ir::value_name(u));
                }
                if !llvm::LLVMIsAConstant(u).is_null()
                    || !llvm::LLVMIsACastInst(u).is_null()
                    || !llvm::LLVMIsAGetElementPtrInst(u).is_null()
                {
                    work.push(u);
                    continue;
                }
                if !llvm::LLVMIsAStoreInst(u).is_null() && llvm::LLVMGetOperand(u, 0) == v {
                    let into = ir::pointer_origins(llvm::LLVMGetOperand(u, 1)).unwrap_or_default();
                    if let Some(&to) = into
                        .iter()
                        .find(|&&o| !llvm::LLVMIsAGlobalVariable(o).is_null())
                    {
                        return Some(ir::value_name(to));
                    }
                }
            }
        }
    }
    None
}

/// What `plan_auto` did: how many arrays it bracketed, and the arrays it left alone with why
/// (remarks for -fptxcc-info; the device module carries them).
#[derive(Debug, Default)]
pub struct Planned {
    pub arrays: usize,
    pub remarks: Vec<(SourceLoc, String)>,
    /// The layout versions made (`versions.rs`): version name → kernel name.
    pub versions: Vec<(String, String)>,
}

/// One region `auto` brackets: a data region (its begin and end calls) or a compute
/// construct that maps its own data (its launch alone).
struct Region<'ctx> {
    first: InstructionValue<'ctx>,
    last: InstructionValue<'ctx>,
    launches: Vec<InstructionValue<'ctx>>,
    /// Launches in the functions the region calls, each with the call in the region that
    /// reaches it: their kernels get layout versions (`versions.rs`).
    remote: Vec<(InstructionValue<'ctx>, InstructionValue<'ctx>)>,
    /// The launches written in the region get layout versions too, the kernels staying as
    /// they are, so that libptxrt may run either (`layout/tune.rs`); false under
    /// -fptxcc-multi-device, where `plan_host` rewrites them in place.
    version_local: bool,
    /// The calls inside a data region (none at kernel level).
    calls: Vec<InstructionValue<'ctx>>,
    sections: Vec<auto_sections::Section>,
    loc: SourceLoc,
    /// A compute construct's own data clauses (no data region around it).
    kernel_level: bool,
    /// Why its arrays stay, decided for the whole region.
    stays: Option<String>,
}

fn call_args(call: LLVMValueRef) -> Vec<LLVMValueRef> {
    unsafe {
        (0..llvm::LLVMGetNumArgOperands(call))
            .map(|i| llvm::LLVMGetOperand(call, i))
            .collect()
    }
}

pub(super) fn is_pointer(v: LLVMValueRef) -> bool {
    unsafe {
        llvm::LLVMGetTypeKind(llvm::LLVMTypeOf(v)) == llvm_sys::LLVMTypeKind::LLVMPointerTypeKind
    }
}

/// Is `v` available at `at` (a constant, an argument, or an instruction before it in its
/// block)? The values a map entry stores precede the call that maps it in clang's code.
fn available_at(v: LLVMValueRef, at: InstructionValue<'_>) -> bool {
    unsafe {
        if llvm::LLVMIsAInstruction(v).is_null() {
            return true;
        }
        if llvm::LLVMGetInstructionParent(v) != llvm::LLVMGetInstructionParent(at.as_value_ref()) {
            return false;
        }
        let mut i = llvm::LLVMGetPreviousInstruction(at.as_value_ref());
        while !i.is_null() {
            if i == v {
                return true;
            }
            i = llvm::LLVMGetPreviousInstruction(i);
        }
        false
    }
}

/// The globals whose address a kernel of this file lets escape (its host fallback stores the
/// argument in memory, most often: `ptrs[0] = &a[0][0]` in a target region), each with how and
/// where. A later kernel may follow such a pointer, loaded from device memory, into a converted
/// copy that no launch check sees, and a conversion that moves the copy would leave it behind:
/// wherever the kernel runs, in a region or not, the array stays in every region.
fn stored_by_kernels(host: &Module<'_>) -> HashMap<LLVMValueRef, String> {
    let mut out: HashMap<LLVMValueRef, String> = HashMap::new();
    // Whether (fallback, parameter) escapes: a kernel launched from several places is walked once.
    let mut walked: HashMap<(LLVMValueRef, usize), Option<String>> = HashMap::new();
    for f in host.get_functions() {
        for (launch, _) in ir::calls(f).iter().filter(|(_, n)| n == LAUNCH) {
            for call in super::versions::fallback_calls(host, *launch) {
                let callee = unsafe { ir::strip_casts(llvm::LLVMGetCalledValue(call)) };
                for (j, arg) in call_args(call).into_iter().enumerate() {
                    let Some(origins) = ir::pointer_origins(arg) else {
                        continue;
                    };
                    let globals: Vec<LLVMValueRef> = origins
                        .into_iter()
                        .filter(|&o| unsafe { !llvm::LLVMIsAGlobalVariable(o).is_null() })
                        .filter(|o| !out.contains_key(o))
                        .collect();
                    if globals.is_empty() || j >= unsafe { llvm::LLVMCountParams(callee) as usize }
                    {
                        continue;
                    }
                    let escapes = walked.entry((callee, j)).or_insert_with(|| {
                        super::escape::parameter_escapes(unsafe {
                            llvm::LLVMGetParam(callee, j as u32)
                        })
                    });
                    if let Some(how) = escapes {
                        let at = region_loc(ir::call_arg_raw(*launch, 0));
                        for g in globals {
                            out.insert(
                                g,
                                format!("in the kernel of the target region at {at}, {how}"),
                            );
                        }
                    }
                }
            }
        }
    }
    out
}

/// What `plan_auto` learns of the whole file before it plans each region.
struct FileFacts {
    /// `declare target` globals: the device has its own copy, nothing is mapped.
    declared: HashSet<String>,
    /// The functions reaching a function of another file (`reaching_foreign`).
    opaque: HashMap<String, String>,
    /// Globals whose address a kernel lets escape (`stored_by_kernels`).
    stored: HashMap<LLVMValueRef, String>,
}

/// Brackets the data regions of `host`, and the compute constructs outside them that map
/// their own data, with `auto` layout markers (see the module comment).
pub fn plan_auto(host: &Module<'_>, versions_allowed: bool) -> Result<Planned, Diagnostics> {
    let file = FileFacts {
        declared: crate::openmp::declared_globals(host)
            .into_iter()
            .map(|g| g.name)
            .collect(),
        opaque: reaching_foreign(host),
        stored: stored_by_kernels(host),
    };
    let launching = launching_functions(host);
    let exposing = exposing_functions(host);
    let in_regions = called_in_data_regions(host);
    let mut planned = Planned::default();
    let mut wanted = super::versions::Wanted::default();
    for f in host.get_functions() {
        let calls = ir::calls(f);
        let laid_out: Vec<LLVMValueRef> = calls
            .iter()
            .filter(|(_, n)| n == BEGIN)
            .map(|(c, _)| ir::strip_casts(ir::call_arg_raw(*c, 0)))
            .collect();
        let mut regions: Vec<Region<'_>> = Vec::new();
        let mut covered: HashSet<LLVMValueRef> = HashSet::new();
        for (begin, end) in data_regions(&calls) {
            let end_ptr = end.as_value_ref();
            let region = super::host_plan::reachable_until(begin, |i| i.as_value_ref() == end_ptr);
            let launches: Vec<InstructionValue<'_>> = region
                .iter()
                .copied()
                .filter(|&i| ir::callee_name(i).as_deref() == Some(LAUNCH))
                .collect();
            covered.extend(launches.iter().map(|l| l.as_value_ref()));
            let launcher = region.iter().find_map(|&i| match ir::callee_name(i) {
                Some(n) if launching.contains(&n) => Some(n),
                Some(_) => ir::passed_functions(i)
                    .into_iter()
                    .find(|g| launching.contains(g)),
                None => ir::is_indirect_call(i).then(|| THROUGH_POINTER.to_string()),
            });
            // Kernels launched by the functions the region calls get layout versions.
            let remote = match launcher {
                None => Vec::new(),
                Some(callee) if !versions_allowed => {
                    planned.remarks.push((
                        region_loc(ir::call_arg_raw(begin, 0)),
                        format!(
                            "layout: the data region's arrays stay: it calls '{callee}', which launches kernels; \
                             -fptxcc-layout=auto with -fptxcc-multi-device lays out only arrays whose compute \
                             constructs are written inside the region"
                        ),
                    ));
                    continue;
                }
                Some(_) => {
                    let remote = super::versions::remote_launches(host, &region, &launching);
                    if let Some(callee) = remote.unreached {
                        planned.remarks.push((
                            region_loc(ir::call_arg_raw(begin, 0)),
                            format!(
                                "layout: the data region's arrays stay: it calls {callee}, where \
                                 -fptxcc-layout=auto does not follow them"
                            ),
                        ));
                        continue;
                    }
                    remote.launches
                }
            };
            // Code that reads the device copy by its address expects the host's layout.
            let exposed = std::iter::once(begin)
                .chain(region.iter().copied())
                .find_map(|i| {
                    let n = ir::callee_name(i)?;
                    exposes_device_address(i, &n)
                        .or_else(|| exposing.get(&n).map(|how| in_callee(how, &n)))
                });
            regions.push(Region {
                first: begin,
                last: end,
                launches,
                sections: auto_sections::data_region_sections(begin),
                loc: region_loc(ir::call_arg_raw(begin, 0)),
                kernel_level: false,
                remote,
                version_local: versions_allowed,
                calls: region
                    .iter()
                    .copied()
                    .filter(|i| unsafe { !llvm::LLVMIsACallInst(i.as_value_ref()).is_null() })
                    .collect(),
                stays: exposed.map(|how| {
                    format!(
                        "the data region uses device addresses ({how}), which would see the converted copy"
                    )
                }),
            });
        }
        for (launch, _) in calls.iter().filter(|(_, n)| n == LAUNCH) {
            if covered.contains(&launch.as_value_ref()) {
                continue;
            }
            regions.push(Region {
                first: *launch,
                last: *launch,
                launches: vec![*launch],
                sections: auto_sections::launch_sections(*launch),
                loc: region_loc(ir::call_arg_raw(*launch, 0)),
                kernel_level: true,
                remote: Vec::new(),
                version_local: versions_allowed,
                calls: Vec::new(),
                stays: in_regions.get(&f.get_name().to_string_lossy().into_owned()).map(|at| {
                    format!(
                        "not at the construct: its function is called inside the data region at {at}, which \
                         decides the layout of what it maps (the construct converting it would do so at every \
                         launch and back)"
                    )
                }),
            });
        }
        for r in &regions {
            plan_region(host, r, &laid_out, &file, &mut planned, &mut wanted);
        }
    }
    planned.versions = super::versions::make_versions(host, wanted)?;
    Ok(planned)
}

/// A host-fallback call of a kernel the region launches, its arguments as values of the
/// region's function (`in_region`).
struct Fallback<'ctx> {
    launch: InstructionValue<'ctx>,
    /// For a launch in a function the region calls: that call.
    site: Option<InstructionValue<'ctx>>,
    call: LLVMValueRef,
    args: Vec<LLVMValueRef>,
}

impl Fallback<'_> {
    /// The call's own arguments (in the launch's function) that carry the array at `base`.
    fn carriers(&self, base: LLVMValueRef) -> Vec<LLVMValueRef> {
        self.args
            .iter()
            .enumerate()
            .filter(|&(_, &a)| super::host_plan::same_value(ir::strip_casts(a), base))
            .map(|(j, _)| unsafe { llvm::LLVMGetOperand(self.call, j as u32) })
            .collect()
    }
}

/// Is `v` (a value of a launch's function) proved apart from every carrier of the array there
/// (`restrict` parameters of the function a region calls: what the call passes need not be),
/// while what the region passes for it (`there`) does not come from the array's own object?
/// `restrict` lets two pointers that are only read overlap (`f(p, p + 5)`), so it counts only
/// where the region's values could be apart.
fn apart_from(
    v: LLVMValueRef,
    carriers: &[LLVMValueRef],
    there: LLVMValueRef,
    base: LLVMValueRef,
) -> bool {
    let shares_origin = || {
        let (Some(a), Some(b)) = (ir::pointer_origins(there), ir::pointer_origins(base)) else {
            return true;
        };
        a.iter().any(|o| b.contains(o))
    };
    !carriers.is_empty()
        && carriers.iter().all(|&c| auto_sections::distinct(v, c))
        && !shares_origin()
}

fn fallbacks_of<'ctx>(host: &Module<'ctx>, r: &Region<'ctx>) -> Vec<Fallback<'ctx>> {
    let local = r.launches.iter().map(|&l| (l, None));
    let remote = r.remote.iter().map(|&(l, site)| (l, Some(site)));
    local
        .chain(remote)
        .flat_map(|(launch, site)| {
            super::versions::fallback_calls(host, launch)
                .into_iter()
                .map(move |call| Fallback {
                    launch,
                    site,
                    call,
                    args: call_args(call)
                        .into_iter()
                        .map(|a| super::versions::in_region(site, a))
                        .collect(),
                })
        })
        .collect()
}

/// The versions the remote launches of `r` need for `array` (laid out by the description
/// global `desc`, text `desc_text`).
fn want_versions<'ctx>(
    host: &Module<'ctx>,
    r: &Region<'ctx>,
    array: LLVMValueRef,
    desc: LLVMValueRef,
    desc_text: &str,
    wanted: &mut super::versions::Wanted<'ctx>,
) {
    let local = r
        .launches
        .iter()
        .filter(|_| r.version_local)
        .map(|&l| (l, None));
    let remote = r.remote.iter().map(|&(l, site)| (l, Some(site)));
    for (launch, site) in local.chain(remote) {
        let carried = super::versions::carried_by(host, launch, site, array, desc, desc_text);
        wanted.add(launch, site, carried);
    }
}

fn region_loc(ident: LLVMValueRef) -> SourceLoc {
    crate::openmp::ident_loc(ident).unwrap_or(SourceLoc {
        file: "<unknown>".into(),
        line: 0,
        col: 0,
    })
}

/// Brackets the candidate arrays of one region: the globals of constant shape its kernels
/// get, and its pointer sections that `auto` may lay out.
fn plan_region<'ctx>(
    host: &Module<'ctx>,
    r: &Region<'ctx>,
    laid_out: &[LLVMValueRef],
    file: &FileFacts,
    planned: &mut Planned,
    wanted: &mut super::versions::Wanted<'ctx>,
) {
    let fallbacks = fallbacks_of(host, r);
    // Whether a launch that gets `v` runs again before the region ends (the conversion pays).
    let repeated = |v: LLVMValueRef| {
        fallbacks.iter().any(|f| {
            f.args
                .iter()
                .any(|&a| super::host_plan::same_value(ir::strip_casts(a), v))
                && repeats_within(f.site.unwrap_or(f.launch), r.first, r.last)
        })
    };
    let taken = |v: LLVMValueRef| laid_out.iter().any(|&l| super::host_plan::same_value(l, v));
    let mut globals: Vec<LLVMValueRef> = Vec::new();
    for f in &fallbacks {
        for v in f.args.iter().copied().map(ir::strip_casts) {
            let global = unsafe { !llvm::LLVMIsAGlobalVariable(v).is_null() };
            if !global
                || globals.contains(&v)
                || taken(v)
                || file.declared.contains(&ir::value_name(v))
            {
                continue;
            }
            if candidate_shape(unsafe { llvm::LLVMGlobalGetValueType(v) }).is_some() {
                globals.push(v);
            }
        }
    }
    for g in globals {
        let Some(dims) = candidate_shape(unsafe { llvm::LLVMGlobalGetValueType(g) }) else {
            continue;
        };
        let kept = || {
            kept_in_global(g)
                .map(|p| {
                    format!(
                        "safety cannot be proved (its address is kept in '{p}', a pointer the device may follow into the converted copy)"
                    )
                })
                .or_else(|| {
                    file.stored.get(&g).map(|how| {
                        format!(
                            "safety cannot be proved ({how}: a kernel may follow that pointer into the converted copy)"
                        )
                    })
                })
        };
        let aliased = || {
            let advice = "the kernels must reach the converted copy through the array's own name";
            may_alias(&fallbacks, g, advice)
                .or_else(|| mapped_beside(r, &fallbacks, g, advice))
                .or_else(|| reached_from_elsewhere(host, r, g, &file.opaque))
                .map(|why| format!("safety cannot be proved ({why})"))
        };
        if let Some(why) = r
            .stays
            .clone()
            .or_else(kept)
            .or_else(aliased)
            .or_else(|| (!repeated(g)).then(|| once(r)))
        {
            let shape: Vec<Extent> = dims.iter().copied().map(Extent::Const).collect();
            let structs = if array_shape(unsafe { llvm::LLVMGlobalGetValueType(g) }).is_none() {
                " (structs)"
            } else {
                ""
            };
            planned.remarks.push((
                r.loc.clone(),
                format!(
                    "layout: {}{}{structs} stays: {why}",
                    ir::value_name(g),
                    LayoutDesc::shape_text(&shape)
                ),
            ));
            continue;
        }
        let desc = LayoutDesc {
            name: ir::value_name(g),
            goes_to: (1..=dims.len()).collect(),
            dims: dims.into_iter().map(Extent::Const).collect(),
            soa: false,
            auto: true,
            section: None,
            base_align: None,
            loc: r.loc.clone(),
        };
        let text = desc.encode();
        let dg = insert_markers(host, r, g, &text, None);
        want_versions(host, r, g, dg, &text, wanted);
        planned.arrays += 1;
    }
    let mut done: Vec<LLVMValueRef> = Vec::new();
    for sec in &r.sections {
        let base = sec.base;
        let gets_it = fallbacks.iter().any(|f| {
            f.args
                .iter()
                .any(|&a| super::host_plan::same_value(a, base))
        });
        if !gets_it || taken(base) || done.iter().any(|&d| super::host_plan::same_value(d, base)) {
            continue;
        }
        // A scalar or a block of at most 16 bytes (one vector access): no layout to choose,
        // nothing to say.
        if matches!(sec.length, auto_sections::Length::Bytes(b) if b <= SMALLEST_CANDIDATE) {
            continue;
        }
        done.push(base);
        let name = sec.name.clone().unwrap_or_else(|| ir::value_name(base));
        let (dim, count, elem, factor) = match sec.length {
            auto_sections::Length::Count { len, elem } => (
                Extent::Runtime,
                Some(len),
                elem,
                auto_sections::constant_factor(len),
            ),
            auto_sections::Length::Bytes(b) => (Extent::Const(b), None, 1, 1),
        };
        let stays = |why: String| (r.loc.clone(), format!("layout: {name}[{dim}] stays: {why}"));
        if let Some(why) = &r.stays {
            planned.remarks.push(stays(why.clone()));
            continue;
        }
        if !available_at(base, r.first) || count.is_some_and(|c| !available_at(c, r.first)) {
            planned.remarks.push(stays(
                "its pointer or length is computed where the layout's start cannot see it".into(),
            ));
            continue;
        }
        let advice = "declare the pointers 'restrict', or map arrays this function allocates";
        if let Some(why) = may_alias(&fallbacks, base, advice)
            .or_else(|| mapped_beside(r, &fallbacks, base, advice))
            .or_else(|| reached_from_elsewhere(host, r, base, &file.opaque))
        {
            planned
                .remarks
                .push(stays(format!("safety cannot be proved ({why})")));
            continue;
        }
        if !r.kernel_level {
            let other = r.launches.iter().find(|&&l| {
                auto_sections::launch_sizes_of(l, base)
                    .into_iter()
                    .any(|s| ir::const_int(s) != Some(0) && !same_size(s, sec.length))
            });
            if other.is_some() {
                planned.remarks.push(stays(
                    "a compute construct of the region maps another section of it".into(),
                ));
                continue;
            }
        }
        if !repeated(base) {
            planned.remarks.push(stays(once(r)));
            continue;
        }
        let desc = LayoutDesc {
            name,
            dims: vec![dim],
            goes_to: vec![1],
            soa: false,
            auto: true,
            section: Some(SectionLen { elem, factor }),
            base_align: None,
            loc: r.loc.clone(),
        };
        let text = desc.encode();
        let dg = insert_markers(host, r, base, &text, count);
        want_versions(host, r, base, dg, &text, wanted);
        planned.arrays += 1;
    }
}

/// Why an array none of whose launches repeats inside its region stays: a conversion at the
/// region's start and one back at its end (each reading and writing the whole array in device
/// memory) cost more than one launch of each kernel gains from the layout — STREAM's structs
/// repay theirs after about ten launches (test-suite/README.md, the layout study).
fn once(r: &Region<'_>) -> String {
    if r.kernel_level {
        "the compute construct maps it for its one launch: converting it before and back after \
         would cost more than the launch gains (map it in a data region around a loop of launches)"
            .into()
    } else {
        "no kernel that uses it runs in a loop inside the data region: converting it at the \
         region's start and back at its end would cost more than one launch of each gains"
            .into()
    }
}

/// Does `launch` run again before its region ends: is it on a cycle of its function's CFG
/// that passes neither the region's first nor its last instruction (a loop inside a data
/// region; a compute construct's own region is its launch alone, which never repeats)?
fn repeats_within(
    launch: InstructionValue<'_>,
    first: InstructionValue<'_>,
    last: InstructionValue<'_>,
) -> bool {
    let block =
        |i: InstructionValue<'_>| unsafe { llvm::LLVMGetInstructionParent(i.as_value_ref()) };
    let home = block(launch);
    let fences = [block(first), block(last)];
    if fences.contains(&home) {
        return false;
    }
    let mut seen: HashSet<LLVMBasicBlockRef> = HashSet::new();
    let mut work = ir::successors(unsafe { llvm::LLVMGetBasicBlockTerminator(home) });
    while let Some(b) = work.pop() {
        if b == home {
            return true;
        }
        if fences.contains(&b) || !seen.insert(b) {
            continue;
        }
        work.extend(ir::successors(unsafe {
            llvm::LLVMGetBasicBlockTerminator(b)
        }));
    }
    false
}

/// Is the map size `s` the section's own length?
fn same_size(s: LLVMValueRef, length: auto_sections::Length) -> bool {
    match length {
        auto_sections::Length::Bytes(b) => ir::const_int(s) == Some(b as i64),
        auto_sections::Length::Count { len, elem } => unsafe {
            ir::opcode(s) == Some(LLVMOpcode::LLVMMul)
                && (0..2).any(|k| super::host_plan::same_value(llvm::LLVMGetOperand(s, k), len))
                && (0..2).any(|k| ir::const_int(llvm::LLVMGetOperand(s, k)) == Some(elem as i64))
        },
    }
}

/// Some(why) when a kernel of the region gets another pointer that may point into the array
/// at `base` (the converted copy must be reached through the array's own parameter only).
/// `advice` ends the reason: what the user can change.
fn may_alias(fallbacks: &[Fallback<'_>], base: LLVMValueRef, advice: &str) -> Option<String> {
    for f in fallbacks {
        let call = f.call;
        let carriers = f.carriers(base);
        for (i, &a) in f.args.iter().enumerate() {
            if !is_pointer(a)
                || super::host_plan::same_value(a, base)
                || auto_sections::distinct(a, base)
                || apart_from(
                    unsafe { llvm::LLVMGetOperand(call, i as u32) },
                    &carriers,
                    a,
                    base,
                )
            {
                continue;
            }
            let kernel = unsafe { ir::value_name(llvm::LLVMGetCalledValue(call)) };
            let origins = ir::pointer_origins(a).unwrap_or_default();
            let base_origins = ir::pointer_origins(base).unwrap_or_default();
            let how =
                if !base_origins.is_empty() && base_origins.iter().all(|o| origins.contains(o)) {
                    "points into it"
                } else {
                    "may point into the same memory"
                };
            return Some(format!(
                "kernel '{kernel}' also gets pointer argument {i}, which {how}; {advice}"
            ));
        }
    }
    None
}

/// Some(why) when a map entry of the region (its data clauses, its compute constructs') attaches
/// a pointer that points, or may point, into the array at `base` without being the array (`map(s)
/// map(s.p[0:n])` with `s.p = &v[r][0]`): the kernels would follow it into the converted copy.
/// `advice` ends the reason.
fn mapped_beside(
    r: &Region<'_>,
    fallbacks: &[Fallback<'_>],
    base: LLVMValueRef,
    advice: &str,
) -> Option<String> {
    let mut lists = Vec::new();
    if !r.kernel_level {
        lists.push((
            None,
            Vec::new(),
            auto_sections::data_region_entries(r.first),
        ));
    }
    lists.extend(
        r.launches
            .iter()
            .map(|&l| (None, Vec::new(), auto_sections::launch_entries(l))),
    );
    for &(l, site) in &r.remote {
        let carriers: Vec<LLVMValueRef> = fallbacks
            .iter()
            .filter(|f| f.launch == l && f.site == Some(site))
            .flat_map(|f| f.carriers(base))
            .collect();
        lists.push((Some(site), carriers, auto_sections::launch_entries(l)));
    }
    for (site, carriers, entries) in lists {
        let Some(entries) = entries else {
            return Some(format!(
                "the map entries of a construct of the region cannot be read; {advice}"
            ));
        };
        for e in entries {
            // A section mapped on its own reaches the kernels only as an argument, which
            // `may_alias` looks at; an attached pointer reaches them through its base's copy.
            if !e.attaches() {
                continue;
            }
            let Some(own) = e.begin else {
                return Some(format!(
                    "a map entry of the region cannot be read; {advice}"
                ));
            };
            let begin = super::versions::in_region(site, own);
            if apart_from(own, &carriers, begin, base) {
                continue;
            }
            let null = unsafe { !llvm::LLVMIsAConstantPointerNull(begin).is_null() };
            if !is_pointer(begin)
                || null
                || auto_sections::starts_at(begin, base)
                || auto_sections::distinct(begin, base)
            {
                continue;
            }
            let what = e
                .expr
                .map(|x| format!("the data clause '{x}'"))
                .unwrap_or_else(|| "a data clause".into());
            return Some(format!(
                "{what} attaches a pointer that may point into it, which the kernels would follow into \
                 the converted copy and read in the host's layout; {advice}"
            ));
        }
    }
    None
}

/// Puts the begin marker before `r.first` and the end marker after `r.last`; `count`: the
/// run-time extent (the begin call's extents array, one value).
fn insert_markers(
    host: &Module<'_>,
    r: &Region<'_>,
    array: LLVMValueRef,
    desc: &str,
    count: Option<LLVMValueRef>,
) -> LLVMValueRef {
    let ctx = host.get_context();
    let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
    let i64t = ctx.i64_type();
    let g = ir::private_c_string(host, ".ptxcc.layout.auto", desc);
    let null = ptr.const_null().as_value_ref();
    let b = ctx.create_builder();
    unsafe {
        // The extents array: an alloca at the function's entry, the count stored into it
        // right before the begin.
        let values = match count {
            Some(c) => {
                let f = llvm::LLVMGetBasicBlockParent(llvm::LLVMGetInstructionParent(
                    r.first.as_value_ref(),
                ));
                let entry = llvm::LLVMGetFirstInstruction(llvm::LLVMGetEntryBasicBlock(f));
                b.position_before(&InstructionValue::new(entry));
                let arr = llvm::LLVMBuildAlloca(
                    b.as_mut_ptr(),
                    llvm::LLVMArrayType2(i64t.as_type_ref(), 1),
                    c"layout.extents".as_ptr(),
                );
                b.position_before(&r.first);
                let c64 = if llvm::LLVMTypeOf(c) == i64t.as_type_ref() {
                    c
                } else {
                    llvm::LLVMBuildZExt(b.as_mut_ptr(), c, i64t.as_type_ref(), c"".as_ptr())
                };
                llvm::LLVMSetAlignment(arr, 8);
                let st = llvm::LLVMBuildStore(b.as_mut_ptr(), c64, arr);
                llvm::LLVMSetAlignment(st, 8);
                arr
            }
            None => null,
        };
        super::runtime_call(
            host,
            BEGIN,
            &[ptr.into(), i64t.into(), ptr.into(), ptr.into(), ptr.into()],
            &mut [
                array,
                i64t.const_zero().as_value_ref(),
                g.as_value_ref(),
                values,
                null,
            ],
            &r.first,
        );
        if let Some(next) = r.last.get_next_instruction() {
            super::runtime_call(
                host,
                END,
                &[ptr.into(), ptr.into()],
                &mut [array, g.as_value_ref()],
                &next,
            );
        }
    }
    g.as_value_ref()
}

/// The counters of the worksharing loops of function `f`: locals incremented in a loop whose
/// first value comes from the bounds loop mapping gives each thread (`ptxcc.lb`).
fn thread_counters(f: LLVMValueRef) -> HashSet<LLVMValueRef> {
    let mut out = HashSet::new();
    let stores: Vec<LLVMValueRef> = unsafe {
        let mut v = Vec::new();
        let mut bb = llvm::LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let mut i = llvm::LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                if opcode(i) == Some(LLVMOpcode::LLVMStore) {
                    v.push(i);
                }
                i = llvm::LLVMGetNextInstruction(i);
            }
            bb = llvm::LLVMGetNextBasicBlock(bb);
        }
        v
    };
    let stored_into = |slot: LLVMValueRef| -> Vec<LLVMValueRef> {
        stores
            .iter()
            .filter(|&&s| unsafe { llvm::LLVMGetOperand(s, 1) } == slot)
            .map(|&s| unsafe { llvm::LLVMGetOperand(s, 0) })
            .collect()
    };
    // The first value of a worksharing counter comes from the thread's index (tid.x, through
    // the bounds loop mapping computed).
    let from_lb =
        |v: LLVMValueRef| -> bool { reaches_thread_index(v, &stored_into, &mut HashSet::new(), 0) };
    for &s in &stores {
        let (value, slot) = unsafe { (llvm::LLVMGetOperand(s, 0), llvm::LLVMGetOperand(s, 1)) };
        if unsafe { llvm::LLVMIsAAllocaInst(slot).is_null() } || out.contains(&slot) {
            continue;
        }
        // An increment: slot = load(slot) + c.
        let increments = opcode(value) == Some(LLVMOpcode::LLVMAdd)
            && (0..2).any(|k| {
                let o = unsafe { llvm::LLVMGetOperand(value, k) };
                opcode(o) == Some(LLVMOpcode::LLVMLoad)
                    && unsafe { llvm::LLVMGetOperand(o, 0) } == slot
            });
        if increments && stored_into(slot).iter().any(|&v| from_lb(v)) {
            out.insert(slot);
        }
    }
    out
}

/// Does `v` depend on the thread index (`llvm.nvvm.read.ptx.sreg.tid.x`), through
/// instructions and locals?
fn reaches_thread_index(
    v: LLVMValueRef,
    stored_into: &dyn Fn(LLVMValueRef) -> Vec<LLVMValueRef>,
    seen: &mut HashSet<LLVMValueRef>,
    depth: u32,
) -> bool {
    if depth > 48 || !seen.insert(v) {
        return false;
    }
    unsafe {
        if llvm::LLVMIsAInstruction(v).is_null() {
            return false;
        }
        if !llvm::LLVMIsACallInst(v).is_null() {
            let name = ir::callee_name(InstructionValue::new(v)).unwrap_or_default();
            return name.starts_with("llvm.nvvm.read.ptx.sreg.tid.");
        }
        if opcode(v) == Some(LLVMOpcode::LLVMLoad) {
            let slot = llvm::LLVMGetOperand(v, 0);
            return stored_into(slot)
                .into_iter()
                .any(|x| reaches_thread_index(x, stored_into, seen, depth + 1));
        }
        let n = llvm::LLVMGetNumOperands(v);
        (0..n as u32)
            .any(|k| reaches_thread_index(llvm::LLVMGetOperand(v, k), stored_into, seen, depth + 1))
    }
}

/// d(v)/d(counter) where the counters are `ivs`: Some(constant) or None (not affine in a
/// way this analysis follows). Divisions by a constant count as 0 (their quotient moves
/// once in many lanes), remainders keep the dividend's.
fn derivative(
    v: LLVMValueRef,
    ivs: &HashSet<LLVMValueRef>,
    stores: &HashMap<LLVMValueRef, Vec<LLVMValueRef>>,
    visiting: &mut HashSet<LLVMValueRef>,
    depth: u32,
) -> Option<i64> {
    if depth > 64 {
        return None;
    }
    let mut d = |x: LLVMValueRef| derivative(x, ivs, stores, visiting, depth + 1);
    unsafe {
        if !llvm::LLVMIsAConstantInt(v).is_null() || !llvm::LLVMIsAArgument(v).is_null() {
            return Some(0);
        }
        if llvm::LLVMIsAInstruction(v).is_null() {
            return None;
        }
        let op = |k: u32| llvm::LLVMGetOperand(v, k);
        match llvm::LLVMGetInstructionOpcode(v) {
            LLVMOpcode::LLVMSExt | LLVMOpcode::LLVMZExt | LLVMOpcode::LLVMTrunc => d(op(0)),
            LLVMOpcode::LLVMAdd => Some(d(op(0))? + d(op(1))?),
            LLVMOpcode::LLVMSub => Some(d(op(0))? - d(op(1))?),
            LLVMOpcode::LLVMMul => {
                let (a, b) = (op(0), op(1));
                match (ir::const_int(a), ir::const_int(b)) {
                    (_, Some(c)) => Some(c * d(a)?),
                    (Some(c), _) => Some(c * d(b)?),
                    _ => {
                        let (da, db) = (d(a)?, d(b)?);
                        (da == 0 && db == 0).then_some(0)
                    }
                }
            }
            LLVMOpcode::LLVMSDiv | LLVMOpcode::LLVMUDiv => {
                let c = ir::const_int(op(1))?;
                d(op(0))?;
                Some(if c == 1 { d(op(0))? } else { 0 })
            }
            LLVMOpcode::LLVMSRem | LLVMOpcode::LLVMURem => {
                ir::const_int(op(1))?;
                d(op(0))
            }
            LLVMOpcode::LLVMLoad => {
                let slot = op(0);
                if ivs.contains(&slot) {
                    return Some(1);
                }
                // A local being followed already (a counter's update reads it): its other
                // stores say.
                if visiting.contains(&slot) {
                    return Some(0);
                }
                // The stores whose derivative is known must agree: a sequential loop's
                // counter (0, then itself + 1) is 0; a running remainder of the worksharing
                // counter (counter % n, then an update by select) is 1. Memory that is not a
                // local of the function: the same in every lane.
                let values = stores.get(&slot).cloned().unwrap_or_default();
                let known: Vec<i64> = values
                    .into_iter()
                    .filter_map(|x| {
                        visiting.insert(slot);
                        let r = derivative(x, ivs, stores, visiting, depth + 1);
                        visiting.remove(&slot);
                        r
                    })
                    .collect();
                match known.split_first() {
                    None => Some(0),
                    Some((first, rest)) => rest.iter().all(|x| x == first).then_some(*first),
                }
            }
            _ => None,
        }
    }
}

/// One access for the decision: for each dimension, the subscript (None: constant 0), and the
/// bytes it moves.
pub struct Subscripts {
    pub inst: LLVMValueRef,
    pub per_dim: Option<Vec<Option<LLVMValueRef>>>,
    pub bytes: u64,
}

/// Does an access of the array select a field of a struct (an array of structs)?
fn indexes_struct(accesses: &[Access]) -> bool {
    accesses.iter().any(|a| {
        a.chain.iter().any(|&g| unsafe {
            let mut ty = llvm::LLVMGetGEPSourceElementType(g);
            while llvm::LLVMGetTypeKind(ty) == llvm_sys::LLVMTypeKind::LLVMArrayTypeKind {
                ty = llvm::LLVMGetElementType(ty);
            }
            llvm::LLVMGetTypeKind(ty) == llvm_sys::LLVMTypeKind::LLVMStructTypeKind
        })
    })
}

/// The layout `auto` chooses for `desc` from the accesses the rewrite found (`escape`: the
/// first thing the rewrite could not follow, if any): Ok(the description to rewrite with —
/// a permutation, or `soa` — and the remark) or Err(the remark saying why the array stays).
///
/// A one-dimensional array whose accesses select struct fields is an SoA candidate: seen as
/// the grid `[n][w]` of its structs' `w` fields of `u` bytes, lanes that move along the
/// struct index touch one field `w*u` bytes apart; `soa` (the transpose `[n][w] → [w][n]`)
/// puts them side by side. It stays when the fields differ in size (or are not scalars),
/// when it is accessed other than field by field, when the lanes do not move along the
/// struct index, or when the rewrite cannot follow it.
pub(super) fn choose(
    td: LLVMTargetDataRef,
    desc: &LayoutDesc,
    accesses: &[Access],
    escape: Option<&str>,
) -> Result<(LayoutDesc, String), String> {
    // A loop's version (a copy some threads run instead, `ir::mark_loop_copy`) repeats the
    // loop's accesses: the choice counts each once, the rewrite must take them all.
    let all = accesses;
    let counted: Vec<Access> = all
        .iter()
        .filter(|a| !ir::is_loop_copy(a.inst))
        .cloned()
        .collect();
    let accesses = &counted[..];
    let structs = desc.dims.len() == 1 && indexes_struct(accesses);
    let head = format!(
        "layout: {}{}{}",
        desc.name,
        LayoutDesc::shape_text(&desc.dims),
        if structs { " (structs)" } else { "" }
    );
    if let Some(e) = escape {
        return Err(format!("{head} stays: safety cannot be proved ({e})"));
    }
    if accesses.is_empty() {
        return Err(format!("{head} stays: no kernel of the region accesses it"));
    }
    if !structs {
        if let Some(r) = reshape_flat(td, &head, desc, accesses, all) {
            return r;
        }
        let subs: Vec<Subscripts> = accesses
            .iter()
            .map(|a| {
                let (_, elem) = access_type(td, a);
                Subscripts {
                    inst: a.inst,
                    per_dim: terms(td, &a.chain, None)
                        .ok()
                        .and_then(|ts| dimension_subscripts(desc, &ts, elem)),
                    bytes: elem,
                }
            })
            .collect();
        let (goes_to, why) = decide(desc, &subs)?;
        let chosen = LayoutDesc {
            goes_to,
            auto: false,
            ..desc.clone()
        };
        rewritable(td, &chosen, all, None)
            .map_err(|e| format!("{head} stays: the rewrite cannot take it ({e})"))?;
        return Ok((chosen, why));
    }
    let (w, u) = soa_struct(td, accesses).map_err(|why| format!("{head} stays: {why}"))?;
    let n = struct_count(desc, w * u).map_err(|why| format!("{head} stays: {why}"))?;
    // The struct array as the grid [n][w] of its fields.
    let grid = LayoutDesc {
        dims: vec![n, Extent::Const(w)],
        goes_to: vec![1, 2],
        ..desc.clone()
    };
    let whole = accesses.iter().find(|a| access_type(td, a).1 != u);
    if let Some(a) = whole {
        return Err(format!(
            "{head} stays: it is accessed as {}-byte units, not field by field ({u}-byte fields): whole structs \
             copied, say",
            access_type(td, a).1
        ));
    }
    let subs: Vec<Subscripts> = accesses
        .iter()
        .map(|a| Subscripts {
            inst: a.inst,
            per_dim: terms(td, &a.chain, Some((w, u)))
                .ok()
                .and_then(|ts| dimension_subscripts(&grid, &ts, u)),
            bytes: access_type(td, a).1,
        })
        .collect();
    let vote = decide_as(&head, &grid, &subs)?;
    let goes_to = vote.goes_to.clone();
    if goes_to != [2, 1] {
        return Err(format!(
            "{head} stays: consecutive threads do not move along the struct index"
        ));
    }
    let soa = LayoutDesc {
        dims: vec![n],
        goes_to: Vec::new(),
        soa: true,
        auto: false,
        section: None,
        ..desc.clone()
    };
    let dev = LayoutDesc {
        goes_to,
        auto: false,
        ..grid.clone()
    };
    rewritable(td, &dev, all, Some((w, u)))
        .map_err(|e| format!("{head} stays: the rewrite cannot take it ({e})"))?;
    Ok((
        soa,
        format!(
            "{head} -> one array per field, {}{} ({w} fields of {u} bytes; coalesced on the struct index: {})",
            desc.name,
            LayoutDesc::shape_text(&dev.device_dims()),
            vote.tally
        ),
    ))
}

/// A flat section of scalars indexed by hand (`a[0:n*4]` read as `a[i*4 + c]`, Himeno's own
/// matrices): when most accesses step `k ≥ 2` elements from one lane to the next and the
/// length is a multiple of `k` — proved by the host for a run-time length
/// (`SectionLen::factor`), or a constant number of bytes — it is the grid `[len/k][k]`,
/// transposed to `[k][len/k]` so that the lanes touch consecutive elements. None: not such a
/// section (the usual decision follows); Some(Err): the remark why it stays. `accesses` vote,
/// `all` (they and the loop copies' repeats of them) must be rewritable.
fn reshape_flat(
    td: LLVMTargetDataRef,
    head: &str,
    desc: &LayoutDesc,
    accesses: &[Access],
    all: &[Access],
) -> Option<Result<(LayoutDesc, String), String>> {
    let sec = desc.section?;
    let length = match desc.dims.as_slice() {
        [Extent::Runtime] if sec.factor >= 2 => FlatLength::Counted(sec),
        // A constant length is counted in bytes (`auto_sections::Length::Bytes`).
        [Extent::Const(bytes)] if sec.elem == 1 => FlatLength::Bytes(*bytes),
        _ => return None,
    };
    let mut ivs_of: HashMap<LLVMValueRef, HashSet<LLVMValueRef>> = HashMap::new();
    let mut stores_of: HashMap<LLVMValueRef, HashMap<LLVMValueRef, Vec<LLVMValueRef>>> =
        HashMap::new();
    let mut steps: HashMap<i64, usize> = HashMap::new();
    for a in accesses {
        // The element index of a flat access: one GEP index of the element's size.
        let Ok(ts) = terms(td, &a.chain, None) else {
            continue;
        };
        let (_, elem) = access_type(td, a);
        let [t] = ts.as_slice() else {
            continue;
        };
        if t.stride != elem || t.level.is_some() {
            continue;
        }
        let f = unsafe { llvm::LLVMGetBasicBlockParent(llvm::LLVMGetInstructionParent(a.inst)) };
        let ivs = ivs_of.entry(f).or_insert_with(|| thread_counters(f));
        let stores = stores_of.entry(f).or_insert_with(|| stores_by_slot(f));
        if let Some(k) = derivative(t.value, ivs, stores, &mut HashSet::new(), 0) {
            *steps.entry(k).or_default() += 1;
        }
    }
    let (&k, &n) = steps.iter().max_by_key(|&(k, n)| (*n, *k))?;
    let total = accesses.len();
    if k < 2 || 2 * n <= total {
        return None;
    }
    let k = k as u64;
    let (rows, elem) = match length {
        FlatLength::Counted(sec) => {
            if sec.factor % k != 0 {
                return Some(Err(format!(
                    "{head} stays: consecutive threads step {k} elements, but its length is proved a multiple of {} only",
                    sec.factor
                )));
            }
            (Extent::Runtime, sec.elem)
        }
        FlatLength::Bytes(bytes) => {
            // The element is what the accesses move; they must agree on it.
            let elem = access_type(td, &accesses[0]).1;
            let other = accesses
                .iter()
                .map(|a| access_type(td, a).1)
                .find(|&e| e != elem);
            if let Some(other) = other {
                return Some(Err(format!(
                    "{head} stays: it is accessed as {elem}-byte and as {other}-byte elements"
                )));
            }
            if elem == 0 || bytes % (k * elem) != 0 {
                return Some(Err(format!(
                    "{head} stays: consecutive threads step {k} elements of {elem} bytes, which do not divide its {bytes} bytes"
                )));
            }
            (Extent::Const(bytes / (k * elem)), elem)
        }
    };
    let grid = LayoutDesc {
        dims: vec![rows, Extent::Const(k)],
        goes_to: vec![2, 1],
        auto: false,
        section: None,
        ..desc.clone()
    };
    let refused = match rewritable(td, &grid, all, None) {
        Ok(e) if e == elem => None,
        Ok(e) => Some(format!(
            "it is accessed as {e}-byte elements, its section counts {elem}-byte ones"
        )),
        Err(e) => Some(format!("the rewrite cannot take it ({e})")),
    };
    if let Some(why) = refused {
        return Some(Err(format!("{head} stays: {why}")));
    }
    let why = format!(
        "{head} -> {} (seen as {}: consecutive threads step {k} elements in {n} of {total} accesses)",
        LayoutDesc::shape_text(&grid.device_dims()),
        LayoutDesc::shape_text(&grid.dims)
    );
    Some(Ok((grid, why)))
}

/// How the length of a flat section is known: counted at run time in elements of `elem` bytes
/// (a multiple of `factor`), or a constant number of bytes.
#[derive(Clone, Copy)]
enum FlatLength {
    Counted(SectionLen),
    Bytes(u64),
}

/// What the run-time length of an `auto` pointer section (`original`) is divided by for the
/// layout `auto` chose (`chosen`): the `k` of a flat section reshaped to `[len/k][k]`
/// (`reshape_flat`), else 1.
pub(super) fn section_divisor(original: &LayoutDesc, chosen: &LayoutDesc) -> u64 {
    match (original.section, chosen.dims.as_slice()) {
        (Some(_), [Extent::Runtime, Extent::Const(k)])
            if !chosen.soa && original.dims.len() == 1 =>
        {
            *k
        }
        _ => 1,
    }
}

/// How many `size`-byte structs the array of `desc` holds: its extent, or for a pointer
/// section (`section`) the section's length when it counts those structs. Err: why not.
fn struct_count(desc: &LayoutDesc, size: u64) -> Result<Extent, String> {
    match (desc.dims[0], desc.section.map(|s| s.elem)) {
        (n, None) => Ok(n),
        (Extent::Runtime, Some(c)) if c == size => Ok(Extent::Runtime),
        (Extent::Const(k), Some(c)) if (k * c).is_multiple_of(size) => {
            Ok(Extent::Const(k * c / size))
        }
        (_, Some(c)) => Err(format!(
            "its data clause maps a section of {c}-byte elements, not of its {size}-byte structs"
        )),
    }
}

/// The decision for one `auto` description: Ok(permutation, 1-based `goes_to`, and the remark)
/// or Err(the remark saying why the array stays).
pub fn decide(desc: &LayoutDesc, accesses: &[Subscripts]) -> Result<(Vec<usize>, String), String> {
    let head = format!(
        "layout: {}{}",
        desc.name,
        LayoutDesc::shape_text(&desc.dims)
    );
    let v = decide_as(&head, desc, accesses)?;
    let chosen = LayoutDesc {
        goes_to: v.goes_to.clone(),
        auto: false,
        ..desc.clone()
    };
    let why = format!(
        "{head} -> {} (coalesced on dimension {}: {})",
        LayoutDesc::shape_text(&chosen.device_dims()),
        v.dim + 1,
        v.tally
    );
    Ok((v.goes_to, why))
}

/// What the accesses voted for: dimension `dim` goes innermost (`goes_to`), moved along by
/// consecutive threads in `tally` of the accesses (`3 of 4`, and the weighted count where trip
/// counts weigh).
struct Vote {
    goes_to: Vec<usize>,
    dim: usize,
    tally: String,
}

/// `decide`, its remarks starting with `head`.
fn decide_as(head: &str, desc: &LayoutDesc, accesses: &[Subscripts]) -> Result<Vote, String> {
    let rank = desc.dims.len();
    if accesses.is_empty() {
        return Err(format!("{head} stays: no kernel of the region accesses it"));
    }
    let mut ivs_of: HashMap<LLVMValueRef, HashSet<LLVMValueRef>> = HashMap::new();
    let mut stores_of: HashMap<LLVMValueRef, HashMap<LLVMValueRef, Vec<LLVMValueRef>>> =
        HashMap::new();
    let mut weights_of: HashMap<LLVMValueRef, HashMap<LLVMBasicBlockRef, u64>> = HashMap::new();
    // Per dimension: the accesses along it, and their weight (the trip counts of the loops
    // around them).
    let mut voters: Vec<Vec<usize>> = vec![Vec::new(); rank];
    let mut weighed = vec![0u64; rank];
    let mut total_weight = 0u64;
    for (ai, a) in accesses.iter().enumerate() {
        let (f, bb) = unsafe {
            let bb = llvm::LLVMGetInstructionParent(a.inst);
            (llvm::LLVMGetBasicBlockParent(bb), bb)
        };
        let ivs = ivs_of.entry(f).or_insert_with(|| thread_counters(f));
        let weight = weights_of
            .entry(f)
            .or_insert_with(|| trips::block_weights(f, ivs))
            .get(&bb)
            .copied()
            .unwrap_or(1);
        total_weight = total_weight.saturating_add(weight);
        let Some(x) = &a.per_dim else {
            continue;
        };
        let stores = stores_of.entry(f).or_insert_with(|| stores_by_slot(f));
        let derivs: Vec<Option<i64>> = x
            .iter()
            .map(|s| match s {
                None => Some(0),
                Some(v) => derivative(*v, ivs, stores, &mut HashSet::new(), 0),
            })
            .collect();
        let moving: Vec<usize> = (0..rank).filter(|&d| derivs[d] != Some(0)).collect();
        if let [d] = moving.as_slice() {
            if derivs[*d] == Some(1) {
                weighed[*d] = weighed[*d].saturating_add(weight);
                voters[*d].push(ai);
            }
        }
    }
    let total = accesses.len();
    let (best, &w) = weighed
        .iter()
        .enumerate()
        .max_by_key(|&(d, &v)| (v, voters[d].len(), d))
        .unwrap_or((0, &0));
    let n = voters[best].len();
    // "n of total", and what the loops' trip counts make of them where they differ.
    let base = format!("{n} of {total}");
    let weighted = if w == n as u64 && total_weight == total as u64 {
        String::new()
    } else {
        format!("; {w} of {total_weight} weighted by their loops' trip counts")
    };
    if w == 0 {
        return Err(format!(
            "{head} stays: in none of its {total} accesses do consecutive threads move along one of its dimensions"
        ));
    }
    if 2 * w <= total_weight {
        return Err(format!(
            "{head} stays: its accesses disagree (consecutive threads move along dimension {} in only {base}{weighted})",
            best + 1,
        ));
    }
    if best == rank - 1 {
        return Err(format!(
            "{head} stays: already coalesced (consecutive threads move along its innermost dimension in {base} \
             accesses{weighted})"
        ));
    }
    if let Some(why) = vector_coalesced(desc, accesses, best, &voters) {
        return Err(format!("{head} stays: {why}"));
    }
    // Dimension `best` goes last; the others keep their order.
    let goes_to: Vec<usize> = (0..rank)
        .map(|d| match d.cmp(&best) {
            std::cmp::Ordering::Less => d + 1,
            std::cmp::Ordering::Equal => rank,
            std::cmp::Ordering::Greater => d,
        })
        .collect();
    Ok(Vote {
        goes_to,
        dim: best,
        tally: format!("{base} accesses{weighted}"),
    })
}

/// The widest load or store NVPTX makes of consecutive elements of one thread (`ld.v4.f32`,
/// `ld.v2.f64`).
const VECTOR_BYTES: u64 = 16;

/// Whether the array is coalesced already through vector accesses, where consecutive threads
/// move along dimension `best`: the dimensions inside it form a block of at most 16 bytes
/// (`a[I][J][K][4]` of floats: 16 bytes per k; libptxrt starts a device copy on a 256-byte
/// boundary, so each block is aligned to its size), and the accesses that move along `best`
/// read or write every element of the block (Himeno's `a[i][j][k][0]` … `a[i][j][k][3]`). LLVM's load-store vectorizer then joins them into one
/// access per thread (`ld.global.v4.f32`), and a warp's request covers 32 consecutive blocks:
/// every sector it touches is used, as in the transposed layout, with fewer requests. The reason
/// it stays, or None.
fn vector_coalesced(
    desc: &LayoutDesc,
    accesses: &[Subscripts],
    best: usize,
    voters: &[Vec<usize>],
) -> Option<String> {
    let rank = desc.dims.len();
    let inner: Vec<u64> = (best + 1..rank)
        .map(|d| desc.dims[d].value())
        .collect::<Option<Vec<u64>>>()?;
    let count: u64 = inner.iter().product();
    let voting: Vec<&Subscripts> = voters.get(best)?.iter().map(|&i| &accesses[i]).collect();
    let elem = voting.first()?.bytes;
    let block = count * elem;
    if block > VECTOR_BYTES
        || block < 2 * elem
        || !block.is_power_of_two()
        || voting.iter().any(|a| a.bytes != elem)
    {
        return None;
    }
    // Every element of the block, as constant subscripts of the inner dimensions.
    let mut seen: HashSet<Vec<u64>> = HashSet::new();
    for a in &voting {
        let x = a.per_dim.as_ref()?;
        let tuple: Option<Vec<u64>> = x[best + 1..]
            .iter()
            .map(|s| match s {
                None => Some(0),
                Some(v) => ir::const_int(*v).and_then(|c| u64::try_from(c).ok()),
            })
            .collect();
        seen.insert(tuple?);
    }
    (seen.len() as u64 == count).then(|| {
        format!(
            "already coalesced through vector accesses (each thread reads or writes its {block} \
             contiguous bytes of dimension{} {} at once: one {block}-byte access per thread, \
             every sector used as in the transposed layout)",
            if rank - best > 2 { "s" } else { "" },
            (best + 2..=rank)
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

fn stores_by_slot(f: LLVMValueRef) -> HashMap<LLVMValueRef, Vec<LLVMValueRef>> {
    let mut out: HashMap<LLVMValueRef, Vec<LLVMValueRef>> = HashMap::new();
    unsafe {
        let mut bb = llvm::LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let mut i = llvm::LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                if opcode(i) == Some(LLVMOpcode::LLVMStore) {
                    out.entry(llvm::LLVMGetOperand(i, 1))
                        .or_default()
                        .push(llvm::LLVMGetOperand(i, 0));
                }
                i = llvm::LLVMGetNextInstruction(i);
            }
            bb = llvm::LLVMGetNextBasicBlock(bb);
        }
    }
    out
}

//! Layout-versioned kernels: a kernel launched from a function that a layout region calls
//! (host IR, part of `layout-auto` for its regions and of `layout-plan` for `trans` blocks).
//!
//! Most programs open a data region in one function and keep their compute constructs in the
//! functions it calls. The kernel K of such a construct may get the converted copy of the
//! region's array (when the call passes the array) or not (the same function called outside
//! the region, or with another array), so K itself must stay as it is. This pass gives K a
//! second version K' for the layout (a copy of its host-fallback function and of the outlined
//! functions it reaches, with its own region id and offload entry, and the `ptxcc-layout`
//! attribute the device rewrite follows), and has the launch offer it:
//!
//! ```llvm
//! ; before (in @g, called inside main's data region with the array as %a)
//! %r = call i32 @__tgt_target_kernel(ptr @0, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %args)
//! ; after
//! call void @__ptxcc_layout_variant(ptr @.K.region_id, ptr @.K_layout1.region_id, i32 1, ptr %a, ptr @desc, i64 0)
//! %r = call i32 @__tgt_target_kernel(ptr @0, i64 -1, i32 0, i32 0, ptr @.K.region_id, ptr %args)
//! define internal void @K_layout1(...) #N    ; #N: "ptxcc-layout"="1=a;?;auto:8;x.c:20:1"
//! @.K_layout1.region_id = weak constant i8 0
//! @.offloading.entry.K_layout1 = weak constant %struct.__tgt_offload_entry { ptr @.K_layout1.region_id, … }
//! !ptxcc.layout.variants = !{!{!"K_layout1", !"K"}}
//! ```
//!
//! libptxrt launches K' in K's place when, for every parameter the variant calls name, the
//! argument is the start of the device copy that the named layout keeps converted at that
//! moment (the element size, 0 where the layout found nothing to convert, is written in by
//! `host_plan::set_element_sizes`); otherwise K, and its launch check stops a pointer into a
//! converted copy. The host passes that read a kernel's launch (`openmp::kernel_launches`) see
//! K's launches for K' through `!ptxcc.layout.variants`.
use super::{ATTR, BEGIN, DATA_BEGIN, LAUNCH, VARIANT, VARIANT_ELEM};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir;
use crate::openmp;
use inkwell::attributes::AttributeLoc;
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use llvm_sys::core as llvm;
use llvm_sys::prelude::LLVMValueRef;
use std::collections::HashMap;
use std::collections::HashSet;

/// The named metadata pairing each version with its kernel: `!{!"K_layout1", !"K"}`.
pub const VARIANTS_MD: &str = "ptxcc.layout.variants";

/// One array a version is compiled for: kernel parameter `param` gets it; `host` is its host
/// address at the launch (a value available there); `desc` the description global the region's
/// markers use, whose text is `desc_text`.
#[derive(Clone, Debug)]
pub struct Carried {
    pub param: u32,
    pub host: LLVMValueRef,
    pub desc: LLVMValueRef,
    pub desc_text: String,
}

/// The kernel each version stands for (version name → kernel name), from `host`'s metadata.
pub fn versions_of(host: &Module<'_>) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for node in host.get_global_metadata(VARIANTS_MD) {
        let ops = node.get_node_values().unwrap_or_default();
        let text = |k: usize| {
            let m = ops.get(k)?.into_metadata_value();
            m.get_string_value()
                .map(|s| String::from_utf8_lossy(s).into_owned())
        };
        if let (Some(v), Some(k)) = (text(0), text(1)) {
            out.insert(v, k);
        }
    }
    out
}

/// Makes the layout version of the kernel `launch` starts, compiled for `carried`, and has the
/// launch offer it. Returns the version's name. Err: why it cannot (the launch then stays
/// unversioned, and the caller keeps the arrays as they are).
pub fn version_launch(
    host: &Module<'_>,
    launch: InstructionValue<'_>,
    carried: &[Carried],
) -> Result<String, String> {
    let kernel = ir::launched_kernel(launch);
    let kf = host
        .get_function(&kernel)
        .filter(|f| f.count_basic_blocks() > 0)
        .ok_or_else(|| format!("the host code of kernel '{kernel}' is not in this module"))?;
    let entry =
        entry_of(host, &kernel).ok_or_else(|| format!("kernel '{kernel}' has no offload entry"))?;
    let mut n = 1;
    while host.get_function(&format!("{kernel}_layout{n}")).is_some() {
        n += 1;
    }
    let name = format!("{kernel}_layout{n}");
    let copy = copy_tree(host, kf, &name)?;
    let attr: Vec<String> = carried
        .iter()
        .map(|c| format!("{}={}", c.param, c.desc_text))
        .collect();
    let ctx = host.get_context();
    copy.remove_string_attribute(AttributeLoc::Function, ATTR);
    copy.add_attribute(
        AttributeLoc::Function,
        ctx.create_string_attribute(ATTR, &attr.join("|")),
    );
    let region = add_entry(host, entry, &name);
    let original = ir::strip_casts(ir::call_arg_raw(launch, 4));
    for c in carried {
        insert_variant(host, launch, original, region, c);
    }
    let node = ctx.metadata_node(&[
        ctx.metadata_string(&name).into(),
        ctx.metadata_string(&kernel).into(),
    ]);
    host.add_global_metadata(VARIANTS_MD, &node)
        .map_err(|e| format!("cannot record the version of '{kernel}': {e}"))?;
    Ok(name)
}

/// After the device side decided (`host_plan::set_element_sizes` wrote the element sizes),
/// the versions compiled for arrays that all stay as they are: libptxrt would never choose
/// them, so their offers are erased and their code in `device` and `host` becomes an empty
/// function. Their PTX, emulator code and host copies then cost nothing to compile (the
/// outlined functions they called are left without users, for the optimiser to drop), and a
/// program whose arrays auto keeps compiles about as fast as without auto. The kernels stay
/// registered, so the offload entries need no change. Returns the versions retired.
pub fn retire_unused<'ctx>(host: &Module<'ctx>, device: &Module<'ctx>) -> Vec<String> {
    let mut retired = Vec::new();
    for version in versions_of(host).into_keys() {
        let Some(region) = host.get_global(&openmp::region_id_name(&version)) else {
            continue;
        };
        let offers: Vec<InstructionValue<'_>> = ir::users(region.as_value_ref())
            .into_iter()
            .filter(|&u| unsafe { !llvm::LLVMIsACallInst(u).is_null() })
            .map(|u| unsafe { InstructionValue::new(u) })
            .filter(|&c| ir::callee_name(c).as_deref() == Some(VARIANT))
            .collect();
        let kept = offers
            .iter()
            .all(|&c| ir::const_int(ir::call_arg_raw(c, VARIANT_ELEM)) == Some(0));
        if !kept {
            continue;
        }
        for c in offers {
            ir::erase(c);
        }
        for m in [device, host] {
            if let Some(f) = m
                .get_function(&version)
                .filter(|f| f.count_basic_blocks() > 0)
            {
                ir::empty_body(f);
            }
        }
        retired.push(version);
    }
    retired.sort();
    retired
}

/// The offload entry global of `kernel` (its first operand is the kernel's region id).
fn entry_of(host: &Module<'_>, kernel: &str) -> Option<LLVMValueRef> {
    let region = host
        .get_global(&openmp::region_id_name(kernel))?
        .as_value_ref();
    host.get_globals()
        .map(|g| g.as_value_ref())
        .find(|&g| unsafe {
            let init = llvm::LLVMGetInitializer(g);
            !init.is_null()
                && llvm::LLVMGetNumOperands(init) >= 2
                && ir::strip_casts(llvm::LLVMGetOperand(init, 0)) == region
        })
}

/// Copies `kf` as `name` with every internal function it reaches (the outlined regions it
/// forks, their wrappers), the copies referring to each other: the device rewrite changes the
/// version's accesses in its own functions only.
fn copy_tree<'ctx>(
    host: &Module<'ctx>,
    kf: FunctionValue<'ctx>,
    name: &str,
) -> Result<FunctionValue<'ctx>, String> {
    let mut tree = vec![kf];
    let mut i = 0;
    while i < tree.len() {
        for inst in ir::instructions(tree[i]) {
            let v = inst.as_value_ref();
            let n = unsafe { llvm::LLVMGetNumOperands(v) };
            for k in 0..n {
                let op = unsafe { llvm::LLVMGetOperand(v, k as u32) };
                let Some(f) = (unsafe { !llvm::LLVMIsAFunction(op).is_null() })
                    .then(|| unsafe { FunctionValue::new(op) })
                    .flatten()
                else {
                    continue;
                };
                let internal = matches!(
                    f.get_linkage(),
                    inkwell::module::Linkage::Internal | inkwell::module::Linkage::Private
                );
                if f.count_basic_blocks() > 0 && internal && !tree.contains(&f) {
                    tree.push(f);
                }
            }
        }
        i += 1;
    }
    let mut map: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
    let mut copies = Vec::new();
    for (k, f) in tree.iter().enumerate() {
        let copy_name = if k == 0 {
            name.to_string()
        } else {
            format!("{}.{name}", ir::fn_name(*f))
        };
        let copy = ir::clone_function(host, *f, &copy_name)
            .ok_or_else(|| format!("cannot copy '{}'", ir::fn_name(*f)))?;
        map.insert(f.as_value_ref(), copy.as_value_ref());
        copies.push(copy);
    }
    for copy in &copies {
        for inst in ir::instructions(*copy) {
            let v = inst.as_value_ref();
            unsafe {
                for k in 0..llvm::LLVMGetNumOperands(v) as u32 {
                    if let Some(&to) = map.get(&llvm::LLVMGetOperand(v, k)) {
                        llvm::LLVMSetOperand(v, k, to);
                    }
                }
            }
        }
    }
    Ok(copies[0])
}

/// A region id and an offload entry for version `name`, shaped like `entry` (the kernel's).
fn add_entry(host: &Module<'_>, entry: LLVMValueRef, name: &str) -> LLVMValueRef {
    let ctx = host.get_context();
    let i8t = ctx.i8_type();
    let region = host.add_global(i8t, None, &openmp::region_id_name(name));
    region.set_initializer(&i8t.const_zero());
    region.set_constant(true);
    region.set_linkage(inkwell::module::Linkage::WeakAny);
    let name_global = ir::private_c_string(host, ".ptxcc.layout.kname", name);
    unsafe {
        let init = llvm::LLVMGetInitializer(entry);
        let n = llvm::LLVMGetNumOperands(init) as u32;
        let mut ops: Vec<LLVMValueRef> = (0..n).map(|k| llvm::LLVMGetOperand(init, k)).collect();
        ops[0] = region.as_value_ref();
        ops[1] = name_global.as_value_ref();
        let ty = llvm::LLVMTypeOf(init);
        let value = llvm::LLVMConstNamedStruct(ty, ops.as_mut_ptr(), n);
        let g = host.add_global(
            inkwell::types::StructType::new(ty),
            None,
            &format!(".offloading.entry.{name}"),
        );
        llvm::LLVMSetInitializer(g.as_value_ref(), value);
        g.set_constant(true);
        g.set_linkage(inkwell::module::Linkage::WeakAny);
        llvm::LLVMSetSection(g.as_value_ref(), llvm::LLVMGetSection(entry));
        llvm::LLVMSetAlignment(g.as_value_ref(), llvm::LLVMGetAlignment(entry));
    }
    region.as_value_ref()
}

/// `__ptxcc_layout_variant(original region id, version region id, param, host, desc, 0)`
/// before `launch` (`desc` operand `VARIANT_DESC`, the 0 operand `VARIANT_ELEM`);
/// `set_element_sizes` writes the element size.
fn insert_variant(
    host: &Module<'_>,
    launch: InstructionValue<'_>,
    original: LLVMValueRef,
    region: LLVMValueRef,
    c: &Carried,
) {
    let ctx = host.get_context();
    let (i32t, i64t) = (ctx.i32_type(), ctx.i64_type());
    let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
    super::runtime_call(
        host,
        VARIANT,
        &[
            ptr.into(),
            ptr.into(),
            i32t.into(),
            ptr.into(),
            ptr.into(),
            i64t.into(),
        ],
        &mut [
            original,
            region,
            i32t.const_int(c.param as u64, false).as_value_ref(),
            c.host,
            c.desc,
            i64t.const_zero().as_value_ref(),
        ],
        &launch,
    );
}

/// The launches of the functions a region calls that launch kernels, each with the call that
/// reaches it, and the first call whose launches versions do not reach, described for a remark
/// (a function that launches through further calls or through a pointer, from a task
/// (`nowait`), or inside a data region or `trans` block of its own; a call through a pointer):
/// kernels there would get a converted copy unrewritten.
pub(super) struct Remote<'ctx> {
    pub launches: Vec<(InstructionValue<'ctx>, InstructionValue<'ctx>)>,
    pub unreached: Option<String>,
}

pub(super) fn remote_launches<'ctx>(
    host: &Module<'ctx>,
    region: &[InstructionValue<'ctx>],
    launching: &HashSet<String>,
) -> Remote<'ctx> {
    let mut out = Remote {
        launches: Vec::new(),
        unreached: None,
    };
    for &site in region {
        if ir::is_indirect_call(site) {
            out.unreached.get_or_insert_with(|| {
                format!("{}, which may launch kernels", super::auto::THROUGH_POINTER)
            });
            continue;
        }
        // A launching function handed to the callee (a host `parallel` region's body, a
        // task's entry): its launches run from the callee, where versions are not offered.
        if let Some(g) = ir::passed_functions(site)
            .into_iter()
            .find(|g| launching.contains(g))
        {
            out.unreached.get_or_insert_with(|| {
                format!(
                    "'{}' with '{g}', which launches kernels (a host parallel region or task)",
                    ir::callee_name(site).unwrap_or_default()
                )
            });
            continue;
        }
        let Some(name) = ir::callee_name(site).filter(|n| launching.contains(n)) else {
            continue;
        };
        let reached = host
            .get_function(&name)
            .filter(|g| g.count_basic_blocks() > 0)
            .filter(|&g| !ir::instructions(g).into_iter().any(ir::is_indirect_call))
            .and_then(|g| {
                let mut here = Vec::new();
                for (call, callee) in ir::calls(g) {
                    if callee == LAUNCH {
                        let kernel = ir::launched_kernel(call);
                        host.get_function(&kernel)
                            .filter(|k| k.count_basic_blocks() > 0)?;
                        here.push((call, site));
                    } else if launching.contains(&callee)
                        || callee == DATA_BEGIN
                        || callee == BEGIN
                        || callee.starts_with("__kmpc_omp_target_task")
                    {
                        return None;
                    }
                }
                Some(here)
            });
        match reached {
            Some(here) => out.launches.extend(here),
            None => {
                out.unreached.get_or_insert_with(|| {
                    format!(
                        "'{name}', which launches kernels through further calls or through a pointer, from a \
                         task ('nowait'), or inside a data region of its own"
                    )
                });
            }
        }
    }
    out
}

/// The parameter of its function that `v` is: the parameter itself, or a reload of the private
/// slot only it was stored to (clang's unoptimised code keeps each parameter in one), through
/// casts and element-0 addresses (`&p[0]`, where a section `p[0:n]` begins).
pub(super) fn parameter_index(v: LLVMValueRef) -> Option<u32> {
    unsafe {
        let element0 = |mut v: LLVMValueRef| loop {
            v = ir::strip_casts(v);
            if !ir::is_zero_gep(v) {
                return v;
            }
            v = llvm::LLVMGetOperand(v, 0);
        };
        let mut v = element0(v);
        if !llvm::LLVMIsALoadInst(v).is_null() {
            let stored = ir::slot_values(llvm::LLVMGetOperand(v, 0))?;
            let [one] = stored[..] else {
                return None;
            };
            v = one;
        }
        if llvm::LLVMIsAArgument(v).is_null() {
            return None;
        }
        let f = llvm::LLVMGetParamParent(v);
        (0..llvm::LLVMCountParams(f)).find(|&k| llvm::LLVMGetParam(f, k) == v)
    }
}

/// `v`, a value of a remote launch's function, as the region's function has it: a parameter
/// becomes the argument the call `site` passes; anything else stays as it is.
pub(super) fn in_region(site: Option<InstructionValue<'_>>, v: LLVMValueRef) -> LLVMValueRef {
    match (site, parameter_index(v)) {
        (Some(site), Some(k)) if k < ir::call_arg_count(site) => ir::call_arg_raw(site, k),
        _ => v,
    }
}

/// The parameters of the kernel `launch` starts (in a function the region calls through
/// `site`) that get the array the region's function has as `array`, with its host address at
/// the launch: the function's parameter the call passes it in, or the global itself.
pub(super) fn carried_by(
    host: &Module<'_>,
    launch: InstructionValue<'_>,
    site: Option<InstructionValue<'_>>,
    array: LLVMValueRef,
    desc: LLVMValueRef,
    desc_text: &str,
) -> Vec<Carried> {
    let here = unsafe {
        llvm::LLVMGetBasicBlockParent(llvm::LLVMGetInstructionParent(launch.as_value_ref()))
    };
    let mut out: Vec<Carried> = Vec::new();
    for call in fallback_calls(host, launch) {
        let n = unsafe { llvm::LLVMGetNumArgOperands(call) };
        for j in 0..n {
            let own = unsafe { llvm::LLVMGetOperand(call, j) };
            let there = in_region(site, own);
            if !super::host_plan::same_value(ir::strip_casts(there), array) {
                continue;
            }
            let host_value = match (site, parameter_index(own)) {
                // A launch written in the region: the value the region's start passes (as
                // for `__ptxcc_layout_expect` of a launch `plan_host` rewrites in place).
                (None, _) => array,
                (Some(_), Some(k)) => unsafe { llvm::LLVMGetParam(here, k) },
                (Some(_), None)
                    if unsafe { !llvm::LLVMIsAConstant(ir::strip_casts(own)).is_null() } =>
                {
                    ir::strip_casts(own)
                }
                (Some(_), None) => continue,
            };
            if !out.iter().any(|c| c.param == j) {
                out.push(Carried {
                    param: j,
                    host: host_value,
                    desc,
                    desc_text: desc_text.to_string(),
                });
            }
        }
    }
    out
}

/// The versions a layout plan asks for: per launch and call in the region that reaches it
/// (None: a launch written in the region), the arrays the version is compiled for (those of
/// every region around the call: nested `trans` blocks, or one auto region's arrays).
type Site<'ctx> = Option<InstructionValue<'ctx>>;

#[derive(Default)]
pub(super) struct Wanted<'ctx>(Vec<(InstructionValue<'ctx>, Site<'ctx>, Vec<Carried>)>);

impl<'ctx> Wanted<'ctx> {
    /// What the launch, reached through `site`, passes of one more array.
    pub fn add(&mut self, launch: InstructionValue<'ctx>, site: Site<'ctx>, carried: Vec<Carried>) {
        if carried.is_empty() {
            return;
        }
        match self
            .0
            .iter_mut()
            .find(|(l, s, _)| *l == launch && *s == site)
        {
            Some((_, _, list)) => list.extend(carried),
            None => self.0.push((launch, site, carried)),
        }
    }
}

/// Makes the versions `wanted` asks for, one per launch and set of arrays (a function called
/// twice with the same arrays needs one). Returns (version, kernel) names.
pub(super) fn make_versions<'ctx>(
    host: &Module<'ctx>,
    wanted: Wanted<'ctx>,
) -> Result<Vec<(String, String)>, Diagnostics> {
    let mut made: Vec<(LLVMValueRef, Vec<(u32, String)>)> = Vec::new();
    let mut out = Vec::new();
    for (launch, site, carried) in wanted.0 {
        let mut key: Vec<(u32, String)> = carried
            .iter()
            .map(|c| (c.param, c.desc_text.clone()))
            .collect();
        key.sort();
        key.dedup();
        if made
            .iter()
            .any(|(l, k)| *l == launch.as_value_ref() && *k == key)
        {
            continue;
        }
        made.push((launch.as_value_ref(), key));
        let kernel = ir::launched_kernel(launch);
        match version_launch(host, launch, &carried) {
            Ok(name) => out.push((name, kernel)),
            // A launch written in the region is rewritten in place instead (`plan_host`): the
            // layout is then converted for it whenever it runs, with no choice left to libptxrt.
            Err(_) if site.is_none() => {}
            Err(why) => {
                return Err(Diagnostics(vec![Diagnostic {
                    loc: openmp::call_loc(launch),
                    message: format!(
                        "ptxcc cannot make the layout version of kernel '{kernel}': {why}"
                    ),
                }]))
            }
        }
    }
    Ok(out)
}

/// The host-fallback calls, in the launching function, of the kernel a launch starts (their
/// arguments are the values the kernel gets).
pub(super) fn fallback_calls(host: &Module<'_>, launch: InstructionValue<'_>) -> Vec<LLVMValueRef> {
    let Some(kf) = host.get_function(&ir::launched_kernel(launch)) else {
        return Vec::new();
    };
    let function = |i: LLVMValueRef| unsafe {
        llvm::LLVMGetBasicBlockParent(llvm::LLVMGetInstructionParent(i))
    };
    let here = function(launch.as_value_ref());
    ir::users(kf.as_value_ref())
        .into_iter()
        .filter(|&u| unsafe {
            !llvm::LLVMIsACallInst(u).is_null()
                && llvm::LLVMGetCalledValue(u) == kf.as_value_ref()
                && function(u) == here
        })
        .collect()
}

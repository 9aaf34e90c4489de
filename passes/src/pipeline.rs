//! The offload pipeline the driver runs on one translation unit's host IR:
//!
//! ```text
//! host IR ─layout-plan─▶ ─device-extraction─▶ device IR ─kernel-formation─▶ ─device-builtins─▶ ─complex-math─▶ ─atomic-orderings─▶
//!   ─drop-loop-hints─▶ ─loop-mapping─▶ ─device-check─▶ ─layout─▶
//!   ├─ device-libc ─▶ math-library ─▶ optimize (default<O3>) ─▶ NVPTX ─▶ PTX ─────────┐
//!   └─ simt-lowering ─▶ default<O2> (host target; below -O2 only) ─▶ linked into the host IR ─┴─ host-registration ─▶ host IR'
//! ```
//!
//! At -O2 and above the emulator code is optimised once, with the rest of the host IR, by the
//! driver's `clang -c -O<n>` of host IR'.
//!
//! The device passes and those of the PTX path come from the registry (`registry.rs`,
//! `Stage::Device` and `Stage::Ptx`, in its order); with `verify_each` LLVM's verifier runs
//! after each of them, after device extraction and after SIMT lowering.
use crate::diagnostics::{Diagnostic, Diagnostics, SourceLoc};
use crate::host_registration::{self, GlobalReg, Image, KernelReg};
use crate::kernel_info::KernelInfo;
use crate::openmp;
use crate::registry::{self, DeviceUnit, PassOptions, Stage};
use crate::time_report::{self, Group};
use crate::{device_builtins, device_extraction, nvptx_codegen, simt_lowering};
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, InitializationConfig, RelocMode, Target, TargetMachine};
use inkwell::OptimizationLevel;
use std::collections::HashMap;

/// What the driver tells the pipeline.
#[derive(Clone, Debug)]
pub struct OffloadOptions {
    /// PTX target, e.g. "sm_90".
    pub arch: String,
    /// 0..=3, from -O.
    pub opt_level: u8,
    /// Keep debug line information in device code (-g).
    pub debug_info: bool,
    /// Run LLVM's verifier after every pass (-fptxcc-verify-each; always in debug builds).
    pub verify_each: bool,
    /// Make loop kernels splittable over several devices (-fptxcc-multi-device).
    pub multi_device: bool,
    /// -fptxcc-layout=auto: the compiler chooses array layouts (layout/auto.rs).
    pub layout_auto: bool,
    /// Split loops get a host part as well (-fptxcc-hybrid; needs `multi_device`).
    pub hybrid: bool,
    /// -fptxcc-math-library=: libdevice, libclc, or libdevice where there is one.
    pub math_library: crate::math_library::MathLibrary,
}

impl OffloadOptions {
    /// What the registry's passes need of these options.
    pub fn pass_options(&self) -> PassOptions {
        PassOptions {
            arch: self.arch.clone(),
            verify_each: self.verify_each,
            multi_device: self.multi_device,
            layout_auto: self.layout_auto,
            math_library: self.math_library,
        }
    }
}

impl Default for OffloadOptions {
    fn default() -> Self {
        Self {
            arch: "sm_90".into(),
            opt_level: 2,
            debug_info: false,
            verify_each: crate::registry::verify_each_by_default(),
            multi_device: false,
            layout_auto: false,
            hybrid: false,
            math_library: crate::math_library::MathLibrary::Auto,
        }
    }
}

/// What the pipeline produced besides the rewritten host module.
#[derive(Clone, Debug, Default)]
pub struct OffloadOutput {
    /// The device module (nvptx64) as text, after ptxcc's passes and optimisation; None without offload regions.
    pub device_ir: Option<String>,
    /// The PTX embedded in the host module; None without offload regions.
    pub ptx: Option<String>,
    /// The kernels made, in order.
    pub kernels: Vec<KernelInfo>,
    /// What the passes decided, one line each (`file:line:col: ...`), for -fptxcc-info.
    pub remarks: Vec<String>,
}

fn fail(message: impl std::fmt::Display) -> Diagnostics {
    Diagnostics(vec![Diagnostic {
        loc: None,
        message: message.to_string(),
    }])
}

/// Device extraction, then the device passes of the registry (`Stage::Device`, up to and
/// including the device check): host IR → device module whose kernels are formed and mapped.
/// Used by `compile_offload` and by `ptxcc-opt --passes=device`.
pub fn device_passes<'ctx>(
    host: &Module<'ctx>,
    opts: &PassOptions,
) -> Result<Option<DeviceUnit<'ctx>>, Diagnostics> {
    device_passes_inner(host, opts).map_err(|d| same_file_names(host, d))
}

/// Debug locations name files relative to the compilation directory, clang's ident_t strings
/// name them as the user wrote them: report every location the second way.
fn same_file_names(host: &Module<'_>, mut diags: Diagnostics) -> Diagnostics {
    let files = source_files(host);
    for d in &mut diags.0 {
        if let Some(loc) = &mut d.loc {
            if let Some(full) = as_written(&files, &loc.file) {
                loc.file = full.to_string();
            }
        }
    }
    diags
}

/// The source files clang's ident_t strings name, as the user wrote them.
fn source_files(host: &Module<'_>) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for g in host.get_globals() {
        if let Some(loc) = crate::ir::global_c_string(inkwell::values::AsValueRef::as_value_ref(&g))
            .and_then(|s| openmp::parse_psource(&s))
        {
            if !files.contains(&loc.file) {
                files.push(loc.file);
            }
        }
    }
    files
}

/// The name the user wrote for a file a debug location names relative to the compilation directory.
fn as_written<'a>(files: &'a [String], file: &str) -> Option<&'a str> {
    files
        .iter()
        .find(|f| f.ends_with(&format!("/{file}")))
        .map(String::as_str)
}

fn device_passes_inner<'ctx>(
    host: &Module<'ctx>,
    opts: &PassOptions,
) -> Result<Option<DeviceUnit<'ctx>>, Diagnostics> {
    let auto_remarks = if opts.layout_auto {
        crate::layout::auto::plan_auto(host, !opts.multi_device)?.remarks
    } else {
        Vec::new()
    };
    crate::layout::host_plan::plan_host(host)?;
    {
        let _time = time_report::start(Group::Passes, "restrict-params");
        crate::restrict_params::mark_restrict_params(host);
    }
    let stage = crate::fatal::stage("device-extraction");
    let time = time_report::start(Group::Passes, "device-extraction");
    let Some((device, entries)) = device_extraction::extract_device_module(host)? else {
        return Ok(None);
    };
    drop((stage, time));
    registry::verify_after(&device, "device-extraction", opts)?;
    for (loc, why) in &auto_remarks {
        crate::remarks::add(&device, Some(loc), why);
    }
    let locs: HashMap<String, SourceLoc> = entries
        .kernels
        .iter()
        .filter_map(|k| openmp::kernel_loc(host, k).map(|l| (k.name.clone(), l)))
        .collect();
    let thread_limits = openmp::kernel_thread_limits(host, &entries);
    let mut unit = DeviceUnit {
        module: device,
        entries,
        locs,
        thread_limits,
        kernels: Vec::new(),
        retired: Vec::new(),
    };
    registry::run_stage(Stage::Device, &mut unit, opts)?;
    // The layout rewrite also tells the host module the element sizes it found, so it runs
    // here rather than as a registry pass of the device module alone.
    let stage = crate::fatal::stage("layout");
    let time = time_report::start(Group::Passes, "layout");
    let sizes = crate::layout::rewrite::rewrite_device(&unit.module)?;
    crate::layout::host_plan::set_element_sizes(host, &sizes)?;
    unit.retired = crate::layout::versions::retire_unused(host, &unit.module);
    drop((stage, time));
    registry::verify_after(&unit.module, "layout", opts)?;
    Ok(Some(unit))
}

/// A `critical` construct's lock is a spin lock, which the threads of a warp can wait on only
/// with independent thread scheduling (sm_70 and newer): on an older GPU they could hang.
fn check_critical_arch(device: &Module<'_>, arch: &str) -> Result<(), Diagnostics> {
    let sm: u32 = arch
        .trim_start_matches("sm_")
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .parse()
        .unwrap_or(u32::MAX);
    if sm >= 70 {
        return Ok(());
    }
    let Some(enter) = device.get_function(device_builtins::CRITICAL_ENTER) else {
        return Ok(());
    };
    let mut diags = Vec::new();
    for user in crate::ir::users(inkwell::values::AsValueRef::as_value_ref(&enter)) {
        let loc = unsafe { inkwell::values::InstructionValue::new(user) };
        let d = Diagnostic {
            loc: openmp::debug_loc(loc),
            message: format!("ptxcc supports 'critical' in target regions on sm_70 and newer GPUs (independent thread scheduling), not {arch}"),
        };
        if !diags.contains(&d) {
            diags.push(d);
        }
    }
    diags.sort_by_key(|d| d.loc.as_ref().map(|l| (l.file.clone(), l.line, l.col)));
    if diags.is_empty() {
        Ok(())
    } else {
        Err(Diagnostics(diags))
    }
}

fn host_target_machine(host: &Module<'_>) -> anyhow::Result<TargetMachine> {
    Target::initialize_native(&InitializationConfig::default())
        .map_err(|e| anyhow::anyhow!("host target: {e}"))?;
    let triple = host.get_triple();
    let target = Target::from_triple(&triple)
        .map_err(|e| anyhow::anyhow!("host target: {}", e.to_string()))?;
    target
        .create_target_machine(
            &triple,
            "x86-64",
            "",
            OptimizationLevel::Default,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| anyhow::anyhow!("cannot create a host target machine"))
}

/// Extracts the offload regions of `host` into a device module, compiles it to PTX and to emulator
/// code, and rewrites `host` in place so that it registers both with libptxrt at start-up.
/// A module without offload regions is left as it is.
pub fn compile_offload(
    host: &Module<'_>,
    opts: &OffloadOptions,
) -> Result<OffloadOutput, Diagnostics> {
    let tm = nvptx_codegen::target_machine(&opts.arch).map_err(fail)?;
    let pass_opts = opts.pass_options();
    let Some(mut unit) = device_passes(host, &pass_opts)? else {
        return Ok(OffloadOutput::default());
    };
    // The access tables (access_ranges) are host data: out of the device module before it
    // becomes PTX and emulator code.
    let access_tables = crate::access_ranges::take_tables(&unit.module);
    let device = &unit.module;
    check_critical_arch(device, &opts.arch)?;
    let files = source_files(host);
    let mut remarks: Vec<String> = crate::remarks::read(device)
        .into_iter()
        .filter(|r| {
            !unit
                .retired
                .iter()
                .any(|v| r.contains(&format!("kernel {v}:")))
        })
        .map(|r| match r.split_once(':') {
            Some((file, rest)) => match as_written(&files, file) {
                Some(full) => format!("{full}:{rest}"),
                None => r,
            },
            None => r,
        })
        .collect();
    remarks.sort_by_key(|r| crate::remarks::position(r));
    if !opts.debug_info {
        device.strip_debug_info();
    }

    // Emulator code: the same device IR, SIMT-lowered and optimised for the host.
    let emu = device.clone();
    let stage = crate::fatal::stage("simt-lowering (emulator code)");
    let time = time_report::start(Group::Passes, "simt-lowering (emulator code)");
    let host_tm = host_target_machine(host).map_err(fail)?;
    let lowering =
        simt_lowering::lower_for_emulator(&emu, &host.get_triple(), &crate::ir::data_layout(host))
            .map_err(|e| fail(format!("internal error in SIMT lowering: {e:#}")))?;
    registry::verify_after(&emu, "simt-lowering", &pass_opts)?;
    drop(time);
    // At -O2 and above the host object's compilation (clang -c -O<n>, the driver's last stage)
    // optimises the emulator code with the rest of the host module: optimising it here too
    // would run the whole pipeline on it twice (a fifth of ptxcc's own time on stream_omp.c).
    // Below -O2 clang would optimise it less or not at all, so it is optimised here.
    if opts.opt_level < 2 {
        let time = time_report::start(Group::Passes, "optimize emulator code (default<O2>)");
        emu.run_passes("default<O2>", &host_tm, PassBuilderOptions::create())
            .map_err(|e| {
                fail(format!(
                    "emulator code optimisation failed: {}",
                    e.to_string()
                ))
            })?;
        drop(time);
    }
    drop(stage);

    // PTX.
    registry::run_stage(Stage::Ptx, &mut unit, &pass_opts)?;
    let time = time_report::start(Group::Passes, "print device IR");
    let device_ir = unit.module.print_to_string().to_string();
    drop(time);
    let stage = crate::fatal::stage("nvptx-codegen");
    let time = time_report::start(Group::Passes, "nvptx-codegen");
    let ptx = nvptx_codegen::emit_ptx(&unit.module, &tm).map_err(fail)?;
    drop((stage, time));
    let time = time_report::start(Group::Passes, "link emulator code, host registration");
    // The loops -fopenmp-offload-parallel-for offloaded: their pointers without an extent are
    // mapped by access ranges (the driver's hints name them).
    let hints = crate::driver_hints::DriverHints::read(host).map_err(fail)?;
    let access_maps: std::collections::HashSet<String> = unit
        .locs
        .iter()
        .filter(|(_, l)| hints.access_maps(l))
        .map(|(k, _)| k.clone())
        .collect();
    // The OpenACC compute constructs among them (their errors ask for a data clause).
    let openacc: std::collections::HashSet<String> = unit
        .locs
        .iter()
        .filter(|(_, l)| hints.openacc(l))
        .map(|(k, _)| k.clone())
        .collect();
    // Kernels whose loop takes a grid of its shape: their launches push the loop's extents.
    crate::launch_shape::push_shapes(host, &crate::loop_mapping::read_shapes(&unit.module));
    let DeviceUnit {
        module: unit_module,
        entries,
        kernels,
        ..
    } = unit;

    // The split globals (split_range) have no host variable: the registration's host address
    // is one made here, holding the "whole loop" range.
    let split_globals: std::collections::HashSet<String> = entries
        .globals
        .iter()
        .filter(|g| g.name.starts_with(crate::split_range::GLOBAL_PREFIX))
        .map(|g| g.name.clone())
        .collect();
    let mut regs = Vec::new();
    // Splittable kernels: the arguments their parts combine, judged on the optimised module
    // (one atomic per reduction), or not split after all.
    let mut split = HashMap::new();
    for k in &kernels {
        if !split_globals.contains(&crate::split_range::global_name(&k.name)) {
            continue;
        }
        let Some(f) = unit_module.get_function(&k.name) else {
            continue;
        };
        // The runtime must know which arguments are pointers (a device pointer passed by value
        // cannot be split over devices).
        let verdict = crate::split_range::combine::combined_arguments(f).and_then(|c| {
            let Some(pointers) = crate::host_part::pointer_params(host, &k.name) else {
                return Err("its parameters are more than the 64 a split launch takes".into());
            };
            match crate::offload_launch::by_value_pointers(host, &k.name, pointers) {
                Some(by_value) if !by_value.is_empty() => Err(by_value_pointer_reason(&by_value)),
                _ => Ok(c),
            }
        });
        remarks.push(crate::split_range::verdict_remark(&k.source, &verdict));
        if let Ok(c) = verdict {
            split.insert(k.name.clone(), c);
        }
    }
    // Hybrid: each split kernel's host version runs a part of the loop too (host_part.rs).
    let mut host_parts = HashMap::new();
    if opts.hybrid {
        let stage = crate::fatal::stage("host-part");
        for k in kernels.iter().filter(|k| split.contains_key(&k.name)) {
            let verdict = crate::host_part::prepare(host, &k.name)?;
            remarks.push(crate::host_part::verdict_remark(&k.source, &verdict));
            if let Ok(part) = verdict {
                host_parts.insert(k.name.clone(), part);
            }
        }
        drop(stage);
        registry::verify_after(host, "host-part", &pass_opts)?;
    }

    host.link_in_module(emu)
        .map_err(|e| fail(format!("cannot link emulator code: {}", e.to_string())))?;

    let emu_kernels: HashMap<&str, &simt_lowering::EmuKernel> = lowering
        .kernels
        .iter()
        .map(|k| (k.kernel.as_str(), k))
        .collect();
    for name in &split_globals {
        if host.get_global(name).is_none() {
            crate::split_range::add_range_global(host, name, inkwell::module::Linkage::Internal);
        }
    }
    // Kernels that may keep a pointer they get in device memory: libptxrt never moves a device
    // copy then (`KERNEL_STORES_POINTERS`); where layouts are converted, say so.
    let keeps: HashMap<String, Option<String>> = kernels
        .iter()
        .map(|k| {
            (
                k.name.clone(),
                crate::layout::kernel_keeps_pointers(host, &k.name),
            )
        })
        .collect();
    if host.get_function(crate::layout::BEGIN).is_some() {
        // A kernel and its layout versions share their source: one remark.
        let mut said = std::collections::HashSet::new();
        for k in &kernels {
            let Some(Some(how)) = keeps.get(&k.name) else {
                continue;
            };
            if said.insert(&k.source) {
                remarks.push(format!(
                    "{}: layout: the kernel may keep a pointer it gets in device memory ({how}): libptxrt \
                     converts layouts in place, never moving a device copy",
                    k.source
                ));
            }
        }
    }
    remarks.sort_by_key(|r| crate::remarks::position(r));
    for k in &kernels {
        let num_params = host
            .get_function(&k.name)
            .map(|f| f.count_params())
            .unwrap_or(0);
        let emu = emu_kernels.get(k.name.as_str());
        regs.push(KernelReg {
            name: k.name.clone(),
            source: k.source.clone(),
            num_params,
            mode: k.mode,
            emu_entry: emu
                .map(|e| e.entry.clone())
                .unwrap_or_else(|| host_registration::emu_entry_name(&k.name)),
            emu_needs_sync: emu.map(|e| e.needs_sync).unwrap_or(false),
            split: split.get(&k.name).cloned(),
            accesses: access_tables.get(&k.name).cloned().unwrap_or_default(),
            host_part: host_parts.remove(&k.name),
            ptr_params: crate::host_part::pointer_params(host, &k.name).unwrap_or(0),
            access_maps: access_maps.contains(&k.name),
            openacc: openacc.contains(&k.name),
            stores_pointers: keeps.get(&k.name).is_some_and(Option::is_some),
            emu_shared_bytes: emu.map(|e| e.shared_bytes).unwrap_or(0),
        });
    }
    let emu_globals: HashMap<&str, &simt_lowering::EmuGlobal> = lowering
        .globals
        .iter()
        .map(|g| (g.device_name.as_str(), g))
        .collect();
    let globals = entries
        .globals
        .iter()
        .map(|g| GlobalReg {
            name: g.name.clone(),
            size: g.size,
            emu_name: emu_globals
                .get(g.name.as_str())
                .map(|e| e.emu_name.clone())
                .unwrap_or_else(|| format!("__ptxemu.{}", g.name)),
        })
        .collect();
    let source_file = kernels
        .iter()
        .find_map(|k| {
            k.source
                .split(':')
                .next()
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        })
        .unwrap_or_else(|| host.get_source_file_name().to_string_lossy().into_owned());
    let image = Image {
        ptx: ptx.clone(),
        arch: opts.arch.clone(),
        source_file,
        kernels: regs,
        globals,
    };
    host_registration::register_image(host, &image)
        .map_err(|e| fail(format!("internal error in host registration: {e:#}")))?;
    drop(time);
    Ok(OffloadOutput {
        device_ir: Some(device_ir),
        ptx: Some(ptx),
        kernels,
        remarks,
    })
}

/// Why a loop that takes pointers by value is not split (`offload_launch.rs`).
fn by_value_pointer_reason(params: &[usize]) -> String {
    let list: Vec<String> = params.iter().map(|p| (p + 1).to_string()).collect();
    format!(
        "argument{} {} {} a pointer passed by value (is_device_ptr, deviceptr): it points into one device's memory (or the host's)",
        if list.len() == 1 { "" } else { "s" },
        list.join(", "),
        if list.len() == 1 { "is" } else { "are" }
    )
}

//! ptxcc-opt: runs ptxcc's passes one at a time on an `.ll` file, the way `opt` runs LLVM's.
//!
//! ```text
//! ptxcc-opt --passes=device-extraction host.ll            # host IR → device IR
//! ptxcc-opt --passes=kernel-formation,loop-mapping dev.ll # device IR → device IR
//! ptxcc-opt --passes=nvptx-codegen --arch=sm_90 dev.ll    # device IR → PTX
//! ptxcc-opt --passes=offload host.ll                      # the whole pipeline: host IR → host IR'
//! ```
use clap::Parser;
use ptxcc_passes::diagnostics::{Diagnostic, Diagnostics};
use ptxcc_passes::host_registration::{self, GlobalReg, Image, KernelReg};
use ptxcc_passes::inkwell::context::Context;
use ptxcc_passes::inkwell::module::Module;
use ptxcc_passes::math_library::MathLibrary;
use ptxcc_passes::registry::{self, DeviceUnit, PassOptions, Run};
use ptxcc_passes::{
    device_extraction, ir, kernel_info, nvptx_codegen, openmp, pipeline, simt_lowering,
};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "ptxcc-opt",
    version,
    about = "Run ptxcc's IR passes on an LLVM IR file"
)]
struct Args {
    /// Comma-separated pass names (see --list-passes).
    #[arg(long, value_delimiter = ',', required_unless_present = "list_passes")]
    passes: Vec<String>,
    /// Input .ll file ('-' for standard input).
    #[arg(required_unless_present = "list_passes")]
    input: Option<PathBuf>,
    /// Output file (default: standard output).
    #[arg(short = 'o')]
    output: Option<PathBuf>,
    /// PTX architecture.
    #[arg(long, default_value = "sm_90")]
    arch: String,
    /// Device module (.ll, after kernel-formation) for host-registration.
    #[arg(long)]
    device: Option<PathBuf>,
    /// PTX text to embed for host-registration.
    #[arg(long)]
    ptx: Option<PathBuf>,
    /// List the passes and exit.
    #[arg(long)]
    list_passes: bool,
    /// Run LLVM's verifier after every pass (always on in debug builds).
    #[arg(long)]
    verify_each: bool,
    /// As ptxcc's -fptxcc-multi-device: split-range makes loop kernels splittable.
    #[arg(long)]
    multi_device: bool,
    /// As ptxcc's -fptxcc-math-library=: auto (libdevice where found, else libclc), libdevice
    /// or libclc.
    #[arg(long, default_value = "auto", value_parser = parse_math_library)]
    math_library: MathLibrary,
}

fn parse_math_library(value: &str) -> Result<MathLibrary, String> {
    MathLibrary::parse(value).ok_or_else(|| {
        format!("'{value}' is not a math library (expected auto, libdevice or libclc)")
    })
}

enum Output {
    Module,
    Text(String),
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.list_passes {
        for p in registry::PASSES {
            println!("{:20} {}", p.name, p.description);
        }
        return ExitCode::SUCCESS;
    }
    ptxcc_passes::fatal::install(None);
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn read_input(path: &PathBuf) -> anyhow::Result<String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)?;
        Ok(s)
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("ptxcc-opt: error: cannot read {}: {e}", path.display()))
    }
}

/// Diagnostics as ptxcc-opt prints them: with the source location, or as ptxcc-opt's own error.
fn render(d: &Diagnostics) -> String {
    d.0.iter()
        .map(|d| match &d.loc {
            Some(_) => d.to_string(),
            None => format!(
                "ptxcc-opt: error: {}",
                d.message.trim_start_matches("ptxcc-opt: error: ")
            ),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn diag(e: impl std::fmt::Display) -> Diagnostics {
    Diagnostics(vec![Diagnostic {
        loc: None,
        message: e.to_string(),
    }])
}

fn run(args: &Args) -> anyhow::Result<()> {
    let input = args
        .input
        .as_ref()
        .ok_or_else(|| anyhow::anyhow!("ptxcc-opt: error: no input"))?;
    let ctx = Context::create();
    let text = read_input(input)?;
    let mut module = ir::parse_ir(&ctx, &text, &input.display().to_string())
        .map_err(|e| anyhow::anyhow!("ptxcc-opt: error: {e}"))?;
    let mut out = Output::Module;
    for pass in &args.passes {
        let (next, o) =
            run_pass(&ctx, module, pass, args).map_err(|d| anyhow::anyhow!("{}", render(&d)))?;
        module = next;
        out = o;
    }
    let text = match out {
        Output::Module => module.print_to_string().to_string(),
        Output::Text(t) => t,
    };
    match &args.output {
        Some(p) => std::fs::write(p, text)
            .map_err(|e| anyhow::anyhow!("ptxcc-opt: error: cannot write {}: {e}", p.display()))?,
        None => {
            // A closed pipe (`ptxcc-opt ... | head`) is not an error worth a panic.
            let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
        }
    }
    Ok(())
}

/// Kernels of an extracted device module: external functions named like offload entries.
fn device_entries(device: &Module<'_>) -> openmp::OffloadEntries {
    let kernels = device
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0)
        .map(ir::fn_name)
        .filter(|n| n.starts_with(openmp::KERNEL_PREFIX) && !n.contains('.'))
        .map(|name| openmp::KernelEntry { name })
        .collect();
    openmp::OffloadEntries {
        kernels,
        globals: Vec::new(),
    }
}

fn run_pass<'ctx>(
    ctx: &'ctx Context,
    module: Module<'ctx>,
    name: &str,
    args: &Args,
) -> Result<(Module<'ctx>, Output), Diagnostics> {
    let pass = registry::find(name).ok_or_else(|| {
        diag(format!(
            "ptxcc-opt: error: unknown pass '{name}' (known: {})",
            registry::names()
        ))
    })?;
    let opts = PassOptions {
        arch: args.arch.clone(),
        verify_each: args.verify_each || registry::verify_each_by_default(),
        multi_device: args.multi_device,
        layout_auto: false,
        math_library: args.math_library,
    };
    match pass.run {
        Run::Device(_) => {
            let kernels = kernel_info::read(&module);
            // Each kernel's construct, from what kernel formation recorded (the pipeline reads
            // it from the host module): remarks and the driver's hints use it.
            let locs = kernels
                .iter()
                .filter_map(|k| source_loc(&k.source).map(|l| (k.name.clone(), l)))
                .collect();
            let mut unit = DeviceUnit {
                entries: device_entries(&module),
                module,
                locs,
                thread_limits: HashMap::new(),
                // What kernel formation recorded (!ptxcc.kernels), for passes after it.
                kernels,
                retired: Vec::new(),
            };
            registry::run_device_pass(pass, &mut unit, &opts)?;
            Ok((unit.module, Output::Module))
        }
        Run::Extract => match device_extraction::extract_device_module(&module)? {
            Some((device, _)) => {
                registry::verify_after(&device, pass.name, &opts)?;
                Ok((device, Output::Module))
            }
            None => Err(diag("ptxcc-opt: error: the input has no offload entries")),
        },
        Run::DevicePipeline => match pipeline::device_passes(&module, &opts)? {
            Some(unit) => Ok((unit.module, Output::Module)),
            None => Err(diag("ptxcc-opt: error: the input has no offload entries")),
        },
        Run::EmitPtx => {
            let _stage = ptxcc_passes::fatal::stage(pass.name);
            let tm = nvptx_codegen::target_machine(&args.arch).map_err(diag)?;
            let ptx = nvptx_codegen::emit_ptx(&module, &tm).map_err(diag)?;
            Ok((module, Output::Text(ptx)))
        }
        Run::Emulator => {
            let triple = ptxcc_passes::inkwell::targets::TargetMachine::get_default_triple();
            let dl =
                "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";
            simt_lowering::lower_for_emulator(&module, &triple, dl)
                .map_err(|e| diag(format!("{e:#}")))?;
            registry::verify_after(&module, pass.name, &opts)?;
            Ok((module, Output::Module))
        }
        Run::Register => {
            register(ctx, &module, args)?;
            registry::verify_after(&module, pass.name, &opts)?;
            Ok((module, Output::Module))
        }
        Run::Offload => {
            let offload = pipeline::OffloadOptions {
                arch: args.arch.clone(),
                verify_each: opts.verify_each,
                ..Default::default()
            };
            pipeline::compile_offload(&module, &offload)?;
            Ok((module, Output::Module))
        }
    }
}

/// host-registration: embeds `--ptx` and registers the kernels of `--device` in `module`.
fn register<'ctx>(
    ctx: &'ctx Context,
    module: &Module<'ctx>,
    args: &Args,
) -> Result<(), Diagnostics> {
    let dev_path = args
        .device
        .as_ref()
        .ok_or_else(|| diag("ptxcc-opt: error: host-registration needs --device=FILE.ll"))?;
    let dev_text = read_input(dev_path).map_err(diag)?;
    let device = ir::parse_ir(ctx, &dev_text, &dev_path.display().to_string()).map_err(diag)?;
    let ptx = match &args.ptx {
        Some(p) => read_input(p).map_err(diag)?,
        None => String::new(),
    };
    let entries = openmp::offload_entries(module);
    let kernels = kernel_info::read(&device)
        .into_iter()
        .map(|k| KernelReg {
            num_params: module
                .get_function(&k.name)
                .map(|f| f.count_params())
                .unwrap_or(0),
            emu_entry: host_registration::emu_entry_name(&k.name),
            emu_needs_sync: false,
            split: device
                .get_global(&ptxcc_passes::split_range::global_name(&k.name))
                .and(device.get_function(&k.name))
                .and_then(|f| ptxcc_passes::split_range::combine::combined_arguments(f).ok()),
            accesses: device
                .get_global(&ptxcc_passes::access_ranges::table_name(&k.name))
                .and_then(ptxcc_passes::access_ranges::read_table)
                .unwrap_or_default(),
            host_part: None,
            ptr_params: ptxcc_passes::host_part::pointer_params(module, &k.name).unwrap_or(0),
            // An offloaded parallel-for loop: the driver's hints in the host module say so.
            access_maps: ptxcc_passes::driver_hints::DriverHints::read(module)
                .ok()
                .zip(source_loc(&k.source))
                .is_some_and(|(h, l)| h.access_maps(&l)),
            openacc: ptxcc_passes::driver_hints::DriverHints::read(module)
                .ok()
                .zip(source_loc(&k.source))
                .is_some_and(|(h, l)| h.openacc(&l)),
            stores_pointers: ptxcc_passes::layout::kernel_keeps_pointers(module, &k.name).is_some(),
            emu_shared_bytes: 0,
            name: k.name,
            source: k.source,
            mode: k.mode,
        })
        .collect();
    let globals = entries
        .globals
        .iter()
        .map(|g| GlobalReg {
            name: g.name.clone(),
            size: g.size,
            emu_name: format!("__ptxemu.{}", g.name),
        })
        .collect();
    let image = Image {
        ptx,
        arch: args.arch.clone(),
        source_file: module.get_source_file_name().to_string_lossy().into_owned(),
        kernels,
        globals,
    };
    host_registration::register_image(module, &image).map_err(diag)
}

/// "file:line:col" as a location.
fn source_loc(s: &str) -> Option<ptxcc_passes::diagnostics::SourceLoc> {
    let mut it = s.rsplitn(3, ':');
    let col = it.next()?.parse().ok()?;
    let line = it.next()?.parse().ok()?;
    Some(ptxcc_passes::diagnostics::SourceLoc {
        file: it.next()?.to_string(),
        line,
        col,
    })
}

//! The driver proper: from the parsed options to the stages run for each input, in the order
//! DESIGN.md's "Pipeline" gives, and the link.
use crate::diag_relay::{self, Located, Locator};
use crate::error::{io_error, Error, Result};
use crate::exec::{Cmd, Runner};
use crate::openacc::diagmap::DiagMap;
use crate::options::{EmitKind, Input, InputKind, LinkItem, Mode, Options, SaveTemps};
use crate::stages::{self, host_ir, link, object, offload, preprocess, Ctx, Output};
use crate::toolchain;
use ptxcc_passes::diagnostics::SourceLoc;
use ptxcc_passes::pipeline::OffloadOptions;
use ptxcc_passes::time_report::{self, Group};
use std::path::{Path, PathBuf};

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

fn warning(msg: impl AsRef<str>) {
    eprintln!("ptxcc: warning: {}", msg.as_ref());
}

/// Runs one ptxcc invocation; with -fptxcc-time-report, prints where its time went.
pub fn run(opts: &Options) -> Result<()> {
    if !opts.time_report {
        return run_timed(opts);
    }
    time_report::enable();
    let total = time_report::start(Group::Driver, "ptxcc (the rest)");
    let result = run_timed(opts);
    drop(total);
    eprint!("{}", time_report::render(&time_report::records()));
    result
}

fn run_timed(opts: &Options) -> Result<()> {
    if opts.help {
        return Output::Stdout.write(help_text().as_bytes());
    }
    if opts.version {
        return print_version();
    }
    let clang = toolchain::find_clang().map_err(Error::Usage)?;
    let ctx = Ctx {
        opts,
        clang,
        include_dir: toolchain::find_include_dir(),
        runner: Runner {
            verbose: opts.verbose,
            dry_run: opts.dry_run,
        },
    };
    if opts.mode == Mode::Query {
        return query(&ctx);
    }
    if opts.verbose {
        eprintln!("ptxcc version {VERSION}");
        eprintln!("clang: {}", ctx.clang.display());
    }
    if opts.inputs.is_empty() {
        if opts.verbose || opts.dry_run {
            return Ok(());
        }
        return Err(Error::usage("no input files"));
    }
    for input in &opts.inputs {
        if !input.path.exists() {
            return Err(Error::usage(format!(
                "no such file or directory: '{}'",
                input.path.display()
            )));
        }
    }
    match opts.mode {
        Mode::Preprocess => preprocess_only(&ctx),
        Mode::Link => link(&ctx),
        _ => per_input(&ctx),
    }
}

/// Where the intermediate files go: a temporary directory, or where -save-temps keeps them.
struct Work {
    _temp: Option<tempfile::TempDir>,
    dir: PathBuf,
    keep: bool,
}

impl Work {
    fn new(opts: &Options) -> Result<Work> {
        match opts.save_temps {
            Some(SaveTemps::Cwd) => Ok(Work {
                _temp: None,
                dir: PathBuf::new(),
                keep: true,
            }),
            Some(SaveTemps::Obj) => {
                let dir = match (&opts.output, opts.mode) {
                    (Some(out), Mode::Link | Mode::Compile | Mode::Assemble) if out != "-" => {
                        Path::new(out)
                            .parent()
                            .map(Path::to_path_buf)
                            .unwrap_or_default()
                    }
                    _ => PathBuf::new(),
                };
                Ok(Work {
                    _temp: None,
                    dir,
                    keep: true,
                })
            }
            None => {
                let temp = tempfile::Builder::new()
                    .prefix("ptxcc-")
                    .tempdir()
                    .map_err(|e| {
                        Error::usage(format!("cannot create a temporary directory: {e}"))
                    })?;
                let dir = temp.path().to_path_buf();
                crate::cleanup::register(dir.clone());
                Ok(Work {
                    _temp: Some(temp),
                    dir,
                    keep: false,
                })
            }
        }
    }

    fn file(&self, stem: &str, suffix: &str) -> PathBuf {
        self.dir.join(format!("{stem}{suffix}"))
    }
}

/// The name stem of an input (`dir/saxpy.c` → `saxpy`).
fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".into())
}

/// The stems intermediates are named after: the inputs' stems, made unique in a temporary
/// directory (`x.c` and `sub/x.c`); -save-temps keeps them as they are, like clang.
fn work_stems(opts: &Options, keep: bool) -> Vec<String> {
    let stems: Vec<String> = opts.inputs.iter().map(|i| stem(&i.path)).collect();
    stems
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if !keep && stems.iter().filter(|t| *t == s).count() > 1 {
                format!("{s}-{i}")
            } else {
                s.clone()
            }
        })
        .collect()
}

/// What one compiled input becomes.
enum Goal {
    Object(PathBuf),
    Assembly(Output),
    Emit(EmitKind, Output),
    PrintOpenacc(Output),
    SyntaxOnly,
}

/// The dependency file and target for -MD/-MMD when ptxcc names them.
type Dep = Option<(PathBuf, String)>;

/// Compiles one input through the pipeline up to `goal`.
fn compile(ctx: &Ctx, work: &Work, input: &Input, stem: &str, goal: &Goal, dep: Dep) -> Result<()> {
    let opts = ctx.opts;
    let runner = &ctx.runner;

    if input.kind == InputKind::Asm {
        if let Goal::Object(obj) = goal {
            runner.run(&object::assemble_command(
                ctx,
                &input.path,
                input.language.as_deref(),
                obj,
            ))?;
        }
        return Ok(());
    }

    // Where clang's (and the passes') diagnostics on the text the OpenACC front end generated
    // belong in the user's source.
    let mut diag_map = None;
    // What the text clang compiles says and its IR will not (explicit static schedules).
    let mut hints = ptxcc_passes::driver_hints::DriverHints::default();
    // The loops -fopenmp-offload-parallel-for offloaded (their pointers are mapped by ranges).
    let mut access_maps = Vec::new();
    // The kernels of OpenACC compute constructs (their pointers without a data clause, likewise).
    let mut acc_compute = Vec::new();
    // Stages 1–3: to host IR.
    let (host_ir, user_ir) = if input.kind == InputKind::HostIr {
        (input.path.clone(), true)
    } else {
        let pre = if input.kind == InputKind::C {
            let pre = work.file(stem, ".i");
            let dep = dep.as_ref().map(|(f, t)| (f.as_path(), t.as_str()));
            runner.run(&preprocess::command(
                ctx,
                &input.path,
                input.language.as_deref(),
                &pre,
                dep,
            ))?;
            if !opts.dry_run {
                let _time = time_report::start(Group::Driver, "source checks (in process)");
                let mut text =
                    std::fs::read_to_string(&pre).map_err(|e| io_error("read", &pre, e))?;
                let variants =
                    stages::declare_variant::analyse(&text, &input.path.to_string_lossy());
                if !variants.diagnostics.is_empty() {
                    return Err(Error::Diagnostics(variants.diagnostics));
                }
                // Metadirectives of device code, resolved for the device (line for line).
                if !variants.rewrites.is_empty() {
                    text = variants.rewrite(&text);
                }
                // Functions declared target for the device only: clang must emit their bodies.
                let nohost = stages::declare_target_nohost::keep_nohost_bodies(&text);
                if let Some(t) = nohost.as_ref() {
                    text = t.clone();
                }
                // Device variants: markers after the last line, which device extraction reads.
                if !variants.device.is_empty() {
                    text.push_str(&variants.markers());
                }
                if nohost.is_some() || !variants.device.is_empty() || !variants.rewrites.is_empty()
                {
                    std::fs::write(&pre, &text).map_err(|e| io_error("write", &pre, e))?;
                }
                stages::layout_directive::translate(opts, &pre, &input.path, text)?;
            }
            pre
        } else {
            input.path.clone()
        };
        let source = if opts.openacc {
            let translated = work.file(stem, ".omp.i");
            let dest = match goal {
                Goal::PrintOpenacc(out) => out.as_arg(),
                _ => translated.display().to_string(),
            };
            runner.note_in_process(&format!("openacc: {} -> {dest}", pre.display()));
            if !opts.dry_run {
                let _time = time_report::start(Group::Driver, "OpenACC front end (in process)");
                let translation = stages::openacc::translate(&pre, &input.path)?;
                // -w silences warnings, as it does clang's.
                if !opts
                    .forwarded
                    .iter()
                    .any(|f| f.args.iter().any(|a| a == "-w"))
                {
                    for w in &translation.warnings {
                        eprintln!("{w}");
                    }
                }
                if opts.ptxcc_info {
                    for line in translation.report() {
                        eprintln!("{line}");
                    }
                }
                if let (Goal::PrintOpenacc(out), false) = (goal, opts.offload_parallel_for) {
                    return out.write(translation.text.as_bytes());
                }
                std::fs::write(&translated, translation.text)
                    .map_err(|e| io_error("write", &translated, e))?;
                diag_map = Some(translation.diag_map);
                acc_compute = translation.compute_lines;
            }
            translated
        } else {
            pre
        };
        // Host `parallel for` loops to target loops (and the text for -fptxcc-print-translated).
        let printing =
            matches!(goal, Goal::PrintOpenacc(_)) && (opts.offload_parallel_for || !opts.openacc);
        let source = if opts.offload_parallel_for || printing {
            let translated = work.file(stem, ".opf.i");
            let dest = match goal {
                Goal::PrintOpenacc(out) => out.as_arg(),
                _ => translated.display().to_string(),
            };
            runner.note_in_process(&format!(
                "offload-parallel-for: {} -> {dest}",
                source.display()
            ));
            if !opts.dry_run {
                let _time = time_report::start(Group::Driver, "offload-parallel-for (in process)");
                let (text, offloaded) =
                    stages::offload_parallel_for::translate(opts, &source, &input.path)?;
                access_maps = offloaded;
                if let Goal::PrintOpenacc(out) = goal {
                    return out.write(text.as_bytes());
                }
                std::fs::write(&translated, text).map_err(|e| io_error("write", &translated, e))?;
            }
            translated
        } else {
            source
        };
        // OpenMP that clang 19 would compile wrong (strided target update), and warnings.
        let source = if opts.dry_run {
            source
        } else {
            let _time = time_report::start(Group::Driver, "OpenMP front checks (in process)");
            stages::omp_front::run(opts, &source, &input.path, work.file(stem, ".ompf.i"))?
        };
        // The user's `-x` applies to the user's file only: ptxcc's own are named .i.
        let language = if source == input.path {
            input.language.as_deref()
        } else {
            None
        };
        match goal {
            Goal::PrintOpenacc(_) => return Ok(()),
            Goal::SyntaxOnly => {
                return run_clang(
                    ctx,
                    host_ir::syntax_only_command(ctx, &source, language),
                    diag_map.as_ref(),
                )
            }
            _ => {}
        }
        // Bitcode between clang and the passes (read in a third of the time IR text takes);
        // -save-temps keeps clang's host IR as text, for people to read.
        let ir_form = if work.keep {
            host_ir::Form::Text
        } else {
            host_ir::Form::Bitcode
        };
        let ll = work.file(stem, ir_form.suffix());
        if !opts.dry_run {
            let text =
                std::fs::read_to_string(&source).map_err(|e| io_error("read", &source, e))?;
            hints = stages::pass_hints::read(&text);
            hints.access_maps = std::mem::take(&mut access_maps);
            hints.acc_compute = std::mem::take(&mut acc_compute);
        }
        run_clang(
            ctx,
            host_ir::command(ctx, &source, language, &ll, ir_form),
            diag_map.as_ref(),
        )?;
        (ll, false)
    };

    // Stage 3b: the offload passes, in process.
    let bitcode = work.file(stem, ".host.bc");
    // Stage 4 in process where it can be (host_object.rs), else clang -c below.
    let plan = match goal {
        Goal::Object(_) => Some(stages::host_object::plan(opts)),
        _ => None,
    };
    let in_process = plan.as_ref().and_then(|p| p.as_ref().ok().copied());
    let sink = match (goal, in_process) {
        (Goal::Emit(EmitKind::HostIr, out), _) => offload::HostSink::Text(out),
        (Goal::Emit(..), _) => offload::HostSink::Discard,
        (Goal::Object(object), Some(level)) => offload::HostSink::Object {
            object,
            bitcode: &bitcode,
            level,
        },
        _ => offload::HostSink::Bitcode(&bitcode),
    };
    let dest = match goal {
        Goal::Emit(_, out) => out.as_arg(),
        _ => bitcode.display().to_string(),
    };
    runner.note_in_process(&format!(
        "passes: compile_offload --offload-arch={} -O{}{}{} {} -> {dest}",
        opts.arch,
        opts.opt_level,
        if opts.debug_info { " -g" } else { "" },
        if opts.verify_each {
            " -verify-each"
        } else {
            ""
        },
        host_ir.display()
    ));
    if let (Goal::Object(obj), Some(level)) = (goal, in_process) {
        runner.note_in_process(&format!(
            "host object: {} and x86-64 code generation -> {}",
            level.pipeline(),
            obj.display()
        ));
    }
    // Whether the host object was made in process (else clang makes it from the bitcode).
    let mut made_object = false;
    if !opts.dry_run {
        let request = offload::Request {
            source: &input.path,
            host_ir: &host_ir,
            user_input: user_ir,
            options: OffloadOptions {
                arch: opts.arch.clone(),
                opt_level: opts.opt_level,
                debug_info: opts.debug_info,
                verify_each: opts.verify_each || ptxcc_passes::registry::verify_each_by_default(),
                multi_device: opts.multi_device,
                layout_auto: opts.layout_auto,
                hybrid: opts.hybrid,
                math_library: opts.math_library,
            },
            keep_debug_info: opts.debug_info || opts.wants_optimization_remarks(),
            hints: &hints,
            sink,
        };
        let offload::Produced {
            output: produced,
            host_object,
        } = offload::run(&request).map_err(|e| relocate(e, diag_map.as_ref()))?;
        made_object = matches!(host_object, Some(stages::host_object::Emitted::Object));
        if opts.ptxcc_info {
            for remark in &produced.remarks {
                eprintln!("{remark}");
            }
        }
        if work.keep {
            for (text, suffix) in [(&produced.device_ir, ".device.ll"), (&produced.ptx, ".ptx")] {
                if let Some(text) = text {
                    let path = work.file(stem, suffix);
                    std::fs::write(&path, text).map_err(|e| io_error("write", &path, e))?;
                }
            }
        }
        if let Goal::Emit(kind @ (EmitKind::Ptx | EmitKind::DeviceIr), out) = goal {
            let text = if *kind == EmitKind::Ptx {
                &produced.ptx
            } else {
                &produced.device_ir
            };
            match text {
                Some(text) => out.write(text.as_bytes())?,
                None => {
                    warning(format!(
                        "no {} was produced for '{}' (it has no offload regions); {} is empty",
                        if *kind == EmitKind::Ptx {
                            "PTX"
                        } else {
                            "device IR"
                        },
                        input.path.display(),
                        match out {
                            Output::Stdout => "the output".to_string(),
                            Output::File(p) => format!("'{}'", p.display()),
                        }
                    ));
                    out.write(b"")?;
                }
            }
        }
    }

    // Stage 4: host object or assembly.
    match goal {
        Goal::Object(_) if made_object || (opts.dry_run && in_process.is_some()) => Ok(()),
        Goal::Object(obj) => {
            if let (Some(Err(why)), true) = (&plan, runner.shows()) {
                eprintln!("ptxcc: host object by clang -c: {why}");
            }
            runner.run(&object::command(
                ctx,
                &bitcode,
                &Output::File(obj.clone()),
                object::Kind::Object,
            ))
        }
        Goal::Assembly(out) => {
            runner.run(&object::command(ctx, &bitcode, out, object::Kind::Assembly))
        }
        _ => Ok(()),
    }
}

/// Runs clang on a translated source: its diagnostics on text the front end generated are
/// relayed with their locations moved back to the user's pragmas (diag_relay.rs).
fn run_clang(ctx: &Ctx, mut cmd: Cmd, map: Option<&DiagMap>) -> Result<()> {
    let Some(map) = map.filter(|m| !m.is_empty()) else {
        return ctx.runner.run(&cmd);
    };
    // Clang colours its diagnostics only on a terminal, which its standard error no longer is:
    // ask for colours when ours is one, unless the user chose.
    let chosen = ctx
        .opts
        .forwarded
        .iter()
        .flat_map(|f| f.args.iter())
        .any(|a| {
            let a = a
                .strip_prefix("-fno-")
                .or_else(|| a.strip_prefix("-f"))
                .unwrap_or("");
            a == "color-diagnostics" || a.starts_with("diagnostics-color")
        });
    if !chosen && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        cmd.arg("-fcolor-diagnostics");
    }
    ctx.runner.run_rewriting_stderr(&cmd, &|text| {
        diag_relay::rewrite(text, map, text.contains("\x1b["))
    })
}

/// The offload passes' errors at places of the text the front end generated (their line tables
/// are clang's: a construct's column is the OpenMP pragma's), moved to the user's pragma as
/// clang's diagnostics are; those the map cannot give a column for stay as they are.
fn relocate(e: Error, map: Option<&DiagMap>) -> Error {
    match (e, map) {
        (Error::Diagnostics(mut diags), Some(map)) => {
            for d in &mut diags {
                let Some(loc) = &mut d.loc else { continue };
                if let Some(Located {
                    file,
                    line,
                    col: Some(col),
                    ..
                }) = map.locate(&loc.file, loc.line, loc.col, None)
                {
                    *loc = SourceLoc { file, line, col };
                }
            }
            Error::Diagnostics(diags)
        }
        (e, _) => e,
    }
}

/// The dependency file clang would write next to `target` (`x.o` → `x.d`).
fn dep_for(opts: &Options, target: &Path) -> Dep {
    opts.dep.flag.as_ref()?;
    Some((target.with_extension("d"), target.display().to_string()))
}

/// -c, -S, --emit, -fopenacc-print=omp, -fsyntax-only: one result per input.
fn per_input(ctx: &Ctx) -> Result<()> {
    let opts = ctx.opts;
    let mode = opts.mode;
    let mut compiled = Vec::new();
    for (i, input) in opts.inputs.iter().enumerate() {
        let usable = match (mode, input.kind) {
            (_, InputKind::Linker) => false,
            (Mode::PrintOpenacc | Mode::SyntaxOnly, InputKind::HostIr | InputKind::Asm) => {
                return Err(Error::usage(format!(
                    "'{}': {} needs a C source",
                    input.path.display(),
                    match mode {
                        Mode::PrintOpenacc if opts.openacc => "-fopenacc-print=omp",
                        Mode::PrintOpenacc => "-fptxcc-print-translated",
                        _ => "-fsyntax-only",
                    }
                )))
            }
            (Mode::Emit(kind), InputKind::Asm) => {
                return Err(Error::usage(format!(
                    "'{}': {} needs a C source or LLVM IR",
                    input.path.display(),
                    kind.flag()
                )))
            }
            (Mode::Assemble, InputKind::Asm) => false,
            _ => true,
        };
        if usable {
            compiled.push(i);
        } else {
            warning(format!(
                "{}: '{}' input unused",
                input.path.display(),
                if input.kind == InputKind::Asm {
                    "assembler"
                } else {
                    "linker"
                }
            ));
        }
    }
    if opts.output.is_some() && compiled.len() > 1 {
        return Err(Error::usage(
            "cannot specify -o when generating multiple output files",
        ));
    }
    let work = Work::new(opts)?;
    let stems = work_stems(opts, work.keep);
    for i in compiled {
        let input = &opts.inputs[i];
        let out_stem = stem(&input.path);
        let named = |suffix: &str| {
            opts.output
                .clone()
                .unwrap_or_else(|| format!("{out_stem}{suffix}"))
        };
        let (goal, dep) = match mode {
            Mode::Compile => {
                let obj = PathBuf::from(named(if opts.emit_llvm { ".bc" } else { ".o" }));
                let dep = dep_for(opts, &obj);
                (Goal::Object(obj), dep)
            }
            Mode::Assemble => (
                Goal::Assembly(Output::from_flag(&named(if opts.emit_llvm {
                    ".ll"
                } else {
                    ".s"
                }))),
                None,
            ),
            Mode::Emit(kind) => (
                Goal::Emit(kind, Output::from_flag(&named(kind.suffix()))),
                None,
            ),
            Mode::PrintOpenacc => (
                Goal::PrintOpenacc(
                    opts.output
                        .as_deref()
                        .map_or(Output::Stdout, Output::from_flag),
                ),
                None,
            ),
            _ => (Goal::SyntaxOnly, None),
        };
        compile(ctx, &work, input, &stems[i], &goal, dep)?;
    }
    Ok(())
}

/// -E (and -M/-MM): the preprocessed sources, in one clang run.
fn preprocess_only(ctx: &Ctx) -> Result<()> {
    let opts = ctx.opts;
    let mut sources = Vec::new();
    for input in &opts.inputs {
        match input.kind {
            InputKind::C | InputKind::Preprocessed | InputKind::Asm => {
                sources.push((input.path.as_path(), input.language.as_deref()))
            }
            InputKind::HostIr | InputKind::Linker => {
                warning(format!("{}: 'linker' input unused", input.path.display()))
            }
        }
    }
    if sources.is_empty() {
        return Ok(());
    }
    if opts.output.is_some() && sources.len() > 1 {
        return Err(Error::usage(
            "cannot specify -o when generating multiple output files",
        ));
    }
    ctx.runner.run(&preprocess::output_command(
        ctx,
        &sources,
        opts.output.as_deref(),
    ))
}

/// No -c/-S/-E: compile every source to an object and link them with the other inputs.
fn link(ctx: &Ctx) -> Result<()> {
    let opts = ctx.opts;
    let runtime = toolchain::find_runtime_lib().map_err(Error::Usage)?;
    let out = opts.output.clone().unwrap_or_else(|| "a.out".to_string());
    let work = Work::new(opts)?;
    let stems = work_stems(opts, work.keep);
    let single = opts.compiled_inputs().count() == 1;
    let mut items = Vec::new();
    for item in &opts.link_items {
        match item {
            LinkItem::Args(args) => items.push(link::Item::Args(args.clone())),
            LinkItem::Input(i) => {
                let input = &opts.inputs[*i];
                if input.kind == InputKind::Linker {
                    items.push(link::Item::File(input.path.clone()));
                    continue;
                }
                let obj = work.file(&stems[*i], ".o");
                // clang names the dependency file of a one-source link after the output.
                let dep = if single {
                    dep_for(opts, Path::new(&format!("{out}.o"))).map(|(f, _)| (f, out.clone()))
                } else {
                    dep_for(opts, Path::new(&format!("{}.o", stem(&input.path))))
                };
                compile(
                    ctx,
                    &work,
                    input,
                    &stems[*i],
                    &Goal::Object(obj.clone()),
                    dep,
                )?;
                items.push(link::Item::File(obj));
            }
        }
    }
    let needs_cxx = toolchain::needs_libstdcxx(&runtime);
    ctx.runner
        .run(&link::command(ctx, &items, &runtime, needs_cxx, &out))
}

/// `-print-*`, `-dumpversion`…: clang answers, with ptxcc's own flags left out.
fn query(ctx: &Ctx) -> Result<()> {
    let own = [
        "--offload-arch=",
        "--emit=",
        "-fptxcc-info",
        "-fptxcc-verify-each",
        "-fno-ptxcc-verify-each",
        "-fptxcc-multi-device",
        "-fno-ptxcc-multi-device",
        "-fptxcc-hybrid",
        "-fno-ptxcc-hybrid",
        "-fptxcc-time-report",
        "-fno-ptxcc-time-report",
        "-fptxcc-layout=",
        "-fptxcc-math-library=",
        "-fopenacc",
        "-save-temps",
        "--save-temps",
        "-fopenmp-offload-parallel-for",
        "-fno-openmp-offload-parallel-for",
        "-fptxcc-print-translated",
    ];
    let mut cmd = Cmd::new(&ctx.clang, "query (clang)");
    cmd.args(
        ctx.opts
            .raw
            .iter()
            .filter(|a| !own.iter().any(|o| a.starts_with(o)))
            .cloned(),
    );
    ctx.runner.run(&cmd)
}

fn print_version() -> Result<()> {
    let mut text = format!(
        "ptxcc version {VERSION} (OpenMP/OpenACC C to PTX through LLVM 19; default --offload-arch={})\n",
        crate::options::DEFAULT_ARCH
    );
    let clang = toolchain::find_clang();
    if let Ok(clang) = &clang {
        text.push_str(&format!("clang: {}\n", clang.display()));
        if let Ok(out) = std::process::Command::new(clang).arg("--version").output() {
            text.push_str(&String::from_utf8_lossy(&out.stdout));
        }
    }
    Output::Stdout.write(text.as_bytes())?;
    clang.map(|_| ()).map_err(Error::Usage)
}

fn help_text() -> String {
    format!(
        "\
OVERVIEW: ptxcc {VERSION} - compiles OpenMP (and OpenACC) C to executables whose offload regions run on
NVIDIA GPUs through PTX that ptxcc generates itself (or on a CPU emulator when no GPU is present)

USAGE: ptxcc [options] file...

Use it where you would use clang (CC=ptxcc make): flags ptxcc does not know go to clang 19 unchanged.

OPTIONS:
  -c / -S / -E             compile to an object / host assembly / preprocess only
  -o <file>                write the output to <file> (default a.out when linking)
  -I<dir> -D<macro>[=<v>] -U<macro> -include <file> -std=<std>
                           preprocessor and language options, as clang
  -O0 -O1 -O2 -O3 -Os -Oz  optimisation level (host and device code)
  -g                       debug information (host; line information in device code)
  -l<lib> -L<dir> -Wl,<args>
                           link options, kept in order with the inputs
  -W<warning>              warnings, as clang
  -fopenmp                 accepted: ptxcc always compiles OpenMP
  -fopenacc                OpenACC directives (defines _OPENACC={acc})
  -fopenacc-print=omp      print the source with OpenACC translated to OpenMP, and stop
  -fopenmp-offload-parallel-for[=report]
                           run host `parallel for` loops on the GPU as `target teams distribute parallel
                           for` (=report: one line per loop on stderr)
  -fptxcc-print-translated print the source after ptxcc's directive translations, and stop
  --offload-arch=sm_<NN>   the GPU architecture (default {arch}; NN >= 35)
  --emit=ptx|device-ir|host-ir
                           write just that artifact of the offload pipeline (to -o, or NAME.ptx,
                           NAME.device.ll, NAME.host.ll)
  -save-temps              keep NAME.i, NAME.host.ll, NAME.host.bc, NAME.device.ll, NAME.ptx
  -fptxcc-info             print the per-loop offload report (OpenACC front end) on stderr
  -fptxcc-verify-each      run LLVM's IR verifier after every ptxcc pass (always on in debug builds)
  -fptxcc-multi-device     split each loop kernel over all visible devices at run time (PTXRT_SPLIT=off: one device)
  -fptxcc-hybrid           as -fptxcc-multi-device, and the host's cores run a share of each split loop
                           (PTXRT_CPU_WEIGHT=0..1 fixes the share; by default it is tuned at run time)
  -fptxcc-time-report      print the time of every driver stage and offload pass on stderr
  -fptxcc-layout=auto|none the device layout of arrays (a transpose, or one array per field for
                           structs): auto chooses it from the kernels' subscripts (-fptxcc-info
                           reports every decision) and the program uses it where it measures that
                           it pays (PTXRT_LAYOUT_AUTO=tune|always|never); none: only `#pragma
                           ptxcc trans` changes it. Default: auto at -O2 and above, none at -O0,
                           -O1, -Og and with -fptxcc-multi-device or -fptxcc-hybrid
  -fptxcc-math-library=auto|libdevice|libclc
                           the C math functions device code links: CUDA's libdevice (auto: where
                           one is found) or libclc
  -v                       print each stage's command as it runs
  -###                     print each stage's command, run nothing
  --version                ptxcc's version and the clang it uses

ENVIRONMENT:
  PTXCC_CLANG              the clang to run (default: clang-19 on PATH, else /usr/lib/llvm-19/bin/clang)
  PTXCC_RUNTIME_LIB        libptxrt.a to link (default: next to the ptxcc executable)
  PTXCC_INCLUDE_DIR        the runtime's headers (default: ptx-runtime/include)
  PTXCC_LIBDEVICE          CUDA's libdevice.10.bc (default: $CUDA_HOME, the CUDA wheels of scripts/setup.sh,
                           /usr/local/cuda); PTXCC_LIBCLC: libclc's nvptx64 library
  PTXCC_PTXAS              a ptxas to assemble each module's PTX with before it is embedded (a
                           build-time check that the CUDA JIT will accept it; unset: no check)
  At run time: PTXRT_DEVICE=cuda|emu chooses the device; OMP_TARGET_OFFLOAD=MANDATORY forbids host fallback.
",
        acc = preprocess::OPENACC_VERSION,
        arch = crate::options::DEFAULT_ARCH,
    )
}

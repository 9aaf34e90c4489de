//! The command line, parsed the way clang reads it (`-DFOO`, `-D FOO`, `-Wl,a,b`, `-O2`, `-o out`…)
//! into a typed plan: what to produce, from which inputs, and which of the user's flags go to
//! which of the clang invocations that ptxcc makes.
//!
//! clap does not fit this syntax, so the parser is hand-written. Flags ptxcc does not know are
//! forwarded to clang unchanged (see [`Stages`]); a flag that takes a separate argument must be
//! known here, or its argument would be taken for an input file.
use std::path::{Path, PathBuf};

/// The clang invocations a forwarded flag goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stages(u8);

impl Stages {
    /// `clang -E` (preprocessing).
    pub const PP: Stages = Stages(1);
    /// `clang -S -emit-llvm` (the host IR).
    pub const CC: Stages = Stages(2);
    /// `clang -c` on the host bitcode (code generation), and assembler inputs.
    pub const CG: Stages = Stages(4);
    /// The link.
    pub const LD: Stages = Stages(8);
    /// Preprocessing, but only when the preprocessed text is the result (`-E`): `-P`, `-dM`…
    /// would otherwise lose the line markers ptxcc's diagnostics rely on.
    pub const PP_OUTPUT: Stages = Stages(16);
    /// Every compile step.
    pub const COMPILE: Stages = Stages(1 | 2 | 4);
    /// Every step.
    pub const ALL: Stages = Stages(1 | 2 | 4 | 8);

    pub fn contains(self, other: Stages) -> bool {
        self.0 & other.0 == other.0
    }
}

/// A user flag (with its separate argument, if any) and where it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forwarded {
    pub args: Vec<String>,
    pub to: Stages,
}

/// What the invocation produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Compile and link an executable (no -c/-S/-E).
    Link,
    /// `-c`: one object per input.
    Compile,
    /// `-S`: host assembly (or host IR text with -emit-llvm).
    Assemble,
    /// `-E` (or `-M`/`-MM`): preprocessed text.
    Preprocess,
    /// `--emit=...`: one artifact of the offload pipeline.
    Emit(EmitKind),
    /// `-fopenacc-print=omp` / `-fptxcc-print-translated`: the source after ptxcc's directive
    /// translations (OpenACC → OpenMP, `parallel for` → target), and stop.
    PrintOpenacc,
    /// `-fsyntax-only`: check the program, produce nothing.
    SyntaxOnly,
    /// `-print-*`, `-dumpversion`, `-dumpmachine`: questions about the toolchain, answered by clang.
    Query,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmitKind {
    Ptx,
    DeviceIr,
    HostIr,
}

impl EmitKind {
    pub fn flag(self) -> &'static str {
        match self {
            EmitKind::Ptx => "--emit=ptx",
            EmitKind::DeviceIr => "--emit=device-ir",
            EmitKind::HostIr => "--emit=host-ir",
        }
    }

    /// The default output name's suffix, after the input's stem.
    pub fn suffix(self) -> &'static str {
        match self {
            EmitKind::Ptx => ".ptx",
            EmitKind::DeviceIr => ".device.ll",
            EmitKind::HostIr => ".host.ll",
        }
    }
}

/// What an input file is, from `-x` or its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// C source: the whole pipeline.
    C,
    /// Preprocessed C (`.i`): from the directive front end on.
    Preprocessed,
    /// Host LLVM IR (`.ll`, `.bc`) as clang emits it for offload: from the passes on.
    HostIr,
    /// Assembly (`.s`), or assembly to preprocess (`.S`): assembled by clang.
    Asm,
    /// Objects, archives, shared libraries and anything else: given to the linker.
    Linker,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub path: PathBuf,
    pub kind: InputKind,
    /// The `-x` language in force for this input, which clang must be told too.
    pub language: Option<String>,
}

/// One element of the link line, in the order the user wrote it: inputs and `-l`/`-L`/`-Wl,`…
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkItem {
    /// Index into [`Options::inputs`].
    Input(usize),
    Args(Vec<String>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveTemps {
    /// `-save-temps` / `-save-temps=cwd`: in the working directory.
    Cwd,
    /// `-save-temps=obj`: next to the output.
    Obj,
}

/// Dependency-file generation (`-MD`, `-MMD`) and what the user already said about it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DepFile {
    /// `-MD` or `-MMD`, when given.
    pub flag: Option<String>,
    /// `-MF` given: the file is named.
    pub named: bool,
    /// `-MT` or `-MQ` given: the target is named.
    pub target_named: bool,
}

/// The parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub mode: Mode,
    pub help: bool,
    pub version: bool,
    /// `-v`: print each stage's command as it runs.
    pub verbose: bool,
    /// `-###`: print each stage's command and run nothing.
    pub dry_run: bool,
    /// `-o`, as given (`-` is standard output).
    pub output: Option<String>,
    pub inputs: Vec<Input>,
    pub link_items: Vec<LinkItem>,
    pub forwarded: Vec<Forwarded>,
    /// The optimisation flag to give clang (`-O2`, `-Os`, `-Ofast`…); None = clang's default, -O0.
    pub opt_flag: Option<String>,
    /// 0..=3 for the offload passes.
    pub opt_level: u8,
    /// The user's `-g…` flags, in order; they go to the compile steps.
    pub debug_flags: Vec<String>,
    /// Whether the last debug flag asks for debug information (so the host keeps it).
    pub debug_info: bool,
    pub save_temps: Option<SaveTemps>,
    pub openacc: bool,
    /// `--offload-arch=`, validated; default sm_90.
    pub arch: String,
    pub emit_llvm: bool,
    /// `-fptxcc-info`: reserved for per-loop reports.
    pub ptxcc_info: bool,
    /// `-fptxcc-verify-each`: LLVM's verifier after every pass (always on in debug builds).
    pub verify_each: bool,
    /// `-fptxcc-multi-device`: loop kernels split over all visible devices at run time.
    pub multi_device: bool,
    /// `-fptxcc-hybrid`: split loops also run a part on the host's cores (implies multi-device).
    pub hybrid: bool,
    /// `-fptxcc-time-report`: the time of every driver stage and pass, on stderr at the end.
    pub time_report: bool,
    /// `-fptxcc-layout=auto`: the compiler chooses array layouts (libptxrt uses them where it
    /// measures that they pay); `=none`: only `trans` directives change them. The default is
    /// auto at -O2 and above (-O2, -O3, -Os, -Oz, -Ofast), as clang's loop vectoriser is, and
    /// none at -O0, -O1 and -Og, and under `-fptxcc-multi-device`/`-fptxcc-hybrid` (a device
    /// copy in another layout keeps a construct whole on its device): `default_layout_auto`.
    pub layout_auto: bool,
    /// `-fptxcc-math-library=`: the implementation of C's math functions device code links
    /// (`auto`, the default: CUDA's libdevice where there is one, else libclc).
    pub math_library: ptxcc_passes::math_library::MathLibrary,
    /// `-fopenmp-offload-parallel-for[=report]`: host `parallel for` loops become target loops.
    pub offload_parallel_for: bool,
    /// `-fopenmp-offload-parallel-for=report`: print one line per such loop.
    pub offload_parallel_for_report: bool,
    pub dep: DepFile,
    /// Every argument as given (after response files), for `-print-*` queries.
    pub raw: Vec<String>,
}

pub const DEFAULT_ARCH: &str = "sm_90";

/// Whether `-fptxcc-layout=auto` is on without the flag: when optimising at `opt_level` 2 or
/// more, on one device (`multi_device`: constructs that may split over devices).
pub fn default_layout_auto(opt_level: u8, multi_device: bool) -> bool {
    opt_level >= 2 && !multi_device
}

/// The PTX targets LLVM 19's NVPTX back end knows.
pub const KNOWN_ARCHES: &[&str] = &[
    "sm_35", "sm_37", "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72",
    "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a",
];

/// Checks an `--offload-arch` value: `sm_NN` (optionally `sm_NNa`) with NN ≥ 35 that LLVM 19 can target.
pub fn validate_arch(value: &str) -> Result<String, String> {
    let digits = value
        .strip_prefix("sm_")
        .map(|d| d.strip_suffix('a').unwrap_or(d));
    let number = digits
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|d| d.parse::<u32>().ok());
    match number {
        Some(n) if n >= 35 && KNOWN_ARCHES.contains(&value) => Ok(value.to_string()),
        Some(n) if n >= 35 => Err(format!(
            "unsupported offload arch '{value}': LLVM 19 targets {}",
            KNOWN_ARCHES.join(", ")
        )),
        _ => Err(format!("invalid offload arch '{value}': expected sm_NN with NN >= 35 (e.g. --offload-arch=sm_90)")),
    }
}

/// A target triple of `-fopenmp-targets=`/`-Xopenmp-target=`: NVIDIA's (nvptx64, optionally
/// -nvidia-cuda), the only one ptxcc compiles for.
fn check_offload_triple(t: &str, arg: &str) -> Result<(), String> {
    match t.trim() {
        "nvptx64" | "nvptx64-nvidia-cuda" | "nvptx64-nvidia" => Ok(()),
        other => Err(format!(
            "'{arg}': ptxcc offloads to NVIDIA GPUs only (nvptx64-nvidia-cuda), not '{other}'"
        )),
    }
}

/// Flags that take their value either joined (`-Ifoo`) or as the next argument (`-I foo`),
/// and where they go. Longer names first where one is a prefix of another.
const JOINED_OR_SEPARATE: &[(&str, Stages)] = &[
    ("-include", Stages::PP),
    ("-imacros", Stages::PP),
    ("-isystem-after", Stages::PP),
    ("-isystem", Stages::PP),
    ("-isysroot", Stages::PP),
    ("-idirafter", Stages::PP),
    ("-iquote", Stages::PP),
    ("-iprefix", Stages::PP),
    ("-iwithprefixbefore", Stages::PP),
    ("-iwithprefix", Stages::PP),
    ("-I", Stages::PP),
    ("-D", Stages::PP),
    ("-U", Stages::PP),
];

/// Flags whose value is always the next argument, and where they go.
const SEPARATE: &[(&str, Stages)] = &[
    ("-Xclang", Stages(2 | 4)),
    ("-mllvm", Stages(2 | 4)),
    ("-Xpreprocessor", Stages::PP),
    ("-Xassembler", Stages::CG),
    ("-target", Stages::ALL),
    ("--sysroot", Stages::ALL),
    ("-MF", Stages::PP),
    ("-MT", Stages::PP),
    ("-MQ", Stages::PP),
];

/// Link-line flags with a separate value; they keep their place among the inputs.
const LINK_SEPARATE: &[&str] = &["-Xlinker", "-u", "-T", "-z"];

/// Flags that only concern the link.
const LINK_ONLY: &[&str] = &[
    "-static",
    "-shared",
    "-rdynamic",
    "-pie",
    "-no-pie",
    "-nostdlib",
    "-nostartfiles",
    "-nodefaultlibs",
    "-static-libgcc",
    "-static-pie",
    "-s",
    "-r",
    "-Bstatic",
    "-Bdynamic",
    "-Bsymbolic",
];

/// Flags shaping the `-E` output only (see [`Stages::PP_OUTPUT`]).
const PP_OUTPUT_ONLY: &[&str] = &["-P", "-C", "-CC", "-dM", "-dD", "-dI", "-dN", "-dU"];

/// Flags for the preprocessor alone.
const PP_ONLY: &[&str] = &[
    "-nostdinc",
    "-nostdlibinc",
    "-nobuiltininc",
    "-undef",
    "-trigraphs",
    "-H",
    "-MP",
    "-MG",
    "-MV",
];

/// `-g` flags that turn debug information on; every other `-g…` flag (`-gz`, `-gno-…`,
/// `-gcolumn-info`…) only qualifies it.
fn enables_debug(flag: &str) -> bool {
    matches!(
        flag,
        "-g" | "-g1"
            | "-g2"
            | "-g3"
            | "-gline-tables-only"
            | "-gline-directives-only"
            | "-gfull"
            | "-gused"
    ) || flag.starts_with("-ggdb")
        || flag.starts_with("-glldb")
        || flag.starts_with("-gsce")
        || flag.starts_with("-gdbx")
        || flag.starts_with("-gdwarf")
        || flag.starts_with("-gcodeview")
}

/// The input kind an extension implies.
pub fn kind_from_extension(path: &Path) -> Result<InputKind, String> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    Ok(match ext {
        "c" => InputKind::C,
        "i" => InputKind::Preprocessed,
        "ll" | "bc" => InputKind::HostIr,
        "s" | "S" | "sx" => InputKind::Asm,
        "cc" | "cp" | "cxx" | "cpp" | "CPP" | "c++" | "C" | "ii" | "cu" | "m" | "mm" | "M"
        | "f" | "F" | "for" | "f90" | "F90" | "f95" | "f03" | "f08" | "hip" | "cl" => {
            return Err(format!(
                "'{}': ptxcc compiles C only (.c, .i, .ll, .bc, .s and linker inputs)",
                path.display()
            ))
        }
        _ => InputKind::Linker,
    })
}

/// The input kind `-x LANG` gives the inputs after it; None for `-x none` (back to extensions).
fn kind_from_language(lang: &str) -> Result<Option<InputKind>, String> {
    Ok(match lang {
        "none" => None,
        "c" => Some(InputKind::C),
        "cpp-output" => Some(InputKind::Preprocessed),
        "ir" => Some(InputKind::HostIr),
        "assembler" | "assembler-with-cpp" => Some(InputKind::Asm),
        other => {
            return Err(format!(
                "language '{other}' given with -x is not supported: ptxcc compiles C"
            ))
        }
    })
}

/// Parses `-O…`.
fn parse_opt(flag: &str) -> Result<(String, u8), String> {
    let level = &flag[2..];
    Ok(match level {
        "" | "1" | "g" => (flag.to_string(), 1),
        "0" => (flag.to_string(), 0),
        "2" => (flag.to_string(), 2),
        "s" | "z" => (flag.to_string(), 2),
        "fast" => (flag.to_string(), 3),
        _ if level.bytes().all(|b| b.is_ascii_digit()) => ("-O3".to_string(), 3),
        _ => {
            return Err(format!(
            "invalid optimization level '{flag}' (expected -O0, -O1, -O2, -O3, -Os, -Oz or -Ofast)"
        ))
        }
    })
}

fn is_query(arg: &str) -> bool {
    arg.starts_with("-print-")
        || arg.starts_with("--print-")
        || matches!(
            arg,
            "-dumpversion" | "-dumpmachine" | "-dumpfullversion" | "-dumpspecs"
        )
}

impl Options {
    /// Parses the arguments after the program name (response files already expanded).
    pub fn parse(args: &[String]) -> Result<Options, String> {
        Parser::default().run(args)
    }

    /// The forwarded flags for one stage, in order.
    pub fn forwarded_to(&self, stage: Stages) -> Vec<String> {
        self.forwarded
            .iter()
            .filter(|f| f.to.contains(stage))
            .flat_map(|f| f.args.iter().cloned())
            .collect()
    }

    /// The user asked for the optimizer's remarks or failures (`-Rpass…`, `-Wpass-failed…`):
    /// the host object keeps its line tables then, so that they name a source line.
    pub fn wants_optimization_remarks(&self) -> bool {
        self.forwarded.iter().flat_map(|f| &f.args).any(|a| {
            a.starts_with("-Rpass") || a.starts_with("-Wpass-failed") || a == "-Weverything"
        })
    }

    /// Inputs that ptxcc compiles (everything but linker inputs).
    pub fn compiled_inputs(&self) -> impl Iterator<Item = (usize, &Input)> {
        self.inputs
            .iter()
            .enumerate()
            .filter(|(_, i)| i.kind != InputKind::Linker)
    }
}

#[derive(Default)]
struct Parser {
    c: bool,
    s: bool,
    e: bool,
    syntax_only: bool,
    emit: Option<EmitKind>,
    print_openacc: bool,
    query: bool,
    help: bool,
    version: bool,
    verbose: bool,
    dry_run: bool,
    output: Option<String>,
    inputs: Vec<Input>,
    link_items: Vec<LinkItem>,
    forwarded: Vec<Forwarded>,
    opt: Option<(String, u8)>,
    debug_flags: Vec<String>,
    debug_info: bool,
    save_temps: Option<SaveTemps>,
    openacc: bool,
    arch: Option<String>,
    emit_llvm: bool,
    ptxcc_info: bool,
    verify_each: bool,
    multi_device: bool,
    hybrid: bool,
    time_report: bool,
    /// None: the default (`Options::layout_auto`: none).
    layout_auto: Option<bool>,
    math_library: ptxcc_passes::math_library::MathLibrary,
    offload_parallel_for: bool,
    offload_parallel_for_report: bool,
    dep: DepFile,
    /// The `-x` in force: its kind and its name.
    language: Option<(InputKind, String)>,
}

impl Parser {
    /// One GPU of `--offload-arch` (a list, or the flag repeated, as clang takes it). ptxcc embeds
    /// one PTX: for several GPUs, that of the oldest, which the CUDA driver JIT-compiles for
    /// every newer one.
    fn add_arch(&mut self, value: &str) -> Result<(), String> {
        let v = validate_arch(value)?;
        let number = |a: &str| -> u32 {
            a.trim_start_matches("sm_")
                .trim_end_matches('a')
                .parse()
                .unwrap_or(u32::MAX)
        };
        self.arch = Some(match self.arch.take() {
            Some(prev) if number(&prev) <= number(&v) => prev,
            _ => v,
        });
        Ok(())
    }

    fn fwd(&mut self, args: &[&str], to: Stages) {
        self.forwarded.push(Forwarded {
            args: args.iter().map(|s| s.to_string()).collect(),
            to,
        });
    }

    fn link(&mut self, args: &[&str]) {
        self.link_items
            .push(LinkItem::Args(args.iter().map(|s| s.to_string()).collect()));
    }

    fn run(mut self, args: &[String]) -> Result<Options, String> {
        let mut i = 0;
        // The value of a flag with a separate argument.
        let value = |i: &mut usize, flag: &str| -> Result<String, String> {
            *i += 1;
            args.get(*i)
                .cloned()
                .ok_or_else(|| format!("argument to '{flag}' is missing (expected 1 value)"))
        };
        while i < args.len() {
            let arg = args[i].as_str();
            self.one(arg, &mut i, &value)?;
            i += 1;
        }
        self.finish(args)
    }

    fn one(
        &mut self,
        arg: &str,
        i: &mut usize,
        value: &dyn Fn(&mut usize, &str) -> Result<String, String>,
    ) -> Result<(), String> {
        // Inputs.
        if arg == "-" {
            return Err(
                "reading the source from standard input ('-') is not supported; name a file".into(),
            );
        }
        if !arg.starts_with('-') || arg.len() == 1 {
            let path = PathBuf::from(arg);
            let (kind, language) = match &self.language {
                Some((kind, name)) => (*kind, Some(name.clone())),
                None => (kind_from_extension(&path)?, None),
            };
            self.link_items.push(LinkItem::Input(self.inputs.len()));
            self.inputs.push(Input {
                path,
                kind,
                language,
            });
            return Ok(());
        }

        // ptxcc's own flags and the actions.
        match arg {
            "-c" => self.c = true,
            "-S" => self.s = true,
            "-E" => self.e = true,
            "-M" | "-MM" => {
                self.e = true;
                self.fwd(&[arg], Stages::PP);
            }
            "-v" => self.verbose = true,
            "-###" => self.dry_run = true,
            "--version" => self.version = true,
            "--help" | "-help" => self.help = true,
            "-save-temps" | "--save-temps" | "-save-temps=cwd" => {
                self.save_temps = Some(SaveTemps::Cwd)
            }
            "-save-temps=obj" => self.save_temps = Some(SaveTemps::Obj),
            "-fopenmp" | "-fopenmp=libomp" => {}
            "-fno-openmp" => {
                return Err("'-fno-openmp' is not supported: ptxcc always compiles OpenMP".into())
            }
            "-fopenacc" => self.openacc = true,
            "-fno-openacc" => self.openacc = false,
            "-fopenacc-print=omp" => {
                self.openacc = true;
                self.print_openacc = true;
            }
            "-fptxcc-info" => self.ptxcc_info = true,
            "-fptxcc-verify-each" => self.verify_each = true,
            "-fno-ptxcc-verify-each" => self.verify_each = false,
            "-fptxcc-multi-device" => self.multi_device = true,
            "-fno-ptxcc-multi-device" => self.multi_device = false,
            "-fptxcc-hybrid" => self.hybrid = true,
            "-fno-ptxcc-hybrid" => self.hybrid = false,
            "-fptxcc-time-report" => self.time_report = true,
            "-fno-ptxcc-time-report" => self.time_report = false,
            "-fptxcc-layout=auto" => self.layout_auto = Some(true),
            "-fptxcc-layout=none" => self.layout_auto = Some(false),
            a if a.starts_with("-fptxcc-math-library=") => {
                let value = &a["-fptxcc-math-library=".len()..];
                self.math_library = ptxcc_passes::math_library::MathLibrary::parse(value)
                    .ok_or_else(|| {
                        format!("unknown value in '{a}' (expected -fptxcc-math-library=auto, libdevice or libclc)")
                    })?;
            }
            a if a.starts_with("-fptxcc-layout=") => {
                return Err(format!(
                    "unknown value in '{a}' (expected -fptxcc-layout=auto or -fptxcc-layout=none)"
                ))
            }
            "-fopenmp-offload-parallel-for" => self.offload_parallel_for = true,
            "-fopenmp-offload-parallel-for=report" => {
                self.offload_parallel_for = true;
                self.offload_parallel_for_report = true;
            }
            "-fno-openmp-offload-parallel-for" => {
                self.offload_parallel_for = false;
                self.offload_parallel_for_report = false;
            }
            "-fptxcc-print-translated" => self.print_openacc = true,
            "-emit-llvm" => self.emit_llvm = true,
            "-fsyntax-only" => self.syntax_only = true,
            "-pthread" => self.fwd(&[arg], Stages::ALL),
            "-MD" | "-MMD" => self.dep.flag = Some(arg.to_string()),
            "-w" | "-pedantic" | "-pedantic-errors" | "-ansi" => self.fwd(&[arg], Stages::COMPILE),
            "--coverage" => self.fwd(&[arg], Stages::ALL),
            _ => return self.prefixed(arg, i, value),
        }
        Ok(())
    }

    fn prefixed(
        &mut self,
        arg: &str,
        i: &mut usize,
        value: &dyn Fn(&mut usize, &str) -> Result<String, String>,
    ) -> Result<(), String> {
        if let Some(v) = arg.strip_prefix("--emit=") {
            self.emit = Some(match v {
                "ptx" => EmitKind::Ptx,
                "device-ir" => EmitKind::DeviceIr,
                "host-ir" => EmitKind::HostIr,
                _ => {
                    return Err(format!(
                        "invalid value '{v}' in '--emit=': expected ptx, device-ir or host-ir"
                    ))
                }
            });
            return Ok(());
        }
        if arg == "--emit" {
            return Err(
                "'--emit' needs a value: --emit=ptx, --emit=device-ir or --emit=host-ir".into(),
            );
        }
        if let Some(v) = arg.strip_prefix("--offload-arch=") {
            for a in v.split(',') {
                self.add_arch(a)?;
            }
            return Ok(());
        }
        // clang's spellings of the offload target, so that Makefiles written for clang build
        // unchanged: -fopenmp-targets=nvptx64[-nvidia-cuda] (the only target ptxcc has), and
        // -Xopenmp-target[=T] FLAG, of which the device's -march=sm_NN means --offload-arch.
        if let Some(v) = arg.strip_prefix("-fopenmp-targets=") {
            for t in v.split(',') {
                check_offload_triple(t, arg)?;
            }
            return Ok(());
        }
        if arg == "-Xopenmp-target" || arg.starts_with("-Xopenmp-target=") {
            if let Some(t) = arg.strip_prefix("-Xopenmp-target=") {
                check_offload_triple(t, arg)?;
            }
            let flag = value(i, arg)?;
            if let Some(a) = flag
                .strip_prefix("-march=")
                .or_else(|| flag.strip_prefix("--offload-arch="))
            {
                return self.add_arch(a);
            }
            return Err(format!(
                "'{arg} {flag}' is not supported: ptxcc passes only -march=sm_NN to the device \
                 compilation (the same as --offload-arch=sm_NN)"
            ));
        }
        if let Some(v) = arg.strip_prefix("-fopenacc-print=") {
            return Err(format!(
                "invalid value '{v}' in '-fopenacc-print=': ptxcc prints 'omp' only"
            ));
        }
        if let Some(v) = arg.strip_prefix("-fopenmp-offload-parallel-for=") {
            return Err(format!(
                "invalid value '{v}' in '-fopenmp-offload-parallel-for=': expected 'report'"
            ));
        }
        if arg.starts_with("-fptxcc-info=") {
            self.ptxcc_info = true;
            return Ok(());
        }
        if arg.starts_with("--offload-device-only")
            || arg.starts_with("--offload-host-only")
            || arg.starts_with("--cuda-gpu-arch=")
            || arg.starts_with("-foffload")
            || arg.starts_with("--offload=")
        {
            return Err(format!("'{arg}' is not supported: ptxcc builds the offload code itself; choose the GPU with --offload-arch=sm_XX"));
        }
        if arg.starts_with("-fopenmp=") {
            return Err(format!(
                "'{arg}' is not supported: ptxcc uses LLVM's OpenMP runtime (-fopenmp)"
            ));
        }
        if is_query(arg) {
            self.query = true;
            return Ok(());
        }

        // -o FILE / -oFILE
        if arg == "-o" {
            self.output = Some(value(i, arg)?);
            return Ok(());
        }
        if let Some(v) = arg.strip_prefix("-o") {
            self.output = Some(v.to_string());
            return Ok(());
        }
        // -x LANG / -xLANG
        if arg == "-x" || (arg.starts_with("-x") && !arg.starts_with("-xc++")) {
            let lang = if arg == "-x" {
                value(i, arg)?
            } else {
                arg[2..].to_string()
            };
            self.language = kind_from_language(&lang)?.map(|kind| (kind, lang));
            return Ok(());
        }
        if let Some(language) = arg.strip_prefix("-x") {
            return Err(format!(
                "language '{language}' given with -x is not supported: ptxcc compiles C"
            ));
        }
        // -O…
        if arg.starts_with("-O") {
            self.opt = Some(parse_opt(arg)?);
            return Ok(());
        }
        // -g…
        if arg.starts_with("-g") {
            if arg == "-g0" {
                self.debug_info = false;
            } else if enables_debug(arg) {
                self.debug_info = true;
            }
            self.debug_flags.push(arg.to_string());
            return Ok(());
        }
        // Link line: -l, -L, -Wl, -Xlinker, -u, -T, -z.
        if arg == "-l" || arg == "-L" {
            let v = value(i, arg)?;
            self.link(&[&format!("{arg}{v}")]);
            return Ok(());
        }
        if arg.starts_with("-l") || arg.starts_with("-L") || arg.starts_with("-Wl,") {
            self.link(&[arg]);
            return Ok(());
        }
        if LINK_SEPARATE.contains(&arg) {
            let v = value(i, arg)?;
            self.link(&[arg, &v]);
            return Ok(());
        }
        if LINK_ONLY.contains(&arg) || arg.starts_with("-fuse-ld=") || arg.starts_with("--ld-path=")
        {
            self.fwd(&[arg], Stages::LD);
            return Ok(());
        }
        // Preprocessor flags with a value.
        for (name, to) in JOINED_OR_SEPARATE {
            if let Some(rest) = arg.strip_prefix(name) {
                if rest.is_empty() {
                    let v = value(i, arg)?;
                    self.fwd(&[arg, &v], *to);
                } else {
                    self.fwd(&[arg], *to);
                }
                return Ok(());
            }
        }
        for (name, to) in SEPARATE {
            if arg == *name {
                let v = value(i, arg)?;
                if matches!(*name, "-MF") {
                    self.dep.named = true;
                }
                if matches!(*name, "-MT" | "-MQ") {
                    self.dep.target_named = true;
                }
                self.fwd(&[arg, &v], *to);
                return Ok(());
            }
        }
        if arg.starts_with("-MF") {
            self.dep.named = true;
            self.fwd(&[arg], Stages::PP);
            return Ok(());
        }
        if arg.starts_with("-MT") || arg.starts_with("-MQ") {
            self.dep.target_named = true;
            self.fwd(&[arg], Stages::PP);
            return Ok(());
        }
        if arg.starts_with("--sysroot=") || arg.starts_with("--target=") {
            self.fwd(&[arg], Stages::ALL);
            return Ok(());
        }
        if PP_OUTPUT_ONLY.contains(&arg) {
            self.fwd(&[arg], Stages::PP_OUTPUT);
            return Ok(());
        }
        if PP_ONLY.contains(&arg) || arg.starts_with("-Wp,") {
            self.fwd(&[arg], Stages::PP);
            return Ok(());
        }
        if arg.starts_with("-Wa,") {
            self.fwd(&[arg], Stages::CG);
            return Ok(());
        }
        if arg.starts_with("-std=") || arg.starts_with("--std=") {
            self.fwd(&[arg], Stages(1 | 2));
            return Ok(());
        }
        if arg.starts_with("-W") {
            self.fwd(&[arg], Stages::COMPILE);
            return Ok(());
        }
        // -f… and -m…: code generation, macros (__PIC__, __FAST_MATH__, __AVX2__) and sometimes the
        // link (-fsanitize, -ffast-math, -m32): every step; the link step does not warn about the rest.
        if arg.starts_with("-f") || arg.starts_with("-m") {
            self.fwd(&[arg], Stages::ALL);
            return Ok(());
        }
        // Anything else goes to the compile steps unchanged.
        self.fwd(&[arg], Stages::COMPILE);
        Ok(())
    }

    fn finish(self, raw: &[String]) -> Result<Options, String> {
        let mode = if self.query {
            Mode::Query
        } else if self.print_openacc {
            Mode::PrintOpenacc
        } else if let Some(kind) = self.emit {
            for (given, flag) in [(self.e, "-E"), (self.s, "-S"), (self.c, "-c")] {
                if given {
                    return Err(format!(
                        "'{}' cannot be combined with '{flag}'",
                        kind.flag()
                    ));
                }
            }
            Mode::Emit(kind)
        } else if self.e {
            Mode::Preprocess
        } else if self.syntax_only {
            Mode::SyntaxOnly
        } else if self.s {
            Mode::Assemble
        } else if self.c {
            Mode::Compile
        } else {
            Mode::Link
        };
        let (opt_flag, opt_level) = match self.opt {
            Some((flag, level)) => (Some(flag), level),
            None => (None, 0),
        };
        Ok(Options {
            mode,
            help: self.help,
            version: self.version,
            verbose: self.verbose,
            dry_run: self.dry_run,
            output: self.output,
            inputs: self.inputs,
            link_items: self.link_items,
            forwarded: self.forwarded,
            opt_flag,
            opt_level,
            debug_flags: self.debug_flags,
            debug_info: self.debug_info,
            save_temps: self.save_temps,
            openacc: self.openacc,
            arch: self.arch.unwrap_or_else(|| DEFAULT_ARCH.to_string()),
            emit_llvm: self.emit_llvm,
            ptxcc_info: self.ptxcc_info,
            verify_each: self.verify_each,
            multi_device: self.multi_device || self.hybrid,
            hybrid: self.hybrid,
            time_report: self.time_report,
            layout_auto: self.layout_auto.unwrap_or_else(|| {
                default_layout_auto(opt_level, self.multi_device || self.hybrid)
            }),
            math_library: self.math_library,
            offload_parallel_for: self.offload_parallel_for,
            offload_parallel_for_report: self.offload_parallel_for_report,
            dep: self.dep,
            raw: raw.to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Options {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        match Options::parse(&args) {
            Ok(o) => o,
            Err(e) => panic!("{line}: {e}"),
        }
    }

    fn error(line: &str) -> String {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        match Options::parse(&args) {
            Ok(o) => panic!("{line}: expected an error, got {o:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn defaults() {
        let o = parse("a.c");
        assert_eq!(o.mode, Mode::Link);
        assert_eq!(o.arch, "sm_90");
        assert_eq!(o.opt_level, 0);
        assert_eq!(o.opt_flag, None);
        assert!(!o.debug_info && !o.verbose && !o.dry_run && !o.openacc);
        assert_eq!(o.output, None);
        assert_eq!(
            o.inputs,
            vec![Input {
                path: "a.c".into(),
                kind: InputKind::C,
                language: None
            }]
        );
    }

    #[test]
    fn modes() {
        assert_eq!(parse("-c a.c").mode, Mode::Compile);
        assert_eq!(parse("-S a.c").mode, Mode::Assemble);
        assert_eq!(parse("-E a.c").mode, Mode::Preprocess);
        assert_eq!(parse("-c -S a.c").mode, Mode::Assemble);
        assert_eq!(parse("-c -E a.c").mode, Mode::Preprocess);
        assert_eq!(parse("-M a.c").mode, Mode::Preprocess);
        assert_eq!(parse("-fsyntax-only a.c").mode, Mode::SyntaxOnly);
        assert_eq!(parse("--emit=ptx a.c").mode, Mode::Emit(EmitKind::Ptx));
        assert_eq!(
            parse("--emit=device-ir a.c").mode,
            Mode::Emit(EmitKind::DeviceIr)
        );
        assert_eq!(
            parse("--emit=host-ir a.c").mode,
            Mode::Emit(EmitKind::HostIr)
        );
        assert_eq!(parse("-fopenacc-print=omp a.c").mode, Mode::PrintOpenacc);
        assert!(parse("-fopenacc-print=omp a.c").openacc);
        assert_eq!(parse("-print-file-name=libomp.so").mode, Mode::Query);
        assert_eq!(parse("-dumpversion").mode, Mode::Query);
    }

    #[test]
    fn emit_conflicts_and_values() {
        assert_eq!(
            error("--emit=ptx -c a.c"),
            "'--emit=ptx' cannot be combined with '-c'"
        );
        assert_eq!(
            error("--emit=host-ir -S a.c"),
            "'--emit=host-ir' cannot be combined with '-S'"
        );
        assert!(error("--emit=asm a.c").contains("invalid value 'asm'"));
        assert!(error("--emit a.c").contains("needs a value"));
    }

    #[test]
    fn output_forms() {
        assert_eq!(parse("-o out a.c").output.as_deref(), Some("out"));
        assert_eq!(parse("-oout a.c").output.as_deref(), Some("out"));
        assert_eq!(parse("a.c -o -").output.as_deref(), Some("-"));
        assert_eq!(
            error("a.c -o"),
            "argument to '-o' is missing (expected 1 value)"
        );
    }

    #[test]
    fn preprocessor_flags_joined_and_separate() {
        let o = parse(
            "-DFOO -D BAR=2 -UBAZ -U QUX -Iinc -I other -include pre.h -isystem sys -std=c11 a.c",
        );
        assert_eq!(
            o.forwarded_to(Stages::PP),
            [
                "-DFOO", "-D", "BAR=2", "-UBAZ", "-U", "QUX", "-Iinc", "-I", "other", "-include",
                "pre.h", "-isystem", "sys", "-std=c11"
            ]
        );
        assert_eq!(o.forwarded_to(Stages::CC), ["-std=c11"]);
        assert!(o.forwarded_to(Stages::CG).is_empty());
        assert!(o.forwarded_to(Stages::LD).is_empty());
        assert_eq!(o.inputs.len(), 1);
    }

    #[test]
    fn optimisation_levels() {
        for (flag, level) in [
            ("-O0", 0),
            ("-O1", 1),
            ("-O", 1),
            ("-O2", 2),
            ("-O3", 3),
            ("-Os", 2),
            ("-Oz", 2),
            ("-Ofast", 3),
            ("-Og", 1),
        ] {
            let o = parse(&format!("{flag} a.c"));
            assert_eq!(o.opt_level, level, "{flag}");
            assert_eq!(o.opt_flag.as_deref(), Some(flag));
        }
        let o = parse("-O2 -O0 a.c");
        assert_eq!(o.opt_level, 0);
        assert_eq!(parse("-O4 a.c").opt_flag.as_deref(), Some("-O3"));
        assert!(error("-Ox a.c").contains("invalid optimization level '-Ox'"));
    }

    #[test]
    fn debug_flags() {
        assert!(parse("-g a.c").debug_info);
        assert!(parse("-g3 a.c").debug_info);
        assert!(parse("-gdwarf-4 a.c").debug_info);
        assert!(!parse("-g -g0 a.c").debug_info);
        assert!(!parse("-gz a.c").debug_info);
        assert_eq!(parse("-g -gz a.c").debug_flags, ["-g", "-gz"]);
    }

    #[test]
    fn link_items_keep_their_order() {
        let o =
            parse("main.c -lfoo x.o -L dir -l bar -Wl,--as-needed lib.a -Xlinker -zdefs -u sym");
        assert_eq!(
            o.link_items,
            vec![
                LinkItem::Input(0),
                LinkItem::Args(vec!["-lfoo".into()]),
                LinkItem::Input(1),
                LinkItem::Args(vec!["-Ldir".into()]),
                LinkItem::Args(vec!["-lbar".into()]),
                LinkItem::Args(vec!["-Wl,--as-needed".into()]),
                LinkItem::Input(2),
                LinkItem::Args(vec!["-Xlinker".into(), "-zdefs".into()]),
                LinkItem::Args(vec!["-u".into(), "sym".into()]),
            ]
        );
        assert_eq!(o.inputs[1].kind, InputKind::Linker);
        assert_eq!(o.inputs[2].kind, InputKind::Linker);
        assert!(o.forwarded.is_empty());
    }

    #[test]
    fn link_only_flags() {
        let o = parse("-static -shared -fuse-ld=lld a.c");
        assert_eq!(
            o.forwarded_to(Stages::LD),
            ["-static", "-shared", "-fuse-ld=lld"]
        );
        assert!(o.forwarded_to(Stages::CC).is_empty());
    }

    #[test]
    fn unknown_flags_are_forwarded() {
        let o = parse(
            "-fPIC -march=native -Wall -Werror=format -ffast-math -frobnicate --frobnicate a.c",
        );
        assert_eq!(
            o.forwarded_to(Stages::CC),
            [
                "-fPIC",
                "-march=native",
                "-Wall",
                "-Werror=format",
                "-ffast-math",
                "-frobnicate",
                "--frobnicate"
            ]
        );
        assert_eq!(o.forwarded_to(Stages::PP), o.forwarded_to(Stages::CC));
        assert_eq!(o.forwarded_to(Stages::CG), o.forwarded_to(Stages::CC));
        assert_eq!(
            o.forwarded_to(Stages::LD),
            ["-fPIC", "-march=native", "-ffast-math", "-frobnicate"]
        );
    }

    #[test]
    fn separate_value_flags_do_not_eat_inputs() {
        let o = parse("-Xclang -fno-foo -mllvm -unroll-threshold=5 -MF deps.d -MT obj a.c");
        assert_eq!(o.inputs.len(), 1);
        assert_eq!(
            o.forwarded_to(Stages::CC),
            ["-Xclang", "-fno-foo", "-mllvm", "-unroll-threshold=5"]
        );
        assert!(o.dep.named && o.dep.target_named);
    }

    #[test]
    fn dependency_flags() {
        let o = parse("-MD -MP -c a.c");
        assert_eq!(o.dep.flag.as_deref(), Some("-MD"));
        assert!(!o.dep.named);
        assert_eq!(o.forwarded_to(Stages::PP), ["-MP"]);
    }

    #[test]
    fn preprocess_output_flags_are_separate() {
        let o = parse("-E -P -dM a.c");
        assert_eq!(o.forwarded_to(Stages::PP_OUTPUT), ["-P", "-dM"]);
        assert!(o.forwarded_to(Stages::PP).is_empty());
    }

    #[test]
    fn offload_arch() {
        assert_eq!(parse("--offload-arch=sm_80 a.c").arch, "sm_80");
        assert_eq!(parse("--offload-arch=sm_90a a.c").arch, "sm_90a");
        assert_eq!(
            parse("--offload-arch=sm_35 --offload-arch=sm_35 a.c").arch,
            "sm_35"
        );
        assert!(error("--offload-arch=sm_30 a.c").starts_with("invalid offload arch 'sm_30'"));
        assert!(error("--offload-arch=gfx90a a.c").starts_with("invalid offload arch 'gfx90a'"));
        assert!(error("--offload-arch=sm_ a.c").starts_with("invalid offload arch"));
        assert!(error("--offload-arch=sm_36 a.c").starts_with("unsupported offload arch 'sm_36'"));
        // Several GPUs (a list or the flag repeated): the oldest one's PTX runs on all of them.
        assert_eq!(
            parse("--offload-arch=sm_80 --offload-arch=sm_90 a.c").arch,
            "sm_80"
        );
        assert_eq!(parse("--offload-arch=sm_90,sm_70,sm_80 a.c").arch, "sm_70");
        assert!(
            error("--offload-arch=sm_80,gfx90a a.c").starts_with("invalid offload arch 'gfx90a'")
        );
    }

    #[test]
    fn inputs_by_extension_and_language() {
        let o = parse("a.c b.i c.ll d.bc e.s f.S g.o h.a libz.so.1 -x c k.txt -x none l.o");
        let kinds: Vec<InputKind> = o.inputs.iter().map(|i| i.kind).collect();
        use InputKind::*;
        assert_eq!(
            kinds,
            [
                C,
                Preprocessed,
                HostIr,
                HostIr,
                Asm,
                Asm,
                Linker,
                Linker,
                Linker,
                C,
                Linker
            ]
        );
        assert_eq!(o.inputs[9].language.as_deref(), Some("c"));
        assert_eq!(o.inputs[10].language, None);
        assert!(error("a.cpp").contains("ptxcc compiles C only"));
        assert!(error("-x c++ a.c").contains("language 'c++'"));
        assert!(error("-xc++ a.c").contains("language 'c++'"));
        assert!(error("-").contains("standard input"));
    }

    #[test]
    fn own_flags() {
        let o = parse("-fptxcc-verify-each a.c");
        assert!(o.verify_each);
        let o = parse("-fptxcc-multi-device a.c");
        assert!(o.multi_device);
        let o = parse("-fptxcc-multi-device -fno-ptxcc-multi-device a.c");
        assert!(!o.multi_device);
        let o = parse("-fptxcc-hybrid a.c");
        assert!(
            o.hybrid && o.multi_device,
            "hybrid splits the loop, so it implies multi-device"
        );
        let o = parse("-fptxcc-hybrid -fno-ptxcc-hybrid a.c");
        assert!(!o.hybrid && !o.multi_device);
        let o = parse("-fptxcc-verify-each -fno-ptxcc-verify-each a.c");
        assert!(!o.verify_each && o.forwarded.is_empty());
        let o = parse("-fptxcc-time-report a.c");
        assert!(o.time_report && o.forwarded.is_empty());
        let o = parse("-fptxcc-time-report -fno-ptxcc-time-report a.c");
        assert!(!o.time_report && o.forwarded.is_empty());
        let o = parse("-fptxcc-layout=auto a.c");
        assert!(o.layout_auto && o.forwarded.is_empty());
        assert!(!parse("-fptxcc-layout=auto -fptxcc-layout=none a.c").layout_auto);
        // The default: auto from -O2 on, on one device; none below, and with several.
        for on in ["-O2", "-O3", "-Os", "-Oz", "-Ofast", "-O1 -O2"] {
            assert!(parse(&format!("{on} a.c")).layout_auto, "{on}");
        }
        for off in [
            "",
            "-O0",
            "-O1",
            "-Og",
            "-O2 -O0",
            "-O2 -fptxcc-layout=none",
            "-O2 -fptxcc-multi-device",
            "-O3 -fptxcc-hybrid",
        ] {
            assert!(!parse(&format!("{off} a.c")).layout_auto, "{off}");
        }
        // Where asked for, at any level and with several devices.
        assert!(parse("-O0 -fptxcc-layout=auto -fptxcc-multi-device a.c").layout_auto);
        assert!(parse("-fptxcc-layout=auto -O2 -fptxcc-hybrid a.c").layout_auto);
        let o = parse("-v -### -save-temps -fopenacc -fptxcc-info -emit-llvm -fopenmp a.c");
        assert!(o.verbose && o.dry_run && o.openacc && o.ptxcc_info && o.emit_llvm);
        assert_eq!(o.save_temps, Some(SaveTemps::Cwd));
        assert_eq!(
            parse("-save-temps=obj a.c").save_temps,
            Some(SaveTemps::Obj)
        );
        assert!(o.forwarded.is_empty());
        assert!(parse("--version").version);
        assert!(parse("--help").help);
        assert!(error("-fno-openmp a.c").contains("-fno-openmp"));
        // clang's offload spellings are synonyms.
        assert_eq!(parse("-fopenmp-targets=nvptx64 a.c").arch, "sm_90");
        assert_eq!(
            parse("-fopenmp-targets=nvptx64-nvidia-cuda -Xopenmp-target -march=sm_80 a.c").arch,
            "sm_80"
        );
        assert_eq!(
            parse("-fopenmp-targets=nvptx64 -Xopenmp-target=nvptx64-nvidia-cuda -march=sm_75 a.c")
                .arch,
            "sm_75"
        );
        assert!(error("-fopenmp-targets=amdgcn-amd-amdhsa a.c").contains("NVIDIA GPUs only"));
        assert!(error("-Xopenmp-target -fno-fast-math a.c").contains("-march=sm_NN"));
        assert!(error("-Xopenmp-target").contains("argument to '-Xopenmp-target' is missing"));
        assert!(error("-fopenacc-print=acc a.c").contains("invalid value 'acc'"));
    }

    #[test]
    fn offload_parallel_for_flags() {
        let o = parse("-fopenmp -fopenmp-offload-parallel-for a.c");
        assert!(o.offload_parallel_for && !o.offload_parallel_for_report);
        assert!(o.forwarded.is_empty());
        let o = parse("-fopenmp-offload-parallel-for=report a.c");
        assert!(o.offload_parallel_for && o.offload_parallel_for_report);
        assert!(
            !parse("-fopenmp-offload-parallel-for=report -fno-openmp-offload-parallel-for a.c")
                .offload_parallel_for
        );
        assert!(error("-fopenmp-offload-parallel-for=all a.c").contains("invalid value 'all'"));
        let o = parse("-fopenmp-offload-parallel-for -fptxcc-print-translated a.c");
        assert_eq!(o.mode, Mode::PrintOpenacc);
        assert!(!o.openacc);
    }

    #[test]
    fn pthread_goes_everywhere() {
        let o = parse("-pthread a.c");
        for s in [Stages::PP, Stages::CC, Stages::CG, Stages::LD] {
            assert_eq!(o.forwarded_to(s), ["-pthread"]);
        }
    }
}

//! `ptxsim check FILE.ptx…`: decodes PTX modules as the simulator would load them and reports
//! what it cannot run (exit status 1), or each module's kernels and their sizes.
//! `ptxsim check --link FILE.ptx…` links the files into one module first, as the CUDA JIT linker
//! does with `cuLinkAddData` inputs (GCC's offloading passes several).
//!
//! `ptxsim ptxas [ptxas's options] FILE.ptx -o OUT` and `ptxsim nvlink [nvlink's options]
//! OBJ… -o OUT` stand in for CUDA's assembler and linker (in the CUDA installation
//! scripts/clang-ptxsim makes): they check the PTX as ptxsim loads it and write ELF files that carry it
//! (`ptxsim::cubin`), objects with `-c`, else images, so that toolchains that assemble and
//! link for a GPU (Clang's OpenMP offloading) build programs that run on ptxsim.

use ptxsim::cubin::{self, Kind, Symbol};
use ptxsim::machine::{Config, Machine};
use ptxsim::ptx::{ast, link, parser};

fn read(path: &str) -> Option<String> {
    match std::fs::read_to_string(path) {
        Ok(t) => Some(t),
        Err(e) => {
            eprintln!("ptxsim: error: cannot read {path}: {e}");
            None
        }
    }
}

fn report(machine: &Machine, name: &str, module: &ast::Module) -> bool {
    match machine.load_module(module) {
        Ok(m) => {
            for f in m.program.functions.iter().filter(|f| f.is_entry) {
                println!(
                    "{name}: {}: {} instructions, {} registers",
                    f.name,
                    f.code.len(),
                    f.num_regs
                );
            }
            machine.unload(m);
            true
        }
        Err(e) if e.input > 0 => {
            eprintln!(
                "input {} ({name}):{}: error: {}",
                e.input, e.line, e.message
            );
            false
        }
        Err(e) => {
            eprintln!("{name}:{}: error: {}", e.line, e.message);
            false
        }
    }
}

/// The options of ptxas and nvlink that take a value (as `-o OUT` or `-o=OUT`).
const VALUED: &[&str] = &[
    "-o",
    "--output-file",
    "-arch",
    "--gpu-name",
    "--opt-level",
    "-maxrregcount",
    "--maxrregcount",
    "-L",
    "--library-path",
    "-l",
    "--library",
];

/// The command line of a ptxas or nvlink stand-in: output, architecture, whether `-c` was
/// given, the input files.
struct ToolArgs {
    output: String,
    sm: u32,
    compile_only: bool,
    inputs: Vec<String>,
}

fn tool_args(tool: &str, args: &[String]) -> Result<ToolArgs, String> {
    let (mut output, mut arch, mut compile_only, mut inputs) = (None, None, false, Vec::new());
    let mut k = 0;
    while k < args.len() {
        let a = args[k].as_str();
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with('-') => (n, Some(v.to_string())),
            _ => (a, None),
        };
        if VALUED.contains(&name) {
            let value = match inline {
                Some(v) => v,
                None => {
                    k += 1;
                    args.get(k)
                        .cloned()
                        .ok_or(format!("{tool}: {name} needs a value"))?
                }
            };
            match name {
                "-o" | "--output-file" => output = Some(value),
                "-arch" | "--gpu-name" => arch = Some(value),
                _ => {}
            }
        } else if a == "-c" || a == "--compile-only" {
            compile_only = true;
        } else if !a.starts_with('-') {
            inputs.push(a.to_string());
        }
        k += 1;
    }
    let arch = arch.unwrap_or_else(|| "sm_90".into());
    let sm = arch
        .trim_start_matches("sm_")
        .trim_start_matches("compute_")
        .trim_end_matches('a')
        .parse()
        .map_err(|_| format!("{tool}: unknown architecture '{arch}' (expected sm_NN)"))?;
    Ok(ToolArgs {
        output: output.ok_or(format!("{tool}: no output file (-o)"))?,
        sm,
        compile_only,
        inputs,
    })
}

/// The symbols of a linked image: its functions, and its `.global` variables with the bytes
/// they start with (as ptxsim lays them out: what libomptarget reads from the image, a
/// kernel's `_kernel_environment`, say).
fn image_symbols(machine: &Machine, module: &ast::Module) -> Result<Vec<Symbol>, String> {
    let loaded = machine
        .load_module(module)
        .map_err(|e| format!("line {}: {}", e.line, e.message))?;
    let mut symbols = cubin::object_symbols(module);
    for s in symbols
        .iter_mut()
        .filter(|s| !s.function && s.defined.is_some())
    {
        let initialized = module
            .vars
            .iter()
            .any(|v| v.name == s.name && v.init.is_some());
        if let Some(g) = loaded.program.global(&s.name) {
            s.defined = Some(if initialized {
                // SAFETY: device memory is host memory; the module's variable is g.bytes long.
                unsafe { std::slice::from_raw_parts(g.addr as *const u8, g.bytes as usize) }
                    .to_vec()
            } else {
                vec![0; g.bytes as usize]
            });
        }
    }
    machine.unload(loaded);
    Ok(symbols)
}

/// `ptxsim ptxas`: one PTX file → an object (`-c`) or an image.
fn ptxas(machine: &Machine, args: &[String]) -> Result<(), String> {
    let a = tool_args("ptxas", args)?;
    let [input] = a.inputs.as_slice() else {
        return Err(format!(
            "ptxas: expected one input file, got {}",
            a.inputs.len()
        ));
    };
    let text = read(input).ok_or(format!("ptxas: cannot read {input}"))?;
    let module =
        parser::parse(&text).map_err(|e| format!("{input}:{}: error: {}", e.line, e.message))?;
    let (kind, symbols) = if a.compile_only {
        (Kind::Object, cubin::object_symbols(&module))
    } else {
        let s = image_symbols(machine, &module).map_err(|e| format!("{input}:{e}"))?;
        (Kind::Image, s)
    };
    let elf = cubin::write(kind, a.sm, &[text], &symbols);
    std::fs::write(&a.output, elf).map_err(|e| format!("ptxas: cannot write {}: {e}", a.output))
}

/// `ptxsim nvlink`: objects (ptxsim's) → one image, its PTX linked as ptxsim will load it.
fn nvlink(machine: &Machine, args: &[String]) -> Result<(), String> {
    let a = tool_args("nvlink", args)?;
    let mut texts = Vec::new();
    for path in &a.inputs {
        let bytes = std::fs::read(path).map_err(|e| format!("nvlink: cannot read {path}: {e}"))?;
        let ptx = cubin::read_ptx(&bytes).map_err(|why| format!("nvlink: {path} is {why}"))?;
        texts.extend(ptx);
    }
    if texts.is_empty() {
        return Err("nvlink: no input files".into());
    }
    let linked = link::parse_and_link(&texts)
        .map_err(|e| format!("nvlink: input {}:{}: error: {}", e.input, e.line, e.message))?;
    let symbols =
        image_symbols(machine, &linked).map_err(|e| format!("nvlink: the linked image, {e}"))?;
    let elf = cubin::write(Kind::Image, a.sm, &texts, &symbols);
    std::fs::write(&a.output, elf).map_err(|e| format!("nvlink: cannot write {}: {e}", a.output))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: ptxsim check [--link] FILE.ptx...\n       ptxsim ptxas [-c] [--gpu-name sm_NN] FILE.ptx -o OUT\n       ptxsim nvlink [-arch sm_NN] OBJ... -o OUT";
    let machine = Machine::new(Config::default());
    if let Some(tool) = args.first().filter(|t| *t == "ptxas" || *t == "nvlink") {
        let done = if tool == "ptxas" {
            ptxas(&machine, &args[1..])
        } else {
            nvlink(&machine, &args[1..])
        };
        if let Err(e) = done {
            eprintln!("{e}");
            std::process::exit(1);
        }
        return;
    }
    match (
        args.first().map(String::as_str),
        args.get(1).map(String::as_str),
    ) {
        (Some("check"), Some("--link")) if args.len() > 2 => {
            let mut inputs = Vec::new();
            for (k, path) in args[2..].iter().enumerate() {
                let Some(text) = read(path) else {
                    std::process::exit(1);
                };
                match parser::parse(&text) {
                    Ok(m) => inputs.push(m),
                    Err(e) => {
                        eprintln!("{path}:{}: error: {} (input {})", e.line, e.message, k + 1);
                        std::process::exit(1);
                    }
                }
            }
            let ok = match link::link(inputs) {
                Ok(m) => report(&machine, "linked", &m),
                Err(e) => {
                    let path = args.get(1 + e.input as usize).map_or("?", |s| s.as_str());
                    eprintln!("{path}:{}: error: {}", e.line, e.message);
                    false
                }
            };
            std::process::exit(!ok as i32);
        }
        (Some("check"), Some(_)) => {
            let mut failed = false;
            for path in &args[1..] {
                let Some(text) = read(path) else {
                    failed = true;
                    continue;
                };
                match parser::parse(&text) {
                    Ok(m) => failed |= !report(&machine, path, &m),
                    Err(e) => {
                        eprintln!("{path}:{}: error: {}", e.line, e.message);
                        failed = true;
                    }
                }
            }
            std::process::exit(failed as i32);
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}

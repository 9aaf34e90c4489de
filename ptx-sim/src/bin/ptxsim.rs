//! `ptxsim check FILE.ptx…`: decodes PTX modules as the simulator would load them and reports
//! what it cannot run (exit status 1), or each module's kernels and their sizes.
//! `ptxsim check --link FILE.ptx…` links the files into one module first, as the CUDA JIT linker
//! does with `cuLinkAddData` inputs (GCC's offloading passes several).

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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: ptxsim check [--link] FILE.ptx...";
    let machine = Machine::new(Config::default());
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

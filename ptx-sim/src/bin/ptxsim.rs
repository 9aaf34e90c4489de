//! `ptxsim check FILE.ptx…`: decodes PTX modules as the simulator would load them and reports
//! what it cannot run (exit status 1), or each module's kernels and their sizes.

use ptxsim::machine::{Config, Machine};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: ptxsim check FILE.ptx...";
    match args.first().map(String::as_str) {
        Some("check") if args.len() > 1 => {
            let machine = Machine::new(Config::default());
            let mut failed = false;
            for path in &args[1..] {
                let text = match std::fs::read_to_string(path) {
                    Ok(t) => t,
                    Err(e) => {
                        eprintln!("ptxsim: error: cannot read {path}: {e}");
                        failed = true;
                        continue;
                    }
                };
                match machine.load(&text) {
                    Ok(m) => {
                        for f in m.program.functions.iter().filter(|f| f.is_entry) {
                            println!(
                                "{path}: {}: {} instructions, {} registers",
                                f.name,
                                f.code.len(),
                                f.num_regs
                            );
                        }
                        machine.unload(m);
                    }
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

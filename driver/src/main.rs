//! ptxcc: a clang-compatible driver that compiles OpenMP (and OpenACC) C to executables whose
//! offload regions run on NVIDIA GPUs through PTX it generates itself (DESIGN.md, "Pipeline").
mod cmdline;
mod driver;
mod error;
mod exec;
mod openacc;
mod options;
mod stages;
mod toolchain;

use error::{Error, INTERNAL_ERROR_STATUS};
use options::Options;

fn main() {
    // Last resort: a bug must not look like a crash of the user's build.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("ptxcc: internal error: {info}");
        std::process::exit(INTERNAL_ERROR_STATUS);
    }));

    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    let args = cmdline::expand_response_files(args);
    let status = match Options::parse(&args) {
        Err(msg) => Error::Usage(msg).report(),
        Ok(opts) => match driver::run(&opts) {
            Ok(()) => 0,
            Err(e) => e.report(),
        },
    };
    std::process::exit(status);
}

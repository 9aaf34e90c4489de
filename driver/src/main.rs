//! ptxcc: a clang-compatible driver that compiles OpenMP (and OpenACC) C to executables whose
//! offload regions run on NVIDIA GPUs through PTX it generates itself (DESIGN.md, "Pipeline").
mod clang_in_process;
mod cleanup;
mod cmdline;
mod diag_relay;
mod driver;
mod error;
mod exec;
mod layout_directive;
mod offload_parallel_for;
mod omp_front;
mod openacc;
mod options;
mod stages;
mod toolchain;

use error::Error;
use options::Options;
use std::sync::Mutex;

/// The message of the last panic, kept by the panic hook for main's report.
static PANIC_MESSAGE: Mutex<Option<String>> = Mutex::new(None);

fn main() {
    // A bug must not look like a crash of the user's build: the hook only records the message
    // (parts of ptxcc may catch their own panics and turn them into diagnostics), and a panic
    // that reaches main becomes `ptxcc: internal error: …` with status 70.
    std::panic::set_hook(Box::new(|info| {
        let what = error::panic_text(info.payload()).unwrap_or_else(|| "panic".into());
        let at = info
            .location()
            .map(|l| format!(" (at {}:{})", l.file(), l.line()))
            .unwrap_or_default();
        if let Ok(mut slot) = PANIC_MESSAGE.lock() {
            *slot = Some(format!("{what}{at}"));
        }
    }));

    let status = match std::panic::catch_unwind(run) {
        Ok(status) => status,
        Err(_) => {
            let msg = PANIC_MESSAGE
                .lock()
                .ok()
                .and_then(|mut m| m.take())
                .unwrap_or_else(|| "unknown panic".into());
            Error::Internal(msg).report()
        }
    };
    std::process::exit(status);
}

fn run() -> i32 {
    // For the test of the internal-error path (lit/driver/internal-error.c).
    if std::env::var_os("PTXCC_DEBUG_PANIC").is_some() {
        panic!("PTXCC_DEBUG_PANIC is set");
    }
    // LLVM's fatal errors become `ptxcc: internal error in <stage>: …`, status 70.
    ptxcc_passes::fatal::install(Some(cleanup::remove_all));
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let args = cmdline::expand_response_files(args);
    match Options::parse(&args) {
        Err(msg) => Error::Usage(msg).report(),
        Ok(opts) => match driver::run(&opts) {
            Ok(()) => 0,
            Err(e) => e.report(),
        },
    }
}

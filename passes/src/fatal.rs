//! LLVM's fatal errors (`report_fatal_error`: "Cannot select", "Undefined external symbol", a
//! failed verifier in a back end) would abort ptxcc with signal 6 and a core dump. The handler
//! installed here turns them into `ptxcc: internal error in <stage>: <message>` and exit status 70
//! (EX_SOFTWARE), after the driver's cleanup (its temporary files), like a Rust panic.
//!
//! The stage is the pass or code-generation step running when LLVM gave up: the pipeline names
//! it with [`stage`], whose guard restores the enclosing one.
use std::ffi::{c_char, CStr};
use std::sync::Mutex;

/// What runs now, and the location of what it works on when known.
static STAGE: Mutex<Option<&'static str>> = Mutex::new(None);
/// The driver's cleanup, run before exiting.
static CLEANUP: Mutex<Option<fn()>> = Mutex::new(None);

/// The exit status of an internal error (EX_SOFTWARE), as the driver's.
pub const INTERNAL_ERROR_STATUS: i32 = 70;

/// Names the running stage until the guard is dropped.
pub fn stage(name: &'static str) -> StageGuard {
    let prev = STAGE.lock().ok().and_then(|mut s| s.replace(name));
    StageGuard { prev }
}

pub struct StageGuard {
    prev: Option<&'static str>,
}

impl Drop for StageGuard {
    fn drop(&mut self) {
        if let Ok(mut s) = STAGE.lock() {
            *s = self.prev;
        }
    }
}

/// The text of LLVM's fatal error `reason`, as ptxcc reports it.
pub fn message(stage: Option<&str>, reason: &str) -> String {
    let reason = reason.trim();
    match stage {
        Some(s) => format!("ptxcc: internal error in {s}: {reason}"),
        None => format!("ptxcc: internal error in LLVM: {reason}"),
    }
}

extern "C" fn on_fatal_error(reason: *const c_char) {
    let reason = if reason.is_null() {
        String::from("(no message)")
    } else {
        unsafe { CStr::from_ptr(reason) }
            .to_string_lossy()
            .into_owned()
    };
    let stage = STAGE.lock().ok().and_then(|s| *s);
    eprintln!("{}", message(stage, &reason));
    eprintln!("ptxcc: note: please report this with the source that triggers it");
    if let Some(cleanup) = CLEANUP.lock().ok().and_then(|c| *c) {
        cleanup();
    }
    std::process::exit(INTERNAL_ERROR_STATUS);
}

/// Installs the handler (once per process; later calls only replace the cleanup).
pub fn install(cleanup: Option<fn()>) {
    if let Ok(mut c) = CLEANUP.lock() {
        *c = cleanup;
    }
    unsafe {
        llvm_sys::error_handling::LLVMResetFatalErrorHandler();
        llvm_sys::error_handling::LLVMInstallFatalErrorHandler(Some(on_fatal_error));
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn messages_name_the_stage() {
        assert_eq!(
            super::message(Some("nvptx-codegen"), "Cannot select: x\n"),
            "ptxcc: internal error in nvptx-codegen: Cannot select: x"
        );
        assert_eq!(
            super::message(None, "y"),
            "ptxcc: internal error in LLVM: y"
        );
    }

    #[test]
    fn stages_nest() {
        let a = super::stage("a");
        {
            let _b = super::stage("b");
            assert_eq!(*super::STAGE.lock().unwrap(), Some("b"));
        }
        assert_eq!(*super::STAGE.lock().unwrap(), Some("a"));
        drop(a);
    }
}

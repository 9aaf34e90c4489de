//! Temporary directories to remove when ptxcc has to exit from a place that skips destructors
//! (LLVM's fatal-error handler, ptxcc_passes::fatal).
use std::path::PathBuf;
use std::sync::Mutex;

static TEMP_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Remembers a temporary directory of this invocation.
pub fn register(dir: PathBuf) {
    if let Ok(mut d) = TEMP_DIRS.lock() {
        d.push(dir);
    }
}

/// Removes every registered directory (best effort: ptxcc is exiting with an error anyway).
pub fn remove_all() {
    if let Ok(mut d) = TEMP_DIRS.lock() {
        for dir in d.drain(..) {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

//! Builds driver/native/host_codegen.cpp (the host object's code generation, as clang sets it
//! up: stages/host_object.rs) against LLVM 19's headers, found as llvm-sys finds LLVM
//! (`LLVM_SYS_191_PREFIX`, else `llvm-config-19`/`llvm-config` on PATH).
use std::process::Command;

fn llvm_config(arg: &str) -> Option<String> {
    let candidates: Vec<String> = match std::env::var("LLVM_SYS_191_PREFIX") {
        Ok(prefix) => vec![format!("{prefix}/bin/llvm-config")],
        Err(_) => vec!["llvm-config-19".into(), "llvm-config".into()],
    };
    candidates.iter().find_map(|c| {
        let out = Command::new(c).arg(arg).output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    })
}

fn main() {
    println!("cargo:rerun-if-changed=native/host_codegen.cpp");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_191_PREFIX");
    let include = llvm_config("--includedir")
        .expect("llvm-config (LLVM 19) is needed to build ptxcc: install llvm-19-dev or set LLVM_SYS_191_PREFIX");
    cc::Build::new()
        .cpp(true)
        .file("native/host_codegen.cpp")
        .include(include)
        .flag("-std=c++17")
        .flag("-fno-exceptions")
        .flag("-fno-rtti")
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .warnings(false)
        .compile("ptxcc_host_codegen");
}

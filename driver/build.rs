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

/// Runs `cmd`, or stops the build saying what failed.
fn run(cmd: &mut Command, what: &str) {
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("cannot run {what} ({cmd:?}): {e}"));
    assert!(status.success(), "{what} failed: {cmd:?}");
}

fn main() {
    println!("cargo:rerun-if-changed=native/host_codegen.cpp");
    println!("cargo:rerun-if-changed=native/clang_frontend.cpp");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_191_PREFIX");
    println!("cargo:rerun-if-env-changed=CXX");
    let include = llvm_config("--includedir")
        .expect("llvm-config (LLVM 19) is needed to build ptxcc: install llvm-19-dev or set LLVM_SYS_191_PREFIX");
    // The C++ compiler is run directly (CXX, else c++): the cc crate's compiler-family probe
    // (`c++ -?`) left its error text where cargo's next probe of rustc read its input, and
    // clippy and cargo test failed in fresh builds.
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let objects: Vec<std::path::PathBuf> = ["host_codegen", "clang_frontend"]
        .iter()
        .map(|name| compile(&cxx, &include, &out, name))
        .collect();
    let lib = out.join("libptxcc_host_codegen.a");
    let _ = std::fs::remove_file(&lib);
    run(
        Command::new("ar").arg("crs").arg(&lib).args(&objects),
        "archiving the native objects",
    );
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=ptxcc_host_codegen");
    // clang's front end (native/clang_frontend.cpp) in LLVM 19's libclang-cpp, which has no
    // unversioned link name in Debian's packages.
    let libdir = llvm_config("--libdir").expect("llvm-config --libdir");
    println!("cargo:rustc-link-search=native={libdir}");
    println!("cargo:rustc-link-lib=dylib:+verbatim=libclang-cpp.so.19.1");
    println!("cargo:rustc-link-lib=dylib=stdc++");
    // The clang whose front end that is: ptxcc runs it in process only for that executable.
    let bindir = llvm_config("--bindir").expect("llvm-config --bindir");
    println!("cargo:rustc-env=PTXCC_LLVM_BINDIR={bindir}");
}

/// Compiles native/NAME.cpp against LLVM's (and clang's) headers; returns the object.
fn compile(cxx: &str, include: &str, out: &std::path::Path, name: &str) -> std::path::PathBuf {
    let obj = out.join(format!("{name}.o"));
    run(
        Command::new(cxx)
            .args([
                "-std=c++17",
                "-O2",
                "-fPIC",
                "-fno-exceptions",
                "-fno-rtti",
                "-w",
            ])
            .args([
                "-D__STDC_CONSTANT_MACROS",
                "-D__STDC_FORMAT_MACROS",
                "-D__STDC_LIMIT_MACROS",
            ])
            .arg(format!("-I{include}"))
            .arg("-c")
            .arg(format!("native/{name}.cpp"))
            .arg("-o")
            .arg(&obj)
            .stdin(std::process::Stdio::null()),
        &format!("compiling native/{name}.cpp"),
    );
    obj
}

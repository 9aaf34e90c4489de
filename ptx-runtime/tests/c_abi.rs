//! Builds tests/c/offload_abi_test.c against the libptxrt.a cargo just built, and runs each of
//! its tests in a child process on the emulator (so error exits can be checked too).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod common;
use common::{compiler, staticlib};

/// Compiles tests/c/NAME.c once per test run.
fn build(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let (cc, is_clang) = compiler();
    let mut cmd = Command::new(&cc);
    cmd.arg("-O1")
        .arg("-g")
        .arg("-I")
        .arg(root.join("include"))
        .arg(root.join(format!("tests/c/{name}.c")));
    if is_clang {
        // As ptxcc links: host libomp too, with our omp_* definitions taking precedence.
        cmd.arg("-fopenmp");
    }
    cmd.arg(staticlib())
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&out);
    let o = cmd.output().expect("run the C compiler");
    assert!(
        o.status.success(),
        "compiling the C test failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

fn program() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build("offload_abi_test"))
}

fn openacc_program() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build("openacc_test"))
}

fn run(test: &str, env: &[(&str, &str)]) -> Output {
    run_program(program(), test, env)
}

fn run_program(program: &Path, test: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(program);
    cmd.arg(test)
        .env("PTXRT_DEVICE", "emu")
        .env("PTXRT_EMU_THREADS", "4")
        .env_remove("OMP_TARGET_OFFLOAD")
        .env_remove("ACC_DEVICE_TYPE")
        .env_remove("ACC_DEVICE_NUM")
        .env_remove("OMP_DEFAULT_DEVICE")
        .env_remove("PTXRT_PROFILE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run the C test program")
}

fn ok(test: &str) {
    let o = run(test, &[]);
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains("ok"),
        "test {test} failed (status {:?}):\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Runs a test that must fail with status 1 and a message containing every `needle`.
fn fails_with(test: &str, env: &[(&str, &str)], needles: &[&str]) -> String {
    let o = run(test, env);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(
        o.status.code(),
        Some(1),
        "test {test}: expected exit status 1, got {:?}; stderr:\n{err}",
        o.status
    );
    for n in needles {
        assert!(err.contains(n), "test {test}: stderr lacks {n:?}:\n{err}");
    }
    assert!(!err.contains("panicked"), "no panics:\n{err}");
    err
}

#[test]
fn auto_layouts_follow_the_launches() {
    // Kernels compiled for auto's layout or not, in the order 1 0 0 1 0. The layout starts
    // unconverted (auto's begin is lazy): to it, back, to it, back, each switch reported.
    let o = run("layout_auto", &[("PTXRT_DEBUG", "1")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains("ok"),
        "layout_auto failed ({:?}):\n{err}",
        o.status
    );
    let back = err.matches("back to the original layout").count();
    let to = err.matches("to it\n").count();
    assert_eq!((back, to), (2, 2), "switches:\n{err}");
}

#[test]
fn saxpy_round_trip() {
    ok("saxpy");
}
#[test]
fn shared_memory_tree_reduction_with_barriers() {
    ok("reduction");
}
#[test]
fn warp_shuffles() {
    ok("warp");
}
#[test]
fn warp_votes_with_a_partial_warp() {
    ok("vote");
}
#[test]
fn target_data_update_and_sections() {
    ok("data");
}
#[test]
fn missing_copy_shows_poison() {
    ok("poison");
}
#[test]
fn struct_member_pointer_attachment() {
    ok("struct");
}
#[test]
fn declare_target_globals() {
    ok("global");
}
#[test]
fn firstprivate_aggregate() {
    ok("firstprivate");
}
#[test]
fn enter_exit_data_and_use_device_ptr() {
    ok("enter_exit");
}
#[test]
fn omp_device_routines() {
    ok("omp_api");
}
#[test]
fn offload_disabled_falls_back_to_the_host() {
    let o = run("disabled", &[("OMP_TARGET_OFFLOAD", "DISABLED")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
#[test]
fn not_present_error_names_variable_line_and_device() {
    fails_with(
        "not_present",
        &[],
        &[
            "ptxrt: error: saxpy.c:12:5:",
            "'x[0:n]'",
            "8000 bytes",
            "is not present on device 0 (emulator",
            "map(to:",
        ],
    );
}
#[test]
fn partial_overlap_error_names_both_sections() {
    fails_with(
        "overlap",
        &[],
        &[
            "saxpy.c:10:3:",
            "'x[25:75]'",
            "'x[0:50]'",
            "partially overlaps",
        ],
    );
}
#[test]
fn trap_reports_the_kernel_source() {
    fails_with(
        "trap",
        &[],
        &["trap.c:80:9", "trap_k", "trap", "thread (5,0,0)"],
    );
}
#[test]
fn crash_reports_the_kernel_source() {
    fails_with(
        "crash",
        &[],
        &["crash.c:90:9", "crash_k", "crashed on the emulator device"],
    );
}
#[test]
fn deadlock_is_diagnosed() {
    fails_with(
        "deadlock",
        &[],
        &["deadlock.c:95:9", "deadlocked", "barrier"],
    );
}
#[test]
fn unregistered_region_is_an_error() {
    fails_with(
        "unregistered",
        &[],
        &["saxpy.c:12:5", "no device code is registered"],
    );
}
#[test]
fn out_of_device_memory_names_variable_and_free_bytes() {
    fails_with(
        "emu_oom",
        &[("PTXRT_EMU_MEMORY", "64K")],
        &[
            "saxpy.c:10:3",
            "out of memory",
            "'big[0:N]'",
            "65536 bytes",
            "are free",
        ],
    );
}
#[test]
fn mandatory_without_device_is_an_error() {
    fails_with(
        "saxpy",
        &[
            ("OMP_TARGET_OFFLOAD", "MANDATORY"),
            ("PTXRT_DEVICE", "host"),
        ],
        &["OMP_TARGET_OFFLOAD=MANDATORY", "no offload device"],
    );
}
#[test]
fn cuda_requested_without_driver_is_a_clear_error() {
    // Only meaningful where there is no NVIDIA driver (CI).
    let has_driver = [
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
        "/usr/lib64/libcuda.so.1",
        "/usr/lib/libcuda.so.1",
    ]
    .iter()
    .any(|p| Path::new(p).exists());
    if has_driver {
        return;
    }
    fails_with(
        "saxpy",
        &[("PTXRT_DEVICE", "cuda")],
        &["PTXRT_DEVICE=cuda", "libcuda.so.1", "PTXRT_DEVICE=emu"],
    );
}
#[test]
fn default_selection_without_driver_uses_the_emulator() {
    let o = run("saxpy", &[("PTXRT_DEVICE", ""), ("PTXRT_PROFILE", "1")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("device 0 (emulator") || err.contains("device 0 (cuda"),
        "{err}"
    );
}
#[test]
fn profile_reports_kernels_and_data() {
    let o = run("profile", &[("PTXRT_PROFILE", "1")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("ptxrt profile"), "{err}");
    assert!(err.contains("saxpy.c:12:5: saxpy_k"), "{err}");
    assert!(err.contains("launches: 2"), "{err}");
    assert!(err.contains("host->device: 160000 bytes"), "{err}");
    assert!(err.contains("device->host: 80000 bytes"), "{err}");
}
#[test]
fn invalid_device_choice_is_an_error() {
    fails_with(
        "saxpy",
        &[("PTXRT_DEVICE", "tpu")],
        &["PTXRT_DEVICE=\"tpu\""],
    );
}

#[test]
fn openacc_runtime_api() {
    let o = run_program(openacc_program(), "api", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
#[test]
fn openacc_device_type_host() {
    let o = run_program(openacc_program(), "host", &[("ACC_DEVICE_TYPE", "host")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
#[test]
fn openacc_update_of_absent_data_is_an_error() {
    let o = run_program(openacc_program(), "update_absent", &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("acc_update_device") && err.contains("is not present on device 0"),
        "{err}"
    );
}

#[test]
fn openacc_per_device_routines() {
    for env in [&[][..], &[("ACC_DEVICE_TYPE", "host")][..]] {
        let o = run_program(openacc_program(), "device_api", env);
        assert!(
            o.status.success() && String::from_utf8_lossy(&o.stdout).contains("ok"),
            "{env:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
/// A bad device number, device type or async argument, and absent data, end the program with
/// status 1 and a message that names the routine and what is wrong; never a panic.
/// A case: its name, the environment it runs with, and what it must print.
type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);

#[test]
fn openacc_per_device_errors() {
    let cases: [Case; 5] = [
        (
            "bad_device_num",
            &[],
            "ptxrt: error: acc_wait_device: device number 3 does not exist: there is one acc_device_nvidia device, number 0",
        ),
        (
            "bad_device_num",
            &[("ACC_DEVICE_TYPE", "host")],
            "ptxrt: error: acc_wait_device: device number 3 does not exist: the current device type is acc_device_host, which has one device, number 0",
        ),
        (
            "bad_device_type",
            &[],
            "ptxrt: error: acc_init_device: acc_device_t value 9 is not a device type; use acc_device_nvidia",
        ),
        (
            "bad_async",
            &[],
            "ptxrt: error: acc_wait_any: wait_arg[1] = -7 is not an async argument: use a queue number",
        ),
        (
            "d2d_absent",
            &[],
            "bytes) is not present on device 0 (emulator",
        ),
    ];
    for (test, env, message) in cases {
        let o = run_program(openacc_program(), test, env);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{test} {env:?}: {err}");
        assert!(
            err.contains(message),
            "{test} {env:?}: stderr lacks {message:?}:\n{err}"
        );
        assert!(!err.contains("panicked"), "{test}: {err}");
    }
}

#[test]
fn unmapped_pointer_is_an_error_naming_pointer_line_and_device() {
    let err = fails_with(
        "unmapped_ptr",
        &[],
        &[
            "ptxrt: error: saxpy.c:12:5: pointer 'x' (host 0x",
            ") is used in the target region but the data it points to is not present (not mapped) on device 0 (emulator",
            "; map it, e.g. map(tofrom: x[0:n]), or enclose the region in a target data region that maps it",
            "PTXRT_UNMAPPED_POINTERS=pass",
        ],
    );
    // The host address in the message is the pointer's value.
    let host = err
        .lines()
        .find_map(|l| l.strip_prefix("host x = "))
        .expect("the test prints x")
        .trim()
        .to_string();
    assert!(err.contains(&format!("(host {host})")), "{host} in:\n{err}");
}
#[test]
fn unmapped_pointer_passes_with_env_or_requires_unified_shared_memory() {
    let o = run("unmapped_ptr_pass", &[("PTXRT_UNMAPPED_POINTERS", "pass")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run("unmapped_ptr_requires", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The env variable wins over requires.
    fails_with(
        "unmapped_ptr_requires",
        &[("PTXRT_UNMAPPED_POINTERS", "error")],
        &["pointer 'x'", "is not present (not mapped) on device 0"],
    );
}
#[test]
fn pointers_that_need_no_map_still_work() {
    ok("unmapped_ptr_ok");
}

#[test]
fn data_region_end_waits_for_kernels_using_its_data() {
    ok("data_end_waits");
}

#[test]
fn debug_reports_each_launch_with_its_reasons() {
    let o = run("saxpy", &[("PTXRT_DEBUG", "1")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // saxpy_k: thread_limit 64, trip count 10000, emulator of 4 threads caps trip-count grids at 32.
    assert!(
        err.contains(
            "ptxrt: launch saxpy.c:12:5: kernel 'saxpy_k', SPMD (teams + parallel) on device 0 (emulator: 4 host threads): \
             grid 32 x block 64; grid: trip count 10000 / block 64 = 157 blocks, capped at 32"
        ),
        "{err}"
    );
    assert!(
        err.contains("block: thread_limit/num_threads clause (64"),
        "{err}"
    );
}

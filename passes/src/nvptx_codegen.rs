//! NVPTX code generation: optimise the device module at `default<O3>` with the NVPTX target's
//! pass pipeline hooks (NVVM reflect, address-space inference) and print PTX.
use crate::device_extraction::NVPTX_TRIPLE;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple,
};
use inkwell::OptimizationLevel;

/// Validates an `sm_NN` architecture name.
pub fn check_arch(arch: &str) -> anyhow::Result<u32> {
    let n: u32 = arch
        .strip_prefix("sm_")
        .and_then(|s| s.trim_end_matches('a').parse().ok())
        .ok_or_else(|| {
            anyhow::anyhow!("invalid offload architecture '{arch}' (expected sm_NN, e.g. sm_90)")
        })?;
    if n < 35 {
        anyhow::bail!("offload architecture '{arch}' is too old: NVPTX supports sm_35 and newer");
    }
    Ok(n)
}

pub fn target_machine(arch: &str) -> anyhow::Result<TargetMachine> {
    check_arch(arch)?;
    Target::initialize_nvptx(&InitializationConfig::default());
    set_codegen_options();
    let triple = TargetTriple::create(NVPTX_TRIPLE);
    let target = Target::from_triple(&triple)
        .map_err(|e| anyhow::anyhow!("NVPTX target unavailable: {}", e.to_string()))?;
    target
        .create_target_machine(
            &triple,
            arch,
            "",
            OptimizationLevel::Aggressive,
            RelocMode::Default,
            CodeModel::Default,
        )
        .ok_or_else(|| anyhow::anyhow!("cannot create an NVPTX target machine for {arch}"))
}

/// LLVM options of the NVPTX code generator. They are global to the process, which also
/// makes the host object (the driver's `host_object` stage, after the device code): each code
/// generation sets the options it needs first ([`host_codegen_options`] puts back LLVM's own).
///
/// * `-disable-lsr`: loop strength reduction turns the addresses of a four-times-unrolled
///   grid-stride loop into one 64-bit pointer induction variable per access (eight for a dot
///   product), each advanced every trip with a carry. Without it every address is `base + 8*iv`
///   from the one induction variable, which ptxas folds into the loads. SASS instructions per
///   iteration (sm_90, test-suite kernels): dot 12.75 → 10.25 (nvcc 9.75), STREAM triad 18 →
///   14.25, saxpy 14 → 11.5, max_int 14 → 13.5, none worse.
/// * `-scev-cheap-expansion-budget=12` (LLVM's default 4): the runtime unroller gives up on a
///   loop whose trip count costs more than the budget to compute before it, and a chunk loop
///   `for (k = c * C; k < min((c + 1) * C, n); k++)` (NPB IS's scan) costs 9 to 11; it then stayed
///   rolled, and ptxas does not unroll it either (one load per trip in the SASS, nvcc's PTX and
///   SASS four): 9 PTX instructions an element instead of 4.25, the scan's longest warp 1.9x
///   nvcc's. Below -O2 it reaches the emulator code's optimisation too (optimised in process
///   with the device code's options).
fn set_codegen_options() {
    set_options(Options::Nvptx);
}

/// Puts back LLVM's own values of the options [`set_codegen_options`] changes (`-disable-lsr`
/// off, `-scev-cheap-expansion-budget=4`, LLVM 19's default), as clang has them when it
/// compiles host code: called before the host object is made in process.
pub fn host_codegen_options() {
    set_options(Options::Host);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Options {
    Nvptx,
    Host,
}

fn set_options(want: Options) {
    use std::sync::Mutex;
    static CURRENT: Mutex<Option<Options>> = Mutex::new(None);
    let mut current = CURRENT.lock().unwrap_or_else(|e| e.into_inner());
    if *current == Some(want) {
        return;
    }
    let args: &[&std::ffi::CStr] = match want {
        Options::Nvptx => &[
            c"ptxcc",
            c"-disable-lsr",
            c"-scev-cheap-expansion-budget=12",
        ],
        Options::Host => &[
            c"ptxcc",
            c"-disable-lsr=false",
            c"-scev-cheap-expansion-budget=4",
        ],
    };
    let argv: Vec<*const std::ffi::c_char> = args.iter().map(|a| a.as_ptr()).collect();
    unsafe {
        llvm_sys::support::LLVMParseCommandLineOptions(
            argv.len() as i32,
            argv.as_ptr(),
            std::ptr::null(),
        )
    };
    *current = Some(want);
}

/// Runs the optimisation pipeline (`default<O3>`, after dropping unused library code).
pub fn optimize(device: &Module<'_>, tm: &TargetMachine) -> anyhow::Result<()> {
    device
        .run_passes("globaldce,default<O3>", tm, PassBuilderOptions::create())
        .map_err(|e| anyhow::anyhow!("device optimisation failed: {}", e.to_string()))
}

/// Prints PTX for an already optimised device module.
pub fn emit_ptx(device: &Module<'_>, tm: &TargetMachine) -> anyhow::Result<String> {
    let buf = tm
        .write_to_memory_buffer(device, FileType::Assembly)
        .map_err(|e| anyhow::anyhow!("PTX emission failed: {}", e.to_string()))?;
    Ok(String::from_utf8_lossy(buf.as_slice())
        .trim_end_matches('\0')
        .to_string())
}

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

/// LLVM options of the NVPTX code generator, set once per process (they are global; the only
/// target this process generates machine code for is NVPTX, the emulator's code is compiled by
/// clang in its own process):
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
///   nvcc's. The option is global to the process: below -O2 it reaches the emulator code's
///   optimisation too (at -O2 and above clang optimises that, in its own process).
fn set_codegen_options() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let args = [
            c"ptxcc".as_ptr(),
            c"-disable-lsr".as_ptr(),
            c"-scev-cheap-expansion-budget=12".as_ptr(),
        ];
        unsafe {
            llvm_sys::support::LLVMParseCommandLineOptions(
                args.len() as i32,
                args.as_ptr(),
                std::ptr::null(),
            )
        };
    });
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

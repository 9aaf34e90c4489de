//! The pass registry: every pass ptxcc has, by name, with what it needs and how it runs. The
//! pipeline (`pipeline.rs`) runs the device passes from here, in this order, and `ptxcc-opt`
//! finds every pass here by name, so a new pass is one entry in [`PASSES`] (and its module).
//!
//! ```text
//! Pass { name: "loop-mapping", needs: Needs::FormedKernels, stage: Stage::Device,
//!        run: Run::Device(|u, _| loop_mapping::map_loops(&u.module).map(drop)), … }
//! ```
//!
//! A [`Run::Device`] pass takes a [`DeviceUnit`] (the device module and what the host module
//! said about its kernels) and changes it in place. The other kinds change what the unit is
//! (host IR → device IR, device IR → PTX text, …): the pipeline and ptxcc-opt run them at
//! their own place, but they are listed here once, with their name and description.
//!
//! With [`PassOptions::verify_each`] (on in debug builds, with `-fptxcc-verify-each` /
//! `ptxcc-opt --verify-each`, and wherever `PTXCC_VERIFY_EACH=1` is set: the lit suite sets it,
//! see [`verify_each_by_default`]) LLVM's verifier checks the module after every pass, and a
//! module a pass left invalid is an internal error naming that pass.
use std::collections::HashMap;

use inkwell::module::Module;

use crate::diagnostics::{Diagnostic, Diagnostics, SourceLoc};
use crate::kernel_info::KernelInfo;
use crate::openmp::OffloadEntries;
use crate::{
    access_ranges, atomic_orderings, complex_math, declare_target_link, device_allocators,
    device_builtins, device_check, device_libc, host_part, kernel_formation, layout, loop_hints,
    loop_mapping, math_library, nvptx_codegen, split_range, tasks,
};

/// The IR a pass expects as its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// Host IR as clang emits it for offload (`--offload-host-only`).
    HostIr,
    /// A device module as device extraction leaves it (kernels not yet formed).
    ExtractedDevice,
    /// A device module whose kernels kernel formation made.
    FormedKernels,
    /// A device module after the device passes (what both back ends start from).
    CheckedDevice,
    /// Host IR plus the device module (`ptxcc-opt --device`).
    HostAndDevice,
}

/// Where the pipeline runs a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The device passes, in registry order, after device extraction: they make the device
    /// module both back ends start from (`ptxcc-opt --passes=device` runs the same).
    Device,
    /// The PTX path, in registry order, before PTX emission.
    Ptx,
    /// At a fixed place of the pipeline (a pass that changes the kind of IR), or a composite of
    /// other passes that only ptxcc-opt offers.
    Fixed,
}

/// How a pass runs.
#[derive(Clone, Copy)]
pub enum Run {
    /// Device module → device module, in place.
    Device(fn(&mut DeviceUnit<'_>, &PassOptions) -> Result<(), Diagnostics>),
    /// Host IR → device IR (device extraction).
    Extract,
    /// Device IR → PTX text.
    EmitPtx,
    /// Device IR → host code for the emulator.
    Emulator,
    /// Host IR + device module → host IR that registers the image.
    Register,
    /// Several passes: extraction and the [`Stage::Device`] passes.
    DevicePipeline,
    /// The whole pipeline on host IR.
    Offload,
}

/// One pass.
#[derive(Clone, Copy)]
pub struct Pass {
    pub name: &'static str,
    /// One line for `ptxcc-opt --list-passes`.
    pub description: &'static str,
    pub needs: Needs,
    pub stage: Stage,
    pub run: Run,
}

/// What the passes need to know besides the IR.
#[derive(Clone, Debug)]
pub struct PassOptions {
    /// PTX target, e.g. "sm_90".
    pub arch: String,
    /// Run LLVM's verifier after every pass.
    pub verify_each: bool,
    /// `-fptxcc-multi-device`: make loop kernels splittable over several devices.
    pub multi_device: bool,
    /// -fptxcc-layout=auto (the `layout-auto` pass runs before `layout-plan`).
    pub layout_auto: bool,
    /// -fptxcc-math-library=: the implementation of C's math functions device code links.
    pub math_library: crate::math_library::MathLibrary,
}

/// Whether the verifier runs after every pass when no flag asks for it: in debug builds, and
/// where the environment sets `PTXCC_VERIFY_EACH` to anything but empty or `0` — the lit suite
/// does, so that every compile of its release-build run is checked pass by pass, as a debug
/// build would be. The one place ptxcc, ptxcc-opt and the pipeline's defaults ask.
pub fn verify_each_by_default() -> bool {
    cfg!(debug_assertions)
        || std::env::var_os("PTXCC_VERIFY_EACH").is_some_and(|v| !v.is_empty() && v != "0")
}

impl Default for PassOptions {
    fn default() -> Self {
        Self {
            arch: "sm_90".into(),
            verify_each: verify_each_by_default(),
            multi_device: false,
            layout_auto: false,
            math_library: crate::math_library::MathLibrary::Auto,
        }
    }
}

/// A device module and what the host module said about its kernels.
pub struct DeviceUnit<'ctx> {
    pub module: Module<'ctx>,
    pub entries: OffloadEntries,
    /// Source location of each kernel's target construct (from the host module; may be empty).
    pub locs: HashMap<String, SourceLoc>,
    /// The constant thread_limit each kernel is launched with, where the host module says.
    pub thread_limits: HashMap<String, u32>,
    /// The kernels kernel formation made, in order.
    pub kernels: Vec<KernelInfo>,
    /// Layout versions left empty because every array they were compiled for stays
    /// (`layout::versions::retire_unused`): -fptxcc-info does not report them.
    pub retired: Vec<String>,
}

fn fail(message: impl std::fmt::Display) -> Diagnostics {
    Diagnostics(vec![Diagnostic {
        loc: None,
        message: message.to_string(),
    }])
}

/// Every pass, the device and PTX stages in the order the pipeline runs them.
pub const PASSES: &[Pass] = &[
    Pass {
        name: "device-extraction",
        description:
            "host IR → device IR: the offload regions and what they reach, retargeted to nvptx64",
        needs: Needs::HostIr,
        stage: Stage::Fixed,
        run: Run::Extract,
    },
    Pass {
        name: "declare-target-link",
        description: "uses of 'declare target link' variables → loads through their reference pointer",
        needs: Needs::ExtractedDevice,
        stage: Stage::Device,
        run: Run::Device(|u, _| declare_target_link::rewrite_link_vars(&u.module).map(drop)),
    },
    Pass {
        name: "tasks",
        description: "task constructs → undeferred: the encountering thread calls the task's entry at once",
        needs: Needs::ExtractedDevice,
        stage: Stage::Device,
        run: Run::Device(|u, _| tasks::lower_tasks(&u.module).map(drop)),
    },
    Pass {
        name: "kernel-formation",
        description: "host-fallback functions → kernels with an execution mode",
        needs: Needs::ExtractedDevice,
        stage: Stage::Device,
        run: Run::Device(|u, _| {
            u.kernels =
                kernel_formation::form_kernels(&u.module, &u.entries, &u.locs, &u.thread_limits)?;
            Ok(())
        }),
    },
    Pass {
        name: "reductions",
        description: "__kmpc_reduce_nowait → lane/warp/block trees (part of kernel-formation; alone: without the rest of it)",
        needs: Needs::ExtractedDevice,
        stage: Stage::Fixed,
        run: Run::Device(|u, _| {
            kernel_formation::lower_reductions_alone(&u.module, &u.entries, &u.locs).map(drop)
        }),
    },
    Pass {
        name: "allocators",
        description: "omp_alloc/omp_free & co. and the allocate directive's __kmpc_alloc → the device heap (malloc/free)",
        needs: Needs::FormedKernels,
        stage: Stage::Device,
        run: Run::Device(|u, _| {
            device_allocators::lower_allocators(&u.module)
                .map(drop)
                .map_err(Diagnostics)
        }),
    },
    Pass {
        name: "device-builtins",
        description: "omp_get_thread_num() & co. → special registers",
        needs: Needs::FormedKernels,
        stage: Stage::Device,
        run: Run::Device(|u, _| {
            device_builtins::lower_builtins(&u.module)
                .map(drop)
                .map_err(fail)
        }),
    },
    Pass {
        name: "complex-math",
        description: "cexp(), cabs() & co. of <complex.h> → real arithmetic and real math calls",
        needs: Needs::FormedKernels,
        stage: Stage::Device,
        run: Run::Device(|u, _| {
            complex_math::lower_complex_math(&u.module)
                .map(drop)
                .map_err(fail)
        }),
    },
    Pass {
        name: "atomic-orderings",
        description:
            "acquire/release/seq_cst atomics and fences → monotonic accesses between membar fences",
        needs: Needs::FormedKernels,
        stage: Stage::Device,
        run: Run::Device(|u, _| {
            atomic_orderings::lower_atomic_orderings(&u.module)
                .map(drop)
                .map_err(fail)
        }),
    },
    Pass {
        name: "drop-loop-hints",
        description: "remove the vectorizer's !llvm.loop hints (simd's vectorize.enable) from device code; unroll pragmas stay",
        needs: Needs::FormedKernels,
        stage: Stage::Device,
        run: Run::Device(|u, _| {
            loop_hints::drop_loop_hints(&u.module);
            Ok(())
        }),
    },
    Pass {
        name: "split-range",
        description: "-fptxcc-multi-device: a distribute loop runs the sub-range of its iterations the runtime gives (-fopenmp-offload-parallel-for alone: its loops are only marked for access-ranges)",
        needs: Needs::FormedKernels,
        stage: Stage::Device,
        run: Run::Device(|u, o| split_range::split_kernels(u, o.multi_device).map(drop)),
    },
    Pass {
        name: "access-ranges",
        description: "each split (or offloaded parallel-for) kernel's table of the bytes a part of its loop reads and writes",
        needs: Needs::FormedKernels,
        stage: Stage::Device,
        run: Run::Device(|u, o| access_ranges::access_ranges(u, &o.arch).map(drop)),
    },
    Pass {
        name: "loop-mapping",
        description: "__kmpc_*static_init* → block/thread index arithmetic",
        needs: Needs::FormedKernels,
        stage: Stage::Device,
        run: Run::Device(|u, _| loop_mapping::map_loops(&u.module).map(drop)),
    },
    Pass {
        name: "device-check",
        description: "report what device code calls but cannot have",
        needs: Needs::FormedKernels,
        stage: Stage::Device,
        run: Run::Device(|u, _| device_check::check_device_module(&u.module)),
    },
    Pass {
        name: "layout-auto",
        description: "host IR: data regions get auto layout markers for their global arrays of constant shape (-fptxcc-layout=auto; runs before layout-plan)",
        needs: Needs::HostIr,
        stage: Stage::Fixed,
        run: Run::Device(|u, _| {
            // Run alone, the pass keeps its remarks in the module it plans.
            for (loc, why) in layout::auto::plan_auto(&u.module, true)?.remarks {
                crate::remarks::add(&u.module, Some(&loc), &why);
            }
            Ok(())
        }),
    },
    Pass {
        name: "layout-plan",
        description: "host IR: kernels launched in a trans block get \"ptxcc-layout\" and a launch check (runs before device-extraction)",
        needs: Needs::HostIr,
        stage: Stage::Fixed,
        run: Run::Device(|u, _| layout::host_plan::plan_host(&u.module).map(drop)),
    },
    Pass {
        name: "restrict-params",
        description: "host IR: kernel parameters that receive a restrict parameter of the enclosing function become noalias (runs before device-extraction)",
        needs: Needs::HostIr,
        stage: Stage::Fixed,
        run: Run::Device(|u, _| {
            crate::restrict_params::mark_restrict_params(&u.module);
            Ok(())
        }),
    },
    Pass {
        name: "layout",
        description: "device IR: the addresses of trans arrays in \"ptxcc-layout\" kernels → device layout (runs after device-check)",
        needs: Needs::CheckedDevice,
        stage: Stage::Fixed,
        run: Run::Device(|u, _| layout::rewrite::rewrite_device(&u.module).map(drop)),
    },
    Pass {
        name: "device",
        description:
            "device-extraction, then every device pass in order (kernel-formation … device-check)",
        needs: Needs::HostIr,
        stage: Stage::Fixed,
        run: Run::DevicePipeline,
    },
    Pass {
        name: "device-libc",
        description:
            "printf → CUDA's vprintf (arguments packed), __assert_fail → __assertfail (PTX only)",
        needs: Needs::CheckedDevice,
        stage: Stage::Ptx,
        run: Run::Device(|u, _| device_libc::lower_libc(&u.module).map(drop)),
    },
    Pass {
        name: "math-library",
        description: "C math calls → CUDA's libdevice (libclc without a CUDA installation), linked",
        needs: Needs::CheckedDevice,
        stage: Stage::Ptx,
        run: Run::Device(|u, o| {
            let lib = math_library::resolve(o.math_library).map_err(fail)?;
            math_library::link_math(&u.module, &lib)
                .map(drop)
                .map_err(fail)
        }),
    },
    Pass {
        name: "optimize",
        description: "default<O3> with the NVPTX pipeline",
        needs: Needs::CheckedDevice,
        stage: Stage::Ptx,
        run: Run::Device(|u, opts| {
            let tm = nvptx_codegen::target_machine(&opts.arch).map_err(fail)?;
            nvptx_codegen::optimize(&u.module, &tm).map_err(fail)
        }),
    },
    Pass {
        name: "nvptx-codegen",
        description: "device IR → PTX (prints PTX)",
        needs: Needs::CheckedDevice,
        stage: Stage::Fixed,
        run: Run::EmitPtx,
    },
    Pass {
        name: "simt-lowering",
        description: "device IR → host code for the emulator",
        needs: Needs::CheckedDevice,
        stage: Stage::Fixed,
        run: Run::Emulator,
    },
    Pass {
        name: "host-part",
        description: "host IR: the host version of each target region runs the iterations [lo, hi) its global says, with an entry the runtime calls (-fptxcc-hybrid; in the pipeline only for split kernels)",
        needs: Needs::HostIr,
        stage: Stage::Fixed,
        run: Run::Device(|u, _| {
            for k in &u.entries.kernels {
                if let Err(why) = host_part::prepare(&u.module, &k.name)? {
                    eprintln!("ptxcc-opt: remark: {}: no host part: {why}", k.name);
                }
            }
            Ok(())
        }),
    },
    Pass {
        name: "host-registration",
        description: "embed the image and register it (host input; needs --device)",
        needs: Needs::HostAndDevice,
        stage: Stage::Fixed,
        run: Run::Register,
    },
    Pass {
        name: "offload",
        description: "the whole pipeline on host IR",
        needs: Needs::HostIr,
        stage: Stage::Fixed,
        run: Run::Offload,
    },
];

/// The pass named `name`.
pub fn find(name: &str) -> Option<&'static Pass> {
    PASSES.iter().find(|p| p.name == name)
}

/// The names of every pass, for error messages.
pub fn names() -> String {
    PASSES.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

/// The passes of one stage, in order.
pub fn stage(stage: Stage) -> impl Iterator<Item = &'static Pass> {
    PASSES.iter().filter(move |p| p.stage == stage)
}

/// Runs one [`Run::Device`] pass on `unit`, then the verifier when asked.
pub fn run_device_pass(
    pass: &Pass,
    unit: &mut DeviceUnit<'_>,
    opts: &PassOptions,
) -> Result<(), Diagnostics> {
    let Run::Device(run) = pass.run else {
        return Err(fail(format!(
            "internal error: pass '{}' does not run on a device module alone",
            pass.name
        )));
    };
    // An LLVM fatal error inside the pass is reported with its name (fatal.rs).
    let _stage = crate::fatal::stage(pass.name);
    let _time = crate::time_report::start(crate::time_report::Group::Passes, pass.name);
    run(unit, opts)?;
    verify_after(&unit.module, pass.name, opts)
}

/// Runs the passes of `stage` on `unit`, in order.
pub fn run_stage(
    stage_: Stage,
    unit: &mut DeviceUnit<'_>,
    opts: &PassOptions,
) -> Result<(), Diagnostics> {
    for pass in stage(stage_) {
        run_device_pass(pass, unit, opts)?;
    }
    Ok(())
}

/// The test hook that breaks the IR after the pass it names (lit tests of the verifier; no
/// pass of ptxcc leaves invalid IR on purpose).
const BREAK_IR_AFTER: &str = "PTXCC_TEST_BREAK_IR_AFTER";

/// LLVM's verifier on `module` after pass `pass`, when `opts.verify_each`.
pub fn verify_after(
    module: &Module<'_>,
    pass: &str,
    opts: &PassOptions,
) -> Result<(), Diagnostics> {
    if !opts.verify_each {
        return Ok(());
    }
    if std::env::var(BREAK_IR_AFTER).is_ok_and(|p| p == pass) {
        // A block without a terminator at the end of the first function with a body.
        if let Some(f) = module.get_functions().find(|f| f.count_basic_blocks() > 0) {
            module
                .get_context()
                .append_basic_block(f, "ptxcc.test.broken");
        }
    }
    module.verify().map_err(|e| {
        fail(format!(
            "internal error: the IR is invalid after pass '{pass}' (please report this): {}",
            e.to_string().trim_end()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        for (i, p) in PASSES.iter().enumerate() {
            assert!(
                PASSES[i + 1..].iter().all(|q| q.name != p.name),
                "pass '{}' is registered twice",
                p.name
            );
        }
    }

    #[test]
    fn device_stage_order() {
        let names: Vec<_> = stage(Stage::Device).map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "declare-target-link",
                "tasks",
                "kernel-formation",
                "allocators",
                "device-builtins",
                "complex-math",
                "atomic-orderings",
                "drop-loop-hints",
                "split-range",
                "access-ranges",
                "loop-mapping",
                "device-check"
            ]
        );
        let ptx: Vec<_> = stage(Stage::Ptx).map(|p| p.name).collect();
        assert_eq!(ptx, ["device-libc", "math-library", "optimize"]);
    }

    #[test]
    fn staged_passes_run_on_device_modules() {
        assert!(matches!(
            find("reductions").map(|p| p.run),
            Some(Run::Device(_))
        ));
        for p in PASSES.iter().filter(|p| p.stage != Stage::Fixed) {
            assert!(matches!(p.run, Run::Device(_)), "{}", p.name);
        }
    }

    #[test]
    fn verifier_names_the_pass() {
        let ctx = inkwell::context::Context::create();
        let m = ctx.create_module("bad");
        let f = m.add_function("f", ctx.i32_type().fn_type(&[], false), None);
        ctx.append_basic_block(f, "entry"); // no terminator: invalid
        let on = PassOptions {
            verify_each: true,
            ..Default::default()
        };
        let err = verify_after(&m, "some-pass", &on).unwrap_err();
        assert!(
            err.0[0].message.contains("after pass 'some-pass'"),
            "{err:?}"
        );
        let off = PassOptions {
            verify_each: false,
            ..Default::default()
        };
        assert!(verify_after(&m, "some-pass", &off).is_ok());
    }
}

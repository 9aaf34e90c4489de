//! Stage 3b, in process: the host IR is parsed with inkwell and handed to
//! `ptxcc_passes::pipeline::compile_offload`, which extracts the offload regions into a device
//! module, makes PTX and rewrites the host module to register it. The host module then loses
//! its debug information (unless -g) and is written as bitcode (or IR text for --emit=host-ir).
use super::Output;
use crate::error::{io_error, Error, Result};
use ptxcc_passes::inkwell::context::Context;
use ptxcc_passes::inkwell::memory_buffer::MemoryBuffer;
use ptxcc_passes::pipeline::{compile_offload, OffloadOptions, OffloadOutput};
use ptxcc_passes::time_report::{self, Group};
use std::path::Path;

/// What to do with the rewritten host module.
pub enum HostSink<'a> {
    /// Bitcode for the object stage.
    Bitcode(&'a Path),
    /// The host object, made in process ([`super::host_object`]); the bitcode file gets the
    /// module only where clang must make the object after all.
    Object {
        object: &'a Path,
        bitcode: &'a Path,
        level: super::host_object::Level,
    },
    /// IR text (`--emit=host-ir`).
    Text(&'a Output),
    /// Nothing (`--emit=ptx`, `--emit=device-ir`).
    Discard,
}

pub struct Request<'a> {
    /// The user's file, for messages.
    pub source: &'a Path,
    pub host_ir: &'a Path,
    /// Whether `host_ir` came from the user (a `.ll`/`.bc` input) rather than from clang.
    pub user_input: bool,
    pub options: OffloadOptions,
    /// Keep the host module's debug information (-g).
    pub keep_debug_info: bool,
    /// What the driver tells the passes (written into the module once, before them).
    pub hints: &'a ptxcc_passes::driver_hints::DriverHints,
    pub sink: HostSink<'a>,
}

/// What [`run`] produced: the passes' output, and for [`HostSink::Object`] what became of the
/// host object.
pub struct Produced {
    pub output: OffloadOutput,
    pub host_object: Option<super::host_object::Emitted>,
}

/// Runs the offload passes on one host module.
pub fn run(req: &Request) -> Result<Produced> {
    let time = time_report::start(Group::Driver, "read host IR (in process)");
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_file(req.host_ir).map_err(|e| {
        Error::usage(format!(
            "cannot read '{}': {}",
            req.host_ir.display(),
            e.to_string().trim_end()
        ))
    })?;
    let module = context.create_module_from_ir(buffer).map_err(|e| {
        let msg = format!(
            "'{}' is not valid LLVM IR: {}",
            req.host_ir.display(),
            e.to_string().trim_end()
        );
        if req.user_input {
            Error::Usage(msg)
        } else {
            Error::Internal(msg)
        }
    })?;
    if req.user_input {
        module.verify().map_err(|e| {
            Error::usage(format!(
                "'{}' is not valid LLVM IR: {}",
                req.host_ir.display(),
                e.to_string().trim_end()
            ))
        })?;
    }

    drop(time);
    let time = time_report::start(Group::Driver, "offload passes (in process)");
    req.hints.write(&module).map_err(Error::Internal)?;
    let output = compile_offload(&module, &req.options)?;
    drop(time);
    if let (Some(ptxas), Some(ptx)) = (
        std::env::var_os("PTXCC_PTXAS").filter(|v| !v.is_empty()),
        &output.ptx,
    ) {
        check_with_ptxas(Path::new(&ptxas), ptx, &req.options.arch, req.source)?;
    }

    let time = time_report::start(Group::Driver, "verify host IR (in process)");
    if !req.keep_debug_info {
        module.strip_debug_info();
    }
    module.verify().map_err(|e| {
        Error::Internal(format!(
            "the offload passes left invalid host IR for '{}': {}",
            req.host_ir.display(),
            e.to_string().trim_end()
        ))
    })?;

    drop(time);
    if let HostSink::Object {
        object,
        bitcode,
        level,
    } = req.sink
    {
        let _time = time_report::start(Group::Driver, "host object (in process)");
        let emitted = super::host_object::emit(&module, level, object, bitcode)?;
        return Ok(Produced {
            output,
            host_object: Some(emitted),
        });
    }
    let _time = time_report::start(Group::Driver, "write host IR (in process)");
    match req.sink {
        HostSink::Object { .. } => {}
        HostSink::Bitcode(path) => {
            if !module.write_bitcode_to_path(path) {
                return Err(io_error(
                    "write",
                    path,
                    std::io::Error::other("LLVM could not write the bitcode"),
                ));
            }
        }
        HostSink::Text(out) => out.write(module.print_to_string().to_bytes())?,
        HostSink::Discard => {}
    }
    Ok(Produced {
        output,
        host_object: None,
    })
}

/// `PTXCC_PTXAS=ptxas`: assembles the PTX with NVIDIA's assembler for its architecture before it
/// is embedded, so that PTX the CUDA driver's JIT would reject fails the build (a bug in ptxcc)
/// instead of the run on the GPU machine.
fn check_with_ptxas(ptxas: &Path, ptx: &str, arch: &str, from: &Path) -> Result<()> {
    let dir = tempfile::tempdir()
        .map_err(|e| io_error("create a temporary folder for", Path::new("ptxas"), e))?;
    let input = dir.path().join("device.ptx");
    std::fs::write(&input, ptx).map_err(|e| io_error("write", &input, e))?;
    let run = std::process::Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg(&input)
        .arg("-o")
        .arg(dir.path().join("device.cubin"))
        .output()
        .map_err(|e| {
            Error::usage(format!(
                "PTXCC_PTXAS names '{}', which cannot be run: {e}",
                ptxas.display()
            ))
        })?;
    if run.status.success() {
        return Ok(());
    }
    Err(Error::Internal(format!(
        "ptxas (PTXCC_PTXAS) rejects the PTX made for '{}' ({arch}):\n{}",
        from.display(),
        String::from_utf8_lossy(&run.stderr).trim_end()
    )))
}

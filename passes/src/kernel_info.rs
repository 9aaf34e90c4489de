//! The facts kernel formation records about each kernel, carried between passes (and from the
//! device module to the host-registration pass) as named metadata:
//!
//! ```llvm
//! !ptxcc.kernels = !{!0}
//! !0 = !{!"__omp_offloading_fe00_98c070_saxpy_l7", i32 0, !"saxpy.c:7:1"}   ; name, exec mode, source
//! ```
use inkwell::context::ContextRef;
use inkwell::module::Module;
use inkwell::values::{BasicMetadataValueEnum, MetadataValue};

pub const KERNELS_MD: &str = "ptxcc.kernels";

/// How the runtime must launch a kernel (ptxcc_abi.h, enum ptxrt_exec_mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecMode {
    /// teams + parallel: any grid, any block; every thread runs the region.
    Spmd = 0,
    /// parallel without teams: one block of any size.
    SpmdOneTeam = 1,
    /// teams without parallel: one thread per block.
    TeamsOnly = 2,
    /// plain `target`: one thread.
    Single = 3,
}

impl ExecMode {
    pub fn from_u64(v: u64) -> Option<Self> {
        Some(match v {
            0 => Self::Spmd,
            1 => Self::SpmdOneTeam,
            2 => Self::TeamsOnly,
            3 => Self::Single,
            _ => return None,
        })
    }

    /// Whether more than one thread per block runs the region.
    pub fn has_threads(self) -> bool {
        matches!(self, Self::Spmd | Self::SpmdOneTeam)
    }

    /// How the region is launched, in a user's words (for -fptxcc-info).
    pub fn explain(self) -> &'static str {
        match self {
            Self::Spmd => "teams → blocks of the grid, parallel threads → threads of each block",
            Self::SpmdOneTeam => "one block; parallel threads → threads of the block",
            Self::TeamsOnly => "teams → blocks of the grid, one thread each",
            Self::Single => "one thread",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Self::Spmd => "spmd",
            Self::SpmdOneTeam => "spmd-one-team",
            Self::TeamsOnly => "teams-only",
            Self::Single => "single",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInfo {
    pub name: String,
    pub mode: ExecMode,
    /// "file:line:col" of the construct, or "" when unknown.
    pub source: String,
}

/// Appends a kernel record to the module.
pub fn record<'ctx>(
    module: &Module<'ctx>,
    ctx: ContextRef<'ctx>,
    info: &KernelInfo,
) -> anyhow::Result<()> {
    let node = ctx.metadata_node(&[
        ctx.metadata_string(&info.name).into(),
        ctx.i32_type().const_int(info.mode as u64, false).into(),
        ctx.metadata_string(&info.source).into(),
    ]);
    module
        .add_global_metadata(KERNELS_MD, &node)
        .map_err(|e| anyhow::anyhow!("cannot record kernel {}: {e:?}", info.name))
}

/// Every kernel record of the module, in order.
pub fn read(module: &Module<'_>) -> Vec<KernelInfo> {
    module
        .get_global_metadata(KERNELS_MD)
        .into_iter()
        .filter_map(|node| parse(node))
        .collect()
}

fn parse(node: MetadataValue<'_>) -> Option<KernelInfo> {
    let ops = node.get_node_values()?;
    if ops.len() < 3 {
        return None;
    }
    let string = |v: &BasicMetadataValueEnum<'_>| -> Option<String> {
        match v {
            BasicMetadataValueEnum::MetadataValue(m) => m
                .get_string_value()
                .map(|s| String::from_utf8_lossy(s).into_owned()),
            _ => None,
        }
    };
    let name = string(&ops[0])?;
    let mode = match &ops[1] {
        BasicMetadataValueEnum::IntValue(i) => ExecMode::from_u64(i.get_zero_extended_constant()?)?,
        _ => return None,
    };
    let source = string(&ops[2]).unwrap_or_default();
    Some(KernelInfo { name, mode, source })
}

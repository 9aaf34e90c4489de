//! Remarks: what the passes decided for each region and loop, for `ptxcc -fptxcc-info` (what
//! nvc's -Minfo=accel shows its users). Passes append them to the device module as named
//! metadata, so a pass run alone by `ptxcc-opt` shows them in its output too:
//!
//! ```llvm
//! !ptxcc.remarks = !{!0}
//! !0 = !{!"saxpy.c:12:1: loop: 'for' iterations → threads of a block, cyclically (stride ntid.x)"}
//! ```
use crate::diagnostics::SourceLoc;
use inkwell::module::Module;
use inkwell::values::BasicMetadataValueEnum;

pub const REMARKS_MD: &str = "ptxcc.remarks";

/// Records one remark (best effort: a module that cannot take metadata loses the remark).
pub fn add(module: &Module<'_>, loc: Option<&SourceLoc>, message: &str) {
    let ctx = module.get_context();
    let text = match loc {
        Some(l) => format!("{l}: {message}"),
        None => message.to_string(),
    };
    let node = ctx.metadata_node(&[ctx.metadata_string(&text).into()]);
    let _ = module.add_global_metadata(REMARKS_MD, &node);
}

/// The position a remark starts with (`file:line:col:`), for ordering.
pub fn position(remark: &str) -> (String, u32, u32) {
    let mut parts = remark.splitn(4, ':');
    let file = parts.next().unwrap_or_default().to_string();
    let line = parts
        .next()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0);
    let col = parts
        .next()
        .and_then(|c| c.trim().parse().ok())
        .unwrap_or(0);
    (file, line, col)
}

/// The remarks of a module in source order (stable: same place, order made), without repeats.
pub fn read(module: &Module<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for node in module.get_global_metadata(REMARKS_MD) {
        let Some(ops) = node.get_node_values() else {
            continue;
        };
        for op in ops {
            if let BasicMetadataValueEnum::MetadataValue(m) = op {
                if let Some(s) = m.get_string_value() {
                    let s = String::from_utf8_lossy(s).into_owned();
                    if !out.contains(&s) {
                        out.push(s);
                    }
                }
            }
        }
    }
    out.sort_by_key(|r| position(r));
    out
}

//! The driver's hints to the passes: what the driver reads in the source that clang's IR no
//! longer says, as one typed structure ([`DriverHints`]) that the driver writes once into the
//! host module and the passes read back ([`DriverHints::write`], [`DriverHints::read`]).
//!
//! Today: the directives with an explicit `dist_schedule(static)` and those with an explicit
//! `schedule(static)` (no chunk). Clang's IR is the same with and without either clause, but
//! OpenMP then asks for one contiguous part per team (per thread), where ptxcc's default
//! division is cyclic (loop_mapping, grid_stride). And the loops `-fopenmp-offload-parallel-for`
//! offloaded (`access_maps`): their pointers without a visible extent are mapped by their access
//! ranges (`access_ranges`, ptx-runtime `split/access_maps.rs`); and the kernels the OpenACC
//! front end made from compute constructs (`acc_compute`): their pointers without a data clause
//! are mapped the same way, as nvc infers `copy(a[lo:hi])` from the loop bounds, and the
//! runtime's messages for them speak of data clauses. The directives are named by the (file,
//! line) clang puts in the location string of their runtime calls.
//!
//! The encoding, version 1: one named metadata node, whose first operand is the version and
//! each further operand one record, `!{!"KIND", !"FILE", i32 LINE}`:
//!
//! ```llvm
//! !ptxcc.driver_hints = !{!0, !1, !2, !3}
//! !0 = !{!"version", i32 1}
//! !1 = !{!"dist_schedule_static", !"dir/t.c", i32 12}
//! !2 = !{!"schedule_static", !"t.c", i32 40}
//! !3 = !{!"access_maps", !"t.c", i32 52}
//! !4 = !{!"acc_compute", !"t.c", i32 60}
//! ```
//!
//! A module without the node has no hints (IR the user wrote, `ptxcc-opt` on a `.ll`). A
//! version or record kind this ptxcc does not know is an error: the module was written by
//! another ptxcc, whose hints would be silently lost.
use inkwell::module::Module;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum};

use crate::diagnostics::SourceLoc;

/// The named metadata node that holds the hints.
pub const DRIVER_HINTS: &str = "ptxcc.driver_hints";

/// The encoding's version, the first operand of [`DRIVER_HINTS`].
pub const VERSION: u64 = 1;

const DIST_SCHEDULE_STATIC: &str = "dist_schedule_static";
const SCHEDULE_STATIC: &str = "schedule_static";
const ACCESS_MAPS: &str = "access_maps";
const ACC_COMPUTE: &str = "acc_compute";

/// A directive's line in the user's source, as clang's location strings name it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceLine {
    pub file: String,
    pub line: u32,
}

impl SourceLine {
    /// Whether `loc` (from a runtime call's location string) is on this line. One file name
    /// may be a path ending in the other: clang writes the name as the line markers give it.
    pub fn matches(&self, loc: &SourceLoc) -> bool {
        self.line == loc.line
            && (self.file == loc.file
                || loc.file.ends_with(&format!("/{}", self.file))
                || self.file.ends_with(&format!("/{}", loc.file)))
    }
}

/// Everything the driver tells the passes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DriverHints {
    /// Directives with an explicit `dist_schedule(static)` (no chunk): one contiguous part
    /// per team, so their `distribute parallel for` is not fused into a grid-stride loop.
    pub dist_schedule_static: Vec<SourceLine>,
    /// Directives with an explicit `schedule(static)` (no chunk): one contiguous part per
    /// thread, where a loop without a schedule clause is dealt cyclically.
    pub schedule_static: Vec<SourceLine>,
    /// Directives `-fopenmp-offload-parallel-for` made from a `parallel for`: their pointers
    /// without a visible extent are mapped by the kernel's access ranges at each launch.
    pub access_maps: Vec<SourceLine>,
    /// Kernels of OpenACC compute constructs (`parallel`, `serial`, `kernels` and their loop
    /// forms): their pointers without a data clause are mapped by the access ranges as well,
    /// and the runtime's errors for them ask for a data clause.
    pub acc_compute: Vec<SourceLine>,
}

impl DriverHints {
    pub fn is_empty(&self) -> bool {
        self.dist_schedule_static.is_empty()
            && self.schedule_static.is_empty()
            && self.access_maps.is_empty()
            && self.acc_compute.is_empty()
    }

    /// Whether `loc` is a loop whose pointers without an extent are mapped by access ranges
    /// (an offloaded `parallel for` or an OpenACC compute construct).
    pub fn access_maps(&self, loc: &SourceLoc) -> bool {
        self.access_maps.iter().any(|l| l.matches(loc)) || self.openacc(loc)
    }

    /// Whether `loc` is the kernel of an OpenACC compute construct.
    pub fn openacc(&self, loc: &SourceLoc) -> bool {
        self.acc_compute.iter().any(|l| l.matches(loc))
    }

    /// Whether `loc` is a directive with an explicit `dist_schedule(static)`.
    pub fn explicit_dist_schedule(&self, loc: &SourceLoc) -> bool {
        self.dist_schedule_static.iter().any(|l| l.matches(loc))
    }

    /// Whether `loc` is a directive with an explicit `schedule(static)`.
    pub fn explicit_schedule(&self, loc: &SourceLoc) -> bool {
        self.schedule_static.iter().any(|l| l.matches(loc))
    }

    /// Writes the hints into `module` (nothing when there are none). Once: a module that has
    /// them already is an error.
    pub fn write(&self, module: &Module<'_>) -> Result<(), String> {
        if self.is_empty() {
            return Ok(());
        }
        if module.get_global_metadata_size(DRIVER_HINTS) != 0 {
            return Err(format!("the module has its !{DRIVER_HINTS} already"));
        }
        let ctx = module.get_context();
        let i32t = ctx.i32_type();
        let mut nodes = vec![ctx.metadata_node(&[
            ctx.metadata_string("version").into(),
            i32t.const_int(VERSION, false).into(),
        ])];
        let records = self
            .dist_schedule_static
            .iter()
            .map(|l| (DIST_SCHEDULE_STATIC, l))
            .chain(self.schedule_static.iter().map(|l| (SCHEDULE_STATIC, l)))
            .chain(self.access_maps.iter().map(|l| (ACCESS_MAPS, l)))
            .chain(self.acc_compute.iter().map(|l| (ACC_COMPUTE, l)));
        for (kind, l) in records {
            nodes.push(ctx.metadata_node(&[
                ctx.metadata_string(kind).into(),
                ctx.metadata_string(&l.file).into(),
                i32t.const_int(l.line as u64, false).into(),
            ]));
        }
        for n in nodes {
            module
                .add_global_metadata(DRIVER_HINTS, &n)
                .map_err(|e| format!("cannot add !{DRIVER_HINTS}: {e}"))?;
        }
        Ok(())
    }

    /// The hints written into `module`; none when it has no [`DRIVER_HINTS`].
    pub fn read(module: &Module<'_>) -> Result<DriverHints, String> {
        let mut hints = DriverHints::default();
        let nodes = module.get_global_metadata(DRIVER_HINTS);
        let Some((first, records)) = nodes.split_first() else {
            return Ok(hints);
        };
        let bad = |what: &str| format!("!{DRIVER_HINTS}: {what} (written by another ptxcc?)");
        let ops = first.get_node_values().unwrap_or_default();
        match (ops.first().and_then(string), ops.get(1).and_then(int)) {
            (Some(v), Some(VERSION)) if v == "version" => {}
            (Some(v), Some(n)) if v == "version" => {
                return Err(bad(&format!(
                    "encoding version {n}, this ptxcc reads version {VERSION}"
                )))
            }
            _ => return Err(bad("the first operand is not its version")),
        }
        for r in records {
            let ops = r.get_node_values().unwrap_or_default();
            let (Some(kind), Some(file), Some(line), 3) = (
                ops.first().and_then(string),
                ops.get(1).and_then(string),
                ops.get(2).and_then(int),
                ops.len(),
            ) else {
                return Err(bad("a record is not !{!\"KIND\", !\"FILE\", i32 LINE}"));
            };
            let line = SourceLine {
                file,
                line: u32::try_from(line).map_err(|_| bad("a line number is out of range"))?,
            };
            match kind.as_str() {
                DIST_SCHEDULE_STATIC => hints.dist_schedule_static.push(line),
                SCHEDULE_STATIC => hints.schedule_static.push(line),
                ACCESS_MAPS => hints.access_maps.push(line),
                ACC_COMPUTE => hints.acc_compute.push(line),
                other => return Err(bad(&format!("unknown record kind '{other}'"))),
            }
        }
        Ok(hints)
    }
}

fn string(v: &BasicMetadataValueEnum<'_>) -> Option<String> {
    match v {
        BasicMetadataValueEnum::MetadataValue(md) => md
            .get_string_value()
            .map(|s| String::from_utf8_lossy(s).into_owned()),
        _ => None,
    }
}

fn int(v: &BasicMetadataValueEnum<'_>) -> Option<u64> {
    match BasicValueEnum::try_from(*v) {
        Ok(BasicValueEnum::IntValue(i)) => i.get_zero_extended_constant(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;

    fn line(file: &str, line: u32) -> SourceLine {
        SourceLine {
            file: file.into(),
            line,
        }
    }

    fn module_from_ir<'c>(ctx: &'c Context, ir: &str) -> Module<'c> {
        let buf = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(
            ir.as_bytes(),
            "hints",
        );
        ctx.create_module_from_ir(buf).expect("valid IR")
    }

    #[test]
    fn written_hints_read_back() {
        let ctx = Context::create();
        let m = ctx.create_module("m");
        let hints = DriverHints {
            dist_schedule_static: vec![line("dir/t.c", 12), line("a \"q\".c", 3)],
            schedule_static: vec![line("t.c", 40)],
            access_maps: vec![line("t.c", 52)],
            acc_compute: vec![line("t.c", 60)],
        };
        hints.write(&m).unwrap();
        assert_eq!(DriverHints::read(&m).unwrap(), hints);
        // Once only.
        assert!(hints.write(&m).unwrap_err().contains("already"));
    }

    #[test]
    fn no_node_no_hints_and_empty_hints_write_nothing() {
        let ctx = Context::create();
        let m = ctx.create_module("m");
        assert_eq!(DriverHints::read(&m).unwrap(), DriverHints::default());
        DriverHints::default().write(&m).unwrap();
        assert_eq!(m.get_global_metadata_size(DRIVER_HINTS), 0);
    }

    #[test]
    fn the_documented_encoding_reads() {
        let ctx = Context::create();
        let m = module_from_ir(
            &ctx,
            "!ptxcc.driver_hints = !{!0, !1, !2, !3, !4}\n\
             !0 = !{!\"version\", i32 1}\n\
             !1 = !{!\"dist_schedule_static\", !\"dir/t.c\", i32 12}\n\
             !2 = !{!\"schedule_static\", !\"t.c\", i32 40}\n\
             !3 = !{!\"access_maps\", !\"t.c\", i32 52}\n\
             !4 = !{!\"acc_compute\", !\"t.c\", i32 60}\n",
        );
        let h = DriverHints::read(&m).unwrap();
        assert_eq!(h.access_maps, vec![line("t.c", 52)]);
        assert_eq!(h.acc_compute, vec![line("t.c", 60)]);
        let at = |line| SourceLoc {
            file: "t.c".into(),
            line,
            col: 1,
        };
        // An OpenACC compute construct's pointers are mapped by access ranges too.
        assert!(h.access_maps(&at(60)) && h.openacc(&at(60)));
        assert!(h.access_maps(&at(52)) && !h.openacc(&at(52)));
        assert_eq!(h.dist_schedule_static, vec![line("dir/t.c", 12)]);
        assert_eq!(h.schedule_static, vec![line("t.c", 40)]);
    }

    #[test]
    fn other_versions_and_unknown_records_are_errors() {
        let ctx = Context::create();
        let m = module_from_ir(
            &ctx,
            "!ptxcc.driver_hints = !{!0}\n!0 = !{!\"version\", i32 2}\n",
        );
        let e = DriverHints::read(&m).unwrap_err();
        assert!(e.contains("version 2"), "{e}");
        let m = module_from_ir(
            &ctx,
            "!ptxcc.driver_hints = !{!0, !1}\n!0 = !{!\"version\", i32 1}\n!1 = !{!\"unroll\", !\"t.c\", i32 4}\n",
        );
        let e = DriverHints::read(&m).unwrap_err();
        assert!(e.contains("unknown record kind 'unroll'"), "{e}");
        let m = module_from_ir(
            &ctx,
            "!ptxcc.driver_hints = !{!0, !1}\n!0 = !{!\"version\", i32 1}\n!1 = !{!\"schedule_static\", i32 4}\n",
        );
        assert!(DriverHints::read(&m).is_err());
        let m = module_from_ir(&ctx, "!ptxcc.driver_hints = !{!0}\n!0 = !{i32 1}\n");
        assert!(DriverHints::read(&m).is_err());
    }

    #[test]
    fn lines_match_locations_by_path_suffix() {
        let loc = |file: &str, line| SourceLoc {
            file: file.into(),
            line,
            col: 1,
        };
        let h = DriverHints {
            dist_schedule_static: vec![line("dir/t.c", 12)],
            schedule_static: vec![line("/abs/dir/u.c", 7)],
            access_maps: Vec::new(),
            acc_compute: Vec::new(),
        };
        assert!(h.explicit_dist_schedule(&loc("dir/t.c", 12)));
        assert!(h.explicit_dist_schedule(&loc("/home/x/dir/t.c", 12)));
        assert!(!h.explicit_dist_schedule(&loc("dir/t.c", 13)));
        assert!(!h.explicit_dist_schedule(&loc("xdir/t.c", 12)));
        assert!(h.explicit_schedule(&loc("u.c", 7)));
        assert!(!h.explicit_schedule(&loc("dir/t.c", 12)));
    }
}

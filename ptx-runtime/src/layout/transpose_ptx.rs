//! The conversion kernels the CUDA path runs (on a GPU, and on ptxsim), written in PTX here so
//! that libptxrt needs no CUDA toolkit: for each unit (u8, u32, u64)
//!
//! * `ptxrt_layout_tiled_<unit>`: a block of 32×8 threads moves 32×32 tiles through shared
//!   memory (one padding column against bank conflicts). Threads read a tile along the source's
//!   innermost dimension (a) and write it along the destination's innermost dimension (b), so
//!   both the reads and the writes are coalesced. Grid: x over a, y over b, z over the batch
//!   (a block loops over batch items `ctaid.z, ctaid.z + nctaid.z, …`).
//! * `ptxrt_layout_short_<unit>`, `ptxrt_layout_short_merged_<unit>`: where one of the two is
//!   short (at most 8 units), `ta × tb` tiles of 1024 units (`short`).
//! * `ptxrt_layout_rows_<unit>`: the innermost dimension stays; a grid-stride loop copies unit
//!   t of row t / na to the row's place in the destination (coalesced both ways).
//!
//! Parameters (all u64): src, dst, then tiled: na, a_dst_stride, nb, b_src_stride, nbatch;
//! rows: na, nbatch; then MAX_BATCH × (extent, src stride, dst stride) of the batch
//! dimensions, innermost first (unused ones: extent 1). Strides count units.
use super::plan::MAX_BATCH;
use std::fmt::Write;

/// The three unit widths.
pub const UNITS: [u64; 3] = [1, 4, 8];

/// The conversion kernels (per unit width).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// 32×32 tiles.
    Tiled,
    /// `ta × tb` tiles where one of the two dimensions is short.
    Short,
    /// The same, its long side running on across the innermost batch dimension
    /// (`plan::ShortWalk`).
    ShortMerged,
    /// The innermost dimension stays.
    Rows,
}

impl Kernel {
    pub const ALL: [Kernel; 4] = [
        Kernel::Tiled,
        Kernel::Short,
        Kernel::ShortMerged,
        Kernel::Rows,
    ];
}

pub fn kernel_name(kernel: Kernel, unit: u64) -> String {
    format!(
        "ptxrt_layout_{}_u{}",
        match kernel {
            Kernel::Tiled => "tiled",
            Kernel::Short => "short",
            Kernel::ShortMerged => "short_merged",
            Kernel::Rows => "rows",
        },
        unit * 8
    )
}

fn batch_params(out: &mut String) {
    for i in 0..MAX_BATCH {
        let _ = write!(
            out,
            ",\n  .param .u64 e{i}, .param .u64 s{i}, .param .u64 d{i}"
        );
    }
}

/// Decomposes batch index %rd20 into source offset %rd21 and destination offset %rd22. A batch
/// dimension of extent 1 (every one the plan does not use) changes nothing and is skipped; the
/// others divide in 32 bits when the index and the extent fit (a 64-bit division is a call to a
/// routine of some seventy instructions on sm_90, a 32-bit one about twenty).
fn decompose(out: &mut String) {
    out.push_str("  mov.u64 %rd23, %rd20;\n  mov.u64 %rd21, 0;\n  mov.u64 %rd22, 0;\n");
    for i in 0..MAX_BATCH {
        let _ = write!(
            out,
            "  ld.param.u64 %rd24, [e{i}];\n  setp.eq.u64 %p7, %rd24, 1;\n  @%p7 bra DEC{i}_DONE;\n  \
             ld.param.u64 %rd25, [s{i}];\n  ld.param.u64 %rd26, [d{i}];\n  \
             or.b64 %rd29, %rd23, %rd24;\n  shr.u64 %rd29, %rd29, 32;\n  setp.ne.u64 %p6, %rd29, 0;\n  \
             @%p6 bra DEC{i}_WIDE;\n  cvt.u32.u64 %r38, %rd23;\n  cvt.u32.u64 %r39, %rd24;\n  \
             div.u32 %r38, %r38, %r39;\n  cvt.u64.u32 %rd27, %r38;\n  bra.uni DEC{i}_REST;\n\
             DEC{i}_WIDE:\n  div.u64 %rd27, %rd23, %rd24;\n\
             DEC{i}_REST:\n  mul.lo.u64 %rd28, %rd27, %rd24;\n  sub.u64 %rd28, %rd23, %rd28;\n  \
             mad.lo.u64 %rd21, %rd28, %rd25, %rd21;\n  mad.lo.u64 %rd22, %rd28, %rd26, %rd22;\n  mov.u64 %rd23, %rd27;\n\
             DEC{i}_DONE:\n"
        );
    }
}

/// (register type, register name prefix) holding one unit.
fn unit_reg(unit: u64) -> (&'static str, &'static str, &'static str) {
    match unit {
        1 => ("u8", "%rs1", "b16"),
        4 => ("u32", "%r30", "b32"),
        _ => ("u64", "%rd60", "b64"),
    }
}

/// The entry's signature (src, dst, `params`, `more`, the batch dimensions), its registers, an
/// optional shared tile, and the loads of src and dst (%rd1, %rd2) and of `params` (%rd3, …)
/// — what every kernel starts with (`more`: parameters the kernel loads itself).
fn entry_head(
    out: &mut String,
    kernel: Kernel,
    unit: u64,
    params: &[&str],
    more: &[&str],
    shared_bytes: Option<u64>,
) {
    let _ = write!(
        out,
        ".visible .entry {}(\n  .param .u64 src, .param .u64 dst",
        kernel_name(kernel, unit)
    );
    for p in params.iter().chain(more) {
        let _ = write!(out, ", .param .u64 {p}");
    }
    batch_params(out);
    out.push_str(")\n{\n");
    if let Some(b) = shared_bytes {
        let _ = writeln!(out, "  .shared .align 8 .b8 tile[{b}];");
    }
    out.push_str(
        "  .reg .pred %p<12>;\n  .reg .b16 %rs<4>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<64>;\n  \
         ld.param.u64 %rd1, [src];\n  cvta.to.global.u64 %rd1, %rd1;\n  ld.param.u64 %rd2, [dst];\n  \
         cvta.to.global.u64 %rd2, %rd2;\n",
    );
    for (i, p) in params.iter().enumerate() {
        let _ = writeln!(out, "  ld.param.u64 %rd{}, [{p}];", i + 3);
    }
}

fn tiled(out: &mut String, unit: u64) {
    let (ty, v, _) = unit_reg(unit);
    let shift = unit.trailing_zeros();
    entry_head(
        out,
        Kernel::Tiled,
        unit,
        &["na", "adst", "nb", "bsrc", "nbatch"],
        &[],
        Some(32 * 33 * unit),
    );
    let _ = write!(
        out,
        r#"  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ctaid.y;
  mov.u32 %r5, %ctaid.z;
  mov.u32 %r6, %nctaid.z;
  cvt.u64.u32 %rd10, %r1;
  cvt.u64.u32 %rd11, %r2;
  mul.wide.u32 %rd12, %r3, 32;
  mul.wide.u32 %rd13, %r4, 32;
  cvt.u64.u32 %rd20, %r5;
  cvt.u64.u32 %rd15, %r6;
  mov.u64 %rd16, tile;
BATCH:
  setp.ge.u64 %p1, %rd20, %rd7;
  @%p1 bra DONE;
"#
    );
    decompose(out);
    let _ = write!(
        out,
        r#"  mov.u64 %rd30, %rd11;
LOAD:
  add.u64 %rd31, %rd13, %rd30;
  add.u64 %rd32, %rd12, %rd10;
  setp.lt.u64 %p2, %rd32, %rd3;
  setp.lt.u64 %p3, %rd31, %rd5;
  and.pred %p4, %p2, %p3;
  @!%p4 bra LOADNEXT;
  mad.lo.u64 %rd33, %rd31, %rd6, %rd21;
  add.u64 %rd33, %rd33, %rd32;
  shl.b64 %rd33, %rd33, {shift};
  add.u64 %rd33, %rd1, %rd33;
  ld.global.{ty} {v}, [%rd33];
  mad.lo.u64 %rd34, %rd30, 33, %rd10;
  shl.b64 %rd34, %rd34, {shift};
  add.u64 %rd34, %rd16, %rd34;
  st.shared.{ty} [%rd34], {v};
LOADNEXT:
  add.u64 %rd30, %rd30, 8;
  setp.lt.u64 %p5, %rd30, 32;
  @%p5 bra LOAD;
  bar.sync 0;
  mov.u64 %rd30, %rd11;
STORE:
  add.u64 %rd31, %rd12, %rd30;
  add.u64 %rd32, %rd13, %rd10;
  setp.lt.u64 %p2, %rd31, %rd3;
  setp.lt.u64 %p3, %rd32, %rd5;
  and.pred %p4, %p2, %p3;
  @!%p4 bra STORENEXT;
  mad.lo.u64 %rd34, %rd10, 33, %rd30;
  shl.b64 %rd34, %rd34, {shift};
  add.u64 %rd34, %rd16, %rd34;
  ld.shared.{ty} {v}, [%rd34];
  mad.lo.u64 %rd33, %rd31, %rd4, %rd22;
  add.u64 %rd33, %rd33, %rd32;
  shl.b64 %rd33, %rd33, {shift};
  add.u64 %rd33, %rd2, %rd33;
  st.global.{ty} [%rd33], {v};
STORENEXT:
  add.u64 %rd30, %rd30, 8;
  setp.lt.u64 %p5, %rd30, 32;
  @%p5 bra STORE;
  bar.sync 0;
  add.u64 %rd20, %rd20, %rd15;
  bra.uni BATCH;
DONE:
  ret;
}}

"#
    );
}

/// Units of one tile of the short-dimension kernel (`ta * tb`; its shared buffer holds
/// `tb * (ta + 1)` units, the padding column included).
pub const SHORT_TILE: u64 = 1024;

/// The tile (log2 ta, log2 tb) of the short-dimension kernel for a transpose of `na` units along
/// the source's innermost dimension and `nb` along the destination's, or None when neither is
/// short (at most 8: a 32×32 tile would leave most of its threads idle).
pub fn short_tile(na: u64, nb: u64) -> Option<(u32, u32)> {
    let short = na.min(nb);
    if short > 8 {
        return None;
    }
    let s = short.next_power_of_two().trailing_zeros();
    let l = SHORT_TILE.trailing_zeros() - s;
    Some(if na <= nb { (s, l) } else { (l, s) })
}

/// `ptxrt_layout_short_<unit>`: a transpose where one of the two tiled dimensions is short
/// (Himeno's `[I][J][K][4]` → `[I][J][4][K]`, a = the 4, and back, b = the 4). A block of 256
/// threads moves one tile of `ta × tb` units (powers of two, 1024 units: 4 × 256 for a short a)
/// through shared memory: it reads the tile in the source's order (a fastest: the `ta` units of
/// a row and the rows after it, consecutive in the source when b is the next dimension) and
/// writes it in the destination's order (b fastest), so both sides are coalesced and every
/// thread has work. Grid: x over a's tiles, y over b's, z over the batch.
/// `ptxrt_layout_short_merged_<unit>` (`merged`) takes `arow`/`anext` (`brow`/`bnext`) too:
/// when not 0, a (b) runs on across the innermost batch dimension (`plan::ShortWalk`), and its
/// source (destination) address is `(a / arow) * anext + a % arow` (in 32 bits: the host merges
/// only extents that fit). A thread keeps its last quotient: with tiles of at most 256 along
/// the long side (every short side but 1 and 2) its long index is the same in every round of a
/// tile, so it divides once per tile. The plain kernel has none of that in its rounds.
fn short(out: &mut String, unit: u64, merged: bool) {
    let (ty, v, _) = unit_reg(unit);
    let shift = unit.trailing_zeros();
    entry_head(
        out,
        if merged {
            Kernel::ShortMerged
        } else {
            Kernel::Short
        },
        unit,
        &["na", "adst", "nb", "bsrc", "nbatch", "lta", "ltb"],
        if merged {
            &["arow", "anext", "brow", "bnext"]
        } else {
            &[]
        },
        Some(2 * SHORT_TILE * unit),
    );
    if merged {
        out.push_str(
            "  ld.param.u64 %rd50, [arow];\n  ld.param.u64 %rd51, [anext];\n  \
             ld.param.u64 %rd52, [brow];\n  ld.param.u64 %rd53, [bnext];\n  \
             setp.ne.u64 %p8, %rd50, 0;\n  setp.ne.u64 %p9, %rd52, 0;\n  \
             mov.u64 %rd47, -1;\n  mov.u64 %rd58, -1;\n  \
             cvt.u32.u64 %r21, %rd50;\n  cvt.u32.u64 %r24, %rd52;\n",
        );
    }
    let (load_a, a_offset) = split(&LOAD_A, merged);
    let (store_b, b_offset) = split(&STORE_B, merged);
    let _ = write!(
        out,
        r#"  mov.u32 %r1, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ctaid.y;
  mov.u32 %r5, %ctaid.z;
  mov.u32 %r6, %nctaid.z;
  cvt.u32.u64 %r7, %rd8;
  cvt.u32.u64 %r8, %rd9;
  cvt.u64.u32 %rd10, %r1;
  cvt.u64.u32 %rd12, %r3;
  shl.b64 %rd12, %rd12, %r7;
  cvt.u64.u32 %rd13, %r4;
  shl.b64 %rd13, %rd13, %r8;
  cvt.u64.u32 %rd20, %r5;
  cvt.u64.u32 %rd15, %r6;
  mov.u64 %rd16, tile;
  mov.u64 %rd40, 1;
  shl.b64 %rd41, %rd40, %r7;
  sub.u64 %rd44, %rd41, 1;
  add.u64 %rd43, %rd41, 1;
  shl.b64 %rd42, %rd40, %r8;
  sub.u64 %rd45, %rd42, 1;
  add.u32 %r9, %r7, %r8;
  shl.b64 %rd46, %rd40, %r9;
BATCH:
  setp.ge.u64 %p1, %rd20, %rd7;
  @%p1 bra DONE;
"#
    );
    decompose(out);
    let _ = write!(
        out,
        r#"  mov.u64 %rd30, %rd10;
LOAD:
  setp.ge.u64 %p5, %rd30, %rd46;
  @%p5 bra LOADED;
  and.b64 %rd31, %rd30, %rd44;
  shr.u64 %rd32, %rd30, %r7;
  add.u64 %rd33, %rd12, %rd31;
  add.u64 %rd34, %rd13, %rd32;
  setp.lt.u64 %p2, %rd33, %rd3;
  setp.lt.u64 %p3, %rd34, %rd5;
  and.pred %p4, %p2, %p3;
  @!%p4 bra LOADNEXT;
{load_a}  mad.lo.u64 %rd35, %rd34, %rd6, %rd21;
  add.u64 %rd35, %rd35, {a_offset};
  shl.b64 %rd35, %rd35, {shift};
  add.u64 %rd35, %rd1, %rd35;
  ld.global.{ty} {v}, [%rd35];
  mad.lo.u64 %rd36, %rd32, %rd43, %rd31;
  shl.b64 %rd36, %rd36, {shift};
  add.u64 %rd36, %rd16, %rd36;
  st.shared.{ty} [%rd36], {v};
LOADNEXT:
  add.u64 %rd30, %rd30, 256;
  bra.uni LOAD;
LOADED:
  bar.sync 0;
  mov.u64 %rd30, %rd10;
STORE:
  setp.ge.u64 %p5, %rd30, %rd46;
  @%p5 bra STORED;
  and.b64 %rd32, %rd30, %rd45;
  shr.u64 %rd31, %rd30, %r8;
  add.u64 %rd33, %rd12, %rd31;
  add.u64 %rd34, %rd13, %rd32;
  setp.lt.u64 %p2, %rd33, %rd3;
  setp.lt.u64 %p3, %rd34, %rd5;
  and.pred %p4, %p2, %p3;
  @!%p4 bra STORENEXT;
  mad.lo.u64 %rd36, %rd32, %rd43, %rd31;
  shl.b64 %rd36, %rd36, {shift};
  add.u64 %rd36, %rd16, %rd36;
  ld.shared.{ty} {v}, [%rd36];
{store_b}  mad.lo.u64 %rd35, %rd33, %rd4, %rd22;
  add.u64 %rd35, %rd35, {b_offset};
  shl.b64 %rd35, %rd35, {shift};
  add.u64 %rd35, %rd2, %rd35;
  st.global.{ty} [%rd35], {v};
STORENEXT:
  add.u64 %rd30, %rd30, 256;
  bra.uni STORE;
STORED:
  bar.sync 0;
  add.u64 %rd20, %rd20, %rd15;
  bra.uni BATCH;
DONE:
  ret;
}}

"#,
    );
}

/// The registers of one side's index split in `short`: where the long side is merged with the
/// batch dimension (`merged`), `offset = (index / row) * next + index % row`, kept with the
/// index it belongs to (`last`, `cached`) so that a thread whose index did not change does not
/// divide again; else `offset = index`.
struct Split {
    label: &'static str,
    index: &'static str,
    merged: &'static str,
    same: &'static str,
    row32: &'static str,
    next: &'static str,
    last: &'static str,
    cached: &'static str,
    /// Scratch: the index in 32 bits, the quotient, the remainder, the quotient in 64 bits.
    scratch: [&'static str; 4],
    offset: &'static str,
}

/// a's source offset in the loads (merged on the way back: the destination continues a).
const LOAD_A: Split = Split {
    label: "LOADA",
    index: "%rd33",
    merged: "%p8",
    same: "%p10",
    row32: "%r21",
    next: "%rd51",
    last: "%rd47",
    cached: "%rd48",
    scratch: ["%r20", "%r22", "%r23", "%rd55"],
    offset: "%rd54",
};

/// b's destination offset in the stores (merged on the way there: the source continues b).
const STORE_B: Split = Split {
    label: "STOREB",
    index: "%rd34",
    merged: "%p9",
    same: "%p11",
    row32: "%r24",
    next: "%rd53",
    last: "%rd58",
    cached: "%rd59",
    scratch: ["%r25", "%r26", "%r27", "%rd57"],
    offset: "%rd56",
};

fn split(s: &Split, merged: bool) -> (String, &'static str) {
    let Split {
        label,
        index,
        merged: is_merged,
        same,
        row32,
        next,
        last,
        cached,
        scratch: [i32, q, r, q64],
        offset,
    } = s;
    if !merged {
        // `short`: the index is the offset.
        return (String::new(), index);
    }
    let code = format!(
        "  mov.u64 {offset}, {index};\n  @!{is_merged} bra {label};\n  \
         setp.eq.u64 {same}, {index}, {last};\n  @{same} bra {label}_SAME;\n  \
         cvt.u32.u64 {i32}, {index};\n  div.u32 {q}, {i32}, {row32};\n  \
         mul.lo.u32 {r}, {q}, {row32};\n  sub.u32 {r}, {i32}, {r};\n  \
         cvt.u64.u32 {q64}, {q};\n  cvt.u64.u32 {cached}, {r};\n  \
         mad.lo.u64 {cached}, {q64}, {next}, {cached};\n  mov.u64 {last}, {index};\n\
         {label}_SAME:\n  mov.u64 {offset}, {cached};\n\
         {label}:\n"
    );
    (code, offset)
}

fn rows(out: &mut String, unit: u64) {
    let (ty, v, _) = unit_reg(unit);
    let shift = unit.trailing_zeros();
    entry_head(out, Kernel::Rows, unit, &["na", "nbatch"], &[], None);
    // nbatch is in %rd4; the walk below reads it from %rd7.
    out.push_str(
        r#"  mov.u64 %rd7, %rd4;
  mul.lo.u64 %rd8, %rd3, %rd7;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd9, %r3, %r2;
  cvt.u64.u32 %rd10, %r1;
  add.u64 %rd9, %rd9, %rd10;
  mul.wide.u32 %rd11, %r4, %r2;
NEXT:
  setp.ge.u64 %p1, %rd9, %rd8;
  @%p1 bra DONE;
  div.u64 %rd20, %rd9, %rd3;
  mul.lo.u64 %rd12, %rd20, %rd3;
  sub.u64 %rd12, %rd9, %rd12;
"#,
    );
    decompose(out);
    let _ = write!(
        out,
        r#"  add.u64 %rd33, %rd21, %rd12;
  shl.b64 %rd33, %rd33, {shift};
  add.u64 %rd33, %rd1, %rd33;
  ld.global.{ty} {v}, [%rd33];
  add.u64 %rd34, %rd22, %rd12;
  shl.b64 %rd34, %rd34, {shift};
  add.u64 %rd34, %rd2, %rd34;
  st.global.{ty} [%rd34], {v};
  add.u64 %rd9, %rd9, %rd11;
  bra.uni NEXT;
DONE:
  ret;
}}

"#
    );
}

/// The PTX module with every conversion kernel.
pub fn module() -> String {
    let mut out = String::from(
        "// libptxrt's layout conversion kernels (ptx-runtime/src/layout/transpose_ptx.rs)\n\
         .version 6.0\n.target sm_35\n.address_size 64\n\n",
    );
    for unit in UNITS {
        tiled(&mut out, unit);
        short(&mut out, unit, false);
        short(&mut out, unit, true);
        rows(&mut out, unit);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn short_tiles() {
        // Himeno's [..][K][4] → [..][4][K]: a (the 4) is short, 4 × 256; back, b is.
        assert_eq!(super::short_tile(4, 33), Some((2, 8)));
        assert_eq!(super::short_tile(33, 4), Some((8, 2)));
        assert_eq!(super::short_tile(3, 100), Some((2, 8)));
        assert_eq!(super::short_tile(1, 100), Some((0, 10)));
        assert_eq!(super::short_tile(9, 100), None);
    }

    #[test]
    fn every_kernel_is_there() {
        let m = super::module();
        for u in super::UNITS {
            for k in super::Kernel::ALL {
                assert!(m.contains(&super::kernel_name(k, u)));
            }
        }
        assert_eq!(m.matches('{').count(), m.matches('}').count());
    }
}

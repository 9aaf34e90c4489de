//! `PTXSIM_PROFILE=PATH`: where each kernel's warp instructions went, basic block by basic
//! block, written to PATH at exit. The counters are those of the time model (`warp.rs`): a warp
//! issues a block as often as its lane that entered it most, so a block's warp instructions are
//! those issues times its length, and its active lanes the threads' entries over the issues.
//!
//! ```text
//! kernel __omp_offloading_..._l24 (device 0): 1 launch, 180940355 warp instructions, 14.1 active lanes, est 816.49 µs
//!    share   warp instrs   lanes    issues  function: PTX lines
//!    23.4%      42339843    13.2   1628455  __omp_offloading_..._l24: 1710-1735
//! ```
//!
//! PTX lines are those of the module text the function came in (`ptxcc --emit=ptx` or
//! `-save-temps` for ptxcc's programs, `cuobjdump -ptx` for nvcc's).

use super::report::KernelRecord;
use crate::program::Program;
use std::fmt::Write;

/// Where a basic block of a program lies: its function and PTX lines, its length.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockSpan {
    pub function: String,
    pub first_line: u32,
    pub last_line: u32,
    pub len: u32,
}

/// The span of each basic block of `p` (indexed as `Program::blocks`).
pub fn spans(p: &Program) -> Vec<BlockSpan> {
    let mut spans = vec![BlockSpan::default(); p.blocks.len()];
    for f in &p.functions {
        for inst in &f.code {
            let Some(s) = spans.get_mut(inst.block as usize) else {
                continue;
            };
            if s.len == 0 {
                s.function.clone_from(&f.name);
                s.first_line = inst.line;
            }
            s.first_line = s.first_line.min(inst.line);
            s.last_line = s.last_line.max(inst.line);
            s.len += 1;
        }
    }
    spans
}

/// Blocks listed per kernel: those with at least `MIN_SHARE` of its warp instructions, at most
/// `MAX_ROWS`.
const MIN_SHARE: f64 = 0.002;
const MAX_ROWS: usize = 60;

/// The profile of `kernels` (those counted with a profile), the most expensive first.
pub fn render(model: &str, kernels: &[KernelRecord]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "ptxsim profile: the basic blocks of each kernel by the warp instructions they issued \
         (estimates for {model}; ptx-sim/README.md)"
    );
    let mut order: Vec<&KernelRecord> = kernels
        .iter()
        .filter(|k| !k.stats.counters.blocks.is_empty())
        .collect();
    order.sort_by(|a, b| b.stats.estimate.time_s.total_cmp(&a.stats.estimate.time_s));
    for k in order {
        let c = &k.stats.counters;
        let _ = writeln!(
            o,
            "\nkernel {} (device {}): {} launch{}, {} warp instructions, {:.1} active lanes, est {:.2} µs",
            k.name,
            k.device,
            k.launches,
            if k.launches == 1 { "" } else { "es" },
            c.warp_instructions,
            c.active_lanes(),
            k.stats.estimate.time_s * 1e6
        );
        let _ = writeln!(
            o,
            "  {:>6} {:>13} {:>7} {:>11}  function: PTX lines",
            "share", "warp instrs", "lanes", "issues"
        );
        let mut rows: Vec<(u64, usize)> = c
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.warp_issues > 0)
            .map(|(i, b)| {
                let len = k.spans.get(i).map_or(0, |s| s.len);
                (b.warp_issues * u64::from(len), i)
            })
            .collect();
        rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let total = c.warp_instructions.max(1) as f64;
        let mut shown = 0;
        for &(instrs, i) in &rows {
            let share = instrs as f64 / total;
            if shown == MAX_ROWS || share < MIN_SHARE {
                break;
            }
            let b = &c.blocks[i];
            let lanes = b.thread_entries as f64 / b.warp_issues as f64;
            let (name, first, last) = k.spans.get(i).map_or(("?", 0, 0), |s| {
                (s.function.as_str(), s.first_line, s.last_line)
            });
            let _ = writeln!(
                o,
                "  {:>5.1}% {:>13} {:>7.1} {:>11}  {name}: {first}-{last}",
                share * 100.0,
                instrs,
                lanes,
                b.warp_issues
            );
            shown += 1;
        }
        if rows.len() > shown {
            let rest: u64 = rows[shown..].iter().map(|r| r.0).sum();
            let _ = writeln!(
                o,
                "  {:>5.1}% {:>13}  in {} more blocks",
                rest as f64 / total * 100.0,
                rest,
                rows.len() - shown
            );
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{BlockCount, Counters, LaunchStats};

    #[test]
    fn blocks_are_listed_by_their_warp_instructions() {
        let spans = vec![
            BlockSpan {
                function: "k".into(),
                first_line: 10,
                last_line: 12,
                len: 3,
            },
            BlockSpan {
                function: "f".into(),
                first_line: 40,
                last_line: 49,
                len: 10,
            },
        ];
        let k = KernelRecord {
            name: "k".into(),
            launches: 2,
            spans,
            stats: LaunchStats {
                counters: Counters {
                    warp_instructions: 3 * 100 + 10 * 50,
                    thread_instructions: 32 * 300 + 8 * 500,
                    blocks: vec![
                        BlockCount {
                            warp_issues: 100,
                            thread_entries: 3200,
                        },
                        BlockCount {
                            warp_issues: 50,
                            thread_entries: 400,
                        },
                    ],
                    ..Counters::default()
                },
                ..LaunchStats::default()
            },
            ..KernelRecord::default()
        };
        let text = render("h100-sxm", &[k]);
        let rows: Vec<&str> = text.lines().filter(|l| l.contains('%')).collect();
        // f's block: 500 of 800 warp instructions, 8 lanes; k's: 300, 32 lanes.
        assert!(
            rows[0].contains("62.5%") && rows[0].contains("f: 40-49"),
            "{text}"
        );
        assert!(rows[0].contains(" 8.0 "), "{text}");
        assert!(
            rows[1].contains("37.5%") && rows[1].contains("k: 10-12"),
            "{text}"
        );
        assert!(text.contains("2 launches, 800 warp instructions"), "{text}");
    }
}

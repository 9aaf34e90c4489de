//! Device models: what a named GPU does per second, and the estimated time of a launch from its
//! counts (`PTXSIM_MODEL`; ptx-sim/README.md states the model and its limits).
//!
//! A launch's estimated time is the longest of what limits it, plus the launch overhead:
//!
//! ```text
//! issue   the busiest SM's warp instructions over its issue rate (4 a clock), or over the rate
//!         of the class of pipeline it needs most (fp64, special functions, load/store…)
//! shared  the busiest SM's shared-memory wavefronts, one a clock
//! serial  the longest warp's instructions, one a clock (a warp issues one at a time)
//! l2      sectors between the SMs and L2 over L2's bandwidth
//! dram    bytes between L2 and DRAM over DRAM's sustained bandwidth, where DRAM bytes are the
//!         launch's distinct sectors loaded plus those stored (a cold L2 that keeps everything
//!         the launch touches), plus, when that footprint exceeds L2, the repeated sector
//!         accesses in proportion to the part of the footprint L2 cannot hold
//! ```
//! The busiest SM gets ceil(blocks / SMs) of the grid's blocks, each an equal share of the work.

use super::footprint::FootprintSummary;
use super::Counters;
use crate::program::ISSUE_CLASSES;

#[derive(Clone, Debug, PartialEq)]
pub struct DeviceModel {
    pub name: &'static str,
    pub description: &'static str,
    pub sms: u32,
    pub clock_hz: f64,
    /// Warp instructions an SM issues per clock (its warp schedulers).
    pub issue_per_sm: f64,
    /// Lanes per clock per SM of each issue class (`program::IssueClass` order: fp32, fp64,
    /// int, sfu, mem, control).
    pub lanes_per_clock: [f64; ISSUE_CLASSES],
    /// DRAM bandwidth: the datasheet's peak, and what the model uses, sustained (what STREAM
    /// reaches), in bytes per second.
    pub dram_peak_bw: f64,
    pub dram_bw: f64,
    pub l2_bytes: u64,
    pub l2_bw: f64,
    pub launch_overhead_s: f64,
    pub max_warps_per_sm: u32,
    pub max_blocks_per_sm: u32,
    pub shared_per_sm: u64,
}

const H100_SM: [f64; ISSUE_CLASSES] = [128.0, 64.0, 64.0, 16.0, 32.0, 32.0];
const A100_SM: [f64; ISSUE_CLASSES] = [64.0, 32.0, 64.0, 16.0, 32.0, 32.0];

/// The models `PTXSIM_MODEL` names.
pub const MODELS: &[DeviceModel] = &[
    DeviceModel {
        name: "h100-sxm",
        description: "NVIDIA H100 SXM5 80GB (HBM3)",
        sms: 132,
        clock_hz: 1.98e9,
        issue_per_sm: 4.0,
        lanes_per_clock: H100_SM,
        dram_peak_bw: 3.35e12,
        dram_bw: 3.0e12,
        l2_bytes: 50 << 20,
        l2_bw: 5.5e12,
        launch_overhead_s: 2.0e-6,
        max_warps_per_sm: 64,
        max_blocks_per_sm: 32,
        shared_per_sm: 228 << 10,
    },
    DeviceModel {
        name: "h200",
        description: "NVIDIA H200 SXM 141GB (HBM3e)",
        sms: 132,
        clock_hz: 1.98e9,
        issue_per_sm: 4.0,
        lanes_per_clock: H100_SM,
        dram_peak_bw: 4.8e12,
        dram_bw: 4.3e12,
        l2_bytes: 50 << 20,
        l2_bw: 5.5e12,
        launch_overhead_s: 2.0e-6,
        max_warps_per_sm: 64,
        max_blocks_per_sm: 32,
        shared_per_sm: 228 << 10,
    },
    DeviceModel {
        name: "a100",
        description: "NVIDIA A100 SXM4 80GB (HBM2e)",
        sms: 108,
        clock_hz: 1.41e9,
        issue_per_sm: 4.0,
        lanes_per_clock: A100_SM,
        dram_peak_bw: 2.039e12,
        dram_bw: 1.8e12,
        l2_bytes: 40 << 20,
        l2_bw: 4.0e12,
        launch_overhead_s: 2.5e-6,
        max_warps_per_sm: 64,
        max_blocks_per_sm: 32,
        shared_per_sm: 164 << 10,
    },
    DeviceModel {
        name: "v100",
        description: "NVIDIA V100 SXM2 32GB (HBM2)",
        sms: 80,
        clock_hz: 1.53e9,
        issue_per_sm: 4.0,
        lanes_per_clock: A100_SM,
        dram_peak_bw: 0.9e12,
        dram_bw: 0.8e12,
        l2_bytes: 6 << 20,
        l2_bw: 2.1e12,
        launch_overhead_s: 3.0e-6,
        max_warps_per_sm: 64,
        max_blocks_per_sm: 32,
        shared_per_sm: 96 << 10,
    },
];

/// The model `PTXSIM_MODEL` uses when unset.
pub const DEFAULT_MODEL: &str = "h100-sxm";

/// Where the estimated time of a launch goes (seconds; for several launches, summed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Estimate {
    pub issue_s: f64,
    pub shared_s: f64,
    pub serial_s: f64,
    pub l2_s: f64,
    pub dram_s: f64,
    pub overhead_s: f64,
    /// The longest of the others, plus the overhead.
    pub time_s: f64,
}

impl Estimate {
    pub fn add(&mut self, o: &Estimate) {
        self.issue_s += o.issue_s;
        self.shared_s += o.shared_s;
        self.serial_s += o.serial_s;
        self.l2_s += o.l2_s;
        self.dram_s += o.dram_s;
        self.overhead_s += o.overhead_s;
        self.time_s += o.time_s;
    }
}

/// The shape of a launch.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub blocks: u64,
    pub threads_per_block: u32,
    /// Shared memory per block (static and dynamic), bytes.
    pub shared_per_block: u64,
}

impl DeviceModel {
    pub fn named(name: &str) -> Result<&'static DeviceModel, String> {
        MODELS.iter().find(|m| m.name == name).ok_or_else(|| {
            let names: Vec<&str> = MODELS.iter().map(|m| m.name).collect();
            format!(
                "PTXSIM_MODEL={name} is not a device model ptxsim knows; use one of {}",
                names.join(", ")
            )
        })
    }

    /// Blocks of this shape one SM keeps resident (threads, blocks and shared memory limit
    /// it; registers are not modelled), at least 1.
    pub fn resident_blocks(&self, s: &Shape) -> u32 {
        let warps = s.threads_per_block.div_ceil(32).max(1);
        let by_warps = self.max_warps_per_sm / warps;
        let by_shared = self
            .shared_per_sm
            .checked_div(s.shared_per_block)
            .map_or(u32::MAX, |n| n.min(u32::MAX as u64) as u32);
        by_warps.min(by_shared).min(self.max_blocks_per_sm).max(1)
    }

    /// Theoretical occupancy: resident warps over the most an SM holds.
    pub fn occupancy(&self, s: &Shape) -> f64 {
        let warps = s.threads_per_block.div_ceil(32).max(1);
        ((self.resident_blocks(s) * warps) as f64 / self.max_warps_per_sm as f64).min(1.0)
    }

    /// Bytes between L2 and DRAM for a launch with this footprint (see the top of the file).
    pub fn dram_bytes(&self, f: &FootprintSummary) -> u64 {
        let mut bytes = 32.0 * (f.loaded + f.stored) as f64;
        let footprint = 32.0 * f.touched as f64;
        if footprint > self.l2_bytes as f64 {
            let repeated = f.accesses.saturating_sub(f.touched) as f64;
            bytes += 32.0 * repeated * (1.0 - self.l2_bytes as f64 / footprint);
        }
        bytes as u64
    }

    pub fn estimate(&self, c: &Counters, dram_bytes: u64, s: &Shape) -> Estimate {
        let blocks = s.blocks.max(1) as f64;
        // The busiest SM's share of the work.
        let share = (s.blocks.max(1).div_ceil(self.sms as u64)) as f64 / blocks;
        let mut cycles = c.issue_slots as f64 / self.issue_per_sm;
        for (n, lanes) in c.class_slots.iter().zip(&self.lanes_per_clock) {
            cycles = cycles.max(*n as f64 * 32.0 / lanes);
        }
        let mut e = Estimate {
            issue_s: cycles * share / self.clock_hz,
            shared_s: c.shared_wavefronts as f64 * share / self.clock_hz,
            serial_s: c.longest_warp as f64 / self.clock_hz,
            l2_s: c.l2_sectors() as f64 * 32.0 / self.l2_bw,
            dram_s: dram_bytes as f64 / self.dram_bw,
            overhead_s: self.launch_overhead_s,
            time_s: 0.0,
        };
        e.time_s = [e.issue_s, e.shared_s, e.serial_s, e.l2_s, e.dram_s]
            .into_iter()
            .fold(0.0, f64::max)
            + e.overhead_s;
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_model_exists_and_unknown_names_are_refused() {
        assert_eq!(DeviceModel::named(DEFAULT_MODEL).unwrap().sms, 132);
        let e = DeviceModel::named("h1000").unwrap_err();
        assert!(e.contains("h100-sxm, h200, a100, v100"), "{e}");
    }

    #[test]
    fn occupancy_from_threads_and_shared_memory() {
        let m = DeviceModel::named("h100-sxm").unwrap();
        let shape = |t, sh| Shape {
            blocks: 1000,
            threads_per_block: t,
            shared_per_block: sh,
        };
        assert_eq!(m.occupancy(&shape(256, 0)), 1.0);
        // 32 blocks of one warp at most: half the warps.
        assert_eq!(m.occupancy(&shape(32, 0)), 0.5);
        // 100 KiB of shared memory per block: 2 blocks of 8 warps.
        assert_eq!(m.occupancy(&shape(256, 100 << 10)), 0.25);
    }

    #[test]
    fn dram_bytes_beyond_l2_count_repeated_accesses() {
        let m = DeviceModel::named("v100").unwrap();
        let fits = FootprintSummary {
            loaded: 1000,
            stored: 10,
            touched: 1000,
            accesses: 5000,
        };
        assert_eq!(m.dram_bytes(&fits), 32 * 1010);
        // Twice L2's size, every sector read twice: half the second reads miss.
        let sectors = 2 * m.l2_bytes / 32;
        let big = FootprintSummary {
            loaded: sectors,
            stored: 0,
            touched: sectors,
            accesses: 2 * sectors,
        };
        assert_eq!(m.dram_bytes(&big), 32 * sectors + 32 * sectors / 2);
    }

    #[test]
    fn time_is_the_longest_limit_plus_overhead() {
        let m = DeviceModel::named("h100-sxm").unwrap();
        let c = Counters {
            warp_instructions: 4 * 1_980_000,
            class_instructions: [0, 0, 4 * 1_980_000, 0, 0, 0],
            issue_slots: 4 * 1_980_000,
            class_slots: [0, 0, 4 * 1_980_000, 0, 0, 0],
            ..Counters::default()
        };
        let s = Shape {
            blocks: 132,
            threads_per_block: 32,
            shared_per_block: 0,
        };
        // Int instructions: 2 warp instructions a clock per SM, one block per SM.
        let e = m.estimate(&c, 0, &s);
        let expect = 4.0 * 1_980_000.0 / 2.0 / 132.0 / 1.98e9;
        assert!((e.issue_s - expect).abs() < 1e-12, "{e:?}");
        assert!((e.time_s - expect - 2e-6).abs() < 1e-12);
        // 3 GB at 3 TB/s: a millisecond.
        let e = m.estimate(&c, 3_000_000_000, &s);
        assert!((e.time_s - 1e-3 - 2e-6).abs() < 1e-9, "{e:?}");
    }
}

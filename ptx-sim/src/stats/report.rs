//! The counters of each kernel at exit: the `PTXSIM_STATS=1` table on stderr, or the
//! `PTXSIM_STATS=json:PATH` document:
//!
//! ```text
//! {"model": {"name": "h100-sxm", "sms": 132, …},
//!  "kernels": [{"name": "k", "launches": 1, "thread_instructions": …, "est_time_s": …}, …]}
//! ```

use super::model::DeviceModel;
use super::LaunchStats;
use std::fmt::Write;

/// One kernel's launches, summed.
#[derive(Clone, Debug, Default)]
pub struct KernelRecord {
    pub name: String,
    /// The simulated device it ran on (`PTXSIM_DEVICES=N`): one record per kernel and device.
    pub device: usize,
    pub launches: u64,
    /// Seconds the simulation took (host time).
    pub sim_seconds: f64,
    pub stats: LaunchStats,
    /// Where each basic block of its program lies, for the profile (`PTXSIM_PROFILE`; empty
    /// without one).
    pub spans: Vec<super::profile::BlockSpan>,
}

fn json_string(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A float as JSON allows (no NaN or infinity).
fn json_f64(v: f64) -> String {
    if v.is_finite() {
        format!("{v:e}")
    } else {
        "null".into()
    }
}

/// Copies within device memory (`cuMemcpyDtoD`), all devices together: the model's estimate of
/// each is its bytes read and written at the DRAM bandwidth.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DeviceCopies {
    pub count: u64,
    pub bytes: u64,
    pub est_time_s: f64,
}

pub fn json(model: &DeviceModel, kernels: &[KernelRecord], copies: &DeviceCopies) -> String {
    let m = model;
    let mut o = String::new();
    let classes = m
        .lanes_per_clock
        .iter()
        .map(|v| json_f64(*v))
        .collect::<Vec<_>>()
        .join(", ");
    let _ = write!(
        o,
        "{{\"model\": {{\"name\": {}, \"description\": {}, \"sms\": {}, \"clock_hz\": {}, \
         \"issue_per_sm_per_clock\": {}, \"lanes_per_sm_per_clock\": {{\"classes\": \
         [\"fp32\", \"fp64\", \"int\", \"sfu\", \"mem\", \"control\"], \"lanes\": [{classes}]}}, \
         \"dram_peak_bytes_per_s\": {}, \"dram_bytes_per_s\": {}, \"l2_bytes\": {}, \
         \"l2_bytes_per_s\": {}, \"launch_overhead_s\": {}, \"max_warps_per_sm\": {}, \
         \"max_blocks_per_sm\": {}, \"shared_bytes_per_sm\": {}}},\n \"kernels\": [",
        json_string(m.name),
        json_string(m.description),
        m.sms,
        json_f64(m.clock_hz),
        json_f64(m.issue_per_sm),
        json_f64(m.dram_peak_bw),
        json_f64(m.dram_bw),
        m.l2_bytes,
        json_f64(m.l2_bw),
        json_f64(m.launch_overhead_s),
        m.max_warps_per_sm,
        m.max_blocks_per_sm,
        m.shared_per_sm
    );
    for (i, k) in kernels.iter().enumerate() {
        let c = &k.stats.counters;
        let e = &k.stats.estimate;
        let _ = write!(
            o,
            "{}\n  {{\"name\": {}, \"device\": {}, \"launches\": {}, \"thread_instructions\": {}, \
             \"warp_instructions\": {}, \"issue_slots\": {}, \"global_load_requests\": {}, \
             \"global_store_requests\": {}, \"global_load_sectors\": {}, \
             \"global_store_sectors\": {}, \"dram_bytes\": {}, \"shared_requests\": {}, \
             \"shared_bank_conflicts\": {}, \"atomics\": {}, \"atomic_sectors\": {}, \
             \"local_sectors\": {}, \"active_lanes_per_warp_instruction\": {}, \
             \"occupancy\": {}, \"est_time_s\": {}, \"est_issue_s\": {}, \"est_shared_s\": {}, \
             \"est_serial_s\": {}, \"est_l2_s\": {}, \"est_dram_s\": {}, \"est_overhead_s\": {}, \
             \"sim_seconds\": {}}}",
            if i == 0 { "" } else { "," },
            json_string(&k.name),
            k.device,
            k.launches,
            c.thread_instructions,
            c.warp_instructions,
            c.issue_slots,
            c.global_load_requests,
            c.global_store_requests,
            c.global_load_sectors,
            c.global_store_sectors,
            k.stats.dram_bytes,
            c.shared_requests,
            c.shared_bank_conflicts,
            c.atomics,
            c.atomic_sectors,
            c.local_sectors,
            json_f64(c.active_lanes()),
            json_f64(k.stats.occupancy),
            json_f64(e.time_s),
            json_f64(e.issue_s),
            json_f64(e.shared_s),
            json_f64(e.serial_s),
            json_f64(e.l2_s),
            json_f64(e.dram_s),
            json_f64(e.overhead_s),
            json_f64(k.sim_seconds),
        );
    }
    let _ = write!(
        o,
        "\n ],\n \"device_copies\": {{\"count\": {}, \"bytes\": {}, \"est_time_s\": {}}}}}\n",
        copies.count,
        copies.bytes,
        json_f64(copies.est_time_s)
    );
    o
}

/// The table `PTXSIM_STATS=1` prints (each line starts with `ptxsim: `).
pub fn table(model: &DeviceModel, kernels: &[KernelRecord]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "ptxsim: {:<40} {:>8} {:>14} {:>12} {:>6} {:>10} {:>10} {:>12} {:>8} {:>8} {:>5} {:>12} {:>9}",
        "kernel",
        "launches",
        "instructions",
        "warp_insts",
        "lanes",
        "ld_sectors",
        "st_sectors",
        "dram_bytes",
        "bank_cf",
        "atomics",
        "occ",
        "est_seconds",
        "seconds"
    );
    for k in kernels {
        let c = &k.stats.counters;
        let name = if k.device == 0 {
            k.name.clone()
        } else {
            format!("{} @{}", k.name, k.device)
        };
        let _ = writeln!(
            o,
            "ptxsim: {:<40} {:>8} {:>14} {:>12} {:>6.2} {:>10} {:>10} {:>12} {:>8} {:>8} {:>5.2} {:>12.3e} {:>9.3}",
            name,
            k.launches,
            c.thread_instructions,
            c.warp_instructions,
            c.active_lanes(),
            c.global_load_sectors,
            c.global_store_sectors,
            k.stats.dram_bytes,
            c.shared_bank_conflicts,
            c.atomics,
            k.stats.occupancy,
            k.stats.estimate.time_s,
            k.sim_seconds
        );
    }
    let _ = writeln!(
        o,
        "ptxsim: estimates for {} ({}); see ptx-sim/README.md for the model",
        model.name, model.description
    );
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_names_and_lists_kernels() {
        let m = DeviceModel::named("h100-sxm").unwrap();
        let k = KernelRecord {
            name: "a\"b".into(),
            launches: 2,
            ..KernelRecord::default()
        };
        let copies = DeviceCopies {
            count: 2,
            bytes: 4096,
            est_time_s: 1.5e-6,
        };
        let j = json(m, &[k.clone(), k], &copies);
        assert!(
            j.contains("\"name\": \"a\\\"b\", \"device\": 0, \"launches\": 2"),
            "{j}"
        );
        assert!(j.starts_with("{\"model\": {\"name\": \"h100-sxm\""));
        // Two kernels, and the device copies.
        assert_eq!(j.matches("\"est_time_s\"").count(), 3);
        assert!(
            j.contains(
                "\"device_copies\": {\"count\": 2, \"bytes\": 4096, \"est_time_s\": 0.0000015}"
            ) || j.contains(
                "\"device_copies\": {\"count\": 2, \"bytes\": 4096, \"est_time_s\": 1.5e-6}"
            ),
            "{j}"
        );
    }
}

/// Where the counters go at exit (`PTXSIM_STATS`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// `1`: the table, on stderr.
    Table,
    /// `json:PATH`: the JSON document, written to PATH.
    Json(std::path::PathBuf),
}

impl Output {
    /// The output a value of `PTXSIM_STATS` asks for: None for unset, empty or `0`.
    pub fn parse(value: Option<&str>) -> Result<Option<Output>, String> {
        match value {
            None | Some("") | Some("0") => Ok(None),
            Some("1") => Ok(Some(Output::Table)),
            Some(v) => match v.strip_prefix("json:") {
                Some(path) if !path.is_empty() => Ok(Some(Output::Json(path.into()))),
                _ => Err(format!(
                    "PTXSIM_STATS={v} is not understood: use 1 (a table on stderr at exit) or json:PATH (a JSON document)"
                )),
            },
        }
    }

    /// Writes the kernels' counters where this output says.
    pub fn write(
        &self,
        model: &DeviceModel,
        kernels: &[KernelRecord],
        copies: &DeviceCopies,
    ) -> Result<(), String> {
        match self {
            Output::Table => {
                eprint!("{}", table(model, kernels));
                Ok(())
            }
            Output::Json(path) => std::fs::write(path, json(model, kernels, copies))
                .map_err(|e| format!("cannot write PTXSIM_STATS to {}: {e}", path.display())),
        }
    }
}

#[cfg(test)]
mod output_tests {
    use super::*;

    #[test]
    fn settings() {
        assert_eq!(Output::parse(None), Ok(None));
        assert_eq!(Output::parse(Some("0")), Ok(None));
        assert_eq!(Output::parse(Some("1")), Ok(Some(Output::Table)));
        assert_eq!(
            Output::parse(Some("json:/tmp/s.json")),
            Ok(Some(Output::Json("/tmp/s.json".into())))
        );
        assert!(Output::parse(Some("json:")).is_err());
        assert!(Output::parse(Some("yes"))
            .unwrap_err()
            .contains("json:PATH"));
    }
}

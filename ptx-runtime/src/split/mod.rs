//! Splitting one loop over several devices (issue 19): the run-time settings and the static
//! block split of an iteration space.
//!
//! `partition` cuts the iterations `[0, trips)` into one contiguous block per device, sized by
//! the devices' weights (`PTXRT_DEVICE_WEIGHTS=2,1,1`: device 0 takes half; equal by default),
//! in device order. The blocks are the same every run for the same trip count and weights, so
//! results (reductions combined in device order included) are too. `PTXRT_SPLIT=off` turns
//! splitting off.
//!
//! `launch.rs` runs a kernel that `-fptxcc-multi-device` made splittable over every device;
//! the coherence directory that will let split loops share data regions is `coherence/`.
//! `access_maps.rs` maps the pointers an offloaded `parallel for` reaches without an extent by
//! the kernel's access ranges over the whole loop, on one device or split. `bystanders.rs`
//! leaves out what a construct maps but its kernel cannot reach.

pub(crate) mod access_maps;
mod bystanders;
pub mod combine;
pub(crate) mod hybrid;
pub(crate) mod launch;
mod part_data;
pub mod ranges;
#[cfg(test)]
mod ranges_tests;
mod spread;
#[cfg(test)]
mod tests;
pub mod tune;

use std::ops::Range;

/// `PTXRT_SPLIT`: whether loops compiled for several devices are split at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitMode {
    /// Split over every device (the default).
    On,
    /// Run each loop on the construct's device alone.
    Off,
}

impl SplitMode {
    pub fn parse(v: Option<&str>) -> Result<SplitMode, String> {
        match v.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
            None | Some("") | Some("on") | Some("1") => Ok(SplitMode::On),
            Some("off") | Some("0") => Ok(SplitMode::Off),
            Some(other) => Err(format!(
                "PTXRT_SPLIT={other:?} is not on or off; set PTXRT_SPLIT=off to run each loop on one device"
            )),
        }
    }
}

/// `PTXRT_DEVICE_WEIGHTS=w0,w1,...`: one non-negative weight per device (a device of weight 0
/// takes no iterations), at least one positive; None (unset): equal weights.
pub fn parse_weights(v: Option<&str>, devices: usize) -> Result<Vec<u64>, String> {
    let Some(v) = v.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(vec![1; devices]);
    };
    let weights = v
        .split(',')
        .map(|w| w.trim().parse::<u64>())
        .collect::<Result<Vec<u64>, _>>()
        .map_err(|_| {
            format!("PTXRT_DEVICE_WEIGHTS={v:?} is not a list of whole numbers (e.g. 2,1,1)")
        })?;
    if weights.len() != devices {
        return Err(format!(
            "PTXRT_DEVICE_WEIGHTS={v:?} gives {} weight{} for {devices} device{}: give one per device",
            weights.len(),
            if weights.len() == 1 { "" } else { "s" },
            if devices == 1 { "" } else { "s" }
        ));
    }
    if weights.iter().all(|&w| w == 0) {
        return Err(format!(
            "PTXRT_DEVICE_WEIGHTS={v:?}: every weight is 0, no device would run the loop"
        ));
    }
    if weights.iter().any(|&w| w > MAX_WEIGHT) {
        return Err(format!(
            "PTXRT_DEVICE_WEIGHTS={v:?}: weights above {MAX_WEIGHT} are not useful"
        ));
    }
    Ok(weights)
}

/// Weights are relative; this keeps `trips * weight` far from overflow.
const MAX_WEIGHT: u64 = 1 << 20;

/// The block of iterations of each device (in device order, contiguous, covering `[0, trips)`):
/// device k starts at `trips * (w0 + ... + w(k-1)) / W`, W the sum of the weights. Rounding
/// down at every boundary spreads the remainder over the devices instead of giving it all to
/// one.
pub fn partition(trips: u64, weights: &[u64]) -> Vec<Range<u64>> {
    let total: u64 = weights.iter().sum();
    if total == 0 {
        return weights.iter().map(|_| 0..0).collect();
    }
    let boundary =
        |prefix: u64| -> u64 { ((trips as u128 * prefix as u128) / total as u128) as u64 };
    let mut prefix = 0;
    weights
        .iter()
        .map(|&w| {
            let start = boundary(prefix);
            prefix += w;
            start..boundary(prefix)
        })
        .collect()
}

/// `x` rounded to the nearest multiple of `unit` (> 0), halves up.
pub fn round_to(x: u64, unit: u64) -> u64 {
    (x + unit / 2) / unit * unit
}

/// The blocks of `partition` with every boundary between two of them moved to the nearest
/// multiple of `unit` (a collapsed loop's outer index: whole planes per part), when every
/// non-empty block can keep at least one unit; otherwise as they are.
pub fn align_blocks(blocks: Vec<Range<u64>>, unit: u64) -> Vec<Range<u64>> {
    let Some(end) = blocks.last().map(|b| b.end) else {
        return blocks;
    };
    let parts = blocks.iter().filter(|b| !b.is_empty()).count() as u64;
    if unit <= 1 || parts == 0 || end / unit < parts {
        return blocks;
    }
    let round = |b: u64| round_to(b, unit).min(end);
    let mut start = blocks[0].start;
    let n = blocks.len();
    blocks
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let stop = if k + 1 == n {
                end
            } else {
                round(b.end).max(start)
            };
            let r = start..stop;
            start = stop;
            r
        })
        .collect()
}

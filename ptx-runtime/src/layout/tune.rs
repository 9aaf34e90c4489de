//! Whether a launch runs in the layout -fptxcc-layout=auto chose, decided by what the layout
//! measured to cost and gain on this device (`PTXRT_LAYOUT_AUTO`).
//!
//! The compiler cannot know whether a layout pays: the gain is the launches' memory traffic
//! saved, which depends on run-time trip counts and on the device's caches, and the cost is the
//! conversions, two per switch, which depend on the array's size and on how often kernels that
//! want the other layout run between. NPB's BT (class S, ptxsim's H100 model) gains 0.9% in its
//! kernels and loses 5.6% in conversions. So auto's layouts start unconverted (`begin` is lazy)
//! and every kernel that has a version compiled for the layout (passes/src/layout/versions.rs)
//! is a choice made at its launch:
//!
//! * a kernel's launches in each state are timed (`Pair`: the mean seconds of the original
//!   kernel and of its version); the state it is in is measured first, and the other is tried
//!   once the launches since the region began took longer than two conversions (what the other
//!   state could save, at best, is all of their time), so a pair costs at most one switch to
//!   learn, and a region whose launches are short beside its conversions never pays for one;
//! * once both are known, the launch stays in the current state while the other is not
//!   better, and switches when the time the other would have saved, summed over the launches
//!   since the last switch, exceeds the conversions of the arrays it switches (the way there
//!   and, unless the copies die in the state it goes to, the way back: `Switch`): rent or buy,
//!   so a layout never costs more than twice what the best fixed choice would, plus a launch
//!   (`Pair::choose`);
//! * conversions are timed too, per layout (`conversion`).
//!
//! Times are the device's modelled clock where it has one (ptxsim with PTXSIM_STATS:
//! deterministic, the H100 model's estimate), else the host's clock around the synchronous
//! launch (a GPU). `PTXRT_LAYOUT_AUTO=always` converts at the region's start and runs every
//! version that fits, as the layouts did before this tuning (the study's "auto, forced" rows);
//! `never` keeps auto's arrays in their original layout.
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// `PTXRT_LAYOUT_AUTO`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Measure and choose (the default).
    Tune,
    /// Convert at the region's start; every launch whose version fits runs it.
    Always,
    /// Never convert for a kernel that has an original to run.
    Never,
}

impl Policy {
    pub fn parse(v: Option<&str>) -> Result<Policy, String> {
        match v.map(str::trim).unwrap_or("") {
            "" | "tune" => Ok(Policy::Tune),
            "always" => Ok(Policy::Always),
            "never" => Ok(Policy::Never),
            other => Err(format!(
                "PTXRT_LAYOUT_AUTO={other:?} is not one of tune (measure whether each layout \
                 -fptxcc-layout=auto chose pays, the default), always (use them) or never (keep \
                 the original layouts)"
            )),
        }
    }
}

/// The policy of this process (read once; a bad value stops the program with the message).
pub fn policy() -> Policy {
    static P: OnceLock<Policy> = OnceLock::new();
    *P.get_or_init(|| {
        Policy::parse(std::env::var("PTXRT_LAYOUT_AUTO").ok().as_deref())
            .unwrap_or_else(|m| crate::errors::fatal(&m))
    })
}

/// Mean seconds of a set of launches.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Mean {
    sum: f64,
    count: u64,
}

impl Mean {
    pub fn add(&mut self, seconds: f64) {
        self.sum += seconds.max(0.0);
        self.count += 1;
    }

    pub fn get(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }

    /// How many launches were measured.
    pub fn count(&self) -> u64 {
        self.count
    }
}

/// One kernel and its layout version: their launches' times, and the time the state not
/// taken would have saved since the last switch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pair {
    pub original: Mean,
    pub version: Mean,
    regret: f64,
    /// The layout instances (`Active::serial`) the regret was gathered in: a region's end
    /// converts back whatever its launches converted, so only savings within one run of the
    /// region pay for a switch.
    since: Vec<u64>,
}

impl Pair {
    /// Whether the next launch runs the version, the layouts it needs being `converted` now
    /// (all of them) or not, a switch costing `switch` (its conversions).
    pub fn choose(&mut self, converted: bool, switch: Switch, instances: &[u64]) -> bool {
        if self.since != instances {
            self.since = instances.to_vec();
            self.regret = 0.0;
        }
        let (current, other) = if converted {
            (self.version.get(), self.original.get())
        } else {
            (self.original.get(), self.version.get())
        };
        let (saved, cost) = match (current, other) {
            // Measure the state it is in first.
            (None, _) => return converted,
            // The other state not yet tried could at best take no time at all: try it once
            // that best case would have paid for the way there and back (a region whose
            // launches are short beside the conversions never tries it). Back even where the
            // copy would die in the other state: the other may prove slower.
            (Some(c), None) => (c, 2.0 * switch.there),
            (Some(c), Some(o)) => (c - o, switch.there + switch.back),
        };
        self.regret = (self.regret + saved).max(0.0);
        if self.regret > cost {
            self.regret = 0.0;
            !converted
        } else {
            converted
        }
    }

    pub fn record(&mut self, version: bool, seconds: f64) {
        if version {
            self.version.add(seconds);
        } else {
            self.original.add(seconds);
        }
    }
}

/// What a switch between a kernel's two states costs: the conversions into the other state
/// (`there`), and those out of it again (`back`: 0 where the copies would die in it, a region
/// that frees them as they are, `layout::way_back_free`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Switch {
    pub there: f64,
    pub back: f64,
}

#[derive(Default)]
struct Tuning {
    /// By (kernel, version) region ids.
    pairs: HashMap<(usize, usize), Pair>,
    /// One conversion of a layout, by the region's `file:line:col` and the array's name.
    conversions: HashMap<String, HashMap<String, Mean>>,
}

fn tuning() -> std::sync::MutexGuard<'static, Tuning> {
    static T: OnceLock<Mutex<Tuning>> = OnceLock::new();
    T.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

/// A launch whose state the tuning chose: record its time after it ran (`launched`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trial {
    pub kernel: usize,
    pub version: usize,
    pub ran_version: bool,
}

/// The tuning's choice for a launch of `kernel` that may run `version`, which needs the active
/// layouts `layouts` (each converted now, or not; with it, whether its copy, converted, dies
/// converted: `layout::way_back_free`), on a device whose memory moves `bandwidth` bytes a
/// second (None: not known).
pub fn choose(
    kernel: usize,
    version: usize,
    layouts: &[(&super::Active, bool)],
    bandwidth: Option<f64>,
) -> bool {
    let converted = layouts.iter().all(|(l, _)| !l.in_original);
    let instances: Vec<u64> = layouts.iter().map(|(l, _)| l.serial).collect();
    let mut t = tuning();
    // A switch converts the layouts not in the state it goes to, each as long as its
    // conversions took, else reading and writing the array at the memory's bandwidth; and
    // converts them back later, unless the switch is to auto's layout and the copy dies in it.
    let mut switch = Switch {
        there: 0.0,
        back: 0.0,
    };
    for &(l, dies_converted) in layouts.iter().filter(|(l, _)| l.in_original != converted) {
        let one_way = t
            .conversions
            .get(l.loc.as_str())
            .and_then(|by_name| by_name.get(l.name.as_str()))
            .and_then(Mean::get)
            .or_else(|| estimated_conversion(l.bytes, bandwidth))
            .unwrap_or(0.0);
        switch.there += one_way;
        if !dies_converted || converted {
            switch.back += one_way;
        }
    }
    t.pairs
        .entry((kernel, version))
        .or_default()
        .choose(converted, switch, &instances)
}

/// What converting `bytes` costs before a conversion was timed: reading and writing them once
/// at the device memory's `bandwidth` (a lower bound: the transpose kernel's launch and its
/// imperfect coalescing come on top, so the tuning may try a state earlier than it pays, never
/// later).
pub fn estimated_conversion(bytes: u64, bandwidth: Option<f64>) -> Option<f64> {
    bandwidth
        .filter(|b| *b > 0.0)
        .map(|b| 2.0 * bytes as f64 / b)
}

/// A serial number for a layout's instance (each `begin`).
pub fn next_instance() -> u64 {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// After a launch `trial` chose: it took `seconds`.
pub fn launched(trial: Trial, seconds: f64) {
    tuning()
        .pairs
        .entry((trial.kernel, trial.version))
        .or_default()
        .record(trial.ran_version, seconds);
}

/// A conversion of the layout of `name` (region `loc`) took `seconds`.
pub fn conversion(loc: &str, name: &str, seconds: f64) {
    tuning()
        .conversions
        .entry(loc.to_string())
        .or_default()
        .entry(name.to_string())
        .or_default()
        .add(seconds);
}

/// How long some device work took: by the device's modelled clock where it has one
/// (`modeled`), else by the host's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elapsed {
    pub seconds: f64,
    pub modeled: bool,
}

/// Runs `f` (work on `device` that has finished when it returns) and says how long it took.
pub fn timed<R>(device: &dyn crate::device::Device, f: impl FnOnce() -> R) -> (R, Elapsed) {
    let modeled = device.modeled_clock();
    let wall = std::time::Instant::now();
    let r = f();
    let elapsed = match (modeled, device.modeled_clock()) {
        (Some(a), Some(b)) => Elapsed {
            seconds: b - a,
            modeled: true,
        },
        _ => Elapsed {
            seconds: wall.elapsed().as_secs_f64(),
            modeled: false,
        },
    };
    (r, elapsed)
}

/// What the tuning learned of (kernel, version).
#[cfg(test)]
pub fn pair(kernel: usize, version: usize) -> Option<Pair> {
    tuning().pairs.get(&(kernel, version)).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `runs` runs of a region of `n` launches each of one pair whose version takes `v`
    /// seconds and original `o`, a conversion `c`, the region's end converting back (unless
    /// `dies_converted`: the copy is freed as it is, `choose`'s `back_free`); returns
    /// (launches in the version, seconds spent with conversions).
    fn run_regions_ending(
        runs: u64,
        n: usize,
        o: f64,
        v: f64,
        c: f64,
        dies_converted: bool,
    ) -> (u64, f64) {
        let mut p = Pair::default();
        let mut spent = 0.0;
        for instance in 1..=runs {
            let mut converted = false; // begin is lazy
            for _ in 0..n {
                // What `choose` passes: the way back free to the version of a copy that dies.
                let switch = Switch {
                    there: c,
                    back: if dies_converted && !converted { 0.0 } else { c },
                };
                let use_version = p.choose(converted, switch, &[instance]);
                if use_version != converted {
                    spent += c;
                    converted = use_version;
                }
                let t = if use_version { v } else { o };
                p.record(use_version, t);
                spent += t;
            }
            if converted && !dies_converted {
                spent += c; // back at the region's end
            }
        }
        (p.version.count(), spent)
    }

    fn run_regions(runs: u64, n: usize, o: f64, v: f64, c: f64) -> (u64, f64) {
        run_regions_ending(runs, n, o, v, c, false)
    }

    fn run(n: usize, o: f64, v: f64, c: f64) -> (u64, f64) {
        run_regions(1, n, o, v, c)
    }

    #[test]
    fn a_layout_that_pays_is_tried_once_the_launches_outweigh_its_conversions() {
        // Launches of 10, conversions of 30: the 8th launch is the first after 7 launches took
        // more than the way there and back (60); the version is kept from then on.
        let (in_version, spent) = run(100, 10.0, 4.0, 30.0);
        assert_eq!(in_version, 93);
        // The best fixed choice (2 conversions and 100 launches of the version), and what
        // waiting for the probe to pay costs: at most the probe's two conversions.
        let best = 100.0 * 4.0 + 60.0;
        assert!(spent <= best + 60.0 + 1e-9, "{spent}");
    }

    #[test]
    fn a_layout_that_saves_less_than_its_conversions_in_a_region_is_tried_once() {
        // BT's case: 60 runs of a region of 12 launches; the version saves 1% and a
        // conversion costs 5 launches. The probe waits for 11 launches (more than two
        // conversions), the version runs once and the region's end converts back; later runs
        // know it does not pay and never convert.
        let (in_version, spent) = run_regions(60, 12, 1.0, 0.99, 5.0);
        assert_eq!(in_version, 1);
        assert!(spent <= 60.0 * 12.0 + 2.0 * 5.0, "{spent}");
    }

    #[test]
    fn a_region_short_beside_its_conversions_never_converts() {
        // Each run's launches take 5 in all, a conversion 10: even a version that took no time
        // could not pay for the way there and back, so it is never tried.
        let (in_version, spent) = run_regions(10, 5, 1.0, 0.1, 10.0);
        assert_eq!(in_version, 0);
        assert_eq!(spent, 50.0);
    }

    #[test]
    fn savings_gathered_in_one_region_run_pay_for_a_switch_in_it() {
        // Launches of 2, conversions of 10: the first run tries the version at its 12th launch
        // (11 launches took more than 20) and keeps it; it saves 1 a launch, so each later
        // run's 21st launch finds the saving past two conversions and runs the version.
        let (in_version, _) = run_regions(3, 100, 2.0, 1.0, 10.0);
        assert_eq!(in_version, (100 - 11) + 2 * (100 - 20));
    }

    #[test]
    fn a_slower_version_is_left_at_once() {
        // Conversions of 0.5: tried at the 3rd launch, left at the 4th.
        let (in_version, _) = run(50, 1.0, 3.0, 0.5);
        assert_eq!(in_version, 1);
    }

    #[test]
    fn a_version_known_to_pay_for_a_copy_that_dies_converted_needs_one_conversion_of_savings() {
        // Launches of 2, 1 in the version, conversions of 10, regions of 100 launches that free
        // the copy as it is. The first run tries the version at its 12th launch (a probe counts
        // the way back: the version might be slower); each later run switches once the savings
        // pass one conversion (at the 11th launch) where a copy converted back at the region's
        // end needs two (the 21st).
        let (in_version, _) = run_regions_ending(3, 100, 2.0, 1.0, 10.0, true);
        assert_eq!(in_version, (100 - 11) + 2 * (100 - 10));
        let (in_version, _) = run_regions_ending(3, 100, 2.0, 1.0, 10.0, false);
        assert_eq!(in_version, (100 - 11) + 2 * (100 - 20));
    }

    #[test]
    fn a_conversion_not_yet_timed_is_estimated_from_the_bandwidth() {
        // 1 GB read and written at 2 TB/s; nothing where the bandwidth is unknown.
        assert_eq!(
            estimated_conversion(1 << 30, Some(2e12)),
            Some(2.0 * (1u64 << 30) as f64 / 2e12)
        );
        assert_eq!(estimated_conversion(1 << 30, None), None);
        assert_eq!(estimated_conversion(1 << 30, Some(0.0)), None);
    }

    #[test]
    fn the_cost_is_at_most_twice_the_best_fixed_choice_and_one_launch() {
        // Every mix of launch times, conversions, region lengths and runs: at most twice what
        // the best fixed choice costs, plus the first launch (which must run somewhere before
        // anything is known).
        for o in [1.0, 2.0, 5.0] {
            for v in [0.1, 0.5, 0.9, 0.99, 1.0, 1.2, 3.0] {
                for c in [0.01, 0.1, 0.5, 1.0, 3.0, 10.0, 100.0] {
                    for n in [1usize, 2, 3, 5, 8, 20, 50, 200] {
                        for (runs, dies) in [1u64, 3, 10]
                            .into_iter()
                            .flat_map(|r| [(r, false), (r, true)])
                        {
                            let (_, spent) = run_regions_ending(runs, n, o, v, c, dies);
                            let r = runs as f64;
                            // Where the copy dies converted the best fixed choice pays one
                            // conversion, which the probe cannot know to be enough (the
                            // version may be slower): the bound is against paying two.
                            let best = r * (n as f64 * o).min(n as f64 * v + 2.0 * c);
                            assert!(
                                spent <= 2.0 * best + v.max(o) + 1e-9,
                                "o {o} v {v} c {c} n {n} runs {runs} dies {dies}: {spent} vs best {best}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn policies_parse() {
        assert_eq!(Policy::parse(None), Ok(Policy::Tune));
        assert_eq!(Policy::parse(Some("always")), Ok(Policy::Always));
        assert_eq!(Policy::parse(Some(" never ")), Ok(Policy::Never));
        let e = Policy::parse(Some("sometimes")).unwrap_err();
        assert!(e.contains("PTXRT_LAYOUT_AUTO=\"sometimes\""), "{e}");
    }
}

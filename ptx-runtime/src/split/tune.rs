//! The host's share of a hybrid loop (`-fptxcc-hybrid`, issue 20), tuned online.
//!
//! Each run of a hybrid loop times both sides: the host part (its copies and the host
//! version's run) and the device parts (copies in, kernels, until the last finished). From the
//! rates they reached, `r_host = n_host / t_host` and `r_dev = n_dev / t_dev`, the share that
//! would have made both finish together is `s* = r_host / (r_host + r_dev)`. The first
//! measurement moves the share to `s*` (the first run is a probe: every processor takes an equal
//! part); later ones move it half way (`s += (s* - s) / 2`), so noise in one run moves the split
//! by half its error while a real change is followed within a few runs. The share stays within
//! `[MIN_SHARE, MAX_SHARE]`, so each side keeps some iterations and goes on being measured.
//!
//! `PTXRT_CPU_WEIGHT=w` fixes the share instead. `PTXRT_TUNING_FILE=path` loads the learned
//! shares at start and saves them at exit (one line per loop: kernel, share, runs, source), as
//! StarPU keeps its performance models between runs.

/// The host's share never goes below this while tuning (it keeps being measured).
pub const MIN_SHARE: f64 = 0.01;
/// … nor above this (the devices keep being measured).
pub const MAX_SHARE: f64 = 0.99;
/// How far one measurement moves the share toward its estimate, after the first.
pub const DAMPING: f64 = 0.5;

/// What is known of one hybrid loop.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    /// The host's share of the iterations in the next run.
    pub share: f64,
    /// Runs measured (with both sides having iterations).
    pub runs: u64,
    /// The last measured run: iterations and seconds of each side.
    pub last: Option<Sample>,
}

/// One run of a hybrid loop, as both sides saw it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub host_iters: u64,
    pub host_s: f64,
    pub device_iters: u64,
    pub device_s: f64,
}

impl Tuning {
    /// A loop not run before: every processor (the host and each device) takes an equal part.
    pub fn first(devices: usize) -> Tuning {
        Tuning {
            share: 1.0 / (devices as f64 + 1.0),
            runs: 0,
            last: None,
        }
    }

    /// The share that would have made both sides of `s` finish together; None when a side had
    /// no iterations (nothing to learn from).
    pub fn balanced_share(s: &Sample) -> Option<f64> {
        if s.host_iters == 0 || s.device_iters == 0 {
            return None;
        }
        // A side measured at zero seconds (a clock too coarse) ran at least as fast as 1 ns.
        let host_rate = s.host_iters as f64 / s.host_s.max(1e-9);
        let device_rate = s.device_iters as f64 / s.device_s.max(1e-9);
        Some(host_rate / (host_rate + device_rate))
    }

    /// Learns from one run.
    pub fn record(&mut self, s: Sample) {
        let Some(target) = Tuning::balanced_share(&s) else {
            return;
        };
        self.share = if self.runs == 0 {
            target
        } else {
            self.share + DAMPING * (target - self.share)
        }
        .clamp(MIN_SHARE, MAX_SHARE);
        self.runs += 1;
        self.last = Some(s);
    }
}

/// `PTXRT_CPU_WEIGHT`: the host's fixed share, 0 (devices only) to 1 (host only).
pub fn parse_cpu_weight(v: Option<&str>) -> Result<Option<f64>, String> {
    let Some(v) = v.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    match v.parse::<f64>() {
        Ok(w) if (0.0..=1.0).contains(&w) => Ok(Some(w)),
        _ => Err(format!(
            "PTXRT_CPU_WEIGHT={v:?} is not a number from 0 (devices only) to 1 (host only); \
             unset it to let the runtime tune the host's share"
        )),
    }
}

/// How many of `trips` iterations the host takes at `share`.
pub fn host_iterations(trips: u64, share: f64) -> u64 {
    ((trips as f64 * share).round() as u64).min(trips)
}

/// One line of a tuning file: `kernel share runs source`.
pub fn format_line(kernel: &str, t: &Tuning, source: &str) -> String {
    format!("{kernel} {} {} {source}", t.share, t.runs)
}

/// Reads a tuning file: kernel → (share, runs). Lines that do not parse are errors (the file
/// is the runtime's own; a damaged one should be deleted, not half-used).
pub fn parse_file(text: &str) -> Result<Vec<(String, Tuning)>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut f = line.split_whitespace();
        let (Some(kernel), Some(share), Some(runs)) = (f.next(), f.next(), f.next()) else {
            return Err(format!(
                "line {}: expected 'kernel share runs source'",
                n + 1
            ));
        };
        let share: f64 = share
            .parse()
            .ok()
            .filter(|s| (0.0..=1.0).contains(s))
            .ok_or_else(|| format!("line {}: share {share:?} is not within 0..1", n + 1))?;
        let runs: u64 = runs
            .parse()
            .map_err(|_| format!("line {}: runs {runs:?} is not a whole number", n + 1))?;
        out.push((
            kernel.to_string(),
            Tuning {
                share,
                runs,
                last: None,
            },
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `runs` iterations of a loop of `trips` iterations on a machine whose host does one
    /// iteration in `host_ns` and whose devices in `dev_ns` (plus `dev_fixed_s` per run), with
    /// multiplicative noise `noise(run)`; returns the shares used.
    fn simulate(
        runs: usize,
        trips: u64,
        host_ns: f64,
        dev_ns: f64,
        dev_fixed_s: f64,
        noise: impl Fn(usize) -> f64,
    ) -> Vec<f64> {
        let mut t = Tuning::first(1);
        let mut shares = Vec::new();
        for r in 0..runs {
            shares.push(t.share);
            let h = host_iterations(trips, t.share);
            let d = trips - h;
            t.record(Sample {
                host_iters: h,
                host_s: h as f64 * host_ns * 1e-9 * noise(r),
                device_iters: d,
                device_s: (d as f64 * dev_ns * 1e-9 + dev_fixed_s) * noise(r + 1),
            });
        }
        shares.push(t.share);
        shares
    }

    fn equalising(host_ns: f64, dev_ns: f64) -> f64 {
        // n_h * host_ns = n_d * dev_ns, n_h + n_d = 1.
        dev_ns / (host_ns + dev_ns)
    }

    #[test]
    fn a_slow_device_moves_the_loop_to_the_host_within_five_runs() {
        let shares = simulate(5, 100_000, 1.0, 300.0, 0.0, |_| 1.0);
        let want = equalising(1.0, 300.0).min(MAX_SHARE);
        assert!(
            (shares[5] - want).abs() <= 0.1 * want,
            "{shares:?} vs {want}"
        );
    }

    #[test]
    fn a_slow_host_moves_the_loop_to_the_devices_within_five_runs() {
        let shares = simulate(5, 100_000, 40.0, 1.0, 0.0, |_| 1.0);
        let want = equalising(40.0, 1.0);
        assert!(
            (shares[5] - want).abs() <= 0.1 * want,
            "{shares:?} vs {want}"
        );
    }

    #[test]
    fn noise_moves_the_share_by_half_of_it_and_it_stays_near() {
        // ±10% noise on each side, in opposite directions in every run (the ratio of the two
        // times is off by up to 22%).
        let shares = simulate(20, 1_000_000, 3.0, 1.0, 0.0, |r| {
            if r % 2 == 0 {
                1.1
            } else {
                0.9
            }
        });
        let want = equalising(3.0, 1.0);
        for s in &shares[5..] {
            assert!((s - want).abs() <= 0.1 * want, "{shares:?} vs {want}");
        }
    }

    #[test]
    fn a_fixed_device_cost_is_learned_too() {
        // 0.2 ms per device run (copies, launch) before its iterations: the share settles where
        // the finish times meet, which is above the rate-only estimate.
        let shares = simulate(10, 100_000, 10.0, 1.0, 0.0002, |_| 1.0);
        let s = shares[10];
        let h = host_iterations(100_000, s) as f64;
        let host_t = h * 10e-9;
        let dev_t = (100_000.0 - h) * 1e-9 + 0.0002;
        assert!(
            (host_t - dev_t).abs() <= 0.1 * host_t.max(dev_t),
            "{shares:?}: host {host_t} s, device {dev_t} s"
        );
    }

    #[test]
    fn the_share_stays_within_its_bounds() {
        let mut t = Tuning::first(2);
        assert!((t.share - 1.0 / 3.0).abs() < 1e-12);
        t.record(Sample {
            host_iters: 10,
            host_s: 1.0,
            device_iters: 10,
            device_s: 0.0,
        });
        assert_eq!(t.share, MIN_SHARE);
        t.record(Sample {
            host_iters: 10,
            host_s: 0.0,
            device_iters: 10,
            device_s: 1e9,
        });
        assert!(t.share > MIN_SHARE && t.share <= MAX_SHARE);
        let before = t.clone();
        t.record(Sample {
            host_iters: 0,
            host_s: 1.0,
            device_iters: 10,
            device_s: 1.0,
        });
        assert_eq!(t, before, "a run without host iterations teaches nothing");
    }

    #[test]
    fn cpu_weight() {
        assert_eq!(parse_cpu_weight(None), Ok(None));
        assert_eq!(parse_cpu_weight(Some(" ")), Ok(None));
        assert_eq!(parse_cpu_weight(Some("0.25")), Ok(Some(0.25)));
        assert_eq!(parse_cpu_weight(Some("1")), Ok(Some(1.0)));
        assert!(parse_cpu_weight(Some("1.5"))
            .unwrap_err()
            .contains("0 (devices only) to 1"));
        assert!(parse_cpu_weight(Some("half")).is_err());
        assert_eq!(host_iterations(10, 0.25), 3);
        assert_eq!(host_iterations(10, 1.0), 10);
        assert_eq!(host_iterations(10, 0.0), 0);
    }

    #[test]
    fn tuning_files_round_trip() {
        let t = Tuning {
            share: 0.75,
            runs: 4,
            last: None,
        };
        let text = format!(
            "# ptxcc\n{}\n",
            format_line("__omp_offloading_1_l5", &t, "a.c:5:1")
        );
        assert_eq!(
            parse_file(&text),
            Ok(vec![("__omp_offloading_1_l5".to_string(), t)])
        );
        assert!(parse_file("k 2 1 a.c").unwrap_err().contains("line 1"));
        assert!(parse_file("k 0.5").is_err());
    }
}

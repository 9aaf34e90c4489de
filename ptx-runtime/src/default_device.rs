//! The default device a program starts with (OpenMP's default-device-var, OpenACC's current
//! device number), chosen once from the environment.
//!
//! In order, the first that applies wins:
//!
//! 1. `ACC_DEVICE_TYPE=host`: the host (device number `num_devices`, OpenMP's initial device);
//! 2. `OMP_DEFAULT_DEVICE=n` (OpenMP 5.2 §21.2.7: sets default-device-var);
//! 3. `ACC_DEVICE_NUM=n` (OpenACC 3.3 §4.2: the default device number);
//! 4. a process started by an MPI launcher: device `local_rank % num_devices`, the local rank
//!    read from the first of [`launcher::LOCAL_RANK`] that is set, so that the ranks of one node
//!    take one device each without a line of code;
//! 5. device 0.
//!
//! Both specifications leave the initial value implementation-defined when their variable is not
//! set, so 4 changes nothing they document; an explicit `acc_set_device_num`,
//! `omp_set_default_device` or `device(n)` still wins at run time. A value that is not a number
//! is ignored with a warning (the next rule applies).
//!
//! `choose` is a pure function of the variables and the device count (unit-tested below);
//! `runtime.rs` calls it once with the process environment and `PTXRT_DEBUG=1` prints its reason.

use crate::launcher::{self, Rank};
use std::fmt;

/// The process's place on its node (its local rank and the ranks on the node), as its MPI
/// launcher said.
pub type LocalRank = Rank;

/// Why the default device is what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// `ACC_DEVICE_TYPE=host`.
    AccHost,
    /// `OMP_DEFAULT_DEVICE` or `ACC_DEVICE_NUM`.
    Variable(&'static str),
    /// The launcher's local rank modulo the number of devices.
    LocalRank { local: LocalRank, devices: usize },
    /// Nothing chose one: the first device.
    First,
}

/// The default device and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub number: i32,
    pub source: Source,
    /// A variable was set to something unusable (the choice went on without it).
    pub warnings: Vec<String>,
    /// The process's local rank, when an MPI launcher started it (whatever chose the device).
    pub local_rank: Option<LocalRank>,
}

impl Choice {
    /// The default device was bound to this process's MPI rank and other ranks share the node:
    /// each rank owns its device, so loops are not split over the others' (`split/launch.rs`).
    pub fn rank_bound(&self) -> Option<&LocalRank> {
        match &self.source {
            Source::LocalRank { local, .. } if local.size != Some(1) => Some(local),
            _ => None,
        }
    }
}

impl fmt::Display for Choice {
    /// "default device 1: OMPI_COMM_WORLD_LOCAL_RANK=1 (Open MPI local rank), 1 % 2 devices".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.source {
            Source::AccHost => write!(f, "default device: the host (ACC_DEVICE_TYPE=host)"),
            Source::Variable(name) => write!(f, "default device {}: {name}", self.number),
            Source::LocalRank { local, devices } => write!(
                f,
                "default device {}: {}={} (MPI local rank{}), {} % {devices} device{}",
                self.number,
                local.variable,
                local.rank,
                match local.size {
                    Some(n) => format!(" of {n} on this node"),
                    None => String::new(),
                },
                local.rank,
                if *devices == 1 { "" } else { "s" }
            ),
            Source::First => {
                write!(
                    f,
                    "default device {}: none of OMP_DEFAULT_DEVICE, ACC_DEVICE_NUM or an MPI \
                     launcher's local rank is set",
                    self.number
                )
            }
        }
    }
}

/// The default device for a process whose environment `lookup` reads, with `num_devices`
/// devices (the host is number `num_devices`).
pub fn choose(lookup: &dyn Fn(&str) -> Option<String>, num_devices: usize) -> Choice {
    let mut warnings = Vec::new();
    let local = launcher::find(launcher::LOCAL_RANK, lookup, &mut warnings);
    let acc_host =
        launcher::value(lookup, "ACC_DEVICE_TYPE").is_some_and(|v| v.eq_ignore_ascii_case("host"));
    let choice = |number: i32, source: Source, warnings: Vec<String>| Choice {
        number,
        source,
        warnings,
        local_rank: local,
    };
    if acc_host {
        return choice(num_devices as i32, Source::AccHost, warnings);
    }
    for name in ["OMP_DEFAULT_DEVICE", "ACC_DEVICE_NUM"] {
        let Some(v) = launcher::value(lookup, name) else {
            continue;
        };
        match v.parse::<i32>() {
            Ok(n) => return choice(n, Source::Variable(name), warnings),
            Err(_) => warnings.push(format!("{name}={v:?} is not a device number; ignored")),
        }
    }
    match local {
        Some(l) if num_devices > 0 => {
            let number = (l.rank as usize % num_devices) as i32;
            choice(
                number,
                Source::LocalRank {
                    local: l,
                    devices: num_devices,
                },
                warnings,
            )
        }
        _ => choice(0, Source::First, warnings),
    }
}

/// What a user can do about a device number that does not exist, for the error that names it:
/// how to ask for more devices (emulated or simulated), and the MPI rank's usual choice.
pub fn missing_device_hint(kind: Option<&str>, local: Option<&LocalRank>) -> String {
    let mut hint = String::from(
        "ask for a number below the count (acc_get_num_devices / omp_get_num_devices)",
    );
    if let Some(l) = local {
        hint.push_str(&format!(
            "; this process is MPI local rank {} ({}): use local_rank % count, or leave the device \
             unset and the runtime takes that one",
            l.rank, l.variable
        ));
    }
    match kind {
        Some("emulator") => {
            hint.push_str("; PTXRT_EMU_DEVICES=N makes the emulator present N devices")
        }
        Some(_) => hint.push_str(
            "; CUDA_VISIBLE_DEVICES lists the GPUs a process sees (PTXSIM_DEVICES=N under ptxsim)",
        ),
        None => {}
    }
    hint
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn choose_with(vars: &[(&str, &str)], devices: usize) -> Choice {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        choose(&|name: &str| map.get(name).cloned(), devices)
    }

    #[test]
    fn nothing_set_is_device_zero() {
        let c = choose_with(&[], 4);
        assert_eq!((c.number, c.source.clone()), (0, Source::First));
        assert!(c.warnings.is_empty() && c.local_rank.is_none() && c.rank_bound().is_none());
    }

    #[test]
    fn local_rank_modulo_devices() {
        for (rank, devices, expect) in [
            ("0", 2, 0),
            ("1", 2, 1),
            ("3", 2, 1),
            ("5", 4, 1),
            ("2", 1, 0),
        ] {
            let c = choose_with(&[("OMPI_COMM_WORLD_LOCAL_RANK", rank)], devices);
            assert_eq!(c.number, expect, "rank {rank} of {devices} devices");
            assert!(matches!(c.source, Source::LocalRank { .. }));
        }
        let c = choose_with(
            &[
                ("OMPI_COMM_WORLD_LOCAL_RANK", "3"),
                ("OMPI_COMM_WORLD_LOCAL_SIZE", "4"),
            ],
            4,
        );
        assert_eq!(c.number, 3);
        assert_eq!(
            c.to_string(),
            "default device 3: OMPI_COMM_WORLD_LOCAL_RANK=3 (MPI local rank of 4 on this node), 3 % 4 devices"
        );
    }

    #[test]
    fn every_launcher_variable_is_read() {
        for l in launcher::LOCAL_RANK {
            let c = choose_with(&[(l.rank, "1")], 3);
            assert_eq!(c.number, 1, "{}", l.rank);
            assert_eq!(c.local_rank.map(|r| r.variable), Some(l.rank));
        }
        // Open MPI's variable before Slurm's, whatever their values.
        let c = choose_with(
            &[("SLURM_LOCALID", "0"), ("OMPI_COMM_WORLD_LOCAL_RANK", "1")],
            2,
        );
        assert_eq!(c.number, 1);
    }

    #[test]
    fn explicit_variables_win_over_the_rank() {
        let rank = ("OMPI_COMM_WORLD_LOCAL_RANK", "1");
        let c = choose_with(&[rank, ("OMP_DEFAULT_DEVICE", "0")], 2);
        assert_eq!(
            (c.number, c.source),
            (0, Source::Variable("OMP_DEFAULT_DEVICE"))
        );
        let c = choose_with(&[rank, ("ACC_DEVICE_NUM", " 0 ")], 2);
        assert_eq!(
            (c.number, c.source),
            (0, Source::Variable("ACC_DEVICE_NUM"))
        );
        // OMP_DEFAULT_DEVICE before ACC_DEVICE_NUM, as before this module.
        let c = choose_with(&[("ACC_DEVICE_NUM", "1"), ("OMP_DEFAULT_DEVICE", "2")], 3);
        assert_eq!(c.number, 2);
        // A number past the last device is kept: the first construct that uses it says so.
        let c = choose_with(&[("OMP_DEFAULT_DEVICE", "7")], 2);
        assert_eq!(c.number, 7);
        let c = choose_with(&[rank, ("ACC_DEVICE_TYPE", "HOST")], 2);
        assert_eq!((c.number, c.source), (2, Source::AccHost));
        assert_eq!(c.local_rank.map(|r| r.rank), Some(1));
    }

    #[test]
    fn unusable_values_warn_and_fall_through() {
        let c = choose_with(
            &[
                ("OMP_DEFAULT_DEVICE", "gpu1"),
                ("OMPI_COMM_WORLD_LOCAL_RANK", "1"),
            ],
            2,
        );
        assert_eq!(c.number, 1);
        assert_eq!(c.warnings.len(), 1);
        assert!(c.warnings[0].contains("OMP_DEFAULT_DEVICE=\"gpu1\""));
        let c = choose_with(&[("MPI_LOCALRANKID", "x"), ("SLURM_LOCALID", "1")], 2);
        assert_eq!(c.number, 1);
        assert!(c.warnings[0].contains("MPI_LOCALRANKID"));
        // Empty is unset.
        let c = choose_with(&[("OMP_DEFAULT_DEVICE", " ")], 2);
        assert!(c.warnings.is_empty() && c.source == Source::First);
    }

    #[test]
    fn no_device_means_no_rank_binding() {
        let c = choose_with(&[("OMPI_COMM_WORLD_LOCAL_RANK", "1")], 0);
        assert_eq!((c.number, c.source), (0, Source::First));
    }

    #[test]
    fn rank_binding_needs_other_ranks_on_the_node() {
        let alone = choose_with(
            &[
                ("OMPI_COMM_WORLD_LOCAL_RANK", "0"),
                ("OMPI_COMM_WORLD_LOCAL_SIZE", "1"),
            ],
            4,
        );
        assert!(alone.rank_bound().is_none());
        let shared = choose_with(
            &[
                ("OMPI_COMM_WORLD_LOCAL_RANK", "0"),
                ("OMPI_COMM_WORLD_LOCAL_SIZE", "2"),
            ],
            4,
        );
        assert!(shared.rank_bound().is_some());
        let unknown = choose_with(&[("SLURM_LOCALID", "0")], 4);
        assert!(unknown.rank_bound().is_some());
        let explicit = choose_with(&[("SLURM_LOCALID", "0"), ("OMP_DEFAULT_DEVICE", "1")], 4);
        assert!(explicit.rank_bound().is_none());
    }

    #[test]
    fn hints_name_what_to_set() {
        let l = LocalRank {
            variable: "OMPI_COMM_WORLD_LOCAL_RANK",
            rank: 3,
            size: Some(4),
        };
        let h = missing_device_hint(Some("emulator"), Some(&l));
        assert!(
            h.contains("PTXRT_EMU_DEVICES") && h.contains("local rank 3"),
            "{h}"
        );
        let h = missing_device_hint(Some("cuda"), None);
        assert!(
            h.contains("CUDA_VISIBLE_DEVICES") && !h.contains("rank"),
            "{h}"
        );
    }
}

//! What an MPI launcher tells the processes it starts: their rank on their node (the local
//! rank, which chooses the default device: `default_device.rs`) and in the whole job (which names
//! each rank's profile file: `PTXRT_PROFILE=json:prof.%r.json`).
//!
//! Read from the environment the launchers set, through a lookup function so that the choice is
//! a pure function of the variables (unit-tested here and in `default_device.rs`).

/// One launcher's variable for a rank and its companion for the number of ranks (None: the
/// launcher sets none that we know of).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankVariables {
    pub rank: &'static str,
    pub size: Option<&'static str>,
    pub launcher: &'static str,
}

const fn vars(
    rank: &'static str,
    size: Option<&'static str>,
    launcher: &'static str,
) -> RankVariables {
    RankVariables {
        rank,
        size,
        launcher,
    }
}

/// The local-rank variables, in the order they are read (the MPI launchers' before the resource
/// manager's: `srun` of an Open MPI program sets both, with the same value).
pub const LOCAL_RANK: &[RankVariables] = &[
    vars(
        "OMPI_COMM_WORLD_LOCAL_RANK",
        Some("OMPI_COMM_WORLD_LOCAL_SIZE"),
        "Open MPI",
    ),
    vars(
        "MV2_COMM_WORLD_LOCAL_RANK",
        Some("MV2_COMM_WORLD_LOCAL_SIZE"),
        "MVAPICH2",
    ),
    vars(
        "MPI_LOCALRANKID",
        Some("MPI_LOCALNRANKS"),
        "MPICH / Intel MPI (Hydra)",
    ),
    vars("PALS_LOCAL_RANKID", None, "Cray PALS"),
    vars("PMI_LOCAL_RANK", Some("PMI_LOCAL_SIZE"), "PMI"),
    vars(
        "JSM_NAMESPACE_LOCAL_RANK",
        Some("JSM_NAMESPACE_LOCAL_SIZE"),
        "IBM jsrun",
    ),
    vars("FLUX_TASK_LOCAL_ID", None, "Flux"),
    vars("SLURM_LOCALID", None, "Slurm srun"),
];

/// The rank-in-the-job variables, in the order they are read.
pub const WORLD_RANK: &[RankVariables] = &[
    vars(
        "OMPI_COMM_WORLD_RANK",
        Some("OMPI_COMM_WORLD_SIZE"),
        "Open MPI",
    ),
    vars(
        "MV2_COMM_WORLD_RANK",
        Some("MV2_COMM_WORLD_SIZE"),
        "MVAPICH2",
    ),
    vars("PMI_RANK", Some("PMI_SIZE"), "MPICH / Intel MPI (Hydra)"),
    vars("PMIX_RANK", None, "PMIx"),
    vars("PALS_RANKID", None, "Cray PALS"),
    vars(
        "JSM_NAMESPACE_RANK",
        Some("JSM_NAMESPACE_SIZE"),
        "IBM jsrun",
    ),
    vars("FLUX_TASK_RANK", None, "Flux"),
    vars("SLURM_PROCID", Some("SLURM_NTASKS"), "Slurm srun"),
];

/// A process's rank, as its launcher said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rank {
    /// The variable it came from.
    pub variable: &'static str,
    pub rank: u32,
    /// How many ranks there are (on the node, or in the job), when the launcher says.
    pub size: Option<u32>,
}

/// A variable's value, trimmed; None when unset or empty.
pub fn value(lookup: &dyn Fn(&str) -> Option<String>, name: &str) -> Option<String> {
    lookup(name)
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// The first of `variables` set to a number, with its size (a warning in `warnings` for each set
/// to anything else, which is skipped).
pub fn find(
    variables: &[RankVariables],
    lookup: &dyn Fn(&str) -> Option<String>,
    warnings: &mut Vec<String>,
) -> Option<Rank> {
    for l in variables {
        let Some(v) = value(lookup, l.rank) else {
            continue;
        };
        match v.parse::<u32>() {
            Ok(rank) => {
                let size = l
                    .size
                    .and_then(|s| value(lookup, s))
                    .and_then(|s| s.parse::<u32>().ok());
                return Some(Rank {
                    variable: l.rank,
                    rank,
                    size,
                });
            }
            Err(_) => warnings.push(format!(
                "{}={v:?} ({}'s rank) is not a number; ignored",
                l.rank, l.launcher
            )),
        }
    }
    None
}

/// A profile file name for this process: `%r` becomes its rank in the job (0 outside an MPI
/// job), `%p` its process id, `%%` a `%`. A name without `%r` or `%p` in a job of several ranks
/// would be written by every rank in turn: that is a warning (the name is kept).
pub fn per_process_path(
    path: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
    pid: u32,
) -> Result<(String, Vec<String>), String> {
    let mut warnings = Vec::new();
    let world = find(WORLD_RANK, lookup, &mut warnings);
    let mut out = String::new();
    let mut per_process = false;
    let mut chars = path.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('r') => {
                per_process = true;
                out.push_str(&world.map_or(0, |w| w.rank).to_string());
            }
            Some('p') => {
                per_process = true;
                out.push_str(&pid.to_string());
            }
            Some('%') => out.push('%'),
            other => {
                return Err(format!(
                    "PTXRT_PROFILE=json:{path}: '%{}' is not %r (the MPI rank), %p (the process id) or %%",
                    other.map_or(String::new(), String::from)
                ))
            }
        }
    }
    if let Some(w) = world {
        if !per_process && w.size != Some(1) {
            warnings.push(format!(
                "PTXRT_PROFILE=json:{path}: every MPI rank writes this file ({}={}); put %r in the \
                 name (json:profile.%r.json) for one file per rank",
                w.variable, w.rank
            ));
        }
    }
    Ok((out, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name: &str| map.get(name).cloned()
    }

    #[test]
    fn first_numeric_variable_wins() {
        let mut w = Vec::new();
        let e = env(&[
            ("SLURM_PROCID", "5"),
            ("OMPI_COMM_WORLD_RANK", "x"),
            ("PMI_RANK", "3"),
            ("PMI_SIZE", "8"),
        ]);
        let r = find(WORLD_RANK, &e, &mut w).unwrap();
        assert_eq!((r.variable, r.rank, r.size), ("PMI_RANK", 3, Some(8)));
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("OMPI_COMM_WORLD_RANK"));
        assert!(find(LOCAL_RANK, &env(&[]), &mut w).is_none());
    }

    #[test]
    fn profile_path_per_rank() {
        let e = env(&[("OMPI_COMM_WORLD_RANK", "3"), ("OMPI_COMM_WORLD_SIZE", "4")]);
        let (p, w) = per_process_path("prof.%r.json", &e, 42).unwrap();
        assert_eq!(p, "prof.3.json");
        assert!(w.is_empty());
        let (p, _) = per_process_path("a%%b.%p", &e, 42).unwrap();
        assert_eq!(p, "a%b.42");
        // Several ranks, one name: kept, with a warning.
        let (p, w) = per_process_path("prof.json", &e, 42).unwrap();
        assert_eq!(p, "prof.json");
        assert!(w[0].contains("%r"), "{w:?}");
        // Outside MPI: %r is 0, no warning.
        let (p, w) = per_process_path("prof.%r.json", &env(&[]), 42).unwrap();
        assert_eq!((p.as_str(), w.len()), ("prof.0.json", 0));
        let (_, w) = per_process_path("prof.json", &env(&[]), 42).unwrap();
        assert!(w.is_empty());
        // A single-rank job needs no %r.
        let one = env(&[("SLURM_PROCID", "0"), ("SLURM_NTASKS", "1")]);
        assert!(per_process_path("p.json", &one, 1).unwrap().1.is_empty());
        assert!(per_process_path("p%d.json", &e, 1)
            .unwrap_err()
            .contains("'%d'"));
        assert!(per_process_path("p%", &e, 1).unwrap_err().contains("'%'"));
    }
}

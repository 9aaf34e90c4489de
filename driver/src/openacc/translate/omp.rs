//! The OpenMP the lowerings emit, typed: an [`OmpDirective`] is a construct and its
//! [`OmpClause`]s, each with `Display` giving the exact text clang reads. The lowerings build
//! clauses and decide on them by kind (is there a `map`, which `depend(inout:)` queue, the
//! scalars of a `map(tofrom:)`) instead of printing text and searching it again; only
//! `Display` writes OpenMP.
//!
//! List items (`a`, `b[0:n]`, `__ptxcc_acc_queue[…]`) are C text: ptxcc copies them from the
//! user's clauses or makes them, and never looks inside them again.
use std::fmt;

use super::reductions::OmpReduction;

/// The map-type modifier of structured data (clang's `-fopenmp-extensions`, on by default):
/// libomptarget's hold reference count, which `target exit data` and the `acc_*` routines leave alone.
const HOLD: &str = "ompx_hold, ";

/// The map type of a `map` clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MapType {
    To,
    From,
    ToFrom,
    Alloc,
    Release,
    Delete,
}

impl MapType {
    pub(super) fn spelling(self) -> &'static str {
        match self {
            MapType::To => "to",
            MapType::From => "from",
            MapType::ToFrom => "tofrom",
            MapType::Alloc => "alloc",
            MapType::Release => "release",
            MapType::Delete => "delete",
        }
    }
}

/// `map([ompx_hold, ][present, ]TYPE: items)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct OmpMap {
    /// libomptarget's hold reference count (structured data).
    pub(super) hold: bool,
    pub(super) present: bool,
    pub(super) map_type: MapType,
    pub(super) items: Vec<String>,
}

impl OmpMap {
    pub(super) fn new(map_type: MapType, items: Vec<String>) -> Self {
        OmpMap {
            hold: false,
            present: false,
            map_type,
            items,
        }
    }

    /// The same map held by the structured reference count (`ompx_hold`).
    pub(super) fn held(mut self) -> Self {
        self.hold = true;
        self
    }

    pub(super) fn present(mut self) -> Self {
        self.present = true;
        self
    }

    /// A structured map (data region) as the `(enter data, exit data)` pair that does the same
    /// with the dynamic reference count; None for what has no such pair.
    pub(super) fn enter_exit(&self) -> Option<(OmpMap, OmpMap)> {
        let (en, ex) = match self.map_type {
            MapType::ToFrom => (MapType::To, MapType::From),
            MapType::To => (MapType::To, MapType::Release),
            MapType::From => (MapType::Alloc, MapType::From),
            MapType::Alloc => (MapType::Alloc, MapType::Release),
            MapType::Release | MapType::Delete => return None,
        };
        let mut enter = OmpMap::new(en, self.items.clone());
        enter.present = self.present;
        Some((enter, OmpMap::new(ex, self.items.clone())))
    }
}

/// The dependence type of a `depend` clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DependType {
    In,
    InOut,
}

/// The direction of a `target update` motion clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Motion {
    To,
    From,
}

impl Motion {
    pub(super) fn spelling(self) -> &'static str {
        match self {
            Motion::To => "to",
            Motion::From => "from",
        }
    }
}

/// One clause of an OpenMP directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum OmpClause {
    Map(OmpMap),
    /// `if([target: ]cond)`.
    If {
        target: bool,
        cond: String,
    },
    NumTeams(String),
    ThreadLimit(String),
    NumThreads(String),
    Collapse(usize),
    /// `dist_schedule(static[, chunk])`.
    DistScheduleStatic(Option<String>),
    Private(Vec<String>),
    FirstPrivate(Vec<String>),
    LastPrivate(Vec<String>),
    Reduction(OmpReduction),
    IsDevicePtr(Vec<String>),
    UseDevicePtr(Vec<String>),
    UseDeviceAddr(Vec<String>),
    Nowait,
    Depend(DependType, String),
    /// `declare target`'s `to(…)`.
    To(Vec<String>),
    /// `target update`'s `to(…)` / `from(…)`, with the `present` modifier or not.
    Motion {
        motion: Motion,
        present: bool,
        items: Vec<String>,
    },
}

impl OmpClause {
    /// The `map` clause, if this is one.
    pub(super) fn as_map(&self) -> Option<&OmpMap> {
        match self {
            OmpClause::Map(m) => Some(m),
            _ => None,
        }
    }

    pub(super) fn is_map(&self) -> bool {
        self.as_map().is_some()
    }
}

struct List<'a>(&'a [String]);

impl fmt::Display for List<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, item) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            f.write_str(item)?;
        }
        Ok(())
    }
}

impl fmt::Display for OmpMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("map(")?;
        if self.hold {
            f.write_str(HOLD)?;
        }
        if self.present {
            f.write_str("present, ")?;
        }
        write!(f, "{}: {})", self.map_type.spelling(), List(&self.items))
    }
}

impl fmt::Display for OmpClause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OmpClause::Map(m) => m.fmt(f),
            OmpClause::If { target: true, cond } => write!(f, "if(target: {cond})"),
            OmpClause::If {
                target: false,
                cond,
            } => write!(f, "if({cond})"),
            OmpClause::NumTeams(n) => write!(f, "num_teams({n})"),
            OmpClause::ThreadLimit(n) => write!(f, "thread_limit({n})"),
            OmpClause::NumThreads(n) => write!(f, "num_threads({n})"),
            OmpClause::Collapse(n) => write!(f, "collapse({n})"),
            OmpClause::DistScheduleStatic(None) => f.write_str("dist_schedule(static)"),
            OmpClause::DistScheduleStatic(Some(c)) => write!(f, "dist_schedule(static, {c})"),
            OmpClause::Private(v) => write!(f, "private({})", List(v)),
            OmpClause::FirstPrivate(v) => write!(f, "firstprivate({})", List(v)),
            OmpClause::LastPrivate(v) => write!(f, "lastprivate({})", List(v)),
            OmpClause::Reduction(r) => r.fmt(f),
            OmpClause::IsDevicePtr(v) => write!(f, "is_device_ptr({})", List(v)),
            OmpClause::UseDevicePtr(v) => write!(f, "use_device_ptr({})", List(v)),
            OmpClause::UseDeviceAddr(v) => write!(f, "use_device_addr({})", List(v)),
            OmpClause::Nowait => f.write_str("nowait"),
            OmpClause::Depend(DependType::In, q) => write!(f, "depend(in: {q})"),
            OmpClause::Depend(DependType::InOut, q) => write!(f, "depend(inout: {q})"),
            OmpClause::To(v) => write!(f, "to({})", List(v)),
            OmpClause::Motion {
                motion,
                present,
                items,
            } => write!(
                f,
                "{}({}{})",
                motion.spelling(),
                if *present { "present: " } else { "" },
                List(items)
            ),
        }
    }
}

/// A compute construct or a loop construct: `[target] [teams] [distribute] [parallel for]
/// [simd]`, in that order (a loop's levels come from its plan, `plan::Plan::omp`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Compute {
    pub(super) target: bool,
    pub(super) teams: bool,
    pub(super) distribute: bool,
    pub(super) parallel_for: bool,
    pub(super) simd: bool,
}

impl Compute {
    /// `target`: one device thread.
    pub(super) const TARGET: Compute = Compute {
        target: true,
        teams: false,
        distribute: false,
        parallel_for: false,
        simd: false,
    };

    /// `target teams`.
    pub(super) const TARGET_TEAMS: Compute = Compute {
        teams: true,
        ..Compute::TARGET
    };

    /// The loop levels gang and threads: `distribute parallel for`.
    pub(super) const DISTRIBUTE_PARALLEL_FOR: Compute = Compute {
        target: false,
        teams: false,
        distribute: true,
        parallel_for: true,
        simd: false,
    };

    /// This construct with the loop levels of `levels` (a loop construct without `target`).
    pub(super) fn with_loop(self, levels: Compute) -> Compute {
        Compute {
            distribute: levels.distribute,
            parallel_for: levels.parallel_for,
            simd: levels.simd,
            ..self
        }
    }
}

/// The kind of an `atomic` construct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Atomic {
    Read,
    Write,
    Update,
    Capture,
}

/// The OpenMP constructs ptxcc emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum OmpConstruct {
    Compute(Compute),
    TargetData,
    TargetEnterData,
    TargetExitData,
    TargetUpdate,
    Task,
    Taskwait,
    DeclareTarget,
    EndDeclareTarget,
    Atomic(Atomic),
}

impl From<Compute> for OmpConstruct {
    fn from(c: Compute) -> Self {
        OmpConstruct::Compute(c)
    }
}

impl fmt::Display for Compute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words = [
            (self.target, "target"),
            (self.teams, "teams"),
            (self.distribute, "distribute"),
            (self.parallel_for, "parallel for"),
            (self.simd, "simd"),
        ];
        let mut first = true;
        for (_, w) in words.iter().filter(|(on, _)| *on) {
            if !first {
                f.write_str(" ")?;
            }
            f.write_str(w)?;
            first = false;
        }
        Ok(())
    }
}

impl fmt::Display for OmpConstruct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OmpConstruct::Compute(c) => return c.fmt(f),
            OmpConstruct::TargetData => "target data",
            OmpConstruct::TargetEnterData => "target enter data",
            OmpConstruct::TargetExitData => "target exit data",
            OmpConstruct::TargetUpdate => "target update",
            OmpConstruct::Task => "task",
            OmpConstruct::Taskwait => "taskwait",
            OmpConstruct::DeclareTarget => "declare target",
            OmpConstruct::EndDeclareTarget => "end declare target",
            OmpConstruct::Atomic(Atomic::Read) => "atomic read",
            OmpConstruct::Atomic(Atomic::Write) => "atomic write",
            OmpConstruct::Atomic(Atomic::Update) => "atomic update",
            OmpConstruct::Atomic(Atomic::Capture) => "atomic capture",
        })
    }
}

/// One `#pragma omp CONSTRUCT CLAUSES` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct OmpDirective {
    pub(super) construct: OmpConstruct,
    pub(super) clauses: Vec<OmpClause>,
}

impl OmpDirective {
    pub(super) fn new(construct: impl Into<OmpConstruct>, clauses: Vec<OmpClause>) -> Self {
        OmpDirective {
            construct: construct.into(),
            clauses,
        }
    }

    /// The line, as the output has it.
    pub(super) fn line(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for OmpDirective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#pragma omp {}", self.construct)?;
        for c in &self.clauses {
            write!(f, " {c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openacc::ast::ReductionOp;
    use crate::openacc::translate::reductions::ReductionVar;

    fn items(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn clauses_print_as_clang_reads_them() {
        let m = OmpMap::new(MapType::ToFrom, items(&["a[0:n]", "s"])).held();
        assert_eq!(m.to_string(), "map(ompx_hold, tofrom: a[0:n], s)");
        let p = OmpMap::new(MapType::Alloc, items(&["p[0:0]"]))
            .held()
            .present();
        assert_eq!(p.to_string(), "map(ompx_hold, present, alloc: p[0:0])");
        let d = OmpDirective::new(
            Compute::TARGET_TEAMS,
            vec![
                OmpClause::NumTeams("4".into()),
                OmpClause::If {
                    target: true,
                    cond: "n > 1".into(),
                },
                OmpClause::Map(m),
                OmpClause::Reduction(OmpReduction {
                    op: ReductionOp::Add,
                    vars: vec![ReductionVar::named("sum")],
                }),
                OmpClause::Nowait,
                OmpClause::Depend(DependType::InOut, "q[1]".into()),
            ],
        );
        assert_eq!(
            d.line(),
            "#pragma omp target teams num_teams(4) if(target: n > 1) map(ompx_hold, tofrom: a[0:n], s) reduction(+: sum) nowait depend(inout: q[1])"
        );
        assert_eq!(
            OmpDirective::new(OmpConstruct::Taskwait, vec![]).line(),
            "#pragma omp taskwait"
        );
        assert_eq!(
            OmpDirective::new(
                Compute::TARGET_TEAMS.with_loop(Compute::DISTRIBUTE_PARALLEL_FOR),
                vec![]
            )
            .line(),
            "#pragma omp target teams distribute parallel for"
        );
        let worker_simd = Compute {
            parallel_for: true,
            simd: true,
            ..Compute::default()
        };
        assert_eq!(
            OmpDirective::new(worker_simd, vec![OmpClause::NumThreads("8".into())]).line(),
            "#pragma omp parallel for simd num_threads(8)"
        );
        assert_eq!(
            OmpDirective::new(OmpConstruct::Atomic(Atomic::Capture), vec![]).line(),
            "#pragma omp atomic capture"
        );
    }

    #[test]
    fn structured_maps_as_enter_and_exit_data() {
        let pair = |m: OmpMap| m.enter_exit().map(|(a, b)| (a.to_string(), b.to_string()));
        let l = items(&["a[0:n]"]);
        assert_eq!(
            pair(OmpMap::new(MapType::ToFrom, l.clone()).held()),
            Some(("map(to: a[0:n])".into(), "map(from: a[0:n])".into()))
        );
        assert_eq!(
            pair(OmpMap::new(MapType::Alloc, l.clone()).held().present()),
            Some((
                "map(present, alloc: a[0:n])".into(),
                "map(release: a[0:n])".into()
            ))
        );
        assert_eq!(
            pair(OmpMap::new(MapType::From, l.clone())),
            Some(("map(alloc: a[0:n])".into(), "map(from: a[0:n])".into()))
        );
        assert_eq!(pair(OmpMap::new(MapType::Release, l)), None);
    }
}

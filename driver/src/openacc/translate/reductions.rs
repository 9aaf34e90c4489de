//! The reductions of one OpenMP construct, typed: which variables it reduces, with which
//! operator, each variable once. The lowerings add the clauses written by the user, those
//! hoisted from the region's loops and those the dependence test of an `auto` loop found, and
//! ask the set (by variable name, not by searching the text already emitted) whether a variable
//! is reduced; each clause renders as OpenMP's `reduction(op: a, b)`.
use std::fmt;

use crate::openacc::ast::{ReductionOp, VarRef};

/// One variable of a reduction clause: its name (what identity is decided on) and its text
/// in the output (a section renders with its bounds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ReductionVar {
    pub(super) name: String,
    pub(super) text: String,
}

impl ReductionVar {
    pub(super) fn named(name: &str) -> Self {
        Self {
            name: name.to_string(),
            text: name.to_string(),
        }
    }

    pub(super) fn of(v: &VarRef) -> Self {
        Self {
            name: v.name.clone(),
            text: v.render(),
        }
    }
}

/// One `reduction(op: vars)` clause of the OpenMP output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct OmpReduction {
    pub(super) op: ReductionOp,
    pub(super) vars: Vec<ReductionVar>,
}

impl fmt::Display for OmpReduction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "reduction({}: ", self.op.spelling())?;
        for (k, v) in self.vars.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&v.text)?;
        }
        f.write_str(")")
    }
}

/// The reduction clauses of one construct, in the order they were added.
#[derive(Clone, Debug, Default)]
pub(super) struct ReductionSet {
    clauses: Vec<OmpReduction>,
}

impl ReductionSet {
    /// Adds a clause as the user wrote it (its variables in order) and returns it.
    pub(super) fn add_clause(&mut self, op: ReductionOp, vars: &[VarRef]) -> OmpReduction {
        let clause = OmpReduction {
            op,
            vars: vars.iter().map(ReductionVar::of).collect(),
        };
        self.clauses.push(clause.clone());
        clause
    }

    /// Adds a clause reducing `var` alone unless a clause of the set already reduces it;
    /// returns the clause added.
    pub(super) fn add_if_new(
        &mut self,
        op: ReductionOp,
        var: ReductionVar,
    ) -> Option<OmpReduction> {
        if self.contains(&var.name) {
            return None;
        }
        let clause = OmpReduction {
            op,
            vars: vec![var],
        };
        self.clauses.push(clause.clone());
        Some(clause)
    }

    /// Whether a clause of the set reduces the variable named `name` (the whole name: `s` is
    /// not `sum`).
    pub(super) fn contains(&self, name: &str) -> bool {
        self.op_of(name).is_some()
    }

    /// The operator the set reduces `name` with.
    pub(super) fn op_of(&self, name: &str) -> Option<ReductionOp> {
        self.clauses
            .iter()
            .find(|c| c.vars.iter().any(|v| v.name == name))
            .map(|c| c.op)
    }

    pub(super) fn clauses(&self) -> &[OmpReduction] {
        &self.clauses
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openacc::ast::{Access, Expr, Span, Subscript};

    fn var(name: &str) -> VarRef {
        VarRef {
            name: name.into(),
            path: Vec::new(),
            span: Span::default(),
        }
    }

    #[test]
    fn membership_is_by_whole_name() {
        let mut set = ReductionSet::default();
        set.add_clause(ReductionOp::Add, &[var("sum")]);
        assert!(set.contains("sum"));
        assert!(!set.contains("s"), "'s' is not 'sum'");
        assert!(!set.contains("u"));
        assert!(!set.contains("reduction"));
        let added = set.add_if_new(ReductionOp::Add, ReductionVar::named("s"));
        assert_eq!(
            added.map(|c| (c.op, c.vars[0].name.clone())),
            Some((ReductionOp::Add, "s".to_string()))
        );
        assert!(set.contains("s"));
    }

    #[test]
    fn a_variable_is_reduced_once() {
        let mut set = ReductionSet::default();
        set.add_clause(ReductionOp::Max, &[var("m"), var("hi")]);
        assert_eq!(
            set.add_if_new(ReductionOp::Add, ReductionVar::named("hi")),
            None
        );
        assert_eq!(set.op_of("hi"), Some(ReductionOp::Max));
        assert_eq!(set.clauses().len(), 1);
        set.add_if_new(ReductionOp::Mul, ReductionVar::named("p"));
        assert_eq!(set.op_of("p"), Some(ReductionOp::Mul));
        assert_eq!(set.clauses().len(), 2);
    }

    #[test]
    fn identity_is_the_name_and_the_text_keeps_the_section() {
        let section = VarRef {
            name: "a".into(),
            path: vec![Access::Subscript(Subscript::Section {
                lower: Some(Expr {
                    text: "0".into(),
                    span: Span::default(),
                }),
                length: Some(Expr {
                    text: "4".into(),
                    span: Span::default(),
                }),
            })],
            span: Span::default(),
        };
        let mut set = ReductionSet::default();
        let c = set.add_clause(ReductionOp::Add, &[section]);
        assert_eq!(c.vars[0].name, "a");
        assert!(set.contains("a"));
        assert_eq!(c.to_string(), format!("reduction(+: {})", c.vars[0].text));
        assert!(c.vars[0].text.starts_with("a["));
    }

    #[test]
    fn renders_as_openmp() {
        let c = OmpReduction {
            op: ReductionOp::LogOr,
            vars: vec![ReductionVar::named("x"), ReductionVar::named("y")],
        };
        assert_eq!(c.to_string(), "reduction(||: x, y)");
    }
}

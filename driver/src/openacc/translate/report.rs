//! The `-fptxcc-info` report: one line per loop (how it was mapped, or why it is sequential),
//! reduction and data clause.

use crate::openacc::ast::*;
use crate::openacc::{Info, InfoKind};

use super::*;

impl Tr<'_> {
    pub(super) fn note(&mut self, off: usize, kind: InfoKind, msg: impl Into<String>) {
        let l = self.sm.loc(off);
        self.info.push(Info {
            loc: l,
            kind,
            message: msg.into(),
        });
    }

    pub(super) fn report_loop(&mut self, i: usize, plan: &Plan, thread_limit: Option<String>) {
        let Some(stmt) = self.prs[i].stmt else { return };
        let off = self
            .ast
            .as_ref()
            .map(|a| a.node(stmt).start)
            .unwrap_or(self.prs[i].next_code);
        if plan.is_seq() {
            let why = plan.why_seq.clone().unwrap_or_else(|| "seq".into());
            self.note(off, InfoKind::Loop, format!("loop not parallelized: {why}"));
            return;
        }
        let mut parts = Vec::new();
        if plan.gang {
            parts.push("gang(blockIdx.x)".to_string());
        }
        if plan.thread == Some(Thread::Worker) && self.has_lanes_inside(i) {
            // Its vector loops run on the lanes of its warp.
            parts.push("worker(threadIdx.y: one warp each)".to_string());
        } else if let Some(t) = plan.thread {
            match &thread_limit {
                Some(n) => parts.push(format!("{t}(threadIdx.x, {n})")),
                None => parts.push(format!("{t}(threadIdx.x)")),
            }
        }
        if plan.simd {
            parts.push("vector(simd)".into());
        }
        if plan.lanes {
            parts.push(format!(
                "vector(threadIdx.x: lanes of the worker's warp, {})",
                self.vector_lanes(i)
            ));
        }
        let lanes_note = if plan.lanes { self.lanes_note(i) } else { None };
        if plan.gang_collapse > 1 {
            parts.push(format!("gang dimensions collapse({})", plan.gang_collapse));
        }
        let d = self.prs[i].dir.clone();
        if let Some(c) = d.clauses.iter().find_map(|c| match &c.kind {
            ClauseKind::Collapse { count, .. } if *count > 1 => Some(format!("collapse({count})")),
            ClauseKind::Tile(t) if t.len() > 1 => Some(format!("tile → collapse({})", t.len())),
            _ => None,
        }) {
            parts.push(c);
        }
        self.note(
            off,
            InfoKind::Loop,
            format!("loop parallelized: {}", parts.join(" ")),
        );
        if let Some(n) = lanes_note {
            self.note(off, InfoKind::Loop, n);
        }
        for c in &d.clauses {
            if let ClauseKind::Reduction { op, vars } = &c.kind {
                self.note(
                    off,
                    InfoKind::Reduction,
                    format!(
                        "reduction({}: {}) combined across threads and blocks",
                        op.spelling(),
                        join(vars)
                    ),
                );
            }
        }
        for (op, dcl) in &plan.found_reductions {
            let n = self
                .ast
                .as_ref()
                .map(|a| a.decl(*dcl).name.clone())
                .unwrap_or_default();
            self.note(
                off,
                InfoKind::Reduction,
                format!("reduction({}: {}) recognised", op.spelling(), n),
            );
        }
    }

    pub(super) fn report_data(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let off = self.prs[i].next_code.min(self.text.len());
        let off = if d.kind.has_body() {
            off
        } else {
            self.prs[i].off
        };
        let mut v = Vec::new();
        for c in &d.clauses {
            if let ClauseKind::Data { kind, vars, .. } = &c.kind {
                let what = match (kind, d.kind) {
                    (DataKind::Copy, _) => "copied to the device at entry and back at exit",
                    (DataKind::CopyIn, _) => "copied to the device",
                    (DataKind::CopyOut, DirectiveKind::ExitData) => "copied back to the host",
                    (DataKind::CopyOut, _) => "allocated on the device, copied back at exit",
                    (DataKind::Create, _) | (DataKind::DeviceResident, _) => {
                        "allocated on the device"
                    }
                    (DataKind::NoCreate, _) => "used on the device if present",
                    (DataKind::Present, _) => "must be present on the device",
                    (DataKind::DevicePtr, _) => "already a device pointer",
                    (DataKind::Attach, _) => "pointer attached",
                    (DataKind::Detach, _) => "pointer detached",
                    (DataKind::Delete, _) => "released on the device",
                    (DataKind::Link, _) => "linked",
                };
                for x in vars {
                    v.push(format!("{x} {what}"));
                }
            }
            if let ClauseKind::UpdateSelf(vars) = &c.kind {
                for x in vars {
                    v.push(format!("{x} copied to the host"));
                }
            }
            if let ClauseKind::UpdateDevice(vars) = &c.kind {
                for x in vars {
                    v.push(format!("{x} copied to the device"));
                }
            }
        }
        if !v.is_empty() {
            self.note(off, InfoKind::Data, format!("data: {}", v.join("; ")));
        }
    }
}

//! Pointers a compute construct uses as arrays with no data clause: nvc infers `copy(a[lo:hi])`
//! from the loop bounds, and so does ptxcc, at run time. The construct's kernel is named to the
//! passes (`Translation::compute_lines`, the `acc_compute` hints); `access-ranges` tables the
//! bytes each pointer argument of its loop reads and writes, and the runtime maps a pointer
//! whose data is not present by that table over the whole loop (ptx-runtime
//! `split/access_maps.rs`): copyin what is only read, copy what is written (the bytes of the
//! range a write skips come back unchanged). Present data is used as it is.
//!
//! This phase only says so in the `-fptxcc-info` report, per construct:
//!
//! ```text
//! #pragma acc parallel loop            →  t.c:5: data: implicit copy(Anew[lo:hi]), copyin(A[lo:hi])
//! for (j = 1; j < n - 1; j++) ...              from the loop bounds ([lo, hi): the elements the
//!                                              loop reaches, at each launch, unless present)
//! ```
//!
//! Only a combined loop kernel (`target teams distribute …`, what `parallel loop`, `kernels
//! loop` and a kernels region's loops become) is named: its launch passes the loop's trip
//! count. A `parallel` region (gang-redundant code around its loops), a `serial` construct
//! and the code between a kernels region's loops are not; their pointers must be present or
//! have a data clause (the runtime's not-present error says so). Why a loop cannot get them
//! (an access that is not affine) is the passes' part of the report (access-ranges).
use std::collections::BTreeSet;

use crate::openacc::ast::*;
use crate::openacc::cast::{DeclId, TypeClass};
use crate::openacc::InfoKind;

use super::rewrite::KernelLine;
use super::*;

/// A pointer of the construct with no data clause, used as an array.
pub(super) struct Unlisted {
    pub name: String,
    pub written: bool,
}

impl Tr<'_> {
    /// The `-fptxcc-info` lines for the pointers without a data clause of each compute
    /// construct (`pending_sections`, from `sharing`), now that the kernels it became are known:
    /// only a combined loop kernel gets its pointers mapped from the loop bounds.
    pub(super) fn note_implicit_sections(&mut self, kernels: &[KernelLine]) {
        let pending = std::mem::take(&mut self.pending_sections);
        for (i, pointers) in pending {
            if pointers.is_empty() {
                continue;
            }
            let mine: Vec<&KernelLine> = kernels.iter().filter(|k| k.construct == i).collect();
            let combined = mine.iter().filter(|k| k.combined).count();
            let kind = self.prs[i].dir.kind;
            let off = self.prs[i].next_code.min(self.text.len());
            let names: Vec<String> = pointers.iter().map(|p| format!("'{}'", p.name)).collect();
            let msg = if combined == 0 {
                let why = match kind {
                    DirectiveKind::Serial | DirectiveKind::SerialLoop => {
                        "a serial construct runs one thread, not a parallel loop whose accesses ptxcc tables"
                    }
                    DirectiveKind::Parallel => {
                        "a parallel region runs gang-redundant code around its loops, not one combined \
                         loop whose accesses ptxcc tables ('parallel loop' is)"
                    }
                    _ => "the construct's code is not a parallel loop whose accesses ptxcc tables",
                };
                format!(
                    "data: no implicit copy from the loop bounds for {} (no data clause): {why}; the data \
                     must be present (a data region, enter data) or have a data clause, e.g. copy({}[0:n])",
                    names.join(", "),
                    pointers[0].name
                )
            } else {
                let sections: Vec<String> = pointers
                    .iter()
                    .map(|p| {
                        format!(
                            "{}({}[lo:hi])",
                            if p.written { "copy" } else { "copyin" },
                            p.name
                        )
                    })
                    .collect();
                let rest = if combined < mine.len() {
                    "; not in its parts that run as one thread (a loop left sequential, code between \
                     the loops), where the data must be present or have a data clause"
                } else {
                    ""
                };
                format!(
                    "data: implicit {} from the loop bounds ([lo, hi): the elements the loop reaches, from \
                     its access ranges at each launch; data already present is used as it is){rest}",
                    sections.join(", ")
                )
            };
            self.note(off, InfoKind::Data, msg);
        }
    }
}

/// Whether `ty` is a pointer (the type an implicit section is inferred for).
pub(super) fn is_pointer(ty: TypeClass) -> bool {
    matches!(ty, TypeClass::Pointer { .. })
}

/// The pointers of `refs` that construct `i` subscripts and no clause names.
pub(super) fn unlisted_pointers(
    tr: &Tr<'_>,
    refs: &[(DeclId, crate::openacc::cast::NodeId)],
    subscripted: &BTreeSet<DeclId>,
    written: &BTreeSet<DeclId>,
    listed: &BTreeSet<String>,
) -> Vec<Unlisted> {
    let Some(ast) = &tr.ast else {
        return Vec::new();
    };
    refs.iter()
        .filter_map(|&(d, _)| {
            let di = ast.decl(d);
            (is_pointer(di.ty)
                && subscripted.contains(&d)
                && !listed.contains(&di.name)
                && !tr.is_system(di))
            .then(|| Unlisted {
                name: di.name.clone(),
                written: written.contains(&d),
            })
        })
        .collect()
}

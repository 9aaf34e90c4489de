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
//! Why a construct cannot get them (no single parallel loop, an access that is not affine)
//! is the passes' part of the report (split-range, access-ranges), since only the IR knows.
use std::collections::BTreeSet;

use crate::openacc::ast::*;
use crate::openacc::cast::{DeclId, TypeClass};
use crate::openacc::InfoKind;

use super::*;

/// A pointer of the construct with no data clause, used as an array.
pub(super) struct Unlisted {
    pub name: String,
    pub written: bool,
}

impl Tr<'_> {
    /// The `-fptxcc-info` line for construct `i`'s pointers without a data clause.
    pub(super) fn note_implicit_sections(&mut self, i: usize, pointers: &[Unlisted]) {
        if pointers.is_empty() {
            return;
        }
        let kind = self.prs[i].dir.kind;
        let off = self.prs[i].next_code.min(self.text.len());
        let names: Vec<String> = pointers.iter().map(|p| format!("'{}'", p.name)).collect();
        let msg = if matches!(kind, DirectiveKind::Serial | DirectiveKind::SerialLoop) {
            format!(
                "data: no implicit copy from the loop bounds for {} (no data clause): a serial construct \
                 is not a parallel loop whose accesses ptxcc tables; the data must be present (a data \
                 region, enter data) or have a data clause, e.g. copy({}[0:n])",
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
            format!(
                "data: implicit {} from the loop bounds ([lo, hi): the elements the loop reaches, from its \
                 access ranges at each launch; data already present is used as it is)",
                sections.join(", ")
            )
        };
        self.note(off, InfoKind::Data, msg);
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

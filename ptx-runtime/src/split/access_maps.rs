//! Pointers without a visible extent, mapped by their access ranges (issue 19).
//!
//! A loop `-fopenmp-offload-parallel-for` offloaded (`PTXRT_KERNEL_ACCESS_MAPS`) gets its
//! pointers as OpenMP's zero-length array sections: `void f(double *y, const double *x, int n)`
//! passes `y[:0]` and `x[:0]`. Where the data is present (a data region, `target enter data`) it
//! is used as it is. Where it is not, instead of the not-mapped error, the kernel's access table
//! (passes `access_ranges`, `ranges.rs`) is evaluated over the whole loop `[0, trips)` with the
//! launch's scalar arguments, and each such pointer becomes an ordinary map item for this
//! launch: exactly the bytes the loop reaches, `to` when it only reads them, `tofrom` when it
//! writes (a write the table bounds may not happen for every byte: the bytes it skips must come
//! back as they were, so they go in too).
//!
//! ```text
//! y[i] = y[i] + a*x[i+1], i in [0, n):   y (0 bytes)  →  map(tofrom: y[0:n])    (8*i .. 8*i+8)
//!                                        x (0 bytes)  →  map(to: x[1:n])        (8*i+8 .. 8*i+16)
//! ```
//!
//! Pointers whose ranges overlap (`f(a, a + 1, n)`: two parameters over one array) are mapped as
//! one section, their hull, by every one of them, as if the user had mapped it once: the kernel
//! sees one device copy, as the host sees one array, so writes through one pointer are read
//! through the other as OpenMP would have them. A range inside an item the construct maps itself
//! (an array of visible size) takes that item's extent and map type; one that overlaps it only
//! partly is an error. Under `-fptxcc-multi-device` the items made here are split like the
//! others: each device then receives the sub-range its part reaches (`part_data.rs`); a launch
//! with overlapping items ([`overlapping`]) runs on one device, where they are one copy.
//!
//! The kernels of OpenACC compute constructs (`PTXRT_KERNEL_OPENACC`) get the same treatment for
//! their pointers without a data clause: what nvc infers from the loop bounds (`copy(a[lo:hi])`),
//! present data used as it is; their errors ask for a data clause (`copy(p[0:n])`). An item
//! the construct maps `present` (`default(present)`) is never widened: absent, it stays the
//! present error, and neither is a clause's own zero-length section (`no_create` of absent
//! data): only clang's implicit map of a pointer no clause names.
//!
//! Errors, naming the pointer, the construct and what to write instead (`map(tofrom: p[0:n])`):
//! a pointer the compiler could not table (an access that is not affine, a call it cannot see:
//! `-fptxcc-info` says which), bounds that overflow, and a range that is not memory a program
//! can hold (below address 0 or past the end of the address space).
use crate::abi::KernelArgs;
use crate::errors::fatal_at;
use crate::map_type::MapType;
use crate::mapping::MapItem;
use crate::present_table::Lookup;
use crate::registry::Kernel;
use crate::requires::{self, UnmappedPointers};
use crate::runtime::{self, DeviceState};
use crate::source_info::SourceLoc;

use super::ranges::Reach;

/// Ranges beyond this many bytes are refused: no device holds them, and the product of a huge
/// or negative trip count with an element size is the likelier cause.
const MAX_BYTES: i128 = 1 << 48;

/// A pointer item this module maps: its item index and host byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Wanted {
    item: usize,
    start: u64,
    end: u64,
    read: bool,
    write: bool,
}

/// The kernel's parameters: the indices of the target-param items, in order, and the values
/// (base addresses) the access table reads for them.
fn kernel_params(items: &[MapItem]) -> (Vec<usize>, Vec<u64>) {
    let params: Vec<usize> = (0..items.len())
        .filter(|&i| items[i].ty.target_param())
        .collect();
    let values = params.iter().map(|&i| items[i].base as u64).collect();
    (params, values)
}

/// Whether the loop's iterations `[0, tripcount)` never dereference item `item` (its access
/// table has no access of that parameter): a pointer passed by value there, such as one
/// `widen` left as the host address because the loop does not use it, may go to every device
/// as it is.
pub(crate) fn never_dereferenced(
    kernel: &Kernel,
    items: &[MapItem],
    tripcount: u64,
    item: usize,
) -> bool {
    let Some(table) = &kernel.accesses else {
        return false;
    };
    let (params, values) = kernel_params(items);
    let Some(p) = params.iter().position(|&i| i == item) else {
        return false;
    };
    matches!(
        table.reach(&values, 0..tripcount, p as u32),
        Reach::Untouched
    )
}

/// Replaces, in `items`, every pointer argument of `kernel` that reaches the launch without an
/// extent and whose data is not present on `dev` by the section the loop reaches (see the
/// module comment). Items of other kernels, and everything under `unified_shared_memory` or
/// `PTXRT_UNMAPPED_POINTERS=pass`, are left as they are.
pub(crate) fn widen(
    loc: &SourceLoc,
    dev: &DeviceState,
    kernel: &Kernel,
    args: &KernelArgs,
    items: &mut [MapItem],
) {
    if !kernel.access_maps || requires::unmapped_pointers() != UnmappedPointers::Error {
        return;
    }
    let (params, values) = kernel_params(items);
    let candidates: Vec<(usize, u32)> = {
        let table = dev.lock_table();
        params
            .iter()
            .enumerate()
            .filter(|&(_, &i)| {
                let it = &items[i];
                !it.ty.literal()
                    && !it.ty.private()
                    && !it.ty.present()
                    // OpenACC: only clang's implicit map of a pointer no clause names, never a
                    // clause's own empty section (no_create of absent data passes the pointer).
                    && (!kernel.openacc || it.ty.implicit())
                    && it.bytes == 0
                    && it.begin != 0
                    && !it.name.is_compiler_generated()
                    && matches!(table.lookup(it.begin, 0), Lookup::Absent)
            })
            .map(|(p, &i)| (i, p as u32))
            .collect()
    };
    if candidates.is_empty() {
        return;
    }
    let words = Words::of(kernel);
    let mut wanted = Vec::new();
    for (i, param) in candidates {
        let it = &items[i];
        let Some(table) = &kernel.accesses else {
            fatal_at(
                loc,
                &format!(
                    "pointer {} is used in {} {} and its data is not present on device {}, and ptxcc could not \
                     tell which elements the loop reaches (-fptxcc-info says why); {}",
                    it.name,
                    words.construct,
                    words.without,
                    dev.label(),
                    words.fix(expr(it))
                ),
            )
        };
        match table.reach(&values, 0..args.tripcount, param) {
            // Never dereferenced: the host address goes to the kernel as it is.
            Reach::Untouched => {
                items[i].ty = MapType(it.ty.0 | MapType::LITERAL);
            }
            Reach::Unknown { whole } => fatal_at(
                loc,
                &format!(
                    "pointer {} is used in {} {} and its data is not present on device {}, and ptxcc cannot tell \
                     which elements the loop reaches ({}); {}",
                    it.name,
                    words.construct,
                    words.without,
                    dev.label(),
                    if whole {
                        "an access that is not affine in the loop's iteration, or a call it cannot see: \
                         -fptxcc-info says which"
                    } else {
                        "the bounds of its accesses overflow with this launch's arguments, or an \
                         `int` subscript may wrap over the loop's iterations"
                    },
                    words.fix(expr(it))
                ),
            ),
            Reach::Bytes {
                lo,
                hi,
                read,
                write,
            } => {
                let start = it.base as i128 + lo;
                let end = it.base as i128 + hi;
                if start < 0 || end > u64::MAX as i128 || end - start > MAX_BYTES || end <= start {
                    fatal_at(
                        loc,
                        &format!(
                            "pointer {} (host {:#x}) is used in {} {}; its {} iterations reach bytes [{lo}, \
                             {hi}) from it, which is not memory a program can hold (a negative or huge bound?); {}",
                            it.name,
                            it.base,
                            words.construct,
                            words.without,
                            args.tripcount,
                            words.fix(expr(it))
                        ),
                    )
                }
                wanted.push(Wanted {
                    item: i,
                    start: start as u64,
                    end: end as u64,
                    read,
                    write,
                });
            }
        }
    }
    let mut mapped = group(loc, items, wanted, &words);
    // In the kernel's parameter order (the debug lines do not depend on the host addresses).
    mapped.sort_by_key(|w| w.item);
    for w in mapped {
        let it = &mut items[w.item];
        let mut bits = it.ty.0 & !(MapType::TO | MapType::FROM);
        if w.read || w.write {
            bits |= MapType::TO;
        }
        if w.write {
            bits |= MapType::FROM;
        }
        it.ty = MapType(bits);
        it.begin = w.start as usize;
        it.bytes = w.end - w.start;
        if runtime::debug_enabled() {
            eprintln!(
                "ptxrt: access maps {loc}: pointer {} mapped by its access range: bytes [{:#x}, {:#x}) ({}), {} bytes from it",
                it.name,
                w.start,
                w.end,
                if w.write { "tofrom" } else { "to" },
                w.start as i128 - it.base as i128
            );
        }
    }
}

/// Why a split cannot take `items`: two of them over overlapping host bytes (two pointers into
/// one array, `f(a, a + 1)`). Each part has a copy per item and the merge lays each item's
/// changes over the host bytes in turn, so one item's copy would undo the other's results; the
/// loop runs on one device, where both items are one copy.
pub(crate) fn overlapping(items: &[MapItem]) -> Option<String> {
    let mut spans: Vec<(usize, usize, &MapItem)> = items
        .iter()
        .filter(|it| !it.ty.literal() && it.bytes > 0)
        .map(|it| (it.begin, it.begin.saturating_add(it.bytes as usize), it))
        .collect();
    spans.sort_by_key(|s| (s.0, s.1));
    spans.windows(2).find(|w| w[1].0 < w[0].1).map(|w| {
        format!(
            "{} and {} overlap (two pointers into one array): the parts' copies could not be merged",
            w[0].2.name, w[1].2.name
        )
    })
}

/// How the errors name the construct and the clause to write: an offloaded `parallel for`
/// (OpenMP's map) or an OpenACC compute construct (a data clause).
struct Words {
    construct: &'static str,
    without: &'static str,
    openacc: bool,
}

impl Words {
    fn of(kernel: &Kernel) -> Words {
        if kernel.openacc {
            Words {
                construct: "the OpenACC compute construct",
                without: "without a data clause",
                openacc: true,
            }
        } else {
            Words {
                construct: "the offloaded parallel loop",
                without: "without a visible extent",
                openacc: false,
            }
        }
    }

    /// What to write instead, for pointer `p`.
    fn fix(&self, p: &str) -> String {
        if self.openacc {
            format!(
                "give it a data clause, e.g. copy({p}[0:n]) (copyin if the construct only reads it), or enclose \
                 the construct in a data region that has one"
            )
        } else {
            format!(
                "map it, e.g. map(tofrom: {p}[0:n]), or enclose the loop in a 'target data' region that maps it"
            )
        }
    }
}

/// `p` for the messages' `map(tofrom: p[0:n])`.
fn expr(it: &MapItem) -> &str {
    if it.name.is_known() {
        &it.name.expr
    } else {
        "p"
    }
}

/// The wanted ranges with overlapping ones joined: every pointer of a group maps the group's
/// hull, read and written as any of them is; a range inside an item the construct maps itself
/// takes that item's extent and type. Stops with an error for a range that overlaps such an
/// item only partly.
fn group(
    loc: &SourceLoc,
    items: &[MapItem],
    mut wanted: Vec<Wanted>,
    words: &Words,
) -> Vec<Wanted> {
    wanted.sort_by_key(|w| (w.start, w.end));
    let mut groups: Vec<(u64, u64, bool, bool, Vec<usize>)> = Vec::new();
    for (k, w) in wanted.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if w.start < g.1 => {
                g.1 = g.1.max(w.end);
                g.2 |= w.read;
                g.3 |= w.write;
                g.4.push(k);
            }
            _ => groups.push((w.start, w.end, w.read, w.write, vec![k])),
        }
    }
    let fixed: Vec<&MapItem> = items
        .iter()
        .filter(|it| !it.ty.literal() && !it.ty.private() && it.bytes > 0)
        .collect();
    let mut out = Vec::with_capacity(wanted.len());
    for (start, end, read, write, members) in groups {
        let (mut s, mut e, mut r, mut wr) = (start, end, read, write);
        for f in &fixed {
            let (fs, fe) = (f.begin as u64, f.begin as u64 + f.bytes);
            if fe <= start || fs >= end {
                continue;
            }
            if fs <= start && end <= fe {
                (s, e, r, wr) = (fs, fe, read || f.ty.to(), write || f.ty.from());
            } else {
                let names: Vec<String> = members
                    .iter()
                    .map(|&k| items[wanted[k].item].name.to_string())
                    .collect();
                fatal_at(
                    loc,
                    &format!(
                        "pointer {} reaches host bytes [{start:#x}, {end:#x}) in {}, which overlap {} (mapped by \
                         the construct, [{fs:#x}, {fe:#x})) only in part; {}, or the whole array",
                        names.join(" and "),
                        words.construct,
                        f.name,
                        words.fix(expr(&items[wanted[members[0]].item]))
                    ),
                );
            }
        }
        for k in members {
            out.push(Wanted {
                item: wanted[k].item,
                start: s,
                end: e,
                read: r,
                write: wr,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source_info::VarName;

    fn item(begin: usize, bytes: u64, ty: u64) -> MapItem {
        MapItem {
            name: VarName::parse(";a;t.c;3;7;;"),
            ..MapItem::for_test(begin, bytes, ty)
        }
    }

    fn group_omp(loc: &SourceLoc, items: &[MapItem], wanted: Vec<Wanted>) -> Vec<Wanted> {
        let words = Words {
            construct: "the offloaded parallel loop",
            without: "without a visible extent",
            openacc: false,
        };
        group(loc, items, wanted, &words)
    }

    #[test]
    fn openacc_errors_ask_for_a_data_clause() {
        let acc = Words {
            construct: "the OpenACC compute construct",
            without: "without a data clause",
            openacc: true,
        };
        assert!(acc
            .fix("Anew")
            .starts_with("give it a data clause, e.g. copy(Anew[0:n])"));
        let omp = Words {
            openacc: false,
            ..acc
        };
        assert!(omp.fix("y").starts_with("map it, e.g. map(tofrom: y[0:n])"));
    }

    fn w(item: usize, start: u64, end: u64, read: bool, write: bool) -> Wanted {
        Wanted {
            item,
            start,
            end,
            read,
            write,
        }
    }

    #[test]
    fn overlapping_pointers_map_their_hull_together() {
        let items = vec![item(0x1000, 0, 0x220), item(0x1008, 0, 0x220)];
        let loc = SourceLoc::default();
        // y = a written [0x1000, 0x1320); x = a + 1 read [0x1008, 0x1328)
        let g = group_omp(
            &loc,
            &items,
            vec![
                w(0, 0x1000, 0x1320, false, true),
                w(1, 0x1008, 0x1328, true, false),
            ],
        );
        assert_eq!(
            g,
            vec![
                w(0, 0x1000, 0x1328, true, true),
                w(1, 0x1000, 0x1328, true, true)
            ]
        );
        // Disjoint ranges stay apart.
        let g = group_omp(
            &loc,
            &items,
            vec![
                w(1, 0x2000, 0x2100, true, false),
                w(0, 0x1000, 0x1100, false, true),
            ],
        );
        assert_eq!(
            g,
            vec![
                w(0, 0x1000, 0x1100, false, true),
                w(1, 0x2000, 0x2100, true, false)
            ]
        );
    }

    #[test]
    fn a_range_inside_a_mapped_array_takes_its_extent() {
        // The construct maps a[0:100] (800 bytes, to only); p = a + 2 reads a[2..10].
        let items = vec![item(0x1000, 800, 0x21), item(0x1010, 0, 0x220)];
        let g = group_omp(
            &SourceLoc::default(),
            &items,
            vec![w(1, 0x1010, 0x1050, false, true)],
        );
        assert_eq!(g, vec![w(1, 0x1000, 0x1320, true, true)]);
    }
}

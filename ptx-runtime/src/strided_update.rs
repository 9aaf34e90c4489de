//! `target update` of strided and multi-dimensional array sections: the entry the driver calls
//! in place of clang's codegen, which drops strides (driver/src/omp_front/strided_update.rs).
//!
//! The section is a descriptor: the host address of its first element, the element size, and
//! per dimension (outermost first) a count and a byte stride. Its elements become one map item
//! per contiguous run (a dimension whose stride is the size of what it steps over merges into
//! the run), each performed as an update list item: present-table lookup, copy, an absent item
//! ignored unless `present` is asked for — exactly what a contiguous item gets.
use crate::errors::fatal_at;
use crate::map_type::MapType;
use crate::mapping::MapItem;
use crate::offload_abi::{run_data_op, DataOp};
use crate::runtime::{self, Target};
use crate::source_info::{SourceLoc, VarName};
use std::ffi::{c_char, c_void, CStr};

/// A contiguous piece of host memory: (first byte, bytes).
pub type Run = (usize, u64);

/// The contiguous runs of a section, in address order of enumeration, adjacent runs merged.
/// Errors: a negative count, a stride that is not positive where the dimension has more than
/// one element, an element size of 0, or a section whose extent overflows the address space.
pub fn runs(first: usize, elem: u64, counts: &[i64], strides: &[i64]) -> Result<Vec<Run>, String> {
    if counts.len() != strides.len() || counts.is_empty() {
        return Err("the section has no dimensions".into());
    }
    if elem == 0 {
        return Err("the section's elements have size 0".into());
    }
    for (d, (&c, &s)) in counts.iter().zip(strides).enumerate() {
        if c < 0 {
            return Err(format!("dimension {} has a negative length ({c})", d + 1));
        }
        if c > 1 && s <= 0 {
            return Err(format!(
                "dimension {} has stride {s} bytes: a section's stride must be positive",
                d + 1
            ));
        }
    }
    if counts.contains(&0) {
        return Ok(Vec::new());
    }
    let total: u128 = counts.iter().map(|&c| c as u128).product();
    let last = counts.len() - 1;
    // The innermost dimension: one run when its elements touch, else one per element.
    let (inner_runs, inner_bytes) = if counts[last] == 1 || strides[last] as u64 == elem {
        (1u64, elem.checked_mul(counts[last] as u64))
    } else {
        (counts[last] as u64, Some(elem))
    };
    let inner_bytes = inner_bytes.ok_or("the section is larger than the address space")?;
    let extent: u128 = counts
        .iter()
        .zip(strides)
        .map(|(&c, &s)| (c as u128 - 1) * s.max(0) as u128)
        .sum::<u128>()
        + elem as u128;
    if first as u128 + extent > usize::MAX as u128 {
        return Err("the section is larger than the address space".into());
    }
    let mut out: Vec<Run> =
        Vec::with_capacity((total / inner_runs.max(1) as u128).min(1 << 20) as usize);
    let mut idx = vec![0i64; last];
    loop {
        let row: usize = first
            + idx
                .iter()
                .zip(strides)
                .map(|(&i, &s)| (i * s) as usize)
                .sum::<usize>();
        for k in 0..inner_runs {
            let at = row + (k as i64 * strides[last]) as usize;
            match out.last_mut() {
                Some((b, n)) if *b + *n as usize == at => *n += inner_bytes,
                _ => out.push((at, inner_bytes)),
            }
        }
        // The next index of the outer dimensions, last fastest.
        let mut d = last;
        loop {
            if d == 0 {
                return Ok(out);
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < counts[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// `target update to/from` of the section described by (`first`, `elem_bytes`, `rank`,
/// `counts`, `strides`) on device `device_id` (-1: the default device). `flags`: the map-type
/// bits (TO or FROM, and PRESENT). `loc` is `file:line:col` of the item, `name` as written.
///
/// # Safety
/// `counts` and `strides` point to `rank` values; `loc` and `name` are NULL or C strings.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __ptxcc_target_update_strided(
    loc: *const c_char,
    device_id: i64,
    name: *const c_char,
    first: *const c_void,
    elem_bytes: i64,
    rank: i64,
    counts: *const i64,
    strides: *const i64,
    flags: i64,
) {
    let text = |p: *const c_char| {
        if p.is_null() {
            String::new()
        } else {
            CStr::from_ptr(p).to_string_lossy().into_owned()
        }
    };
    let loc = parse_loc(&text(loc));
    let name = VarName {
        expr: text(name),
        decl: loc.clone(),
    };
    let rank = rank.clamp(0, 64) as usize;
    if counts.is_null() || strides.is_null() {
        fatal_at(
            &loc,
            &format!("target update of '{}': no section descriptor", name.expr),
        );
    }
    let counts = std::slice::from_raw_parts(counts, rank);
    let strides = std::slice::from_raw_parts(strides, rank);
    let runs = match runs(first as usize, elem_bytes.max(0) as u64, counts, strides) {
        Ok(r) => r,
        Err(e) => fatal_at(&loc, &format!("target update of '{}': {e}", name.expr)),
    };
    let rt = runtime::get();
    let Target::Device(dev) = rt.target(device_id, &loc) else {
        return;
    };
    let ty = MapType::from_raw(flags & (MapType::TO | MapType::FROM | MapType::PRESENT) as i64);
    let list: Vec<MapItem> = runs
        .into_iter()
        .map(|(begin, bytes)| MapItem {
            base: begin,
            begin,
            bytes,
            ty,
            name: name.clone(),
        })
        .collect();
    run_data_op(DataOp::Update, &loc, dev, &list, false);
}

/// `file:line:col` (the file may hold colons) as a location.
fn parse_loc(s: &str) -> SourceLoc {
    let mut parts = s.rsplitn(3, ':');
    let col = parts.next().and_then(|c| c.parse().ok());
    let line = parts.next().and_then(|l| l.parse().ok());
    match (parts.next(), line, col) {
        (Some(file), Some(line), Some(column)) => SourceLoc {
            file: file.to_string(),
            function: String::new(),
            line,
            column,
        },
        _ => SourceLoc::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_dimensional_stride_is_one_run_per_element() {
        // r[0:4:2] of doubles at 1000.
        assert_eq!(
            runs(1000, 8, &[4], &[16]).unwrap(),
            vec![(1000, 8), (1016, 8), (1032, 8), (1048, 8)]
        );
        // Stride 1 is one run.
        assert_eq!(runs(1000, 8, &[4], &[8]).unwrap(), vec![(1000, 32)]);
    }

    #[test]
    fn whole_rows_merge_into_one_copy() {
        // m[0:3][0:8] of double m[3][8]: rows of 64 bytes, back to back.
        assert_eq!(runs(0, 8, &[3, 8], &[64, 8]).unwrap(), vec![(0, 192)]);
        // m[0:3][0:4] of double m[3][8]: three runs of 32 bytes.
        assert_eq!(
            runs(0, 8, &[3, 4], &[64, 8]).unwrap(),
            vec![(0, 32), (64, 32), (128, 32)]
        );
        // m[0:2:2][1:2:3] of int m[4][8]: rows 0 and 2, columns 1 and 4.
        assert_eq!(
            runs(4, 4, &[2, 2], &[64, 12]).unwrap(),
            vec![(4, 4), (16, 4), (68, 4), (80, 4)]
        );
    }

    #[test]
    fn empty_and_single_elements() {
        assert_eq!(runs(0, 8, &[0, 5], &[40, 8]).unwrap(), vec![]);
        // A count of one needs no stride.
        assert_eq!(runs(8, 8, &[1], &[0]).unwrap(), vec![(8, 8)]);
    }

    #[test]
    fn bad_descriptors_are_errors() {
        assert!(runs(0, 8, &[4], &[0])
            .unwrap_err()
            .contains("must be positive"));
        assert!(runs(0, 8, &[4], &[-8])
            .unwrap_err()
            .contains("must be positive"));
        assert!(runs(0, 8, &[-1], &[8])
            .unwrap_err()
            .contains("negative length"));
        assert!(runs(0, 0, &[1], &[8]).is_err());
        assert!(runs(usize::MAX - 16, 8, &[4], &[8]).is_err());
    }

    #[test]
    fn locations_keep_colons_in_file_names() {
        let l = parse_loc("C:/x/a.c:12:7");
        assert_eq!((l.file.as_str(), l.line, l.column), ("C:/x/a.c", 12, 7));
        assert!(!parse_loc("garbage").is_known());
    }
}

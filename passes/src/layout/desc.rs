//! The description of one `trans` directive that the driver writes into the marker calls
//! (`__ptxcc_layout_begin(a, elem, "DESC")`) and that the passes and libptxrt read back:
//! `name;d0,d1,…;g0,g1,…;file:line:col` — the array's name, its logical extents (outermost
//! first), for each dimension the 1-based position it goes to in the device layout, and where
//! the directive is. libptxrt parses the same text (ptx-runtime/src/layout/mod.rs).
use crate::diagnostics::SourceLoc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutDesc {
    pub name: String,
    pub dims: Vec<u64>,
    /// `goes_to[d]`: the 1-based position of dimension d in the device layout.
    pub goes_to: Vec<usize>,
    /// `soa(p[0:n])`: an array of n structs becomes one array per field (written `soa` in
    /// place of the permutation; `goes_to` is empty). The layout pass, which sees the struct,
    /// turns it into the transpose of `[n][fields]` it is (`rewrite::soa_as_transpose`).
    pub soa: bool,
    pub loc: SourceLoc,
}

impl LayoutDesc {
    pub fn encode(&self) -> String {
        let join = |v: Vec<String>| v.join(",");
        format!(
            "{};{};{};{}",
            self.name,
            join(self.dims.iter().map(u64::to_string).collect()),
            if self.soa {
                "soa".to_string()
            } else {
                join(self.goes_to.iter().map(usize::to_string).collect())
            },
            self.loc
        )
    }

    /// None when the text is not a description (or an inconsistent one).
    pub fn decode(s: &str) -> Option<LayoutDesc> {
        let mut parts = s.splitn(4, ';');
        let name = parts.next()?.to_string();
        let dims: Vec<u64> = parts
            .next()?
            .split(',')
            .map(|d| d.parse().ok())
            .collect::<Option<_>>()?;
        let perm = parts.next()?;
        let soa = perm == "soa";
        let goes_to: Vec<usize> = if soa {
            Vec::new()
        } else {
            perm.split(',')
                .map(|d| d.parse().ok())
                .collect::<Option<_>>()?
        };
        let loc = parts.next()?;
        let (rest, col) = loc.rsplit_once(':')?;
        let (file, line) = rest.rsplit_once(':')?;
        let d = LayoutDesc {
            name,
            dims,
            goes_to,
            soa,
            loc: SourceLoc {
                file: file.to_string(),
                line: line.parse().ok()?,
                col: col.parse().ok()?,
            },
        };
        (d.order().is_some() && d.dims.iter().all(|&x| x > 0)).then_some(d)
    }

    /// `order[p]`: the (0-based) dimension at position p of the device layout; None when
    /// `goes_to` is not a permutation of 1..=rank.
    pub fn order(&self) -> Option<Vec<usize>> {
        if self.soa {
            return (self.dims.len() == 1).then(|| vec![0]);
        }
        if self.goes_to.len() != self.dims.len() || self.dims.is_empty() {
            return None;
        }
        let mut order = vec![usize::MAX; self.dims.len()];
        for (d, &g) in self.goes_to.iter().enumerate() {
            let p = g.checked_sub(1)?;
            if p >= order.len() || order[p] != usize::MAX {
                return None;
            }
            order[p] = d;
        }
        Some(order)
    }

    /// Extents of the device layout, outermost first.
    pub fn device_dims(&self) -> Vec<u64> {
        self.order()
            .map(|o| o.iter().map(|&d| self.dims[d]).collect())
            .unwrap_or_default()
    }

    /// Element stride of each (original) dimension in the original layout.
    pub fn strides(&self) -> Vec<u64> {
        row_major_strides(&self.dims)
    }

    /// Element stride of each (original) dimension in the device layout.
    pub fn device_strides(&self) -> Vec<u64> {
        let Some(order) = self.order() else {
            return Vec::new();
        };
        let s = row_major_strides(&self.device_dims());
        let mut out = vec![0; self.dims.len()];
        for (p, &d) in order.iter().enumerate() {
            out[d] = s[p];
        }
        out
    }

    /// `a[8][6][5]`.
    pub fn shape_text(dims: &[u64]) -> String {
        dims.iter().map(|d| format!("[{d}]")).collect()
    }
}

pub fn row_major_strides(dims: &[u64]) -> Vec<u64> {
    let mut s = vec![1u64; dims.len()];
    for d in (0..dims.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * dims[d + 1];
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let d = LayoutDesc {
            name: "a".into(),
            dims: vec![8, 6, 5],
            goes_to: vec![1, 3, 2],
            soa: false,
            loc: SourceLoc {
                file: "dir/x.c".into(),
                line: 12,
                col: 9,
            },
        };
        let t = d.encode();
        assert_eq!(t, "a;8,6,5;1,3,2;dir/x.c:12:9");
        assert_eq!(LayoutDesc::decode(&t), Some(d.clone()));
        assert_eq!(d.device_dims(), vec![8, 5, 6]);
        assert_eq!(d.device_strides(), vec![30, 1, 6]);
        let c = LayoutDesc {
            goes_to: vec![2, 3, 1],
            ..d
        };
        // [I][J][K] → [K][I][J].
        assert_eq!(c.device_dims(), vec![5, 8, 6]);
        assert_eq!(c.device_strides(), vec![6, 1, 48]);
        assert!(LayoutDesc::decode("a;8,6;1,1;x.c:1:1").is_none());
        let s = LayoutDesc::decode("p;100;soa;x.c:1:2").expect("soa");
        assert!(s.soa);
        assert_eq!(s.encode(), "p;100;soa;x.c:1:2");
        assert!(LayoutDesc::decode("p;100,2;soa;x.c:1:2").is_none());
    }
}

//! The description of one `trans` directive that the driver writes into the marker calls
//! (`__ptxcc_layout_begin(a, elem, "DESC")`) and that the passes and libptxrt read back:
//! `name;d0,d1,…;g0,g1,…;file:line:col` — the array's name, its logical extents (outermost
//! first; `?` for an extent known at run time only), for each dimension the 1-based position
//! it goes to in the device layout, and where the directive is. libptxrt parses the same text
//! (ptx-runtime/src/layout/mod.rs).
//!
//! Run-time extents: the begin call also passes every extent's value (an array), libptxrt
//! converts with those values, and the kernels read them from a device global the runtime
//! fills at the begin (`ext_global_name`; host_plan creates it, rewrite loads from it).
//!
//! `@N` after the permutation (`a;8,6,4;1,3,2@16;x.c:3:9`): the rewritten kernels assume the
//! device copy starts on an N-byte boundary (`align.rs`: they read it in N-byte vectors), and
//! libptxrt checks that at each launch.
use crate::diagnostics::SourceLoc;

/// One extent of the described shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extent {
    Const(u64),
    /// Known at run time only (the begin call passes its value).
    Runtime,
}

impl Extent {
    pub fn value(self) -> Option<u64> {
        match self {
            Extent::Const(n) => Some(n),
            Extent::Runtime => None,
        }
    }
}

impl std::fmt::Display for Extent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Extent::Const(n) => write!(f, "{n}"),
            Extent::Runtime => f.write_str("?"),
        }
    }
}

/// The length of an `auto` pointer section: elements of `elem` bytes (what clang's map size
/// multiplies the section's length by); the rewrite, which sees the accesses' element or struct
/// size, turns it into a count of those. `factor`: a constant the host proved the length a
/// multiple of (`a[0:n*4]`: 4), so that a flat section indexed `a[i*4+c]` may be reshaped to
/// `[len/4][4]` exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionLen {
    pub elem: u64,
    pub factor: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutDesc {
    pub name: String,
    pub dims: Vec<Extent>,
    /// `goes_to[d]`: the 1-based position of dimension d in the device layout.
    pub goes_to: Vec<usize>,
    /// `soa(p[0:n])`: an array of n structs becomes one array per field (written `soa` in
    /// place of the permutation; `goes_to` is empty). The layout pass, which sees the struct,
    /// turns it into the transpose of `[n][fields]` it is (`rewrite::soa_as_transpose`).
    pub soa: bool,
    /// `-fptxcc-layout=auto`: the permutation (written `auto`; `goes_to` is the identity until
    /// then) is the rewrite's to choose (`auto::decide`).
    pub auto: bool,
    /// An `auto` description of an array mapped as a pointer section (`p[0:n]`): what its one
    /// extent counts (written `auto:24`, or `auto:8*4` with a factor). None: the extents count
    /// the array's own elements.
    pub section: Option<SectionLen>,
    /// The alignment of the device copy's start the rewritten kernels assume, beyond their
    /// element's (written `@N` after the permutation; `align.rs`). None: the element's only.
    pub base_align: Option<u64>,
    pub loc: SourceLoc,
}

/// The text of a description -fptxcc-layout=auto resolved (`a;8,6;~2,1;x.c:9:1`): `~` before
/// the permutation tells libptxrt that no directive the user wrote laid the array out, so that
/// its messages name auto instead.
pub fn mark_chosen(text: &str) -> String {
    let parts: Vec<&str> = text.splitn(4, ';').collect();
    match parts[..] {
        [name, dims, perm, loc] if !perm.starts_with('~') => format!("{name};{dims};~{perm};{loc}"),
        _ => text.to_string(),
    }
}

impl LayoutDesc {
    pub fn encode(&self) -> String {
        let join = |v: Vec<String>| v.join(",");
        format!(
            "{};{};{}{};{}",
            self.name,
            join(self.dims.iter().map(Extent::to_string).collect()),
            if self.soa {
                "soa".to_string()
            } else if self.auto {
                match self.section {
                    Some(SectionLen { elem, factor: 1 }) => format!("{}:{elem}", super::auto::AUTO),
                    Some(SectionLen { elem, factor }) => {
                        format!("{}:{elem}*{factor}", super::auto::AUTO)
                    }
                    None => super::auto::AUTO.to_string(),
                }
            } else {
                join(self.goes_to.iter().map(usize::to_string).collect())
            },
            self.base_align.map(|a| format!("@{a}")).unwrap_or_default(),
            self.loc
        )
    }

    /// None when the text is not a description (or an inconsistent one).
    pub fn decode(s: &str) -> Option<LayoutDesc> {
        let mut parts = s.splitn(4, ';');
        let name = parts.next()?.to_string();
        let dims: Vec<Extent> = parts
            .next()?
            .split(',')
            .map(|d| match d {
                "?" => Some(Extent::Runtime),
                n => n.parse().ok().filter(|&n| n > 0).map(Extent::Const),
            })
            .collect::<Option<_>>()?;
        // `~`: -fptxcc-layout=auto chose the permutation (`mark_chosen`).
        let field = parts.next()?;
        let field = field.strip_prefix('~').unwrap_or(field);
        let (perm, base_align) = match field.split_once('@') {
            Some((p, a)) => (
                p,
                Some(a.parse().ok().filter(|a: &u64| a.is_power_of_two())?),
            ),
            None => (field, None),
        };
        let soa = perm == "soa";
        let (auto, section) = match perm.split_once(':') {
            Some((a, c)) if a == super::auto::AUTO => {
                let (e, f) = c.split_once('*').unwrap_or((c, "1"));
                let elem: u64 = e.parse().ok().filter(|&e| e > 0)?;
                let factor: u64 = f.parse().ok().filter(|&f| f > 0)?;
                (true, Some(SectionLen { elem, factor }))
            }
            _ => (perm == super::auto::AUTO, None),
        };
        let goes_to: Vec<usize> = if soa {
            Vec::new()
        } else if auto {
            (1..=dims.len()).collect()
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
            auto,
            section,
            base_align,
            loc: SourceLoc {
                file: file.to_string(),
                line: line.parse().ok()?,
                col: col.parse().ok()?,
            },
        };
        d.order().is_some().then_some(d)
    }

    /// The extents when all are compile-time constants.
    pub fn const_dims(&self) -> Option<Vec<u64>> {
        self.dims.iter().map(|e| e.value()).collect()
    }

    /// Does an extent come at run time?
    pub fn has_runtime_extents(&self) -> bool {
        self.dims.contains(&Extent::Runtime)
    }

    /// The device global (host_plan creates it, a `declare target` global the runtime fills
    /// at the begin) whose `i64` elements hold the extents the kernels read: a name made of a
    /// hash of the description text, the same in the host plan and in the rewrite.
    pub fn ext_global_name(desc_text: &str) -> String {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for &b in desc_text.as_bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        format!("__ptxcc_layout_ext_{h:016x}")
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
    pub fn device_dims(&self) -> Vec<Extent> {
        self.order()
            .map(|o| o.iter().map(|&d| self.dims[d]).collect())
            .unwrap_or_default()
    }

    /// Element stride of each (original) dimension in the original layout (constant extents).
    pub fn strides(&self) -> Option<Vec<u64>> {
        Some(row_major_strides(&self.const_dims()?))
    }

    /// Element stride of each (original) dimension in the device layout (constant extents).
    pub fn device_strides(&self) -> Option<Vec<u64>> {
        let order = self.order()?;
        let dev: Vec<u64> = self
            .device_dims()
            .iter()
            .map(|e| e.value())
            .collect::<Option<_>>()?;
        let s = row_major_strides(&dev);
        let mut out = vec![0; self.dims.len()];
        for (p, &d) in order.iter().enumerate() {
            out[d] = s[p];
        }
        Some(out)
    }

    /// `a[8][6][5]` (`[?]` for a run-time extent).
    pub fn shape_text(dims: &[Extent]) -> String {
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
            dims: vec![Extent::Const(8), Extent::Const(6), Extent::Const(5)],
            goes_to: vec![1, 3, 2],
            soa: false,
            auto: false,
            section: None,
            base_align: None,
            loc: SourceLoc {
                file: "dir/x.c".into(),
                line: 12,
                col: 9,
            },
        };
        let t = d.encode();
        assert_eq!(t, "a;8,6,5;1,3,2;dir/x.c:12:9");
        assert_eq!(LayoutDesc::decode(&t), Some(d.clone()));
        assert_eq!(
            d.device_dims(),
            vec![Extent::Const(8), Extent::Const(5), Extent::Const(6)]
        );
        assert_eq!(d.device_strides(), Some(vec![30, 1, 6]));
        let c = LayoutDesc {
            goes_to: vec![2, 3, 1],
            ..d
        };
        // [I][J][K] → [K][I][J].
        assert_eq!(
            c.device_dims(),
            vec![Extent::Const(5), Extent::Const(8), Extent::Const(6)]
        );
        assert_eq!(c.device_strides(), Some(vec![6, 1, 48]));
        assert!(LayoutDesc::decode("a;8,6;1,1;x.c:1:1").is_none());
        // What auto chose is marked for libptxrt, and reads as the same layout.
        let chosen = mark_chosen(&t);
        assert_eq!(chosen, "a;8,6,5;~1,3,2;dir/x.c:12:9");
        assert_eq!(mark_chosen(&chosen), chosen);
        assert_eq!(LayoutDesc::decode(&chosen), LayoutDesc::decode(&t));
        let s = LayoutDesc::decode("p;100;soa;x.c:1:2").expect("soa");
        assert!(s.soa);
        assert_eq!(s.encode(), "p;100;soa;x.c:1:2");
        assert!(LayoutDesc::decode("p;100,2;soa;x.c:1:2").is_none());
        assert!(LayoutDesc::decode("a;0,6;1,2;x.c:1:1").is_none());
        let a = LayoutDesc::decode("a;8,6,5;auto;x.c:1:1").expect("auto");
        assert!(a.auto && a.goes_to == vec![1, 2, 3]);
        assert_eq!(a.encode(), "a;8,6,5;auto;x.c:1:1");
        let p = LayoutDesc::decode("p;?;auto:24;x.c:1:1").expect("auto of a pointer section");
        assert!(p.auto && p.has_runtime_extents());
        assert_eq!(
            p.section,
            Some(SectionLen {
                elem: 24,
                factor: 1
            })
        );
        let f = LayoutDesc::decode("a;?;auto:8*4;x.c:1:1").expect("with a factor");
        assert_eq!(f.section, Some(SectionLen { elem: 8, factor: 4 }));
        assert_eq!(f.encode(), "a;?;auto:8*4;x.c:1:1");
        assert_eq!(p.encode(), "p;?;auto:24;x.c:1:1");
        assert!(LayoutDesc::decode("p;?;auto:0;x.c:1:1").is_none());
        assert!(LayoutDesc::decode("p;?;auto:x;x.c:1:1").is_none());
        let r = LayoutDesc::decode("a;?,6,?;1,3,2;x.c:1:1").expect("run-time extents");
        assert_eq!(
            r.dims,
            vec![Extent::Runtime, Extent::Const(6), Extent::Runtime]
        );
        assert!(r.has_runtime_extents() && r.const_dims().is_none() && r.strides().is_none());
        assert_eq!(r.encode(), "a;?,6,?;1,3,2;x.c:1:1");
        assert_eq!(LayoutDesc::shape_text(&r.device_dims()), "[?][?][6]");
        let v = LayoutDesc::decode("a;8,6,4;1,3,2@16;x.c:1:1").expect("a base alignment");
        assert_eq!(v.base_align, Some(16));
        assert_eq!(v.goes_to, vec![1, 3, 2]);
        assert_eq!(v.encode(), "a;8,6,4;1,3,2@16;x.c:1:1");
        assert!(LayoutDesc::decode("a;8,6,4;1,3,2@12;x.c:1:1").is_none());
        assert!(LayoutDesc::decode("a;8,6,4;1,3,2@;x.c:1:1").is_none());
    }
}

//! The map-type bits of libomptarget (`OMP_TGT_MAPTYPE_*`) that clang puts in `.offload_maptypes`.

use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MapType(pub u64);

impl MapType {
    pub const TO: u64 = 0x1;
    pub const FROM: u64 = 0x2;
    pub const ALWAYS: u64 = 0x4;
    pub const DELETE: u64 = 0x8;
    pub const PTR_AND_OBJ: u64 = 0x10;
    pub const TARGET_PARAM: u64 = 0x20;
    pub const RETURN_PARAM: u64 = 0x40;
    pub const PRIVATE: u64 = 0x80;
    pub const LITERAL: u64 = 0x100;
    pub const IMPLICIT: u64 = 0x200;
    pub const CLOSE: u64 = 0x400;
    pub const PRESENT: u64 = 0x1000;
    pub const OMPX_HOLD: u64 = 0x2000;
    pub const NON_CONTIG: u64 = 0x1000_0000_0000;
    pub const MEMBER_OF: u64 = 0xffff_0000_0000_0000;

    pub fn from_raw(raw: i64) -> MapType {
        MapType(raw as u64)
    }
    fn has(self, bit: u64) -> bool {
        self.0 & bit != 0
    }
    pub fn to(self) -> bool {
        self.has(Self::TO)
    }
    pub fn from(self) -> bool {
        self.has(Self::FROM)
    }
    pub fn always(self) -> bool {
        self.has(Self::ALWAYS)
    }
    pub fn delete(self) -> bool {
        self.has(Self::DELETE)
    }
    pub fn ptr_and_obj(self) -> bool {
        self.has(Self::PTR_AND_OBJ)
    }
    pub fn target_param(self) -> bool {
        self.has(Self::TARGET_PARAM)
    }
    pub fn return_param(self) -> bool {
        self.has(Self::RETURN_PARAM)
    }
    pub fn private(self) -> bool {
        self.has(Self::PRIVATE)
    }
    pub fn literal(self) -> bool {
        self.has(Self::LITERAL)
    }
    pub fn implicit(self) -> bool {
        self.has(Self::IMPLICIT)
    }
    pub fn present(self) -> bool {
        self.has(Self::PRESENT)
    }
    pub fn hold(self) -> bool {
        self.has(Self::OMPX_HOLD)
    }
    pub fn non_contiguous(self) -> bool {
        self.has(Self::NON_CONTIG)
    }
    /// The 0-based index of the parent entry (MEMBER_OF is 1-based), if any.
    pub fn member_of(self) -> Option<usize> {
        let m = (self.0 & Self::MEMBER_OF) >> 48;
        if m == 0 || m == 0xffff {
            None
        } else {
            Some(m as usize - 1)
        }
    }
    /// Not mapped at all: passed by value (LITERAL) or privatised (PRIVATE).
    pub fn is_unmapped(self) -> bool {
        self.literal() || self.private()
    }
}

impl fmt::Debug for MapType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (Self::TO, "to"),
            (Self::FROM, "from"),
            (Self::ALWAYS, "always"),
            (Self::DELETE, "delete"),
            (Self::PTR_AND_OBJ, "ptr_and_obj"),
            (Self::TARGET_PARAM, "target_param"),
            (Self::RETURN_PARAM, "return_param"),
            (Self::PRIVATE, "private"),
            (Self::LITERAL, "literal"),
            (Self::IMPLICIT, "implicit"),
            (Self::CLOSE, "close"),
            (Self::PRESENT, "present"),
            (Self::OMPX_HOLD, "ompx_hold"),
        ];
        let mut first = true;
        write!(f, "MapType(")?;
        for (bit, name) in names {
            if self.0 & bit != 0 {
                if !first {
                    write!(f, "|")?;
                }
                first = false;
                write!(f, "{name}")?;
            }
        }
        if let Some(p) = self.member_of() {
            write!(f, "{}member_of({})", if first { "" } else { "|" }, p + 1)?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn decodes_clang_values() {
        // map(to: s->p[0:n]) member of entry 1: 0x1000000000011
        let t = MapType::from_raw(281474976710673);
        assert!(t.to() && t.ptr_and_obj() && !t.from());
        assert_eq!(t.member_of(), Some(0));
        // implicit literal scalar
        let t = MapType::from_raw(800);
        assert!(t.literal() && t.implicit() && t.target_param());
        assert_eq!(t.member_of(), None);
        // present, tofrom, target_param
        let t = MapType::from_raw(4131);
        assert!(t.present() && t.to() && t.from() && t.target_param());
    }
}

//! Source locations and variable names carried by clang's `ident_t::psource`
//! (`";file;func;line;col;;"`) and `.offload_mapnames` entries (`";x[0:n];file.c;6;35;;"`).

use crate::abi::{c_str, Ident};
use std::ffi::c_void;
use std::fmt;

/// Where a construct is in the user's source.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct SourceLoc {
    pub file: String,
    pub function: String,
    pub line: u32,
    pub column: u32,
}

impl SourceLoc {
    /// Parses `";file;func;line;col;;"`. Unknown parts stay empty/zero.
    pub fn parse(psource: &str) -> SourceLoc {
        let mut parts = psource.split(';');
        let _ = parts.next(); // leading empty field
        let file = parts.next().unwrap_or("").to_string();
        let function = parts.next().unwrap_or("").to_string();
        let line = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        let column = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        let unknown = |s: &str| s.is_empty() || s == "unknown";
        SourceLoc {
            file: if unknown(&file) { String::new() } else { file },
            function: if unknown(&function) {
                String::new()
            } else {
                function
            },
            line,
            column,
        }
    }

    /// # Safety
    /// `loc` must be NULL or a valid `ident_t`.
    pub unsafe fn from_ident(loc: *const Ident) -> SourceLoc {
        if loc.is_null() {
            return SourceLoc::default();
        }
        match c_str((*loc).psource) {
            Some(s) => SourceLoc::parse(&s),
            None => SourceLoc::default(),
        }
    }

    pub fn is_known(&self) -> bool {
        !self.file.is_empty() && self.line != 0
    }
}

impl fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_known() {
            return write!(f, "<unknown location>");
        }
        write!(f, "{}:{}", self.file, self.line)?;
        if self.column != 0 {
            write!(f, ":{}", self.column)?;
        }
        Ok(())
    }
}

/// The name of a mapped variable as the user wrote it (`x[0:n]`), with its declaration line.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct VarName {
    pub expr: String,
    pub decl: SourceLoc,
}

impl VarName {
    /// Parses `";x[0:n];file.c;6;35;;"`.
    pub fn parse(s: &str) -> VarName {
        let mut parts = s.split(';');
        let _ = parts.next();
        let expr = parts.next().unwrap_or("").to_string();
        let rest: Vec<&str> = parts.collect();
        let decl = SourceLoc::parse(&format!(
            ";{};;{}",
            rest.first().unwrap_or(&""),
            rest[1.min(rest.len())..].join(";")
        ));
        VarName {
            expr: if expr == "unknown" {
                String::new()
            } else {
                expr
            },
            decl,
        }
    }

    /// # Safety
    /// `names` must be NULL or an array of at least `i + 1` entries, each NULL or a C string.
    pub unsafe fn from_names(names: *const *mut c_void, i: usize) -> VarName {
        if names.is_null() {
            return VarName::default();
        }
        let p = *names.add(i) as *const std::ffi::c_char;
        match c_str(p) {
            Some(s) => VarName::parse(&s),
            None => VarName::default(),
        }
    }

    pub fn is_known(&self) -> bool {
        !self.expr.is_empty()
    }

    /// A variable clang made, not one of the program's: clang names its captures with a leading
    /// dot (`.task_red.`, the task reduction descriptor a `target in_reduction` region
    /// captures), which no C identifier or expression starts with.
    pub fn is_compiler_generated(&self) -> bool {
        self.expr.starts_with('.')
    }
}

impl fmt::Display for VarName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_known() {
            write!(f, "'{}'", self.expr)
        } else {
            write!(f, "<unnamed>")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn compiler_generated_names() {
        assert!(VarName::parse(";.task_red.;t.c;31;38;;").is_compiler_generated());
        assert!(!VarName::parse(";p;t.c;3;7;;").is_compiler_generated());
        assert!(!VarName::default().is_compiler_generated());
    }

    #[test]
    fn parses_ident_and_names() {
        let l = SourceLoc::parse(";saxpy.c;saxpy;12;5;;");
        assert_eq!(l.to_string(), "saxpy.c:12:5");
        assert_eq!(l.function, "saxpy");
        assert_eq!(
            SourceLoc::parse(";unknown;unknown;0;0;;").to_string(),
            "<unknown location>"
        );
        let v = VarName::parse(";x[0:n];file.c;6;35;;");
        assert_eq!(v.expr, "x[0:n]");
        assert_eq!(v.decl.file, "file.c");
        assert_eq!(v.decl.line, 6);
        assert_eq!(v.decl.column, 35);
        assert_eq!(
            VarName::parse(";unknown;unknown;0;0;;").to_string(),
            "<unnamed>"
        );
        assert_eq!(VarName::parse("").to_string(), "<unnamed>");
    }
}

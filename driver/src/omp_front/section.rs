//! OpenMP array sections read as text: `base[lower:length:stride][i]…` split into the base
//! expression and one subscript per trailing bracket pair, as written.
use crate::offload_parallel_for::directive::split_top;

/// One trailing subscript of a list item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subscript {
    /// `[e]`: one element of that dimension.
    Index(String),
    /// `[lower:length:stride]`, each part as written (None where omitted).
    Section {
        lower: Option<String>,
        length: Option<String>,
        stride: Option<String>,
    },
}

impl Subscript {
    /// The stride as written, when it is not omitted and not the literal 1.
    pub fn explicit_stride(&self) -> Option<&str> {
        match self {
            Subscript::Section {
                stride: Some(s), ..
            } if s.trim() != "1" => Some(s.as_str()),
            _ => None,
        }
    }

    pub fn is_section(&self) -> bool {
        matches!(self, Subscript::Section { .. })
    }

    /// The subscript as written back (`[i]`, `[lo:len]`, `[lo:len:stride]`).
    pub fn render(&self) -> String {
        match self {
            Subscript::Index(i) => format!("[{i}]"),
            Subscript::Section {
                lower,
                length,
                stride,
            } => {
                let mut s = format!(
                    "[{}:{}",
                    lower.as_deref().unwrap_or(""),
                    length.as_deref().unwrap_or("")
                );
                if let Some(st) = stride {
                    s.push(':');
                    s.push_str(st);
                }
                s.push(']');
                s
            }
        }
    }
}

/// A list item of the form `base[…][…]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArraySection {
    /// The expression the subscripts apply to (`r`, `s.x`, `p->v`).
    pub base: String,
    pub subscripts: Vec<Subscript>,
}

/// Why an item that looks like an array section cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SectionError {
    /// A subscript with more than two `:` at its top level (`a[0:n:2:1]`), or one whose `:`
    /// may belong to a conditional expression (`a[c ? 0 : 1:n]`).
    Unreadable(String),
}

impl ArraySection {
    /// Reads `item`. `Ok(None)` when it has no trailing subscript with a `:` (a variable, an
    /// element, a member): nothing for this module.
    pub fn parse(item: &str) -> Result<Option<ArraySection>, SectionError> {
        let item = item.trim();
        // Trailing bracket groups, right to left.
        let bytes = item.as_bytes();
        let mut end = item.len();
        let mut groups: Vec<&str> = Vec::new();
        while end > 0 && bytes[end - 1] == b']' {
            let Some(open) = matching_open(item, end - 1) else {
                return Ok(None);
            };
            groups.push(&item[open + 1..end - 1]);
            end = open;
            // Blanks between the base and its subscripts (`a [0:n]`).
            while end > 0 && bytes[end - 1].is_ascii_whitespace() {
                end -= 1;
            }
        }
        groups.reverse();
        let base = item[..end].trim();
        if base.is_empty() || groups.is_empty() {
            return Ok(None);
        }
        let mut subscripts = Vec::with_capacity(groups.len());
        for g in groups {
            let parts = split_top(g, ':');
            if parts.len() > 1 && split_top(g, '?').len() > 1 {
                return Err(SectionError::Unreadable(g.to_string()));
            }
            let part = |i: usize| -> Option<String> {
                parts
                    .get(i)
                    .map(|p| p.trim())
                    .filter(|p| !p.is_empty())
                    .map(str::to_string)
            };
            subscripts.push(match parts.len() {
                1 => Subscript::Index(g.trim().to_string()),
                2 | 3 => Subscript::Section {
                    lower: part(0),
                    length: part(1),
                    stride: part(2),
                },
                _ => return Err(SectionError::Unreadable(g.to_string())),
            });
        }
        if !subscripts.iter().any(Subscript::is_section) {
            return Ok(None);
        }
        Ok(Some(ArraySection {
            base: base.to_string(),
            subscripts,
        }))
    }

    /// The item needs more than one contiguous copy, or a stride clang 19 would drop: a stride
    /// other than 1, or more than one section subscript.
    pub fn is_strided_or_multidimensional(&self) -> bool {
        self.subscripts
            .iter()
            .any(|s| s.explicit_stride().is_some())
            || self.subscripts.iter().filter(|s| s.is_section()).count() > 1
    }
}

/// The index of the `[` that matches the `]` at `close`.
fn matching_open(s: &str, close: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in s[..=close].char_indices().rev() {
        match c {
            ']' | ')' | '}' => depth += 1,
            '[' | '(' | '{' => {
                depth -= 1;
                if depth == 0 {
                    return (c == '[').then_some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sec(lower: &str, length: &str, stride: Option<&str>) -> Subscript {
        let o = |s: &str| (!s.is_empty()).then(|| s.to_string());
        Subscript::Section {
            lower: o(lower),
            length: o(length),
            stride: stride.map(str::to_string),
        }
    }

    #[test]
    fn plain_items_are_not_sections() {
        assert_eq!(ArraySection::parse("x").unwrap(), None);
        assert_eq!(ArraySection::parse("a[3]").unwrap(), None);
        assert_eq!(ArraySection::parse("s.v[i].w").unwrap(), None);
        assert_eq!(ArraySection::parse("f(a[1:2])").unwrap(), None);
    }

    #[test]
    fn strided_and_multidimensional_sections() {
        let s = ArraySection::parse(" r[0:8:2] ").unwrap().unwrap();
        assert_eq!(s.base, "r");
        assert_eq!(s.subscripts, vec![sec("0", "8", Some("2"))]);
        assert!(s.is_strided_or_multidimensional());

        let s = ArraySection::parse("p->m[i][1:n-2][:]").unwrap().unwrap();
        assert_eq!(s.base, "p->m");
        assert_eq!(
            s.subscripts,
            vec![
                Subscript::Index("i".into()),
                sec("1", "n-2", None),
                sec("", "", None)
            ]
        );
        assert!(s.is_strided_or_multidimensional());

        let s = ArraySection::parse("a[f(i)[0]:n:1]").unwrap().unwrap();
        assert_eq!(s.base, "a");
        assert_eq!(s.subscripts, vec![sec("f(i)[0]", "n", Some("1"))]);
        assert!(
            !s.is_strided_or_multidimensional(),
            "a stride of 1 is contiguous"
        );
    }

    #[test]
    fn unreadable_subscripts_are_errors() {
        assert!(ArraySection::parse("a[c ? 0 : 1:n]").is_err());
        assert!(ArraySection::parse("a[0:1:2:3]").is_err());
        // Parenthesised, the conditional is fine.
        assert!(ArraySection::parse("a[(c ? 0 : 1):n:2]").unwrap().is_some());
    }
}

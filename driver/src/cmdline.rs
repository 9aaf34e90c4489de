//! Raw command-line handling around the parser: `@file` response files (CMake and libtool use
//! them for long link lines) and the quoting ptxcc uses when it prints a command (`-v`, `-###`).
use std::path::Path;

/// Expands `@file` arguments the way clang does: the file's contents, split into words with
/// GNU quoting rules, replace the argument (recursively, up to a depth). An `@name` that names no
/// readable file stays as it is.
pub fn expand_response_files(args: Vec<String>) -> Vec<String> {
    expand(args, 0)
}

fn expand(args: Vec<String>, depth: u32) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    for arg in args {
        match arg.strip_prefix('@') {
            Some(name) if depth < 16 && !name.is_empty() => {
                match std::fs::read_to_string(Path::new(name)) {
                    Ok(text) => out.extend(expand(split_words(&text), depth + 1)),
                    Err(_) => out.push(arg),
                }
            }
            _ => out.push(arg),
        }
    }
    out
}

/// Splits a response file into words: whitespace separates, single and double quotes group,
/// a backslash escapes the next character (GNU style).
pub fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') => {
                if let Some(next) = chars.next() {
                    cur.push(next);
                }
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// One argument as clang's `-###` prints it: in double quotes, with `"`, `\` and `$` escaped.
pub fn quote(arg: &str) -> String {
    let mut s = String::with_capacity(arg.len() + 2);
    s.push('"');
    for c in arg.chars() {
        if matches!(c, '"' | '\\' | '$') {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert_eq!(split_words("a b\n\tc"), ["a", "b", "c"]);
        assert_eq!(split_words("'a b' \"c d\" e\\ f"), ["a b", "c d", "e f"]);
        assert_eq!(split_words("-DX=\"1\" ''"), ["-DX=1", ""]);
        assert_eq!(split_words("  "), Vec::<String>::new());
    }

    #[test]
    fn response_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let inner = dir.path().join("inner.rsp");
        std::fs::write(&inner, "-lm").expect("write");
        let outer = dir.path().join("outer.rsp");
        std::fs::write(&outer, format!("a.o 'b c.o' @{}", inner.display())).expect("write");
        let got = expand_response_files(vec![
            "-O2".into(),
            format!("@{}", outer.display()),
            "@missing".into(),
        ]);
        assert_eq!(got, ["-O2", "a.o", "b c.o", "-lm", "@missing"]);
    }

    #[test]
    fn quoting() {
        assert_eq!(quote("-DX=\"a b\""), "\"-DX=\\\"a b\\\"\"");
        assert_eq!(quote("$x\\"), "\"\\$x\\\\\"");
    }
}

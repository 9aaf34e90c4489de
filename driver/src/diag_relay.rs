//! Relays clang's diagnostics on text that ptxcc wrote (the OpenMP an OpenACC pragma became),
//! with their locations moved back to the user's source.
//!
//! Line markers keep clang's line numbers the user's, but a column on a line ptxcc generated is
//! a column of the generated text, and clang quotes that text. The driver captures clang's
//! standard error, asks a [`Locator`] (the front end, which knows what it generated from which
//! pragma) where each diagnostic's location is in the user's file, and rewrites the diagnostic:
//! `file:line:col` in its first line, the quoted source line and the caret under it. Anything
//! the locator does not claim is passed through byte for byte.
//!
//! Clang's layout (clang 19): a header `file:line:col: kind: message`, then, unless
//! -fno-caret-diagnostics, the source line (`  12 | text`, or the bare text with
//! -fno-diagnostics-show-line-numbers), the caret line (`     |     ^~~~`) and fix-it lines
//! under it. With -fcolor-diagnostics the lines carry ANSI escapes, which are ignored when
//! reading and kept where the text is kept.

/// Where a location on generated text is in the user's source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    pub file: String,
    pub line: u32,
    /// None when no column can be given (the user's file cannot be read or differs).
    pub col: Option<u32>,
    /// The user's source line `line`, to quote.
    pub source: Option<String>,
}

pub trait Locator {
    /// Where clang's location `file:line:col` (presumed file and line, byte column) is in the
    /// user's source, when it is on text the locator generated; `quoted` is the source line
    /// clang showed for it, when it showed one.
    fn locate(&self, file: &str, line: u32, col: u32, quoted: Option<&str>) -> Option<Located>;
}

/// `text` without ANSI escape sequences (`ESC [ … letter`).
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            chars.next();
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// A diagnostic header's location: (file, line, col, the `file:line:col` text, whether it is a
/// note).
fn header(line: &str) -> Option<(String, u32, u32, String, bool)> {
    const KINDS: [&str; 5] = [
        ": fatal error: ",
        ": error: ",
        ": warning: ",
        ": note: ",
        ": remark: ",
    ];
    let (at, kind) = KINDS
        .iter()
        .filter_map(|k| line.find(k).map(|at| (at, *k)))
        .min()?;
    let loc = &line[..at];
    let mut parts = loc.rsplitn(3, ':');
    let col = parts.next()?.parse().ok()?;
    let ln = parts.next()?.parse().ok()?;
    let file = parts.next()?;
    if file.is_empty() {
        return None;
    }
    Some((
        file.to_string(),
        ln,
        col,
        loc.to_string(),
        kind == ": note: ",
    ))
}

/// A quoted source line with clang's line-number gutter: (gutter width, line text).
fn numbered_quote(line: &str) -> Option<(usize, &str)> {
    let (gutter, text) = line
        .split_once(" | ")
        .or_else(|| line.strip_suffix(" |").map(|g| (g, "")))?;
    let number = gutter.trim_start();
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((gutter.len(), text))
}

/// A line under the quote with the empty gutter (`     | …`): the text after it.
fn gutter_line(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let rest = t.strip_prefix('|')?;
    Some(rest.strip_prefix(' ').unwrap_or(rest))
}

/// A caret line without gutter: only blanks, `~` and `^`, with a `^`.
fn bare_caret(line: &str) -> bool {
    line.contains('^') && line.chars().all(|c| c == ' ' || c == '~' || c == '^')
}

/// The column (0-based) where a `^` is in a caret line's text, else where its first mark is.
fn caret_col(text: &str) -> Option<usize> {
    text.find('^')
        .or_else(|| text.find(|c: char| !c.is_whitespace()))
}

/// The display column of byte column `col` (1-based) of `line`, with tabs to 8 as clang shows
/// them, and the line so expanded.
fn display(line: &str, col: u32) -> (usize, String) {
    let mut shown = String::new();
    let mut at = None;
    for (i, c) in line.char_indices() {
        if i + 1 == col as usize {
            at = Some(shown.chars().count());
        }
        if c == '\t' {
            let w = shown.chars().count();
            shown.push_str(&" ".repeat(8 - w % 8));
        } else {
            shown.push(c);
        }
    }
    let at = at.unwrap_or_else(|| shown.chars().count());
    (at, shown)
}

/// Rewrites clang's standard error `text`, moving the locations `locator` claims. A moved
/// diagnostic that repeats one already shown (clang saw the piece of a pragma several times in
/// the text generated from it) is left out, with its notes.
pub fn rewrite(text: &str, locator: &dyn Locator, color: bool) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let plain: Vec<String> = lines
        .iter()
        .map(|l| strip_ansi(l.trim_end_matches(['\n', '\r'])))
        .collect();
    let mut out = String::with_capacity(text.len());
    let mut shown = std::collections::HashSet::new();
    // Leaving out the notes of a repeated diagnostic.
    let mut dropping = false;
    let mut i = 0;
    while i < lines.len() {
        let Some((file, ln, col, loc_text, note)) = header(&plain[i]) else {
            dropping = false;
            out.push_str(lines[i]);
            i += 1;
            continue;
        };
        // The snippet: the quoted line, the caret line, fix-it lines.
        let next = plain.get(i + 1).map(String::as_str);
        let (quote, gutter_w, snippet_end) = match next {
            Some(q) if header(q).is_none() => match numbered_quote(q) {
                Some((w, t)) => {
                    let mut e = i + 2;
                    while e < lines.len() && gutter_line(&plain[e]).is_some() {
                        e += 1;
                    }
                    (Some(t.to_string()), Some(w), e)
                }
                None if plain.get(i + 2).is_some_and(|c| bare_caret(c)) => {
                    (Some(q.to_string()), None, i + 3)
                }
                None => (None, None, i + 1),
            },
            _ => (None, None, i + 1),
        };
        if note && dropping {
            i = snippet_end;
            continue;
        }
        dropping = false;
        let Some(found) = locator.locate(&file, ln, col, quote.as_deref()) else {
            out.push_str(lines[i]);
            i += 1;
            continue;
        };
        let mut d = String::new();
        // The header, with the new location where clang's was (escapes kept).
        let new_loc = match found.col {
            Some(c) => format!("{}:{}:{}", found.file, found.line, c),
            None => format!("{}:{}", found.file, found.line),
        };
        d.push_str(&lines[i].replacen(&loc_text, &new_loc, 1));
        if !lines[i].ends_with('\n') {
            d.push('\n');
        }
        // Without the user's line there is nothing true to quote.
        if let (Some(_), Some(src), Some(c)) = (&quote, &found.source, found.col) {
            let (at, text) = display(src, c);
            let (green, reset) = if color {
                ("\x1b[0;1;32m", "\x1b[0m")
            } else {
                ("", "")
            };
            let old_at = plain
                .get(i + 2)
                .and_then(|l| {
                    if gutter_w.is_some() {
                        gutter_line(l)
                    } else {
                        Some(l.as_str())
                    }
                })
                .and_then(caret_col);
            match gutter_w {
                Some(w) => {
                    let w = w.max(found.line.to_string().len());
                    d.push_str(&format!("{:>w$} | {text}\n", found.line));
                    d.push_str(&format!("{:w$} | {green}{}^{reset}\n", "", " ".repeat(at)));
                    // Fix-it lines follow the caret.
                    for l in plain.iter().take(snippet_end).skip(i + 3) {
                        let t = gutter_line(l).unwrap_or("");
                        if let Some(shifted) = old_at.and_then(|o| shift(t, o, at)) {
                            d.push_str(&format!("{:w$} | {green}{shifted}{reset}\n", ""));
                        }
                    }
                }
                None => d.push_str(&format!("{text}\n{green}{}^{reset}\n", " ".repeat(at))),
            }
        }
        i = if quote.is_some() { snippet_end } else { i + 1 };
        if !note && !shown.insert(strip_ansi(&d)) {
            dropping = true;
            continue;
        }
        out.push_str(&d);
    }
    out
}

/// A fix-it line whose text started under display column `from`, moved under `to`; None when
/// it cannot be moved that far left.
fn shift(text: &str, from: usize, to: usize) -> Option<String> {
    let body = text.trim_start();
    if body.is_empty() {
        return None;
    }
    let lead = text.len() - body.len();
    let new_lead = (lead + to).checked_sub(from)?;
    Some(format!("{}{}", " ".repeat(new_lead), body))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Claims line 9 of x.c, columns 40 and up, as line 9 column 33 of `if (n) copy(b[0:n])`.
    struct Fake;
    impl Locator for Fake {
        fn locate(&self, file: &str, line: u32, col: u32, quoted: Option<&str>) -> Option<Located> {
            if file != "x.c" || line != 9 || col < 40 || quoted.is_some_and(|q| !q.contains("omp"))
            {
                return None;
            }
            Some(Located {
                file: "x.c".into(),
                line: 9,
                col: Some(33),
                source: Some("\t#pragma acc parallel loop copy(b[0:n])".into()),
            })
        }
    }

    const CLANG: &str = "x.c:9:73: error: use of undeclared identifier 'b'\n    9 | #pragma omp target teams distribute parallel for map(ompx_hold, tofrom: b[0:n])\n      |                                                                         ^\n1 error generated.\n";

    /// The user's line as clang would show it, and the caret under the `b` (display column 39).
    fn user_snippet(gutter: &str) -> String {
        format!(
            "{gutter}9 |         #pragma acc parallel loop copy(b[0:n])\n{gutter}  | {}^\n",
            " ".repeat(39)
        )
    }

    #[test]
    fn moves_the_location_quote_and_caret() {
        let got = rewrite(CLANG, &Fake, false);
        let want = format!(
            "x.c:9:33: error: use of undeclared identifier 'b'\n{}1 error generated.\n",
            user_snippet("    ")
        );
        assert_eq!(got, want);
    }

    #[test]
    fn leaves_what_it_does_not_claim() {
        let other = "x.c:3:5: warning: unused variable 'k' [-Wunused-variable]\n    3 |   int k;\n      |       ^\nIn file included from x.c:1:\n";
        assert_eq!(rewrite(other, &Fake, false), other);
        // Not the quoted text the locator generated.
        let user_text = "x.c:9:41: error: use of undeclared identifier 'c'\n    9 | int f(void) { return 0; }                c;\n      |                                         ^\n";
        assert_eq!(rewrite(user_text, &Fake, false), user_text);
        let no_caret = "x.c:9:73: error: use of undeclared identifier 'b'\n1 error generated.\n";
        assert_eq!(
            rewrite(no_caret, &Fake, false),
            "x.c:9:33: error: use of undeclared identifier 'b'\n1 error generated.\n"
        );
    }

    #[test]
    fn colors_and_fixits() {
        let sp = " ".repeat(42);
        let colored = format!(
            "\x1b[1mx.c:9:73: \x1b[0m\x1b[0;1;31merror: \x1b[0m\x1b[1muse of undeclared identifier 'b'; did you mean 'bb'?\x1b[0m\n    9 | #pragma omp target map(ompx_hold, tofrom: \x1b[0;34mb\x1b[0m[0:n])\n      | \x1b[0;1;32m{sp}^\n\x1b[0m      | \x1b[0;1;32m{sp}bb\n\x1b[0m1 error generated.\n"
        );
        let got = rewrite(&colored, &Fake, true);
        assert!(
            got.starts_with("\x1b[1mx.c:9:33: \x1b[0m\x1b[0;1;31merror: "),
            "{got:?}"
        );
        assert!(got.contains("\x1b[0;1;32m"), "{got:?}");
        let lines: Vec<String> = got.lines().map(strip_ansi).collect();
        let snippet = user_snippet("    ");
        let want: Vec<&str> = snippet.lines().collect();
        assert_eq!(lines[1], want[0]);
        assert_eq!(lines[2], want[1]);
        assert_eq!(lines[3], format!("      | {}bb", " ".repeat(39)));
        assert_eq!(lines[4], "1 error generated.");
    }

    #[test]
    fn repeats_are_shown_once_with_their_notes() {
        let twice = format!("{}{}x.c:2:5: note: 'bb' declared here\n    2 | int bb;\n      |     ^\n1 error generated.\n", &CLANG[..CLANG.len() - 19], &CLANG[..CLANG.len() - 19]);
        let got = rewrite(&twice, &Fake, false);
        assert_eq!(got.matches("error: use of undeclared").count(), 1, "{got}");
        assert!(!got.contains("note:"), "{got}");
        assert!(got.ends_with("1 error generated.\n"), "{got}");
    }

    #[test]
    fn without_line_numbers() {
        let bare = "x.c:9:45: error: use of undeclared identifier 'b'\n#pragma omp target map(ompx_hold, tofrom: b[0:n])\n                                            ^\n";
        assert_eq!(
            rewrite(bare, &Fake, false),
            format!(
                "x.c:9:33: error: use of undeclared identifier 'b'\n        #pragma acc parallel loop copy(b[0:n])\n{}^\n",
                " ".repeat(39)
            )
        );
    }

    #[test]
    fn tabs_are_shown_as_clang_shows_them() {
        assert_eq!(display("\tab", 2), (8, "        ab".to_string()));
        assert_eq!(display("a\tb", 3), (8, "a       b".to_string()));
        assert_eq!(
            header("dir/a:b.c:3:4: note: here"),
            Some(("dir/a:b.c".into(), 3, 4, "dir/a:b.c:3:4".into(), true))
        );
        assert_eq!(header("1 error generated."), None);
    }
}

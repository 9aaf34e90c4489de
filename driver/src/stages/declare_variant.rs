//! `declare variant` directives that select on device traits, on the preprocessed source.
//!
//! ptxcc compiles device code from clang's host IR, in which clang has already chosen, at every
//! call, the variant for the host. A variant for the device only (`match(device={arch(nvptx64)})`,
//! `kind(gpu)`, `kind(nohost)`, also under `target_device`) is chosen here instead: ptxcc appends
//! a marker naming the base function and the variant to the preprocessed text, after the last
//! line (no line moves), which also makes clang emit the variant's body:
//!
//! ```c
//! #pragma omp declare variant(gpu_impl) match(device = {arch(nvptx64)})
//! int impl(int x) { return x; }
//! ...
//! __extension__ static void *const __ptxcc_variant_0[2] __attribute__((used)) = {(void *)&impl, (void *)&gpu_impl};
//! ```
//!
//! and device extraction makes the device code call the variant where it calls the base
//! function (`ptxcc_passes::declare_variant`). A selector that the host matches too (`kind(host)`,
//! `kind(cpu)`, an x86 `arch`) would make clang call the variant in the host IR, which the device
//! would then run; that, `isa(...)`, `begin declare variant` with device traits and two variants
//! of one function for the device are errors:
//!
//! ```text
//! x.c:4:1: error: ptxcc does not support 'declare variant' selecting on kind(host) …
//! ```
//!
//! System headers are not looked at: `omp.h` selects `omp_is_initial_device`'s body by
//! `kind(host)`, and device_builtins lowers that routine itself.
use ptxcc_passes::diagnostics::{Diagnostic, SourceLoc};

/// The prefix of the marker arrays (`ptxcc_passes::declare_variant::MARKER_PREFIX`).
const MARKER_PREFIX: &str = ptxcc_passes::declare_variant::MARKER_PREFIX;

/// What the directives of a preprocessed text ask for.
#[derive(Debug, Default)]
pub struct Variants {
    /// (base function, device variant), in source order.
    pub device: Vec<(String, String)>,
    /// Metadirectives of device code resolved for the device: (line index, the line that
    /// replaces it; `metadirective_device`).
    pub rewrites: Vec<(usize, String)>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Variants {
    /// `text` (the analysed text) with the resolved metadirective lines replaced.
    pub fn rewrite(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for (i, l) in text.split_inclusive('\n').enumerate() {
            match self.rewrites.iter().find(|(at, _)| *at == i) {
                Some((_, new)) => {
                    out.push_str(new);
                    if l.ends_with('\n') {
                        out.push('\n');
                    }
                }
                None => out.push_str(l),
            }
        }
        out
    }

    /// The text to append to the preprocessed source: one marker per device variant.
    pub fn markers(&self) -> String {
        let mut out = String::new();
        for (i, (base, variant)) in self.device.iter().enumerate() {
            out.push_str(&format!(
                "\n__extension__ static void *const {MARKER_PREFIX}{i}[2] __attribute__((used)) = {{(void *)&{base}, (void *)&{variant}}};"
            ));
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out
    }
}

/// Reads the `declare variant` directives of `preprocessed` (text with line markers; `file`
/// names it when it has none).
pub fn analyse(preprocessed: &str, file: &str) -> Variants {
    let mut out = Variants::default();
    let mut current = file.to_string();
    let mut line_no: u32 = 1;
    let mut system = false;
    let lines: Vec<&str> = preprocessed.lines().collect();
    let device_code = super::device_code::DeviceLines::of(preprocessed);
    for (idx, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if let Some((n, name, is_system)) = line_marker(trimmed) {
            line_no = n;
            current = name;
            system = is_system;
            continue;
        }
        if !system {
            let in_device = device_code.contains(idx);
            let resolved = || super::metadirective_device::resolve_for_device(line);
            if let Some(col) = device_dependent_metadirective(line, in_device) {
                if let Some(new) = resolved().filter(|_| in_device) {
                    out.rewrites.push((idx, new));
                    line_no += 1;
                    continue;
                }
                out.diagnostics.push(Diagnostic {
                    loc: Some(SourceLoc {
                        file: current.clone(),
                        line: line_no,
                        col,
                    }),
                    message: "ptxcc does not support 'metadirective' selecting on a device trait \
                              (kind, arch, isa) that the device and the host answer differently: \
                              ptxcc compiles device code from the host's code, in which clang has \
                              chosen the host's directive; write the directive for the device \
                              in the target region"
                        .into(),
                });
            }
            if let Some(d) = device_trait_variant(line) {
                let loc = Some(SourceLoc {
                    file: current.clone(),
                    line: line_no,
                    col: d.col,
                });
                let refuse = |why: String| {
                    Diagnostic {
                    loc: loc.clone(),
                    message: format!(
                        "ptxcc does not support 'declare variant' {why}: ptxcc compiles device code from the host's code, \
                         in which clang has chosen the host's variant"
                    ),
                }
                };
                match d.choice {
                    Choice::Refuse(why) => out.diagnostics.push(refuse(why)),
                    Choice::Neither => {}
                    Choice::Device => match (d.variant, base_function(&lines[idx + 1..])) {
                        (Some(v), Some(base)) => {
                            if out.device.iter().any(|(b, _)| *b == base) {
                                out.diagnostics.push(refuse(format!(
                                    "with two variants of '{base}' for the device"
                                )));
                            } else {
                                out.device.push((base, v));
                            }
                        }
                        _ => out.diagnostics.push(refuse(
                            "whose function ptxcc cannot find after the directive".into(),
                        )),
                    },
                }
            }
        }
        line_no += 1;
    }
    out
}

/// `# 12 "file.c" 1 3` → (12, "file.c", whether flag 3 — a system header — is set).
pub(crate) fn line_marker(line: &str) -> Option<(u32, String, bool)> {
    let rest = line.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: u32 = digits.parse().ok()?;
    let rest = rest[digits.len()..].trim_start();
    let quoted = rest.strip_prefix('"')?;
    let end = quoted.find('"')?;
    let name = quoted[..end].to_string();
    let flags = &quoted[end + 1..];
    Some((n, name, flags.split_whitespace().any(|f| f == "3")))
}

/// Which function a call of the base function means on the device.
#[derive(Debug, PartialEq)]
enum Choice {
    /// The variant (the host keeps the base function).
    Device,
    /// The base function on both (the selector matches neither).
    Neither,
    /// Something ptxcc cannot do, and why.
    Refuse(String),
}

/// A `declare variant` directive with device traits.
struct DeviceDirective {
    /// 1-based column of the `#`.
    col: u32,
    /// `declare variant(V)`'s V (none for `begin declare variant`).
    variant: Option<String>,
    choice: Choice,
}

/// Whether every property of a device trait matches the device (`Some(true)`), the host
/// (`Some(false)`) or neither; `None` where ptxcc cannot tell (isa).
fn matches(trait_name: &str, props: &[String], device: bool) -> Option<bool> {
    let set: &[&str] = match (trait_name, device) {
        ("kind", true) => &["gpu", "nohost", "any"],
        ("kind", false) => &["host", "cpu", "any"],
        ("arch", true) => &["nvptx", "nvptx64"],
        ("arch", false) => &["x86_64", "x86", "x86-64"],
        _ => return None,
    };
    Some(props.iter().all(|p| set.contains(&p.as_str())))
}

/// A `#pragma omp [begin] declare variant` line whose `match` clause has a `device` or
/// `target_device` selector naming `kind`, `arch` or `isa`, and what it selects.
fn device_trait_variant(line: &str) -> Option<DeviceDirective> {
    let words = words(line);
    let at = |i: usize| words.get(i).map(|(_, w)| w.as_str());
    if at(0) != Some("#") || at(1) != Some("pragma") || at(2) != Some("omp") {
        return None;
    }
    let begin = at(3) == Some("begin");
    let d = if begin { 4 } else { 3 };
    if at(d) != Some("declare") || at(d + 1) != Some("variant") {
        return None;
    }
    let variant = if !begin && at(d + 2) == Some("(") {
        at(d + 3).map(str::to_string)
    } else {
        None
    };
    // The selector sets after `match`: `device = { kind(gpu), arch(...) }`.
    let m = words.iter().position(|(_, w)| w == "match")?;
    let mut in_device = false;
    let mut other_sets = false;
    let mut depth = 0;
    // (trait, properties) of the device selector set.
    let mut traits: Vec<(String, Vec<String>)> = Vec::new();
    let mut i = m + 2;
    while i < words.len() {
        let w = words[i].1.as_str();
        match w {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    in_device = false;
                }
            }
            "(" if depth == 0 => {}
            ")" if depth == 0 => break,
            _ if depth == 0 && words.get(i + 1).map(|(_, w)| w == "=").unwrap_or(false) => {
                in_device = w == "device" || w == "target_device";
                other_sets |= !in_device;
            }
            _ if in_device
                && depth == 1
                && words.get(i + 1).map(|(_, w)| w == "(").unwrap_or(false) =>
            {
                let mut props = Vec::new();
                let mut j = i + 2;
                while j < words.len() && words[j].1 != ")" {
                    if words[j].1 != "," {
                        props.push(words[j].1.clone());
                    }
                    j += 1;
                }
                traits.push((w.to_string(), props));
                i = j;
            }
            _ => {}
        }
        i += 1;
    }
    if !traits
        .iter()
        .any(|(t, _)| matches!(t.as_str(), "kind" | "arch" | "isa"))
    {
        return None;
    }
    let col = words[0].0 as u32 + 1;
    let refuse = |why: &str| {
        Some(DeviceDirective {
            col,
            variant: variant.clone(),
            choice: Choice::Refuse(why.to_string()),
        })
    };
    if begin {
        return refuse(
            "blocks (begin declare variant) selecting on device traits (kind, arch, isa)",
        );
    }
    if other_sets {
        return refuse("selecting on device traits together with other selector sets");
    }
    let on = |device: bool| -> Option<bool> {
        traits
            .iter()
            .map(|(t, p)| matches(t, p, device))
            .try_fold(true, |all, m| m.map(|m| all && m))
    };
    let choice = match (on(true), on(false)) {
        (None, _) | (_, None) => {
            return refuse("selecting on isa or another device trait ptxcc cannot evaluate")
        }
        (Some(_), Some(true)) => {
            return refuse("selecting on a trait the host has (kind(host), kind(cpu), an x86 arch)")
        }
        (Some(true), Some(false)) => Choice::Device,
        (Some(false), Some(false)) => Choice::Neither,
    };
    Some(DeviceDirective {
        col,
        variant,
        choice,
    })
}

/// The 1-based column of a `#pragma omp [begin] metadirective` line with a `device` selector
/// in device code (`in_device_code`: see `device_code`), or a `target_device` selector
/// anywhere, whose `kind`/`arch`/`isa` traits the device and the host do not answer alike (or
/// that ptxcc cannot evaluate); clang resolves it for the host only. A `device` selector in host
/// code asks about the host, which clang answers right.
fn device_dependent_metadirective(line: &str, in_device_code: bool) -> Option<u32> {
    let words = words(line);
    let at = |i: usize| words.get(i).map(|(_, w)| w.as_str());
    if at(0) != Some("#") || at(1) != Some("pragma") || at(2) != Some("omp") {
        return None;
    }
    let d = if at(3) == Some("begin") { 4 } else { 3 };
    if at(d) != Some("metadirective") {
        return None;
    }
    let mut i = d + 1;
    while i < words.len() {
        let w = words[i].1.as_str();
        // `device` is the device that runs the code: the host outside device code, where
        // clang's choice is right. `target_device` is the offload device wherever it appears.
        let is_set = ((w == "device" && in_device_code) || w == "target_device")
            && at(i + 1) == Some("=")
            && at(i + 2) == Some("{");
        if !is_set {
            i += 1;
            continue;
        }
        // The traits of this selector set: `kind(nohost), arch("nvptx")`.
        let mut traits: Vec<(String, Vec<String>)> = Vec::new();
        let mut j = i + 3;
        while j < words.len() && words[j].1 != "}" {
            if at(j + 1) == Some("(") {
                let name = words[j].1.clone();
                let mut props = Vec::new();
                j += 2;
                while j < words.len() && words[j].1 != ")" {
                    if !matches!(words[j].1.as_str(), "," | "\"") {
                        props.push(words[j].1.clone());
                    }
                    j += 1;
                }
                traits.push((name, props));
            }
            j += 1;
        }
        let device_traits: Vec<_> = traits
            .iter()
            .filter(|(t, _)| matches!(t.as_str(), "kind" | "arch" | "isa"))
            .collect();
        if !device_traits.is_empty() {
            let on = |device: bool| -> Option<bool> {
                device_traits
                    .iter()
                    .map(|(t, p)| matches(t, p, device))
                    .try_fold(true, |all, m| m.map(|m| all && m))
            };
            match (on(true), on(false)) {
                (Some(a), Some(b)) if a == b => {}
                _ => return Some(words[0].0 as u32 + 1),
            }
        }
        i = j;
    }
    None
}

/// The function the directive applies to: the name before the first `(` of the declaration
/// that follows (further directives and line markers skipped).
fn base_function(rest: &[&str]) -> Option<String> {
    let mut prev: Option<String> = None;
    for line in rest {
        let t = line.trim_start();
        if t.starts_with('#') {
            continue;
        }
        for (_, w) in words(line) {
            if w == "(" {
                return prev;
            }
            if w == ";" || w == "{" {
                return None;
            }
            prev = Some(w);
        }
    }
    None
}

/// The identifiers and punctuation of a line, with their byte offsets.
fn words(line: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut w = c.to_string();
            while let Some(&(_, d)) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    w.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push((i, w));
        } else if !c.is_whitespace() {
            out.push((i, c.to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::analyse;

    #[test]
    fn metadirectives_on_device_traits_are_refused() {
        let text = "# 1 \"m.c\"\n#pragma omp target\n  #pragma omp metadirective when( device={kind(nohost)}: nothing ) when( device={arch(\"nvptx\")}: parallel) default(teams)\nfor (;;) ;\n";
        let v = analyse(text, "m.c");
        assert_eq!(v.diagnostics.len(), 1, "{:?}", v.diagnostics);
        let loc = v.diagnostics[0].loc.as_ref().unwrap();
        assert_eq!((loc.line, loc.col), (2, 3));
        assert!(v.diagnostics[0].message.contains("metadirective"));
        // One choice for the device: the line becomes the device's directive.
        let one = "# 1 \"m.c\"\n#pragma omp target\n  #pragma omp metadirective when(device={kind(nohost)}: nothing) default(parallel for)\nfor (;;) ;\n";
        let v = analyse(one, "m.c");
        assert!(v.diagnostics.is_empty(), "{:?}", v.diagnostics);
        assert_eq!(v.rewrites, vec![(2, String::new())]);
        assert_eq!(
            v.rewrite(one),
            "# 1 \"m.c\"\n#pragma omp target\n\nfor (;;) ;\n"
        );
        // Selectors the device and the host answer alike, and other selector sets, are clang's.
        let same = "#pragma omp metadirective when(device={kind(any)}: parallel) when(implementation={vendor(llvm)}: simd) when(user={condition(n > 4)}: parallel for)\n";
        assert!(analyse(same, "m.c").diagnostics.is_empty());
        let amd = "#pragma omp target\n#pragma omp metadirective when(device={arch(amdgcn)}: nothing) default(parallel)\nfor (;;) ;\n";
        assert!(analyse(amd, "m.c").diagnostics.is_empty());
        // In host code, `device` asks about the host: clang's choice is right.
        let host = "void f(void) {\n#pragma omp metadirective when(device={kind(gpu)}: target teams) default(parallel)\nfor (;;) ;\n}\n";
        assert!(analyse(host, "m.c").diagnostics.is_empty());
        // `target_device` asks about the offload device wherever it is.
        let target_device = "void f(void) {\n#pragma omp metadirective when(target_device={kind(gpu)}: target) default(parallel)\nfor (;;) ;\n}\n";
        assert_eq!(analyse(target_device, "m.c").diagnostics.len(), 1);
    }

    #[test]
    fn device_variants_are_recorded() {
        let text = "# 1 \"x.c\"\nint g(void);\n#pragma omp declare variant(g) match(device={arch(nvptx64)})\nint h(void);\n\
                    #pragma omp declare variant(k) match(device = {kind(gpu)})\n#pragma omp declare variant(z) match(device={arch(amdgcn)})\nstatic inline double *\nf(int a);\n";
        let v = analyse(text, "x.c");
        assert!(v.diagnostics.is_empty(), "{:?}", v.diagnostics);
        assert_eq!(
            v.device,
            vec![
                ("h".to_string(), "g".to_string()),
                ("f".to_string(), "k".to_string())
            ]
        );
        assert!(v
            .markers()
            .contains("__ptxcc_variant_1[2] __attribute__((used)) = {(void *)&f, (void *)&k};"));
    }

    #[test]
    fn host_traits_isa_and_begin_are_errors() {
        let text = "# 1 \"x.c\"\nint f(void);\n#pragma omp declare variant(g) match(device={kind(host)})\nint h(void);\n\
                    # 10 \"x.c\"\n  #pragma omp begin declare variant match(device = {kind(gpu)}, implementation={vendor(llvm)})\n\
                    #pragma omp declare variant(g) match(device={isa(sm_90)})\nint h2(void);\n";
        let d = analyse(text, "x.c").diagnostics;
        assert_eq!(d.len(), 3);
        assert_eq!(d[0].loc.as_ref().map(|l| (l.line, l.col)), Some((2, 1)));
        assert_eq!(d[1].loc.as_ref().map(|l| (l.line, l.col)), Some((10, 3)));
        assert!(d[0].message.contains("kind(host)"));
    }

    #[test]
    fn other_selectors_and_system_headers_are_fine() {
        let text = "# 1 \"x.c\"\n#pragma omp declare variant(g) match(construct={target})\n\
                    #pragma omp declare variant(g) match(implementation={vendor(llvm)}, user={condition(1)})\n\
                    # 496 \"/usr/lib/clang/include/omp.h\" 3\n#pragma omp begin declare variant match(device={kind(host)})\n\
                    # 5 \"x.c\" 2\n#pragma omp declare target\nint kind(int arch);\n";
        let v = analyse(text, "x.c");
        assert!(v.diagnostics.is_empty() && v.device.is_empty());
    }
}

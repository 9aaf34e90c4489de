//! ptxsim's stand-in for cubins: ELF files that carry PTX.
//!
//! Toolchains that build for a real GPU assemble PTX into cubins (SASS in an ELF file) with
//! `ptxas`, link them with `nvlink`, and their runtimes read the result as ELF before handing
//! it to `cuModuleLoadDataEx`: Clang's OpenMP offloading does (clang-nvlink-wrapper reads the
//! objects' symbols; libomptarget reads each kernel's `<kernel>_kernel_environment` from the
//! image's symbol table to learn its execution mode and reduction buffer). ptxsim runs PTX, so
//! its `ptxas` and `nvlink` (`ptxsim ptxas`, `ptxsim nvlink`: `src/bin/ptxsim.rs`,
//! the stand-in CUDA installation of `scripts/clang-ptxsim`) write ELF files of the same shape whose code is the PTX itself:
//!
//! ```text
//! ELF64, e_machine EM_CUDA (190), e_flags sm_NN and 64-bit addresses (libomptarget checks)
//!   .nv.ptxsim.ptx.0 … .N   the PTX of each input, NUL-terminated (an object has one; a
//!                           linked image one per object, linked again when loaded)
//!   .nv.global.init         linked images: every .global variable's initial bytes
//!   .symtab / .strtab       functions and variables: defined in the PTX section (objects) or
//!                           in .nv.global.init at their bytes (images), undefined for .extern
//! ```
//!
//! `cuModuleLoadDataEx` recognises the file (`read_ptx`), links its PTX sections with
//! `ptx::link` and loads the result; a real cubin (SASS, no PTX section) is refused by name.

use crate::le::{u16_at, u32_at, u64_at};
use crate::ptx::ast::{FuncKind, Linkage, Module, Space};

const EM_CUDA: u16 = 190;
const ET_REL: u16 = 1;
const ET_EXEC: u16 = 2;
const SHT_PROGBITS: u32 = 1;
const SHT_SYMTAB: u32 = 2;
const SHT_STRTAB: u32 = 3;
const STT_OBJECT: u8 = 1;
const STT_FUNC: u8 = 2;
const STB_GLOBAL: u8 = 1;
const STB_WEAK: u8 = 2;
const EF_CUDA_TEXMODE_UNIFIED: u32 = 0x100;
const EF_CUDA_64BIT_ADDRESS: u32 = 0x400;

/// The name prefix of the sections holding PTX text.
pub const PTX_SECTION: &str = ".nv.ptxsim.ptx";
const INIT_SECTION: &str = ".nv.global.init";

/// What a file holds: an object (`ptxas -c`: one PTX module) or a linked image (`nvlink`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Object,
    Image,
}

/// A symbol of the file: a function or `.global` variable of its PTX.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub function: bool,
    pub weak: bool,
    /// None: declared `.extern` (undefined here). Images: the variable's initial bytes.
    pub defined: Option<Vec<u8>>,
}

/// The symbols an object's PTX declares and defines (variables without their bytes).
pub fn object_symbols(m: &Module) -> Vec<Symbol> {
    let vars = m
        .vars
        .iter()
        .filter(|v| v.space == Space::Global)
        .map(|v| Symbol {
            name: v.name.clone(),
            function: false,
            weak: v.linkage == Linkage::Weak,
            defined: (v.linkage != Linkage::Extern).then(Vec::new),
        });
    let funcs = m.functions.iter().map(|f| Symbol {
        name: f.name.clone(),
        function: true,
        weak: f.linkage == Linkage::Weak,
        defined: (f.body.is_some() || f.kind == FuncKind::Entry).then(Vec::new),
    });
    vars.chain(funcs).collect()
}

fn push_str(table: &mut Vec<u8>, s: &str) -> u32 {
    let at = table.len() as u32;
    table.extend_from_slice(s.as_bytes());
    table.push(0);
    at
}

fn align_to(v: &mut Vec<u8>, a: usize) {
    while !v.len().is_multiple_of(a) {
        v.push(0);
    }
}

struct Section {
    name: u32,
    ty: u32,
    data: Vec<u8>,
    link: u32,
    info: u32,
    align: u64,
    entsize: u64,
}

/// The ELF file of `ptx` (the PTX texts) for `sm` (90 for sm_90), with `symbols`.
pub fn write(kind: Kind, sm: u32, ptx: &[String], symbols: &[Symbol]) -> Vec<u8> {
    let mut shstr = vec![0u8];
    let mut sections: Vec<Section> = Vec::new();
    // 1: .shstrtab, 2: .strtab, 3: .symtab (filled below), then the PTX, then the variables.
    let shstrtab_name = push_str(&mut shstr, ".shstrtab");
    let strtab_name = push_str(&mut shstr, ".strtab");
    let symtab_name = push_str(&mut shstr, ".symtab");
    let first_ptx = 4u16;
    let ptx_names: Vec<u32> = (0..ptx.len())
        .map(|k| push_str(&mut shstr, &format!("{PTX_SECTION}.{k}")))
        .collect();
    let init_name = push_str(&mut shstr, INIT_SECTION);
    let init_index = first_ptx + ptx.len() as u16;

    let mut init = Vec::new();
    let mut strtab = vec![0u8];
    let mut symtab = vec![0u8; 24];
    for s in symbols {
        let name = push_str(&mut strtab, &s.name);
        let (shndx, value, size) = match (&s.defined, kind) {
            (None, _) => (0u16, 0u64, 0u64),
            (Some(bytes), Kind::Image) if !s.function => {
                align_to(&mut init, 8);
                let at = init.len() as u64;
                init.extend_from_slice(bytes);
                (init_index, at, bytes.len() as u64)
            }
            (Some(_), _) => (first_ptx, 0, 0),
        };
        let ty = if s.function { STT_FUNC } else { STT_OBJECT };
        let bind = if s.weak { STB_WEAK } else { STB_GLOBAL };
        symtab.extend_from_slice(&name.to_le_bytes());
        symtab.push((bind << 4) | ty);
        symtab.push(0);
        symtab.extend_from_slice(&shndx.to_le_bytes());
        symtab.extend_from_slice(&value.to_le_bytes());
        symtab.extend_from_slice(&size.to_le_bytes());
    }
    sections.push(Section {
        name: shstrtab_name,
        ty: SHT_STRTAB,
        data: Vec::new(), // filled last: names are still being added
        link: 0,
        info: 0,
        align: 1,
        entsize: 0,
    });
    sections.push(Section {
        name: strtab_name,
        ty: SHT_STRTAB,
        data: strtab,
        link: 0,
        info: 0,
        align: 1,
        entsize: 0,
    });
    sections.push(Section {
        name: symtab_name,
        ty: SHT_SYMTAB,
        data: symtab,
        link: 2,
        info: 1, // every symbol after the null one is global
        align: 8,
        entsize: 24,
    });
    for (k, text) in ptx.iter().enumerate() {
        let mut data = text.as_bytes().to_vec();
        data.push(0);
        sections.push(Section {
            name: ptx_names[k],
            ty: SHT_PROGBITS,
            data,
            link: 0,
            info: 0,
            align: 1,
            entsize: 0,
        });
    }
    sections.push(Section {
        name: init_name,
        ty: SHT_PROGBITS,
        data: init,
        link: 0,
        info: 0,
        align: 8,
        entsize: 0,
    });
    sections[0].data = shstr;

    let mut out = vec![0u8; 64];
    let mut offsets = Vec::new();
    for s in &sections {
        align_to(&mut out, s.align.max(1) as usize);
        offsets.push(out.len() as u64);
        out.extend_from_slice(&s.data);
    }
    align_to(&mut out, 8);
    let shoff = out.len() as u64;
    out.extend_from_slice(&[0u8; 64]); // the null section
    for (s, &off) in sections.iter().zip(&offsets) {
        out.extend_from_slice(&s.name.to_le_bytes());
        out.extend_from_slice(&s.ty.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes()); // flags
        out.extend_from_slice(&0u64.to_le_bytes()); // addr
        out.extend_from_slice(&off.to_le_bytes());
        out.extend_from_slice(&(s.data.len() as u64).to_le_bytes());
        out.extend_from_slice(&s.link.to_le_bytes());
        out.extend_from_slice(&s.info.to_le_bytes());
        out.extend_from_slice(&s.align.to_le_bytes());
        out.extend_from_slice(&s.entsize.to_le_bytes());
    }
    let header = &mut out[..64];
    header[..4].copy_from_slice(b"\x7fELF");
    header[4] = 2; // 64-bit
    header[5] = 1; // little-endian
    header[6] = 1; // version
    header[7] = 0x33; // ELFOSABI_CUDA
    header[8] = 7; // its ABI version, as CUDA 12's cubins
    let ty = match kind {
        Kind::Object => ET_REL,
        Kind::Image => ET_EXEC,
    };
    header[16..18].copy_from_slice(&ty.to_le_bytes());
    header[18..20].copy_from_slice(&EM_CUDA.to_le_bytes());
    header[20..24].copy_from_slice(&1u32.to_le_bytes());
    header[40..48].copy_from_slice(&shoff.to_le_bytes());
    // As ptxas sets them: the sm_ in the low byte and (virtual) in the third, unified texture
    // mode, 64-bit addresses (libomptarget refuses an image without them).
    let flags = sm | EF_CUDA_TEXMODE_UNIFIED | EF_CUDA_64BIT_ADDRESS | (sm << 16);
    header[48..52].copy_from_slice(&flags.to_le_bytes());
    header[52..54].copy_from_slice(&64u16.to_le_bytes());
    header[58..60].copy_from_slice(&64u16.to_le_bytes());
    header[60..62].copy_from_slice(&(sections.len() as u16 + 1).to_le_bytes());
    header[62..64].copy_from_slice(&1u16.to_le_bytes());
    out
}

/// Does `bytes` start like an ELF file?
pub fn is_elf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF")
}

/// The size of the ELF file starting `bytes` (from its section headers, the last thing
/// `write` puts in it), for an image a caller hands over by address only.
pub fn file_size(header: &[u8]) -> Option<usize> {
    let shoff = usize::try_from(u64_at(header, 40)?).ok()?;
    let shnum = u16_at(header, 60)? as usize;
    shoff.checked_add(64 * shnum)
}

/// The PTX texts of a file `write` made, in order. Err: why the ELF file is not one (a cubin
/// of real SASS has no PTX section).
pub fn read_ptx(bytes: &[u8]) -> Result<Vec<String>, String> {
    let bad = || "a malformed ELF file".to_string();
    if !is_elf(bytes) || bytes.get(4) != Some(&2) {
        return Err("not a 64-bit ELF file".into());
    }
    if u16_at(bytes, 18) != Some(EM_CUDA) {
        return Err("an ELF file for another machine than CUDA".into());
    }
    let shoff = usize::try_from(u64_at(bytes, 40).ok_or_else(bad)?).map_err(|_| bad())?;
    let shnum = u16_at(bytes, 60).ok_or_else(bad)? as usize;
    let shstrndx = u16_at(bytes, 62).ok_or_else(bad)? as usize;
    let section = |k: usize| -> Option<(u32, usize, usize)> {
        let h = shoff.checked_add(64 * k)?;
        Some((
            u32_at(bytes, h)?,
            usize::try_from(u64_at(bytes, h.checked_add(24)?)?).ok()?,
            usize::try_from(u64_at(bytes, h.checked_add(32)?)?).ok()?,
        ))
    };
    let (_, stroff, strsize) = section(shstrndx).ok_or_else(bad)?;
    let names = bytes
        .get(stroff..stroff.checked_add(strsize).ok_or_else(bad)?)
        .ok_or_else(bad)?;
    let mut ptx = Vec::new();
    for k in 1..shnum {
        let (name, off, size) = section(k).ok_or_else(bad)?;
        let name = names.get(name as usize..).ok_or_else(bad)?;
        let name = &name[..name.iter().position(|&c| c == 0).ok_or_else(bad)?];
        if name.starts_with(PTX_SECTION.as_bytes()) {
            let data = bytes
                .get(off..off.checked_add(size).ok_or_else(bad)?)
                .ok_or_else(bad)?;
            let text = data.strip_suffix(&[0]).unwrap_or(data);
            ptx.push(String::from_utf8_lossy(text).into_owned());
        }
    }
    if ptx.is_empty() {
        return Err(
            "a cubin of machine code (SASS), which ptxsim cannot run: it runs PTX; build with ptxsim's ptxas and \
             nvlink (scripts/clang-ptxsim) or embed PTX"
                .into(),
        );
    }
    Ok(ptx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::parser;

    const PTX: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
        .extern .func (.param .b32 r) helper (.param .b32 x);\n\
        .weak .global .align 8 .u64 env[2] = {7, 9};\n\
        .visible .entry k() { ret; }\n";

    #[test]
    fn objects_round_trip() {
        let m = parser::parse(PTX).expect("parses");
        let syms = object_symbols(&m);
        let names: Vec<(&str, bool, bool)> = syms
            .iter()
            .map(|s| (s.name.as_str(), s.function, s.defined.is_some()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("env", false, true),
                ("helper", true, false),
                ("k", true, true)
            ]
        );
        assert!(syms[0].weak);
        let elf = write(Kind::Object, 90, &[PTX.to_string()], &syms);
        assert!(is_elf(&elf));
        assert_eq!(u16_at(&elf, 16), Some(ET_REL));
        assert_eq!(u32_at(&elf, 48), Some(0x5a_055a));
        assert_eq!(file_size(&elf), Some(elf.len()));
        assert_eq!(read_ptx(&elf), Ok(vec![PTX.to_string()]));
    }

    #[test]
    fn images_carry_variables() {
        let syms = vec![Symbol {
            name: "env".into(),
            function: false,
            weak: true,
            defined: Some(vec![7, 0, 0, 0, 0, 0, 0, 0]),
        }];
        let elf = write(Kind::Image, 90, &["a".into(), "b".into()], &syms);
        assert_eq!(u16_at(&elf, 16), Some(ET_EXEC));
        assert_eq!(read_ptx(&elf), Ok(vec!["a".to_string(), "b".to_string()]));
        // The symbol (index 1 of .symtab, section 3) points at its bytes in .nv.global.init.
        let shoff = u64_at(&elf, 40).unwrap() as usize;
        let symtab_off = u64_at(&elf, shoff + 64 * 3 + 24).unwrap() as usize;
        let sym = symtab_off + 24;
        let shndx = u16_at(&elf, sym + 6).unwrap() as usize;
        let value = u64_at(&elf, sym + 8).unwrap() as usize;
        assert_eq!(u64_at(&elf, sym + 16), Some(8));
        let init_off = u64_at(&elf, shoff + 64 * shndx + 24).unwrap() as usize;
        assert_eq!(u64_at(&elf, init_off + value), Some(7));
    }

    #[test]
    fn machine_code_is_refused() {
        let elf = write(Kind::Image, 90, &[], &[]);
        assert!(read_ptx(&elf).unwrap_err().contains("SASS"));
        assert!(read_ptx(b"\x7fELF\x01").is_err());
        // Offsets past the end (or that would wrap) are errors, not panics.
        let mut bad = write(Kind::Object, 90, &["x".into()], &[]);
        bad[40..48].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(read_ptx(&bad).is_err());
        assert_eq!(file_size(&bad), None);
        assert!(read_ptx(b"").is_err());
    }
}

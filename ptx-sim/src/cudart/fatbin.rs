//! The fat binary nvcc embeds in a program: read for its PTX.
//!
//! The host object holds a wrapper (`__fatBinC_Wrapper_t`, in section `.nvFatBinSegment`) that
//! points to the fat binary (section `.nv_fatbin`); `__cudaRegisterFatBinary` receives the
//! wrapper. Layout, little-endian (as nvcc 13 writes it; read from fat binaries it produced):
//!
//! ```text
//! wrapper   u32 magic 0x466243b1 | u32 version (1; 2 is -rdc's prelinked list) | u64 fatbin address | u64 file name
//! fatbin    u32 magic 0xba55ed50 | u16 version 1 | u16 header size (16) | u64 size of the entries
//! entry     +0x00 u16 kind (1 PTX, 2 ELF/cubin) | +0x02 u16 | +0x04 u32 entry header size
//!           +0x08 u64 payload size (8-aligned) | +0x10 u32 compressed size | +0x14 u32
//!           +0x18 u16 minor, u16 major (the entry's version) | +0x1c u32 arch (90 for sm_90)
//!           +0x20 u32 name offset, u32 name length | +0x28 u64 flags | +0x30 u64
//!           +0x38 u64 uncompressed size | ... (header size bytes), then the payload
//! flags     0x1 64-bit, 0x10 Linux, 0x2000 payload LZ4-compressed (one raw block),
//!           0x8000 payload zstd-compressed (one frame); neither: plain text
//! ```
//!
//! Entries follow each other: the next one starts after this one's header and payload. PTX text
//! may be padded with NULs up to the payload's size.

use crate::le::{u16_at, u32_at, u64_at};
use std::fmt;

pub const WRAPPER_MAGIC: u32 = 0x466243b1;
pub const FATBIN_MAGIC: u32 = 0xba55ed50;
const FLAG_LZ4: u64 = 0x2000;
const FLAG_ZSTD: u64 = 0x8000;
const ENTRY_HEADER_MIN: usize = 0x40;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Ptx,
    Cubin,
    Other(u16),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Lz4,
    Zstd,
}

/// One entry of a fat binary, its payload still as stored.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    pub kind: Kind,
    /// The architecture, as 90 for sm_90 / compute_90.
    pub arch: u32,
    pub compression: Compression,
    /// The size once uncompressed (for a compressed payload).
    pub uncompressed_size: u64,
    pub payload: &'a [u8],
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FatbinError(pub String);

impl fmt::Display for FatbinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, FatbinError> {
    Err(FatbinError(msg.into()))
}

/// The size of the fat binary that starts at `head` (its 16-byte header), header included.
pub fn size_from_header(head: &[u8; 16]) -> Result<usize, FatbinError> {
    let magic = u32_at(head, 0).unwrap_or(0);
    if magic != FATBIN_MAGIC {
        return err(format!(
            "not a fat binary (magic {magic:#x}, expected {FATBIN_MAGIC:#x})"
        ));
    }
    let header = u16_at(head, 6).unwrap_or(0) as usize;
    let body = u64_at(head, 8).unwrap_or(0);
    if header < 16 || body > (1 << 40) {
        return err(format!(
            "fat binary header of {header} bytes with {body} bytes of entries"
        ));
    }
    Ok(header + body as usize)
}

/// The entries of the fat binary `bytes` (its header and entries, `size_from_header` bytes).
pub fn entries(bytes: &[u8]) -> Result<Vec<Entry<'_>>, FatbinError> {
    let head: &[u8; 16] = match bytes.get(..16).and_then(|h| h.try_into().ok()) {
        Some(h) => h,
        None => return err("fat binary shorter than its header"),
    };
    let total = size_from_header(head)?;
    if total > bytes.len() {
        return err(format!(
            "fat binary of {total} bytes, only {} present",
            bytes.len()
        ));
    }
    let mut at = u16_at(bytes, 6).unwrap_or(16) as usize;
    let mut out = Vec::new();
    while at < total {
        let truncated = || FatbinError(format!("fat binary entry at offset {at:#x} is truncated"));
        let hsize = u32_at(bytes, at + 4).ok_or_else(truncated)? as usize;
        if hsize < ENTRY_HEADER_MIN || at + hsize > total {
            return err(format!(
                "fat binary entry at offset {at:#x} has a header of {hsize} bytes"
            ));
        }
        let kind = match u16_at(bytes, at).ok_or_else(truncated)? {
            1 => Kind::Ptx,
            2 => Kind::Cubin,
            k => Kind::Other(k),
        };
        let payload_size = u64_at(bytes, at + 8).ok_or_else(truncated)? as usize;
        let compressed = u32_at(bytes, at + 0x10).ok_or_else(truncated)? as usize;
        let arch = u32_at(bytes, at + 0x1c).ok_or_else(truncated)?;
        let flags = u64_at(bytes, at + 0x28).ok_or_else(truncated)?;
        let uncompressed_size = u64_at(bytes, at + 0x38).ok_or_else(truncated)?;
        let start = at + hsize;
        let end = start
            .checked_add(payload_size)
            .filter(|&e| e <= total)
            .ok_or_else(|| {
                FatbinError(format!(
                    "fat binary entry at offset {at:#x}: payload of {payload_size} bytes runs past the end"
                ))
            })?;
        let compression = if flags & FLAG_ZSTD != 0 {
            Compression::Zstd
        } else if flags & FLAG_LZ4 != 0 {
            Compression::Lz4
        } else {
            Compression::None
        };
        let stored = match compression {
            Compression::None => payload_size,
            _ if compressed <= payload_size => compressed,
            _ => {
                return err(format!(
                    "fat binary entry at offset {at:#x}: {compressed} compressed bytes in a payload of {payload_size}"
                ))
            }
        };
        out.push(Entry {
            kind,
            arch,
            compression,
            uncompressed_size,
            payload: &bytes[start..start + stored],
        });
        at = end;
    }
    Ok(out)
}

impl Entry<'_> {
    /// The payload, uncompressed.
    pub fn contents(&self) -> Result<Vec<u8>, FatbinError> {
        let data = match self.compression {
            Compression::None => self.payload.to_vec(),
            Compression::Lz4 => {
                super::lz4::decompress_block(self.payload, self.uncompressed_size as usize)
                    .map_err(|e| FatbinError(format!("LZ4-compressed entry: {e}")))?
            }
            Compression::Zstd => {
                use std::io::Read;
                let mut src = self.payload;
                let mut d = ruzstd::decoding::StreamingDecoder::new(&mut src)
                    .map_err(|e| FatbinError(format!("zstd-compressed entry: {e}")))?;
                let mut v = Vec::with_capacity(self.uncompressed_size as usize);
                d.read_to_end(&mut v)
                    .map_err(|e| FatbinError(format!("zstd-compressed entry: {e}")))?;
                v
            }
        };
        if self.compression != Compression::None && data.len() as u64 != self.uncompressed_size {
            return err(format!(
                "compressed entry decompressed to {} bytes, its header says {}",
                data.len(),
                self.uncompressed_size
            ));
        }
        Ok(data)
    }

    /// The entry's PTX text (without the NUL padding).
    pub fn ptx(&self) -> Result<String, FatbinError> {
        let mut data = self.contents()?;
        while data.last() == Some(&0) {
            data.pop();
        }
        String::from_utf8(data)
            .map_err(|_| FatbinError(format!("the PTX for sm_{} is not UTF-8 text", self.arch)))
    }
}

/// The PTX a device of architecture `arch` (90 for sm_90) runs: the entry for the newest
/// architecture not newer than the device. Errors say what the fat binary holds instead.
pub fn select_ptx(bytes: &[u8], arch: u32) -> Result<String, FatbinError> {
    let all = entries(bytes)?;
    let best = all
        .iter()
        .filter(|e| e.kind == Kind::Ptx && e.arch <= arch)
        .max_by_key(|e| e.arch);
    match best {
        Some(e) => e.ptx(),
        None => {
            let held: Vec<String> = all
                .iter()
                .map(|e| match e.kind {
                    Kind::Ptx => format!("PTX for compute_{}", e.arch),
                    Kind::Cubin => format!("a cubin for sm_{}", e.arch),
                    Kind::Other(k) => format!("an entry of kind {k} for sm_{}", e.arch),
                })
                .collect();
            err(format!(
                "no PTX for sm_{arch} or older in the fat binary (it holds {}): ptxsim runs PTX only; build with nvcc -gencode arch=compute_{arch},code=compute_{arch}",
                if held.is_empty() { "nothing".to_string() } else { held.join(", ") }
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fat binary with the given entries (kind, arch, flags, uncompressed size, payload).
    pub(crate) fn build(entries: &[(u16, u32, u64, u64, &[u8])]) -> Vec<u8> {
        let mut body = Vec::new();
        for &(kind, arch, flags, usize_, payload) in entries {
            let padded = payload.len().div_ceil(8) * 8;
            let mut h = vec![0u8; 0x50];
            h[0..2].copy_from_slice(&kind.to_le_bytes());
            h[2..4].copy_from_slice(&0x0101u16.to_le_bytes());
            h[4..8].copy_from_slice(&0x50u32.to_le_bytes());
            h[8..16].copy_from_slice(&(padded as u64).to_le_bytes());
            if flags & (FLAG_LZ4 | FLAG_ZSTD) != 0 {
                h[0x10..0x14].copy_from_slice(&(payload.len() as u32).to_le_bytes());
            }
            h[0x1c..0x20].copy_from_slice(&arch.to_le_bytes());
            h[0x28..0x30].copy_from_slice(&flags.to_le_bytes());
            h[0x38..0x40].copy_from_slice(&usize_.to_le_bytes());
            body.extend_from_slice(&h);
            body.extend_from_slice(payload);
            body.resize(body.len() + padded - payload.len(), 0);
        }
        let mut out = Vec::new();
        out.extend_from_slice(&FATBIN_MAGIC.to_le_bytes());
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&16u16.to_le_bytes());
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    #[test]
    fn plain_ptx_is_read_without_its_padding() {
        let f = build(&[(1, 90, 0x11, 0, b".version 8.0\n\0\0")]);
        assert_eq!(select_ptx(&f, 90).unwrap(), ".version 8.0\n");
    }

    #[test]
    fn the_newest_ptx_the_device_runs_is_chosen() {
        let f = build(&[
            (1, 70, 0x11, 0, b"seventy"),
            (2, 90, 0x11, 0, b"\x7fELF"),
            (1, 80, 0x11, 0, b"eighty"),
            (1, 100, 0x11, 0, b"hundred"),
        ]);
        assert_eq!(select_ptx(&f, 90).unwrap(), "eighty");
        assert_eq!(select_ptx(&f, 75).unwrap(), "seventy");
        let e = select_ptx(&f, 60).unwrap_err().0;
        assert!(e.contains("no PTX for sm_60"), "{e}");
        assert!(e.contains("a cubin for sm_90"), "{e}");
    }

    #[test]
    fn lz4_payloads_are_decompressed() {
        // One literal '\n', a match of 7 at offset 1, then the literals ".version".
        let block = b"\x13\x0a\x01\x00\x80.version";
        let f = build(&[(1, 90, 0x2011, 16, block)]);
        assert_eq!(select_ptx(&f, 90).unwrap(), "\n\n\n\n\n\n\n\n.version");
    }

    #[test]
    fn a_wrong_uncompressed_size_is_an_error() {
        let block = b"\x13\x0a\x01\x00\x80.version";
        let f = build(&[(1, 90, 0x2011, 17, block)]);
        assert!(select_ptx(&f, 90).is_err());
    }

    #[test]
    fn zstd_payloads_are_decompressed() {
        // A zstd frame with one raw block holding "abc" (frame header: single segment,
        // content size 3; block header: last, raw, size 3).
        let frame = b"\x28\xb5\x2f\xfd\x20\x03\x19\x00\x00abc";
        let f = build(&[(1, 90, 0x8011, 3, frame)]);
        assert_eq!(select_ptx(&f, 90).unwrap(), "abc");
    }

    #[test]
    fn damaged_fat_binaries_are_errors_not_panics() {
        let f = build(&[(1, 90, 0x11, 0, b"ptx text")]);
        for cut in 0..f.len() {
            assert!(select_ptx(&f[..cut], 90).is_err(), "cut at {cut}");
        }
        let mut bad = f.clone();
        bad[0] ^= 1;
        assert!(select_ptx(&bad, 90).unwrap_err().0.contains("magic"));
        let mut bad = f.clone();
        bad[16 + 4] = 8; // an entry header of 8 bytes
        assert!(select_ptx(&bad, 90).is_err());
    }
}

//! LZ4's block format (one raw block, no frame), which fat binaries use for compressed PTX
//! (`fatbinary --compress-mode=speed`; nvcc's default is zstd).
//!
//! A block is a run of sequences: a token byte (high nibble: literal count, low nibble: match
//! length - 4; 15 means "more bytes follow", each added, until one below 255), the literals, a
//! 2-byte little-endian offset back into the output, and the match's extra length bytes. The
//! last sequence has literals only. A match may overlap its own output (offset < length).

/// Decompresses `src` into exactly `size` bytes; errors say what is wrong with the block.
pub fn decompress_block(src: &[u8], size: usize) -> Result<Vec<u8>, String> {
    let mut out: Vec<u8> = Vec::with_capacity(size);
    let mut i = 0;
    let byte = |i: &mut usize| -> Result<u8, String> {
        let b = *src.get(*i).ok_or("the block ends inside a sequence")?;
        *i += 1;
        Ok(b)
    };
    let length = |i: &mut usize, nibble: u8| -> Result<usize, String> {
        let mut n = nibble as usize;
        if nibble == 15 {
            loop {
                let b = byte(i)?;
                n += b as usize;
                if b != 255 {
                    break;
                }
            }
        }
        Ok(n)
    };
    while i < src.len() {
        let token = byte(&mut i)?;
        let literals = length(&mut i, token >> 4)?;
        let lit = src
            .get(i..i + literals)
            .ok_or("literals run past the end of the block")?;
        if out.len() + literals > size {
            return Err(format!("the block holds more than {size} bytes"));
        }
        out.extend_from_slice(lit);
        i += literals;
        if i == src.len() {
            break; // the last sequence: literals only
        }
        let offset = byte(&mut i)? as usize | (byte(&mut i)? as usize) << 8;
        let len = length(&mut i, token & 15)? + 4;
        if offset == 0 || offset > out.len() {
            return Err(format!(
                "a match {offset} bytes back, with {} bytes written",
                out.len()
            ));
        }
        if out.len() + len > size {
            return Err(format!("the block holds more than {size} bytes"));
        }
        let from = out.len() - offset;
        for k in 0..len {
            let b = out[from + k];
            out.push(b);
        }
    }
    if out.len() != size {
        return Err(format!("the block holds {} bytes, not {size}", out.len()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::decompress_block;

    #[test]
    fn literals_only() {
        assert_eq!(decompress_block(b"\x30abc", 3).unwrap(), b"abc");
    }

    #[test]
    fn overlapping_match_repeats() {
        // "ab", then 6 bytes from 2 back: "abababab".
        assert_eq!(
            decompress_block(b"\x22ab\x02\x00\x00", 8).unwrap(),
            b"abababab"
        );
    }

    #[test]
    fn long_lengths_use_extra_bytes() {
        // 15 + 5 = 20 literals.
        let mut block = vec![0xf0, 5];
        block.extend(std::iter::repeat_n(b'x', 20));
        assert_eq!(decompress_block(&block, 20).unwrap(), vec![b'x'; 20]);
        // one literal, then a match of 4 + 15 + 255 + 1 = 275 at offset 1.
        let out = decompress_block(b"\x1fy\x01\x00\xff\x01", 276).unwrap();
        assert_eq!(out, vec![b'y'; 276]);
    }

    #[test]
    fn bad_blocks_are_errors() {
        assert!(decompress_block(b"\x30ab", 3).is_err()); // literals cut short
        assert!(decompress_block(b"\x10a\x05\x00", 9).is_err()); // match before the start
        assert!(decompress_block(b"\x10a\x00\x00", 5).is_err()); // offset 0
        assert!(decompress_block(b"\x30abc", 2).is_err()); // more than announced
        assert!(decompress_block(b"\x30abc", 4).is_err()); // less than announced
    }
}

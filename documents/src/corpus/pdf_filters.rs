//! A PDF stream's filters undone within a bound (issue 97): every lossless filter the PDF
//! specification names and `unpdf` reads — `FlateDecode`, `LZWDecode`, `RunLengthDecode`,
//! `ASCIIHexDecode`, `ASCII85Decode` and their abbreviations — applied in the order of the
//! stream's `/Filter` chain, each stage stopped as soon as its output passes the bound. The
//! pre-check of [`crate::corpus::pdf_bounds`] reads streams through this, so that no filter
//! hides what a stream holds from it, and no stream costs it more than the bound to find out.

use std::io::Read;

use unpdf::parser::raw::tokenizer::{dict_get, PdfDict, PdfObject};

/// Why a stream's bytes could not be had within the bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FilterError {
    /// A stage's output passed the bound.
    PastBound,
    /// A filter the stream names is not one `unpdf` reads either (its content is lost to both):
    /// its name.
    Unknown(Vec<u8>),
    /// The stream's `/Filter` holds something other than a name.
    NotAName,
    /// The stream is predicted (`/DecodeParms` with a `/Predictor`), which images use and page
    /// content never does.
    Predicted,
}

/// What undoing a stream's filters gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Undone {
    /// The bytes after the lossless filters.
    pub(crate) data: Vec<u8>,
    /// The image codec the chain ends in (`DCTDecode`, `JPXDecode`, …), when `data` is still
    /// an image.
    pub(crate) image_codec: bool,
}

/// The names of the stream's filters, in the order they are undone.
fn filter_names(dict: &PdfDict) -> Result<Vec<Vec<u8>>, FilterError> {
    match dict_get(dict, b"Filter") {
        None | Some(PdfObject::Null) => Ok(Vec::new()),
        Some(PdfObject::Name(name)) => Ok(vec![name.clone()]),
        Some(PdfObject::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_name()
                    .map(<[u8]>::to_vec)
                    .ok_or(FilterError::NotAName)
            })
            .collect(),
        Some(_) => Err(FilterError::NotAName),
    }
}

/// Whether the stream's `/DecodeParms` ask for a predictor.
fn is_predicted(dict: &PdfDict) -> bool {
    let predictor = |parms: &PdfObject| {
        parms
            .as_dict()
            .and_then(|p| dict_get(p, b"Predictor"))
            .and_then(PdfObject::as_i64)
            .is_some_and(|n| n > 1)
    };
    match dict_get(dict, b"DecodeParms") {
        Some(PdfObject::Array(items)) => items.iter().any(predictor),
        Some(other) => predictor(other),
        None => false,
    }
}

fn is_image_codec(name: &[u8]) -> bool {
    matches!(
        name,
        b"DCTDecode" | b"DCT" | b"JPXDecode" | b"JBIG2Decode" | b"CCITTFaxDecode" | b"CCF"
    )
}

/// The stream's bytes with its filters undone, each stage's output at most `bound` bytes.
/// `refuse_predicted`: a predicted stream is refused rather than undone without its predictor
/// (page content is never predicted, so its bytes would not be what `unpdf` paints).
pub(crate) fn undo_filters(
    dict: &PdfDict,
    raw: &[u8],
    bound: usize,
    refuse_predicted: bool,
) -> Result<Undone, FilterError> {
    let names = filter_names(dict)?;
    if refuse_predicted && is_predicted(dict) {
        return Err(FilterError::Predicted);
    }
    // Each filter's parameters by position, a lone dictionary the last filter's, as the reader
    // pairs them.
    let mut parms: Vec<Option<&PdfDict>> = vec![None; names.len()];
    match dict_get(dict, b"DecodeParms") {
        Some(PdfObject::Array(items)) => {
            for (slot, item) in parms.iter_mut().zip(items) {
                *slot = item.as_dict();
            }
        }
        Some(other) => {
            if let (Some(lone), Some(last)) = (other.as_dict(), parms.last_mut()) {
                *last = Some(lone);
            }
        }
        None => {}
    }
    let mut data = raw.to_vec();
    for (name, parms) in names.iter().zip(&parms) {
        let early_change = || {
            parms
                .and_then(|p| dict_get(p, b"EarlyChange"))
                .and_then(PdfObject::as_i64)
                .unwrap_or(1)
                != 0
        };
        if is_image_codec(name) {
            // An image codec ends a chain: what follows is pixels, not bytes to read.
            return Ok(Undone {
                data,
                image_codec: true,
            });
        }
        data = match name.as_slice() {
            b"FlateDecode" | b"Fl" => inflate(&data, bound)?,
            b"LZWDecode" | b"LZW" => unlzw(&data, early_change(), bound)?,
            b"RunLengthDecode" | b"RL" => run_length(&data, bound)?,
            b"ASCIIHexDecode" | b"AHx" => ascii_hex(&data),
            b"ASCII85Decode" | b"A85" => ascii85(&data),
            other => return Err(FilterError::Unknown(other.to_vec())),
        };
    }
    Ok(Undone {
        data,
        image_codec: false,
    })
}

/// Reads `reader` to its end or its first error, in the reader's 8 KB chunks, refusing past
/// `bound` bytes; with whether it ended cleanly.
fn read_bounded(mut reader: impl Read, bound: usize) -> Result<(Vec<u8>, bool), FilterError> {
    let mut out = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => return Ok((out, true)),
            Ok(n) => {
                if out.len() + n > bound {
                    return Err(FilterError::PastBound);
                }
                out.extend_from_slice(&chunk[..n]);
            }
            Err(_) => return Ok((out, false)),
        }
    }
}

/// Flate as `unpdf` reads it: a zlib stream, else a raw deflate one; else, for a damaged
/// stream, the longest either gives with up to 8 bytes cut from its end (a bad checksum in the
/// last bytes loses nothing to the reader).
fn inflate(data: &[u8], bound: usize) -> Result<Vec<u8>, FilterError> {
    let attempt = |data: &[u8], zlib: bool| {
        if zlib {
            read_bounded(flate2::read::ZlibDecoder::new(data), bound)
        } else {
            read_bounded(flate2::read::DeflateDecoder::new(data), bound)
        }
    };
    for zlib in [true, false] {
        if let (out, true) = attempt(data, zlib)? {
            return Ok(out);
        }
    }
    let mut longest = Vec::new();
    for cut in 0..=8.min(data.len().saturating_sub(1)) {
        for zlib in [true, false] {
            let (out, _) = attempt(&data[..data.len() - cut], zlib)?;
            if out.len() > longest.len() {
                longest = out;
            }
        }
    }
    Ok(longest)
}

fn unlzw(data: &[u8], early_change: bool, bound: usize) -> Result<Vec<u8>, FilterError> {
    let mut decoder = if early_change {
        weezl::decode::Decoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8)
    } else {
        weezl::decode::Decoder::new(weezl::BitOrder::Msb, 8)
    };
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let mut input = data;
    loop {
        let result = decoder.decode_bytes(input, &mut chunk);
        if out.len() + result.consumed_out > bound {
            return Err(FilterError::PastBound);
        }
        out.extend_from_slice(&chunk[..result.consumed_out]);
        input = &input[result.consumed_in..];
        match result.status {
            Ok(weezl::LzwStatus::Ok) if result.consumed_in + result.consumed_out > 0 => {}
            _ => return Ok(out),
        }
    }
}

fn run_length(data: &[u8], bound: usize) -> Result<Vec<u8>, FilterError> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&length) = data.get(i) {
        i += 1;
        match length {
            128 => break,
            0..=127 => {
                let end = (i + length as usize + 1).min(data.len());
                out.extend_from_slice(&data[i..end]);
                i = end;
            }
            _ => {
                let Some(&byte) = data.get(i) else { break };
                i += 1;
                out.extend(std::iter::repeat_n(byte, 257 - length as usize));
            }
        }
        if out.len() > bound {
            return Err(FilterError::PastBound);
        }
    }
    Ok(out)
}

fn ascii_hex(data: &[u8]) -> Vec<u8> {
    let digits: Vec<u8> = data
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .take_while(|&b| b != b'>')
        .filter_map(|b| (b as char).to_digit(16).map(|d| d as u8))
        .collect();
    digits
        .chunks(2)
        .map(|pair| (pair[0] << 4) | pair.get(1).copied().unwrap_or(0))
        .collect()
}

fn ascii85(data: &[u8]) -> Vec<u8> {
    // Five digits base 85 make four bytes; a short last group is padded with the top digit.
    let value = |group: &[u8; 5]| {
        let v = group.iter().fold(0u64, |v, &d| v * 85 + d as u64);
        (v as u32).to_be_bytes()
    };
    let body = data.strip_prefix(b"<~").unwrap_or(data);
    let mut out = Vec::with_capacity(body.len() * 4 / 5);
    let mut group = [84u8; 5];
    let mut filled = 0;
    for &byte in body {
        match byte {
            b'~' => break,
            b'z' if filled == 0 => out.extend_from_slice(&[0; 4]),
            b'!'..=b'u' => {
                group[filled] = byte - b'!';
                filled += 1;
                if filled == 5 {
                    out.extend_from_slice(&value(&group));
                    filled = 0;
                }
            }
            _ => {}
        }
    }
    if filled > 1 {
        group[filled..].fill(84);
        out.extend_from_slice(&value(&group)[..filled - 1]);
    }
    out
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn dict(filter: PdfObject) -> PdfDict {
        let mut dict = PdfDict::new();
        dict.insert(b"Filter".to_vec(), filter);
        dict
    }

    fn name(n: &str) -> PdfObject {
        PdfObject::Name(n.as_bytes().to_vec())
    }

    #[test]
    fn every_lossless_filter_is_undone_in_its_order() {
        let content = b"q /X Do Q".to_vec();
        let hex: Vec<u8> = content
            .iter()
            .flat_map(|b| format!("{b:02x}").into_bytes())
            .collect();
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&hex).unwrap();
        let packed = encoder.finish().unwrap();
        // Flate first, then the hex it held.
        let chain = dict(PdfObject::Array(vec![name("Fl"), name("AHx")]));
        let undone = undo_filters(&chain, &packed, 1 << 20, true).unwrap();
        assert_eq!(undone.data, content);
        // ASCII85 (the specification's own example, with a short last group), run length.
        assert_eq!(ascii85(b"<~9jqo^F*2M7/c~>"), b"Man sure.");
        assert_eq!(
            run_length(&[1, b'q', b' ', 253, b'Q', 128], 100).unwrap(),
            b"q QQQQ"
        );
        let mut lzw = weezl::encode::Encoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8);
        let packed = lzw.encode(&content).unwrap();
        let undone = undo_filters(&dict(name("LZWDecode")), &packed, 1 << 20, true).unwrap();
        assert_eq!(undone.data, content);
    }

    #[test]
    fn a_stage_past_its_bound_stops_there() {
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&vec![b'q'; 10 << 20]).unwrap();
        let packed = encoder.finish().unwrap();
        let refused = undo_filters(&dict(name("FlateDecode")), &packed, 1 << 20, true);
        assert_eq!(refused, Err(FilterError::PastBound));
        let mut predicted = dict(name("FlateDecode"));
        let mut parms = PdfDict::new();
        parms.insert(b"Predictor".to_vec(), PdfObject::Integer(12));
        predicted.insert(b"DecodeParms".to_vec(), PdfObject::Dict(parms));
        let refused = undo_filters(&predicted, &packed, 1 << 30, true);
        assert_eq!(refused, Err(FilterError::Predicted));
    }
}

//! An image file's pages as OCR is given them: the size an image's header claims, checked
//! before anything is decoded, and a TIFF's frames, each size-checked and turned grey.

use std::io::Read;
use std::path::Path;

use super::{MAX_OCR_PAGES, MAX_OCR_PIXELS};
use crate::corpus::budget::ReadRefused;

/// The width and height an image's header claims (PNG, JPEG, TIFF), read without decoding it;
/// refused when it claims more than [`MAX_OCR_PIXELS`] or cannot be read as an image.
pub fn checked_image_size(bytes: &[u8]) -> Result<(u64, u64), ReadRefused> {
    let size = imagesize::blob_size(bytes).map_err(|_| {
        ReadRefused::Unreadable(
            "it is not an image Tally can read (PNG, JPEG or TIFF), or it is damaged".into(),
        )
    })?;
    let (width, height) = (size.width as u64, size.height as u64);
    if width == 0 || height == 0 {
        return Err(ReadRefused::Unreadable("its image has no pixels".into()));
    }
    if width.saturating_mul(height) > MAX_OCR_PIXELS {
        return Err(too_many_pixels(width, height));
    }
    Ok((width, height))
}

pub(super) fn too_many_pixels(width: u64, height: u64) -> ReadRefused {
    ReadRefused::TooLarge(format!(
        "its image is {width} × {height} pixels; Tally reads images of at most {} million \
         pixels (a page photographed at 48 megapixels is within it)",
        MAX_OCR_PIXELS / 1_000_000
    ))
}

/// How many pages the image file in `path` holds (a TIFF's frames, each size-checked).
pub fn image_pages(path: &Path) -> Result<usize, ReadRefused> {
    Ok(tiff_frames(path)?.map_or(1, |(frames, _)| frames))
}

pub(super) fn damaged_tiff(_: tiff::TiffError) -> ReadRefused {
    ReadRefused::Unreadable("its TIFF is damaged".into())
}

pub(super) fn tiff_decoder(
    path: &Path,
) -> Result<tiff::decoder::Decoder<std::io::BufReader<std::fs::File>>, ReadRefused> {
    let file =
        std::fs::File::open(path).map_err(|e| ReadRefused::failed("cannot open it for OCR", e))?;
    tiff::decoder::Decoder::new(std::io::BufReader::new(file)).map_err(damaged_tiff)
}

/// For a TIFF, how many frames it holds and whether the decoder here turns each grey, every
/// frame's size checked against [`MAX_OCR_PIXELS`] and their count against
/// [`MAX_OCR_PAGES`]; `None` for another format.
pub(super) fn tiff_frames(path: &Path) -> Result<Option<(usize, bool)>, ReadRefused> {
    let mut head = [0u8; 4];
    let is_tiff = std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && matches!(&head, b"II*\0" | b"MM\0*" | b"II+\0" | b"MM\0+");
    if !is_tiff {
        return Ok(None);
    }
    let mut decoder = tiff_decoder(path)?;
    let mut frames = 0usize;
    let mut all_grey = true;
    loop {
        frames += 1;
        if frames > MAX_OCR_PAGES {
            return Err(ReadRefused::TooLarge(format!(
                "its TIFF has more than {MAX_OCR_PAGES} pages; Tally reads at most \
                 {MAX_OCR_PAGES} pages of a file by OCR"
            )));
        }
        let (width, height) = decoder.dimensions().map_err(damaged_tiff)?;
        let (width, height) = (width as u64, height as u64);
        if width == 0 || height == 0 {
            return Err(ReadRefused::Unreadable(format!(
                "page {frames} of its TIFF has no pixels"
            )));
        }
        if width.saturating_mul(height) > MAX_OCR_PIXELS {
            return Err(too_many_pixels(width, height));
        }
        all_grey &= decoder.colortype().is_ok_and(|c| channels(c).is_some());
        if !decoder.more_images() {
            return Ok(Some((frames, all_grey)));
        }
        decoder.next_image().map_err(damaged_tiff)?;
    }
}

/// How many samples a pixel of `color` has, for the colour types turned grey here.
fn channels(color: tiff::ColorType) -> Option<usize> {
    use tiff::ColorType::{Gray, GrayA, RGB, RGBA};
    match color {
        Gray(8 | 16) => Some(1),
        GrayA(8 | 16) => Some(2),
        RGB(8 | 16) => Some(3),
        RGBA(8 | 16) => Some(4),
        _ => None,
    }
}

/// The frame the decoder is at, grey.
pub(super) fn frame_grey<R: std::io::Read + std::io::Seek>(
    decoder: &mut tiff::decoder::Decoder<R>,
) -> Option<image::GrayImage> {
    let (width, height) = decoder.dimensions().ok()?;
    let channels = channels(decoder.colortype().ok()?)?;
    let samples: Vec<u8> = match decoder.read_image().ok()? {
        tiff::decoder::DecodingResult::U8(samples) => samples,
        tiff::decoder::DecodingResult::U16(samples) => {
            samples.into_iter().map(|v| (v >> 8) as u8).collect()
        }
        _ => return None,
    };
    let pixels = width as usize * height as usize;
    if samples.len() < pixels * channels {
        return None;
    }
    let grey: Vec<u8> = samples
        .chunks_exact(channels)
        .take(pixels)
        .map(|pixel| match pixel {
            [r, g, b, ..] if channels >= 3 => {
                ((299 * *r as u32 + 587 * *g as u32 + 114 * *b as u32) / 1000) as u8
            }
            [v, ..] => *v,
            [] => 255,
        })
        .collect();
    image::GrayImage::from_raw(width, height, grey)
}

//! The bounds of a PDF, checked before `unpdf` reads it (issues 84 and 97). `unpdf` inflates
//! each content stream whole, and keeps every operator of a page with its operands, each Form
//! XObject painted written out where it is painted: a 4.5 KB file of forms painting each other
//! ten times, eight levels deep, took 3.5 GB; one page of `q` thirty-three million times over
//! (1.7 MB) passed 6 GB in 8 s; a 1 MB stream that inflates to 1 GB cost 629 MB.
//!
//! So the file is read first as `unpdf` reads it — its own object parser and page tree
//! ([`unpdf::parser::raw`]), every filter it undoes ([`super::pdf_filters`]), every token of a
//! content stream ([`super::pdf_content`]) — and refused when a stream inflates past the bounds
//! of a ZIP archive's entries ([`crate::corpus::archive`]), or a page would hold more than
//! [`MAX_PAINTED_ITEMS`] operators and operands with its forms written out. Nothing is
//! recognised by a pattern of its text, so a comment, an escaped name, another filter or a
//! dictionary inside the form's do not hide what a page paints (the six ways round issue 84's
//! check).

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use regex::bytes::Regex;
use unpdf::parser::raw::tokenizer::{self, dict_get, PdfDict, PdfObject, PdfStream};
use unpdf::parser::raw::RawDocument;

use super::archive::{MAX_ENTRY_RATIO, MAX_UNPACKED_BYTES};
use super::budget::{ReadBudget, ReadRefused};
use super::pdf_content::{self, Counted, MAX_ARRAY_DEPTH};
use super::pdf_filters::{undo_filters, FilterError};

/// The most operators and operands one page may hold once its Form XObjects are written out
/// where they are painted (a dense page of text holds a hundred thousand; a detailed map a few
/// million). `unpdf` keeps about 150 bytes for each operator: this bounds a page at about
/// 400 MB.
pub const MAX_PAINTED_ITEMS: u64 = 2_500_000;
/// The most bytes one content stream may unpack to (a dense page's is a few hundred KB).
const MAX_CONTENT_BYTES: usize = 32 * 1024 * 1024;
/// What painting a form adds around its own operators: `q`, `cm` and its matrix, the clip
/// `re W n`, a group's bounds and `Q`.
const FORM_FRAME_ITEMS: u64 = 18;
/// The deepest `unpdf` paints forms inside forms.
const MAX_FORM_DEPTH: usize = 32;
/// The most parents a page's resources are inherited through.
const MAX_PARENTS: usize = 64;

/// An object's header, `12 0 obj`.
static OBJECT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)\d+[\s\x00]+\d+[\s\x00]+obj\b").expect("a valid pattern"));

type Id = (u32, u16);

/// Refuses a PDF whose streams inflate past the bounds, or one of whose pages would hold more
/// than [`MAX_PAINTED_ITEMS`] operators and operands with its forms written out.
pub fn check_pdf(bytes: &[u8], budget: &ReadBudget) -> Result<(), ReadRefused> {
    let mut inflation = Inflation::default();
    let later = inflation.check_file(bytes, budget)?;
    // A file the reader cannot load is refused by the reader, with its sentence.
    let Ok(document) = RawDocument::load(bytes) else {
        return Ok(());
    };
    if document.is_encrypted() {
        return Ok(());
    }
    // Streams whose filter is named by reference: the loaded file names it.
    for id in later {
        budget.check()?;
        if let Some(stream) = document.get_object(id).map(|o| document.resolve(o)) {
            if let Some(stream) = stream.as_stream() {
                let mut dict = stream.dict.clone();
                if let Some(filter) = dict_get(&stream.dict, b"Filter") {
                    dict.insert(b"Filter".to_vec(), document.resolve(filter).clone());
                }
                inflation.check_stream(&dict, &stream.raw_data)?;
            }
        }
    }
    let mut painting = Painting::of(&document, budget)?;
    for (number, id) in document.pages() {
        budget.check()?;
        let items = painting.page(id)?;
        if items > MAX_PAINTED_ITEMS {
            return Err(ReadRefused::TooLarge(format!(
                "its page {number} paints more than {:.1} million operators and operands (with \
                 the forms it paints written out where it paints them): more than a page of \
                 any real document holds",
                MAX_PAINTED_ITEMS as f64 / 1e6
            )));
        }
    }
    Ok(())
}

/// How much the file's streams inflate, all of them.
#[derive(Default)]
struct Inflation {
    in_all: u64,
}

impl Inflation {
    /// Refuses a file one of whose streams inflates more than [`MAX_ENTRY_RATIO`]-fold (past a
    /// megabyte; an image past what its size holds), or all of whose streams inflate past
    /// [`MAX_UNPACKED_BYTES`]: every object the file holds, found by its header wherever it is
    /// (object streams are inflated by the reader as it loads the file, before any page is
    /// read). Gives the streams whose filter is named by reference, for after the file is loaded.
    fn check_file(&mut self, bytes: &[u8], budget: &ReadBudget) -> Result<Vec<Id>, ReadRefused> {
        let mut later = Vec::new();
        for (seen, found) in OBJECT.find_iter(bytes).enumerate() {
            if seen % 64 == 0 {
                budget.check()?;
            }
            let Ok((PdfObject::Stream(stream), _)) = tokenizer::parse_object(bytes, found.start())
            else {
                continue;
            };
            if dict_get(&stream.dict, b"Filter").is_some_and(|f| f.as_reference().is_some()) {
                let header = String::from_utf8_lossy(found.as_bytes()).replace('\0', " ");
                let mut numbers = header.split_whitespace().map(str::parse::<u32>);
                if let (Some(Ok(number)), Some(Ok(generation))) = (numbers.next(), numbers.next()) {
                    later.push((number, generation.min(u16::MAX as u32) as u16));
                }
                continue;
            }
            self.check_stream(&stream.dict, &stream.raw_data)?;
        }
        Ok(later)
    }

    /// Refuses one stream past its bound, or all of them past [`MAX_UNPACKED_BYTES`].
    fn check_stream(&mut self, dict: &PdfDict, raw: &[u8]) -> Result<(), ReadRefused> {
        let mut allowed = (1024 * 1024u64).max((raw.len() as u64) * MAX_ENTRY_RATIO);
        // A blank image mask packs a thousandfold: an image may inflate to what its size holds
        // (four bytes a pixel), as the reader lets it.
        if name_of(dict, b"Subtype") == Some(b"Image") {
            let side = |key: &[u8]| {
                dict_get(dict, key)
                    .and_then(PdfObject::as_i64)
                    .map_or(0, |n| n.clamp(0, 1 << 20) as u64)
            };
            allowed = allowed.max(side(b"Width") * side(b"Height") * 4);
        }
        let bound = usize::try_from(allowed.min(MAX_UNPACKED_BYTES)).unwrap_or(usize::MAX);
        let inflated = match undo_filters(dict, raw, bound, false) {
            Ok(undone) => undone.data.len() as u64,
            Err(FilterError::PastBound) => {
                return Err(ReadRefused::TooLarge(format!(
                    "a stream of it inflates more than {MAX_ENTRY_RATIO}-fold (past {} MB from {} \
                     KB): a decompression bomb?",
                    bound / (1024 * 1024),
                    raw.len() / 1024
                )))
            }
            Err(_) => return Ok(()),
        };
        self.in_all += inflated;
        if self.in_all > MAX_UNPACKED_BYTES {
            return Err(ReadRefused::TooLarge(format!(
                "its streams inflate to more than {} MB",
                MAX_UNPACKED_BYTES / (1024 * 1024)
            )));
        }
        Ok(())
    }
}

/// `object` with its references followed, twice over as the reader does (its own resolution
/// stops after ten).
fn resolved<'a>(document: &'a RawDocument, object: &'a PdfObject) -> &'a PdfObject {
    document.resolve(document.resolve(object))
}

/// The dictionary `object` is or refers to: a stream's too, as the reader takes it.
fn dict_of<'a>(document: &'a RawDocument, object: &'a PdfObject) -> Option<&'a PdfDict> {
    match resolved(document, object) {
        PdfObject::Dict(dict) => Some(dict),
        PdfObject::Stream(stream) => Some(&stream.dict),
        _ => None,
    }
}

/// A content stream's bytes, at most `room` of them; empty for what the reader cannot undo
/// either; refused past `room` or when predicted (which only images are).
fn content_bytes(stream: &PdfStream, room: usize) -> Result<Vec<u8>, ReadRefused> {
    match undo_filters(&stream.dict, &stream.raw_data, room, true) {
        Ok(undone) if !undone.image_codec => Ok(undone.data),
        Ok(_) | Err(FilterError::Unknown(_) | FilterError::NotAName) => Ok(Vec::new()),
        Err(FilterError::PastBound) => Err(ReadRefused::TooLarge(format!(
            "a page's drawing commands take more than {} MB once unpacked",
            MAX_CONTENT_BYTES / (1024 * 1024)
        ))),
        Err(FilterError::Predicted) => Err(ReadRefused::Unreadable(
            "a page's drawing commands are stored with a predictor, as only images are".into(),
        )),
    }
}

/// A content stream's bytes counted, or refused when its arrays nest too deep.
fn count_content(bytes: &[u8]) -> Result<Counted, ReadRefused> {
    pdf_content::count(bytes).map_err(|_| {
        ReadRefused::TooLarge(format!(
            "a page's drawing commands nest arrays more than {MAX_ARRAY_DEPTH} deep"
        ))
    })
}

fn name_of<'a>(dict: &'a PdfDict, key: &[u8]) -> Option<&'a [u8]> {
    dict_get(dict, key).and_then(PdfObject::as_name)
}

/// What the pages of one document paint, worked out once for each stream and form.
struct Painting<'a> {
    document: &'a RawDocument,
    budget: &'a ReadBudget,
    /// Every name any resources of the file give an XObject, with the objects it names: a
    /// painted name costs the costliest of them, whichever resources the reader looks it up in.
    names: HashMap<Vec<u8>, Vec<Id>>,
    /// Each stream's operators and operands, and the names it paints.
    counted: HashMap<Id, Counted>,
    /// Each form's cost with the forms it paints written out.
    forms: HashMap<Id, u64>,
    /// The forms being written out, outermost first.
    path: Vec<Id>,
    /// Whether the cost being worked out was cut short by a cycle or the reader's depth.
    cut: bool,
}

impl<'a> Painting<'a> {
    /// The painting of `document`, with the names of every resources dictionary its pages and
    /// their forms can reach.
    fn of(document: &'a RawDocument, budget: &'a ReadBudget) -> Result<Self, ReadRefused> {
        let mut painting = Painting {
            document,
            budget,
            names: HashMap::new(),
            counted: HashMap::new(),
            forms: HashMap::new(),
            path: Vec::new(),
            cut: false,
        };
        let mut resources: Vec<&PdfObject> = Vec::new();
        let mut walked: HashSet<Id> = HashSet::new();
        for id in document.pages().into_values() {
            // A page's resources, and those it inherits from the nodes above it.
            let mut node = Some(id);
            for _ in 0..MAX_PARENTS {
                let Some(at) = node.filter(|at| walked.insert(*at)) else {
                    break;
                };
                let Ok(dict) = document.get_dict(at) else {
                    break;
                };
                resources.extend(dict_get(dict, b"Resources"));
                node = dict_get(dict, b"Parent").and_then(PdfObject::as_reference);
            }
        }
        let mut forms_seen: HashSet<Id> = HashSet::new();
        let mut resources_seen: HashSet<Id> = HashSet::new();
        let mut xobjects_seen: HashSet<Id> = HashSet::new();
        while let Some(found) = resources.pop() {
            budget.check()?;
            if let Some(id) = found.as_reference() {
                if !resources_seen.insert(id) {
                    continue;
                }
            }
            let Some(xobjects) = dict_of(document, found)
                .and_then(|r| dict_get(r, b"XObject"))
                .and_then(|x| {
                    if let Some(id) = x.as_reference() {
                        if !xobjects_seen.insert(id) {
                            return None;
                        }
                    }
                    dict_of(document, x)
                })
            else {
                continue;
            };
            for (name, target) in xobjects {
                let Some(id) = target.as_reference() else {
                    continue;
                };
                painting.names.entry(name.clone()).or_default().push(id);
                if let Some(form) = painting.form(id).filter(|_| forms_seen.insert(id)) {
                    resources.extend(dict_get(&form.dict, b"Resources"));
                }
            }
        }
        Ok(painting)
    }

    /// The Form XObject `id` names, if it is one (its `/Subtype` says `/Form`, as the reader
    /// asks).
    fn form(&self, id: Id) -> Option<&'a PdfStream> {
        let stream = resolved(self.document, self.document.get_object(id)?).as_stream()?;
        (name_of(&stream.dict, b"Subtype") == Some(b"Form")).then_some(stream)
    }

    /// The operators and operands page `id` holds with its forms written out.
    fn page(&mut self, id: Id) -> Result<u64, ReadRefused> {
        let document = self.document;
        self.cut = false;
        let Ok(dict) = document.get_dict(id) else {
            return Ok(0);
        };
        let streams: Vec<(Option<Id>, &PdfStream)> = match dict_get(dict, b"Contents") {
            None => Vec::new(),
            Some(contents) => match resolved(document, contents) {
                PdfObject::Stream(stream) => vec![(contents.as_reference(), stream)],
                PdfObject::Array(items) => items
                    .iter()
                    .filter_map(|item| {
                        let stream = resolved(document, item).as_stream()?;
                        Some((item.as_reference(), stream))
                    })
                    .collect(),
                _ => Vec::new(),
            },
        };
        // The reader joins a page's streams (a space between) and reads them as one: a name
        // at the end of one stream is painted by the `Do` that starts the next.
        let counted = match streams.as_slice() {
            [] => return Ok(0),
            [(id, stream)] => self.counted(*id, stream)?,
            several => {
                let mut joined = Vec::new();
                for (_, stream) in several {
                    self.budget.check()?;
                    let room = MAX_CONTENT_BYTES.saturating_sub(joined.len());
                    let undone = content_bytes(stream, room)?;
                    joined.extend_from_slice(&undone);
                    joined.push(b' ');
                }
                count_content(&joined)?
            }
        };
        let painted = self.painted_cost(&counted.painted)?;
        Ok(counted.items.saturating_add(painted))
    }

    /// What painting `painted` (names with how often) adds.
    fn painted_cost(&mut self, painted: &HashMap<Vec<u8>, u64>) -> Result<u64, ReadRefused> {
        let mut total = 0u64;
        for (name, times) in painted {
            let ids = self.names.get(name).cloned().unwrap_or_default();
            let mut costliest = 0u64;
            for id in ids {
                costliest = costliest.max(self.form_cost(id)?);
            }
            total = total.saturating_add(times.saturating_mul(costliest));
        }
        Ok(total)
    }

    /// The operators and operands form `id` adds where it is painted, its own forms written
    /// out; nothing for an image, a form painting itself, or one past the reader's depth.
    fn form_cost(&mut self, id: Id) -> Result<u64, ReadRefused> {
        if let Some(&cost) = self.forms.get(&id) {
            return Ok(cost);
        }
        let Some(stream) = self.form(id) else {
            return Ok(0);
        };
        if self.path.contains(&id) || self.path.len() >= MAX_FORM_DEPTH {
            // Cut short here: a cost worked out above this is kept for this path only.
            self.cut = true;
            return Ok(0);
        }
        self.budget.check()?;
        let counted = self.counted(Some(id), stream)?;
        let cut_above = std::mem::replace(&mut self.cut, false);
        self.path.push(id);
        let inner = self.painted_cost(&counted.painted);
        self.path.pop();
        let cost = (counted.items + FORM_FRAME_ITEMS).saturating_add(inner?);
        // A cost cut short by a cycle or the depth is not what the form costs elsewhere.
        if !self.cut {
            self.forms.insert(id, cost);
        }
        self.cut |= cut_above;
        Ok(cost)
    }

    /// A content stream counted (once for each object), or refused: past its bytes, nested too
    /// deep, or predicted (which only images are).
    fn counted(&mut self, id: Option<Id>, stream: &PdfStream) -> Result<Counted, ReadRefused> {
        if let Some(counted) = id.and_then(|id| self.counted.get(&id)) {
            return Ok(counted.clone());
        }
        let counted = count_content(&content_bytes(stream, MAX_CONTENT_BYTES)?)?;
        if let Some(id) = id {
            self.counted.insert(id, counted.clone());
        }
        Ok(counted)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use tally_docgen::pdf_file::pdf_of;

    fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
        let mut out = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
        out.extend(data);
        out.extend(b"\nendstream");
        out
    }

    fn flate(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    /// A page that paints form 1 ten times, each form painting the next ten times, `levels`
    /// deep, the last showing a line of text.
    pub(crate) fn nested_forms(levels: usize) -> Vec<u8> {
        // 1 catalogue, 2 pages, 3 page, 4 font, 5 content, 6.. forms.
        let paint = |name: &str| format!("q /{name} Do Q\n").repeat(10);
        let mut objects = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 5 0 R \
              /Resources << /XObject << /X1 6 0 R >> >> >>"
                .to_vec(),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
            stream("/Filter /FlateDecode", &flate(paint("X1").as_bytes())),
        ];
        for level in 1..=levels {
            let id = 5 + level;
            let (resources, content) = if level == levels {
                (
                    "/Font << /F1 4 0 R >>".to_string(),
                    "BT /F1 12 Tf 56 700 Td (Total 5 members) Tj ET\n".to_string(),
                )
            } else {
                (
                    format!("/XObject << /X{} {} 0 R >>", level + 1, id + 1),
                    paint(&format!("X{}", level + 1)),
                )
            };
            objects.push(stream(
                &format!(
                    "/Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << {resources} >> \
                     /Filter /FlateDecode"
                ),
                &flate(content.as_bytes()),
            ));
        }
        pdf_of(&objects)
    }

    #[test]
    fn forms_painting_each_other_many_times_over_are_refused() {
        // Issue 84: 8 levels × 10 in 4.5 KB took 3.5 GB; 6 levels 16 s.
        let budget = ReadBudget::default();
        for levels in [6, 8] {
            let pdf = nested_forms(levels);
            assert!(pdf.len() < 6_000, "{}", pdf.len());
            let refused = check_pdf(&pdf, &budget).unwrap_err();
            assert!(
                refused.to_string().contains("operators and operands"),
                "{levels}: {refused}"
            );
        }
        // Forms two deep, as a page template paints its logo, are read.
        assert!(check_pdf(&nested_forms(2), &budget).is_ok());
    }

    #[test]
    fn a_stream_that_inflates_a_thousandfold_is_refused() {
        let bomb = flate(&vec![b' '; 64 * 1024 * 1024]);
        let pdf = pdf_of(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>".to_vec(),
            stream("/Filter /FlateDecode", &bomb),
        ]);
        let refused = check_pdf(&pdf, &ReadBudget::default()).unwrap_err();
        assert!(
            refused.to_string().contains("decompression bomb"),
            "{refused}"
        );
    }

    /// A page painting form `/X` ten times a level, `levels` deep, each form written by
    /// `form` from its dictionary's extra keys, its resources and its content (issue 97: the
    /// six ways round issue 84's check).
    fn nested_with(levels: usize, form: impl Fn(usize, &str, &[u8]) -> Vec<u8>) -> Vec<u8> {
        let mut objects = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R \
              /Resources << /XObject << /X 5 0 R >> >> >>"
                .to_vec(),
            stream("", "q /X Do Q\n".repeat(10).as_bytes()),
        ];
        for level in 1..=levels {
            let id = 4 + level;
            let resources = format!("/XObject << /X {} 0 R >>", id + 1);
            let content = if level == levels {
                b"BT (Total 5 members) Tj ET".to_vec()
            } else {
                "q /X Do Q\n".repeat(10).into_bytes()
            };
            objects.push(form(level, &resources, &content));
        }
        pdf_of(&objects)
    }

    #[test]
    fn forms_hidden_from_a_pattern_are_still_counted() {
        let budget = ReadBudget::default();
        let hex = |data: &[u8]| -> Vec<u8> {
            data.iter()
                .flat_map(|b| format!("{b:02x}").into_bytes())
                .chain(*b">")
                .collect()
        };
        type Form = Box<dyn Fn(usize, &str, &[u8]) -> Vec<u8>>;
        let ways: [(&str, Form); 6] = [
            (
                "a font's key",
                Box::new(|_, r: &str, c: &[u8]| {
                    stream(
                        &format!("/Subtype /Form /Length1 0 /Resources << {r} >>"),
                        c,
                    )
                }),
            ),
            (
                "a comment before Do",
                Box::new(|_, r: &str, c: &[u8]| {
                    let c = String::from_utf8_lossy(c).replace("/X Do", "/X %c\nDo");
                    stream(
                        &format!("/Subtype /Form /Resources << {r} >>"),
                        c.as_bytes(),
                    )
                }),
            ),
            (
                "ASCIIHexDecode",
                Box::new(move |_, r: &str, c: &[u8]| {
                    stream(
                        &format!("/Subtype /Form /Filter /ASCIIHexDecode /Resources << {r} >>"),
                        &hex(c),
                    )
                }),
            ),
            (
                "Flate then hex",
                Box::new(move |_, r: &str, c: &[u8]| {
                    stream(
                        &format!("/Subtype /Form /Filter [/AHx /FlateDecode] /Resources << {r} >>"),
                        &hex(&flate(c)),
                    )
                }),
            ),
            (
                "an image's subtype first",
                Box::new(|_, r: &str, c: &[u8]| {
                    stream(
                        &format!("/Z << /Subtype /Image >> /Subtype /Form /Resources << {r} >>"),
                        c,
                    )
                }),
            ),
            (
                "an escaped name",
                Box::new(|_, r: &str, c: &[u8]| {
                    let r = r.replace("/X ", "/#58 ");
                    stream(&format!("/Subtype /Form /Resources << {r} >>"), c)
                }),
            ),
        ];
        for (way, form) in &ways {
            let pdf = nested_with(7, form);
            assert!(pdf.len() < 8_000, "{way}: {}", pdf.len());
            let refused = check_pdf(&pdf, &budget).unwrap_err();
            assert!(
                refused.to_string().contains("operators and operands"),
                "{way}: {refused}"
            );
            // The same forms two deep are read.
            assert!(check_pdf(&nested_with(2, form), &budget).is_ok(), "{way}");
        }
    }

    /// `data` deflated and padded with bytes that do not compress, so that it inflates about
    /// 150-fold: under the ratio a bomb is refused at (issue 97's attacker did so).
    fn padded_flate(data: &[u8]) -> Vec<u8> {
        let mut packed = flate(data);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        while packed.len() < data.len() / 150 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            packed.push(state as u8);
        }
        packed
    }

    #[test]
    fn a_page_of_millions_of_operators_is_refused() {
        // Issue 97: `q ` 33 million times in 1.7 MB took the reader past 6 GB.
        let content = padded_flate(&b"q ".repeat(3_000_000));
        let pdf = pdf_of(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>".to_vec(),
            stream("/Filter /FlateDecode", &content),
        ]);
        let refused = check_pdf(&pdf, &ReadBudget::default()).unwrap_err();
        assert!(
            refused.to_string().contains("its page 1 paints"),
            "{refused}"
        );
        // The same page split over an array of streams is one page still.
        let half = padded_flate(&b"q Q ".repeat(700_000));
        let pdf = pdf_of(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /Contents [4 0 R 4 0 R] >>".to_vec(),
            stream("/Filter /FlateDecode", &half),
        ]);
        assert!(check_pdf(&pdf, &ReadBudget::default()).is_err());
        // A dense page of text is read.
        let text = "BT /F1 10 Tf 56 700 Td (A line of a dense page of text, 1,234 words) Tj ET\n";
        let pdf = pdf_of(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>".to_vec(),
            stream(
                "/Filter /FlateDecode",
                &flate(text.repeat(5_000).as_bytes()),
            ),
        ]);
        assert!(check_pdf(&pdf, &ReadBudget::default()).is_ok());
    }

    #[test]
    fn what_the_reader_would_see_is_counted_however_it_is_split_or_spoilt() {
        let budget = ReadBudget::default();
        let refused = |pdf: &[u8]| {
            check_pdf(pdf, &budget)
                .err()
                .is_some_and(|e| e.to_string().contains("operators and operands"))
        };
        // A name at the end of one content stream, its `Do` at the start of the next: the reader
        // joins a page's streams.
        let mut split = nested_with(7, |_, r: &str, c: &[u8]| {
            stream(&format!("/Subtype /Form /Resources << {r} >>"), c)
        });
        let joined =
            String::from_utf8_lossy(&split).replace("/Contents 4 0 R", "/Contents [20 0 R 21 0 R]");
        let mut objects: Vec<Vec<u8>> = Vec::new();
        for n in 1..=21 {
            objects.push(match n {
                20 => stream("", b"q /X"),
                21 => stream("", b"Do Q"),
                _ => b"null".to_vec(),
            });
        }
        // The forms of `nested_with` kept, the page's content replaced by the two halves.
        let body = joined.split("\nendobj\n").collect::<Vec<_>>();
        for (n, object) in body.iter().enumerate().take(11) {
            if let Some((_, rest)) = object.split_once(" 0 obj\n") {
                if n != 3 {
                    objects[n] = rest.as_bytes().to_vec();
                }
            }
        }
        split = pdf_of(&objects);
        assert!(refused(&split), "split over two streams");
        // A form whose zlib checksum is spoilt: the reader inflates it all the same.
        let spoilt = nested_with(7, |_, r: &str, c: &[u8]| {
            let mut packed = flate(c);
            let last = packed.len() - 1;
            packed[last] ^= 0xff;
            stream(
                &format!("/Subtype /Form /Filter /FlateDecode /Resources << {r} >>"),
                &packed,
            )
        });
        assert!(refused(&spoilt), "a spoilt checksum");
        // One long string painted ten thousand times: its bytes each time.
        let long = nested_with(5, |level, r: &str, c: &[u8]| {
            let content = if level == 5 {
                format!("BT ({}) Tj ET", "x".repeat(100_000)).into_bytes()
            } else {
                c.to_vec()
            };
            stream(
                &format!("/Subtype /Form /Filter /FlateDecode /Resources << {r} >>"),
                &flate(&content),
            )
        });
        assert!(refused(&long), "a long string painted many times");
    }
}

//! The bounds of a PDF, checked from its objects before `unpdf` reads it (issue 84). `unpdf`
//! paints each Form XObject where a page paints it, operator by operator, and inflates each
//! content stream whole: a 4.5 KB file of forms that paint each other ten times, eight levels
//! deep, made it write out a hundred million operators (3.5 GB in 6.8 s), and a 1 MB stream that
//! inflates to 1 GB cost 629 MB. So the file's streams are found, inflated within bounds (the
//! ratio and total of a ZIP archive's entries, [`crate::corpus::archive`]), and the operators
//! each page stream would paint, its forms written out, are counted from their `Do`s before
//! `unpdf` sees the file.
//!
//! The scan reads what a PDF writes in plain sight: objects, their dictionaries, Flate or
//! unfiltered streams and object streams. A stream under another filter is not looked into
//! (what it paints is not counted), and a file it cannot follow is left to `unpdf`.

use std::collections::HashMap;
use std::io::Read;
use std::sync::LazyLock;

use regex::bytes::Regex;

use super::archive::{MAX_ENTRY_RATIO, MAX_UNPACKED_BYTES};
use super::budget::{ReadBudget, ReadRefused};

/// The most operators one page may paint once its Form XObjects are written out where they are
/// painted (a dense page of text paints tens of thousands; a detailed map a million).
pub const MAX_PAINTED_OPERATIONS: u64 = 4_000_000;
/// About how many bytes of a content stream one operator with its operands takes.
const BYTES_PER_OPERATION: u64 = 8;
/// The most bytes of one inflated stream kept to look for the forms it paints.
const MAX_SCANNED_BYTES: usize = 16 * 1024 * 1024;
/// The deepest `unpdf` paints forms inside forms.
const MAX_FORM_DEPTH: usize = 32;

static OBJECT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)(\d+)\s+\d+\s+obj\b").expect("a valid pattern"));
static STREAM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)\bstream(\r\n|\n|\r)").expect("a valid pattern"));
static LENGTH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)/Length\s+(\d+)(\s+\d+\s+R)?").expect("a valid pattern"));
static PAINTED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)/([^\s/\[\]()<>{}%]+)\s+Do\b").expect("a valid pattern"));
static XOBJECTS_INLINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)/XObject\s*<<([^>]*)>>").expect("a valid pattern"));
static XOBJECTS_REF: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)/XObject\s+(\d+)\s+\d+\s+R").expect("a valid pattern"));
static RESOURCES_REF: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u)/Resources\s+(\d+)\s+\d+\s+R").expect("a valid pattern"));
static NAMED_REF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u)/([^\s/\[\]()<>{}%]+)\s+(\d+)\s+\d+\s+R").expect("a valid pattern")
});

/// An object of the file: its dictionary's text, and its stream's packed bytes if it has one.
struct Object<'a> {
    dict: &'a [u8],
    stream: Option<&'a [u8]>,
}

impl Object<'_> {
    fn says(&self, key: &str) -> bool {
        memchr::memmem::find(self.dict, key.as_bytes()).is_some()
    }

    fn is(&self, subtype: &str) -> bool {
        static SUBTYPE: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(r"(?-u)/Subtype\s*/(\w+)").expect("a valid pattern"));
        SUBTYPE
            .captures(self.dict)
            .is_some_and(|c| &c[1] == subtype.as_bytes())
    }
}

/// Refuses a PDF whose streams inflate past the bounds, or one of whose pages would paint more
/// than [`MAX_PAINTED_OPERATIONS`] operators with its forms written out.
pub fn check_pdf(bytes: &[u8], budget: &ReadBudget) -> Result<(), ReadRefused> {
    let objects = objects(bytes, budget)?;
    let mut inflated_in_all = 0u64;
    // Each stream's painted names with how often, for forms and page content.
    let mut forms: HashMap<u32, (u64, HashMap<Vec<u8>, u64>)> = HashMap::new();
    let mut contents: Vec<HashMap<Vec<u8>, u64>> = Vec::new();
    // The names resources give forms, from dictionaries in plain sight and in object streams.
    let mut named: HashMap<Vec<u8>, Vec<u32>> = HashMap::new();
    for object in objects.values() {
        add_names(object.dict, &objects, &mut named);
    }
    for (&id, object) in &objects {
        let Some(packed) = object.stream else {
            continue;
        };
        budget.check()?;
        // Images are drawn, not read; fonts' programs are not content.
        if object.is("Image") || object.says("/Length1") || object.says("/FontFile") {
            continue;
        }
        let Some((decoded, inflated)) = decoded(object, packed)? else {
            continue;
        };
        inflated_in_all += inflated;
        if inflated_in_all > MAX_UNPACKED_BYTES {
            return Err(ReadRefused::TooLarge(format!(
                "its streams inflate to more than {} MB",
                MAX_UNPACKED_BYTES / (1024 * 1024)
            )));
        }
        if object.says("/ObjStm") {
            add_names(&decoded, &objects, &mut named);
            continue;
        }
        let painted = painted(&decoded);
        if object.is("Form") {
            let own = (decoded.len() as u64 / BYTES_PER_OPERATION).max(1);
            forms.insert(id, (own, painted));
        } else if !painted.is_empty() {
            contents.push(painted);
        }
    }
    let mut costs = FormCosts {
        objects: &objects,
        forms: &forms,
        named: &named,
        known: HashMap::new(),
        path: Vec::new(),
    };
    let ids: Vec<u32> = forms.keys().copied().collect();
    for id in ids {
        budget.check()?;
        too_many(costs.of(id))?;
    }
    for painted in &contents {
        let total = painted.iter().fold(0u64, |total, (name, times)| {
            let form = costs.named_cost(name);
            total.saturating_add(times.saturating_mul(form))
        });
        too_many(total)?;
    }
    Ok(())
}

fn too_many(operations: u64) -> Result<(), ReadRefused> {
    if operations > MAX_PAINTED_OPERATIONS {
        return Err(ReadRefused::TooLarge(format!(
            "a page paints its forms inside one another more than {} million operations' worth \
             (forms that paint each other many times over)",
            MAX_PAINTED_OPERATIONS / 1_000_000
        )));
    }
    Ok(())
}

/// The file's objects by number, read from the top: each object's dictionary and stream. A
/// later object of the same number (an incremental update) replaces an earlier one.
fn objects<'a>(
    bytes: &'a [u8],
    budget: &ReadBudget,
) -> Result<HashMap<u32, Object<'a>>, ReadRefused> {
    let mut objects = HashMap::new();
    let mut at = 0;
    let mut seen = 0u64;
    while let Some(found) = OBJECT.captures_at(bytes, at) {
        seen += 1;
        if seen.is_multiple_of(1024) {
            budget.check()?;
        }
        let whole = found.get(0).map_or(at..at + 1, |m| m.range());
        let id = std::str::from_utf8(&found[1])
            .ok()
            .and_then(|n| n.parse::<u32>().ok());
        let body_start = whole.end;
        let end_of =
            |from: usize, what: &[u8]| memchr::memmem::find(&bytes[from..], what).map(|p| from + p);
        let endobj = end_of(body_start, b"endobj");
        // Looked for only up to the object's end: not through the rest of the file each time.
        let stream = STREAM
            .find(&bytes[body_start..endobj.unwrap_or(bytes.len())])
            .map(|s| (body_start + s.start(), body_start + s.end()));
        let (object, next) = match stream {
            Some((stream_start, stream_end)) => {
                let dict = &bytes[body_start..stream_start];
                let data_start = stream_end;
                let declared = LENGTH
                    .captures(dict)
                    .filter(|c| c.get(2).is_none())
                    .and_then(|c| std::str::from_utf8(&c[1]).ok()?.parse::<usize>().ok())
                    .filter(|&n| {
                        data_start.saturating_add(n) <= bytes.len()
                            && bytes[data_start + n..]
                                .trim_ascii_start()
                                .starts_with(b"endstream")
                    });
                let data_end = declared
                    .map(|n| data_start + n)
                    .or_else(|| end_of(data_start, b"endstream"))
                    .unwrap_or(bytes.len());
                let object = Object {
                    dict,
                    stream: Some(&bytes[data_start..data_end]),
                };
                (object, data_end)
            }
            None => {
                let end = endobj.unwrap_or(bytes.len());
                let object = Object {
                    dict: &bytes[body_start..end],
                    stream: None,
                };
                (object, end)
            }
        };
        if let Some(id) = id {
            objects.insert(id, object);
        }
        at = next.max(whole.end);
    }
    Ok(objects)
}

/// A stream's bytes as its filter gives them (`None` under a filter the scan does not read),
/// the first [`MAX_SCANNED_BYTES`] kept, with how many it inflated to; refused when it inflates
/// past the ratio a ZIP archive's entry may.
fn decoded(object: &Object<'_>, packed: &[u8]) -> Result<Option<(Vec<u8>, u64)>, ReadRefused> {
    static FLATE_ONLY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u)/Filter\s*(\[\s*)?/FlateDecode\s*\]?").expect("a valid pattern")
    });
    if !object.says("/Filter") {
        let kept = packed[..packed.len().min(MAX_SCANNED_BYTES)].to_vec();
        return Ok(Some((kept, packed.len() as u64)));
    }
    let flate_only = FLATE_ONLY.is_match(object.dict)
        && object.dict.windows(7).filter(|w| w == b"Decode ").count()
            + object.dict.windows(7).filter(|w| w == b"Decode/").count()
            + object.dict.windows(7).filter(|w| w == b"Decode]").count()
            <= 1;
    if !flate_only {
        return Ok(None);
    }
    let allowed = (1024 * 1024u64).max((packed.len() as u64).saturating_mul(MAX_ENTRY_RATIO));
    let mut inflater = flate2::read::ZlibDecoder::new(packed);
    let mut kept = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let mut inflated = 0u64;
    loop {
        let n = match inflater.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        inflated += n as u64;
        if inflated > allowed {
            return Err(ReadRefused::TooLarge(format!(
                "a stream of it inflates more than {MAX_ENTRY_RATIO}-fold (past {} MB from {} KB): \
                 a decompression bomb?",
                allowed / (1024 * 1024),
                packed.len() / 1024
            )));
        }
        if kept.len() < MAX_SCANNED_BYTES {
            let room = MAX_SCANNED_BYTES - kept.len();
            kept.extend_from_slice(&chunk[..n.min(room)]);
        }
    }
    Ok(Some((kept, inflated)))
}

/// How often a content stream paints each name (`/Fm0 Do`).
fn painted(content: &[u8]) -> HashMap<Vec<u8>, u64> {
    let mut painted: HashMap<Vec<u8>, u64> = HashMap::new();
    for found in PAINTED.captures_iter(content) {
        *painted.entry(found[1].to_vec()).or_default() += 1;
    }
    painted
}

/// Adds the names an XObject dictionary in `text` gives objects (inline, or an object of the
/// file it refers to).
fn add_names(
    text: &[u8],
    objects: &HashMap<u32, Object<'_>>,
    named: &mut HashMap<Vec<u8>, Vec<u32>>,
) {
    for pairs in xobject_dicts(text, objects) {
        for found in NAMED_REF.captures_iter(pairs) {
            if let Some(id) = std::str::from_utf8(&found[2])
                .ok()
                .and_then(|n| n.parse().ok())
            {
                named.entry(found[1].to_vec()).or_default().push(id);
            }
        }
    }
}

/// The XObject dictionaries `text` holds or refers to.
fn xobject_dicts<'a>(text: &'a [u8], objects: &'a HashMap<u32, Object<'a>>) -> Vec<&'a [u8]> {
    let mut dicts: Vec<&[u8]> = XOBJECTS_INLINE
        .captures_iter(text)
        .filter_map(|c| c.get(1).map(|m| m.as_bytes()))
        .collect();
    for found in XOBJECTS_REF.captures_iter(text) {
        let id = std::str::from_utf8(&found[1])
            .ok()
            .and_then(|n| n.parse::<u32>().ok());
        if let Some(object) = id.and_then(|id| objects.get(&id)) {
            dicts.push(object.dict);
        }
    }
    dicts
}

/// The operators each form paints with the forms it paints written out, worked out once each.
struct FormCosts<'a> {
    objects: &'a HashMap<u32, Object<'a>>,
    forms: &'a HashMap<u32, (u64, HashMap<Vec<u8>, u64>)>,
    named: &'a HashMap<Vec<u8>, Vec<u32>>,
    known: HashMap<u32, u64>,
    path: Vec<u32>,
}

impl FormCosts<'_> {
    fn of(&mut self, id: u32) -> u64 {
        if let Some(&cost) = self.known.get(&id) {
            return cost;
        }
        let Some((own, painted)) = self.forms.get(&id) else {
            return 0;
        };
        // A form painting itself, or past the depth `unpdf` paints to, paints nothing more.
        if self.path.contains(&id) || self.path.len() >= MAX_FORM_DEPTH {
            return 0;
        }
        let local = self.local_names(id);
        self.path.push(id);
        let mut cost = *own;
        for (name, times) in painted {
            let form = match local.get(name) {
                Some(&target) => self.of(target),
                None => self.named_cost(name),
            };
            cost = cost.saturating_add(times.saturating_mul(form));
        }
        self.path.pop();
        self.known.insert(id, cost);
        cost
    }

    /// The costliest form any resources of the file give `name`.
    fn named_cost(&mut self, name: &[u8]) -> u64 {
        let ids = self.named.get(name).cloned().unwrap_or_default();
        ids.into_iter().map(|id| self.of(id)).max().unwrap_or(0)
    }

    /// The names form `id`'s own resources give objects, when the scan can see them.
    fn local_names(&self, id: u32) -> HashMap<Vec<u8>, u32> {
        let Some(form) = self.objects.get(&id) else {
            return HashMap::new();
        };
        let mut text = form.dict;
        if let Some(found) = RESOURCES_REF.captures(form.dict) {
            let resources = std::str::from_utf8(&found[1])
                .ok()
                .and_then(|n| n.parse::<u32>().ok());
            if let Some(object) = resources.and_then(|r| self.objects.get(&r)) {
                text = object.dict;
            }
        }
        let mut names = HashMap::new();
        for pairs in xobject_dicts(text, self.objects) {
            for found in NAMED_REF.captures_iter(pairs) {
                if let Some(target) = std::str::from_utf8(&found[2])
                    .ok()
                    .and_then(|n| n.parse().ok())
                {
                    names.insert(found[1].to_vec(), target);
                }
            }
        }
        names
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A PDF of `objects` (numbered from 1), the first the catalogue, with a valid table of
    /// where each starts.
    pub(crate) fn pdf_of_objects(objects: &[Vec<u8>]) -> Vec<u8> {
        let mut out = b"%PDF-1.4\n".to_vec();
        let mut offsets = Vec::new();
        for (n, object) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend(format!("{} 0 obj\n", n + 1).as_bytes());
            out.extend(object);
            out.extend(b"\nendobj\n");
        }
        let xref = out.len();
        out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
        for offset in offsets {
            out.extend(format!("{offset:010} 00000 n \n").as_bytes());
        }
        out.extend(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
                objects.len() + 1
            )
            .as_bytes(),
        );
        out
    }

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
        pdf_of_objects(&objects)
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
                refused.to_string().contains("paints its forms"),
                "{levels}: {refused}"
            );
        }
        // Forms two deep, as a page template paints its logo, are read.
        assert!(check_pdf(&nested_forms(2), &budget).is_ok());
    }

    #[test]
    fn a_stream_that_inflates_a_thousandfold_is_refused() {
        let bomb = flate(&vec![b' '; 64 * 1024 * 1024]);
        let pdf = pdf_of_objects(&[
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
}

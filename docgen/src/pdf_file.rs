//! A PDF file written from its objects: the header, each object numbered from 1 (the first the
//! catalogue), the cross-reference table of where each starts, and the trailer. The one writer
//! of this frame, shared by the generator's PDFs, the scanner's image-only PDFs and the tests
//! that write a PDF object by object (the readers' hostile and hand-made files).

/// `objects` as a PDF file, object 1 its catalogue.
pub fn pdf_of(objects: &[impl AsRef<[u8]>]) -> Vec<u8> {
    framed(b"%PDF-1.4\n", objects, None)
}

/// `objects` as an office program writes a PDF: a binary comment after the header (so that a
/// transfer that mangles bytes above 127 is noticed) and the document information dictionary
/// (`info`, an object's number) in the trailer.
pub fn office_pdf_of(objects: &[impl AsRef<[u8]>], info: usize) -> Vec<u8> {
    framed(b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n", objects, Some(info))
}

fn framed(header: &[u8], objects: &[impl AsRef<[u8]>], info: Option<usize>) -> Vec<u8> {
    let mut out = header.to_vec();
    let mut offsets = Vec::with_capacity(objects.len());
    for (n, object) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n", n + 1).bytes());
        out.extend(object.as_ref());
        out.extend(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for offset in offsets {
        out.extend(format!("{offset:010} 00000 n \n").bytes());
    }
    let info = info.map(|n| format!(" /Info {n} 0 R")).unwrap_or_default();
    out.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R{info} >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .bytes(),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_object_starts_where_the_table_says() {
        let pdf = pdf_of(&["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages >>"]);
        let text = String::from_utf8(pdf.clone()).unwrap();
        let table = text.split("xref\n").nth(1).unwrap();
        let starts: Vec<usize> = table
            .lines()
            .skip(2)
            .take(2)
            .map(|line| line[..10].parse().unwrap())
            .collect();
        assert!(text[starts[0]..].starts_with("1 0 obj\n<< /Type /Catalog"));
        assert!(text[starts[1]..].starts_with("2 0 obj\n<< /Type /Pages"));
        assert!(text.contains("trailer\n<< /Size 3 /Root 1 0 R >>"));
        let office = office_pdf_of(&["<< /Type /Catalog >>"], 1);
        assert!(office.starts_with(b"%PDF-1.4\n%\xE2"));
        assert!(String::from_utf8_lossy(&office).contains("/Root 1 0 R /Info 1 0 R >>"));
    }
}

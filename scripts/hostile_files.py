#!/usr/bin/env python3
"""Writes the hostile documents of issue 84 for scripts/abuse-test.sh (checks 26-33).

    python3 scripts/hostile_files.py OUTDIR

Standard library only. Each file is small on disk and valid enough for real readers to open;
what makes it hostile is what reading it costs (depth, length, repetition, inflation). Large
parts are written through streaming compressors, so the script itself stays small in memory.
"""

import base64
import os
import struct
import sys
import zipfile
import zlib

CHUNK = 1 << 20


def stored_mimetype(z, mimetype):
    """The first entry of an EPUB or ODF package: `mimetype`, stored, no extra field."""
    z.writestr(zipfile.ZipInfo("mimetype"), mimetype, compress_type=zipfile.ZIP_STORED)


def write_parts(z, name, parts):
    """Writes an entry deflated from an iterable of str pieces, without joining them."""
    with z.open(name, "w") as f:
        for part in parts:
            f.write(part.encode())


def deflated(z):
    z.compression = zipfile.ZIP_DEFLATED
    z.compresslevel = 9


# ---- DOCX: tables nested 2,000 deep ------------------------------------------------------------

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def nested_tables_docx(path, depth=2000):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
                   '</Types>')
        z.writestr("_rels/.rels",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
                   '</Relationships>')
        z.writestr("word/_rels/document.xml.rels",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>')
        open_tbl = ('<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>'
                    '<w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc>')
        # Each cell holds its nested table and then the paragraph a cell must end with.
        close_tbl = "<w:p/></w:tc></w:tr></w:tbl>"

        def parts():
            yield ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   f'<w:document xmlns:w="{W}"><w:body>'
                   '<w:p><w:r><w:t>Members: 40.</w:t></w:r></w:p>')
            for _ in range(depth):
                yield open_tbl
            for _ in range(depth):
                yield close_tbl
            yield "<w:p/><w:sectPr/></w:body></w:document>"

        write_parts(z, "word/document.xml", parts())


# ---- EPUB ---------------------------------------------------------------------------------------

CONTAINER = ('<?xml version="1.0" encoding="UTF-8"?>\n'
             '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
             '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
             '</rootfiles></container>')


def opf(title, spine_items):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">'
            '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
            f'<dc:identifier id="uid">urn:uuid:8a1c0f52-84a0-4e1b-9d2a-{zlib.crc32(title.encode()):012d}</dc:identifier>'
            f'<dc:title>{title}</dc:title><dc:language>en</dc:language>'
            '<meta property="dcterms:modified">2024-01-01T00:00:00Z</meta></metadata>'
            '<manifest>'
            '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
            '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>'
            '<item id="c" href="chapter.xhtml" media-type="application/xhtml+xml"/>'
            '</manifest>'
            f'<spine toc="ncx">{spine_items}</spine></package>')


def xhtml_head(title):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">'
            f'<head><title>{title}</title></head><body>')


def xhtml(title, body):
    return xhtml_head(title) + body + "</body></html>"


def nav_parts(depth):
    yield ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">'
           '<head><title>Contents</title></head><body><nav epub:type="toc"><ol>')
    for _ in range(depth - 1):
        yield '<li><a href="chapter.xhtml">x</a><ol>'
    yield '<li><a href="chapter.xhtml">x</a></li>'
    for _ in range(depth - 1):
        yield "</ol></li>"
    yield "</ol></nav></body></html>"


def ncx_parts(depth):
    yield ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">'
           '<head><meta name="dtb:uid" content="urn:uuid:hostile"/></head>'
           '<docTitle><text>x</text></docTitle><navMap>')
    # Every navPoint targets the same chapter, so all share playOrder 1 (as NCX asks).
    for i in range(depth):
        yield (f'<navPoint id="n{i}" playOrder="1"><navLabel><text>x</text></navLabel>'
               '<content src="chapter.xhtml"/>')
    for _ in range(depth):
        yield "</navPoint>"
    yield "</navMap></ncx>"


def epub(path, title, chapter, spine_items, nav, ncx):
    with zipfile.ZipFile(path, "w") as z:
        stored_mimetype(z, "application/epub+zip")
        deflated(z)
        z.writestr("META-INF/container.xml", CONTAINER)
        z.writestr("OEBPS/content.opf", opf(title, spine_items))
        write_parts(z, "OEBPS/chapter.xhtml", chapter)
        write_parts(z, "OEBPS/nav.xhtml", nav)
        write_parts(z, "OEBPS/toc.ncx", ncx)


def nested_nav_epub(path, depth=100_000):
    chapter = [xhtml("Chapter", "<p>The club has 212 members.</p>")]
    epub(path, "Nested navigation", chapter, '<itemref idref="c"/>', nav_parts(depth),
         ncx_parts(depth))


def repeated_spine_epub(path, times=10_000):
    def chapter():
        yield xhtml_head("Rooms")
        n, size = 0, 0
        while size < 100_000:
            n += 1
            p = f"<p>Room {n} seats 12 people.</p>\n"
            size += len(p)
            yield p
        yield "</body></html>"

    # One chapter, listed in the spine 10,000 times by the same idref.
    epub(path, "Repeated spine", chapter(), '<itemref idref="c"/>' * times, nav_parts(1),
         ncx_parts(1))


# ---- HTML, e-mail, Markdown: one very long field -----------------------------------------------

def long_title_html(path):
    with open(path, "w") as f:
        f.write("<!DOCTYPE html><html><head><title>")
        f.write(("long title " * (64 * 1024 // 11 + 1))[: 64 * 1024])
        f.write("</title></head><body>\n")
        for n in range(1, 1001):
            f.write(f"<p>Paragraph {n} has 3 apples.</p>\n")
        f.write("</body></html>\n")


def long_subject_eml(path, subject_bytes=1 << 20, line_max=998):
    words = "subject " * (line_max // 8)
    with open(path, "wb") as f:
        f.write(b"From: Alice <alice@example.org>\r\nTo: Bob <bob@example.org>\r\n"
                b"Date: Mon, 01 Jan 2024 10:00:00 +0000\r\n"
                b"Message-ID: <hostile-subject@example.org>\r\nMIME-Version: 1.0\r\n"
                b"Content-Type: text/plain; charset=utf-8\r\n")
        # "Subject: " then folded lines: each at most line_max chars, continued with a space.
        first = "Subject: " + words[: line_max - 9].rstrip()
        f.write(first.encode() + b"\r\n")
        written = len(first)
        while written < subject_bytes:
            line = " " + words[: line_max - 1].rstrip()
            f.write(line.encode() + b"\r\n")
            written += len(line)
        f.write(b"\r\n")
        for n in range(1, 4001):
            f.write(f"Line {n}: 5 boxes.\r\n".encode())


def long_heading_md(path):
    with open(path, "w") as f:
        f.write("# " + ("heading " * (256 * 1024 // 8))[: 256 * 1024 - 2].rstrip() + "\n\n")
        for n in range(1, 4001):
            f.write(f"- item {n} costs 3 pounds\n")


# ---- ODS: repeated rows and columns ------------------------------------------------------------

ODS_MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" manifest:version="1.2" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                '</manifest:manifest>')


def ods(path, row):
    content = ('<?xml version="1.0" encoding="UTF-8"?>\n'
               '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
               '<office:body><office:spreadsheet><table:table table:name="Sheet1">'
               '<table:table-column table:number-columns-repeated="16001"/>'
               f'{row}</table:table></office:spreadsheet></office:body></office:document-content>')
    with zipfile.ZipFile(path, "w") as z:
        stored_mimetype(z, "application/vnd.oasis.opendocument.spreadsheet")
        deflated(z)
        z.writestr("META-INF/manifest.xml", ODS_MANIFEST)
        z.writestr("content.xml", content)


SEVEN = '<table:table-cell office:value-type="float" office:value="7"><text:p>7</text:p></table:table-cell>'


def repeated_rows_ods(path):
    ods(path, f'<table:table-row table:number-rows-repeated="1048575">{SEVEN}</table:table-row>')


def empty_repeats_ods(path):
    ods(path, '<table:table-row table:number-rows-repeated="100000">'
              '<table:table-cell table:number-columns-repeated="16000"/>'
              f'{SEVEN}</table:table-row>')


# ---- XLSX: 200 sheets sharing one compressed body ----------------------------------------------

def shared_sheets_xlsx(path, sheets=200):
    """Written by hand, not with zipfile: the 200 central-directory entries
    xl/worksheets/sheet1..200.xml all point at one local entry (sheet1.xml) and its deflated
    data, an overlapping zip. Readers that look only at the central directory (the zip crate,
    calamine) read 200 sheets; Python's zipfile lists them all but reads only sheet1."""
    rows, size, r = [], 0, 0
    while size < 1_500_000:
        r += 1
        cells = "".join(f'<c r="{col}{r}"><v>{(r * 7 + i) % 1000}</v></c>'
                        for i, col in enumerate("ABCDEFGHIJ"))
        row = f'<row r="{r}">{cells}</row>'
        rows.append(row)
        size += len(row)
    sheet = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
             '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
             f'<sheetData>{"".join(rows)}</sheetData></worksheet>').encode()
    del rows
    ns_r = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    parts = [
        ("[Content_Types].xml",
         '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
         '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
         '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
         '<Default Extension="xml" ContentType="application/xml"/>'
         '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
         + "".join(f'<Override PartName="/xl/worksheets/sheet{i}.xml" '
                   'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                   for i in range(1, sheets + 1))
         + "</Types>"),
        ("_rels/.rels",
         '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
         '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         f'<Relationship Id="rId1" Type="{ns_r}/officeDocument" Target="xl/workbook.xml"/>'
         '</Relationships>'),
        ("xl/workbook.xml",
         '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
         f'<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="{ns_r}"><sheets>'
         + "".join(f'<sheet name="Sheet{i}" sheetId="{i}" r:id="rId{i}"/>' for i in range(1, sheets + 1))
         + "</sheets></workbook>"),
        ("xl/_rels/workbook.xml.rels",
         '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
         '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         + "".join(f'<Relationship Id="rId{i}" Type="{ns_r}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                   for i in range(1, sheets + 1))
         + "</Relationships>"),
    ]
    central = []  # (name, crc, compressed size, size, local header offset)
    with open(path, "wb") as f:
        def local(name, data):
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            comp = c.compress(data) + c.flush()
            crc = zlib.crc32(data)
            offset = f.tell()
            f.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc,
                                len(comp), len(data), len(name), 0) + name)
            f.write(comp)
            return crc, len(comp), len(data), offset

        for name, text in parts:
            central.append((name.encode(),) + local(name.encode(), text.encode()))
        shared = local(b"xl/worksheets/sheet1.xml", sheet)
        for i in range(1, sheets + 1):
            central.append((f"xl/worksheets/sheet{i}.xml".encode(),) + shared)
        cd_start = f.tell()
        for name, crc, csize, usize, offset in central:
            f.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc,
                                csize, usize, len(name), 0, 0, 0, 0, 0, offset) + name)
        cd_size = f.tell() - cd_start
        f.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central),
                            cd_size, cd_start, 0))


# ---- PDF ----------------------------------------------------------------------------------------

class Pdf:
    """Writes numbered objects and then an xref table with their real byte offsets."""

    def __init__(self, path):
        self.f = open(path, "wb")
        self.f.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        self.offsets = {}

    def obj(self, num, body):
        self.offsets[num] = self.f.tell()
        self.f.write(f"{num} 0 obj\n".encode() + body + b"\nendobj\n")

    def stream(self, num, dictionary, data_chunks, length):
        self.offsets[num] = self.f.tell()
        self.f.write(f"{num} 0 obj\n<< {dictionary} /Length {length} >>\nstream\n".encode())
        for chunk in data_chunks:
            self.f.write(chunk)
        self.f.write(b"\nendstream\nendobj\n")

    def close(self, root=1):
        count = max(self.offsets) + 1
        xref = self.f.tell()
        self.f.write(f"xref\n0 {count}\n".encode() + b"0000000000 65535 f \n")
        for num in range(1, count):
            self.f.write(f"{self.offsets[num]:010d} 00000 n \n".encode())
        self.f.write(f"trailer\n<< /Size {count} /Root {root} 0 R >>\nstartxref\n{xref}\n%%EOF\n"
                     .encode())
        self.f.close()


def pdf_page(pdf, resources, contents=4):
    pdf.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    pdf.obj(2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
    pdf.obj(3, f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources {resources} "
               f"/Contents {contents} 0 R >>".encode())


FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
TEXT = b"BT /F1 12 Tf 72 720 Td (Total 5 members) Tj ET"


def nested_xobjects_pdf(path, levels=8):
    # 1 catalog, 2 pages, 3 page, 4 page content, 5 font, 6.. X1..X8.
    pdf = Pdf(path)
    pdf_page(pdf, "<< /XObject << /X1 6 0 R >> >>")
    draw = lambda name: b"".join(f"q /{name} Do Q\n".encode() for _ in range(10))
    body = draw("X1")
    pdf.stream(4, "", [body], len(body))
    pdf.obj(5, FONT)
    for level in range(1, levels + 1):
        num = 5 + level
        if level < levels:
            body = draw(f"X{level + 1}")
            res = f"<< /XObject << /X{level + 1} {num + 1} 0 R >> >>"
        else:
            body = TEXT
            res = "<< /Font << /F1 5 0 R >> >>"
        pdf.stream(num, f"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources {res}",
                   [body], len(body))
    pdf.close()


def inflating_pdf(path, inflated=1 << 30):
    # The content stream: 1 GB of spaces, then one line of text, deflated at level 9.
    c = zlib.compressobj(9)
    chunks, spaces = [], b" " * CHUNK
    for _ in range(inflated // CHUNK):
        chunks.append(c.compress(spaces))
    chunks.append(c.compress(b"\n" + TEXT + b"\n"))
    chunks.append(c.flush())
    pdf = Pdf(path)
    pdf_page(pdf, "<< /Font << /F1 5 0 R >> >>")
    pdf.stream(4, "/Filter /FlateDecode", chunks, sum(map(len, chunks)))
    pdf.obj(5, FONT)
    pdf.close()


# ---- Round seven (issue 97) ---------------------------------------------------------------------

def padded_flate(data, ratio=150):
    """`data` deflated, padded with a second stored block of noise so that it inflates less than
    `ratio`-fold (the pre-check's bound on a stream's ratio is 200)."""
    packed = zlib.compress(data, 9)
    room = len(data) // ratio - len(packed)
    if room > 0:
        packed += os.urandom(room)  # after the zlib stream's end: ignored by inflaters
    return packed


def operators_pdf(path, operator=b"q ", times=33_000_000):
    # One page whose content is one operator `times` times over, deflated and padded.
    body = padded_flate(operator * times)
    pdf = Pdf(path)
    pdf_page(pdf, "<< >>")
    pdf.stream(4, "/Filter /FlateDecode", [body], len(body))
    pdf.close()


def hidden_forms_pdf(path, way, levels=6):
    """Round six's nested forms, ten wide and `levels` deep, each hidden from a pattern `way`."""
    pdf = Pdf(path)
    pdf_page(pdf, "<< /XObject << /X 5 0 R >> >>")
    draw = b"q /X Do Q\n" * 10
    pdf.stream(4, "", [draw], len(draw))
    for level in range(1, levels + 1):
        num = 4 + level
        font = 5 + levels
        res = f"/XObject << /X {num + 1} 0 R >>" if level < levels else f"/Font << /F1 {font} 0 R >>"
        body = draw if level < levels else TEXT
        extra, filt = "", ""
        if way == "length1":
            extra = "/Length1 0"
        elif way == "comment":
            body = body.replace(b"/X Do", b"/X %c\nDo")
        elif way == "asciihex":
            body, filt = body.hex().encode() + b">", "/Filter /ASCIIHexDecode"
        elif way == "ascii85":
            body, filt = b"<~" + base64.a85encode(body) + b"~>", "/Filter /ASCII85Decode"
        elif way == "image-first":
            extra = "/Z << /Subtype /Image >>"
        elif way == "escaped-name":
            res = res.replace("/X ", "/#58 ")
        pdf.stream(num, f"{extra} /Type /XObject /Subtype /Form /BBox [0 0 612 792] {filt} "
                        f"/Resources << {res} >>", [body], len(body))
    pdf.obj(5 + levels, FONT)
    pdf.close()


def decoy_size_pdf(path, pages=3, real=5500):
    # The page tree the reader follows (/Parent) says Letter; the one the catalogue names (which
    # pdftoppm walks) gives every page 5,500 points a side. No text layer: every page is OCR's.
    pdf = Pdf(path)
    pdf.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{10 + n} 0 R" for n in range(pages))
    pdf.obj(2, f"<< /Type /Pages /Kids [{kids}] /Count {pages} /MediaBox [0 0 {real} {real}] >>"
            .encode())
    pdf.obj(3, b"<< /Type /Pages /Kids [] /Count 0 /MediaBox [0 0 612 792] >>")
    body = b"0 0 0 rg 100 100 200 200 re f"
    pdf.stream(4, "", [body], len(body))
    for n in range(pages):
        pdf.obj(10 + n, b"<< /Type /Page /Parent 3 0 R /Contents 4 0 R >>")
    # Objects 5..9 are unused: the xref table still needs them.
    for num in range(5, 10):
        pdf.obj(num, b"null")
    pdf.close()


def multipage_tiff(path, pages=3):
    """A grey TIFF of `pages` frames, each a line of big text drawn with Pillow when it is there,
    else bars; `None` without Pillow."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        return None
    frames = []
    for n in range(pages):
        img = Image.new("L", (1700, 600), 255)
        ImageDraw.Draw(img).text((100, 250), f"Page {n + 1} says 4{n}7 members", fill=0)
        frames.append(img)
    frames[0].save(path, save_all=True, append_images=frames[1:])
    return path


FILES = [
    ("nested-tables.docx", nested_tables_docx),
    ("nested-nav.epub", nested_nav_epub),
    ("long-title.html", long_title_html),
    ("long-subject.eml", long_subject_eml),
    ("long-heading.md", long_heading_md),
    ("repeated-rows.ods", repeated_rows_ods),
    ("empty-repeats.ods", empty_repeats_ods),
    ("repeated-spine.epub", repeated_spine_epub),
    ("shared-sheets.xlsx", shared_sheets_xlsx),
    ("nested-xobjects.pdf", nested_xobjects_pdf),
    ("inflating.pdf", inflating_pdf),
    ("q-33m.pdf", operators_pdf),
    ("qQ-25m.pdf", lambda p: operators_pdf(p, b"q Q ", 25_000_000)),
    ("hidden-length1.pdf", lambda p: hidden_forms_pdf(p, "length1")),
    ("hidden-comment.pdf", lambda p: hidden_forms_pdf(p, "comment")),
    ("hidden-asciihex.pdf", lambda p: hidden_forms_pdf(p, "asciihex")),
    ("hidden-ascii85.pdf", lambda p: hidden_forms_pdf(p, "ascii85")),
    ("hidden-image-first.pdf", lambda p: hidden_forms_pdf(p, "image-first")),
    ("hidden-escaped-name.pdf", lambda p: hidden_forms_pdf(p, "escaped-name")),
    ("decoy-size.pdf", decoy_size_pdf),
]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: hostile_files.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, make in FILES:
        path = os.path.join(out, name)
        make(path)
        if os.path.exists(path):
            print(f"{name} {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()

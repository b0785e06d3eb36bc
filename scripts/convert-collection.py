#!/usr/bin/env python3
"""Convert part of the own-documents collection into the formats people keep documents in.

Reads  tests/fixtures/own-documents/documents/NN-name.{txt,md,html,csv}
writes tests/fixtures/own-documents/converted/NN-name.{xlsx,ods,docx,pdf,pptx,epub,eml}

Standard library only; deterministic (fixed timestamps, fixed zip member order, fixed MIME
boundaries), so running it twice writes identical bytes.

    python3 scripts/convert-collection.py            # write the converted files
    python3 scripts/convert-collection.py --check    # re-open and check what was written
"""

import csv
import datetime
import email.message
import email.policy
import email.utils
import hashlib
import html
import io
import os
import re
import sys
import unicodedata
import uuid
import xml.etree.ElementTree as ET
import zipfile
import zlib
from html.parser import HTMLParser
from xml.sax.saxutils import escape, quoteattr

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLLECTION = os.path.join(ROOT, "tests", "fixtures", "own-documents")
SOURCE_DIR = os.path.join(COLLECTION, "documents")
OUT_DIR = os.path.join(COLLECTION, "converted")

ZIP_TIME = (2024, 1, 1, 0, 0, 0)
ISO_TIME = "2024-01-01T00:00:00Z"

# stem -> target format
PLAN = {
    "32-barrowdale-sunday-league": "xlsx",
    "71-corrowby-transit-yearly": "xlsx",
    "72-pennock-vale-angling-league": "xlsx",
    "73-sandrith-coast-line-stations": "xlsx",
    "33-coldharbour-village-hall-bookings": "ods",
    "74-ottery-mill-paints-prices": "ods",
    "35-kilbrae-island": "docx",
    "38-fitchley-brewery": "docx",
    "41-ironleaf-ap300-air-purifier": "docx",
    "75-pellinghurst-tennis-club": "docx",
    "77-copsley-primary-federation": "docx",
    "80-marlpit-readme": "docx",
    "83-kelderby-harriers-history": "docx",
    "36-elderholm-town": "pdf",
    "37-loch-culvane": "pdf",
    "40-emberline-trail-2-ebike": "pdf",
    "76-wendlecombe-valley-railway": "pdf",
    "78-tarrow-bay-maritime-museum": "pdf",
    "84-halvermoor-fellrunner-tent": "pdf",
    "44-maren-rye-loaf": "pptx",
    "53-yarrowfield-governors": "pptx",
    "45-elvira-cardamom-buns": "epub",
    "59-nethercoyle-rowing-history": "epub",
    "61-stannerby-timeline": "epub",
    "55-quarrington-singers-trip": "eml",
    "56-ostler-voss-kitchen-quote": "eml",
    "57-thornbeck-relay-teams": "eml",
    "58-ulverdene-laptop-order": "eml",
}

# Spreadsheet sheet names: the subject of each table.
SHEET_NAMES = {
    "32-barrowdale-sunday-league": "League table",
    "71-corrowby-transit-yearly": "Yearly figures",
    "72-pennock-vale-angling-league": "League table",
    "73-sandrith-coast-line-stations": "Stations",
    "33-coldharbour-village-hall-bookings": "Bookings",
    "74-ottery-mill-paints-prices": "Price list",
}
# Second sheet of 73's workbook: text only, no facts.
EXTRA_SHEETS = {
    "73-sandrith-coast-line-stations": (
        "Notes",
        [["Sandrith Coast Line stations"], ["Source: timetable office"],
         ["See the Stations sheet for the figures"]],
    ),
}
# Workbooks with one formula column (its cached value is the CSV's number).
FORMULA_SHEETS = {"71-corrowby-transit-yearly"}
# The attachment of 56: one sentence of the thread, word for word.
EML_ATTACHMENTS = {
    "56-ostler-voss-kitchen-quote": ("quote-summary.txt", "Total: £14,850 including VAT."),
}


# --------------------------------------------------------------------------------------------
# Document model
#
# runs:  [(text, bold, italic)]
# blocks:
#   {'t': 'h', 'level': 1..6, 'runs': runs}
#   {'t': 'p', 'runs': runs}
#   {'t': 'list', 'ordered': bool, 'items': [(level, runs)]}
#   {'t': 'table', 'rows': [[{'runs', 'th', 'colspan'}]], 'header': bool, 'caption': runs|None}
#   {'t': 'dl', 'items': [(term_runs, definition_runs)]}
#   {'t': 'code', 'text': str}
# --------------------------------------------------------------------------------------------

class Doc:
    def __init__(self, stem, ext, title, blocks):
        self.stem = stem
        self.ext = ext
        self.title = title  # the metadata title: HTML <title>, else the first heading
        self.blocks = blocks

    @property
    def heading(self):
        """The visible title: the first level-1 heading, else the metadata title."""
        for b in self.blocks:
            if b["t"] == "h" and b["level"] == 1:
                return rtext(b["runs"])
        return self.title


def rtext(runs):
    return "".join(t for t, _, _ in runs)


def clean_runs(runs):
    """Merge runs of the same style, collapse spaces, trim the ends, drop empty runs."""
    merged = []
    for t, b, i in runs:
        if not t:
            continue
        if merged and merged[-1][1] == b and merged[-1][2] == i:
            merged[-1] = (merged[-1][0] + t, b, i)
        else:
            merged.append((t, b, i))
    out = []
    prev_space = True  # trims leading spaces
    for t, b, i in merged:
        t = re.sub(r"[ \t\r\n]+", " ", t)
        if prev_space:
            t = t.lstrip(" ")
        if t:
            prev_space = t.endswith(" ")
            out.append((t, b, i))
    while out:
        t, b, i = out[-1]
        t = t.rstrip(" ")
        if t:
            out[-1] = (t, b, i)
            break
        out.pop()
    return out


def plain(text):
    return [(text, False, False)]


# ---- HTML ----------------------------------------------------------------------------------

class HtmlReader(HTMLParser):
    SKIP = {"script", "style", "template", "noscript", "svg"}
    BLOCKISH = {"div", "section", "article", "main", "header", "footer", "nav", "aside", "body",
                "html", "blockquote", "figure", "figcaption", "address", "hr", "form", "pre"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks = []
        self.title = ""
        self.in_title = False
        self.skip = 0
        self.bold = 0
        self.ital = 0
        self.cur = None
        self.lists = []  # stack of list blocks (nested lists add items to the outermost one)
        self.table = None
        self.row = None
        self.dl = None
        self.term = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in self.SKIP:
            self.skip += 1
            return
        if self.skip:
            return
        if tag == "title":
            self.in_title = True
        elif tag in ("b", "strong"):
            self.bold += 1
        elif tag in ("i", "em", "cite"):
            self.ital += 1
        elif tag == "br":
            self.handle_data(" ")
        elif re.fullmatch(r"h[1-6]", tag):
            self.close()
            self.cur = {"kind": "h", "level": int(tag[1]), "runs": []}
        elif tag == "p":
            self.close()
            self.cur = {"kind": "p", "runs": []}
        elif tag in ("ul", "ol"):
            self.close()
            if self.lists:
                self.lists.append(self.lists[0])
            else:
                blk = {"t": "list", "ordered": tag == "ol", "items": []}
                self.blocks.append(blk)
                self.lists.append(blk)
        elif tag == "li":
            self.close()
            self.cur = {"kind": "li", "runs": [], "level": max(0, len(self.lists) - 1)}
        elif tag == "dl":
            self.close()
            self.dl = {"t": "dl", "items": []}
            self.blocks.append(self.dl)
        elif tag == "dt":
            self.close()
            self.cur = {"kind": "dt", "runs": []}
        elif tag == "dd":
            self.close()
            self.cur = {"kind": "dd", "runs": []}
        elif tag == "table":
            self.close()
            self.table = {"t": "table", "rows": [], "caption": None, "header": False}
            self.blocks.append(self.table)
        elif tag == "caption":
            self.close()
            self.cur = {"kind": "caption", "runs": []}
        elif tag == "tr":
            self.close()
            if self.table is not None:
                self.row = []
                self.table["rows"].append(self.row)
        elif tag in ("td", "th"):
            self.close()
            self.cur = {"kind": "cell", "runs": [], "th": tag == "th",
                        "colspan": int(a.get("colspan") or 1)}
        elif tag in self.BLOCKISH:
            self.close()

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if self.skip:
            return
        if tag == "title":
            self.in_title = False
        elif tag in ("b", "strong"):
            self.bold = max(0, self.bold - 1)
        elif tag in ("i", "em", "cite"):
            self.ital = max(0, self.ital - 1)
        elif re.fullmatch(r"h[1-6]", tag) or tag in ("p", "li", "dt", "dd", "caption", "td", "th"):
            self.close()
        elif tag in ("ul", "ol"):
            self.close()
            if self.lists:
                self.lists.pop()
        elif tag == "dl":
            self.close()
            self.dl = None
        elif tag == "tr":
            self.close()
            self.row = None
        elif tag == "table":
            self.close()
            t = self.table
            if t is not None:
                t["header"] = bool(t["rows"]) and all(c["th"] for c in t["rows"][0])
            self.table = None
            self.row = None
        elif tag in self.BLOCKISH:
            self.close()

    def handle_data(self, data):
        if self.in_title:
            self.title += data
            return
        if self.skip:
            return
        if self.cur is None:
            if not data.strip():
                return
            if self.row is not None:
                self.cur = {"kind": "cell", "runs": [], "th": False, "colspan": 1}
            elif self.lists:
                self.cur = {"kind": "li", "runs": [], "level": len(self.lists) - 1}
            elif self.dl is not None:
                self.cur = {"kind": "dd", "runs": []}
            else:
                self.cur = {"kind": "p", "runs": []}
        self.cur["runs"].append((data, self.bold > 0, self.ital > 0))

    def close(self):
        c, self.cur = self.cur, None
        if not c:
            return
        runs = clean_runs(c["runs"])
        kind = c["kind"]
        if kind == "cell":
            if self.row is not None:
                self.row.append({"runs": runs, "th": c["th"], "colspan": c["colspan"]})
            return
        if not runs:
            return
        if kind == "h":
            self.blocks.append({"t": "h", "level": c["level"], "runs": runs})
        elif kind == "p":
            self.blocks.append({"t": "p", "runs": runs})
        elif kind == "li":
            if self.lists:
                self.lists[0]["items"].append((c["level"], runs))
            else:
                self.blocks.append({"t": "p", "runs": runs})
        elif kind == "dt":
            self.term = runs
        elif kind == "dd":
            if self.dl is not None:
                self.dl["items"].append((self.term or [], runs))
            else:
                self.blocks.append({"t": "p", "runs": runs})
        elif kind == "caption":
            if self.table is not None:
                self.table["caption"] = runs


def parse_html(text):
    r = HtmlReader()
    r.feed(text)
    r.close()
    r.handle_endtag("html")
    return re.sub(r"\s+", " ", r.title).strip(), r.blocks


# ---- Markdown ------------------------------------------------------------------------------

MD_INLINE = re.compile(
    r"\*\*(?P<b1>.+?)\*\*"
    r"|__(?P<b2>.+?)__"
    r"|(?<![\w*])\*(?![\s*])(?P<i1>.+?)(?<![\s*])\*(?![\w*])"
    r"|(?<![\w_])_(?![\s_])(?P<i2>.+?)(?<![\s_])_(?![\w_])"
    r"|`(?P<code>[^`]+)`"
    r"|\[(?P<link>[^\]]+)\]\([^)]*\)"
)


def md_inline(s):
    runs = []
    pos = 0
    for m in MD_INLINE.finditer(s):
        if m.start() > pos:
            runs.append((s[pos:m.start()], False, False))
        g = m.groupdict()
        if g["b1"] is not None or g["b2"] is not None:
            for t, _, i in md_inline(g["b1"] if g["b1"] is not None else g["b2"]):
                runs.append((t, True, i))
        elif g["i1"] is not None or g["i2"] is not None:
            for t, b, _ in md_inline(g["i1"] if g["i1"] is not None else g["i2"]):
                runs.append((t, b, True))
        elif g["code"] is not None:
            runs.append((g["code"], False, False))
        else:
            runs.extend(md_inline(g["link"]))
        pos = m.end()
    if pos < len(s):
        runs.append((s[pos:], False, False))
    return runs


MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
MD_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
MD_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
MD_FENCE = re.compile(r"^\s*(```|~~~)")
# "Label: value" lines (a spec sheet, "**Present:** ...") are paragraphs of their own.
MD_LABEL = re.compile(r"^(\*\*|__)?[A-Z][^:|]{0,40}?:(\*\*|__)?\s+\S")


def md_cells(line):
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [c.strip() for c in s.split("|")]


def parse_markdown(text):
    lines = text.replace("\r\n", "\n").split("\n")
    blocks = []
    para = []

    def flush():
        if para:
            runs = clean_runs(md_inline(" ".join(l.strip() for l in para)))
            if runs:
                blocks.append({"t": "p", "runs": runs})
            para.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        if MD_FENCE.match(line):
            flush()
            fence = MD_FENCE.match(line).group(1)
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence):
                body.append(lines[i])
                i += 1
            i += 1
            blocks.append({"t": "code", "text": "\n".join(body)})
            continue
        if not line.strip():
            flush()
            i += 1
            continue
        m = MD_HEADING.match(line)
        if m:
            flush()
            blocks.append({"t": "h", "level": len(m.group(1)),
                           "runs": clean_runs(md_inline(m.group(2)))})
            i += 1
            continue
        if line.strip().startswith("|") and i + 1 < len(lines) and MD_TABLE_SEP.match(lines[i + 1]):
            flush()
            head = md_cells(line)
            rows = []
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(md_cells(lines[i]))
                i += 1
            header = any(c for c in head)  # an all-empty header row is no header
            all_rows = ([head] if header else []) + rows
            ncols = max(len(r) for r in all_rows)
            table_rows = []
            for k, r in enumerate(all_rows):
                r = r + [""] * (ncols - len(r))
                table_rows.append([{"runs": clean_runs(md_inline(c)), "th": header and k == 0,
                                    "colspan": 1} for c in r])
            blocks.append({"t": "table", "rows": table_rows, "header": header, "caption": None})
            continue
        m = MD_ITEM.match(line)
        if m:
            flush()
            ordered = m.group(2)[0].isdigit()
            blk = {"t": "list", "ordered": ordered, "items": []}
            blocks.append(blk)
            base = len(m.group(1).expandtabs(4))
            while i < len(lines):
                m = MD_ITEM.match(lines[i])
                if m:
                    indent = len(m.group(1).expandtabs(4))
                    level = max(0, (indent - base) // 2)
                    if level == 0 and m.group(2)[0].isdigit() != ordered:
                        break
                    blk["items"].append([level, m.group(3)])
                    i += 1
                elif lines[i].strip() and lines[i][:1] in (" ", "\t") and blk["items"]:
                    blk["items"][-1][1] += " " + lines[i].strip()
                    i += 1
                else:
                    break
            blk["items"] = [(lv, clean_runs(md_inline(t))) for lv, t in blk["items"]]
            continue
        if MD_LABEL.match(line):
            flush()
        para.append(line)
        i += 1
    flush()
    return blocks


# ---- Reading a source ----------------------------------------------------------------------

def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def load_doc(stem):
    for ext in ("html", "md", "txt", "csv"):
        path = os.path.join(SOURCE_DIR, stem + "." + ext)
        if os.path.exists(path):
            break
    else:
        raise SystemExit("no source for " + stem)
    text = read_text(path)
    if ext == "html":
        title, blocks = parse_html(text)
    elif ext == "md":
        blocks = parse_markdown(text)
        title = ""
    else:
        blocks = []
        title = ""
    doc = Doc(stem, ext, title, blocks)
    if not doc.title:
        doc.title = doc.heading if blocks else stem
    return doc, text


def read_csv(stem):
    with open(os.path.join(SOURCE_DIR, stem + ".csv"), encoding="utf-8", newline="") as f:
        return [row for row in csv.reader(f) if row]


def visible_text(stem):
    """The words of a source as a reader sees them (tags, attributes and markup dropped)."""
    for ext in ("html", "md", "txt", "csv"):
        path = os.path.join(SOURCE_DIR, stem + "." + ext)
        if os.path.exists(path):
            break
    text = read_text(path)
    if ext == "html":
        class Strip(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.out = []
                self.skip = 0

            def handle_starttag(self, tag, attrs):
                if tag in ("script", "style"):
                    self.skip += 1

            def handle_endtag(self, tag):
                if tag in ("script", "style"):
                    self.skip -= 1

            def handle_data(self, data):
                if not self.skip:
                    self.out.append(data)
        s = Strip()
        s.feed(text)
        return " ".join(s.out)
    if ext == "csv":
        return " ".join(c for row in read_csv(stem) for c in row)
    if ext == "md":  # an ordered list's numbers are its markers, not its words
        return re.sub(r"(?m)^(\s*)\d+[.)]\s", r"\1", text)
    return text


# --------------------------------------------------------------------------------------------
# Zip packaging (deterministic)
# --------------------------------------------------------------------------------------------

def write_zip(path, members, stored_first=None):
    """members: [(name, str|bytes)]; stored_first: a (name, data) member written first, stored."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        items = ([stored_first] if stored_first else []) + list(members)
        for k, (name, data) in enumerate(items):
            if isinstance(data, str):
                data = data.encode("utf-8")
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.create_system = 0
            info.external_attr = 0
            if stored_first and k == 0:
                info.compress_type = zipfile.ZIP_STORED
                z.writestr(info, data)
            else:
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    with open(path, "wb") as f:
        f.write(buf.getvalue())


XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def core_props(title):
    return (XML_DECL +
            '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
            'xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
            "<dc:title>%s</dc:title><dc:language>en-GB</dc:language>"
            '<dcterms:created xsi:type="dcterms:W3CDTF">%s</dcterms:created>'
            '<dcterms:modified xsi:type="dcterms:W3CDTF">%s</dcterms:modified>'
            "</cp:coreProperties>" % (escape(title), ISO_TIME, ISO_TIME))


REL_OFFICE_DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
REL_CORE = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def rels(entries):
    out = [XML_DECL, '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">']
    for rid, typ, target in entries:
        out.append('<Relationship Id="%s" Type="%s" Target="%s"/>' % (rid, typ, target))
    out.append("</Relationships>")
    return "".join(out)


def content_types(overrides):
    out = [XML_DECL, '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">',
           '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>',
           '<Default Extension="xml" ContentType="application/xml"/>']
    for part, ctype in overrides:
        out.append('<Override PartName="%s" ContentType="%s"/>' % (part, ctype))
    out.append('<Override PartName="/docProps/core.xml" '
               'ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>')
    out.append("</Types>")
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Spreadsheets: xlsx and ods
# --------------------------------------------------------------------------------------------

NUMBER = re.compile(r"^-?(0|[1-9]\d*)(\.\d+)?$")


def is_number(s):
    return bool(NUMBER.match(s))


def decimals(s):
    return len(s.split(".")[1]) if "." in s else 0


def canonical(s):
    f = float(s)
    if f.is_integer():
        return str(int(f))
    return repr(f)


def col_letter(n):  # 0 -> A
    s = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def find_formula(rows):
    """For one column: (column, [formula per data row]). A true sum of two or three other
    columns if there is one, else ROUND(value, decimals) on the last numeric column."""
    header, data = rows[0], rows[1:]
    ncols = len(header)
    numeric = [c for c in range(ncols) if all(is_number(r[c]) for r in data)]
    total_like = re.compile(r"total|sum|points|overall|all", re.I)
    candidates = sorted(numeric, key=lambda c: (not total_like.search(header[c]), -c))
    from itertools import combinations
    for c in candidates:
        others = [o for o in numeric if o != c]
        for k in (2, 3):
            for combo in combinations(others, k):
                if all(abs(sum(float(r[o]) for o in combo) - float(r[c])) < 1e-9 for r in data):
                    return c, ["+".join("%s%d" % (col_letter(o), j + 2) for o in combo)
                               for j in range(len(data))]
    c = numeric[-1]
    return c, ["ROUND(%s,%d)" % (canonical(r[c]), decimals(r[c])) for r in data]


def xlsx_sheet_xml(rows, sst, formulas=None, selected=False):
    """rows: [[str]]; the first row is the header (bold)."""
    ncols = max(len(r) for r in rows)
    widths = [max(len(r[c]) if c < len(r) else 0 for r in rows) for c in range(ncols)]
    ref = "A1:%s%d" % (col_letter(ncols - 1), len(rows))
    out = [XML_DECL,
           '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
           'xmlns:r="%s">' % REL_NS,
           '<dimension ref="%s"/>' % ref,
           '<sheetViews><sheetView %sworkbookViewId="0">' % ('tabSelected="1" ' if selected else "")]
    if len(rows) > 1 and ncols > 1:  # the header row frozen
        out.append('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
                   '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/>')
    out.append('</sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols>')
    for c, w in enumerate(widths):
        out.append('<col min="%d" max="%d" width="%.2f" customWidth="1"/>'
                   % (c + 1, c + 1, min(60, max(8.43, w * 1.1 + 2))))
    out.append("</cols><sheetData>")
    fcol, fexprs = formulas if formulas else (None, None)
    for j, row in enumerate(rows):
        out.append('<row r="%d" spans="1:%d">' % (j + 1, ncols))
        for c, val in enumerate(row):
            r = "%s%d" % (col_letter(c), j + 1)
            if val == "":
                continue
            if j > 0 and is_number(val):
                d = decimals(val)
                style = {0: "", 1: ' s="3"', 2: ' s="2"'}.get(d, "")
                f = ""
                if fcol == c:
                    f = "<f>%s</f>" % escape(fexprs[j - 1])
                out.append('<c r="%s"%s t="n">%s<v>%s</v></c>' % (r, style, f, canonical(val)))
            else:
                idx = sst.add(val)
                style = ' s="1"' if j == 0 and len(rows) > 1 and ncols > 1 else ""
                out.append('<c r="%s"%s t="s"><v>%d</v></c>' % (r, style, idx))
        out.append("</row>")
    out.append('</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" '
               'header="0.3" footer="0.3"/></worksheet>')
    return "".join(out)


class SharedStrings:
    def __init__(self):
        self.strings = []
        self.index = {}
        self.count = 0

    def add(self, s):
        self.count += 1
        if s not in self.index:
            self.index[s] = len(self.strings)
            self.strings.append(s)
        return self.index[s]

    def xml(self):
        out = [XML_DECL, '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
               'count="%d" uniqueCount="%d">' % (self.count, len(self.strings))]
        for s in self.strings:
            sp = ' xml:space="preserve"' if s != s.strip() else ""
            out.append("<si><t%s>%s</t></si>" % (sp, escape(s)))
        out.append("</sst>")
        return "".join(out)


XLSX_STYLES = (XML_DECL +
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    '<numFmts count="1"><numFmt numFmtId="164" formatCode="0.0"/></numFmts>'
    '<fonts count="2"><font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/>'
    '<scheme val="minor"/></font><font><b/><sz val="11"/><color theme="1"/><name val="Calibri"/>'
    '<family val="2"/><scheme val="minor"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="4">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
    '<xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '</cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    '<dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium2" '
    'defaultPivotStyle="PivotStyleLight16"/></styleSheet>')


def write_xlsx(stem, path):
    rows = read_csv(stem)
    sheets = [(SHEET_NAMES[stem], rows, find_formula(rows) if stem in FORMULA_SHEETS else None)]
    if stem in EXTRA_SHEETS:
        name, extra = EXTRA_SHEETS[stem]
        sheets.append((name, extra, None))
    sst = SharedStrings()
    members = []
    sheet_xml = []
    for k, (name, srows, formulas) in enumerate(sheets):
        sheet_xml.append(("xl/worksheets/sheet%d.xml" % (k + 1),
                          xlsx_sheet_xml(srows, sst, formulas, selected=(k == 0))))
    n = len(sheets)
    overrides = [("/xl/workbook.xml",
                  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml")]
    for k in range(n):
        overrides.append(("/xl/worksheets/sheet%d.xml" % (k + 1),
                          "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"))
    overrides.append(("/xl/styles.xml",
                      "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"))
    overrides.append(("/xl/sharedStrings.xml",
                      "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"))
    workbook = [XML_DECL,
                '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                'xmlns:r="%s"><bookViews><workbookView activeTab="0"/></bookViews><sheets>' % REL_NS]
    for k, (name, _, _) in enumerate(sheets):
        workbook.append('<sheet name=%s sheetId="%d" r:id="rId%d"/>' % (quoteattr(name), k + 1, k + 1))
    workbook.append('</sheets><calcPr calcId="191029"/></workbook>')
    wb_rels = [("rId%d" % (k + 1), REL_NS + "/worksheet", "worksheets/sheet%d.xml" % (k + 1))
               for k in range(n)]
    wb_rels.append(("rId%d" % (n + 1), REL_NS + "/styles", "styles.xml"))
    wb_rels.append(("rId%d" % (n + 2), REL_NS + "/sharedStrings", "sharedStrings.xml"))
    members.append(("[Content_Types].xml", content_types(overrides)))
    members.append(("_rels/.rels", rels([("rId1", REL_OFFICE_DOC, "xl/workbook.xml"),
                                          ("rId2", REL_CORE, "docProps/core.xml")])))
    members.append(("docProps/core.xml", core_props(stem_title(stem))))
    members.append(("xl/workbook.xml", "".join(workbook)))
    members.append(("xl/_rels/workbook.xml.rels", rels(wb_rels)))
    members.append(("xl/styles.xml", XLSX_STYLES))
    members.extend(sheet_xml)
    members.append(("xl/sharedStrings.xml", sst.xml()))
    write_zip(path, members)


def stem_title(stem):
    """A spreadsheet's title property: its file name, as office software sets it from a CSV."""
    return stem.split("-", 1)[1] if "-" in stem else stem


ODS_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
          'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
          'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
          'xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" '
          'xmlns:dc="http://purl.org/dc/elements/1.1/" '
          'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"')


def write_ods(stem, path):
    rows = read_csv(stem)
    ncols = max(len(r) for r in rows)
    content = [XML_DECL.replace(' standalone="yes"', ""),
               '<office:document-content %s office:version="1.2">' % ODS_NS,
               "<office:automatic-styles>",
               '<style:style style:name="co1" style:family="table-column">'
               '<style:table-column-properties style:column-width="1.2in"/></style:style>',
               '<style:style style:name="ro1" style:family="table-row">'
               '<style:table-row-properties style:use-optimal-row-height="true"/></style:style>',
               '<number:number-style style:name="N1"><number:number number:decimal-places="1" '
               'number:min-decimal-places="1" number:min-integer-digits="1"/></number:number-style>',
               '<number:number-style style:name="N2"><number:number number:decimal-places="2" '
               'number:min-decimal-places="2" number:min-integer-digits="1"/></number:number-style>',
               '<style:style style:name="ce1" style:family="table-cell" style:parent-style-name="Default">'
               '<style:text-properties fo:font-weight="bold"/></style:style>',
               '<style:style style:name="ce2" style:family="table-cell" style:parent-style-name="Default" '
               'style:data-style-name="N1"/>',
               '<style:style style:name="ce3" style:family="table-cell" style:parent-style-name="Default" '
               'style:data-style-name="N2"/>',
               "</office:automatic-styles>",
               "<office:body><office:spreadsheet>",
               "<table:table table:name=%s>" % quoteattr(SHEET_NAMES[stem]),
               '<table:table-column table:style-name="co1" table:number-columns-repeated="%d" '
               'table:default-cell-style-name="Default"/>' % ncols]
    for j, row in enumerate(rows):
        content.append('<table:table-row table:style-name="ro1">')
        for val in row + [""] * (ncols - len(row)):
            if val == "":
                content.append("<table:table-cell/>")
            elif j > 0 and is_number(val):
                style = {1: ' table:style-name="ce2"', 2: ' table:style-name="ce3"'}.get(decimals(val), "")
                content.append('<table:table-cell%s office:value-type="float" office:value="%s">'
                               "<text:p>%s</text:p></table:table-cell>"
                               % (style, canonical(val), escape(val)))
            else:
                style = ' table:style-name="ce1"' if j == 0 else ""
                content.append('<table:table-cell%s office:value-type="string"><text:p>%s</text:p>'
                               "</table:table-cell>" % (style, escape(val)))
        content.append("</table:table-row>")
    content.append("</table:table></office:spreadsheet></office:body></office:document-content>")
    decl = XML_DECL.replace(' standalone="yes"', "")
    manifest = (decl +
                '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
                'manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" manifest:version="1.2" '
                'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>'
                '<manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/>'
                "</manifest:manifest>")
    styles = (decl + '<office:document-styles %s office:version="1.2"><office:styles>'
              '<style:default-style style:family="table-cell"><style:text-properties '
              'style:font-name="Liberation Sans" fo:font-size="10pt"/></style:default-style>'
              '<style:style style:name="Default" style:family="table-cell"/>'
              "</office:styles></office:document-styles>" % ODS_NS)
    meta = (decl + '<office:document-meta %s office:version="1.2"><office:meta>'
            "<dc:title>%s</dc:title><meta:creation-date>2024-01-01T00:00:00</meta:creation-date>"
            "<dc:date>2024-01-01T00:00:00</dc:date><dc:language>en-GB</dc:language>"
            "</office:meta></office:document-meta>" % (ODS_NS, escape(stem_title(stem))))
    write_zip(path, [("META-INF/manifest.xml", manifest), ("content.xml", "".join(content)),
                     ("styles.xml", styles), ("meta.xml", meta)],
              stored_first=("mimetype", "application/vnd.oasis.opendocument.spreadsheet"))


# --------------------------------------------------------------------------------------------
# Word (.docx)
# --------------------------------------------------------------------------------------------

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def w_runs(runs, bold_all=False):
    out = []
    for t, b, i in runs:
        props = ""
        if b or bold_all:
            props += "<w:b/>"
        if i:
            props += "<w:i/>"
        rpr = "<w:rPr>%s</w:rPr>" % props if props else ""
        out.append('<w:r>%s<w:t xml:space="preserve">%s</w:t></w:r>' % (rpr, escape(t)))
    return "".join(out)


def w_p(runs, style=None, num=None, bold_all=False, keep_next=False):
    ppr = ""
    if style or num or keep_next:
        ppr = "<w:pPr>"
        if style:
            ppr += '<w:pStyle w:val="%s"/>' % style
        if keep_next:
            ppr += "<w:keepNext/>"
        if num:
            ppr += '<w:numPr><w:ilvl w:val="%d"/><w:numId w:val="%d"/></w:numPr>' % num
        ppr += "</w:pPr>"
    return "<w:p>%s%s</w:p>" % (ppr, w_runs(runs, bold_all))


TEXT_WIDTH_TWIPS = 9026  # A4 less 1-inch margins


def table_grid(rows, total):
    """Column widths, proportional to the longest text in each column."""
    ncols = max(sum(c["colspan"] for c in r) for r in rows)
    longest = [4] * ncols
    for r in rows:
        col = 0
        for c in r:
            if c["colspan"] == 1:
                longest[col] = max(longest[col], len(rtext(c["runs"])))
            col += c["colspan"]
    longest = [min(l, 40) for l in longest]
    s = sum(longest)
    widths = [int(total * l / s) for l in longest]
    widths[-1] += total - sum(widths)
    return widths


def w_table(block):
    rows = block["rows"]
    widths = table_grid(rows, TEXT_WIDTH_TWIPS)
    ncols = len(widths)
    out = ['<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/>'
           '<w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="1" w:lastColumn="0" '
           'w:noHBand="0" w:noVBand="1"/></w:tblPr><w:tblGrid>']
    out.extend('<w:gridCol w:w="%d"/>' % w for w in widths)
    out.append("</w:tblGrid>")
    for k, row in enumerate(rows):
        header = block["header"] and k == 0
        out.append("<w:tr>")
        if header:
            out.append("<w:trPr><w:tblHeader/></w:trPr>")
        col = 0
        cells = list(row)
        used = sum(c["colspan"] for c in cells)
        cells += [{"runs": [], "th": False, "colspan": 1}] * (ncols - used)
        for c in cells:
            span = c["colspan"]
            w = sum(widths[col:col + span])
            tcpr = '<w:tcW w:w="%d" w:type="dxa"/>' % w
            if span > 1:
                tcpr += '<w:gridSpan w:val="%d"/>' % span
            out.append("<w:tc><w:tcPr>%s</w:tcPr>%s</w:tc>"
                       % (tcpr, w_p(c["runs"], bold_all=c["th"])))
            col += span
        out.append("</w:tr>")
    out.append("</w:tbl>")
    return "".join(out)


DOCX_STYLES = (XML_DECL +
    '<w:styles xmlns:w="%s">'
    '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" '
    'w:eastAsia="Calibri" w:cs="Calibri"/><w:sz w:val="22"/><w:szCs w:val="22"/>'
    '<w:lang w:val="en-GB"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr>'
    '<w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>'
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>'
    '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/>'
    '<w:next w:val="Normal"/><w:qFormat/><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/>'
    '<w:contextualSpacing/></w:pPr><w:rPr><w:rFonts w:ascii="Calibri Light" w:hAnsi="Calibri Light"/>'
    '<w:kern w:val="28"/><w:sz w:val="56"/><w:szCs w:val="56"/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/>'
    '<w:next w:val="Normal"/><w:qFormat/><w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="240" w:after="0"/>'
    '<w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:rFonts w:ascii="Calibri Light" w:hAnsi="Calibri Light"/>'
    '<w:color w:val="2F5496"/><w:sz w:val="32"/><w:szCs w:val="32"/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/>'
    '<w:next w:val="Normal"/><w:qFormat/><w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="40" w:after="0"/>'
    '<w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:rFonts w:ascii="Calibri Light" w:hAnsi="Calibri Light"/>'
    '<w:color w:val="2F5496"/><w:sz w:val="26"/><w:szCs w:val="26"/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/><w:basedOn w:val="Normal"/>'
    '<w:next w:val="Normal"/><w:qFormat/><w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="40" w:after="0"/>'
    '<w:outlineLvl w:val="2"/></w:pPr><w:rPr><w:rFonts w:ascii="Calibri Light" w:hAnsi="Calibri Light"/>'
    '<w:color w:val="1F3763"/><w:sz w:val="24"/><w:szCs w:val="24"/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/>'
    '<w:basedOn w:val="Normal"/><w:uiPriority w:val="34"/><w:qFormat/><w:pPr><w:ind w:left="720"/>'
    '<w:contextualSpacing/></w:pPr></w:style>'
    '<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/>'
    '<w:uiPriority w:val="99"/><w:semiHidden/><w:unhideWhenUsed/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/>'
    '<w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/>'
    '<w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>'
    '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/>'
    '<w:uiPriority w:val="39"/><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>'
    '<w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="auto"/>'
    '<w:left w:val="single" w:sz="4" w:space="0" w:color="auto"/>'
    '<w:bottom w:val="single" w:sz="4" w:space="0" w:color="auto"/>'
    '<w:right w:val="single" w:sz="4" w:space="0" w:color="auto"/>'
    '<w:insideH w:val="single" w:sz="4" w:space="0" w:color="auto"/>'
    '<w:insideV w:val="single" w:sz="4" w:space="0" w:color="auto"/></w:tblBorders></w:tblPr></w:style>'
    '</w:styles>' % W_NS)


def docx_numbering(ordered_lists):
    out = [XML_DECL, '<w:numbering xmlns:w="%s">' % W_NS]
    out.append('<w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="hybridMultilevel"/>')
    for lvl, ch in enumerate(["\u2022", "o", "\u25aa"]):
        out.append('<w:lvl w:ilvl="%d"><w:start w:val="1"/><w:numFmt w:val="bullet"/>'
                   '<w:lvlText w:val="%s"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="%d" '
                   'w:hanging="360"/></w:pPr></w:lvl>' % (lvl, ch, 720 * (lvl + 1)))
    out.append("</w:abstractNum>")
    out.append('<w:abstractNum w:abstractNumId="1"><w:multiLevelType w:val="hybridMultilevel"/>')
    for lvl, fmt in enumerate(["decimal", "lowerLetter", "lowerRoman"]):
        out.append('<w:lvl w:ilvl="%d"><w:start w:val="1"/><w:numFmt w:val="%s"/>'
                   '<w:lvlText w:val="%%%d."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="%d" '
                   'w:hanging="360"/></w:pPr></w:lvl>' % (lvl, fmt, lvl + 1, 720 * (lvl + 1)))
    out.append("</w:abstractNum>")
    out.append('<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>')
    for k in range(ordered_lists):
        out.append('<w:num w:numId="%d"><w:abstractNumId w:val="1"/>'
                   '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'
                   % (k + 2))
    out.append("</w:numbering>")
    return "".join(out)


def docx_heading_style(level, first):
    if level == 1 and first:
        return "Title"
    return {1: "Heading1", 2: "Heading1", 3: "Heading2"}.get(level, "Heading3")


def write_docx(doc, path):
    body = []
    seen_heading = False
    ordered = 0
    last_was_table = False
    for b in doc.blocks:
        t = b["t"]
        if t == "h":
            body.append(w_p(b["runs"], docx_heading_style(b["level"], not seen_heading)))
            seen_heading = True
        elif t == "p":
            body.append(w_p(b["runs"]))
        elif t == "list":
            if b["ordered"]:
                ordered += 1
                num_id = ordered + 1
            else:
                num_id = 1
            for level, runs in b["items"]:
                body.append(w_p(runs, "ListParagraph", (min(level, 2), num_id)))
        elif t == "dl":
            for term, definition in b["items"]:
                body.append(w_p([(rtext(term) + ": ", False, False)] + definition))
        elif t == "code":
            for line in b["text"].split("\n"):
                body.append(w_p(plain(line)))
        elif t == "table":
            if b["caption"]:
                body.append(w_p(b["caption"]))
            elif last_was_table:
                body.append("<w:p/>")
            body.append(w_table(b))
        last_was_table = t == "table"
    if last_was_table:
        body.append("<w:p/>")
    document = (XML_DECL +
                '<w:document xmlns:w="%s" xmlns:r="%s"><w:body>%s'
                '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" '
                'w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>'
                '<w:cols w:space="708"/></w:sectPr></w:body></w:document>'
                % (W_NS, REL_NS, "".join(body)))
    overrides = [
        ("/word/document.xml",
         "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"),
        ("/word/styles.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"),
        ("/word/numbering.xml",
         "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"),
    ]
    write_zip(path, [
        ("[Content_Types].xml", content_types(overrides)),
        ("_rels/.rels", rels([("rId1", REL_OFFICE_DOC, "word/document.xml"),
                              ("rId2", REL_CORE, "docProps/core.xml")])),
        ("docProps/core.xml", core_props(doc.title)),
        ("word/document.xml", document),
        ("word/_rels/document.xml.rels", rels([("rId1", REL_NS + "/styles", "styles.xml"),
                                               ("rId2", REL_NS + "/numbering", "numbering.xml")])),
        ("word/styles.xml", DOCX_STYLES),
        ("word/numbering.xml", docx_numbering(ordered)),
    ])


# --------------------------------------------------------------------------------------------
# PDF
# --------------------------------------------------------------------------------------------

# Standard AFM widths (1/1000 em) of printable ASCII 32..126, WinAnsi encoding.
HELVETICA = [int(x) for x in (
    "278 278 355 556 556 889 667 191 333 333 389 584 278 333 278 278 "
    "556 556 556 556 556 556 556 556 556 556 278 278 584 584 584 556 "
    "1015 667 667 722 722 667 611 778 722 278 500 667 556 833 722 778 "
    "667 778 722 667 611 722 667 944 667 667 611 278 278 278 469 556 "
    "333 556 556 500 556 556 278 556 556 222 222 500 222 833 556 556 "
    "556 556 333 500 278 556 500 722 500 500 500 334 260 334 584").split()]
HELVETICA_BOLD = [int(x) for x in (
    "278 333 474 556 556 889 722 238 333 333 389 584 278 333 278 278 "
    "556 556 556 556 556 556 556 556 556 556 333 333 584 584 584 611 "
    "975 722 722 722 722 667 611 778 722 278 556 722 611 833 722 778 "
    "667 778 722 667 611 722 667 944 667 667 611 333 278 333 584 556 "
    "333 556 611 556 611 556 333 611 611 278 278 556 278 889 611 611 "
    "611 611 389 556 333 611 556 778 556 556 500 389 280 389 584").split()]
assert len(HELVETICA) == 95 and len(HELVETICA_BOLD) == 95
EXTRA_WIDTHS = {"\u2013": 556, "\u2014": 1000, "\u2022": 350, "\u00a3": 556, "\u00b0": 400,
                "\u00d7": 584, "\u00b2": 333, "\u00b3": 333, "\u00b7": 278, "\u2019": 222,
                "\u2018": 222, "\u201c": 333, "\u201d": 333, "\u2026": 1000, "\u20ac": 556,
                "\u00a0": 278, "\u203a": 333, "\u2039": 333}
PDF_REPLACE = {"\u2212": "-", "\u2192": "->", "\u2190": "<-", "\u2009": " ", "\u202f": " ",
               "\u2011": "-", "\u2010": "-"}


def char_width(c, bold):
    o = ord(c)
    if 32 <= o <= 126:
        return (HELVETICA_BOLD if bold else HELVETICA)[o - 32]
    if c in EXTRA_WIDTHS:
        return EXTRA_WIDTHS[c]
    base = unicodedata.normalize("NFD", c)[0]
    if base != c and 32 <= ord(base) <= 126:
        return char_width(base, bold)
    return 500


def text_width(s, size, bold=False):
    return sum(char_width(c, bold) for c in s) * size / 1000.0


def to_winansi(s):
    out = bytearray()
    for c in s:
        try:
            out += c.encode("cp1252")
        except UnicodeEncodeError:
            out += PDF_REPLACE.get(c, c).encode("cp1252", errors="replace")
    return bytes(out)


def pdf_string(s):
    out = []
    for byte in to_winansi(s):
        if byte in (0x28, 0x29, 0x5C):
            out.append("\\" + chr(byte))
        elif 32 <= byte < 127:
            out.append(chr(byte))
        else:
            out.append("\\%03o" % byte)
    return "(" + "".join(out) + ")"


def num(v):
    s = "%.2f" % v
    return s.rstrip("0").rstrip(".") if "." in s else s


def wrap(text, width, size, bold=False):
    words = text.split(" ")
    lines = []
    cur = ""
    for w in words:
        if not w:
            continue
        cand = w if not cur else cur + " " + w
        if cur and text_width(cand, size, bold) > width + 0.01:
            lines.append(cur)
            cur = w
        else:
            cur = cand
    if cur or not lines:
        lines.append(cur)
    return lines


PAGE_W, PAGE_H = 595, 842
MARGIN = 56
TOP = PAGE_H - MARGIN          # 786
BOTTOM = MARGIN                # 56
TEXT_W = PAGE_W - 2 * MARGIN   # 483
BODY = 10.5
LEAD = 14
HEAD_SIZES = {1: 20, 2: 14, 3: 12}


class PdfLayout:
    def __init__(self, breaks):
        self.pages = []
        self.breaks = breaks      # block indices that start a new page
        self.block_y = {}         # block index -> (page, y) where it starts
        self.new_page()

    def new_page(self):
        self.ops = []
        self.pages.append(self.ops)
        self.y = TOP

    def at_top(self):
        return self.y == TOP

    def ensure(self, h):
        if self.y - h < BOTTOM and not self.at_top():
            self.new_page()

    def text(self, x, y, s, size, bold=False):
        self.ops.append(("text", x, y, s, size, bold))

    def line(self, x1, y1, x2, y2):
        self.ops.append(("line", x1, y1, x2, y2))

    def lines(self, x, lines, size=BODY, lead=LEAD, bold=False):
        for ln in lines:
            self.ensure(lead)
            self.y -= lead
            self.text(x, self.y, ln, size, bold)

    def paragraph(self, s, x=MARGIN, after=6, bold=False):
        self.lines(x, wrap(s, TEXT_W - (x - MARGIN), BODY, bold), bold=bold)
        self.y -= after

    def heading(self, s, level, title=False):
        size = 20 if title else {1: 14, 2: 14, 3: 12}.get(level, 11)
        lead = size * 1.25
        if not self.at_top():
            self.y -= 10 if not title else 0
        self.ensure(lead + 3 * LEAD)  # keep with the next lines
        for ln in wrap(s, TEXT_W, size, True):
            self.y -= lead
            self.text(MARGIN, self.y, ln, size, True)
        self.y -= 10 if title else 4

    def item(self, marker, s, level):
        x = MARGIN + 14 + 18 * level
        tx = x + 14
        lines = wrap(s, TEXT_W - (tx - MARGIN), BODY)
        self.ensure(LEAD)
        self.y -= LEAD
        self.text(x, self.y, marker, BODY)
        self.text(tx, self.y, lines[0], BODY)
        self.lines(tx, lines[1:])
        self.y -= 2

    def table(self, block):
        rows = block["rows"]
        pad = 10
        ncols = max(sum(c["colspan"] for c in r) for r in rows)

        def bold_cell(c, k):
            return c["th"] or (block["header"] and k == 0) or (
                c["runs"] and all(b for _, b, _ in c["runs"]))

        natural = [0.0] * ncols
        for k, r in enumerate(rows):
            col = 0
            for c in r:
                if c["colspan"] == 1:
                    natural[col] = max(natural[col],
                                       text_width(rtext(c["runs"]), BODY, bold_cell(c, k)) + pad)
                col += c["colspan"]
        widths = list(natural)
        if sum(widths) > TEXT_W:  # cap the widest columns; their cells wrap
            lo, hi = 0.0, max(widths)
            for _ in range(50):
                mid = (lo + hi) / 2
                if sum(min(w, mid) for w in natural) > TEXT_W:
                    hi = mid
                else:
                    lo = mid
            widths = [min(w, lo) for w in natural]
        xs = [MARGIN]
        for w in widths:
            xs.append(xs[-1] + w)
        for k, r in enumerate(rows):
            cells = []
            col = 0
            for c in r:
                span = c["colspan"]
                w = sum(widths[col:col + span]) - pad
                bold = bold_cell(c, k)
                cells.append((xs[col], wrap(rtext(c["runs"]), w, BODY, bold), bold))
                col += span
            nlines = max(len(ls) for _, ls, _ in cells) if cells else 1
            self.ensure(nlines * LEAD + 2)
            top = self.y
            for x, ls, bold in cells:
                for j, ln in enumerate(ls):
                    if ln:
                        self.text(x, top - LEAD * (j + 1), ln, BODY, bold)
            self.y = top - LEAD * nlines - 2
            if block["header"] and k == 0:
                self.line(MARGIN, self.y + 1, xs[-1] - pad / 2, self.y + 1)
                self.y -= 2
        self.y -= 8

    def run(self, doc):
        first_heading = True
        for n, b in enumerate(doc.blocks):
            if n in self.breaks and not self.at_top():
                self.new_page()
            self.block_y[n] = (len(self.pages), self.y)
            t = b["t"]
            if t == "h":
                self.heading(rtext(b["runs"]), b["level"], title=(b["level"] == 1 and first_heading))
                first_heading = False
            elif t == "p":
                self.paragraph(rtext(b["runs"]))
            elif t == "code":
                for ln in b["text"].split("\n"):
                    self.paragraph(ln, after=0)
                self.y -= 6
            elif t == "list":
                for k, (level, runs) in enumerate(b["items"]):
                    marker = "%d." % (k + 1) if b["ordered"] else "\u2022"
                    self.item(marker, rtext(runs), level)
                self.y -= 4
            elif t == "dl":
                for term, definition in b["items"]:
                    self.paragraph(rtext(term) + ": " + rtext(definition), after=2)
                self.y -= 4
            elif t == "table":
                if b["caption"]:
                    self.paragraph(rtext(b["caption"]), after=2)
                self.table(b)
        self.end = (len(self.pages), self.y)
        return self.pages


def layout_pdf(doc):
    pages = PdfLayout(set()).run(doc)
    if len(pages) >= 2:
        return pages
    # A short document: break the page before the second-level heading nearest the middle.
    probe = PdfLayout(set())
    probe.run(doc)
    middle = (TOP + probe.end[1]) / 2
    best = None
    for n, b in enumerate(doc.blocks):
        if b["t"] == "h" and b["level"] == 2:
            d = abs(probe.block_y[n][1] - middle)
            if best is None or d < best[0]:
                best = (d, n)
    if best is None:  # no section heading: break before the block nearest the middle
        for n in range(1, len(doc.blocks)):
            d = abs(probe.block_y[n][1] - middle)
            if best is None or d < best[0]:
                best = (d, n)
    return PdfLayout({best[1]}).run(doc)


def pdf_info_string(s):
    if all(32 <= ord(c) < 127 for c in s):
        return pdf_string(s)
    return "<FEFF" + s.encode("utf-16-be").hex().upper() + ">"


def write_pdf(doc, path):
    pages = layout_pdf(doc)
    total = len(pages)
    streams = []
    for n, ops in enumerate(pages, start=1):
        out = []
        # running header and footer, as a word processor repeats them on every page
        out.append("BT /F1 8 Tf %s 810 Td %s Tj ET" % (num(MARGIN), pdf_string(doc.heading)))
        for op in ops:
            if op[0] == "text":
                _, x, y, s, size, bold = op
                out.append("BT /%s %s Tf %s %s Td %s Tj ET"
                           % ("F2" if bold else "F1", num(size), num(x), num(y), pdf_string(s)))
            else:
                _, x1, y1, x2, y2 = op
                out.append("0.5 w %s %s m %s %s l S" % (num(x1), num(y1), num(x2), num(y2)))
        footer = "Page %d of %d" % (n, total)
        out.append("BT /F1 8 Tf %s 30 Td %s Tj ET"
                   % (num((PAGE_W - text_width(footer, 8)) / 2), pdf_string(footer)))
        streams.append(("\n".join(out) + "\n").encode("latin-1"))

    objects = {}
    objects[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
    kids = " ".join("%d 0 R" % (6 + 2 * k) for k in range(total))
    objects[2] = ("<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, total)).encode()
    objects[3] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    objects[4] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
    objects[5] = ("<< /Title %s /Producer (convert-collection.py) /CreationDate (D:20240101000000Z) "
                  "/ModDate (D:20240101000000Z) >>" % pdf_info_string(doc.title)).encode("latin-1")
    for k, data in enumerate(streams):
        page_id, content_id = 6 + 2 * k, 7 + 2 * k
        objects[page_id] = ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] "
                            "/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents %d 0 R >>"
                            % (PAGE_W, PAGE_H, content_id)).encode()
        comp = zlib.compress(data, 9)
        objects[content_id] = (b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(comp)
                               + comp + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for oid in sorted(objects):
        offsets[oid] = len(out)
        out += b"%d 0 obj\n" % oid + objects[oid] + b"\nendobj\n"
    xref = len(out)
    size = max(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for oid in range(1, size):
        out += b"%010d 00000 n \n" % offsets[oid]
    out += (b"trailer\n<< /Size %d /Root 1 0 R /Info 5 0 R >>\nstartxref\n%d\n%%%%EOF\n"
            % (size, xref))
    with open(path, "wb") as f:
        f.write(bytes(out))


# --------------------------------------------------------------------------------------------
# PowerPoint (.pptx)
# --------------------------------------------------------------------------------------------

P_NS = ('xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
        'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"')
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
SLIDE_W, SLIDE_H = 12192000, 6858000
TITLE_BOX = (838200, 365125, 10515600, 1325563)
BODY_BOX = (838200, 1825625, 10515600, 4351338)
GRP = ('<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>'
       '<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/>'
       '<a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>')


def xfrm(box, tag="a:xfrm"):
    return '<%s><a:off x="%d" y="%d"/><a:ext cx="%d" cy="%d"/></%s>' % ((tag,) + box + (tag,))


def a_runs(runs, size=None):
    out = []
    for t, b, i in runs:
        attrs = ' lang="en-GB"'
        if size:
            attrs += ' sz="%d"' % size
        if b:
            attrs += ' b="1"'
        if i:
            attrs += ' i="1"'
        out.append('<a:r><a:rPr%s dirty="0"/><a:t>%s</a:t></a:r>' % (attrs, escape(t)))
    return "".join(out)


def a_para(runs, kind="plain", level=0, size=None):
    if kind == "plain":
        ppr = '<a:pPr marL="0" indent="0"><a:buNone/></a:pPr>'
    elif kind == "bullet":
        ppr = ('<a:pPr marL="%d" lvl="%d" indent="-285750"><a:buFont typeface="Arial"/>'
               '<a:buChar char="&#8226;"/></a:pPr>' % (285750 * (level + 1), level))
    else:
        ppr = ('<a:pPr marL="%d" lvl="%d" indent="-342900"><a:buFont typeface="+mj-lt"/>'
               '<a:buAutoNum type="arabicPeriod"/></a:pPr>' % (342900 * (level + 1), level))
    return "<a:p>%s%s</a:p>" % (ppr, a_runs(runs, size))


def sp(shape_id, name, ph, paras, box=None, autofit=False):
    body_pr = "<a:bodyPr><a:normAutofit/></a:bodyPr>" if autofit else "<a:bodyPr/>"
    sppr = "<p:spPr>%s</p:spPr>" % xfrm(box) if box else "<p:spPr/>"
    return ('<p:sp><p:nvSpPr><p:cNvPr id="%d" name="%s"/><p:cNvSpPr><a:spLocks noGrp="1"/>'
            "</p:cNvSpPr><p:nvPr>%s</p:nvPr></p:nvSpPr>%s<p:txBody>%s<a:lstStyle/>%s</p:txBody></p:sp>"
            % (shape_id, name, ph, sppr, body_pr, "".join(paras) or "<a:p><a:endParaRPr lang=\"en-GB\"/></a:p>"))


def graphic_table(shape_id, block, box):
    rows = block["rows"]
    x, y, cx, _ = box
    emu_per_twip = cx / TEXT_WIDTH_TWIPS
    widths = [int(w * emu_per_twip) for w in table_grid(rows, TEXT_WIDTH_TWIPS)]
    widths[-1] += cx - sum(widths)
    row_h = 370840
    out = ['<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="%d" name="Table %d"/>'
           '<p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/>'
           "</p:nvGraphicFramePr>" % (shape_id, shape_id - 1),
           xfrm((x, y, cx, row_h * len(rows)), "p:xfrm"),
           '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table">'
           '<a:tbl><a:tblPr firstRow="%d" bandRow="1"/><a:tblGrid>' % (1 if block["header"] else 0)]
    out.extend('<a:gridCol w="%d"/>' % w for w in widths)
    out.append("</a:tblGrid>")
    ncols = len(widths)
    for k, row in enumerate(rows):
        out.append('<a:tr h="%d">' % row_h)
        used = 0
        for c in row:
            span = ' gridSpan="%d"' % c["colspan"] if c["colspan"] > 1 else ""
            runs = [(t, b or c["th"], i) for t, b, i in c["runs"]]
            out.append('<a:tc%s><a:txBody><a:bodyPr/><a:lstStyle/><a:p>%s</a:p></a:txBody><a:tcPr/></a:tc>'
                       % (span, a_runs(runs, 1400)))
            for _ in range(c["colspan"] - 1):
                out.append('<a:tc hMerge="1"><a:txBody><a:bodyPr/><a:lstStyle/><a:p/></a:txBody><a:tcPr/></a:tc>')
            used += c["colspan"]
        for _ in range(ncols - used):
            out.append("<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p/></a:txBody><a:tcPr/></a:tc>")
        out.append("</a:tr>")
    out.append("</a:tbl></a:graphicData></a:graphic></p:graphicFrame>")
    return "".join(out)


def slide_sections(doc):
    """[(title_runs, [blocks])]: the title and what precedes the first section, then one per
    top-level section (the shallowest heading level below the title)."""
    blocks = list(doc.blocks)
    title = plain(doc.heading)
    if blocks and blocks[0]["t"] == "h" and blocks[0]["level"] == 1:
        title = blocks[0]["runs"]
        blocks = blocks[1:]
    levels = [b["level"] for b in blocks if b["t"] == "h"]
    top = min(levels) if levels else None
    sections = [(title, [])]
    for b in blocks:
        if b["t"] == "h" and b["level"] == top:
            sections.append((b["runs"], []))
        else:
            sections[-1][1].append(b)
    return sections


def slide_xml(title_runs, blocks):
    paras = []
    tables = []
    for b in blocks:
        t = b["t"]
        if t == "p":
            paras.append(a_para(b["runs"]))
        elif t == "h":
            paras.append(a_para([(x, True, i) for x, _, i in b["runs"]]))
        elif t == "list":
            for level, runs in b["items"]:
                paras.append(a_para(runs, "number" if b["ordered"] else "bullet", level))
        elif t == "dl":
            for term, definition in b["items"]:
                paras.append(a_para([(rtext(term) + ": ", False, False)] + definition))
        elif t == "code":
            for ln in b["text"].split("\n"):
                paras.append(a_para(plain(ln)))
        elif t == "table":
            if b["caption"]:
                paras.append(a_para(b["caption"]))
            tables.append(b)
    shapes = [sp(2, "Title 1", '<p:ph type="title"/>', ["<a:p>%s</a:p>" % a_runs(title_runs)])]
    next_id = 3
    bx, by, bcx, bcy = BODY_BOX
    if tables:
        text_h = min(bcy // 2, 400000 * max(1, len(paras))) if paras else 0
        if paras:
            shapes.append(sp(next_id, "Content Placeholder %d" % (next_id - 1), '<p:ph idx="1"/>',
                             paras, box=(bx, by, bcx, text_h), autofit=True))
            next_id += 1
        y = by + text_h + 100000
        for tb in tables:
            shapes.append(graphic_table(next_id, tb, (bx, y, bcx, 0)))
            y += 370840 * len(tb["rows"]) + 150000
            next_id += 1
    else:
        shapes.append(sp(next_id, "Content Placeholder %d" % (next_id - 1), '<p:ph idx="1"/>',
                         paras, autofit=True))
    return (XML_DECL + "<p:sld %s><p:cSld><p:spTree>%s%s</p:spTree></p:cSld>"
            "<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>" % (P_NS, GRP, "".join(shapes)))


PPT_THEME = (XML_DECL +
    '<a:theme xmlns:a="%s" name="Office Theme"><a:themeElements>'
    '<a:clrScheme name="Office"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1>'
    '<a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="44546A"/></a:dk2>'
    '<a:lt2><a:srgbClr val="E7E6E6"/></a:lt2><a:accent1><a:srgbClr val="4472C4"/></a:accent1>'
    '<a:accent2><a:srgbClr val="ED7D31"/></a:accent2><a:accent3><a:srgbClr val="A5A5A5"/></a:accent3>'
    '<a:accent4><a:srgbClr val="FFC000"/></a:accent4><a:accent5><a:srgbClr val="5B9BD5"/></a:accent5>'
    '<a:accent6><a:srgbClr val="70AD47"/></a:accent6><a:hlink><a:srgbClr val="0563C1"/></a:hlink>'
    '<a:folHlink><a:srgbClr val="954F72"/></a:folHlink></a:clrScheme>'
    '<a:fontScheme name="Office"><a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/>'
    '<a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/>'
    '<a:cs typeface=""/></a:minorFont></a:fontScheme>'
    '<a:fmtScheme name="Office"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill>'
    '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/>'
    '</a:solidFill></a:fillStyleLst><a:lnStyleLst>'
    '<a:ln w="6350"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>'
    '<a:ln w="12700"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>'
    '<a:ln w="19050"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst>'
    '<a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/>'
    '</a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>'
    '<a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill>'
    '<a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill>'
    '</a:bgFillStyleLst></a:fmtScheme></a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/>'
    '</a:theme>' % A_NS)


def ppt_placeholders(with_boxes):
    title_sppr = "<p:spPr>%s</p:spPr>" % xfrm(TITLE_BOX) if with_boxes else "<p:spPr/>"
    body_sppr = "<p:spPr>%s</p:spPr>" % xfrm(BODY_BOX) if with_boxes else "<p:spPr/>"
    body_ph = '<p:ph type="body" idx="1"/>' if with_boxes else '<p:ph idx="1"/>'
    return ('<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title Placeholder 1"/><p:cNvSpPr>'
            '<a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr>%s'
            '<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-GB"/><a:t>Click to edit '
            'Master title style</a:t></a:r></a:p></p:txBody></p:sp>'
            '<p:sp><p:nvSpPr><p:cNvPr id="3" name="Text Placeholder 2"/><p:cNvSpPr>'
            '<a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr>%s</p:nvPr></p:nvSpPr>%s'
            '<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:pPr lvl="0"/><a:r><a:rPr lang="en-GB"/>'
            '<a:t>Click to edit Master text styles</a:t></a:r></a:p></p:txBody></p:sp>'
            % (title_sppr, body_ph, body_sppr))


def ppt_master():
    lvl = "".join('<a:lvl%dpPr marL="%d" indent="-228600"><a:buFont typeface="Arial"/>'
                  '<a:buChar char="&#8226;"/><a:defRPr sz="%d"/></a:lvl%dpPr>'
                  % (k, 228600 + 457200 * (k - 1), max(1400, 2800 - 400 * (k - 1)), k)
                  for k in range(1, 4))
    return (XML_DECL + "<p:sldMaster %s><p:cSld><p:bg><p:bgRef idx=\"1001\"><a:schemeClr val=\"bg1\"/>"
            "</p:bgRef></p:bg><p:spTree>%s%s</p:spTree></p:cSld>"
            '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" '
            'accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" '
            'folHlink="folHlink"/><p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/>'
            "</p:sldLayoutIdLst><p:txStyles><p:titleStyle><a:lvl1pPr><a:defRPr sz=\"4400\"/></a:lvl1pPr>"
            "</p:titleStyle><p:bodyStyle>%s</p:bodyStyle><p:otherStyle><a:defPPr><a:defRPr lang=\"en-GB\"/>"
            "</a:defPPr></p:otherStyle></p:txStyles></p:sldMaster>"
            % (P_NS, GRP, ppt_placeholders(True), lvl))


def ppt_layout():
    return (XML_DECL + '<p:sldLayout %s type="obj" preserve="1"><p:cSld name="Title and Content">'
            "<p:spTree>%s%s</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr>"
            "</p:sldLayout>" % (P_NS, GRP, ppt_placeholders(False)))


def write_pptx(doc, path):
    sections = slide_sections(doc)
    slides = [slide_xml(t, bl) for t, bl in sections]
    n = len(slides)
    pres = [XML_DECL, '<p:presentation %s saveSubsetFonts="1"><p:sldMasterIdLst>'
            '<p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst>' % P_NS]
    for k in range(n):
        pres.append('<p:sldId id="%d" r:id="rId%d"/>' % (256 + k, k + 2))
    pres.append('</p:sldIdLst><p:sldSz cx="%d" cy="%d"/><p:notesSz cx="6858000" cy="9144000"/>'
                "</p:presentation>" % (SLIDE_W, SLIDE_H))
    pres_rels = [("rId1", REL_NS + "/slideMaster", "slideMasters/slideMaster1.xml")]
    pres_rels += [("rId%d" % (k + 2), REL_NS + "/slide", "slides/slide%d.xml" % (k + 1)) for k in range(n)]
    pres_rels += [("rId%d" % (n + 2), REL_NS + "/theme", "theme/theme1.xml"),
                  ("rId%d" % (n + 3), REL_NS + "/presProps", "presProps.xml"),
                  ("rId%d" % (n + 4), REL_NS + "/viewProps", "viewProps.xml"),
                  ("rId%d" % (n + 5), REL_NS + "/tableStyles", "tableStyles.xml")]
    pml = "application/vnd.openxmlformats-officedocument.presentationml."
    overrides = [("/ppt/presentation.xml", pml + "presentation.main+xml"),
                 ("/ppt/slideMasters/slideMaster1.xml", pml + "slideMaster+xml"),
                 ("/ppt/slideLayouts/slideLayout1.xml", pml + "slideLayout+xml")]
    overrides += [("/ppt/slides/slide%d.xml" % (k + 1), pml + "slide+xml") for k in range(n)]
    overrides += [("/ppt/theme/theme1.xml", "application/vnd.openxmlformats-officedocument.theme+xml"),
                  ("/ppt/presProps.xml", pml + "presProps+xml"),
                  ("/ppt/viewProps.xml", pml + "viewProps+xml"),
                  ("/ppt/tableStyles.xml", pml + "tableStyles+xml")]
    members = [
        ("[Content_Types].xml", content_types(overrides)),
        ("_rels/.rels", rels([("rId1", REL_OFFICE_DOC, "ppt/presentation.xml"),
                              ("rId2", REL_CORE, "docProps/core.xml")])),
        ("docProps/core.xml", core_props(doc.title)),
        ("ppt/presentation.xml", "".join(pres)),
        ("ppt/_rels/presentation.xml.rels", rels(pres_rels)),
        ("ppt/presProps.xml", XML_DECL + "<p:presentationPr %s/>" % P_NS),
        ("ppt/viewProps.xml", XML_DECL + "<p:viewPr %s/>" % P_NS),
        ("ppt/tableStyles.xml", XML_DECL + '<a:tblStyleLst xmlns:a="%s" '
         'def="{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"/>' % A_NS),
        ("ppt/theme/theme1.xml", PPT_THEME),
        ("ppt/slideMasters/slideMaster1.xml", ppt_master()),
        ("ppt/slideMasters/_rels/slideMaster1.xml.rels",
         rels([("rId1", REL_NS + "/slideLayout", "../slideLayouts/slideLayout1.xml"),
               ("rId2", REL_NS + "/theme", "../theme/theme1.xml")])),
        ("ppt/slideLayouts/slideLayout1.xml", ppt_layout()),
        ("ppt/slideLayouts/_rels/slideLayout1.xml.rels",
         rels([("rId1", REL_NS + "/slideMaster", "../slideMasters/slideMaster1.xml")])),
    ]
    for k, xml in enumerate(slides):
        members.append(("ppt/slides/slide%d.xml" % (k + 1), xml))
        members.append(("ppt/slides/_rels/slide%d.xml.rels" % (k + 1),
                        rels([("rId1", REL_NS + "/slideLayout", "../slideLayouts/slideLayout1.xml")])))
    write_zip(path, members)


# --------------------------------------------------------------------------------------------
# EPUB 3
# --------------------------------------------------------------------------------------------

def h_runs(runs):
    out = []
    for t, b, i in runs:
        s = escape(t)
        if i:
            s = "<em>%s</em>" % s
        if b:
            s = "<strong>%s</strong>" % s
        out.append(s)
    return "".join(out)


def h_list(block):
    tag = "ol" if block["ordered"] else "ul"
    out = ["<%s>" % tag]
    depth = 0
    first = True
    for level, runs in block["items"]:
        if first:
            out.append("<li>%s" % h_runs(runs))
            first = False
            continue
        if level > depth:
            out.append("<%s>" % tag * (level - depth))
            depth = level
            out.append("<li>%s" % h_runs(runs))
            continue
        while depth > level:
            out.append("</li></%s>" % tag)
            depth -= 1
        out.append("</li><li>%s" % h_runs(runs))
    while depth > 0:
        out.append("</li></%s>" % tag)
        depth -= 1
    out.append("</li></%s>" % tag)
    return "\n".join(out)


def h_block(b):
    t = b["t"]
    if t == "h":
        return "<h%d>%s</h%d>" % (b["level"], h_runs(b["runs"]), b["level"])
    if t == "p":
        return "<p>%s</p>" % h_runs(b["runs"])
    if t == "code":
        return "<pre>%s</pre>" % escape(b["text"])
    if t == "list":
        return h_list(b)
    if t == "dl":
        return "<dl>\n%s\n</dl>" % "\n".join("<dt>%s</dt><dd>%s</dd>" % (h_runs(a), h_runs(d))
                                             for a, d in b["items"])
    if t == "table":
        out = ["<table>"]
        if b["caption"]:
            out.append("<caption>%s</caption>" % h_runs(b["caption"]))
        for row in b["rows"]:
            cells = []
            for c in row:
                tag = "th" if c["th"] else "td"
                span = ' colspan="%d"' % c["colspan"] if c["colspan"] > 1 else ""
                cells.append("<%s%s>%s</%s>" % (tag, span, h_runs(c["runs"]), tag))
            out.append("<tr>%s</tr>" % "".join(cells))
        out.append("</table>")
        return "\n".join(out)
    raise ValueError(t)


def xhtml_page(title, body):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n'
            '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" '
            'xml:lang="en" lang="en">\n<head>\n<meta charset="utf-8"/>\n<title>%s</title>\n</head>\n'
            "<body>\n%s\n</body>\n</html>\n" % (escape(title), body))


def write_epub(doc, path):
    blocks = list(doc.blocks)
    levels = [b["level"] for b in blocks if b["t"] == "h" and not (b is blocks[0] and b["level"] == 1)]
    top = min(levels) if levels else None
    chapters = [[]]
    for k, b in enumerate(blocks):
        if b["t"] == "h" and b["level"] == top and not (k == 0 and b["level"] == 1):
            chapters.append([])
        chapters[-1].append(b)
    chapters = [c for c in chapters if c]
    members = [("META-INF/container.xml",
                '<?xml version="1.0" encoding="UTF-8"?>\n'
                '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                '<rootfiles><rootfile full-path="OEBPS/content.opf" '
                'media-type="application/oebps-package+xml"/></rootfiles></container>\n')]
    toc = []
    names = []
    for k, chapter in enumerate(chapters):
        name = "chapter-%02d.xhtml" % (k + 1)
        names.append(name)
        head = chapter[0]
        ctitle = rtext(head["runs"]) if head["t"] == "h" else doc.heading
        toc.append('<li><a href="%s">%s</a></li>' % (name, escape(ctitle)))
        body = "<section>\n%s\n</section>" % "\n".join(h_block(b) for b in chapter)
        members.append(("OEBPS/" + name, xhtml_page(ctitle, body)))
    nav = xhtml_page(doc.title, '<nav epub:type="toc" id="toc">\n<h1>Contents</h1>\n<ol>\n%s\n</ol>\n</nav>'
                     % "\n".join(toc))
    ident = "urn:uuid:%s" % uuid.uuid5(uuid.NAMESPACE_URL, "own-documents/" + doc.stem)
    opf = ['<?xml version="1.0" encoding="UTF-8"?>\n'
           '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="bookid" '
           'xml:lang="en">\n<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
           '<dc:identifier id="bookid">%s</dc:identifier>\n<dc:title>%s</dc:title>\n'
           "<dc:language>en</dc:language>\n"
           '<meta property="dcterms:modified">%s</meta>\n</metadata>\n<manifest>\n'
           '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>\n'
           % (ident, escape(doc.title), ISO_TIME)]
    for name in names:
        opf.append('<item id="%s" href="%s" media-type="application/xhtml+xml"/>\n'
                   % (name[:-6], name))
    opf.append("</manifest>\n<spine>\n")
    for name in names:
        opf.append('<itemref idref="%s"/>\n' % name[:-6])
    opf.append("</spine>\n</package>\n")
    members.insert(1, ("OEBPS/content.opf", "".join(opf)))
    members.insert(2, ("OEBPS/nav.xhtml", nav))
    write_zip(path, members, stored_first=("mimetype", "application/epub+zip"))


# --------------------------------------------------------------------------------------------
# E-mail (.eml)
# --------------------------------------------------------------------------------------------

MONTHS = {m: k + 1 for k, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}


def last_sunday(year, month):
    d = datetime.date(year, month + 1, 1) - datetime.timedelta(days=1)
    return d - datetime.timedelta(days=(d.weekday() + 1) % 7)


def parse_thread_date(s):
    """'Mon, 3 Jun 2024, 09:12', '11 March 2024 16:22', 'Tue 10 Sep 2024, 20:14' -> aware
    datetime in UK local time (the senders are in the UK; no zone is written)."""
    m = re.search(r"(\d{1,2})\s+([A-Za-z]+)\s+(\d{4}),?\s+(\d{1,2})[:.](\d{2})", s)
    if not m:
        raise ValueError("unparsed date: " + s)
    day, mon, year, hh, mm = m.groups()
    naive = datetime.datetime(int(year), MONTHS[mon[:3].lower()], int(day), int(hh), int(mm))
    wd = re.match(r"\s*([A-Za-z]{3})", s)
    if wd and wd.group(1).lower() in ("mon", "tue", "wed", "thu", "fri", "sat", "sun"):
        assert naive.strftime("%a").lower() == wd.group(1).lower(), s
    y = naive.year
    bst_start = datetime.datetime.combine(last_sunday(y, 3), datetime.time(1))
    bst_end = datetime.datetime.combine(last_sunday(y, 10), datetime.time(1))
    offset = 1 if bst_start <= naive < bst_end else 0
    return naive.replace(tzinfo=datetime.timezone(datetime.timedelta(hours=offset)))


def address_header(value):
    """An address header as written in the thread; a bare name (a list's name) becomes an
    empty group, 'Name:;', so that no address is invented."""
    if "@" in value:
        return value
    return value.strip() + ":;"


def write_eml(stem, path):
    text = read_text(os.path.join(SOURCE_DIR, stem + ".txt"))
    head, _, rest = text.partition("\n\n")
    fields = {}
    for line in head.split("\n"):
        name, _, value = line.partition(":")
        fields[name.strip()] = value.strip()
    date = parse_thread_date(fields["Date"])
    msg = email.message.EmailMessage(policy=email.policy.SMTP)
    msg["From"] = address_header(fields["From"])
    msg["To"] = address_header(fields["To"])
    msg["Date"] = email.utils.format_datetime(date)
    msg["Subject"] = fields["Subject"]
    msg["Message-ID"] = "<%s.%s@own-documents.invalid>" % (stem, date.strftime("%Y%m%d%H%M"))
    msg["MIME-Version"] = "1.0"
    msg.set_content(rest, subtype="plain", charset="utf-8", cte="quoted-printable")
    paras = [p for p in re.split(r"\n\s*\n", rest.strip("\n")) if p.strip()]
    body_html = "\n".join("<p>%s</p>" % "<br>\n".join(html.escape(l, quote=False) for l in p.split("\n"))
                          for p in paras)
    page = ('<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>%s</title>\n</head>\n'
            "<body>\n%s\n</body>\n</html>\n" % (html.escape(fields["Subject"], quote=False), body_html))
    msg.add_alternative(page, subtype="html", charset="utf-8", cte="quoted-printable")
    if stem in EML_ATTACHMENTS:
        filename, line = EML_ATTACHMENTS[stem]
        assert line in text, "the attachment must restate the thread word for word"
        msg.add_attachment(line + "\n", subtype="plain", charset="utf-8", cte="base64",
                           filename=filename)
        msg.set_boundary("=_mixed_%s" % stem)
        msg.get_payload()[0].set_boundary("=_alternative_%s" % stem)
    else:
        msg.set_boundary("=_alternative_%s" % stem)
    for part in msg.walk():  # only the top level carries MIME-Version
        if part is not msg:
            del part["MIME-Version"]
    with open(path, "wb") as f:
        f.write(msg.as_bytes(policy=email.policy.SMTP))


# --------------------------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------------------------

README = """# Converted documents

Some documents of the own-documents collection (`../documents/`), converted faithfully (same
words, same numbers, same structure) into the formats people keep documents in, so that the
readers for PDF, Word, PowerPoint, Excel, OpenDocument spreadsheets, e-mail and EPUB can be
measured on facts already known. Each file has the stem of its source and the new extension
(`36-elderholm-town.html` -> `36-elderholm-town.pdf`). The sources are not changed.

Regenerate (standard-library Python only, deterministic: fixed zip timestamps, member order,
MIME boundaries and identifiers, so a rerun writes identical bytes), and check:

```sh
python3 scripts/convert-collection.py
python3 scripts/convert-collection.py --check
```

## Which document went to which format, and why

A part of each kind of the collection, to the format such a document is kept in:

| Format | Documents | Why |
|---|---|---|
{rows}

- **xlsx**: one sheet named after the table's subject, first row the header (bold), numbers
  stored as numbers (`t="n"`, shown with the CSV's decimals through a number format), text as
  shared strings. In `71` column {formula_col} holds formulas whose cached values are
  the CSV's numbers (`{formula_example}`: no column of that table is a true sum of others, so
  the formula only rounds). `73` has a second sheet, `Notes`, of text only (no figures), so that
  a workbook of two sheets is tested.
- **ods**: one `table:table` named after the subject; numbers as `office:value-type="float"`
  with the CSV's text in `text:p`.
- **docx**: Word 2016-style parts; the first heading is a `Title` paragraph, `h2`/`##` ->
  `Heading1`, `h3` -> `Heading2`, `h4` -> `Heading3`; lists are `ListParagraph` paragraphs with
  numbering (bullets, decimals); tables (and infoboxes) are `w:tbl` with `TableGrid` and the
  header row marked `w:tblHeader`; `<dl>` items become "Term: definition" paragraphs; bold and
  italic are kept as runs.
- **pdf**: PDF 1.4 written by hand, A4, Helvetica / Helvetica-Bold (WinAnsi), Flate content
  streams. Every page carries a running header (the document's title, 8 pt) and a footer
  "Page N of M" which a reader must drop; every document spans at least two pages (a short one
  gets a page break before its middle section heading). Tables are laid out in columns, one text
  object per cell, the header row in bold with a rule under it.
- **pptx**: one slide per top-level section; the first slide holds the title and the text
  before the first section. Paragraphs are body paragraphs without bullets (`a:buNone`), list
  items bullet or numbered paragraphs.
- **epub**: EPUB 3, one XHTML chapter per top-level section (chapter 1: the title and the text
  before the first section), with a `nav.xhtml`; HTML structure kept, Markdown converted to the
  same elements. `59` has no sections, so it is one chapter.
- **eml**: the first message's From/To/Date/Subject become the headers (the date in RFC 5322
  form, in UK time as the thread's senders are in the UK; a list named without an address, as
  in `57`, becomes an empty group `Name:;`), plus a Message-ID and MIME-Version; the body is
  multipart/alternative: the whole rest of the thread exactly as in the source (quoted replies
  and their own From:/Date: lines included) as quoted-printable text/plain, and the same text
  as `<p>` paragraphs in text/html. `56` also carries a text attachment, `quote-summary.txt`
  (base64), holding one sentence of the thread word for word.

## What the converter does not keep

- PDF: bold and italic inside paragraphs (only headings, table header cells, `<th>` cells and
  cells bold throughout are in Helvetica-Bold); `<dl>` items are "Term: definition" lines;
  characters outside Windows-1252 would be replaced (none of the converted documents has any).
- PowerPoint: the slides are text and tables only; long sections rely on PowerPoint's
  autofit (`a:normAutofit`), no font scale is computed.
- All formats: links' targets, HTML attributes (classes, `<time datetime>`), and Markdown's
  line structure inside a paragraph (consecutive lines are joined; `Label: value` lines are
  paragraphs of their own). A Markdown table whose header row is empty (`| | |`, `37`) has no
  header row. Page chrome of an HTML page (`<header>` breadcrumb, `<footer>`) is kept as
  ordinary paragraphs.
- Spreadsheets: the CSV's text formatting of numbers is kept through number formats (`1.80`
  is stored as 1.8 with format `0.00`), not as text. A workbook's title property is its file
  name (a CSV has no title).
- Titles: an HTML page's `<title>` goes to the metadata (Word's and PowerPoint's `dc:title`,
  the PDF's `/Info /Title`, the EPUB's `dc:title`); its first `<h1>` is the visible title (the
  `Title` paragraph, the first slide's title, the PDF's title line and running header).
- E-mail: the first message's header lines exist only as headers, re-written in RFC 5322 form
  (`Mon, 3 Jun 2024, 09:12` -> `Mon, 03 Jun 2024 09:12:00 +0100`); the zone offset is not in
  the source, it is the UK's on that date. The HTML part has no quoting markup (`>` lines are
  paragraphs).
"""

WHY = {
    "xlsx": "tables (CSV) -> Excel workbooks",
    "ods": "tables (CSV) -> OpenDocument spreadsheets",
    "docx": "pages with headings, lists, tables, infoboxes and `<dl>` -> Word",
    "pdf": "pages with headings, lists, tables and infoboxes -> PDF",
    "pptx": "a recipe and minutes in sections -> PowerPoint",
    "epub": "a recipe, a history and a timeline in sections -> EPUB",
    "eml": "e-mail threads with quoted replies -> .eml",
}


def write_readme(path):
    order = ["xlsx", "ods", "docx", "pdf", "pptx", "epub", "eml"]
    rows = []
    for fmt in order:
        stems = sorted(s for s, f in PLAN.items() if f == fmt)
        rows.append("| %s | %s | %s |" % (fmt, ", ".join("`%s`" % s for s in stems), WHY[fmt]))
    frows = read_csv("71-corrowby-transit-yearly")
    col, exprs = find_formula(frows)
    example = "%s2: =%s" % (col_letter(col), exprs[0])
    text = (README.replace("{rows}", "\n".join(rows))
            .replace("{formula_col}", "%s, \"%s\"," % (col_letter(col), frows[0][col]))
            .replace("{formula_example}", example))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------

def convert():
    os.makedirs(OUT_DIR, exist_ok=True)
    written = []
    for stem in sorted(PLAN):
        fmt = PLAN[stem]
        path = os.path.join(OUT_DIR, stem + "." + fmt)
        if fmt == "xlsx":
            write_xlsx(stem, path)
        elif fmt == "ods":
            write_ods(stem, path)
        elif fmt == "eml":
            write_eml(stem, path)
        else:
            doc, _ = load_doc(stem)
            {"docx": write_docx, "pdf": write_pdf, "pptx": write_pptx, "epub": write_epub}[fmt](doc, path)
        written.append(path)
    readme = os.path.join(OUT_DIR, "README.md")
    write_readme(readme)
    written.append(readme)
    for p in written:
        print("%8d  %s" % (os.path.getsize(p), os.path.relpath(p, ROOT)))


# ---- checks ---------------------------------------------------------------------------------

def pdf_objects(data):
    """Check the xref table; return {object number: raw object bytes}."""
    sx = data.rindex(b"startxref")
    xref_at = int(data[sx + 9:].split()[0])
    assert data[xref_at:xref_at + 4] == b"xref", "startxref does not point at xref"
    lines = data[xref_at:].split(b"\n")
    first, count = map(int, lines[1].split())
    objs = {}
    for k in range(count):
        entry = lines[2 + k]
        assert len(entry) == 19 and entry[-2:] in (b"n ", b"f "), entry  # 20 bytes with "\n"
        off, gen, kind = entry.split()
        oid = first + k
        if kind == b"n":
            off = int(off)
            head = b"%d 0 obj" % oid
            assert data[off:off + len(head)] == head, "xref offset of object %d is wrong" % oid
            end = data.index(b"endobj", off)
            objs[oid] = data[off:end]
    return objs


def pdf_text(data):
    objs = pdf_objects(data)
    texts = []
    pages = 0
    for oid, raw in sorted(objs.items()):
        if b"/Type /Page " in raw or raw.rstrip().endswith(b"/Type /Page"):
            pages += 1
        m = re.search(rb"/Length (\d+)(.*?)>>\s*stream\r?\n", raw, re.S)
        if not m:
            continue
        start = m.end()
        body = raw[start:start + int(m.group(1))]
        if b"/FlateDecode" in m.group(2):
            body = zlib.decompress(body)
        texts.append(body)
    strings = []
    for body in texts:
        for sm in re.finditer(rb"\(((?:\\.|[^\\)])*)\)\s*Tj", body):
            s = re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), sm.group(1))
            s = re.sub(rb"\\(.)", rb"\1", s)
            strings.append(s.decode("cp1252"))
    info = re.search(rb"/Title (<[0-9A-F]+>|\((?:\\.|[^\\)])*\))", data)
    title = ""
    if info:
        v = info.group(1)
        title = bytes.fromhex(v[1:-1].decode()).decode("utf-16") if v.startswith(b"<") else v[1:-1].decode()
    return title, strings, pages, texts


def words(s):
    return set(re.findall(r"\w+", s.lower()))


def numbers(s):
    return set(n.lstrip("0") or "0" for n in re.findall(r"\d+", s))


def zip_xml_text(z):
    """All the text of every XML member, after parsing each (they must be well-formed)."""
    parts = []
    for name in z.namelist():
        data = z.read(name)
        if name.endswith((".xml", ".rels", ".xhtml", ".opf")) or name == "[Content_Types].xml":
            root = ET.fromstring(data)
            parts.extend(t for t in root.itertext())
    return " ".join(parts)


def check():
    problems = 0
    print("== well-formedness, text and numbers against the source")
    for stem in sorted(PLAN):
        fmt = PLAN[stem]
        path = os.path.join(OUT_DIR, stem + "." + fmt)
        notes = []
        if fmt == "pdf":
            data = open(path, "rb").read()
            title, strings, pages, streams = pdf_text(data)
            text = title + " " + " ".join(strings)
            footers = [s for s in strings if re.fullmatch(r"Page \d+ of \d+", s)]
            notes.append("%d pages, xref ok, footers %s" % (pages, ", ".join(footers)))
            if pages < 2:
                notes.append("FEWER THAN 2 PAGES")
                problems += 1
        elif fmt == "eml":
            from email import message_from_bytes
            raw = open(path, "rb").read()
            msg = message_from_bytes(raw, policy=email.policy.default)
            src = read_text(os.path.join(SOURCE_DIR, stem + ".txt"))
            plain_part = msg.get_body(preferencelist=("plain",)).get_content()
            html_part = msg.get_body(preferencelist=("html",)).get_content()
            rest = src.partition("\n\n")[2]
            same = plain_part.replace("\r\n", "\n") == rest
            notes.append("text/plain %s the source's body" % ("==" if same else "!="))
            if not same:
                problems += 1
            atts = [(p.get_filename(), p.get_content()) for p in msg.iter_attachments()]
            if atts:
                notes.append("attachment %s: %r" % atts[0])
            hdr = " ".join(str(msg[h]) for h in ("From", "To", "Date", "Subject"))
            notes.append("Date: %s" % msg["Date"])
            text = hdr + " " + plain_part + " " + " ".join(a for _, a in atts)
            # the HTML part must hold the same words as the text part
            html_body = html_part.split("<body>", 1)[1]
            hw = words(html.unescape(re.sub(r"<[^>]+>", " ", html_body)))
            if words(plain_part) - hw:
                notes.append("HTML part lacks %s" % sorted(words(plain_part) - hw))
                problems += 1
        else:
            with zipfile.ZipFile(path) as z:
                assert z.testzip() is None
                first = z.infolist()[0]
                if fmt in ("epub", "ods"):
                    assert first.filename == "mimetype" and first.compress_type == zipfile.ZIP_STORED
                text = zip_xml_text(z)
                notes.append("%d members parsed" % len(z.namelist()))
                if fmt in ("xlsx", "ods"):
                    bad, shown = check_sheet(z, fmt, stem)
                    text += " " + shown
                    notes.append("every CSV cell in place" if not bad else "CELL MISMATCHES %s" % bad)
                    problems += bool(bad)
        src_text = visible_text(stem)
        miss_n = sorted(numbers(src_text) - numbers(text), key=int)
        miss_w = sorted(words(src_text) - words(text))
        notes.append("numbers missing: %s" % (miss_n or "none"))
        notes.append("words missing: %s" % (miss_w or "none"))
        problems += bool(miss_n) + bool(miss_w)
        print("%-42s %s" % (stem + "." + fmt, "; ".join(notes)))
    print("== sha256")
    for name in sorted(os.listdir(OUT_DIR)):
        with open(os.path.join(OUT_DIR, name), "rb") as f:
            print(hashlib.sha256(f.read()).hexdigest(), name)
    print("problems: %d" % problems)
    return problems


def check_sheet(z, fmt, stem):
    """Every CSV cell, in its place, with its type and its text as shown; returns (mismatches,
    the shown text of the first sheet)."""
    rows = read_csv(stem)
    bad = []
    shown = []
    if fmt == "xlsx":
        ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
        sst = [("".join(si.itertext())) for si in
               ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", ns)]
        sheet = ET.fromstring(z.read("xl/worksheets/sheet1.xml"))
        cells = {}
        for c in sheet.iter("{%s}c" % ns["m"]):
            v = c.find("m:v", ns)
            val = v.text if v is not None else ""
            if c.get("t") == "s":
                val = ("s", sst[int(val)], sst[int(val)])
            else:  # the number as Excel shows it: General, 0.00 (style 2) or 0.0 (style 3)
                f = float(val)
                fmt_ = {"2": "%.2f", "3": "%.1f"}.get(c.get("s"))
                val = ("n", f, fmt_ % f if fmt_ else val)
            cells[c.get("r")] = val
            shown.append(val[2])
        for j, row in enumerate(rows):
            for k, s in enumerate(row):
                r = "%s%d" % (col_letter(k), j + 1)
                want = ("n", float(s), s) if j > 0 and is_number(s) else ("s", s, s)
                if s and cells.get(r) != want:
                    bad.append((r, s, cells.get(r)))
    else:
        tns = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
        ons = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
        root = ET.fromstring(z.read("content.xml"))
        trows = list(root.iter("{%s}table-row" % tns))
        for j, row in enumerate(rows):
            cells = trows[j].findall("{%s}table-cell" % tns)
            for k, s in enumerate(row):
                c = cells[k]
                text = "".join(c.itertext())
                shown.append(text)
                if j > 0 and is_number(s):
                    ok = (c.get("{%s}value-type" % ons) == "float"
                          and float(c.get("{%s}value" % ons)) == float(s) and text == s)
                else:
                    ok = c.get("{%s}value-type" % ons) == "string" and text == s
                if not ok:
                    bad.append((j, k, s, text))
    return bad, " ".join(shown)


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        sys.exit(1 if check() else 0)
    convert()

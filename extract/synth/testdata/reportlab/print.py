"""Print world statements with ReportLab (Debian's python3-reportlab).

Reads a JSON list of {"doc": ..., "out": path} on stdin (the layout of
extract/synth/worldprint.go's docJSON) and draws each document with
ReportLab's canvas: its own text layer, one text object a cell line.
"""
import json
import sys

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

registered = set()


def font(name, path):
    if name not in registered:
        pdfmetrics.registerFont(TTFont(name, path))
        registered.add(name)
    return name


def wrap(text, face, size, width):
    if pdfmetrics.stringWidth(text, face, size) <= width:
        return [text]
    out, cur = [], ""
    for word in text.split():
        trial = word if not cur else cur + " " + word
        if cur and pdfmetrics.stringWidth(trial, face, size) > width:
            out.append(cur)
            cur = word
        else:
            cur = trial
    out.append(cur)
    return out


def draw(doc, out):
    reg = font("w-" + doc["regular"], doc["regular"])
    bold = font("w-" + doc["bold"], doc["bold"])
    script = font("w-" + doc["script"], doc["script"]) if doc.get("script") else None
    size = doc["size"]
    page_w, page_h = A4
    margin, bottom = 15 * mm, page_h - 20 * mm
    lh = size * 1.45 * (1.6 if doc.get("web") else 1)
    width = page_w - 2 * margin
    xs = [margin]
    for w in doc["widths"]:
        xs.append(xs[-1] + w * width)
    c = canvas.Canvas(out, pagesize=A4, invariant=1)
    c.setTitle(doc["bank"])
    state = {"y": margin, "page": 1}

    def footer():
        c.setFont(reg, size - 1)
        c.drawCentredString(page_w / 2, 10 * mm, "%s %d" % (doc["pageWord"], state["page"]))

    def new_page():
        footer()
        c.showPage()
        state["y"] = margin
        state["page"] += 1

    def face_of(cell, line):
        if script and cell.get("script"):
            return script
        return bold if line.get("bold") else reg

    for line in doc["lines"]:
        state["y"] += line.get("gap", 0) * lh
        if line.get("pageBreak"):
            new_page()
            continue
        cells = line.get("cells") or []
        if not cells:
            continue
        s = size * (1.5 if line.get("title") else 1)
        wrapped = []
        for cell in cells:
            cw = xs[cell["col"] + cell["span"]] - xs[cell["col"]] - 2 * mm
            wrapped.append(wrap(cell["text"], face_of(cell, line), s, cw))
        h = max(len(w) for w in wrapped) * lh * s / size
        if state["y"] + h + lh > bottom:
            new_page()
        y = state["y"]
        if line.get("shade"):
            c.setFillGray(0.88)
            c.rect(xs[0], page_h - y - h, xs[-1] - xs[0], h, stroke=0, fill=1)
            c.setFillGray(0)
        if line.get("boxed"):
            for i in range(len(doc["widths"])):
                c.rect(xs[i], page_h - y - h, xs[i + 1] - xs[i], h, stroke=1, fill=0)
        for cell, lines in zip(cells, wrapped):
            f = face_of(cell, line)
            for k, text in enumerate(lines):
                base = page_h - (y + (k + 1) * lh * s / size - lh * 0.3)
                c.setFont(f, s)
                if cell.get("right"):
                    c.drawRightString(xs[cell["col"] + cell["span"]] - 1 * mm, base, text)
                else:
                    c.drawString(xs[cell["col"]] + 1 * mm, base, text)
        state["y"] = y + h
        if line.get("rule") and not doc.get("web"):
            c.setLineWidth(0.5)
            c.line(xs[0], page_h - state["y"], xs[-1], page_h - state["y"])
    footer()
    c.save()


def main():
    for job in json.load(sys.stdin):
        draw(job["doc"], job["out"])


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""tests/host/report_page_check.py — checks for tests/host/report_render.sh on
what headless Chromium made of eel-report's index.html (Debian's python3, no
other module).

  report_page_check.py dom DOM.html NAME,NAME,...
      the DOM Chromium dumped: one <figure id="plot-NAME"> per expected plot,
      each holding exactly one <svg> with a viewBox and drawn paths (at least
      5 with a non-empty d), no <script>, no external resource; prints counts.
  report_page_check.py png SHOT.png W H
      the screenshot: a PNG of W x H pixels that is not blank: enough
      non-white pixels, many colours, and pixels of the plots' own colours
      (the breakdown's wire purple, the red of the fits and markers).
Exit 0 when every check passes; each failure is printed.
"""
import html.parser
import struct
import sys
import zlib


class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack = []          # open elements: (tag, figure id or None)
        self.fig = {}            # figure id -> {"svg": n, "viewbox": n, "path": n}
        self.scripts = 0
        self.external = []

    def cur_fig(self):
        for tag, fid in reversed(self.stack):
            if fid:
                return fid
        return None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        fid = None
        if tag == "figure" and (a.get("id") or "").startswith("plot-"):
            fid = a["id"][5:]
            self.fig.setdefault(fid, {"svg": 0, "viewbox": 0, "path": 0})
        if tag == "script":
            self.scripts += 1
        for k in ("src", "href"):
            v = a.get(k) or ""
            if tag in ("img", "link", "script", "iframe", "object", "embed", "use", "image") and v and not v.startswith("#"):
                self.external.append(f"<{tag} {k}={v}>")
        f = self.cur_fig() or fid
        if f:
            if tag == "svg":
                self.fig[f]["svg"] += 1
                if a.get("viewbox") or a.get("viewBox"):
                    self.fig[f]["viewbox"] += 1
            if tag == "path" and (a.get("d") or "").strip():
                self.fig[f]["path"] += 1
        if tag not in ("path", "use", "rect", "circle", "line", "polyline", "polygon", "image", "meta", "br",
                       "img", "input", "link", "hr", "stop"):
            self.stack.append((tag, fid))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break


def check_dom(path, names):
    d = Dom()
    with open(path, encoding="utf-8", errors="replace") as f:
        d.feed(f.read())
    bad = 0
    for n in names:
        c = d.fig.get(n)
        if not c:
            print(f"FAILED: no <figure id=plot-{n}> in the DOM")
            bad += 1
            continue
        print(f"  plot {n}: {c['svg']} svg, viewBox {c['viewbox']}, {c['path']} drawn paths")
        if c["svg"] != 1 or c["viewbox"] != 1 or c["path"] < 5:
            print(f"FAILED: plot {n} wants one svg with a viewBox and at least 5 drawn paths")
            bad += 1
    extra = sorted(set(d.fig) - set(names))
    if extra:
        print(f"FAILED: figures not expected: {extra}")
        bad += 1
    if d.scripts:
        print(f"FAILED: {d.scripts} <script> in the page")
        bad += 1
    if d.external:
        print(f"FAILED: external resources: {d.external[:5]}")
        bad += 1
    return bad


def png_pixels(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG (bad signature)")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError(f"unexpected PNG format: depth {depth}, colour type {ctype}, interlace {interlace}")
            bpp = 3 if ctype == 2 else 4
        elif typ == b"IDAT":
            idat += body
        elif typ == b"IEND":
            break
        pos += 12 + n
    if w is None:
        raise ValueError("no IHDR")
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ft == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ft == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        elif ft != 0:
            raise ValueError(f"bad PNG filter {ft} on row {y}")
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def check_png(path, want_w, want_h):
    try:
        w, h, bpp, rows = png_pixels(path)
    except (ValueError, zlib.error, struct.error) as e:
        print(f"FAILED: {path}: {e}")
        return 1
    bad = 0
    if (w, h) != (want_w, want_h):
        print(f"FAILED: the screenshot is {w}x{h}, not {want_w}x{want_h}")
        bad += 1
    targets = {"wire purple": (148, 103, 189), "red": (214, 39, 40)}
    near = {k: 0 for k in targets}
    colours, ink = set(), 0
    for line in rows:
        for x in range(0, w * bpp, bpp):
            r, g, b = line[x], line[x + 1], line[x + 2]
            colours.add((r >> 3, g >> 3, b >> 3))
            if r < 235 or g < 235 or b < 235:
                ink += 1
            for k, (tr, tg, tb) in targets.items():
                if abs(r - tr) < 24 and abs(g - tg) < 24 and abs(b - tb) < 24:
                    near[k] += 1
    frac = ink / (w * h)
    print(f"  screenshot {w}x{h}: {frac:.1%} not white, {len(colours)} colours, "
          + ", ".join(f"{v} px of {k}" for k, v in near.items()))
    if frac < 0.03 or len(colours) < 40:
        print("FAILED: the screenshot is (nearly) blank")
        bad += 1
    for k, v in near.items():
        if v < 20:
            print(f"FAILED: no {k} pixels: the plots were not painted")
            bad += 1
    return bad


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "dom":
        return 1 if check_dom(sys.argv[2], [n for n in sys.argv[3].split(",") if n]) else 0
    if len(sys.argv) == 5 and sys.argv[1] == "png":
        return 1 if check_png(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])) else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())

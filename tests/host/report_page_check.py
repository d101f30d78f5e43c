#!/usr/bin/python3
# SPDX-License-Identifier: MIT
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
  report_page_check.py live PAGE.html NAME,NAME,...
      the page as a person sees it: headless Chromium loads it, driven over
      the DevTools protocol on a pipe (--remote-debugging-pipe: NUL-ended
      JSON messages on fds 3 and 4), and the page's own layout says, after
      the load event, that every plot loaded: one <figure id="plot-NAME"> per
      expected plot whose <svg> is laid out with a width and height, whose
      drawing has a non-empty bounding box (getBBox) and at least 5 paths
      with an extent of their own; every <img> complete
      with naturalWidth > 0; and nothing went wrong while it loaded: no
      console error, no uncaught exception, no failed load, no error in the
      browser's log.
  report_page_check.py first PAGE.html NWARN [FIGURE,...]
      the first screen, in document order: the warnings section (its NWARN
      warnings as list items, or "no warnings" and no item when NWARN is 0)
      comes before the headline table (EEL, o_s, o_r, g, G, L), which comes
      before the parameters section and before any plot; each FIGURE's
      headline row is flagged with a link to a warning.
Exit 0 when every check passes; each failure is printed.
"""
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
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


# What the page's own layout says about its plots and images, as JSON.
LIVE_PROBE = r"""
(() => {
  const figs = {};
  for (const f of document.querySelectorAll('figure[id^="plot-"]')) {
    const svgs = f.querySelectorAll('svg');
    const s = svgs[0];
    let box = null, bbox = null;
    if (s) {
      const r = s.getBoundingClientRect();
      box = [r.width, r.height];
      try { const b = s.getBBox(); bbox = [b.width, b.height]; } catch (e) { bbox = null; }
    }
    let drawn = 0;
    for (const p of f.querySelectorAll('svg path')) {
      const b = p.getBBox();
      if (b.width > 0 || b.height > 0) drawn++;
    }
    figs[f.id.slice(5)] = {svgs: svgs.length, box: box, bbox: bbox, drawn: drawn};
  }
  const imgs = [...document.images].map(i => ({src: i.getAttribute('src'), complete: i.complete,
                                              w: i.naturalWidth, h: i.naturalHeight}));
  return JSON.stringify({ready: document.readyState, figs: figs, imgs: imgs});
})()
"""


class Cdp:
    """Chromium's DevTools protocol over --remote-debugging-pipe: the browser
    reads commands on its fd 3 and writes replies and events on its fd 4."""

    def __init__(self, argv):
        self.cmd_r, self.cmd_w = os.pipe()
        self.ev_r, self.ev_w = os.pipe()
        self.prof = tempfile.mkdtemp(prefix="eel-chromium-")
        self.log = tempfile.TemporaryFile()

        def fds():
            os.dup2(self.cmd_r, 3)
            os.dup2(self.ev_w, 4)
        self.proc = subprocess.Popen(argv + [f"--user-data-dir={self.prof}"], stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=self.log, preexec_fn=fds, pass_fds=(3, 4))
        os.close(self.cmd_r)
        os.close(self.ev_w)
        self.buf, self.next_id, self.events = b"", 0, []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read(self, deadline):
        import select
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.ev_r], [], [], left)[0]:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self.ev_r, 65536)
            if not chunk:
                raise EOFError("chromium closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=60):
        want = self.send(method, params, session)
        deadline = time.monotonic() + timeout
        while True:
            m = self.read(deadline)
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, timeout=60):
        deadline = time.monotonic() + timeout
        for m in self.events:
            if m.get("method") == method:
                return m
        while True:
            m = self.read(deadline)
            self.events.append(m)
            if m.get("method") == method:
                return m

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        for fd in (self.cmd_w, self.ev_r):
            os.close(fd)
        shutil.rmtree(self.prof, ignore_errors=True)

    def stderr_tail(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace").splitlines()[-5:]


def problems_of(events):
    """Console errors, uncaught exceptions, failed loads and log errors among the events."""
    out = []
    for m in events:
        meth, p = m.get("method"), m.get("params", {})
        if meth == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            out.append(f"console.{p['type']}: {args}")
        elif meth == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            out.append(f"uncaught exception: {d.get('exception', {}).get('description') or d.get('text')}")
        elif meth == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            e = p["entry"]
            out.append(f"log error ({e.get('source')}): {e.get('text')} {e.get('url', '')}".rstrip())
        elif meth == "Network.loadingFailed" and not p.get("canceled"):
            out.append(f"load failed: {p.get('errorText')} ({p.get('type')})")
    return out


def check_live(page, names):
    url = "file://" + os.path.abspath(page)
    argv = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
            "--window-size=1280,2000", "--remote-debugging-pipe", "about:blank"]
    cdp = Cdp(argv)
    try:
        target = cdp.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        sess = cdp.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            cdp.call(f"{domain}.enable", session=sess)
        cdp.events.clear()   # only what this page does
        nav = cdp.call("Page.navigate", {"url": url}, session=sess)
        if nav.get("errorText"):
            print(f"FAILED: chromium could not open {url}: {nav['errorText']}")
            return 1
        cdp.wait_event("Page.loadEventFired")
        res = cdp.call("Runtime.evaluate", {"expression": LIVE_PROBE, "returnByValue": True}, session=sess)
        if "exceptionDetails" in res:
            print(f"FAILED: the probe threw: {res['exceptionDetails'].get('text')}")
            return 1
        seen = json.loads(res["result"]["value"])
        # events that arrived while the probe ran (late console errors) count too
        cdp.call("Runtime.evaluate", {"expression": "0"}, session=sess)
    except (TimeoutError, EOFError, RuntimeError, OSError, KeyError, ValueError) as e:
        print(f"FAILED: driving chromium: {e}")
        for line in cdp.stderr_tail():
            print(f"    | {line}")
        return 1
    finally:
        cdp.close()
    bad = 0
    for n in names:
        f = seen["figs"].get(n)
        if not f:
            print(f"FAILED: no <figure id=plot-{n}> on the rendered page")
            bad += 1
            continue
        box, bbox = f["box"] or [0, 0], f["bbox"] or [0, 0]
        print(f"  plot {n}: laid out {box[0]:.0f} x {box[1]:.0f} px, drawing {bbox[0]:.0f} x {bbox[1]:.0f}, "
              f"{f['drawn']} paths with an extent")
        if f["svgs"] != 1 or min(box) <= 0 or min(bbox) <= 0 or f["drawn"] < 5:
            print(f"FAILED: plot {n} did not load: {f['svgs']} svg, box {box}, drawing {bbox}, "
                  f"{f['drawn']} paths with an extent (want 5 or more)")
            bad += 1
    extra = sorted(set(seen["figs"]) - set(names))
    if extra:
        print(f"FAILED: figures not expected: {extra}")
        bad += 1
    for i in seen["imgs"]:
        if not i["complete"] or i["w"] <= 0:
            print(f"FAILED: an image did not load: {i['src']} (complete {i['complete']}, naturalWidth {i['w']})")
            bad += 1
    probs = problems_of(cdp.events)
    for p in probs:
        print(f"FAILED: {p}")
    bad += len(probs)
    print(f"  {len(seen['figs'])} plots, {len(seen['imgs'])} images, {len(probs)} console errors or failed loads")
    return bad


class Order(html.parser.HTMLParser):
    """Where things are in the page, in document order."""

    def __init__(self):
        super().__init__()
        self.pos = 0
        self.first = {}          # "section:ID", "figure", "svg" -> its first position
        self.warn_items = 0
        self.in_warnings = False
        self.text_warnings = ""
        self.row = None          # the headline row being read: [name, flagged]
        self.rows = {}
        self.in_headline = False
        self.cell = None

    def mark(self, what):
        self.pos += 1
        self.first.setdefault(what, self.pos)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.mark("section:" + (a.get("id") or ""))
            self.in_warnings = a.get("id") == "warnings"
            self.in_headline = a.get("id") == "headline"
        if tag == "figure" or tag == "svg":
            self.mark(tag)
        if tag == "li" and self.in_warnings:
            self.warn_items += 1
        if self.in_headline and tag == "tr":
            self.row = ["", False]
        if self.in_headline and tag == "th" and self.row is not None:
            self.cell = "th"
        if self.in_headline and tag == "a" and self.row is not None and (a.get("href") or "").startswith("#warning-"):
            self.row[1] = True

    def handle_endtag(self, tag):
        if tag == "section":
            self.in_warnings = self.in_headline = False
        if tag == "th":
            self.cell = None
        if tag == "tr" and self.row is not None:
            self.rows[self.row[0]] = self.row[1]
            self.row = None

    def handle_data(self, data):
        if self.in_warnings:
            self.text_warnings += data
        if self.cell == "th" and self.row is not None:
            self.row[0] += data.strip()


def check_first(path, nwarn, flagged):
    p = Order()
    p.feed(open(path, encoding="utf-8").read())
    p.rows = {k: v for k, v in p.rows.items() if not k.startswith("parameter")}
    bad = []
    f = p.first
    w, hl, par = f.get("section:warnings"), f.get("section:headline"), f.get("section:parameters")
    if w is None or hl is None:
        bad.append(f"no warnings section ({w}) or no headline section ({hl})")
    else:
        if not w < hl:
            bad.append("the warnings come after the headline table")
        for later in ("section:parameters", "section:nic", "figure", "svg"):
            if later in f and not hl < f[later]:
                bad.append(f"{later} comes before the headline table")
        if par is None:
            bad.append("no parameters section after the headline")
    if p.warn_items != nwarn:
        bad.append(f"the warnings section lists {p.warn_items} warnings, the run has {nwarn}")
    if nwarn == 0 and "no warnings" not in p.text_warnings:
        bad.append("a run without warnings does not say 'no warnings'")
    for name in ("EEL", "g"):
        if name not in p.rows:
            bad.append(f"the headline has no {name} row ({sorted(p.rows)})")
    for name in flagged:
        if not p.rows.get(name):
            bad.append(f"the headline's {name} row is not flagged with its warning")
    for name, fl in p.rows.items():
        # "EEL tail" is EEL's (its rounds): flagged with EEL
        if fl and name.split(" ")[0] not in flagged:
            bad.append(f"the headline's {name} row is flagged, no warning names it")
    for b in bad:
        print("FAILED: " + b)
    if not bad:
        print(f"ok: first screen: {nwarn} warnings, then the headline ({', '.join(p.rows)}), then the rest")
    return bad


def main():
    if len(sys.argv) in (4, 5) and sys.argv[1] == "first":
        flagged = [n for n in (sys.argv[4] if len(sys.argv) == 5 else "").split(",") if n]
        return 1 if check_first(sys.argv[2], int(sys.argv[3]), flagged) else 0
    if len(sys.argv) == 4 and sys.argv[1] == "live":
        return 1 if check_live(sys.argv[2], [n for n in sys.argv[3].split(",") if n]) else 0
    if len(sys.argv) == 4 and sys.argv[1] == "dom":
        return 1 if check_dom(sys.argv[2], [n for n in sys.argv[3].split(",") if n]) else 0
    if len(sys.argv) == 5 and sys.argv[1] == "png":
        return 1 if check_png(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])) else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())

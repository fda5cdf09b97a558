"""Measure server RSS (server process + all descendants) with 1, 11, 21 players' pages open.

Usage: python measure.py voila|solara [OUT.json]
Run with /work/main/.venv/bin/python (Playwright + psutil there). Chromium pages at 360x740,
each in its own browser context (a phone), all kept open; each waits for .gmkit-player-header.
"""
import json
import re
import statistics
import subprocess
import sys
import time
import urllib.request

import psutil
from playwright.sync_api import sync_playwright

WORK = "/tmp/spike-solara"
SERVERS = {
    "voila": dict(
        cmd=["/work/main/.venv/bin/gmkit", "players", f"{WORK}/demo.gmk", "--port", "8950", "--no-browser"],
        url_re=re.compile(r"gmkit players: serving (\S+)"),
    ),
    "solara": dict(
        cmd=[f"{WORK}/venv/bin/solara", "run", "app.py", "--port", "8951", "--host", "127.0.0.1", "--production"],
        url="http://127.0.0.1:8951/",
    ),
}
CHECKPOINTS = (1, 11, 21)
SELECTOR = ".gmkit-player-header"


def tree(pid):
    root = psutil.Process(pid)
    return [root] + root.children(recursive=True)


def rss_mb(pid):
    total = 0
    for p in tree(pid):
        try:
            total += p.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total / 2**20


def breakdown(pid):
    rows = []
    for p in tree(pid):
        try:
            rows.append((p.pid, " ".join(p.cmdline())[:90], round(p.memory_info().rss / 2**20, 1)))
        except psutil.NoSuchProcess:
            pass
    return rows


def settle(pid, window=3.0, tol=3.0, limit=90.0):
    """Wait (polling, not a fixed sleep) until the tree's process count and RSS stop moving."""
    start = time.time()
    last = (len(tree(pid)), rss_mb(pid))
    stable_since = time.time()
    while time.time() - start < limit:
        time.sleep(0.5)
        now = (len(tree(pid)), rss_mb(pid))
        if now[0] != last[0] or abs(now[1] - last[1]) > tol:
            last, stable_since = now, time.time()
        elif time.time() - stable_since >= window:
            return time.time() - start
    return None  # did not settle


def sample(pid, n=6, span=5.0):
    vals = []
    for i in range(n):
        vals.append(rss_mb(pid))
        if i < n - 1:
            time.sleep(span / (n - 1))
    return round(statistics.median(vals), 1), [round(v, 1) for v in vals]


def main():
    which = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else f"/work/notes/spike/{which}.json"
    spec = SERVERS[which]
    log = open(f"{WORK}/{which}-server.log", "w")
    server = subprocess.Popen(spec["cmd"], cwd=WORK, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, bufsize=1)
    result = {"server": which, "cmd": spec["cmd"], "server_pid": server.pid, "points": {}, "pages": []}
    url = spec.get("url")
    t0 = time.time()
    import threading

    lines = []

    def pump():
        for line in server.stdout:
            lines.append(line)
            log.write(line)
            log.flush()

    threading.Thread(target=pump, daemon=True).start()
    try:
        while url is None:  # Voila: the URL gmkit prints
            for line in list(lines):
                m = spec["url_re"].search(line)
                if m:
                    url = m.group(1)
            if server.poll() is not None:
                raise SystemExit(f"server exited: {''.join(lines)}")
            time.sleep(0.2)
        while True:  # the server answers
            try:
                urllib.request.urlopen(url, timeout=60).read()
                break
            except Exception:
                if server.poll() is not None:
                    raise SystemExit(f"server exited: {''.join(lines)}")
                time.sleep(0.5)
        result["url"] = url
        result["ready_s"] = round(time.time() - t0, 1)
        result["baseline_settle_s"] = settle(server.pid)
        result["baseline_mb"], result["baseline_samples"] = sample(server.pid)
        result["baseline_breakdown"] = breakdown(server.pid)
        print(f"[{which}] baseline {result['baseline_mb']} MB", flush=True)

        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            pages = []
            full = None
            for i in range(1, max(CHECKPOINTS) + 1):
                ctx = browser.new_context(viewport={"width": 360, "height": 740})
                page = ctx.new_page()
                errors = []
                page.on("pageerror", lambda e, errors=errors: errors.append(str(e)[:200]))
                t = time.time()
                resp = page.goto(url, timeout=120_000)
                status = resp.status if resp else None
                if status == 503:
                    full = full or i
                    text = page.inner_text("body")[:200].replace("\n", " ")
                    result["pages"].append({"i": i, "status": status, "full": True, "text": text})
                    print(f"[{which}] page {i}: 503 {text!r}", flush=True)
                    ctx.close()  # a refused page holds nothing; keep the open count honest
                    continue
                page.wait_for_selector(SELECTOR, timeout=120_000)
                pages.append((ctx, page))
                n = len(pages)
                rec = {"i": i, "open": n, "status": status, "ready_s": round(time.time() - t, 2),
                       "rss_now_mb": round(rss_mb(server.pid), 1), "errors": errors}
                result["pages"].append(rec)
                print(f"[{which}] page {i} ready in {rec['ready_s']} s, rss {rec['rss_now_mb']} MB", flush=True)
                if n in CHECKPOINTS:
                    st = settle(server.pid)
                    med, vals = sample(server.pid)
                    result["points"][n] = {"median_mb": med, "samples": vals, "settle_s": st,
                                           "procs": len(tree(server.pid))}
                    print(f"[{which}] {n} pages: median {med} MB {vals}", flush=True)
            result["first_full_page"] = full
            if full:  # measure at the cap too
                n = len(pages)
                st = settle(server.pid)
                med, vals = sample(server.pid)
                result["points"][f"{n} (cap)"] = {"median_mb": med, "samples": vals, "settle_s": st,
                                                  "procs": len(tree(server.pid))}
                print(f"[{which}] {n} pages (cap): median {med} MB", flush=True)
            result["final_breakdown"] = breakdown(server.pid)
            # still alive?
            alive = sum(1 for _, pg in pages if pg.query_selector(SELECTOR))
            result["headers_still_shown"] = alive
            for ctx, _ in pages:
                ctx.close()
            browser.close()
    finally:
        # stop the whole server tree we started, by pid
        procs = tree(server.pid) if server.poll() is None else []
        for pr in procs:
            try:
                pr.terminate()
            except psutil.NoSuchProcess:
                pass
        gone, alive = psutil.wait_procs(procs, timeout=15)
        for pr in alive:
            try:
                pr.kill()
            except psutil.NoSuchProcess:
                pass
        result["server_log_tail"] = "".join(lines[-40:])
        json.dump(result, open(out_path, "w"), indent=1, default=str)
        print(f"[{which}] wrote {out_path}", flush=True)


if __name__ == "__main__":
    main()

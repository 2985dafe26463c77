#!/usr/bin/env python3
"""Drives the discovery page of a running `runnect serve` in headless Chromium, as a runner
would, and reports what the page showed (run by the Swift test DiscoveryPageBrowserTests).

    page_check.py CHROMIUM CONFIG.json

CONFIG names the server's URL, a folder for screenshots (and one for downloads), axe-core's script
(axe.min.js from PyPI's axe-playwright-python), a runner's token line as `runnect serve token`
prints it, what to type, where to stand, which course to scrap, what to upload. Chromium speaks
the DevTools protocol over a pipe (no network port; the Browser class of chromium_downloads.py).

Prints one JSON object: what each step saw (card ids, status lines, counts, axe's violations,
bytes on the wire, timings). The assertions are the caller's, against the API's own answers.
Exits 1 with the reason when a step cannot happen at all (an element missing, a time limit).
"""
import base64
import json
import os
import signal
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ left in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_downloads import Browser  # noqa: E402

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

# Installed before the page's own script on every load: records Content-Security-Policy
# violations and uncaught errors, which the page must have none of.
WATCH = """
window.__pageCheck = { violations: [], errors: [] };
document.addEventListener("securitypolicyviolation", function (e) {
  window.__pageCheck.violations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
window.addEventListener("error", function (e) { window.__pageCheck.errors.push(String(e.message)); });
window.addEventListener("unhandledrejection", function (e) { window.__pageCheck.errors.push(String(e.reason)); });
"""


class Page:
    def __init__(self, browser, session, base):
        self.browser, self.session, self.base = browser, session, base

    def call(self, method, params=None):
        return self.browser.call(method, params, self.session)

    def js(self, expression, await_promise=False):
        reply = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                               "awaitPromise": await_promise})
        if "exceptionDetails" in reply:
            raise RuntimeError(f"script failed: {expression[:120]}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def wait(self, expression, what, seconds=20):
        deadline = time.time() + seconds
        while True:
            value = self.js(expression)
            if value:
                return value
            if time.time() > deadline:
                raise RuntimeError(f"waited {seconds} s for {what} ({expression[:160]})")
            time.sleep(0.05)

    def cards(self):
        return self.js("Array.from(document.querySelectorAll('#grid li.card')).map(c => Number(c.dataset.id))")

    def status(self):
        return self.js("document.getElementById('status').textContent")

    def wait_status(self, fragment, what):
        return self.wait(f"(function () {{ var s = document.getElementById('status').textContent;"
                         f" return s.indexOf({json.dumps(fragment)}) >= 0 && s; }})()", what)

    def click(self, selector):
        found = self.js(f"(function (e) {{ if (!e) return false; e.scrollIntoView({{block: 'center'}}); e.click();"
                        f" return true; }})(document.querySelector({json.dumps(selector)}))")
        if not found:
            raise RuntimeError(f"no element {selector}")

    def type_text(self, selector, pieces, pause=0.12):
        """Focuses `selector`, selects what it holds, and types each piece as one key event
        (Input.insertText: a syllable as an IME commits it)."""
        self.js(f"(function (e) {{ e.focus(); e.select(); }})(document.querySelector({json.dumps(selector)}))")
        for piece in pieces:
            self.call("Input.insertText", {"text": piece})
            time.sleep(pause)

    def key(self, key, code, keycode, text=None):
        """One key pressed and let go, as a keyboard sends it (with its text, Enter's "\r",
        which is what activates a focused button)."""
        down = {"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": keycode}
        if text:
            down.update({"text": text, "unmodifiedText": text})
        self.call("Input.dispatchKeyEvent", down)
        self.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code,
                                             "windowsVirtualKeyCode": keycode})

    def viewport(self, width, height, mobile):
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                         "deviceScaleFactor": 1, "mobile": mobile})

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
        return path

    def axe(self, source, state):
        if not self.js("typeof window.axe === 'object'"):
            self.js(source)
        result = self.js("axe.run(document, {runOnly: {type: 'tag', values: %s}})"
                         ".then(r => ({version: axe.version, passes: r.passes.length, incomplete: r.incomplete.length,"
                         " violations: r.violations.map(v => ({id: v.id, impact: v.impact, tags: v.tags, help: v.help,"
                         " nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary)}))}))"
                         % json.dumps(WCAG_TAGS), await_promise=True)
        result["state"] = state
        return result


def run(config):
    report = {"timings": {}, "axe": [], "screenshots": []}
    out = config["artifacts"]
    downloads = config.get("downloads") or os.path.join(out, "downloads")
    os.makedirs(downloads, exist_ok=True)
    with open(config["axe"], encoding="utf-8") as file:
        axe_source = file.read()
    base = config["url"].rstrip("/") + "/"
    browser = Browser(config["chromium"])
    started = time.time()

    def timed(name, since):
        report["timings"][name] = round(time.time() - since, 3)

    try:
        browser.call("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads,
                                                     "eventsEnabled": True})
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(browser, session, base)
        for domain in ("Page", "Runtime", "Network"):
            page.call(domain + ".enable")
        page.call("Network.setCacheDisabled", {"cacheDisabled": True})
        page.call("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
        page.viewport(1280, 900, False)

        # First load: the feed's first page, every preview of it loaded; bytes on the wire.
        since = time.time()
        browser.events.clear()
        page.call("Page.navigate", {"url": base})
        page.wait("document.querySelectorAll('#grid li.card').length > 0", "the feed's cards")
        page.js("window.scrollTo(0, document.body.scrollHeight)")
        page.wait("Array.from(document.images).length > 0 && Array.from(document.images)"
                  ".every(i => i.complete && i.naturalWidth > 0)", "every preview of the first page")
        time.sleep(0.3)
        finished, responses = {}, {}
        for _ in range(3):
            for message in list(browser.events):
                if message.get("method") == "Network.loadingFinished":
                    finished[message["params"]["requestId"]] = message["params"]["encodedDataLength"]
                elif message.get("method") == "Network.responseReceived":
                    params = message["params"]
                    responses[params["requestId"]] = (params["response"]["url"], params["response"]["status"],
                                                      params["type"])
            page.js("1")  # lets events still in the pipe arrive
        report["first_load"] = {
            "bytes": sum(finished.values()),
            "requests": sorted([{"url": responses.get(rid, ("?", 0, "?"))[0], "status": responses.get(rid, ("?", 0, "?"))[1],
                                 "type": responses.get(rid, ("?", 0, "?"))[2], "bytes": size}
                                for rid, size in finished.items()], key=lambda r: r["url"]),
            "images": page.js("document.images.length"),
        }
        page.js("window.scrollTo(0, 0)")
        report["feed"] = {"ids": page.cards(), "status": page.status(), "more": page.js("!document.getElementById('more').hidden")}
        timed("first_load", since)
        report["screenshots"].append(page.screenshot(os.path.join(out, "desktop-feed.png")))
        report["axe"].append(page.axe(axe_source, "desktop, visitor, feed"))

        # Keyboard: the skip link first, then the search box; focus is visible.
        page.js("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
        page.call("Page.navigate", {"url": base})
        page.wait("document.querySelectorAll('#grid li.card').length > 0", "the feed's cards again")
        tabbed = []
        for _ in range(4):
            page.key("Tab", "Tab", 9)
            tabbed.append(page.js("(function (e) { var s = getComputedStyle(e); return {id: e.id, tag: e.tagName,"
                                  " cls: e.className, outline: s.outlineStyle + ' ' + s.outlineWidth,"
                                  " shadow: s.boxShadow}; })(document.activeElement)"))
        report["keyboard"] = {"tabbed": tabbed}
        # Enter on the sort button "스크랩순" while it has the focus.
        page.js("document.querySelector('.sort button[data-sort=scrap]').focus()")
        page.key("Enter", "Enter", 13, "\r")
        page.wait_status("스크랩순", "the scrap order")
        report["scrap_order"] = {"ids": page.cards(), "status": page.status()}
        page.js("document.querySelector('.sort button[data-sort=date]').focus()")
        page.key("Enter", "Enter", 13, "\r")
        page.wait_status("최신순", "the date order")

        # Paging: 더 보기 adds the second page.
        since = time.time()
        first = len(page.cards())
        page.click("#more")
        page.wait(f"document.querySelectorAll('#grid li.card').length > {first}", "the second page")
        report["paging"] = {"ids": page.cards(), "status": page.status(),
                            "more": page.js("!document.getElementById('more').hidden")}
        timed("paging", since)

        # A Korean search typed one syllable at a time; the answer to the first syllable is held
        # back (Fetch) and let go after the full word's: it must not replace the newer cards.
        since = time.time()
        word = config["korean"]
        prefix = word[0]
        encoded = "".join("%%%02X" % b for b in prefix.encode("utf-8"))
        page.call("Fetch.enable", {"patterns": [{"urlPattern": "*public-course/search?keyword=" + encoded,
                                                 "requestStage": "Request"}]})
        page.type_text("#q", [prefix], pause=0)
        held = browser.event("Fetch.requestPaused", time.time() + 10)
        for syllable in word[1:]:
            page.js("(function (e) { e.focus(); var n = e.value.length; e.setSelectionRange(n, n); })"
                    "(document.getElementById('q'))")
            page.call("Input.insertText", {"text": syllable})
            time.sleep(0.12)
        page.wait_status("“%s” 검색 결과" % word, "the results of " + word)
        before, before_status = page.cards(), page.status()
        page.call("Fetch.continueRequest", {"requestId": held["requestId"]})
        time.sleep(0.8)
        page.call("Fetch.disable")
        report["korean"] = {"typed": list(word), "held_url": held["request"]["url"], "ids": before,
                            "status": before_status, "ids_after_late_answer": page.cards(),
                            "status_after_late_answer": page.status(),
                            "value": page.js("document.getElementById('q').value")}
        timed("korean_search", since)
        report["screenshots"].append(page.screenshot(os.path.join(out, "desktop-search-korean.png")))

        # 초성 and English, typed a letter at a time as well.
        for key, text in (("initials", config["initials"]), ("english", config["english"])):
            since = time.time()
            page.type_text("#q", list(text))
            page.wait_status("“%s” 검색 결과" % text, "the results of " + text)
            report[key] = {"typed": text, "ids": page.cards(), "status": page.status()}
            timed(key + "_search", since)
        report["screenshots"].append(page.screenshot(os.path.join(out, "desktop-search-initials.png")))

        # Near me: the browser's location (granted, set), then a typed "lat,lon", then a name.
        since = time.time()
        lat, lon = config["location"]
        origin = base.rstrip("/")
        browser.call("Browser.grantPermissions", {"origin": origin, "permissions": ["geolocation"]})
        page.call("Emulation.setGeolocationOverride", {"latitude": lat, "longitude": lon, "accuracy": 10})
        page.click("#near-me")
        page.wait_status("내 위치에서", "near my location")
        report["near_me"] = {"ids": page.cards(), "status": page.status(),
                             "distances": page.js("Array.from(document.querySelectorAll('#grid .near-distance'))"
                                                  ".map(e => e.textContent)")}
        timed("near_me", since)
        report["screenshots"].append(page.screenshot(os.path.join(out, "desktop-near-me.png")))
        page.type_text("#near-place", ["%s,%s" % tuple(config["typed_location"])], pause=0)
        page.click("#near-form button[type=submit]")
        page.wait_status("%.4f" % config["typed_location"][0], "near the typed location")
        report["near_typed"] = {"ids": page.cards(), "status": page.status()}
        page.type_text("#near-place", [config["departure_name"]], pause=0)
        page.click("#near-form button[type=submit]")
        page.wait_status("출발점에서", "near the departure " + config["departure_name"])
        report["near_departure"] = {"ids": page.cards(), "status": page.status()}
        page.click("#show-all")
        page.wait_status("공유된 코스", "the feed again")

        # A visitor's ranking: sign-in needed.
        course = config["scrap_course"]
        card = "#grid li.card[data-id='%d']" % course
        page.wait(f"!!document.querySelector({json.dumps(card)})", "the course to scrap on the first page")
        page.click(card + " details.ranking summary")
        report["visitor_ranking"] = page.wait(f"document.querySelector({json.dumps(card + ' .board')}).textContent",
                                              "the visitor's ranking message")
        report["links"] = page.js("Array.from(document.querySelectorAll('#grid li.card a.download'))"
                                  ".map(a => a.getAttribute('href'))")

        # A download of the course's GPX, clicked as a runner would.
        if config.get("download"):
            since = time.time()
            browser.events[:] = [e for e in browser.events if not e.get("method", "").startswith("Browser.download")]
            page.click(card + " a.download.gpx")
            deadline = time.time() + 30
            begun = browser.event("Browser.downloadWillBegin", deadline)
            while True:
                progress = browser.event("Browser.downloadProgress", deadline)
                if progress["guid"] != begun["guid"]:
                    continue
                if progress["state"] in ("completed", "canceled"):
                    break
            report["download"] = {"url": begun["url"], "state": progress["state"],
                                  "file": progress.get("filePath") or os.path.join(downloads, begun["suggestedFilename"]),
                                  "suggested": begun["suggestedFilename"]}
            timed("download", since)

        # Signing in: the line `runnect serve token` printed, pasted into the token field.
        since = time.time()
        page.click("details.signin summary")
        report["axe"].append(page.axe(axe_source, "desktop, visitor, sign-in form open"))
        page.type_text("#access-token", [config["token_line"]], pause=0)
        page.click("#signin-form button[type=submit]")
        page.wait("!document.getElementById('signed-in').hidden && document.getElementById('runner-name').textContent",
                  "signed in")
        page.wait(f"!!document.querySelector({json.dumps(card + ' button.scrap')})", "the scrap buttons")
        report["signed_in"] = {
            "who": page.js("document.getElementById('runner-name').textContent"),
            "session_keys": page.js("Object.keys(sessionStorage)"),
            "local_keys": page.js("Object.keys(localStorage)"),
            "cookie": page.js("document.cookie"),
            "token_fields": page.js("[document.getElementById('access-token').value,"
                                    " document.getElementById('refresh-token').value]"),
        }
        timed("sign_in", since)

        # A scrap by the signed-in runner.
        since = time.time()
        count = card + " li.scraps"
        before = page.js(f"document.querySelector({json.dumps(count)}).textContent")
        page.click(card + " button.scrap")
        page.wait(f"document.querySelector({json.dumps(card + ' button.scrap')}).getAttribute('aria-pressed') === 'true'"
                  f" && !document.querySelector({json.dumps(card + ' button.scrap')}).disabled", "the scrap")
        report["scrap"] = {"before": before, "after": page.js(f"document.querySelector({json.dumps(count)}).textContent"),
                           "pressed": page.js(f"document.querySelector({json.dumps(card + ' button.scrap')})"
                                              ".getAttribute('aria-pressed')"),
                           "status": page.status()}
        timed("scrap", since)

        # The ranking, signed in.
        page.js(f"document.querySelector({json.dumps(card + ' details.ranking')}).open = false")
        page.click(card + " details.ranking summary")
        report["ranking"] = page.wait(
            f"(function (b) {{ var t = b.textContent; return t && t.indexOf('불러오는') < 0 && t; }})"
            f"(document.querySelector({json.dumps(card + ' .board')}))", "the ranking")
        report["ranking_items"] = page.js(f"Array.from(document.querySelectorAll({json.dumps(card + ' .board li')}))"
                                          ".map(e => e.textContent)")
        page.js(f"document.querySelector({json.dumps(card)}).scrollIntoView({{block: 'center'}})")
        report["screenshots"].append(page.screenshot(os.path.join(out, "desktop-scrap-and-ranking.png")))

        # A watch file uploaded from the page.
        page.click("details.upload summary")
        report["axe"].append(page.axe(axe_source, "desktop, signed in, ranking and upload form open"))
        report["screenshots"].append(page.screenshot(os.path.join(out, "desktop-signed-in.png")))
        if config.get("upload"):
            since = time.time()
            uploads = []
            for number, path in enumerate(config["upload"], start=1):
                handle = page.call("Runtime.evaluate", {"expression": "document.getElementById('upload-file')"})
                page.call("DOM.enable")
                page.call("DOM.setFileInputFiles", {"files": [path], "objectId": handle["result"]["objectId"]})
                page.js("document.getElementById('upload-result').textContent = ''")
                page.click("#upload-form button[type=submit]")
                uploads.append(page.wait("(function (t) { return t && t.indexOf('올리는 중') < 0 && t; })"
                                         "(document.getElementById('upload-result').textContent)", "the upload's answer"))
                page.js("document.getElementById('upload-result').scrollIntoView({block: 'center'})")
                report["screenshots"].append(page.screenshot(os.path.join(out, "desktop-upload-%d.png" % number)))
            report["upload"] = uploads
            timed("upload", since)

        # A phone's width: one column, no sideways scrolling, still accessible.
        page.viewport(390, 844, True)
        page.call("Page.navigate", {"url": base})
        page.wait("document.querySelectorAll('#grid li.card').length > 0", "the feed on a phone")
        page.wait("Array.from(document.images).slice(0, 2).every(i => i.complete)", "the first previews")
        report["phone"] = page.js("""(function () {
            var cards = Array.from(document.querySelectorAll('#grid li.card'));
            return {scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
                    columns: new Set(cards.map(c => Math.round(c.getBoundingClientRect().left))).size,
                    widest: Math.max.apply(null, Array.from(document.querySelectorAll('body *'))
                        .map(e => Math.round(e.getBoundingClientRect().right)))};
        })()""")
        report["screenshots"].append(page.screenshot(os.path.join(out, "phone-top.png")))
        page.js("document.getElementById('courses').scrollIntoView()")
        time.sleep(0.3)
        report["screenshots"].append(page.screenshot(os.path.join(out, "phone-courses.png")))
        report["axe"].append(page.axe(axe_source, "phone, signed in, feed"))

        # Signing out clears the tab's storage.
        page.click("#signout")
        page.wait("document.getElementById('signed-in').hidden", "signed out")
        page.wait("document.querySelectorAll('#grid li.card').length > 0 &&"
                  " document.querySelectorAll('button.scrap').length === 0", "the cards without scrap buttons")
        report["signed_out"] = {"session_keys": page.js("Object.keys(sessionStorage)"),
                                "scrap_buttons": page.js("document.querySelectorAll('button.scrap').length")}
        page.click("details.signin summary")
        report["screenshots"].append(page.screenshot(os.path.join(out, "phone-sign-in.png")))
        report["axe"].append(page.axe(axe_source, "phone, visitor, sign-in form open"))

        report["page_check"] = page.js("window.__pageCheck")
        report["exceptions"] = [m["params"]["exceptionDetails"].get("text", "") + " " +
                                str(m["params"]["exceptionDetails"].get("exception", {}).get("description", ""))
                                for m in browser.events if m.get("method") == "Runtime.exceptionThrown"]
        report["timings"]["total"] = round(time.time() - started, 3)
        return report
    finally:
        browser.close()


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    with open(sys.argv[2], encoding="utf-8") as file:
        config = json.load(file)
    config["chromium"] = sys.argv[1]
    limit = int(config.get("time_limit_seconds", 240))

    def too_long(signum, frame):
        raise RuntimeError(f"the whole check took more than {limit} s")

    signal.signal(signal.SIGALRM, too_long)
    signal.alarm(limit)
    try:
        report = run(config)
    except RuntimeError as error:
        print(f"page_check: FAIL: {error}", file=sys.stderr)
        sys.exit(1)
    finally:
        signal.alarm(0)
    print(json.dumps(report, ensure_ascii=False))


if __name__ == "__main__":
    main()

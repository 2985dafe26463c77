#!/usr/bin/env python3
"""Clicks links in a page in headless Chromium and saves what they download (run by the Swift
browser tests of the discovery index).

    chromium_downloads.py CHROMIUM URL OUTDIR SELECTOR...

Starts CHROMIUM headless with a temporary profile, speaking the DevTools protocol over a pipe
(--remote-debugging-pipe: file descriptors 3 and 4, no network port), lets downloads go to
OUTDIR, opens URL, waits for the first SELECTOR to exist (the page builds its cards by script),
then clicks each SELECTOR in turn as a user would (element.click()) and waits for its download
to complete. Prints one JSON object per click: {"selector", "url", "file"}. Exits 1 with the
reason when an element is missing or a download does not complete within 30 s.
"""
import json
import os
import select
import signal
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="runnect-chromium-")
        commands_read, commands_write = os.pipe()
        replies_read, replies_write = os.pipe()

        def pipes_as_3_and_4():
            # Copies first: the pipes' own numbers may be 3 or 4, and they are close-on-exec.
            commands, replies = os.dup(commands_read), os.dup(replies_write)
            os.dup2(commands, 3)
            os.dup2(replies, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--user-data-dir=" + self.profile, "--remote-debugging-pipe", "about:blank"],
            close_fds=False, preexec_fn=pipes_as_3_and_4, start_new_session=True,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self.commands = os.fdopen(commands_write, "wb", buffering=0)
        self.replies = os.fdopen(replies_read, "rb", buffering=0)
        self.pending = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.commands.write(json.dumps(message).encode() + b"\0")
        return self.next_id

    def receive(self, deadline=None):
        while b"\0" not in self.pending:
            wait = None if deadline is None else max(deadline - time.time(), 0)
            if not select.select([self.replies], [], [], wait)[0]:
                raise RuntimeError("chromium sent nothing before the time limit")
            chunk = self.replies.read(65536)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.pending += chunk
        message, self.pending = self.pending.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None):
        wanted = self.send(method, params, session)
        while True:
            message = self.receive()
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def event(self, method, deadline):
        while time.time() < deadline:
            for index, message in enumerate(self.events):
                if message.get("method") == method:
                    return self.events.pop(index)["params"]
            self.events.append(self.receive(deadline))
        raise RuntimeError(f"no {method} before the time limit")

    def close(self):
        # The whole process group: Chromium's helpers outlive its main process and wrote into the
        # profile after it was removed, leaving a runnect-chromium-* folder behind.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    chromium, url, outdir, selectors = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    browser = Browser(chromium)
    try:
        browser.call("Browser.setDownloadBehavior",
                     {"behavior": "allow", "downloadPath": outdir, "eventsEnabled": True})
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.call("Page.navigate", {"url": url}, session)
        deadline = time.time() + 30
        query = json.dumps(selectors[0])
        while not browser.call("Runtime.evaluate", {"expression": f"!!document.querySelector({query})",
                                                    "returnByValue": True}, session)["result"].get("value"):
            if time.time() > deadline:
                raise RuntimeError(f"no element {selectors[0]} in {url}")
            time.sleep(0.1)
        for selector in selectors:
            found = browser.call("Runtime.evaluate", {
                "expression": f"(function (e) {{ if (!e) return false; e.click(); return true; }})"
                              f"(document.querySelector({json.dumps(selector)}))",
                "returnByValue": True}, session)["result"].get("value")
            if not found:
                raise RuntimeError(f"no element {selector}")
            deadline = time.time() + 30
            begun = browser.event("Browser.downloadWillBegin", deadline)
            while True:
                progress = browser.event("Browser.downloadProgress", deadline)
                if progress["guid"] != begun["guid"]:
                    continue
                if progress["state"] == "completed":
                    break
                if progress["state"] == "canceled":
                    raise RuntimeError(f"the download of {begun['url']} was canceled")
            print(json.dumps({"selector": selector, "url": begun["url"],
                              "file": progress.get("filePath") or os.path.join(outdir, begun["suggestedFilename"])}))
    except RuntimeError as error:
        print(f"chromium_downloads: FAIL: {error}", file=sys.stderr)
        sys.exit(1)
    finally:
        browser.close()


if __name__ == "__main__":
    main()

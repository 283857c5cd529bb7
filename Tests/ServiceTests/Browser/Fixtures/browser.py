"""Headless Chromium through Selenium, for the browser tests: one place that starts the browser
with nothing enabled that would talk to the outside world, and a tiny static origin on another
loopback address that plays "a page on another origin"."""

import http.server
import json
import sys
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chromium(width=1200, height=900, console=False):
    """Headless Chromium; with `console`, what pages log is kept (`driver.get_log("browser")`)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for flag in [
        "--headless=new",
        "--no-sandbox",  # the tests run as root
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={width},{height}",
        # Nothing but the pages we open may cause traffic.
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-sync",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-features=OptimizationHints,MediaRouter,Translate,AutofillServerCommunication",
        "--dns-prefetch-disable",
    ]:
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.set_script_timeout(60)
    driver.set_page_load_timeout(60)
    return driver


class StaticOrigin:
    """Serves `files` ({path: (content type, bytes)}) on `host`:`port` (0: the system's choice)."""

    def __init__(self, host, files, port=0):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                entry = files.get(self.path.split("?")[0])
                if entry is None:
                    self.send_error(404)
                    return
                kind, body = entry
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer((host, port), Handler)
        self.url = f"http://{host}:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


def emit(result):
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")

"""A public redirect to an allowed LAN host, at every fetching entry point of `artwork serve`.

Runs inside a network namespace whose one interface is `lo` (the Swift test makes it), with
11.22.33.44 added to `lo` to stand in for a public host: nothing leaves the namespace.

- the LAN host: 127.0.0.2, named in ARTWORK_PRIVATE_SOURCES, serves a PNG and counts requests;
- the redirector: 11.22.33.44 (public), answers every path with a 302 or 307 to the LAN host;
- the service: the built binary, on 127.0.0.1.

Every entry point is sent the redirector's URL: POST /v1/artwork, /v1/thumbhash, /v1/content,
/v1/check, and the webhook bodies of Overseerr, Radarr, Sonarr and Jellyfin. Prints one JSON
object: each answer's status and what it said, and how many requests the LAN host saw.

usage: private_redirect.py ARTWORK_BINARY REPOSITORY_ROOT
"""

import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

BINARY, ROOT = sys.argv[1], sys.argv[2]
PUBLIC, LAN = "11.22.33.44", "127.0.0.2"
PNG = open(os.path.join(ROOT, "testimages", "grey-alpha.png"), "rb").read()
lan_requests = []


class Quiet(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass


class LanHost(Quiet):
    def do_GET(self):
        lan_requests.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(PNG)))
        self.end_headers()
        self.wfile.write(PNG)


class Redirector(Quiet):
    def do_GET(self):
        status = 307 if self.path.startswith("/307") else 302
        self.send_response(status)
        self.send_header("Location", f"http://{LAN}:{lan_port}/poster.png")
        self.send_header("Content-Length", "0")
        self.end_headers()


def serve(address, handler):
    server = http.server.ThreadingHTTPServer((address, 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def request(method, path, body=None, content_type="application/json"):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    headers = {} if data is None else {"Content-Type": content_type}
    req = urllib.request.Request(f"http://127.0.0.1:{service_port}{path}", data, headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as answer:
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def fixture(application, name, base):
    text = open(os.path.join(ROOT, "Tests", "TestSupport", "ProviderFixtures", application, name)).read()
    for placeholder in ("{{TMDB}}", "{{TVDB}}", "{{SERVER}}"):
        text = text.replace(placeholder, base)
    return text.encode()


lan_port = serve(LAN, LanHost)
public_port = serve(PUBLIC, Redirector)
with socket.socket() as probe:  # a free port for the service (nothing else runs here)
    probe.bind(("127.0.0.1", 0))
    service_port = probe.getsockname()[1]
storage = tempfile.mkdtemp()
environment = dict(
    os.environ,
    ARTWORK_LISTEN=f"127.0.0.1:{service_port}",
    ARTWORK_STORAGE=storage,
    ARTWORK_PRIVATE_SOURCES=f"{LAN},jellyfin.lan",
    ARTWORK_LOG_LEVEL="error",
)
service = subprocess.Popen([BINARY, "serve"], env=environment, stdout=subprocess.DEVNULL)
try:
    for _ in range(300):
        try:
            if request("GET", "/healthz")[0] == 200:
                break
        except OSError:
            time.sleep(0.1)
    answers = {}
    for status in (302, 307):
        redirect = f"http://{PUBLIC}:{public_port}/{status}/poster.jpg"
        base = f"http://{PUBLIC}:{public_port}/{status}"
        cases = {
            "artwork": ("POST", "/v1/artwork", {"url": redirect, "size": 64}),
            "thumbhash": ("POST", "/v1/thumbhash", {"url": redirect}),
            "content": ("POST", "/v1/content", {"content": {"image_url": redirect, "image_shape": "poster"}}),
            "check": ("POST", "/v1/check", {"url": redirect}),
            "overseerr": ("POST", "/v1/providers/overseerr", fixture("overseerr", "media-available-movie.json", base)),
            "radarr": ("POST", "/v1/providers/radarr", fixture("radarr", "download.json", base)),
            "sonarr": ("POST", "/v1/providers/sonarr", fixture("sonarr", "download.json", base)),
            "jellyfin": ("POST", f"/v1/providers/jellyfin?server={base}", fixture("jellyfin", "item-added-movie.json", base)),
        }
        for name, (method, path, body) in cases.items():
            code, headers, text = request(method, path, body)
            answers[f"{name}-{status}"] = {
                "status": code,
                "artwork_status": headers.get("Artwork-Status"),
                "body": text[:600],
            }
    # The control: named by the caller, the LAN host is fetched.
    code, _, text = request("POST", "/v1/artwork", {"url": f"http://{LAN}:{lan_port}/named.png", "size": 64})
    answers["named"] = {"status": code, "body": text[:300]}
    print(json.dumps({"answers": answers, "lan_requests": lan_requests}))
finally:
    service.terminate()
    service.wait(timeout=30)

#!/usr/bin/env python3
"""A hostile-ish origin for the fetcher tests. Loopback only, stdlib only.

Listens on 127.0.0.1 (http, and https when --cert/--key are given), on ::1 when the host has
IPv6 loopback, and on a separate control port that the tests read counters from. Prints one
JSON line with the ports, then serves until stdin closes (the test process went away).

Counters: accepted connections per listener (a refused connect never reaches accept) and
requests per path, both readable at GET /counts on the control port, with requests per full
target and conditional (If-None-Match) requests per target. The control port also changes the
version /mutable.png serves (GET /mutable?version=N) and releases requests held on /held.png
(GET /release). /file?path=P serves the file P a test wrote.
"""
import argparse, base64, gzip, json, socket, ssl, struct, sys, threading, time, zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs

LOCK = threading.Lock()
ACCEPTS = {}
REQUESTS = {}
# Requests per full target (path and query), and conditional requests (If-None-Match) per target.
TARGETS = {}
CONDITIONALS = {}
# /mutable.png serves version MUTABLE["version"]; the control port's /mutable?version=N changes it.
MUTABLE = {"version": 1}
# /held.png answers only once the control port's /release is asked (or after 60 s).
RELEASE = threading.Event()


def png(width=4, height=3):
    """A small valid RGB PNG, built here rather than read from disk."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    raw = b"".join(b"\x00" + b"".join(bytes((x * 60 % 256, y * 80 % 256, 200)) for x in range(width)) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


PNG = png()
# A 6x4 baseline JPEG made with `vips black` for these tests.
JPEG = base64.b64decode("/9j/4QC8RXhpZgAASUkqAAgAAAAGABIBAwABAAAAAQAAABoBBQABAAAAVgAAABsBBQABAAAAXgAAACgBAwABAAAAAgAAABMCAwABAAAAAQAAAGmHBAABAAAAZgAAAAAAAAA4YwAA6AMAADhjAADoAwAABgAAkAcABAAAADAyMTABkQcABAAAAAECAwAAoAcABAAAADAxMDABoAMAAQAAAP//AAACoAQAAQAAAAYAAAADoAQAAQAAAAQAAAAAAAAA/9sAQwAIBgYHBgUIBwcHCQkICgwUDQwLCwwZEhMPFB0aHx4dGhwcICQuJyAiLCMcHCg3KSwwMTQ0NB8nOT04MjwuMzQy/9sAQwEJCQkMCwwYDQ0YMiEcITIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIy/8AAEQgABAAGAwEiAAIRAQMRAf/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/EAB8BAAMBAQEBAQEBAQEAAAAAAAABAgMEBQYHCAkKC//EALURAAIBAgQEAwQHBQQEAAECdwABAgMRBAUhMQYSQVEHYXETIjKBCBRCkaGxwQkjM1LwFWJy0QoWJDThJfEXGBkaJicoKSo1Njc4OTpDREVGR0hJSlNUVVZXWFlaY2RlZmdoaWpzdHV2d3h5eoKDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uLj5OXm5+jp6vLz9PX29/j5+v/aAAwDAQACEQMRAD8A+f6KKKAP/9k=")


class Origin(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        if isinstance(self.request, ssl.SSLSocket):
            self.request.do_handshake()

    def send_bytes(self, body, content_type="image/png", status=200, extra=()):
        self.send_response(status)
        if content_type is not None:
            self.send_header("Content-Type", content_type)
        for name, value in extra:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def redirect(self, location, status=302):
        self.send_response(status)
        if location is not None:
            self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        url = urlsplit(self.path)
        path, query = url.path, parse_qs(url.query)
        with LOCK:
            REQUESTS[path] = REQUESTS.get(path, 0) + 1
            TARGETS[self.path] = TARGETS.get(self.path, 0) + 1
            if self.headers.get("If-None-Match") is not None:
                CONDITIONALS[self.path] = CONDITIONALS.get(self.path, 0) + 1
        try:
            self.route(path, query)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            self.close_connection = True

    def route(self, path, query):
        if path.startswith("/u/"):
            # /u/{anything}/rest: the same as /rest, so each test's URLs are its own.
            path = "/" + path.split("/", 3)[3] if path.count("/") >= 3 else "/"
        if self.artwork_host(path):
            return None
        if path == "/image.png":
            return self.send_bytes(PNG)
        if path == "/image.jpg":
            return self.send_bytes(JPEG, "image/jpeg")
        if path == "/file":  # a file the test wrote, as ?path=...&type=...
            with open(query["path"][0], "rb") as file:
                return self.send_bytes(file.read(), query.get("type", ["image/jpeg"])[0])
        if path.startswith("/redirect/"):
            left = int(path.rsplit("/", 1)[1])
            return self.redirect(f"/redirect/{left - 1}") if left > 0 else self.send_bytes(PNG)
        if path == "/loop/a":
            return self.redirect("/loop/b")
        if path == "/loop/b":
            return self.redirect("/loop/a")
        if path == "/self":
            return self.redirect("/self", 301)
        if path == "/same":  # back to exactly this URL, query included
            return self.redirect(self.path)
        if path == "/to":
            return self.redirect(query["url"][0], int(query.get("status", ["302"])[0]))
        if path == "/relative":
            return self.redirect("image.png", 307)
        if path == "/no-location":
            return self.redirect(None)
        if path == "/chunked-big":
            return self.chunked(int(query.get("size", ["3000000"])[0]))
        if path == "/declared-huge":
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", "50000000")
            self.end_headers()
            self.wfile.write(PNG)
            self.close_connection = True
            return
        if path == "/close-delimited":
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Connection", "close")
            self.end_headers()
            self.write_zeros(int(query.get("size", ["3000000"])[0]))
            self.close_connection = True
            return
        if path == "/lying-short":
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(PNG)))
            self.end_headers()
            self.wfile.write(PNG)
            self.write_zeros(3000000)
            self.close_connection = True
            return
        if path == "/trickle":
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            for _ in range(600):
                self.wfile.write(b"\x00")
                self.wfile.flush()
                time.sleep(0.1)
            self.close_connection = True
            return
        if path == "/many-headers":
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            for index in range(5000):
                self.send_header(f"X-Filler-{index}", "x" * 40)
            self.send_header("Content-Length", str(len(PNG)))
            self.end_headers()
            self.wfile.write(PNG)
            return
        if path == "/html":
            return self.send_bytes(b"<!doctype html><title>not an image</title>", "text/html; charset=utf-8")
        if path == "/no-type":
            return self.send_bytes(PNG, None)
        if path == "/octet":
            return self.send_bytes(PNG, "application/octet-stream")
        if path == "/image-params":
            return self.send_bytes(PNG, "IMAGE/PNG; charset=binary")
        if path == "/gzip":
            return self.send_bytes(gzip.compress(PNG), "image/png", extra=[("Content-Encoding", "gzip")])
        if path.startswith("/status/"):
            return self.send_bytes(b"status body", "text/plain", int(path.rsplit("/", 1)[1]))
        if path == "/etag.png":
            tag = '"v1"'
            modified = "Wed, 21 Oct 2015 07:28:00 GMT"
            if self.headers.get("If-None-Match") == tag:
                self.send_response(304)
                self.send_header("ETag", tag)
                self.end_headers()
                return
            return self.send_bytes(PNG, extra=[("ETag", tag), ("Last-Modified", modified)])
        if path == "/mutable.png":
            with LOCK:
                version = MUTABLE["version"]
            tag = f'"m{version}"'
            if self.headers.get("If-None-Match") == tag:
                self.send_response(304)
                self.send_header("ETag", tag)
                self.end_headers()
                return
            return self.send_bytes(png(4 + version, 3), extra=[("ETag", tag)])
        if path == "/slow.jpg":
            # A media server under load: the JPEG after ?delay= seconds (default 2), and at once
            # to the first ?fast= requests for this target (default none).
            with LOCK:
                seen = TARGETS[self.path]
            if seen > int(query.get("fast", ["0"])[0]):
                time.sleep(float(query.get("delay", ["2"])[0]))
            return self.send_bytes(JPEG, "image/jpeg")
        if path == "/recovering.jpg":
            # A media server coming back: 503 to the first ?fail= requests for this target
            # (default 1), then the JPEG.
            with LOCK:
                seen = TARGETS[self.path]
            if seen <= int(query.get("fail", ["1"])[0]):
                return self.send_bytes(b"down for maintenance", "text/plain", 503)
            return self.send_bytes(JPEG, "image/jpeg")
        if path == "/held.png":
            RELEASE.wait(60)
            return self.send_bytes(PNG)
        if path == "/garbage.png":
            return self.send_bytes(b"not an image in any format " * 10, "image/png")
        if path == "/broken.jpg":
            return self.send_bytes(b"\xff\xd8\xff<html>not a picture</html>", "image/jpeg")
        if path.startswith("/flaky/"):
            # An S3 store having a bad moment: /flaky/N/... answers 500 InternalError to the
            # first N requests for the path, then 200 "ok".
            failures = int(path.split("/")[2])
            with LOCK:
                seen = REQUESTS[path]
            if seen <= failures:
                body = b"<Error><Code>InternalError</Code><Message>try again</Message></Error>"
                return self.send_bytes(body, "application/xml", 500)
            return self.send_bytes(b"ok", "application/octet-stream")
        if path == "/headers":
            seen = {k.lower(): v for k, v in self.headers.items()}
            return self.send_bytes(json.dumps(seen).encode(), "image/x-json-echo")
        return self.send_bytes(b"not found", "text/plain", 404)

    def artwork_host(self, path):
        """Stand-ins for the hosts webhook bodies point at: TheTVDB (/banners/...), TMDB
        (/t/p/{size}/...: `original` is over 2 MB, the unlisted w600_and_h900_bestv2 size is a
        404 for files named missing-*), Lidarr's covers (/lidarr/...) and a Jellyfin or Emby
        server (/Items/{id}/Images/Primary). True when it answered."""
        parts = path.split("/")
        if path.startswith("/banners/") or path.startswith("/lidarr/"):
            self.send_bytes(JPEG, "image/jpeg")
        elif path.startswith("/t/p/original/"):
            self.send_bytes(JPEG + b"\x00" * 2500000, "image/jpeg")
        elif path.startswith("/t/p/w600_and_h900_bestv2/") and parts[-1].startswith("missing-"):
            self.send_bytes(b"<html>404</html>", "text/html", 404)
        elif path.startswith("/t/p/w") and not parts[-1].startswith("gone-"):
            self.send_bytes(JPEG, "image/jpeg")
        elif len(parts) == 5 and parts[1] == "Items" and parts[3:] == ["Images", "Primary"]:
            self.send_bytes(JPEG, "image/jpeg")
        elif path.startswith("/t/p/"):
            self.send_bytes(b"not found", "text/plain", 404)
        else:
            return False
        return True

    def chunked(self, size):
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        block = b"\x00" * 65536
        sent = 0
        while sent < size:
            piece = block[: min(len(block), size - sent)]
            self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
            sent += len(piece)
        self.wfile.write(b"0\r\n\r\n")

    def write_zeros(self, size):
        block = b"\x00" * 65536
        while size > 0:
            self.wfile.write(block[: min(size, len(block))])
            size -= len(block)


class Control(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if url.path == "/mutable":
            with LOCK:
                MUTABLE["version"] = int(query["version"][0])
        if url.path == "/release":
            RELEASE.set()
        with LOCK:
            body = json.dumps({
                "accepts": ACCEPTS, "requests": REQUESTS, "targets": TARGETS,
                "conditionals": CONDITIONALS,
            }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def server(name, family, host, handler, context=None):
    class Server(ThreadingHTTPServer):
        address_family = family
        daemon_threads = True

        def get_request(self):
            sock, address = self.socket.accept()
            with LOCK:
                ACCEPTS[name] = ACCEPTS.get(name, 0) + 1
            if context is not None:
                # The handshake happens in the handler's thread (setup), never in accept's.
                sock = context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False)
            return sock, address

    made = Server((host, 0), handler)
    with LOCK:
        ACCEPTS.setdefault(name, 0)
    threading.Thread(target=made.serve_forever, daemon=True).start()
    return made.server_address[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--extra", help="also serve plain http on this address (isolated netns only)")
    args = parser.parse_args()
    ports = {"http": server("http", socket.AF_INET, "127.0.0.1", Origin)}
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
        ports["https"] = server("https", socket.AF_INET, "127.0.0.1", Origin, context)
    try:
        ports["http6"] = server("http6", socket.AF_INET6, "::1", Origin)
    except OSError:
        ports["http6"] = None
    if args.extra:
        family = socket.AF_INET6 if ":" in args.extra else socket.AF_INET
        ports["extra"] = server("extra", family, args.extra, Origin)
    ports["control"] = server("control", socket.AF_INET, "127.0.0.1", Control)
    print(json.dumps(ports), flush=True)
    sys.stdin.read()  # until the test process closes the pipe or exits


if __name__ == "__main__":
    main()

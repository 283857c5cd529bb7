#!/usr/bin/env python3
"""Cheap attacks on admission, as an attacker with many loopback addresses makes them, and what
the victim (another /24) gets meanwhile: the share of its requests answered as it wanted, and
their median time.

Each scenario starts a fresh `artwork serve` (release build, defaults: workers = cores, queue
16, fetch threads 16) and, where it fetches, an origin on 127.0.2.1. The attackers are on
127.0.0.0/24 (the silent-socket scenario also on three /24s), the victim on 127.0.1.1.

  heavy       100 addresses upload a 6000x6000 progressive JPEG (about 1 MB) back to back;
              the victim uploads (201), creates from URLs (201) and asks /v1/content with
              Prefer: wait=3 (Artwork-Status: ready)
  trickle     30 addresses send 1.9 MB upload bodies at 20 KB/s; the victim uploads
  slow-urls   100 addresses create artwork from URLs whose origin trickles them over 7 s; the
              victim asks /v1/content with wait=3 and creates from URLs
  silent      471 connections that send nothing, from 3 addresses (one /24), at nofile 1024
              (512 connections); the relay's token uploads, then (no tokens) an anonymous
              caller's from another /24
  silent-3    the same from 3 addresses on three /24s
  heavy-v6, trickle-v6, silent-v6
              heavy, trickle and silent-3 over IPv6: the attackers on ULA /64s (fd00:a::/64,
              and fd00:c::, fd00:d:: for the silent sockets), the victim on fd00:b::/64
  proxy       a proxy on the same host (Caddy, plain HTTP) with the service's defaults: one
              client sends 36 wrong tokens through it, then the relay's valid token uploads

Usage: attacks.py ARTWORK_BINARY [SCENARIO ...]   (all scenarios when none is named)
Prints one JSON object per scenario and victim phase, then a Markdown table.
Run it in a network namespace with only loopback (bench/admission/run.sh does).
"""
import http.client
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ORIGIN = "127.0.2.1"
TOKEN = "relay-token-0123456789abcdef"
COFFEE = open(os.path.join(ROOT, "testimages", "coffee.jpg"), "rb").read()


class Net:
    """Where the service listens, the victim's address and the attackers' networks: IPv4 on
    127.0.0.0/8, or IPv6 on ULA /64s routed to loopback (`local` routes, set up by `v6`)."""

    def __init__(self, host, victim, attacker_networks):
        self.host, self.victim, self.attacker_networks = host, victim, attacker_networks

    def attackers(self, count, networks=1):
        """`count` addresses, spread over `networks` of the attackers' networks."""
        nets = self.attacker_networks[:networks]
        if ":" in self.host:
            return [f"{nets[i % networks]}{2 + i // networks:x}" for i in range(count)]
        return [f"{nets[i % networks]}.{2 + i // networks}" for i in range(count)]

    def url_host(self):
        return f"[{self.host}]" if ":" in self.host else self.host


V4 = Net("127.0.0.1", "127.0.1.1", ["127.0.0", "127.0.3", "127.0.4", "127.0.5"])
V6 = Net("::1", "fd00:b::1", ["fd00:a::", "fd00:c::", "fd00:d::"])
NET = V4


def v6(scenario):
    """`scenario` over IPv6: the attackers on fd00:a::/64, the victim on fd00:b::/64, each a
    `local` route on lo, and any address in them bound (`ip_nonlocal_bind`). Only inside a
    network namespace whose one interface is loopback (the routes would be the host's
    otherwise)."""
    def run(binary):
        global NET
        if [name for _, name in socket.if_nameindex()] != ["lo"]:
            raise RuntimeError("the IPv6 scenarios run only in a namespace with loopback alone")
        for block in ("fd00:a::/64", "fd00:b::/64", "fd00:c::/64", "fd00:d::/64"):
            subprocess.run(["ip", "-6", "route", "replace", "local", block, "dev", "lo"],
                           check=True)
        # IPv6 binds only addresses on an interface, unless this (per namespace) says so.
        with open("/proc/sys/net/ipv6/ip_nonlocal_bind", "w") as f:
            f.write("1")
        NET = V6
        try:
            phases, attack = scenario(binary)
        finally:
            NET = V4
        for phase in phases:
            phase.scenario += "-v6"
        return phases, attack
    return run


def attacker_addresses(count, networks=1):
    return NET.attackers(count, networks)


class Origin:
    """Image sources: /image.jpg?... answers coffee.jpg at once; /slow.jpg?...&delay=S trickles
    it over S seconds."""

    def __init__(self):
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                delay = 0.0
                if "delay=" in self.path:
                    delay = float(self.path.split("delay=")[1].split("&")[0])
                self.send_response(200)
                self.send_header("Content-Type", "image/jpeg")
                self.send_header("Content-Length", str(len(COFFEE)))
                self.end_headers()
                try:
                    if delay <= 0:
                        self.wfile.write(COFFEE)
                        return
                    pieces = 20
                    step = (len(COFFEE) + pieces - 1) // pieces
                    for i in range(pieces):
                        self.wfile.write(COFFEE[i * step:(i + 1) * step])
                        self.wfile.flush()
                        time.sleep(delay / pieces)
                except OSError:
                    pass

        self.server = ThreadingHTTPServer((ORIGIN, 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path):
        return f"http://{ORIGIN}:{self.port}{path}"

    def stop(self):
        self.server.shutdown()


class Service:
    def __init__(self, binary, env, nofile=None):
        self.dir = tempfile.mkdtemp(prefix="artwork-attack-")
        self.port = free_port()
        full = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "ARTWORK_LISTEN": f"{NET.url_host()}:{self.port}",
            "ARTWORK_PUBLIC_URL": f"http://{NET.url_host()}:{self.port}",
            "ARTWORK_STORAGE": os.path.join(self.dir, "data"),
            "ARTWORK_LOG_LEVEL": "error",
            "ARTWORK_SHUTDOWN_GRACE": "1s",
        }
        full.update(env)
        command = [binary, "serve"]
        if nofile:
            command = ["prlimit", f"--nofile={nofile}:{nofile}", "--"] + command
        self.log = open(os.path.join(self.dir, "service.log"), "wb")
        self.process = subprocess.Popen(command, env=full, stderr=self.log, stdout=self.log)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if request(self.port, "GET", "/healthz")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the service did not start: " + open(self.log.name).read()[-2000:])

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def free_port():
    """A port free on loopback a moment ago, drawn from 23000-29999: below the kernel's ephemeral
    range (32768 up), so none of the thousands of client sockets an attack opens takes it
    before the server binds it (a port from bind(0) once went to one, and caddy could not
    listen), and clear of the test harness's SeaweedFS ports (20000-22767, 30000-32767)."""
    draw = random.SystemRandom()
    for _ in range(200):
        port = draw.randint(23000, 29999)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 23000-29999")


def request(port, method, path, body=None, headers=None, source=None, timeout=70, host=None):
    """One request on a connection of its own from `source` (the victim's address unless
    given): (status, headers, body, seconds)."""
    started = time.monotonic()
    connection = http.client.HTTPConnection(host or NET.host, port, timeout=timeout,
                                            source_address=(source or NET.victim, 0))
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return response.status, dict(response.getheaders()), data, time.monotonic() - started
    finally:
        connection.close()


def upload_headers(token=None):
    headers = {"Content-Type": "image/jpeg"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return headers


def json_headers(token=None, wait=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if wait:
        headers["Prefer"] = f"wait={wait}"
    return headers


class Phase:
    """What the victim got in one phase: good answers, all answers, median seconds."""

    def __init__(self, scenario, name):
        self.scenario, self.name = scenario, name
        self.good, self.statuses, self.seconds = 0, {}, []
        self.first_bad = None

    def add(self, good, status, seconds, body=b""):
        self.good += 1 if good else 0
        self.statuses[status] = self.statuses.get(status, 0) + 1
        self.seconds.append(seconds)
        if not good and self.first_bad is None:
            self.first_bad = f"{status} {body[:300].decode('utf-8', 'replace')}"

    def result(self):
        total = sum(self.statuses.values())
        return {
            "scenario": self.scenario, "phase": self.name, "good": self.good, "total": total,
            "rate": self.good / total if total else 0.0,
            "median_s": statistics.median(self.seconds) if self.seconds else None,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items(), key=str)},
            "first_bad": self.first_bad,
        }


def victim_uploads(scenario, port, count, token=None, source=None, name="uploads"):
    phase = Phase(scenario, name)
    for _ in range(count):
        body = b""
        try:
            status, _, body, seconds = request(
                port, "POST", "/v1/artwork?shape=poster&size=400", COFFEE,
                upload_headers(token), source=source)
        except OSError as error:
            status, seconds = f"error {type(error).__name__}", 0.0
        phase.add(status == 201, status, seconds, body)
    return phase


def victim_url_creates(scenario, port, origin, count, token=None, tag="u"):
    phase = Phase(scenario, "URL creates")
    for i in range(count):
        body = json.dumps({"url": origin.url(f"/image.jpg?{tag}={i}-{time.time_ns()}")})
        answer = b""
        try:
            status, _, answer, seconds = request(
                port, "POST", "/v1/artwork?shape=poster&size=400", body, json_headers(token))
        except OSError as error:
            status, seconds = f"error {type(error).__name__}", 0.0
        phase.add(status == 201, status, seconds, answer)
    return phase


def victim_contents(scenario, port, origin, count, token=None):
    phase = Phase(scenario, "content wait=3 ready")
    for i in range(count):
        body = json.dumps({"image_url": origin.url(f"/image.jpg?c={i}-{time.time_ns()}")})
        answer = b""
        try:
            status, headers, answer, seconds = request(
                port, "POST", "/v1/content?size=400", body, json_headers(token, wait=3))
            ready = status == 200 and headers.get("Artwork-Status") == "ready"
            if not ready:
                answer = f"Artwork-Status: {headers.get('Artwork-Status')} ".encode() + answer
        except OSError as error:
            status, ready, seconds = f"error {type(error).__name__}", False, 0.0
        phase.add(ready, status, seconds, answer)
    return phase


class Attack:
    """Threads that run `body(address, stop)` until stopped, one per address."""

    def __init__(self, addresses, body):
        self.stop = threading.Event()
        self.counts = {}
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, args=(a, body), daemon=True)
                        for a in addresses]
        for thread in self.threads:
            thread.start()

    def run(self, address, body):
        while not self.stop.is_set():
            try:
                outcome = body(address, self.stop)
            except OSError as error:
                outcome = type(error).__name__
                time.sleep(0.05)
            with self.lock:
                self.counts[outcome] = self.counts.get(outcome, 0) + 1

    def end(self):
        """Stops the attack and answers what the attackers got. Threads still inside a slow
        request are left to end with the service (they are daemons)."""
        self.stop.set()
        deadline = time.monotonic() + 2
        for thread in self.threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
        with self.lock:
            return {str(k): v for k, v in self.counts.items()}


def heavy_upload(port, heavy):
    def body(address, stop):
        return request(port, "POST", "/v1/artwork?shape=poster&size=400", heavy,
                       upload_headers(), source=address)[0]
    return body


def scenario_heavy(binary):
    heavy = make_heavy()
    origin = Origin()
    service = Service(binary, {"ARTWORK_PRIVATE_SOURCES": ORIGIN})
    try:
        attack = Attack(attacker_addresses(100), heavy_upload(service.port, heavy))
        time.sleep(3)
        phases = [victim_uploads("heavy", service.port, 40),
                  victim_url_creates("heavy", service.port, origin, 20),
                  victim_contents("heavy", service.port, origin, 20)]
        return phases, attack.end()
    finally:
        service.stop()
        origin.stop()


def scenario_trickle(binary):
    service = Service(binary, {})

    def body(address, stop):
        s = socket.create_connection((NET.host, service.port), timeout=120,
                                     source_address=(address, 0))
        try:
            length = 1_900_000
            s.sendall(f"POST /v1/artwork?shape=poster HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      f"Content-Type: image/jpeg\r\nContent-Length: {length}\r\n\r\n".encode())
            sent = 0
            piece = COFFEE[:2000]
            while sent < length and not stop.is_set():
                s.sendall(piece[:min(2000, length - sent)])
                sent += 2000
                time.sleep(0.1)
            s.settimeout(5)
            answer = s.recv(100)
            return answer.split(b" ")[1].decode() if answer else "closed"
        finally:
            s.close()

    try:
        attack = Attack(attacker_addresses(30), body)
        time.sleep(3)
        phases = [victim_uploads("trickle", service.port, 46)]
        return phases, attack.end()
    finally:
        service.stop()


def scenario_slow_urls(binary):
    origin = Origin()
    service = Service(binary, {"ARTWORK_PRIVATE_SOURCES": ORIGIN})
    counter = [0]
    lock = threading.Lock()

    def body(address, stop):
        with lock:
            counter[0] += 1
            n = counter[0]
        url = origin.url(f"/slow.jpg?s={n}-{time.time_ns()}&delay=7")
        return request(service.port, "POST", "/v1/artwork?shape=poster&size=400",
                       json.dumps({"url": url}), json_headers(), source=address)[0]

    try:
        attack = Attack(attacker_addresses(100), body)
        time.sleep(3)
        phases = [victim_contents("slow-urls", service.port, origin, 22),
                  victim_url_creates("slow-urls", service.port, origin, 22)]
        return phases, attack.end()
    finally:
        service.stop()
        origin.stop()


def silent_attack(port, addresses, per_address):
    """Holds `per_address` connections from each address that send nothing, reopening each one
    the service closes."""
    def body(address, stop):
        sockets = []
        try:
            while not stop.is_set():
                while len(sockets) < per_address and not stop.is_set():
                    try:
                        sockets.append(socket.create_connection(
                            (NET.host, port), timeout=5, source_address=(address, 0)))
                    except OSError:
                        time.sleep(0.05)
                        break
                alive = []
                for s in sockets:
                    s.setblocking(False)
                    try:
                        gone = s.recv(1, socket.MSG_PEEK) == b""
                    except BlockingIOError:
                        gone = False
                    except OSError:
                        gone = True
                    if gone:
                        s.close()
                    else:
                        alive.append(s)
                sockets = alive
                time.sleep(0.2)
        finally:
            for s in sockets:
                s.close()
        return "held"
    return body


def scenario_silent(binary, networks):
    name = "silent" if networks == 1 else "silent-3"
    phases = []
    attacks = {}
    for label, env, token in (
            ("relay token uploads", {"ARTWORK_API_TOKENS": f"relay:{TOKEN}"}, TOKEN),
            ("anonymous uploads", {}, None)):
        service = Service(binary, env, nofile=1024)
        try:
            attack = Attack(attacker_addresses(3, networks),
                            silent_attack(service.port, None, 157))
            time.sleep(4)
            phase = victim_uploads(name, service.port, 46, token=token, name=label)
            phases.append(phase)
            attacks[label] = attack.end()
        finally:
            service.stop()
    return phases, attacks


def scenario_proxy(binary):
    """Caddy on the same host in front, once with the service's defaults and once trusting no
    proxy: one client's 36 wrong tokens, then the relay's valid one from another /24 and from
    the same /24 as that client."""
    caddy = os.environ.get("CADDY") or shutil.which("caddy")
    if not caddy:
        raise RuntimeError("caddy is not installed (scripts/deploy-tools)")
    phases, attacks = [], {}
    for label, extra in (("defaults", {}), ("trusting none", {"ARTWORK_TRUSTED_PROXIES": "none"})):
        env = {"ARTWORK_API_TOKENS": f"relay:{TOKEN}", "ARTWORK_API_RATE": "30"}
        env.update(extra)
        try:
            service = Service(binary, env)
        except RuntimeError:
            # A build from before `none` trusted nobody when the variable was unset.
            env.pop("ARTWORK_TRUSTED_PROXIES", None)
            service = Service(binary, env)
        home = tempfile.mkdtemp(prefix="artwork-proxy-")
        proxy_port = free_port()
        with open(os.path.join(home, "Caddyfile"), "w") as f:
            # default_bind: the site's address names the host it answers for, not where caddy
            # listens, which is every interface without it.
            f.write("{\n\tadmin off\n\tauto_https off\n\tdefault_bind 127.0.0.1\n}\n"
                    f"http://127.0.0.1:{proxy_port} {{\n"
                    f"\treverse_proxy 127.0.0.1:{service.port}\n}}\n")
        proxy = subprocess.Popen(
            [caddy, "run", "--config", os.path.join(home, "Caddyfile"), "--adapter", "caddyfile"],
            env={"HOME": home, "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home,
                 "PATH": os.environ.get("PATH", "")},
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(home, "caddy.log"), "w"))
        try:
            deadline = time.time() + 60
            while True:
                try:
                    if request(proxy_port, "GET", "/healthz", host="127.0.0.1")[0] == 200:
                        break
                except OSError:
                    pass
                if time.time() > deadline or proxy.poll() is not None:
                    with open(os.path.join(home, "caddy.log")) as log:
                        raise RuntimeError("caddy did not proxy /healthz: " + log.read()[-3000:])
                time.sleep(0.1)
            wrong = {}
            for _ in range(36):
                status = request(proxy_port, "POST", "/v1/artwork", COFFEE,
                                 upload_headers("wrong-token-0123456789abcdef"),
                                 source="127.0.0.9", host="127.0.0.1")[0]
                wrong[str(status)] = wrong.get(str(status), 0) + 1
            attacks[label] = {"wrong tokens": wrong}
            phases.append(victim_uploads("proxy", proxy_port, 10, token=TOKEN,
                                         name=f"{label}: relay from another /24"))
            phases.append(victim_uploads("proxy", proxy_port, 10, token=TOKEN,
                                         source="127.0.0.10",
                                         name=f"{label}: relay from the same /24"))
        finally:
            proxy.terminate()
            proxy.wait()
            service.stop()
            shutil.rmtree(home, ignore_errors=True)
    return phases, attacks


def make_heavy():
    """A 6000x6000 progressive JPEG of about 1 MB (libvips, from testimages/photo-large.jpg)."""
    out = os.path.join(ROOT, "bench", "out", "heavy-6000.jpg")
    if not os.path.exists(out):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        scratch = tempfile.mkdtemp()
        big = os.path.join(scratch, "big.v")
        subprocess.run(["vips", "resize", os.path.join(ROOT, "testimages", "photo-large.jpg"),
                        big, "3.0", "--vscale", "3.45"], check=True)
        subprocess.run(["vips", "crop", big, out + "[Q=35,interlace,strip]", "0", "0", "6000",
                        "6000"], check=True)
        shutil.rmtree(scratch)
    return open(out, "rb").read()


SCENARIOS = {
    "heavy": scenario_heavy,
    "trickle": scenario_trickle,
    "slow-urls": scenario_slow_urls,
    "silent": lambda binary: scenario_silent(binary, 1),
    "silent-3": lambda binary: scenario_silent(binary, 3),
    "heavy-v6": v6(scenario_heavy),
    "trickle-v6": v6(scenario_trickle),
    "silent-v6": v6(lambda binary: scenario_silent(binary, 3)),
    "proxy": scenario_proxy,
}


def main():
    if len(sys.argv) < 2 or any(name not in SCENARIOS for name in sys.argv[2:]):
        sys.exit("usage: attacks.py ARTWORK_BINARY [SCENARIO ...], scenarios: "
                 + " ".join(SCENARIOS))
    binary = sys.argv[1]
    names = sys.argv[2:] or list(SCENARIOS)
    rows = []
    for name in names:
        phases, attack = SCENARIOS[name](binary)
        for phase in phases:
            result = phase.result()
            result["attack"] = attack
            print(json.dumps(result), flush=True)
            rows.append(result)
    print()
    print("| attack | victim's requests | good | median |")
    print("| --- | --- | ---: | ---: |")
    for r in rows:
        median = f"{r['median_s']:.2f} s" if r["median_s"] is not None else "-"
        print(f"| {r['scenario']} | {r['phase']} | {r['good']}/{r['total']} "
              f"({100 * r['rate']:.0f}%) | {median} |")


main()

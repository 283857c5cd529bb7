"""Stalled uploads through a TLS proxy, and what they cost it in memory.

Opens CONNECTIONS TLS connections to 127.0.0.1:PORT (trusting CAFILE, as `localhost`), sends on
each an upload head that declares DECLARED bytes and SEND bytes of its body, then stalls with
every connection open. Meanwhile it samples the resident memory of the process PID (the proxy)
from /proc, and prints one JSON object: the memory before, at its peak while the bodies went
out and for two seconds after, and the bytes sent.
Usage: stalled_uploads.py --port P --cafile F --pid PID --connections N --declared B --send B
"""
import argparse
import json
import socket
import ssl
import threading
import time


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def main():
    parser = argparse.ArgumentParser()
    for name in ("--port", "--pid", "--connections", "--declared", "--send"):
        parser.add_argument(name, type=int, required=True)
    parser.add_argument("--cafile", required=True)
    args = parser.parse_args()
    context = ssl.create_default_context(cafile=args.cafile)
    before = rss_mb(args.pid)
    held, sent, errors = [], [0], []
    lock = threading.Lock()

    def stranger():
        try:
            raw = socket.create_connection(("127.0.0.1", args.port), timeout=60)
            tls = context.wrap_socket(raw, server_hostname="localhost")
            tls.sendall(("POST /v1/artwork HTTP/1.1\r\nHost: localhost\r\n"
                         "Content-Type: image/jpeg\r\n"
                         f"Content-Length: {args.declared}\r\n\r\n").encode())
            chunk = bytes(64 * 1024)
            left = args.send
            while left > 0:
                piece = chunk[:min(left, len(chunk))]
                tls.sendall(piece)
                left -= len(piece)
            with lock:
                sent[0] += args.send
                held.append(tls)
        except OSError as error:
            with lock:
                errors.append(repr(error))

    threads = [threading.Thread(target=stranger) for _ in range(args.connections)]
    for thread in threads:
        thread.start()
    peak = before
    while any(thread.is_alive() for thread in threads):
        peak = max(peak, rss_mb(args.pid))
        time.sleep(0.1)
    # Stalled: what the proxy holds for them now.
    for _ in range(20):
        peak = max(peak, rss_mb(args.pid))
        time.sleep(0.1)
    print(json.dumps({"rss_before_mb": before, "rss_peak_mb": peak, "sent_bytes": sent[0],
                      "connections_held": len(held), "errors": errors}))
    for tls in held:
        tls.close()


main()

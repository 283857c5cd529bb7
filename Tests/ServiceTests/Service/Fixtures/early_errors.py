#!/usr/bin/env python3
"""Sends request bodies that the service refuses from their headers, with the Python clients
relays use, and prints one JSON object: the status each try received, or the error it met.

usage: early_errors.py PORT CLIENT CASE TRIES   (CLIENT: urllib | http.client)
"""
import http.client
import json
import sys
import urllib.error
import urllib.request

CASES = {
    # An upload over the 2,000,000-byte limit, declared in Content-Length: 413 before the body.
    "too-large": ("image/jpeg", 2_600_000),
    # A body the service cannot take at all: 415 before the body.
    "wrong-type": ("text/plain", 1_500_000),
    # No bearer token on a service that wants one: 401 before the body.
    "no-token": ("image/jpeg", 1_500_000),
}


def one_try(port, client, content_type, size):
    body = b"\xff" * size
    headers = {"Content-Type": content_type, "Content-Length": str(size)}
    try:
        if client == "urllib":
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/v1/artwork", data=body, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status
            except urllib.error.HTTPError as error:
                error.read()
                return error.code
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("POST", "/v1/artwork", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        connection.close()
        return response.status
    except Exception as error:  # the failure a relay would see, by name
        return type(error).__name__


def main():
    port, client, case, tries = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
    content_type, size = CASES[case]
    print(json.dumps([one_try(port, client, content_type, size) for _ in range(tries)]))


main()

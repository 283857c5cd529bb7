#!/usr/bin/env python3
"""One request as a relay's Python sidecar makes it, with urllib: prints {status, headers, body}.

Usage: relay_request.py METHOD URL HEADERS_JSON BODY
"""
import json, sys, urllib.error, urllib.request

method, url, headers, body = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4]
request = urllib.request.Request(
    url, data=body.encode() if body else None, method=method, headers=headers)
try:
    with urllib.request.urlopen(request, timeout=60) as answer:
        status, fields, text = answer.status, answer.headers, answer.read().decode()
except urllib.error.HTTPError as error:
    status, fields, text = error.code, error.headers, error.read().decode()
print(json.dumps({
    "status": status,
    "headers": {name.lower(): value for name, value in fields.items()},
    "body": text,
}))

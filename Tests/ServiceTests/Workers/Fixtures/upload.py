"""Uploads images as a relay written in Python would (urllib, multipart/form-data), one
request per file, and prints a JSON array of {"file", "status", "body"} (the body parsed).

Usage: upload.py PORT PATH SHAPE FILE...   (SHAPE "-": no shape field, for /v1/thumbhash)
"""
import json
import sys
import urllib.error
import urllib.request
import uuid

port, path, shape, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
results = []
for name in files:
    with open(name, "rb") as source:
        image = source.read()
    boundary = uuid.uuid4().hex
    fields = b"" if shape == "-" else (
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"shape\"\r\n\r\n{shape}\r\n".encode())
    body = b"".join([
        fields,
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"x\"\r\n"
        f"Content-Type: application/octet-stream\r\n\r\n".encode(),
        image, f"\r\n--{boundary}--\r\n".encode(),
    ])
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=body, method="POST",
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            status, text = answer.status, answer.read()
            kind = answer.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        status, text, kind = error.code, error.read(), error.headers.get("Content-Type", "")
    results.append({"file": name.rsplit("/", 1)[-1], "status": status, "type": kind,
                    "body": json.loads(text)})
print(json.dumps(results))

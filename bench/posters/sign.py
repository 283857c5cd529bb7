#!/usr/bin/env python3
"""Signs a GET of each stored poster's object for SeaweedFS (AWS Signature Version 4, the empty
payload's hash, as the service signs its own reads), so that wrk can read the very objects the
service reads, straight from the store. Reads hosted paths (`/v1/images/<name>`, one a line)
from PATHS and writes one line per object to OUT: its path in the bucket, its x-amz-date and its
Authorization, tab-separated (read by signed-paths.lua). Signatures are dated now: SeaweedFS
accepts them for 15 minutes.

Usage: sign.py PATHS OUT HOST:PORT BUCKET PREFIX KEY SECRET REGION
"""
import datetime
import hashlib
import hmac
import sys

EMPTY = hashlib.sha256(b"").hexdigest()


def mac(key, text):
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def main():
    paths, out, host, bucket, prefix, key, secret, region = sys.argv[1:9]
    now = datetime.datetime.now(datetime.timezone.utc)
    stamp, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
    scope = f"{day}/{region}/s3/aws4_request"
    signing = mac(mac(mac(mac(("AWS4" + secret).encode(), day), region), "s3"), "aws4_request")
    with open(out, "w") as lines:
        for path in open(paths).read().split():
            name = path.rsplit("/", 1)[1]
            target = f"/{bucket}/{prefix}/objects/{name}"
            canonical = "\n".join([
                "GET", target, "",
                f"host:{host}", f"x-amz-content-sha256:{EMPTY}", f"x-amz-date:{stamp}", "",
                "host;x-amz-content-sha256;x-amz-date", EMPTY])
            to_sign = "\n".join([
                "AWS4-HMAC-SHA256", stamp, scope, hashlib.sha256(canonical.encode()).hexdigest()])
            signature = hmac.new(signing, to_sign.encode(), hashlib.sha256).hexdigest()
            authorization = (f"AWS4-HMAC-SHA256 Credential={key}/{scope}, "
                             f"SignedHeaders=host;x-amz-content-sha256;x-amz-date, "
                             f"Signature={signature}")
            lines.write(f"{target}\t{stamp}\t{authorization}\n")


main()

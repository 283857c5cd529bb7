"""Looks up and deletes a hosted image as a relay's Python sidecar would (urllib only).

Usage: python3 relay_images.py BASE TOKEN IMAGE_PATH
Prints one JSON object: the facts, then the status of each step (a 4xx with its problem type).
"""
import json, sys, urllib.error, urllib.request

base, token, image = sys.argv[1:4]
facts_path = image.rsplit(".", 1)[0] + ".json"


def call(method, path, auth=True):
    headers = {"Authorization": "Bearer " + token} if auth else {}
    request = urllib.request.Request(base + path, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, answer.headers.get("Content-Type", ""), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


status, kind, body = call("GET", facts_path, auth=False)
result = {"facts_status": status, "facts_type": kind, "facts": json.loads(body)}
status, kind, body = call("DELETE", image, auth=False)
result["unauthorised"] = [status, kind, json.loads(body)["status"]]
status, kind, body = call("DELETE", image)
result["deleted"] = [status, len(body)]
for name, method, path in [("image_after", "GET", image), ("facts_after", "GET", facts_path),
                           ("deleted_again", "DELETE", image)]:
    status, kind, body = call(method, path)
    result[name] = [status, kind, json.loads(body).get("status")]
print(json.dumps(result))

#!/usr/bin/env bash
# Runs schemathesis against `artwork serve`, both inside this network namespace, which must hold
# nothing but loopback: generated requests carry arbitrary URLs for the service to fetch, and
# nothing may leave the machine. Started by ContractTests under
# `unshare --net --map-root-user`; refuses to run anywhere else.
#
# usage: schemathesis.sh ARTWORK_BINARY VENV_BIN CONFIG_TOML MAX_EXAMPLES IMAGE [SKIPPED_PATH...]
# (IMAGE: a JPEG stored first, so that the image routes are tested on a stored object too;
# SKIPPED_PATH: documented paths the router does not have yet, left out of the run)
set -euo pipefail
binary=$1 venv=$2 config=$3 examples=$4 image=$5
shift 5
skipped=()
for path in "$@"; do skipped+=(--exclude-path "$path"); done

ip link set lo up
interfaces=$(awk -F: 'NR > 2 { gsub(/ /, "", $1); print $1 }' /proc/self/net/dev | sort -u)
if [ "$interfaces" != "lo" ]; then
  echo "not isolated: interfaces are $(echo $interfaces)" >&2
  exit 3
fi

work=$(mktemp -d)
port=18080
token="schemathesis-token-0123456789"
trap 'kill -TERM "$service" 2>/dev/null || true; wait "$service" 2>/dev/null || true; rm -rf "$work"' EXIT
env -i PATH="$PATH" ARTWORK_LISTEN="127.0.0.1:$port" ARTWORK_PUBLIC_URL="http://127.0.0.1:$port" \
  ARTWORK_STORAGE="$work/data" ARTWORK_API_TOKENS="$token" ARTWORK_RETENTION=0 \
  ARTWORK_FETCH_TIMEOUT=2s ARTWORK_LOG_LEVEL=warn \
  "$binary" serve 2>"$work/service.log" &
service=$!

for _ in $(seq 100); do
  if "$venv/python" -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" \
    "http://127.0.0.1:$port/healthz" 2>/dev/null; then break; fi
  sleep 0.1
done

# The stored image's id, for the image routes' parameters (schemathesis.toml).
ARTWORK_STORED_IMAGE_ID=$("$venv/python" - "http://127.0.0.1:$port" "$token" "$image" <<'PY'
import json, sys, urllib.request
base, token, path = sys.argv[1:4]
request = urllib.request.Request(
    base + "/v1/artwork?size=64", data=open(path, "rb").read(), method="POST",
    headers={"Content-Type": "image/jpeg", "Authorization": "Bearer " + token})
answer = json.load(urllib.request.urlopen(request, timeout=60))
print(answer["image_url"].rsplit("/", 1)[1].split(".")[0])
PY
)
export ARTWORK_STORED_IMAGE_ID

cd "$work"
status=0
"$venv/schemathesis" --config-file "$config" run "http://127.0.0.1:$port/openapi.json" \
  --url "http://127.0.0.1:$port" --checks all --max-examples "$examples" --workers 1 \
  --header "Authorization: Bearer $token" --generation-database none --seed 13 \
  --request-timeout 20 --no-color ${skipped[@]+"${skipped[@]}"} || status=$?
if ! kill -0 "$service" 2>/dev/null; then
  wait "$service" && exited=0 || exited=$?
  echo "the service died during the run (exit status $exited); its last words:" >&2
  tail -20 "$work/service.log" >&2
  [ "$status" -ne 0 ] || status=5
fi
# Server errors are logged loudly; those of sources that cannot be fetched (nothing can be
# here) are expected, any other is a finding.
errors=$(grep '"level":"error"' "$work/service.log" \
  | grep -v -e '"kind":"bad-gateway"' -e '"kind":"gateway-timeout"' || true)
if [ -n "$errors" ]; then
  echo "the service logged errors:" >&2
  echo "$errors" | head -20 >&2
  [ "$status" -ne 0 ] || status=4
fi
exit "$status"

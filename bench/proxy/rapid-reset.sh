#!/usr/bin/env bash
# HTTP/2 rapid reset (CVE-2023-44487, fixed in Caddy 2.7.5) against Debian 12's Caddy 2.6.2, the
# proxy deploy/caddy-memory.conf bounds: how far Caddy grows, and whether it is killed. Modes:
# unbounded; gomemlimit (GOMEMLIMIT=320MiB); cgrouponly (the drop-in's memory cgroup alone:
# max 512M, high 384M; cgroup v1 has no high, its soft limit stands in); bounded (both, as the
# drop-in sets them). Caddy proxies to a python upstream on loopback; rapid_reset.py attacks it
# with CONNECTIONS connections of STREAMS cancelled streams each, and sample_memory.py samples
# it until 15 s after the attack. Ends with a Markdown row:
# | mode | connections x streams | peak RSS MB | peak cgroup MB | killed? |
# Usage: bench/proxy/rapid-reset.sh unbounded|gomemlimit|cgrouponly|bounded [CONNECTIONS] [STREAMS]
#   (8 x 20000 when not given; the cgroup modes need a memory cgroup this user may nest in)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
CGROUP=""
remove_cgroup() {
  local i
  [ -n "$CGROUP" ] || return 0
  # A killed process leaves its cgroup a moment after it is reaped.
  for i in $(seq 50); do rmdir "$CGROUP" 2>/dev/null && return 0; sleep 0.1; done
  echo "could not remove $CGROUP" >&2
}
trap 'cleanup; remove_cgroup' EXIT
MODE=${1:?usage: rapid-reset.sh unbounded|gomemlimit|cgrouponly|bounded [CONNECTIONS] [STREAMS]}
CONNECTIONS=${2:-8}
STREAMS=${3:-20000}

# A fresh child of this script's own memory cgroup (fresh counters; nested, so it needs no
# rights beyond ours) with the drop-in's bounds: DIR gets LIMIT_FILE=512M, SOFT_FILE=384M.
make_cgroup() {
  mkdir "$1" 2>/dev/null || return 1
  if { echo 512M >"$1/$2" && echo 384M >"$1/$3"; } 2>/dev/null; then CGROUP=$1; return 0; fi
  rmdir "$1"
  return 1
}
cgroup_v2() {
  local parent
  grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null || return 1
  parent=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)
  # A child has the memory controller only if its parent hands it down.
  echo +memory >"${parent%/}/cgroup.subtree_control" 2>/dev/null || true
  make_cgroup "${parent%/}/rapid-reset.$$" memory.max memory.high
}
# v1 has no MemoryHigh: the soft limit (a hint under global pressure only) stands in.
cgroup_v1() {
  local own
  own=$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
  [ -n "$own" ] && make_cgroup "/sys/fs/cgroup/memory${own%/}/rapid-reset.$$" \
    memory.limit_in_bytes memory.soft_limit_in_bytes
}

# The h2 package, pinned, in its own venv (install chatter on standard error).
VENV="$ROOT/.build/venv-h2"
if ! "$VENV/bin/python" -c 'import importlib.metadata as m; assert m.version("h2") == "4.4.1"' \
  2>/dev/null; then
  mkdir -p "$ROOT/.build"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check h2==4.4.1 >&2
fi
command -v caddy >/dev/null || "$ROOT/scripts/deploy-tools" >/dev/null

LIMIT=()
case $MODE in
  unbounded) ;;
  gomemlimit) LIMIT=(GOMEMLIMIT=320MiB) ;;
  bounded | cgrouponly)
    [ "$MODE" = cgrouponly ] || LIMIT=(GOMEMLIMIT=320MiB)
    if ! cgroup_v2 && ! cgroup_v1; then
      echo "mode $MODE needs a memory cgroup: neither cgroup v2 with the memory controller nor" \
        "cgroup v1's memory hierarchy lets this user make a child of its own cgroup" >&2
      exit 1
    fi ;;
  *) echo "unknown mode $MODE (unbounded, gomemlimit, cgrouponly, bounded)" >&2; exit 2 ;;
esac

UPSTREAM_PORT=$(free_port)
HTTP_PORT=$(free_port)
HTTPS_PORT=$(free_port)
mkdir -p "$WORK/www"
echo ok >"$WORK/www/index.html"
python3 -m http.server "$UPSTREAM_PORT" --bind 127.0.0.1 -d "$WORK/www" >"$WORK/upstream.log" 2>&1 &
track $!
wait_http "http://127.0.0.1:$UPSTREAM_PORT/"

cat >"$WORK/Caddyfile" <<CADDY
{
	admin off
	http_port $HTTP_PORT
	https_port $HTTPS_PORT
	default_bind 127.0.0.1
	local_certs
	skip_install_trust
}
localhost {
	tls internal
	reverse_proxy 127.0.0.1:$UPSTREAM_PORT
}
CADDY
# Caddy enters the cgroup before it runs (sh moves itself, then execs), and keeps its CA,
# certificates and state in the scratch directory.
ENTER=()
[ -z "$CGROUP" ] || ENTER=(sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CGROUP")
"${ENTER[@]}" env HOME="$WORK/home" XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config" \
  XDG_CACHE_HOME="$WORK/cache" "${LIMIT[@]}" caddy run --config "$WORK/Caddyfile" \
  --adapter caddyfile >"$WORK/caddy.log" 2>&1 &
CADDY=$!
track "$CADDY"
CA="$WORK/data/caddy/pki/authorities/local/root.crt"
get() {
  curl -sS --max-time 10 --cacert "$CA" --resolve "localhost:$HTTPS_PORT:127.0.0.1" -o /dev/null \
    -w '%{http_code} HTTP/%{http_version}' "https://localhost:$HTTPS_PORT/" 2>/dev/null
}
for i in $(seq 300); do [ -s "$CA" ] && [ "$(get)" = "200 HTTP/2" ] && break; sleep 0.1; done
if [ "$(get)" != "200 HTTP/2" ]; then
  echo "caddy did not answer over HTTP/2 in 30 s:" >&2; tail -5 "$WORK/caddy.log" >&2; exit 1
fi
echo "mode $MODE: caddy $(caddy version), pid $CADDY, env [${LIMIT[*]}], cgroup [${CGROUP:-none}]"
echo "before: $(get)"

python3 "$ROOT/bench/proxy/sample_memory.py" "$CADDY" ${CGROUP:+"$CGROUP"} >"$WORK/memory.json" &
SAMPLER=$!
track "$SAMPLER"
sleep 1  # Caddy idle, for the first sample
status=0
timeout 300 "$VENV/bin/python" "$ROOT/bench/proxy/rapid_reset.py" "$HTTPS_PORT" "$CA" \
  "$CONNECTIONS" "$STREAMS" >"$WORK/attack.json" 2>"$WORK/attack.err" || status=$?
echo "attack: $(cat "$WORK/attack.json") (exit $status)"
[ ! -s "$WORK/attack.err" ] || tail -3 "$WORK/attack.err"
# What Caddy gives back after the attack matters too (the drop-in's note: 273 MB kept).
sleep 15
kill -TERM "$SAMPLER" 2>/dev/null || true
wait "$SAMPLER" || true
if kill -0 "$CADDY" 2>/dev/null; then
  KILLED=no
  echo "caddy: up after the attack; after: $(get)"
else
  status=0
  wait "$CADDY" || status=$?
  KILLED="yes (exit $status)"
  echo "caddy: gone during the run, exit status $status (137: SIGKILL, the OOM killer)"
fi
MEMORY=$(cat "$WORK/memory.json")
echo "memory: $MEMORY"
peak_cgroup=-
[ -z "$CGROUP" ] || peak_cgroup=$(field cgroup_peak_mb "$MEMORY")
echo "| $MODE | $CONNECTIONS x $STREAMS | $(field rss_peak_mb "$MEMORY") | $peak_cgroup | $KILLED |"

#!/usr/bin/env bash
# Cheap attacks on admission (issue 39): what the victim on another /24 gets while attackers on
# 127.0.0.0/24 flood heavy uploads, trickle bodies, hold slow URLs, hold silent sockets, or
# send wrong tokens through a proxy on the same host. Runs bench/admission/attacks.py in a
# network namespace with only loopback, against the release build and, with COMPARE_WITH, against
# another build in the same run (one after the other, scenario by scenario).
# Usage: bench/admission/run.sh [SCENARIO ...]   (attacks.py lists them; all when none named)
#   COMPARE_WITH=/path/to/other/artwork
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
build_release
need_tool vips libvips-tools
need_tool prlimit util-linux
command -v caddy >/dev/null || "$ROOT/scripts/deploy-tools" >/dev/null
for build in "$ARTWORK" ${COMPARE_WITH:-}; do
  echo "== $build"
  unshare --net sh -c "ip link set lo up && python3 '$ROOT/bench/admission/attacks.py' '$build' $*"
done

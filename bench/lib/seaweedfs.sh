# SeaweedFS for the S3 benchmarks, sourced after common.sh: on loopback only, SigV4 enforced, a
# fresh directory under $WORK, one bucket. Sets KEY, SECRET, REGION, BUCKET, S3P (the S3 port)
# and WEED_PID; s3curl signs a request as the service does.
KEY=K SECRET=S REGION=us-east-1 BUCKET=bench
EMPTY_SHA=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
S3P=0

# SeaweedFS leaves unix sockets named after its ports in /tmp; remove ours only.
weed_sockets() {
  local p
  [ "$S3P" -gt 0 ] || return 0
  for p in $(seq "$S3P" $((S3P + 4))); do rm -f /tmp/seaweedfs-*-"$p".sock /tmp/seaweedfs-*-$((p + 10000)).sock; done
}
trap 'cleanup; weed_sockets' EXIT

s3curl() {
  curl -s --aws-sigv4 "aws:amz:$REGION:s3" --user "$KEY:$SECRET" \
    -H "x-amz-content-sha256: $EMPTY_SHA" "$@"
}

start_seaweedfs() {
  local weed code i
  weed=$("$ROOT/scripts/seaweedfs")
  S3P=$(free_port)
  while [ "$S3P" -gt 50000 ]; do S3P=$(free_port); done # room for the +4 and +10000 ports
  mkdir -p "$WORK/weed/data"
  cat >"$WORK/weed/s3.json" <<JSON
{"identities":[{"name":"bench","credentials":[{"accessKey":"$KEY","secretKey":"$SECRET"}],"actions":["Admin","Read","List","Tagging","Write"]}]}
JSON
  GOMEMLIMIT=256MiB "$weed" mini -dir="$WORK/weed/data" -ip=127.0.0.1 -ip.bind=127.0.0.1 \
    -s3.port=$S3P -master.port=$((S3P + 1)) -volume.port=$((S3P + 2)) -filer.port=$((S3P + 3)) \
    -admin.port=$((S3P + 4)) -s3.config="$WORK/weed/s3.json" -master.telemetry=false \
    -admin.ui=false -webdav=false -s3.port.iceberg=0 -s3.port.lance=0 \
    -master.volumeSizeLimitMB=64 >"$WORK/weed.log" 2>&1 &
  WEED_PID=$!
  track $WEED_PID
  wait_http "http://127.0.0.1:$S3P/healthz"
  for i in $(seq 50); do
    code=$(s3curl -o /dev/null -w '%{http_code}' -X PUT "http://127.0.0.1:$S3P/$BUCKET")
    [ "$code" = 200 ] && break
    sleep 0.2
  done
  echo "seaweedfs on 127.0.0.1:$S3P, bucket $BUCKET: PUT $code"
}

# The environment that points the service at the bucket, under PREFIX.
s3_environment() {
  echo ARTWORK_STORAGE="s3://$BUCKET/$1" ARTWORK_S3_ENDPOINT="http://127.0.0.1:$S3P" \
    ARTWORK_S3_REGION=$REGION ARTWORK_S3_ACCESS_KEY_ID=$KEY ARTWORK_S3_SECRET_ACCESS_KEY=$SECRET
}

extension ServiceConfig {
  /// One documented setting: its variable, its default as an operator would write it, and
  /// what it means (including the values accepted).
  typealias Setting = (key: String, default: String, meaning: String)

  /// Every `ARTWORK_*` variable the service reads, in the order of docs/configuration.md. Its
  /// table is generated from this (`markdownTable()`), and a test checks that the reader and this list
  /// agree, so a key cannot be added without being documented.
  static let documentation: [Setting] = [
    (
      "ARTWORK_LISTEN", "127.0.0.1:8080",
      "Address to listen on: `ip:port`, `[ipv6]:port` or `localhost:port`."
    ),
    (
      "ARTWORK_PUBLIC_URL", "the listen address",
      "Base of hosted image URLs; unset, `http://` and the address and port listened on (a wildcard as loopback). Phones need https on a public host (a warning says so); behind a proxy set it to the proxy's URL."
    ),
    (
      "ARTWORK_STORAGE", "./data",
      "A directory, or `s3://BUCKET/optional/prefix` for an S3-compatible store."
    ),
    (
      "ARTWORK_MIN_FREE_BYTES", "67108864",
      "Free space a storage directory keeps: a new image that would leave less is refused with "
        + "507 and `/readyz` answers 503. `0` turns the margin off."
    ),
    (
      "ARTWORK_S3_ENDPOINT", "https://s3.REGION.amazonaws.com",
      "S3 endpoint URL (MinIO, SeaweedFS, R2...)."
    ),
    ("ARTWORK_S3_REGION", "us-east-1", "S3 region used for request signing."),
    (
      "ARTWORK_S3_ACCESS_KEY_ID", "`AWS_ACCESS_KEY_ID`",
      "S3 access key id; falls back to `AWS_ACCESS_KEY_ID`."
    ),
    (
      "ARTWORK_S3_SECRET_ACCESS_KEY", "`AWS_SECRET_ACCESS_KEY`",
      "S3 secret key; falls back to `AWS_SECRET_ACCESS_KEY`."
    ),
    (
      "ARTWORK_S3_VIRTUAL_HOSTED", "0",
      "`1`: bucket in the host name (`bucket.endpoint`); `0`: in the path."
    ),
    (
      "ARTWORK_API_TOKENS", "(none)",
      "Comma-separated bearer tokens accepted on write endpoints, each `name:token` (a name of 1 "
        + "to 64 of `A-Z a-z 0-9 . _ -`, not `anonymous`; a token is at least 16 characters of "
        + "visible ASCII without `:`, and a shorter one stops the start-up) or a bare token, "
        + "named `token-1`, `token-2`... by its position here. The name is the `caller` of the "
        + "access log and of the request metrics. Empty, and with no `ARTWORK_API_TOKENS_FILE`, "
        + "means no authentication."
    ),
    (
      "ARTWORK_API_TOKENS_FILE", "(none)",
      "A file of more tokens, one `name:token` a line (blank lines and `#` comments skipped; "
        + "tokens as in `ARTWORK_API_TOKENS`), added to `ARTWORK_API_TOKENS`. Read whole and "
        + "checked whole at start-up (a bad file stops it) and again on SIGHUP, so a token is "
        + "added or revoked without a restart; a bad file then keeps the tokens read before and "
        + "logs an error. A file that looks half-written is bad: empty, not ending with a line "
        + "break, or changing between reads (write it elsewhere and rename it "
        + "into place). The new tokens are in force once the service logs `API tokens reloaded` "
        + "and `artwork_api_token_reloads_total{result=\"ok\"}` goes up, a moment after `kill` "
        + "returns. When set, write endpoints always need a token, even if no line has one."
    ),
    (
      "ARTWORK_ADMIN_TOKENS", "(none)",
      "Token names (not tokens), comma-separated, that may delete any image. Every other "
        + "caller deletes only images it created or was answered: another caller's `DELETE` is "
        + "a 403 `not-owner`, and one owner's `DELETE` of an image others hold removes only "
        + "its own claim. With no token configured every caller is `anonymous` and may delete "
        + "any image."
    ),
    (
      "ARTWORK_API_RATE", "0",
      "Requests a minute each token may make on the write endpoints (a burst of that many, "
        + "then one every 60/N s); past it, 429 `rate-limited` with `Retry-After`. Requests with "
        + "a missing or wrong token (401) count against their client's network (see "
        + "`ARTWORK_CLIENT_PREFIX_V4`) at the same rate; past it, such requests from that "
        + "network get the 429 until `Retry-After`. A valid token is never refused for it. `0`: "
        + "no limit."
    ),
    (
      "ARTWORK_ALLOW_ANONYMOUS", "0",
      "`1` or `true` allows a non-loopback `ARTWORK_LISTEN` without API tokens."
    ),
    (
      "ARTWORK_MAX_SOURCE_BYTES", "2000000",
      "Largest source image accepted (upload or fetch), at most 50000000."
    ),
    ("ARTWORK_MAX_PIXELS", "40000000", "Largest source width × height decoded."),
    (
      "ARTWORK_WORKERS", "number of cores",
      "Worker processes doing image work (1 to 256), each one image at a time: decoding, "
        + "framing, encoding and the ThumbHash never run in the service's own process. Source "
        + "fetches wait on threads of their own."
    ),
    (
      "ARTWORK_WORKER_MEMORY", "536870912",
      "Memory one worker may use (its heap and private mappings, 64 MiB to 16 GiB); an image "
        + "that needs more is a 422 `decoder-failure` with reason `memory`."
    ),
    (
      "ARTWORK_WORKER_TIMEOUT", "5s",
      "Longest one image may take in its worker (100ms to 300s); past it the worker is killed, "
        + "whatever it is doing, and the image is a 422 `decoder-failure` with reason `timeout` "
        + "when the worker used at least half of it in CPU time (else the image is tried once "
        + "more, then answered 503)."
    ),
    (
      "ARTWORK_QUEUE", "16",
      "Jobs that may wait for a worker; beyond that requests get 503 with Retry-After (a job of "
        + "a caller with fewer waiting takes the place of the newest of the caller with the "
        + "most). An upload's job is queued once its body is in; its head is refused at once "
        + "when the job would be. One caller has at most this many plus `ARTWORK_WORKERS` "
        + "bodies arriving at once."
    ),
    (
      "ARTWORK_FETCH_THREADS", "16",
      "Source fetches at once (1 to 256), each with a thread of its own for its name lookup; 16 "
        + "times as many may wait."
    ),
    (
      "ARTWORK_STORAGE_THREADS", "16",
      "Storage operations at once (1 to 256): S3 transfers, each with its kept-alive connection, "
        + "or file operations."
    ),
    (
      "ARTWORK_HTTP_THREADS", "half the cores (at least 1, at most 8)",
      "HTTP server threads (1 to 64), each an epoll loop; handlers run on Swift's own threads "
        + "and images in the workers, so the loops only move bytes."
    ),
    ("ARTWORK_FETCH_TIMEOUT", "8s", "Total time for one source fetch, from 1ms to 300s."),
    ("ARTWORK_CA_FILE", "(system)", "Extra PEM CA bundle trusted when fetching sources."),
    (
      "ARTWORK_PRIVATE_SOURCES", "(none)",
      "Comma-separated private hosts, addresses or CIDR blocks that sources may be fetched "
        + "from; a host or address may carry a port (`jellyfin.lan:8096`, "
        + "`192.168.1.20:32400`, `[fd00::5]:8920`), which is then the only one allowed (without "
        + "one, every port). Reached only as the URL a caller sent, or through a redirect from "
        + "the same host: never after a redirect from a public address or another host."
    ),
    (
      "ARTWORK_SECRET_PARAMS", "(none)",
      "Query parameter names, comma-separated, added to those whose values are written as "
        + "`REDACTED` in answers, logs, problems, `/v1/check` and stored records: the media "
        + "servers' `x-plex-token`, `api_key`, `apikey`, `x-emby-token`, "
        + "`x-mediabrowser-token`, `x-emby-authorization`, `x-api-key`, and `key`, `token`, "
        + "`access_token`, `signature`, `sig`, `auth`, `password` (any case)."
    ),
    (
      "ARTWORK_CACHE_KEY", "(built in)",
      "Secret key of the hash that names URL cache records in storage (replicas on one store "
        + "share it). Records keep no secret query value; with this set, their names cannot be "
        + "checked against a guessed URL either. The key of result ids "
        + "(`/v1/artwork/results/{id}`) is derived from it, so replicas that share it answer "
        + "each other's ids; unset, each process makes its own at start-up."
    ),
    (
      "ARTWORK_CORS_ORIGINS", "(none)",
      "Origins whose pages may call the API from a browser (`https://app.example.com`, "
        + "comma-separated), or `*` for any. Hosted images are readable from any origin "
        + "whatever this says."
    ),
    (
      "ARTWORK_SOURCE_TTL", "600s",
      "How long a fetched URL's result is reused, up to 7d."
    ),
    ("ARTWORK_FAILURE_TTL", "30s", "How long a failed fetch is remembered, up to 24h."),
    (
      "ARTWORK_RETENTION", "30d",
      "Objects not requested for this long are removed; `0` keeps them forever."
    ),
    (
      "ARTWORK_SHUTDOWN_GRACE", "8s",
      "Time in-flight requests get to finish on SIGTERM; below `docker stop`'s 10 s, so the "
        + "drain ends before SIGKILL (raise both together: `docker stop -t`)."
    ),
    (
      "ARTWORK_METRICS_TOKEN", "(none)",
      "A bearer token `/metrics` then needs (`Authorization: Bearer …`, Prometheus' "
        + "`authorization` block), as `ARTWORK_API_TOKENS` takes them; without it `/metrics` "
        + "is public, token names included."
    ),
    (
      "ARTWORK_READINESS_INTERVAL", "2s",
      "How long a storage readiness verdict holds: `/readyz` and `/metrics` share one probe at "
        + "a time, at most one per interval, whatever the rate they are asked at (each probe "
        + "writes: an fsynced file, or an S3 LIST, PUT and DELETE). `0`: a probe for every "
        + "`/readyz`, still one at a time."
    ),
    (
      "ARTWORK_READINESS_TIMEOUT", "2s",
      "How long `/readyz` waits for a storage probe; a store that has not answered by then is "
        + "not ready (503), within a load balancer's timeout. `/metrics` never waits: it "
        + "reports the last verdict as `artwork_ready`."
    ),
    (
      "ARTWORK_MAX_CONNECTIONS", "from `RLIMIT_NOFILE`",
      "Concurrent HTTP connections. By default three quarters of the descriptors the process "
        + "may hold less 256, from 64 to 32768 (14744 at a limit of 20000, 512 at 1024); the "
        + "service raises its soft `RLIMIT_NOFILE` to the hard limit at start. One more takes "
        + "the slot of another: the oldest connection without a whole first request head of the "
        + "client network that holds the most of them, when it holds many (a 64th of the limit, "
        + "8 at least); else the one that has gone longest without a request, the oldest that "
        + "has not sent a whole first request head (answered 503 and closed) or the one idle "
        + "longest between requests (closed without an answer), whichever has waited since "
        + "earlier; when there is neither, it is answered 503 and closed at once. Near the "
        + "limit (nine tenths of it), a request other than GET and HEAD without a token, from a "
        + "network that holds more than an equal share of the connections, is refused with 503 "
        + "and `Retry-After`, so hosted images and the callers with tokens keep being served."
    ),
    (
      "ARTWORK_TRUSTED_PROXIES", "`127.0.0.0/8,::1`",
      "Comma-separated addresses or CIDRs of reverse proxies (`127.0.0.1`, `10.0.0.0/8`) whose "
        + "`X-Forwarded-For` names the client: from one of them, the client is the rightmost "
        + "address of that field that is not itself listed here; from any other peer the field "
        + "is ignored (a warning says so, once). Unset, loopback: a proxy on the same host; "
        + "`none` trusts nobody. The client is the access log's `client` and what wrong tokens "
        + "and an anonymous caller's share are counted by. Connections per client are still "
        + "counted by peer."
    ),
    (
      "ARTWORK_MAX_CONNECTIONS_PER_CLIENT", "256",
      "Concurrent connections from one client network (the peer's, see "
        + "`ARTWORK_CLIENT_PREFIX_V4`); one more is answered 429 and closed. Behind a proxy "
        + "that connects from one address, set it to `ARTWORK_MAX_CONNECTIONS`."
    ),
    (
      "ARTWORK_CLIENT_PREFIX_V4", "24",
      "Leading bits of an IPv4 address that make a client's network (8 to 32): an anonymous "
        + "caller's share of the workers, fetches, waits and body memory, the connections per "
        + "client and the count of wrong tokens are all kept per network, so that many "
        + "addresses of one block are one client. `32`: each address its own."
    ),
    (
      "ARTWORK_CLIENT_PREFIX_V6", "64",
      "The same for an IPv6 address (16 to 128): a /64 is what one host is given, and it can "
        + "use every address in it."
    ),
    (
      "ARTWORK_HEAD_TIMEOUT", "10s",
      "Time a request line and headers have to arrive whole (from the connection's start for "
        + "its first request); later is 408. `0` turns it off."
    ),
    (
      "ARTWORK_IDLE_TIMEOUT", "75s",
      "Time a kept-alive connection may wait for its next request, and a response for a client "
        + "that does not read it. `0`: never closed."
    ),
    (
      "ARTWORK_BODY_MIN_RATE", "16384",
      "Slowest average rate, in bytes per second, a request body may arrive at once "
        + "`ARTWORK_HEAD_TIMEOUT` has passed since its head (slower is 408), and an answer may "
        + "be taken at while the client holds it back (slower is closed). `0`: no minimum."
    ),
    (
      "ARTWORK_HANDLER_TIMEOUT", "60s",
      "Time a request has to be answered from its last byte (fetch, queue, worker and storage "
        + "together), and a streamed answer's next piece to come; later is 503, the connection "
        + "closes and the request's work is cancelled (a fetch stops; a URL result another "
        + "request waits for is made by that request). `0` turns it off."
    ),
    (
      "ARTWORK_LINGER_TIMEOUT", "10s",
      "After an answer that closes the connection (a 413 before the body, say), how long the "
        + "rest of the request is read and dropped so the client reads the answer."
    ),
    (
      "ARTWORK_DISCARD_BYTES", "67108864",
      "The most bytes read and dropped that way per connection; also the largest refused "
        + "body a proxy in front (`ARTWORK_TRUSTED_PROXIES`) sends that is read and dropped "
        + "before its answer, so that the proxy relays a whole exchange."
    ),
    (
      "ARTWORK_BODY_MEMORY", "what the workers and the queue can use",
      "Memory all request bodies held at once may use; beyond it uploads get 503 from their "
        + "headers. One caller may hold three quarters of it, and half of the last quarter "
        + "while others hold less than an equal share; a caller holding none may take the "
        + "rest. By default (`ARTWORK_WORKERS` + `ARTWORK_QUEUE`) upload bodies of the largest "
        + "size, plus 16 MiB for the JSON routes: about 54 MB on 2 cores."
    ),
    (
      "ARTWORK_IMAGE_CACHE_BYTES", "33554432",
      "Memory for recently served images (immutable, so always safe to reuse); `0` turns it off. "
        + "On filesystem storage the cache keeps the stored files open instead (up to 4096), "
        + "which costs no memory of the process: an image in memory is one read from S3."
    ),
    (
      "ARTWORK_UI", "1",
      "`0` turns off the page for people at `/` (then a 404); `/openapi.json` is served either way."
    ),
    ("ARTWORK_LOG_LEVEL", "info", "`debug`, `info`, `warn` or `error` (JSON lines on stderr)."),
  ]

  /// How every duration variable is written (printed above the table).
  static let durationSyntax =
    "Durations are whole numbers with a unit, `ms`, `s`, `m`, `h` or `d`, chained largest "
    + "first if need be (`1500ms`, `8s`, `10m`, `1h30m`, `30d`); a bare `0` is zero. A bare "
    + "number is refused: `30` could mean seconds or days."

  /// docs/configuration.md's table, in Markdown, after the duration syntax.
  public static func markdownTable() -> String {
    var lines = [durationSyntax, "", "| Variable | Default | Meaning |", "| --- | --- | --- |"]
    for setting in documentation {
      let shownDefault =
        setting.default.hasPrefix("`") || setting.default.hasPrefix("(")
          || setting.default.contains(" ") ? setting.default : "`\(setting.default)`"
      lines.append("| `\(setting.key)` | \(shownDefault) | \(setting.meaning) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

import ArtworkService

extension ArtworkCommand {
  /// `artwork help`: every command in one screen.
  static let usage = """
    artwork: phone-ready hosted artwork and ThumbHash for push relays

    Usage:
      artwork serve                       Run the HTTP service (configured by ARTWORK_* variables)
      artwork health [--url URL]          Exit 0 if the running service answers /healthz with 200
      artwork process FILE --out DIR [--shape square|poster|circle] [--size N] [--crop attention|centre]
                                          Run the service's checks and pipeline on FILE, store into DIR
      artwork thumbhash FILE...           Print each file's ThumbHash (base64), a tab, its path
      artwork decode HASH -o FILE.png     Render a ThumbHash as a PNG placeholder
      artwork version                     Print the version (also: artwork --version)
      artwork help [COMMAND]              Show help (also: artwork COMMAND --help)

    Options may come before or after the other arguments, as --name value or --name=value;
    -- ends the options. Exit status: 0 success, 1 failure, 2 usage error.

    """

  /// Each command's help, for `artwork help COMMAND` and `artwork COMMAND --help`.
  static let help: [String: String] = [
    "serve": serveHelp,
    "health": """
    artwork health [--url URL]

    Asks a running service for GET /healthz over a plain TCP connection, within 3 seconds.
    Without --url it asks the address in ARTWORK_LISTEN (default 127.0.0.1:8080), where
    0.0.0.0 is asked on 127.0.0.1 and [::] on [::1]. --url http://HOST[:PORT][/PATH] asks
    another address (the path defaults to /healthz).

    Exit status: 0 when the answer is 200; 1 otherwise, with one line on standard error saying
    why (connection refused, status N, no answer within 3 s); 2 for a usage error.

    """,
    "process": """
    artwork process FILE --out DIR [--shape square|poster|circle] [--size N] [--crop attention|centre] [--no-size-limit]

    Runs the same checks and pipeline as POST /v1/artwork, with the same limits (the
    ARTWORK_MAX_SOURCE_BYTES and ARTWORK_MAX_PIXELS variables, defaults 2000000 bytes and
    40000000 pixels) and the same problem texts, and stores the result in DIR (made if missing)
    as {sha256}.{jpg|png}. Prints the same JSON as the service, with the file's path as
    image_url.

      --shape S         square (default), poster (2:3) or circle
      --size N          output width in pixels, 64 to 1200 (default 400)
      --crop C          attention (default) or centre
      --out DIR         where the result is stored (required)
      --no-size-limit   accept a source larger than ARTWORK_MAX_SOURCE_BYTES (the pixel limit
                        still applies)

    Exit status: 0 success, 1 the file failed (the reason on standard error), 2 usage error.

    """,
    "thumbhash": """
    artwork thumbhash FILE...

    Prints one line per file: the ThumbHash in padded base64, a tab, the path. Images of at most
    100x100 pixels are hashed pixel for pixel; larger ones are downscaled to fit 100x100. The
    service's limits apply (ARTWORK_MAX_SOURCE_BYTES, ARTWORK_MAX_PIXELS).
    Exits 1 if any file failed (each failure is reported on standard error).

    """,
    "decode": """
    artwork decode HASH -o FILE.png

    Writes the placeholder image a ThumbHash decodes to as a PNG file.

    """,
    "version": """
    artwork version

    Prints the version of artwork and of the libvips it runs with (also: artwork --version).

    """,
    "help": usage,
  ]

  /// `artwork serve --help`: everything an operator needs without the README (a container has
  /// none): what the service does on signals, its exit statuses, its health endpoints, and every
  /// variable.
  static let serveHelp =
    """
    artwork serve

    Runs the HTTP service. Configuration comes from the environment only, in the variables
    below; every bad variable is reported at once.

    Signals: SIGTERM or SIGINT stop accepting connections, let in-flight requests finish within
    ARTWORK_SHUTDOWN_GRACE (default 8s), then exit. A container runtime must wait longer than
    that before it kills the process (docker stop waits 10 s by default; raise it with
    docker stop -t when ARTWORK_SHUTDOWN_GRACE is raised).

    Exit status: 0 after a clean shutdown; 1 when the service cannot start (storage, listen
    address; the reason is logged); 2 for invalid configuration.

    Health: GET /healthz answers 200 while the process serves (`artwork health` asks it);
    GET /readyz answers 200 when storage can take new objects, else 503 with the reason;
    GET /metrics is Prometheus text.

    Logs: JSON lines on standard error, one per request and one per error.

    """ + ServiceConfig.markdownTable()
}

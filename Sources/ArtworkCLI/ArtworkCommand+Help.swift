import ArtworkService

extension ArtworkCommand {
  /// `artwork help`: every command in one screen.
  static let usage = """
    artwork: phone-ready hosted artwork and ThumbHash for push relays

    Usage:
      artwork serve                       Run the HTTP service (configured by ARTWORK_* variables)
      artwork health [--url URL]          Exit 0 if the running service answers /healthz with 200
      artwork process INPUT... --out DIR [--shape S] [--size N] [--crop C] [--jobs N] [--jsonl FILE] [--resume]
                                          Run the service's checks and pipeline on files, directories
                                          and URLs; store into DIR; one JSON line per input
      artwork thumbhash [--json] INPUT... Print each input's ThumbHash (base64), a tab, the input
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
    artwork process [options] INPUT... --out DIR

    Runs every INPUT through the same checks, limits and pipeline as POST /v1/artwork, in this
    one process on one pool of workers, and stores each result in DIR (made if missing) as
    {sha256}.{jpg|png}, the name the service stores it under.

    INPUT is a file; a directory (walked recursively for files ending in .jpg .jpeg .png .webp
    .gif .heic .heif .avif, in any case; files named on the command line are always taken); an
    http(s) URL, fetched under the service's address policy and limits (ARTWORK_PRIVATE_SOURCES,
    ARTWORK_CA_FILE, ARTWORK_FETCH_TIMEOUT); or - for inputs one per line on standard input.

    Writes one JSON line per input, in completion order:
      {"input": ..., "ok": true, ...the service's answer, with image_url and path the stored file}
      {"input": ..., "ok": false, "problem": {"type", "title", "status", "detail"}}
    The problem is the one the service would answer (413 over the size limit, 415 not an
    accepted format, 422 undecodable...). A one-line summary goes to standard error.

      --shape S         square (default), poster (2:3) or circle
      --size N          output width in pixels, 64 to 1200 (default 400)
      --crop C          attention (default) or centre
      --out DIR         where the results are stored (required)
      --from FILE       more inputs, one per line
      --jobs N          images at once (default: the number of cores)
      --jsonl FILE      write the JSON lines to FILE instead of standard output (a link, a
                        device or a pipe is written through, never replaced)
      --resume          skip inputs that already have an "ok": true line in the --jsonl FILE,
                        and append to it
      --progress WHEN   auto (default: when standard error is a terminal), always or never:
                        done/total, failures, images per second and time left, redrawn in place
                        on a terminal, else a plain line a second
      --no-size-limit   accept sources over ARTWORK_MAX_SOURCE_BYTES (default 2000000); the
                        pixel limit (ARTWORK_MAX_PIXELS, default 40000000) still applies

    Ctrl-C (SIGINT) or SIGTERM stops taking new inputs and lets the running ones finish; every
    line written is whole, and a later run with --resume continues. A second Ctrl-C exits at
    once.

    Exit status: 0 every input succeeded, 1 any failed, 2 usage error, 130 interrupted.

    """,
    "thumbhash": """
    artwork thumbhash [--json] [--jobs N] [--from FILE] INPUT...

    Prints the ThumbHash of every INPUT (files, directories, URLs or -, as for artwork process),
    computed as POST /v1/thumbhash does, with the service's limits. By default one line per
    input that succeeded, in input order: the ThumbHash in padded base64, a tab, the input;
    each failure is reported on standard error. With --json, one JSON line per input in
    completion order: {"input", "ok": true, "thumbhash", "width", "height", "average_color",
    "aspect_ratio", "source"} or {"input", "ok": false, "problem"}.

    Images of at most 100x100 pixels are hashed pixel for pixel; larger ones are downscaled to
    fit 100x100. Exit status: 0 all succeeded, 1 any failed, 2 usage error, 130 interrupted.

    """,
    "decode": """
    artwork decode HASH -o FILE.png

    Writes the placeholder image a ThumbHash decodes to as a PNG file. -o - writes it to
    standard output; an existing regular file is replaced atomically; a symbolic link, a device
    or a pipe is written through (never replaced); a directory is refused.

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
    docker stop -t when ARTWORK_SHUTDOWN_GRACE is raised). SIGHUP re-reads
    ARTWORK_API_TOKENS_FILE; a bad file keeps the tokens in force and logs an error.

    Exit status: 0 after a clean shutdown; 1 when the service cannot start (storage, listen
    address; the reason is logged); 2 for invalid configuration.

    Health: GET /healthz answers 200 while the process serves (`artwork health` asks it);
    GET /readyz answers 200 when storage can take new objects, else 503 with the reason;
    GET /metrics is Prometheus text.

    Logs: JSON lines on standard error, one per request and one per error.

    """ + ServiceConfig.markdownTable()
}

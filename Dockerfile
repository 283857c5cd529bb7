# Multi-stage build: compile with the Swift toolchain on Debian 12, run on bookworm-slim with the
# runtime libraries only, as a non-root user.
ARG SWIFT_IMAGE=swift:6.3-bookworm

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      pkg-config libvips-dev libhttp-parser-dev libcurl4-openssl-dev libssl-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY bench ./bench
COPY Tests/TestSupport ./Tests/TestSupport
RUN swift build -c release --product artwork --static-swift-stdlib \
 && install -D "$(swift build -c release --show-bin-path)/artwork" /out/artwork

FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libvips42 libhttp-parser2.9 libcurl4 libssl3 ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /var/lib/artwork --create-home artwork
COPY --from=build /out/artwork /usr/local/bin/artwork
USER artwork
WORKDIR /var/lib/artwork
# In a container the service must listen on all interfaces, which needs API tokens
# (ARTWORK_API_TOKENS) or an explicit ARTWORK_ALLOW_ANONYMOUS=1.
ENV ARTWORK_LISTEN=0.0.0.0:8080 \
    ARTWORK_STORAGE=/var/lib/artwork/data
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/healthz >/dev/null || exit 1
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/artwork"]
CMD ["serve"]

# Multi-stage build: compile with the Swift toolchain on Debian 12, run on bookworm-slim with the
# runtime libraries only, as a non-root user.
ARG SWIFT_IMAGE=swift:6.3-bookworm

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      pkg-config libvips-dev libwebp-dev libjpeg62-turbo-dev libhttp-parser-dev \
      libcurl4-openssl-dev libssl-dev libseccomp-dev zlib1g-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Everything Package.swift declares must exist for the manifest to load, test targets included
# (their sources, not the test images). scripts/docker-context-check builds from exactly these
# COPY lines and .dockerignore, without a Docker engine; CI runs it.
COPY Package.swift ./
COPY Sources ./Sources
COPY bench ./bench
COPY Fuzz ./Fuzz
COPY Tests ./Tests
RUN swift build -c release --product artwork --static-swift-stdlib \
 && install -D "$(swift build -c release --show-bin-path)/artwork" /out/artwork

FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libvips42 libwebp7 libjpeg62-turbo libhttp-parser2.9 libcurl4 libssl3 libseccomp2 zlib1g \
      ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /var/lib/artwork --create-home artwork \
 && install -d -o artwork -g artwork -m 0750 /var/lib/artwork/data
COPY --from=build /out/artwork /usr/local/bin/artwork
# The stored artwork outlives the container. The directory exists and belongs to the runtime
# user before it is declared, so a fresh named volume starts with that owner.
VOLUME /var/lib/artwork/data
USER artwork
WORKDIR /var/lib/artwork
# In a container the service must listen on all interfaces, which needs API tokens
# (ARTWORK_API_TOKENS) or an explicit ARTWORK_ALLOW_ANONYMOUS=1.
ENV ARTWORK_LISTEN=0.0.0.0:8080 \
    ARTWORK_STORAGE=/var/lib/artwork/data
EXPOSE 8080
# `artwork health` asks /healthz at ARTWORK_LISTEN over a plain socket (3 s budget): no curl.
HEALTHCHECK --interval=15s --timeout=5s --start-period=5s --retries=3 \
  CMD ["/usr/local/bin/artwork", "health"]
# On SIGTERM in-flight requests get ARTWORK_SHUTDOWN_GRACE (default 8s), below docker stop's
# 10 s before SIGKILL. Raising ARTWORK_SHUTDOWN_GRACE? Raise `docker stop -t` (or compose's
# stop_grace_period, Kubernetes' terminationGracePeriodSeconds) above it as well.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/artwork"]
CMD ["serve"]

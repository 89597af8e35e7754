# xcmedic for Linux CI: `docker build -t xcmedic .`, then
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/work" xcmedic scan build.log
#   some-build 2>&1 | docker run --rm -i xcmedic scan --tee
# The build stage runs scripts/release.sh, the same script (and checks) as the release archives: a
# binary with the Swift runtime and zlib linked in, needing only glibc, libstdc++ and libgcc_s.
FROM swift:6.3-noble AS build
WORKDIR /src
# The swift images have zlib1g-dev (libz.a) already; release.sh says so if it is missing.
COPY . .
RUN scripts/release.sh --out /dist \
 && mkdir /out \
 && tar -xzf /dist/xcmedic-*-linux-*.tar.gz -C /out --strip-components=1

# debian:bookworm-slim has glibc, libstdc++ and libgcc_s and nothing of Swift; the binary was tested on
# the same base (a debootstrap minbase bookworm) by scripts/check-linux-binary.sh --root.
FROM debian:bookworm-slim
# xcmedic runs xcmedic-history (the history store: scan --record, xcmedic history) from beside itself.
COPY --from=build /out/xcmedic /out/xcmedic-history /usr/local/bin/
COPY --from=build /out/LICENSE /usr/share/doc/xcmedic/LICENSE
RUN useradd --create-home --uid 1000 xcmedic
USER 1000:1000
WORKDIR /work
ENTRYPOINT ["xcmedic"]
CMD ["--help"]

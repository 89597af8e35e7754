#!/usr/bin/env bash
# Builds xcmedic's release archives for the machine it runs on, with LICENSE and sha256 checksums.
# Two executables ship together: xcmedic, and xcmedic-history beside it (the history store, which
# `xcmedic scan --record` and `xcmedic history` run; xcmedic itself links no database code).
#
#   scripts/release.sh [--out DIR] [--version V] [--source] [--formula OWNER/REPO] [--update-formula]
#                      [--no-build BINARY | --no-binary]
#
#   Linux  a static binary: `swift build -c release --swift-sdk <static Linux SDK>` (musl, no shared
#          library at all) when a static Linux SDK is installed (`swift sdk list`), otherwise
#          `swift build -c release --static-swift-stdlib` with zlib linked in statically too, so the
#          binary needs only glibc, libstdc++ and libgcc_s (in every glibc distribution's base image:
#          debian:*-slim, ubuntu, distroless/cc). It refuses to ship a binary that `ldd` shows linked to a
#          libswift* or libz library. Both products are built the same way.
#          -> xcmedic-V-linux-ARCH.tar.gz
#   macOS  a universal binary: `swift build -c release --arch arm64 --arch x86_64`
#          -> xcmedic-V-macos-universal.tar.gz
#   --source          also the source archive the Homebrew formula builds from (`git archive` of HEAD)
#                     -> xcmedic-V.tar.gz
#   --formula O/R     also DIR/xcmedic.rb: Formula/xcmedic.rb pointing at that source archive in O/R's
#                     release vV, with its checksum (implies --source); --update-formula: in place too
#   --no-build BIN    package BIN instead of building (a binary built by the same commands elsewhere),
#                     with the xcmedic-history beside it
#   --allow-shared    with --no-build: package even a binary linked to the Swift runtime (tests of the
#                     packaging only; never for a release)
#   --no-binary       no binary (the release workflow's last job: source archive and formula only)
#
# Each archive holds one folder xcmedic-V-PLATFORM/ with xcmedic, xcmedic-history, LICENSE and README.md; beside it is
# ARCHIVE.sha256 in `sha256sum` format. V defaults to the version in Sources/xcmedic/XCMedic.swift, which
# the binary must report; a tag given in GITHUB_REF_NAME (vV) must match it. Output goes to dist/ unless --out says otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

out="$root/dist"
version=""
source_archive=0
formula_repo=""
update_formula=0
prebuilt=""
binary=1
allow_shared=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --version) version=$2; shift 2 ;;
    --source) source_archive=1; shift ;;
    --formula) formula_repo=$2; shift 2 ;;
    --update-formula) update_formula=1; shift ;;
    --no-build) prebuilt=$2; shift 2 ;;
    --no-binary) binary=0; shift ;;
    --allow-shared) allow_shared=1; shift ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
    *) echo "release.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -n "$formula_repo" ]; then source_archive=1; fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

checksum() { # FILE: writes FILE.sha256 next to it, `sha256sum` format with the bare file name
  local dir name
  dir=$(dirname "$1"); name=$(basename "$1")
  if command -v sha256sum >/dev/null 2>&1; then
    (cd "$dir" && sha256sum "$name" >"$name.sha256")
  else
    (cd "$dir" && shasum -a 256 "$name" >"$name.sha256")
  fi
}

# The archive of the binaries: DIR/xcmedic-V-PLATFORM.tar.gz holding
# xcmedic-V-PLATFORM/{xcmedic,xcmedic-history,LICENSE,README.md}.
package() { # BINARY PLATFORM (BINARY's folder holds xcmedic-history too)
  local name="xcmedic-$version-$2"
  local stage tool
  stage=$(mktemp -d)
  mkdir "$stage/$name"
  for tool in xcmedic xcmedic-history; do
    if [ "$tool" = xcmedic ]; then cp "$1" "$stage/$name/$tool"; else cp "$(dirname "$1")/$tool" "$stage/$name/$tool"; fi
    chmod 755 "$stage/$name/$tool"
    # Without the symbol table and debug info: 62 MB instead of 84 on Linux (dynamic symbols stay).
    if [ "$(uname -s)" = Linux ] && command -v strip >/dev/null 2>&1; then strip "$stage/$name/$tool"; fi
  done
  cp "$root/LICENSE" "$root/README.md" "$stage/$name/"
  if tar --version 2>/dev/null | grep -q GNU; then
    # Reproducible: same bytes for the same binary.
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2000-01-01 00:00Z' -C "$stage" -cf - "$name" | gzip -n >"$out/$name.tar.gz"
  else
    tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
  fi
  rm -rf "$stage"
  checksum "$out/$name.tar.gz"
  echo "$out/$name.tar.gz"
}

build_linux() {
  local sdk
  sdk=$(swift sdk list 2>/dev/null | grep -E -m1 "$(uname -m)-swift-linux-musl|static-linux" || true)
  if [ -n "$sdk" ]; then
    echo "release.sh: swift build -c release --swift-sdk $sdk" >&2
    swift build -c release --product xcmedic --swift-sdk "$sdk" >&2
    swift build -c release --product xcmedic-history --swift-sdk "$sdk" >&2
    swift build -c release --product xcmedic --swift-sdk "$sdk" --show-bin-path
  else
    # zlib from its static archive: the module map asks for -lz, and the linker takes the first
    # libz it finds along the -L folders; a folder holding only libz.a, searched before the system's,
    # makes that the static one. The C library stays shared (a static glibc cannot look up users or
    # load locales), and so do libstdc++ and libgcc_s, which the Swift runtime needs.
    local zdir="$root/.build/static-zlib" za
    za=$(find /usr/lib /usr/local/lib /lib -name libz.a 2>/dev/null | head -n1 || true)
    [ -n "$za" ] || { echo "release.sh: no libz.a (apt-get install zlib1g-dev)" >&2; exit 2; }
    mkdir -p "$zdir"
    ln -sf "$za" "$zdir/libz.a"
    echo "release.sh: swift build -c release --static-swift-stdlib, zlib from $za" >&2
    swift build -c release --product xcmedic --static-swift-stdlib -Xswiftc -L"$zdir" >&2
    swift build -c release --product xcmedic-history --static-swift-stdlib -Xswiftc -L"$zdir" >&2
    swift build -c release --product xcmedic --static-swift-stdlib -Xswiftc -L"$zdir" --show-bin-path
  fi
}

# The version in the source, for --no-binary; a built binary must report the same.
source_version=$(sed -n -E 's/^ *version: "([^"]+)",$/\1/p' "$root/Sources/xcmedic/XCMedic.swift" | head -n1)
if [ -z "$version" ]; then version=$source_version; fi
if [ "$version" != "$source_version" ]; then
  echo "release.sh: the source says version $source_version, not $version (update Sources/xcmedic/XCMedic.swift)" >&2
  exit 1
fi
if [ -n "${GITHUB_REF_NAME:-}" ] && [[ "${GITHUB_REF_NAME}" == v* ]] && [ "${GITHUB_REF_NAME#v}" != "$version" ]; then
  echo "release.sh: tag ${GITHUB_REF_NAME} does not match version $version" >&2
  exit 1
fi

if [ "$binary" = 1 ]; then
  case "$(uname -s)" in
    Linux)
      if [ -n "$prebuilt" ]; then bin=$prebuilt; else bin="$(build_linux)/xcmedic"; fi
      platform="linux-$(uname -m)"
      if [ "$allow_shared" = 0 ] && command -v ldd >/dev/null 2>&1; then
        for exe in "$bin" "$(dirname "$bin")/xcmedic-history"; do
          libs=$(ldd "$exe" 2>&1 || true)
          if grep -E "libswift|libFoundation|libdispatch|libBlocksRuntime|libz\.so|not found" <<<"$libs"; then
            echo "release.sh: $exe still needs the libraries above; it would not run without the Swift toolchain" >&2
            exit 1
          fi
        done
      fi
      ;;
    Darwin)
      if [ -n "$prebuilt" ]; then
        bin=$prebuilt
      else
        echo "release.sh: swift build -c release --arch arm64 --arch x86_64" >&2
        swift build -c release --product xcmedic --arch arm64 --arch x86_64 >&2
        swift build -c release --product xcmedic-history --arch arm64 --arch x86_64 >&2
        bin="$(swift build -c release --product xcmedic --arch arm64 --arch x86_64 --show-bin-path)/xcmedic"
      fi
      for exe in "$bin" "$(dirname "$bin")/xcmedic-history"; do
        archs=$(lipo -archs "$exe")
        case "$archs" in
          *arm64*x86_64*|*x86_64*arm64*) ;;
          *) echo "release.sh: $exe is not universal (lipo says: $archs)" >&2; exit 1 ;;
        esac
      done
      platform="macos-universal"
      ;;
    *) echo "release.sh: no release build for $(uname -s)" >&2; exit 2 ;;
  esac

  history_tool="$(dirname "$bin")/xcmedic-history"
  if [ ! -x "$history_tool" ]; then
    echo "release.sh: no xcmedic-history beside $bin (swift build --product xcmedic-history); the two ship together" >&2
    exit 1
  fi
  for exe in "$bin" "$history_tool"; do
    reported=$("$exe" --version)
    if [ "$version" != "$reported" ]; then
      echo "release.sh: $exe says it is $reported, not $version" >&2
      exit 1
    fi
  done
  # The binary must work, not only link: it diagnoses the example that ships with it.
  status=0
  "$bin" scan --no-config --format json "$root/Examples/macro-trust-failure.log" >/dev/null || status=$?
  if [ "$status" != 1 ]; then
    echo "release.sh: $bin scan of the example exited $status, not 1 (an error found)" >&2
    exit 1
  fi

  # And xcmedic finds xcmedic-history beside it: a recorded scan, then the store asked.
  check=$(mktemp -d)
  record_err=$(XCMEDIC_HISTORY_TOOL="" "$bin" scan --no-config --record "$check/history.sqlite" --format json "$root/Examples/macro-trust-failure.log" 2>&1 >/dev/null || true)
  builds=$("$bin" history --store "$check/history.sqlite" --format json 2>&1 | grep -m1 '"builds" :' | tr -dc '0-9' || true)
  rm -rf "$check"
  if [ -n "$record_err" ] || [ "$builds" != 1 ]; then
    echo "release.sh: $bin scan --record did not record through xcmedic-history: $record_err" >&2
    exit 1
  fi

  package "$bin" "$platform"
fi

if [ "$source_archive" = 1 ]; then
  src="$out/xcmedic-$version.tar.gz"
  git -C "$root" archive --format=tar --prefix="xcmedic-$version/" HEAD | gzip -n >"$src"
  checksum "$src"
  echo "$src"
  if [ -n "$formula_repo" ]; then
    sha=$(cut -d' ' -f1 <"$src.sha256")
    url="https://github.com/$formula_repo/releases/download/v$version/xcmedic-$version.tar.gz"
    sed -E -e "s|^  url \".*\"|  url \"$url\"|" -e "s|^  sha256 \".*\"|  sha256 \"$sha\"|" \
      -e "s|^  homepage \".*\"|  homepage \"https://github.com/$formula_repo\"|" \
      "$root/Formula/xcmedic.rb" >"$out/xcmedic.rb"
    echo "$out/xcmedic.rb"
    if [ "$update_formula" = 1 ]; then
      cp "$out/xcmedic.rb" "$root/Formula/xcmedic.rb.tmp" && mv "$root/Formula/xcmedic.rb.tmp" "$root/Formula/xcmedic.rb"
    fi
  fi
fi

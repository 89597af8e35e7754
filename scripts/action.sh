#!/usr/bin/env bash
# The shell parts of the GitHub Action (action.yml at the repository root), one subcommand per step.
# Everything comes from environment variables, as action.yml passes its inputs; run here by the test
# suite (ActionScriptTests) with a stand-in for GitHub's variables.
#
#   action.sh cache-key   when install comes to source: prints key=... (a hash of the sources) to
#                         GITHUB_OUTPUT, for the build cache
#   action.sh install     puts xcmedic (and xcmedic-history beside it) on the PATH (GITHUB_PATH) and prints
#                         xcmedic=PATH to GITHUB_OUTPUT
#       INPUT_INSTALL      auto (a release binary when the version is known, else source), release,
#                          source (swift build -c release in the action's folder), or path (already installed)
#       INPUT_VERSION      the release to install (0.1.0 or v0.1.0); empty: the action's own tag, if any
#       ACTION_PATH, ACTION_REPOSITORY, ACTION_REF   github.action_path, github.action_repository, github.action_ref
#       XCMEDIC_DOWNLOAD_URL  where release archives are (default https://github.com/REPOSITORY/releases/download)
#   action.sh scan        scans; prints status=, command-status=, log=, sarif= to GITHUB_OUTPUT; exits 0
#       INPUT_LOG          log files, folders or globs, one a line (or separated by spaces)
#       INPUT_COMMAND      instead of a log: a bash command whose output (stdout and stderr) is shown as it
#                          runs, saved to INPUT_LOG_FILE (default RUNNER_TEMP/xcmedic-build.log) and scanned
#       INPUT_FAIL_ON      error (default), warning or never
#       INPUT_SARIF        a SARIF file to write as well (empty: none)
#       INPUT_ARGS         more arguments for `xcmedic scan` (e.g. --rules ci-rules.yml)
#       XCMEDIC            the binary (from install)
#   action.sh finish      exits with the build command's status if it failed, else with the scan's
#       COMMAND_STATUS, SCAN_STATUS   the scan step's outputs
set -uo pipefail

die() { echo "::error title=xcmedic action::$*" >&2; exit 2; }
output() { echo "$1=$2" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"; }

# sha256 of standard input, or of FILE (Linux has sha256sum, macOS shasum)
sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$@" | cut -d' ' -f1; else shasum -a 256 "$@" | cut -d' ' -f1; fi
}

# The install mode and version the inputs come to: prints "MODE VERSION".
resolve() {
  local mode=${INPUT_INSTALL:-auto} version=${INPUT_VERSION:-}
  version=${version#v}
  if [ -z "$version" ] && [[ "${ACTION_REF:-}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then version=${ACTION_REF#v}; fi
  case "$mode" in
    auto) if [ -n "$version" ]; then mode=release; else mode=source; fi ;;
    release) [ -n "$version" ] || die "install: release needs version (the action's ref ${ACTION_REF:-} is not a release tag)" ;;
    source|path) ;;
    *) die "install must be auto, release, source or path, not '$mode'" ;;
  esac
  echo "$mode $version"
}

cache_key() {
  local mode sum
  read -r mode _ < <(resolve) || exit 2
  # Only a build from source has anything to cache.
  [ "$mode" = source ] || return 0
  # The sources that make the binary, by name and content.
  sum=$(cd "${ACTION_PATH:?}" && find Package.swift Sources Catalog -type f | LC_ALL=C sort \
    | while read -r f; do echo "$f $(sha256 "$f")"; done | sha256)
  output key "xcmedic-build-${RUNNER_OS:-unknown}-${RUNNER_ARCH:-unknown}-$sum"
}

platform() {
  case "${RUNNER_OS:-$(uname -s)}" in
    macOS|Darwin) echo macos-universal ;;
    Linux)
      case "${RUNNER_ARCH:-$(uname -m)}" in
        X64|x86_64) echo linux-x86_64 ;;
        ARM64|aarch64|arm64) echo linux-aarch64 ;;
        *) die "no release binary for Linux on ${RUNNER_ARCH:-$(uname -m)}; use install: source" ;;
      esac ;;
    *) die "no release binary for ${RUNNER_OS:-$(uname -s)}; use install: source" ;;
  esac
}

install_release() { # VERSION
  local version=$1 plat name base dir
  plat=$(platform) || exit 2
  name="xcmedic-$version-$plat"
  base=${XCMEDIC_DOWNLOAD_URL:-https://github.com/${ACTION_REPOSITORY:?}/releases/download}
  dir="${RUNNER_TEMP:?RUNNER_TEMP is not set}/xcmedic-$version"
  mkdir -p "$dir"
  echo "xcmedic: downloading $base/v$version/$name.tar.gz" >&2
  curl -fsSL --retry 3 -o "$dir/$name.tar.gz" "$base/v$version/$name.tar.gz" || die "could not download $base/v$version/$name.tar.gz"
  curl -fsSL --retry 3 -o "$dir/$name.tar.gz.sha256" "$base/v$version/$name.tar.gz.sha256" || die "could not download the checksum $name.tar.gz.sha256"
  local expected actual
  expected=$(cut -d' ' -f1 <"$dir/$name.tar.gz.sha256")
  actual=$(sha256 "$dir/$name.tar.gz")
  if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
    die "checksum mismatch for $name.tar.gz: expected $expected, got $actual"
  fi
  tar -xzf "$dir/$name.tar.gz" -C "$dir" || die "could not unpack $name.tar.gz"
  echo "$dir/$name"
}

install_source() {
  local dir=${ACTION_PATH:?}
  command -v swift >/dev/null 2>&1 || die "install: source needs Swift 6 on the runner (Xcode 16 on macOS)"
  local args=(-c release --product xcmedic --package-path "$dir")
  echo "xcmedic: swift build ${args[*]}" >&2
  swift build "${args[@]}" >&2 || die "swift build failed"
  # The history store's executable (scan --record, xcmedic history), which xcmedic runs from beside itself.
  swift build -c release --product xcmedic-history --package-path "$dir" >&2 || die "swift build of xcmedic-history failed"
  swift build "${args[@]}" --show-bin-path
}

install() {
  local mode version bindir resolved
  resolved=$(resolve) || exit 2
  read -r mode version <<<"$resolved"
  case "$mode" in
    release) bindir=$(install_release "$version" | tail -n1) || exit 2 ;;
    source) bindir=$(install_source) || exit 2 ;;
    path) bindir=$(dirname "$(command -v xcmedic || die "install: path, but xcmedic is not on the PATH")") || exit 2 ;;
  esac
  [ -x "$bindir/xcmedic" ] || die "no xcmedic in $bindir"
  if [ "$mode" != path ]; then [ -x "$bindir/xcmedic-history" ] || die "no xcmedic-history in $bindir (it ships with xcmedic)"; fi
  local reported
  reported=$("$bindir/xcmedic" --version) || die "$bindir/xcmedic does not run"
  if [ "$mode" = release ] && [ "$reported" != "$version" ]; then die "$bindir/xcmedic says it is $reported, not $version"; fi
  echo "xcmedic $reported ($mode) in $bindir"
  echo "$bindir" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
  output xcmedic "$bindir/xcmedic"
}

scan() {
  local xcmedic=${XCMEDIC:-xcmedic} fail_on=${INPUT_FAIL_ON:-error} sarif=${INPUT_SARIF:-}
  # Arrays expanded as ${a[@]+"${a[@]}"}: macOS's bash 3.2 calls an empty "${a[@]}" unbound under set -u.
  local -a extra=() logs=()
  # INPUT_ARGS is split on blanks, as a command line without quotes would be.
  read -r -a extra <<<"${INPUT_ARGS:-}"
  local status=0 command_status=0 log
  if [ -n "${INPUT_COMMAND:-}" ]; then
    [ -z "${INPUT_LOG:-}" ] || die "give either log or command, not both"
    log=${INPUT_LOG_FILE:-${RUNNER_TEMP:?RUNNER_TEMP is not set}/xcmedic-build.log}
    mkdir -p "$(dirname "$log")"
    # Pipe mode: the build's output shows as it runs and is kept in the log; annotations and the job
    # summary come at the end.
    bash -o pipefail -c "$INPUT_COMMAND" 2>&1 | tee "$log" | "$xcmedic" scan --tee --format github --fail-on "$fail_on" ${extra[@]+"${extra[@]}"}
    local statuses=("${PIPESTATUS[@]}")
    command_status=${statuses[0]}
    status=${statuses[2]}
    logs=("$log")
    output log "$log"
  else
    [ -n "${INPUT_LOG:-}" ] || die "give log (a file, folder or glob) or command"
    local word
    # shellcheck disable=SC2086 # globs in the input are meant to expand
    for word in ${INPUT_LOG//$'\n'/ }; do logs+=("$word"); done
    "$xcmedic" scan --format github --fail-on "$fail_on" ${extra[@]+"${extra[@]}"} "${logs[@]}"
    status=$?
    output log "${logs[*]}"
  fi
  if [ -n "$sarif" ]; then
    mkdir -p "$(dirname "$sarif")"
    local sarif_status=0
    "$xcmedic" scan --format sarif --report "$sarif" --fail-on never ${extra[@]+"${extra[@]}"} "${logs[@]}" || sarif_status=$?
    if [ "$sarif_status" = 0 ]; then output sarif "$sarif"; else echo "::warning title=xcmedic action::no SARIF report (scan exited $sarif_status)"; fi
  fi
  output status "$status"
  output command-status "$command_status"
  return 0
}

finish() {
  local command_status=${COMMAND_STATUS:-0} status=${SCAN_STATUS:-0}
  if [ "$command_status" != 0 ]; then
    echo "xcmedic: the build command failed (exit $command_status)"
    exit "$command_status"
  fi
  case "$status" in
    0) exit 0 ;;
    1) echo "xcmedic: findings reached fail-on (${INPUT_FAIL_ON:-error})"; exit 1 ;;
    3) echo "xcmedic: the log shows no build result and no failure xcmedic knows (it may be cut); see where it stops above"; exit 3 ;;
    *) echo "xcmedic: scan could not run (exit $status)"; exit "$status" ;;
  esac
}

case "${1:-}" in
  cache-key) cache_key ;;
  install) install ;;
  scan) scan ;;
  finish) finish ;;
  *) echo "usage: action.sh cache-key|install|scan|finish" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Checks a Linux release archive the way a user without Swift would meet it:
#
#   scripts/check-linux-binary.sh ARCHIVE [--root DIR]
#
# - the archive matches ARCHIVE.sha256 and holds xcmedic, LICENSE and README.md;
# - `ldd` shows no Swift runtime, Foundation, Dispatch or zlib library (the toolchain's or any);
# - the binary runs with an empty environment (`env -i`, no LD_LIBRARY_PATH, PATH=/usr/bin:/bin, so no
#   /opt/swift or other toolchain folder): --version, and a scan of Examples/macro-trust-failure.log
#   that names the untrusted macro's package and exits 1, and of the same log gzipped (zlib is inside);
# - with --root DIR (a minimal Debian made by `debootstrap --variant=minbase`, which holds what
#   debian:*-slim holds and no Swift): the same scan inside `chroot DIR`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
archive=${1:?usage: check-linux-binary.sh ARCHIVE [--root DIR]}
shift
chroot_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --root) chroot_dir=$2; shift 2 ;;
    *) echo "check-linux-binary.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
fail() { echo "check-linux-binary.sh: $*" >&2; exit 1; }

(cd "$(dirname "$archive")" && sha256sum -c "$(basename "$archive").sha256" >/dev/null) || fail "$archive does not match its .sha256"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$archive" -C "$work"
dir=$(find "$work" -mindepth 1 -maxdepth 1 -type d)
for f in xcmedic LICENSE README.md; do [ -f "$dir/$f" ] || fail "$(basename "$archive") has no $f"; done
grep -q "MIT License" "$dir/LICENSE" || fail "LICENSE is not the MIT licence"
bin="$dir/xcmedic"

libs=$(ldd "$bin" 2>&1 || true)
echo "ldd $(basename "$archive")/xcmedic:"
echo "$libs"
if grep -E "libswift|libFoundation|libdispatch|libBlocksRuntime|lib_Foundation|libz\.so|not found" <<<"$libs"; then
  fail "the binary needs the libraries above"
fi

example="$root/Examples/macro-trust-failure.log"
# The same log gzipped: zlib is linked in, so the binary must inflate it with no libz on the system.
gzip -c "$example" >"$work/macro-trust-failure.log.gz"
check_scan() { # STATUS OUTPUT
  [ "$1" = 1 ] || fail "scan of the example exited $1, not 1: $2"
  grep -q "swift-case-paths" <<<"$2" || fail "scan of the example does not name swift-case-paths: $2"
}

version=$(env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= "$bin" --version) || fail "$bin --version failed in an empty environment"
status=0
output=$(env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= HOME=/nonexistent "$bin" scan --no-config --color never "$example" 2>&1) || status=$?
check_scan "$status" "$output"
status=0
output=$(env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= "$bin" scan --no-config --color never "$work/macro-trust-failure.log.gz" 2>&1) || status=$?
check_scan "$status" "$output"
echo "env -i: xcmedic $version ran; the scans of the example and of it gzipped named swift-case-paths and exited 1"

if [ -n "$chroot_dir" ]; then
  [ -x "$chroot_dir/bin/sh" ] || fail "$chroot_dir is not a root file system"
  if [ -e "$chroot_dir/opt/swift" ] || [ -n "$(find "$chroot_dir" -xdev -name 'libswiftCore*' -print -quit 2>/dev/null)" ]; then
    fail "$chroot_dir has a Swift toolchain; it would prove nothing"
  fi
  inside="/tmp/xcmedic-check-$$"
  mkdir -p "$chroot_dir$inside"
  cp "$bin" "$example" "$work/macro-trust-failure.log.gz" "$chroot_dir$inside/"
  # /proc as every Linux system and container has it (the Swift runtime reads its arguments there).
  mounted=0
  if [ ! -e "$chroot_dir/proc/self" ]; then mount -t proc proc "$chroot_dir/proc" && mounted=1; fi
  status=0
  output=$(chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/bin:/bin "$inside/xcmedic" scan --no-config --color never "$inside/$(basename "$example")" 2>&1) || status=$?
  check_scan "$status" "$output"
  status=0
  output=$(chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/bin:/bin "$inside/xcmedic" scan --no-config --color never "$inside/macro-trust-failure.log.gz" 2>&1) || status=$?
  if [ "$mounted" = 1 ]; then umount "$chroot_dir/proc"; fi
  rm -rf "${chroot_dir:?}$inside"
  check_scan "$status" "$output"
  system=$(sed -n 's/^PRETTY_NAME="\(.*\)"$/\1/p' "$chroot_dir/etc/os-release" 2>/dev/null || true)
  echo "chroot $chroot_dir (${system:-unknown system}, no Swift): the scans of the example and of it gzipped named swift-case-paths and exited 1"
fi

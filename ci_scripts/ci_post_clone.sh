#!/bin/zsh
# shellcheck shell=bash
# Xcode Cloud runs this after cloning the repository, before it resolves packages and builds
# (https://developer.apple.com/documentation/xcode/writing-custom-build-scripts).
# It must stay executable, also in git: git update-index --chmod=+x ci_scripts/ci_post_clone.sh
# Stop at the first failing command, unset variable or failing pipe, so a broken step fails the
# build here with its own message instead of later with a confusing one.
set -euo pipefail

# >>> xcmedic >>>
# Written by `xcmedic ci-scripts`. Running it again replaces this block and nothing else in the file.
# Regenerate with: xcmedic ci-scripts --project Examples/SampleApp --ci-scripts-dir ci_scripts --replace --macro swift-case-paths:CasePathsMacros --macro swift-perception:PerceptionMacros --plugin swiftlintplugins:SwiftLintBuildToolPlugin
#
# Trusts exactly the package macros and build-tool plugins listed below, at the revision pinned in
# the Package.resolved of the commit being built, by writing Xcode's allow-lists
# ~/Library/org.swift.swiftpm/security/macros.json and plugins.json (what "Trust & Enable" writes).
# Each fingerprint is read from Package.resolved when this runs, so updating a dependency needs no
# change here. Uses only the shell, awk, mkdir and mv of a stock macOS: no jq, no network.
xcmedic_dir=$(cd "$(dirname "$0")" && pwd)
xcmedic_resolved="$xcmedic_dir/"'../Examples/SampleApp/SampleApp.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved'
xcmedic_security="$HOME/Library/org.swift.swiftpm/security"
# awk program: reads Package.resolved (format 1, 2 or 3) and prints an allow-list for the
# (package identity, target name) pairs that follow it on the command line.
xcmedic_awk='
function warn(msg) { printf "xcmedic: %s\n", msg > "/dev/stderr" }
function unescape(s,   out, c, i, hex) {
  out = ""
  while ((i = index(s, "\\")) > 0) {
    out = out substr(s, 1, i - 1); c = substr(s, i + 1, 1); s = substr(s, i + 2)
    if (c == "n") out = out "\n"; else if (c == "t") out = out "\t"; else if (c == "r") out = out "\r"
    else if (c == "b") out = out "\b"; else if (c == "f") out = out "\f"
    else if (c == "u") {
      hex = tolower(substr(s, 1, 4)); s = substr(s, 5)
      if (hex ~ /^00[0-7][0-9a-f]$/) out = out chr[(index(HEXDIGITS, substr(hex, 3, 1)) - 1) * 16 + index(HEXDIGITS, substr(hex, 4, 1)) - 1]
      else out = out "\\u" hex
    } else out = out c
  }
  return out s
}
function quote(s,   out, c, i) {
  out = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c == "\\" || c == "\"") out = out "\\" c
    else if (c == "\n") out = out "\\n"; else if (c == "\t") out = out "\\t"; else if (c == "\r") out = out "\\r"
    else if (c in ord) out = out sprintf("\\u%04x", ord[c])
    else out = out c
  }
  return "\"" out "\""
}
function identity(url) {
  sub(/\/+$/, "", url); sub(/^.*[\/:]/, "", url); sub(/\.git$/, "", url)
  return tolower(url)
}
function scalar(v, isstring) {
  if (depth == 1 && key[1] == "version") format = v
  if (!isstring) return
  if (depth == 3 && key[1] == "pins" && key[3] == "identity") { id[key[2]] = v; if (key[2] + 1 > pins) pins = key[2] + 1 }
  if (depth == 4 && key[1] == "pins" && key[3] == "state" && key[4] == "revision") rev[key[2]] = v
  if (depth == 4 && key[1] == "object" && key[2] == "pins" && key[4] == "repositoryURL") { id[key[3]] = identity(v); if (key[3] + 1 > pins) pins = key[3] + 1 }
  if (depth == 5 && key[1] == "object" && key[2] == "pins" && key[4] == "state" && key[5] == "revision") rev[key[3]] = v
}
function token(t) {
  if (t == "{" || t == "[") { depth++; kind[depth] = t; key[depth] = (t == "[") ? 0 : ""; wantkey[depth] = (t == "{") }
  else if (t == "}" || t == "]") depth--
  else if (t == ",") { if (kind[depth] == "[") key[depth]++; else wantkey[depth] = 1 }
  else if (t == ":") wantkey[depth] = 0
  else if (substr(t, 1, 1) == "\"") {
    t = unescape(substr(t, 2, length(t) - 2))
    if (kind[depth] == "{" && wantkey[depth]) key[depth] = t; else scalar(t, 1)
  } else scalar(t, 0)
}
BEGIN {
  HEXDIGITS = "0123456789abcdef"
  for (i = 1; i < 32; i++) { c = sprintf("%c", i); ord[c] = i; chr[i] = c }
  chr[0] = ""
  for (i = 32; i < 128; i++) chr[i] = sprintf("%c", i)
  file = ARGV[1]
  while ((rc = (getline line < file)) > 0) {
    while (line != "") {
      if (match(line, /^[ \t\r]+/) || match(line, /^"([^"\\]|\\.)*"/) || match(line, /^[][{}:,]/) || match(line, /^[-0-9a-zA-Z.+]+/)) {
        len = RLENGTH; t = substr(line, 1, len); line = substr(line, len + 1)
        if (t !~ /^[ \t\r]/) token(t)
      } else { warn(file ": not JSON near: " substr(line, 1, 40)); exit 2 }
    }
  }
  if (rc < 0) { warn("cannot read " file); exit 2 }
  if (format != 1 && format != 2 && format != 3) { warn(file ": Package.resolved format " format " is not 1, 2 or 3"); exit 2 }
  n = 0; failed = 0
  for (a = 2; a + 1 < ARGC; a += 2) {
    want = tolower(ARGV[a]); target = ARGV[a + 1]; found = -1
    for (p = 0; p < pins; p++) if (tolower(id[p]) == want) found = p
    if (found < 0) { warn("package " quote(ARGV[a]) " is not in " file " any more: " quote(target) " is left out of the allow-list"); continue }
    if (rev[found] == "") { warn("package " quote(ARGV[a]) " is pinned without a revision (a registry or local package), so " quote(target) " has no fingerprint to trust; trust it in Xcode or use xcmedic ci-scripts --skip-validation"); failed = 1; continue }
    entry[n++] = "  {\n    \"fingerprint\" : " quote(rev[found]) ",\n    \"packageIdentity\" : " quote(id[found]) ",\n    \"targetName\" : " quote(target) "\n  }"
  }
  print "["
  for (e = 0; e < n; e++) print entry[e] (e + 1 < n ? "," : "")
  print "]"
  exit failed
}'
# xcmedic_trust FILE PACKAGE TARGET [PACKAGE TARGET ...]: writes one allow-list.
xcmedic_trust() {
  xcmedic_file="$xcmedic_security/$1"
  shift
  mkdir -p "$xcmedic_security"
  if awk "$xcmedic_awk" "$xcmedic_resolved" "$@" > "$xcmedic_file.tmp"; then
    mv "$xcmedic_file.tmp" "$xcmedic_file"
    printf 'xcmedic: wrote %s\n' "$xcmedic_file"
  else
    rm -f "$xcmedic_file.tmp"
    printf 'xcmedic: could not write %s from %s (see above)\n' "$xcmedic_file" "$xcmedic_resolved" >&2
    exit 1
  fi
}
xcmedic_trust macros.json \
  'swift-case-paths' 'CasePathsMacros' \
  'swift-perception' 'PerceptionMacros'
xcmedic_trust plugins.json \
  'swiftlintplugins' 'SwiftLintBuildToolPlugin'
# <<< xcmedic <<<

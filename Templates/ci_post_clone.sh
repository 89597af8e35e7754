#!/bin/zsh
# shellcheck shell=bash
# Xcode Cloud runs this after cloning the repository, before it resolves packages and builds
# (https://developer.apple.com/documentation/xcode/writing-custom-build-scripts).
# It must stay executable, also in git: git update-index --chmod=+x ci_scripts/ci_post_clone.sh
# Stop at the first failing command, unset variable or failing pipe, so a broken step fails the
# build here with its own message instead of later with a confusing one.
set -euo pipefail

{{XCMEDIC_BLOCK}}

# >>> xcmedic >>>
# Written by `xcmedic ci-scripts --post-xcodebuild`. Running it again replaces this block and nothing
# else in the file.
# Regenerate with: {{COMMAND}}
#
# When xcodebuild failed (CI_XCODEBUILD_EXIT_CODE is not 0), scans the action's activity logs
# ($CI_DERIVED_DATA_PATH/Logs/Build and Logs/Test) and its result bundle ($CI_RESULT_BUNDLE_PATH) and
# prints the diagnosis into the build log. It never changes the build's result: every path returns 0,
# under sh and zsh, with or without set -eu.
xcmedic_explain() {
  [ "${CI_XCODEBUILD_EXIT_CODE:-0}" = "0" ] && return 0
  if ! command -v xcmedic >/dev/null 2>&1; then
    echo "xcmedic: not installed, so this failed xcodebuild (exit code ${CI_XCODEBUILD_EXIT_CODE}) is not explained; install it in ci_scripts/ci_post_clone.sh"
    return 0
  fi
  # zsh (Xcode Cloud's shell for a script that is not executable) fails on a pattern that matches
  # nothing; make it match nothing quietly, as sh does with the [ -f ] below, in this function only.
  [ -n "${ZSH_VERSION:-}" ] && setopt LOCAL_OPTIONS NULL_GLOB
  # The result bundle first, so that it can be dropped with a shift when it cannot be read.
  set --
  [ -n "${CI_RESULT_BUNDLE_PATH:-}" ] && [ -d "${CI_RESULT_BUNDLE_PATH}" ] && set -- "${CI_RESULT_BUNDLE_PATH}"
  xcmedic_bundle=$#
  for xcmedic_log in "${CI_DERIVED_DATA_PATH:-/nonexistent}"/Logs/Build/*.xcactivitylog \
                     "${CI_DERIVED_DATA_PATH:-/nonexistent}"/Logs/Test/*.xcactivitylog; do
    [ -f "$xcmedic_log" ] && set -- "$@" "$xcmedic_log"
  done
  if [ "$#" -eq 0 ]; then
    echo "xcmedic: no activity logs under \$CI_DERIVED_DATA_PATH/Logs and no result bundle at \$CI_RESULT_BUNDLE_PATH to explain the failure with"
    return 0
  fi
  echo "xcmedic: explaining the failed xcodebuild (exit code ${CI_XCODEBUILD_EXIT_CODE}) from $(($# - xcmedic_bundle)) activity log(s)$([ "${xcmedic_bundle}" -eq 1 ] && echo " and the result bundle")"
  xcmedic_status=0
  xcmedic scan --color never "$@" || xcmedic_status=$?
  if [ "${xcmedic_status}" -eq 2 ] && [ "${xcmedic_bundle}" -eq 1 ] && [ "$#" -gt 1 ]; then
    # The result bundle could not be read (xcmedic said why above): explain with the activity logs alone.
    shift
    echo "xcmedic: explaining with the activity logs alone"
    xcmedic scan --color never "$@" || true
  fi
  return 0
}
xcmedic_explain || true
# <<< xcmedic <<<

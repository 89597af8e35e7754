# >>> xcmedic >>>
# Written by `xcmedic ci-scripts --skip-validation`. Running it again replaces this block and nothing
# else in the file.
# Regenerate with: {{COMMAND}}
#
# What this trades away: Xcode stops asking before it runs ANY package macro or build-tool plugin,
# from every package, at every revision, on this CI machine. A compromised or hijacked dependency
# update then runs its code in your build with no review. The safer default is an allow-list that
# trusts named targets at the revision pinned in Package.resolved: xcmedic ci-scripts --macro PACKAGE:TARGET
echo "xcmedic: skipping Xcode's macro and plugin validation for every package (see ci_post_clone.sh for what that trades away)"
defaults write com.apple.dt.Xcode IDESkipMacroFingerprintValidation -bool YES
# Xcode reads Apple's misspelled key "...Validatation" (sic). The correctly spelled key below it is
# ignored by Xcode today; it is written only in case a later Xcode corrects the spelling.
defaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidatation -bool YES
defaults write com.apple.dt.Xcode IDESkipPackagePluginFingerprintValidation -bool YES
# <<< xcmedic <<<

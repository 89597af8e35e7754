# Homebrew formula for a tap: `brew tap OWNER/xcmedic https://github.com/OWNER/xcmedic` then
# `brew install xcmedic`. `scripts/release.sh --source --formula OWNER/xcmedic` writes the url and
# sha256 of a tagged release's source archive into it (the release workflow does this for every tag).
class Xcmedic < Formula
  desc "Diagnoses failed Xcode and Swift CI builds: root causes with fixes"
  homepage "https://github.com/OWNER/xcmedic"
  url "https://github.com/OWNER/xcmedic/releases/download/v0.1.0/xcmedic-0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "MIT"

  # Swift 6 language mode: Xcode 16 on macOS; Homebrew's swift on Linux.
  depends_on xcode: ["16.0", :build]

  uses_from_macos "swift" => :build
  uses_from_macos "zlib"

  def install
    # SwiftPM's own sandbox cannot nest in Homebrew's; on Linux the Swift runtime goes into the binary.
    args = OS.mac? ? ["--disable-sandbox"] : ["--static-swift-stdlib"]
    # xcmedic-history holds the history store (`scan --record`, `xcmedic history`); xcmedic runs it from beside itself.
    system "swift", "build", "-c", "release", *args, "--product", "xcmedic"
    system "swift", "build", "-c", "release", *args, "--product", "xcmedic-history"
    bin.install ".build/release/xcmedic", ".build/release/xcmedic-history"
    pkgshare.install "Examples/macro-trust-failure.log"
  end

  test do
    # The example log that ships with xcmedic: an untrusted package macro. Exit 1: an error was found.
    output = shell_output("#{bin}/xcmedic scan --no-config --color never #{pkgshare}/macro-trust-failure.log", 1)
    assert_match "swift-case-paths", output
    assert_match version.to_s, shell_output("#{bin}/xcmedic --version")
    # The history store, through xcmedic-history: a recorded scan, then asked.
    shell_output("#{bin}/xcmedic scan --no-config --record #{testpath}/h.sqlite #{pkgshare}/macro-trust-failure.log", 1)
    assert_match "\"builds\" : 1", shell_output("#{bin}/xcmedic history --store #{testpath}/h.sqlite --format json")
  end
end

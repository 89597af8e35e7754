import Foundation

/// Which build a recorded diagnosis belongs to: the CI service, repository, branch, commit, job and
/// attempt, read from the variables each service documents (docs/history.md lists them), or given by
/// options. Fields a service does not give are empty strings, never guessed.
public struct BuildIdentity: Sendable, Equatable, Codable {
    /// `github-actions`, `xcode-cloud`, `bitrise`, `gitlab`, `buildkite`, `circleci`, `jenkins` or `local`.
    public var service: String
    /// `owner/name` where the service gives it, else its own name for the project.
    public var repository: String
    public var branch: String
    /// The commit the build ran on (full hash where the service gives it).
    public var commit: String
    /// The job (or workflow, step) within the build.
    public var job: String
    /// The service's id of the run (unique per run).
    public var buildID: String
    /// The number people see ("#812"); the id when the service has no number.
    public var buildNumber: String
    /// 1 for the first run of a build, 2 for its first re-run, …
    public var attempt: Int
    /// A link to the run.
    public var url: String
    /// When the build ran (the time of recording unless given).
    public var time: Date

    public init(service: String = "local", repository: String = "", branch: String = "", commit: String = "", job: String = "",
                buildID: String = "", buildNumber: String = "", attempt: Int = 1, url: String = "", time: Date = Date()) {
        self.service = service
        self.repository = repository
        self.branch = branch
        self.commit = commit
        self.job = job
        self.buildID = buildID
        self.buildNumber = buildNumber
        self.attempt = attempt
        self.url = url
        self.time = time
    }

    /// Identifies one run of one job: recording the same run again replaces its record instead of
    /// counting it twice. A run the service does not identify (a local scan) is always a new build.
    public var key: String {
        guard !buildID.isEmpty else { return "" }
        return [service, repository, buildID, job, String(attempt)].joined(separator: "\u{1F}")
    }

    /// The build as people name it: `#812` or the id, with the attempt when it is a re-run.
    public var label: String {
        let name = buildNumber.isEmpty ? (buildID.isEmpty ? "local" : buildID) : "#" + buildNumber
        return attempt > 1 ? "\(name) (attempt \(attempt))" : name
    }

    /// The identity of this run as the CI service describes it in `variables`.
    public static func fromEnvironment(_ variables: [String: String], now: Date = Date()) -> BuildIdentity {
        func v(_ name: String) -> String { variables[name].map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
        func first(_ names: String...) -> String { names.lazy.map(v).first { !$0.isEmpty } ?? "" }
        func int(_ text: String) -> Int? { Int(text) }
        var id = BuildIdentity(time: now)
        switch CIEnvironment(variables).provider {
        case .githubActions:
            id.service = "github-actions"
            id.repository = v("GITHUB_REPOSITORY")
            // A pull request's run is on refs/pull/N/merge; its branch is the head branch.
            id.branch = first("GITHUB_HEAD_REF", "GITHUB_REF_NAME")
            id.commit = v("GITHUB_SHA")
            id.job = [v("GITHUB_WORKFLOW"), v("GITHUB_JOB")].filter { !$0.isEmpty }.joined(separator: "/")
            id.buildID = v("GITHUB_RUN_ID")
            id.buildNumber = v("GITHUB_RUN_NUMBER")
            id.attempt = int(v("GITHUB_RUN_ATTEMPT")) ?? 1
            if !v("GITHUB_RUN_ID").isEmpty, !id.repository.isEmpty {
                id.url = "\(first("GITHUB_SERVER_URL").isEmpty ? "https://github.com" : v("GITHUB_SERVER_URL"))/\(id.repository)/actions/runs/\(id.buildID)"
            }
        case .xcodeCloud:
            id.service = "xcode-cloud"
            id.repository = first("CI_PULL_REQUEST_TARGET_REPO", "CI_PRODUCT")
            id.branch = first("CI_PULL_REQUEST_SOURCE_BRANCH", "CI_BRANCH", "CI_TAG")
            id.commit = first("CI_PULL_REQUEST_SOURCE_COMMIT", "CI_COMMIT")
            id.job = [v("CI_WORKFLOW"), v("CI_XCODEBUILD_ACTION")].filter { !$0.isEmpty }.joined(separator: "/")
            id.buildID = first("CI_BUILD_ID", "CI_BUILD_NUMBER")
            id.buildNumber = v("CI_BUILD_NUMBER")
            id.url = v("CI_BUILD_URL")
        case .bitrise:
            id.service = "bitrise"
            id.repository = first("BITRISEIO_GIT_REPOSITORY_SLUG", "GIT_REPOSITORY_URL", "BITRISE_APP_TITLE")
            id.branch = first("BITRISE_GIT_BRANCH", "BITRISE_GIT_TAG")
            id.commit = first("BITRISE_GIT_COMMIT", "GIT_CLONE_COMMIT_HASH")
            id.job = v("BITRISE_TRIGGERED_WORKFLOW_ID")
            id.buildID = first("BITRISE_BUILD_SLUG", "BITRISE_BUILD_NUMBER")
            id.buildNumber = v("BITRISE_BUILD_NUMBER")
            id.url = v("BITRISE_BUILD_URL")
        case .gitlab:
            id.service = "gitlab"
            id.repository = v("CI_PROJECT_PATH")
            id.branch = first("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "CI_COMMIT_BRANCH", "CI_COMMIT_REF_NAME")
            id.commit = v("CI_COMMIT_SHA")
            id.job = v("CI_JOB_NAME")
            // A retried job is a new job with its own id in the same pipeline.
            id.buildID = first("CI_JOB_ID", "CI_PIPELINE_ID")
            id.buildNumber = first("CI_PIPELINE_IID", "CI_PIPELINE_ID")
            id.url = first("CI_JOB_URL", "CI_PIPELINE_URL")
        case .buildkite:
            id.service = "buildkite"
            let org = v("BUILDKITE_ORGANIZATION_SLUG"), pipeline = v("BUILDKITE_PIPELINE_SLUG")
            id.repository = org.isEmpty || pipeline.isEmpty ? first("BUILDKITE_REPO", "BUILDKITE_PIPELINE_SLUG") : "\(org)/\(pipeline)"
            id.branch = v("BUILDKITE_BRANCH")
            id.commit = v("BUILDKITE_COMMIT")
            id.job = first("BUILDKITE_STEP_KEY", "BUILDKITE_LABEL")
            id.buildID = first("BUILDKITE_JOB_ID", "BUILDKITE_BUILD_ID")
            id.buildNumber = v("BUILDKITE_BUILD_NUMBER")
            id.attempt = (int(v("BUILDKITE_RETRY_COUNT")) ?? 0) + 1
            id.url = v("BUILDKITE_BUILD_URL")
        case .circleci:
            id.service = "circleci"
            let user = v("CIRCLE_PROJECT_USERNAME"), repo = v("CIRCLE_PROJECT_REPONAME")
            id.repository = user.isEmpty || repo.isEmpty ? first("CIRCLE_REPOSITORY_URL") : "\(user)/\(repo)"
            id.branch = first("CIRCLE_BRANCH", "CIRCLE_TAG")
            id.commit = v("CIRCLE_SHA1")
            id.job = v("CIRCLE_JOB")
            id.buildID = first("CIRCLE_BUILD_NUM", "CIRCLE_WORKFLOW_JOB_ID")
            id.buildNumber = v("CIRCLE_BUILD_NUM")
            id.url = v("CIRCLE_BUILD_URL")
        case .jenkins:
            id.service = "jenkins"
            id.repository = first("GIT_URL", "JOB_NAME")
            var branch = first("CHANGE_BRANCH", "BRANCH_NAME", "GIT_BRANCH")
            // The Git plugin's GIT_BRANCH names the remote: `origin/main`.
            if branch.hasPrefix("origin/") { branch.removeFirst("origin/".count) }
            id.branch = branch
            id.commit = v("GIT_COMMIT")
            id.job = v("JOB_NAME")
            id.buildID = first("BUILD_TAG", "BUILD_NUMBER")
            id.buildNumber = v("BUILD_NUMBER")
            id.url = v("BUILD_URL")
        case nil:
            break
        }
        return id
    }

    /// Options win over what the environment says; empty options leave it.
    public func overriding(repository: String? = nil, branch: String? = nil, commit: String? = nil, job: String? = nil,
                           buildID: String? = nil, attempt: Int? = nil, time: Date? = nil) -> BuildIdentity {
        var id = self
        if let repository { id.repository = repository }
        if let branch { id.branch = branch }
        if let commit { id.commit = commit }
        if let job { id.job = job }
        if let buildID {
            id.buildID = buildID
            if id.buildNumber.isEmpty || id.service == "local" { id.buildNumber = buildID }
        }
        if let attempt { id.attempt = attempt }
        if let time { id.time = time }
        return id
    }

    /// Every text field through `redactor` (a branch or URL can carry a token).
    public func redacted(_ redactor: Redactor) -> BuildIdentity {
        var id = self
        id.repository = redactor.redact(BuildIdentity.withoutCredentials(repository))
        id.branch = redactor.redact(branch)
        id.job = redactor.redact(job)
        id.url = redactor.redact(BuildIdentity.withoutCredentials(url))
        id.buildID = redactor.redact(buildID)
        id.buildNumber = redactor.redact(buildNumber)
        return id
    }

    /// `https://user:token@host/x.git` → `https://host/x.git`: a clone URL may carry a credential.
    static func withoutCredentials(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@") else { return text }
        let hostStart = text[scheme.upperBound..<at]
        guard !hostStart.contains("/") else { return text }
        return String(text[..<scheme.upperBound]) + String(text[text.index(after: at)...])
    }
}

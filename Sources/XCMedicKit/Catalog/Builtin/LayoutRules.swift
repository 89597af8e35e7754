// UIKit runtime warnings that show up in test and simulator logs: Auto Layout conflicts, self-sizing
// cells that collapse, table views laid out off screen, UI calls off the main thread. They do not fail a
// run by themselves, so they are warnings; they explain flaky UI and snapshot tests.
// Message texts quoted from the public logs named in each example's `source`.
extension BuiltinCatalog {
    static let layoutRules = #"""
- id: autolayout-unsatisfiable-constraints
  title: Auto Layout could not satisfy all constraints
  category: autolayout-conflict
  severity: warning
  role: cause
  patterns:
    - literal: 'Unable to simultaneously satisfy constraints'
      regex: 'Unable to simultaneously satisfy constraints\.'
  continuation:
    while: '^(?:Probably at least one|Try this|\(\d\) |\(Note: |\($|\)$|"<)'
    collect: '^"<(?<constraints>[^>]+)>",?$'
    max_lines: 60
  message: 'Auto Layout broke a constraint to resolve a conflict'
  explanation: >
    Some required constraints contradict each other, so UIKit dropped one at run time; what ends up on screen
    depends on which one it chose, which makes UI and snapshot tests flaky. The `constraints` list is the conflicting
    set. An NSAutoresizingMaskLayoutConstraint in it means a view you constrain still has
    translatesAutoresizingMaskIntoConstraints = true; a fixed height fighting UIView-Encapsulated-Layout-Height means a
    self-sizing cell's required height.
  fixes:
    - summary: Turn off autoresizing-mask constraints on views you constrain in code
      snippet: "view.translatesAutoresizingMaskIntoConstraints = false"
    - summary: Lower the priority of the constraint that should give way (for example a height inside a self-sizing cell)
      snippet: "let height = label.heightAnchor.constraint(equalToConstant: 44)\nheight.priority = UILayoutPriority(999)\nheight.isActive = true"
    - summary: Name constraints so the log says which ones conflict, and stop in the debugger on the conflict with a symbolic breakpoint on UIViewAlertForUnsatisfiableConstraints
      snippet: "height.identifier = \"cardHeight\""
  docs:
    - https://developer.apple.com/library/archive/documentation/UserExperience/Conceptual/AutolayoutPG/DebuggingTricksandTips.html
  examples:
    match:
      - line: "2020-04-24 17:31:02.982688+0200 Runner[945:570352] [LayoutConstraints] Unable to simultaneously satisfy constraints.\n\tProbably at least one of the constraints in the following list is one you don't want. \n\tTry this: \n\t\t(1) look at each constraint and try to figure out which you don't expect; \n\t\t(2) find the code that added the unwanted constraint or constraints and fix it. \n(\n    \"<NSAutoresizingMaskLayoutConstraint:0x28364f750 h=--& v=--& _UIToolbarContentView:0x157441760.width == 0   (active)>\",\n)"
        source: https://github.com/pichillilorenzo/flutter_inappwebview/issues/308
        captures: {constraints: 'NSAutoresizingMaskLayoutConstraint:0x28364f750 h=--& v=--& _UIToolbarContentView:0x157441760.width == 0   (active)'}
    no_match:
      - line: 'Will attempt to recover by breaking constraint'

- id: autolayout-cell-zero-height
  title: Self-sizing cell's constraints give it no height
  category: autolayout-ambiguous-height
  severity: warning
  role: cause
  patterns:
    - literal: 'ambiguously suggest a '
      regex: "constraints ambiguously suggest a (?<dimension>height|size) of zero for a (?<view>table ?view|collection view) cell's content view"
  message: "A {view} cell's constraints suggest a {dimension} of zero; UIKit used the standard {dimension}"
  explanation: >
    A self-sizing cell needs an unbroken chain of constraints from the content view's top to its bottom, through
    views with an intrinsic or explicit height. Without one Auto Layout computes zero and UIKit falls back to the
    standard row height, so cells come out the wrong size. A frequent case is a stack view whose arranged views have
    no intrinsic height, or a collection view inside a table cell, whose height depends on its content.
  fixes:
    - summary: Pin the subviews to the cell's contentView (not the cell) at both top and bottom
      snippet: "NSLayoutConstraint.activate([\n  stack.topAnchor.constraint(equalTo: contentView.topAnchor, constant: 8),\n  stack.bottomAnchor.constraint(equalTo: contentView.bottomAnchor, constant: -8),\n])"
    - summary: Give a stack view (for example in a footer) whose arranged views have no intrinsic height a minimum height
      snippet: "stack.heightAnchor.constraint(greaterThanOrEqualToConstant: 44).isActive = true"
    - summary: For a collection view inside a table cell, size the cell from the collection view's content after laying it out
      snippet: "override func systemLayoutSizeFitting(_ targetSize: CGSize, withHorizontalFittingPriority h: UILayoutPriority, verticalFittingPriority v: UILayoutPriority) -> CGSize {\n  collectionView.frame = CGRect(origin: .zero, size: CGSize(width: targetSize.width, height: 1))\n  collectionView.layoutIfNeeded()\n  return CGSize(width: targetSize.width, height: collectionView.collectionViewLayout.collectionViewContentSize.height)\n}"
    - summary: Or give rows an explicit height
      snippet: "tableView.rowHeight = 64"
  examples:
    match:
      - line: "Warning once only: Detected a case where constraints ambiguously suggest a height of zero for a table view cell's content view. We're considering the collapse unintentional and using standard height instead. Cell: <MyFlightbook.ExpandHeaderCell: 0x1042e4a00; baseClass = UITableViewCell; frame = (0 102; 402 80); ...>"
        source: https://github.com/ericberman/MyFlightbookiOS/issues/379
        captures: {dimension: height, view: table view}
      - line: "Warning once only: Detected a case where constraints ambiguously suggest a height of zero for a tableview cell's content view. We're considering the collapse unintentional and using standard height instead."
        source: https://github.com/xmartlabs/XLForm/issues/853
        captures: {view: tableview}
      - line: "Warning once only: Detected a case where constraints ambiguously suggest a size of zero for a collection view cell's content view. We're considering the collapse unintentional and using standard size"
        source: https://github.com/WenchaoD/FSPagerView/issues/372
        captures: {dimension: size, view: collection view}
    no_match:
      - line: 'Warning once only: UITableView was told to layout its visible cells and other contents without being in the view hierarchy'

- id: tableview-layout-outside-window
  title: Table view laid out while not in a window
  category: tableview-offscreen-layout
  severity: warning
  role: cause
  patterns:
    - literal: 'UITableView was told to layout its visible cells'
      regex: 'UITableView was told to layout its visible cells and other contents without being in the view hierarchy'
  message: 'A table view was laid out before it was in a window'
  explanation: >
    reloadData, layoutIfNeeded or batch updates ran on a table view that is not in a window yet (in viewDidLoad
    of a child view controller, on a tab that is not visible, or in a unit test that never shows the view). Cells are
    then sized without the real bounds, traits and safe area and laid out again later, which shows up as wrong
    sizes, extra work and flaky snapshot tests. A table view with a zero frame at reload time is the same problem.
  fixes:
    - summary: Reload when the table view is on screen (viewWillAppear or later), or skip layout while it has no window
      snippet: "guard tableView.window != nil else { needsReload = true; return }\ntableView.reloadData()"
    - summary: Make sure the table view has its real, non-zero size when it reloads (lay out its superview first)
      snippet: "view.layoutIfNeeded()\ntableView.reloadData()"
    - summary: In unit tests, put the view controller in a window before triggering layout
      snippet: "let window = UIWindow(frame: UIScreen.main.bounds)\nwindow.rootViewController = vc\nwindow.makeKeyAndVisible()"
    - summary: Stop in the debugger where it happens with a symbolic breakpoint on UITableViewAlertForLayoutOutsideViewHierarchy
  examples:
    match:
      - line: '2023-03-12 15:32:57.160381-0700 NetNewsWire[23078:800895] [TableView] Warning once only: UITableView was told to layout its visible cells and other contents without being in the view hierarchy (the table view or one of its superviews has not been added to a window). This may cause bugs by forcing views inside the table view to load and perform layout without accurate information (e.g. table view bounds, trait collection, layout margins, safe area insets, etc), and will also cause unnecessary performance overhead due to extra layout passes.'
        source: https://github.com/Ranchero-Software/NetNewsWire/issues/3910 (line shortened after "passes.")
    no_match:
      - line: 'Make a symbolic breakpoint at UIViewAlertForUnsatisfiableConstraints to catch this in the debugger.'

- id: main-thread-checker
  title: UI API called off the main thread
  category: concurrency-other
  severity: warning
  role: cause
  patterns:
    - literal: 'Main Thread Checker: UI API called on a background thread'
      regex: 'Main Thread Checker: UI API called on a background thread: (?<api>[-+]\[\w+ [\w:]+\])'
  message: 'UI API {api} was called on a background thread'
  explanation: >
    UIKit or AppKit was used from a background queue, typically in a completion handler of URLSession, Photos or a
    third-party SDK. It can corrupt UI state and crash at random; with Swift 6 the same code is often rejected at
    compile time or traps at run time with an isolation check.
  fixes:
    - summary: Hop to the main actor before touching UI
      snippet: "Task { @MainActor in self.updateUI() }\n// or\nDispatchQueue.main.async { self.updateUI() }"
    - summary: Mark the UI type @MainActor so the compiler finds the other places
      snippet: "@MainActor final class FeedViewController: UIViewController { ... }"
  examples:
    match:
      - line: 'Main Thread Checker: UI API called on a background thread: -[UIViewController presentedViewController]'
        source: https://github.com/kevin-lyn/STPopup/issues/140
        captures: {api: '-[UIViewController presentedViewController]'}
    no_match:
      - line: 'Main Thread Checker: enabled'
"""#
}

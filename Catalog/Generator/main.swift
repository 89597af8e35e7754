import Foundation
import XCMedicKit

// Catalog/embed.sh: reads Catalog/*.yml with RuleLoader (every check a user's rules file gets) and
// writes Sources/XCMedicKit/Catalog/CompiledCatalog.swift, the rules the binary carries.
//   xcmedic-embed-catalog CATALOG_FOLDER OUTPUT_FILE
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: xcmedic-embed-catalog CATALOG_FOLDER OUTPUT_FILE\n".utf8))
    exit(2)
}
do {
    let source = try CatalogCompiler.swiftSource(catalogFolder: URL(fileURLWithPath: arguments[1], isDirectory: true))
    let output = URL(fileURLWithPath: arguments[2])
    if (try? String(contentsOf: output, encoding: .utf8)) == source {
        print("\(arguments[2]) is up to date")
    } else {
        try Data(source.utf8).write(to: output, options: .atomic)
        print("wrote \(arguments[2])")
    }
} catch {
    FileHandle.standardError.write(Data("xcmedic-embed-catalog: \(error)\n".utf8))
    exit(1)
}

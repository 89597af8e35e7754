#!/usr/bin/env bash
# Regenerates Sources/XCMedicKit/Catalog/CompiledCatalog.swift from the YAML files in this folder,
# which are the source of truth for the built-in rules. NN-<family>.yml are the rule families in
# priority order (a line is claimed by the first rule that matches it); categories.yml lists the known
# categories; keywords.yml the last-resort words.
#
# The files are read by RuleLoader, with every check a user's rules file gets (fields, ids, regexes
# that compile and cannot backtrack catastrophically), by a small Swift program of this package
# (Catalog/Generator, target xcmedic-embed-catalog), which writes the rules as a token stream the binary
# reads at start-up without parsing YAML (CatalogCompiler). Needs only Swift: runs on Linux and macOS.
# CatalogEmbedTests fails when the generated file and these files disagree.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product xcmedic-embed-catalog >&2
"$(swift build --show-bin-path)/xcmedic-embed-catalog" Catalog Sources/XCMedicKit/Catalog/CompiledCatalog.swift

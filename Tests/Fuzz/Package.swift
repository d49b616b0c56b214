// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for fmtd's parsers and data loaders. Build and run them with `Tests/Fuzz/run.sh [seconds]`,
// which passes `-sanitize=fuzzer,address`; a plain `swift build` of this package is not useful.
let targets = [
    "fuzz-request", "fuzz-locale", "fuzz-date", "fuzz-phone", "fuzz-address-formats", "fuzz-phone-metadata",
    "fuzz-message-catalogue", "fuzz-message-format", "fuzz-postal-code", "fuzz-copy-rules",
]

/// fmtd's library product of the modules under test; the name pins the dependency's identity, which would
/// otherwise be the checkout directory's name.
let modules = Target.Dependency.product(name: "FmtdModules", package: "fmtd")

let package = Package(
    name: "fmtd-fuzz",
    dependencies: [.package(name: "fmtd", path: "../..")],
    targets: [
        // Declares libFuzzer's `LLVMFuzzerRunDriver`, which the sanitizer runtime provides at link time.
        .target(name: "FuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["FuzzDriver", modules]),
    ] + targets.map { .executableTarget(name: $0, dependencies: ["FuzzSupport", modules]) },
    swiftLanguageModes: [.v6]
)

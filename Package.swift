// swift-tools-version:6.0
import PackageDescription

/// Values that lend a request's bytes are not escapable (`~Escapable`, `@_lifetime`): the compiler keeps them inside
/// the closure that lends them.
let lendsBorrowedBytes: [SwiftSetting] = [.enableExperimentalFeature("Lifetimes")]

let package = Package(
    name: "fmtd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "fmtd", targets: ["fmtd"]),
        .executable(name: "fmtq", targets: ["fmtq"]),
        .executable(name: "fmtbench", targets: ["fmtbench"]),
        // The client for Swift services on the same machine: connect, pipeline, one typed call per op.
        .library(name: "FmtClient", targets: ["FmtClient"]),
        // The modules the fuzz targets in Tests/Fuzz drive; not an API promise.
        .library(
            name: "FmtdModules",
            targets: [
                "FmtCore", "FmtDispatch", "FmtHost", "AddressFormatting", "DateFormatting", "PhoneNumbers",
                "PhoneFormatting", "NameServices", "CopyRules", "PatternMatching",
            ]
        ),
    ],
    targets: [
        // C shims: Linux APIs Glibc lacks, and an opaque ICU facade with no ICU types in its header.
        .target(name: "CSystem", cSettings: [.define("_GNU_SOURCE")]),
        .systemLibrary(name: "CICULink", pkgConfig: "icu-i18n", providers: [.apt(["libicu-dev"])]),
        .target(name: "CICU", dependencies: ["CICULink"]),

        // The plugin API: protocol types, requests and the response writer, JSON codec, locale resolution, data
        // store, errors.
        .target(name: "FmtCore", dependencies: ["CICU", "CSystem"], swiftSettings: lendsBorrowedBytes),
        // The host's request machinery: dispatcher, plugin registry and reload, stats; plugins never import it.
        .target(name: "FmtDispatch", dependencies: ["FmtCore"]),
        // epoll event loops, connections, listener, sd_notify, signals, logging.
        .target(name: "FmtServer", dependencies: ["FmtCore", "FmtDispatch", "CSystem"]),
        // The client side of the socket: connection, pipelining, typed calls (fmtq, fmtbench, tests, services).
        .target(name: "FmtClient", dependencies: ["FmtCore", "CSystem"]),
        // One option table per command drives parsing, validation messages and --help (fmtd, fmtq, fmtbench).
        .target(name: "FmtCommandLine"),
        // The wire protocol described for people: fmtd-protocol(7) and fmtq's completion of `raw`.
        .target(name: "FmtProtocol", dependencies: ["FmtCommandLine"]),

        // One regular-expression engine for the data's patterns (postal codes, phone metadata): parser, compiler and
        // a bounded backtracking matcher, generic over the alphabet (ASCII bytes, digits).
        .target(name: "PatternMatching"),

        // Formatter plugins.
        .target(name: "AddressFormatting", dependencies: ["FmtCore", "CICU", "PatternMatching"]),
        .executableTarget(name: "address-formats-gen", dependencies: ["FmtCore"]),
        .plugin(
            name: "GenerateAddressFormats",
            capability: .command(
                intent: .custom(
                    verb: "generate-address-formats",
                    description: "Convert libaddressinput's and OpenCage's address data to data/address-formats.json"
                ),
                permissions: [.writeToPackageDirectory(reason: "Writes data/address-formats.json")]
            ),
            dependencies: ["address-formats-gen"]
        ),
        .target(name: "DateFormatting", dependencies: ["FmtCore", "CICU"]),
        .target(
            name: "PhoneNumbers", dependencies: ["FmtCore", "PatternMatching"], swiftSettings: lendsBorrowedBytes),
        .executableTarget(name: "phone-metadata-gen", dependencies: ["PhoneNumbers"]),
        .plugin(
            name: "GeneratePhoneMetadata",
            capability: .command(
                intent: .custom(
                    verb: "generate-phone-metadata",
                    description: "Convert libphonenumber's PhoneNumberMetadata.xml to data/phone-metadata.json"
                ),
                permissions: [.writeToPackageDirectory(reason: "Writes data/phone-metadata.json")]
            ),
            dependencies: ["phone-metadata-gen"]
        ),
        .plugin(
            name: "BuildDeb",
            capability: .command(
                intent: .custom(
                    verb: "build-deb",
                    description:
                        "Build fmtd_<version>-1_<arch>.deb from a static release build and check it with lintian"
                ),
                permissions: [
                    .writeToPackageDirectory(
                        reason: "Builds in .build/debian/build and writes the .deb to .build/debian")
                ]
            ),
            // The package's own files (control, maintainer scripts, copyright, build-deb.sh), not Swift sources.
            exclude: ["debian"]
        ),
        .plugin(
            name: "BuildDocs",
            capability: .command(
                intent: .custom(
                    verb: "build-docs",
                    description:
                        "Build the documentation (the FmtClient DocC catalog with the generated reference pages) as a static site"
                )
            )
        ),
        .target(name: "PhoneFormatting", dependencies: ["PhoneNumbers", "FmtCore"]),
        .target(name: "NameServices", dependencies: ["FmtCore", "CICU", "CopyRules"]),
        // The product's copy rules (sentence case, no exclamation marks, informal address, the glossary) checked
        // on every catalogue message at load; pure: messages and rules in, findings out.
        .target(name: "CopyRules", dependencies: ["FmtCore"]),

        // data/ embedded at build time, so the daemon runs with nothing installed.
        .target(name: "EmbeddedData", plugins: ["EmbedData"]),
        .plugin(name: "EmbedData", capability: .buildTool(), dependencies: ["fmtd-embed"]),
        .executableTarget(name: "fmtd-embed"),

        // The composition root: the plugin catalogue, data location, languages and built-in ops.
        .target(
            name: "FmtHost",
            dependencies: [
                "FmtCore", "FmtDispatch", "FmtServer", "EmbeddedData", "AddressFormatting", "DateFormatting",
                "PhoneFormatting", "NameServices", "CopyRules",
            ]
        ),

        // Executables: thin wiring only.
        .executableTarget(name: "fmtd", dependencies: ["FmtCore", "FmtServer", "FmtHost", "FmtCommandLine"]),
        .executableTarget(name: "fmtq", dependencies: ["FmtCore", "FmtClient", "FmtCommandLine", "FmtProtocol"]),
        .executableTarget(
            name: "fmtbench",
            dependencies: [
                "FmtCore", "FmtDispatch", "FmtClient", "FmtCommandLine", "CSystem", "FmtHost", "NameServices",
            ]),

        // Tests mirror modules; IntegrationTests drive the real daemon over a real socket. FmtTesting runs one test
        // body against the daemon in-process or live.
        .target(
            name: "FmtTesting",
            dependencies: ["FmtCore", "FmtDispatch", "FmtHost", "FmtClient", "CSystem", "CopyRules"],
            path: "Tests/FmtTesting"),
        .testTarget(name: "FmtCoreTests", dependencies: ["FmtCore", "FmtDispatch", "FmtTesting"]),
        .testTarget(name: "FmtServerTests", dependencies: ["FmtServer", "FmtCore"]),
        .testTarget(name: "FmtHostTests", dependencies: ["FmtHost", "FmtCore", "FmtTesting"]),
        .testTarget(name: "FmtClientTests", dependencies: ["FmtClient", "FmtCore"]),
        .testTarget(name: "PatternMatchingTests", dependencies: ["PatternMatching", "CICU", "FmtTesting"]),
        .testTarget(name: "FmtCommandLineTests", dependencies: ["FmtCommandLine", "FmtProtocol", "FmtCore"]),
        .testTarget(
            name: "AddressFormattingTests",
            dependencies: [
                "AddressFormatting", "FmtCore", "FmtDispatch", "FmtHost", "FmtTesting", "address-formats-gen",
            ],
            exclude: ["Vectors", "address_oracle.py"]
        ),
        .testTarget(
            name: "DateFormattingTests", dependencies: ["DateFormatting", "FmtCore", "FmtTesting", "CICU"],
            exclude: ["Reference"]
        ),
        .testTarget(
            name: "PhoneNumbersTests", dependencies: ["PhoneNumbers", "FmtTesting", "phone-metadata-gen"],
            exclude: ["oracle.py", "make_vectors.py", "known-differences.json"]
        ),
        .testTarget(name: "NameServicesTests", dependencies: ["NameServices", "FmtCore", "FmtTesting", "CopyRules"]),
        .testTarget(name: "CopyRulesTests", dependencies: ["CopyRules", "FmtCore", "FmtTesting"]),
        .testTarget(
            name: "PhoneFormattingTests",
            dependencies: ["PhoneFormatting", "PhoneNumbers", "FmtCore", "FmtTesting", "fmtd"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "fmtd", "fmtq", "fmtbench", "FmtCore", "FmtClient", "FmtTesting", "CSystem", "phone-metadata-gen",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

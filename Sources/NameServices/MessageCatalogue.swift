import CICU
import CopyRules
import FmtCore
import Glibc
import Synchronization

/// How a message argument is used by a pattern, which decides the JSON types a caller may send for it.
enum ArgumentKind: Sendable, Equatable {
    /// `{name}`: a string, or a number formatted for the language.
    case text
    /// `plural`, `selectordinal`, `{n, number}`: a JSON number or a decimal string.
    case number
    /// `select`: a string (a number is selected by its text).
    case select
}

/// The ICU handle of one compiled pattern. ICU's MessageFormat caches sub-formatters while formatting,
/// so the handle is only used under its owner's lock.
struct MessageHandle: ~Copyable {
    let pointer: OpaquePointer

    deinit {
        fmt_message_close(pointer)
    }
}

/// What a catalogue pattern may be, so that every pattern that loads formats within a small, known cost on an
/// event loop's stack. ICU 72 formats a nested `plural`/`select` by recursion, about 2.3 KB of stack per level
/// (measured: 8.2 KB at depth 0, 43.9 KB at 16, 2.34 MB at 1,000), so 4,000 levels overflowed an 8 MiB loop
/// thread; no real catalogue nests more than three or four.
public enum MessageLimits {
    /// The longest pattern, in UTF-8 bytes. It bounds ICU's recursive parser (about 0.3 KB of stack per level,
    /// and a level takes at least 12 bytes) before the nesting can be measured, and the text one format copies.
    public static let maximumPatternBytes = 4096
    /// The deepest nesting of complex arguments: 1 for a lone `plural`, 2 for a `plural` inside a `select`.
    /// 16 levels cost about 44 KB of stack, a 50th of the 2 MiB a thread gets even with an unlimited stack rlimit.
    public static let maximumNesting = 16
    /// The most argument occurrences in one pattern, which bounds a response to this many copies of the values
    /// a request sends.
    public static let maximumArgumentOccurrences = 256
}

/// One catalogue pattern compiled by ICU for its language, with the arguments it needs.
final class CompiledMessage: Sendable {
    /// Each argument once, with the kind that constrains it most.
    let arguments: [(name: String, kind: ArgumentKind)]
    private let handle: Mutex<MessageHandle>

    /// Compiles a pattern; throws the reason: a limit of `MessageLimits` exceeded, or what ICU gives (syntax
    /// error and offset, unsupported argument type).
    init(pattern: String, language: String) throws(MessageCompileError) {
        let count = pattern.utf8.count
        guard count <= MessageLimits.maximumPatternBytes else {
            throw MessageCompileError(
                reason: "the pattern is \(count) bytes; at most \(MessageLimits.maximumPatternBytes) are allowed")
        }
        var error = [CChar](repeating: 0, count: 160)
        guard
            let pointer = fmt_message_open(
                language, pattern, Int32(count), Int32(MessageLimits.maximumNesting), &error, 160)
        else {
            throw MessageCompileError(reason: String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
        }
        let handle = MessageHandle(pointer: pointer)
        let occurrences = Int(fmt_message_argument_count(pointer))
        guard occurrences <= MessageLimits.maximumArgumentOccurrences else {
            throw MessageCompileError(
                reason: "the pattern uses arguments \(occurrences) times; at most "
                    + "\(MessageLimits.maximumArgumentOccurrences) are allowed")
        }
        var arguments: [(name: String, kind: ArgumentKind)] = []
        for index in 0..<Int32(occurrences) {
            var raw: Int32 = 0
            let name = ICUInfo.read { fmt_message_argument(pointer, index, $0, $1, &raw) }
            // Names reach ICU as C strings when formatting: a NUL would cut one short and make two names one.
            if let control = name.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                let code = String(control.value, radix: 16, uppercase: true).leftPadded(4)
                throw MessageCompileError(reason: "an argument name holds the control character U+\(code)")
            }
            let kind: ArgumentKind
            switch raw {
            case Int32(FMT_MESSAGE_ARG_TEXT): kind = .text
            case Int32(FMT_MESSAGE_ARG_NUMBER): kind = .number
            case Int32(FMT_MESSAGE_ARG_SELECT): kind = .select
            default:
                throw MessageCompileError(
                    reason: "argument {\(name)} has a type fmtd does not format here (use plural, select or number)")
            }
            guard let existing = arguments.firstIndex(where: { $0.name == name }) else {
                arguments.append((name, kind))
                continue
            }
            // `{n}` next to `{n, plural, …}` still needs a number; `{x}` next to a select, a string.
            switch (arguments[existing].kind, kind) {
            case (.number, .select), (.select, .number):
                throw MessageCompileError(reason: "argument {\(name)} is used both as a number and for select")
            case (.text, _):
                arguments[existing].kind = kind
            default:
                break
            }
        }
        self.arguments = arguments
        self.handle = Mutex(handle)
    }

    /// The argument names the pattern uses.
    var argumentNames: Set<String> {
        Set(arguments.map(\.name))
    }

    /// Formats with named arguments already checked against `arguments`. The names (as C strings), the values (with
    /// their lengths: a NUL inside a value is text, never its end) and ICU's error text go to ICU from buffers on the
    /// stack, put together before the lock is taken.
    func format(_ values: [(name: String, value: String, isNumber: Bool)]) throws(CoreError) -> String {
        let count = values.count
        var bytes = 0
        for value in values { bytes &+= value.name.utf8.count &+ 1 &+ value.value.utf8.count }
        let result: Result<String, CoreError> = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, bytes)) {
            text in
            withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: max(1, 2 * count)) { pointers in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, 2 * count)) { integers in
                    // Every byte goes through a checked cursor: a size computed wrong traps, never writes past.
                    var cursor = ByteCursor(text)
                    func copy(_ string: String) -> UnsafePointer<CChar> {
                        var string = string
                        let start = text.baseAddress! + cursor.written
                        string.withUTF8 { cursor.write($0) }
                        return UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)
                    }
                    for (index, value) in values.enumerated() {
                        pointers[index] = copy(value.name)
                        cursor.write(0)
                        let start = cursor.written
                        pointers[count &+ index] = copy(value.value)
                        integers[index] = Int32(cursor.written &- start)
                        integers[count &+ index] = value.isNumber ? 1 : 0
                    }
                    let arguments = Arguments(
                        count: count, names: pointers.baseAddress!, lengths: integers.baseAddress!)
                    return handle.withTracedLock { handle in Self.format(handle.pointer, arguments) }
                }
            }
        }
        return try result.get()
    }

    /// The arguments of one format as `fmt_message_format` takes them, in buffers that outlive the call: `count`
    /// names, then `count` values; `count` value lengths, then `count` is-a-number flags.
    private struct Arguments: @unchecked Sendable {
        let count: Int
        let names: UnsafeMutablePointer<UnsafePointer<CChar>?>
        let lengths: UnsafeMutablePointer<Int32>
    }

    private static func format(_ pointer: OpaquePointer, _ arguments: Arguments) -> Result<String, CoreError> {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 160) { error in
            error[0] = 0
            var length: Int32 = 0
            let count = arguments.count
            guard
                let text = fmt_message_format(
                    pointer, Int32(count), arguments.names, arguments.names + count, arguments.lengths,
                    arguments.lengths + count, &length, error.baseAddress, 160)
            else {
                let reason = String(
                    decoding: UnsafeRawBufferPointer(start: error.baseAddress, count: strnlen(error.baseAddress!, 160)),
                    as: UTF8.self)
                return .failure(.internal("ICU could not format the message: \(reason)"))
            }
            defer { fmt_names_free(text) }
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(length))
            return .success(String(decoding: bytes, as: UTF8.self))
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// Why a pattern was refused, as the data error states it.
struct MessageCompileError: Error {
    let reason: String
}

/// One message in every language its catalogue has.
struct CatalogueEntry: Sendable {
    /// The file the English text came from, for errors.
    let file: String
    let languages: [String: CompiledMessage]
}

/// Every loaded catalogue merged by key: fmtd's own (`data/messages/<lang>.json`) and each local service's
/// (`messages.d/<service>.<lang>.json`). Immutable after loading; a failed load throws and leaves no value.
struct MessageCatalogue: Sendable {
    let entries: [String: CatalogueEntry]
    /// The catalogue files loaded, in load order, for `info`.
    let files: [String]
    /// SHA-256 over every catalogue file's path and bytes.
    let checksum: String

    /// One language file of one catalogue before compilation.
    private struct SourceFile {
        let catalogue: String
        let language: String
        let path: String
        let bytes: [UInt8]
    }

    /// Loads every catalogue; `messages` receives every message as written, in load order (file by file, keys in
    /// file order), for the copy rules, and is not kept.
    init(loading data: DataStore, messages: inout [CatalogueMessage]) throws(DataError) {
        var sources: [SourceFile] = []
        for path in try data.list("messages") {
            let language = String(path.dropFirst("messages/".count).dropLast(".json".count))
            guard Self.isLanguage(language) else {
                throw DataError(file: path, "the file name must be a language code (en.json, nl.json)")
            }
            sources.append(SourceFile(catalogue: "fmtd", language: language, path: path, bytes: try data.read(path)))
        }
        for (path, bytes) in try data.localFiles("messages.d") {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let parts = name.dropLast(".json".count).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, Self.isServiceName(parts[0]), Self.isLanguage(parts[1]) else {
                throw DataError(file: path, "the file name must be <service>.<language>.json (billing.nl.json)")
            }
            sources.append(
                SourceFile(catalogue: String(parts[0]), language: String(parts[1]), path: path, bytes: bytes))
        }
        var digestInput: [UInt8] = []
        for source in sources {
            digestInput += Array(source.path.utf8) + [0] + source.bytes + [0]
        }
        checksum = SHA256.hex(digestInput)
        files = sources.map(\.path)

        var catalogueOrder: [String] = []
        var byCatalogue: [String: [SourceFile]] = [:]
        for source in sources {
            if byCatalogue[source.catalogue] == nil { catalogueOrder.append(source.catalogue) }
            byCatalogue[source.catalogue, default: []].append(source)
        }
        var entries: [String: CatalogueEntry] = [:]
        for catalogue in catalogueOrder {
            let (loaded, texts) = try Self.load(catalogue: byCatalogue[catalogue] ?? [])
            messages += texts
            for (key, entry) in loaded.sorted(by: { $0.key < $1.key }) {
                if let existing = entries[key] {
                    throw DataError(file: entry.file, field: key, "the key is already defined in \(existing.file)")
                }
                entries[key] = entry
            }
        }
        self.entries = entries
    }

    /// Loads one catalogue's language files: English is required, every language has the same keys, every
    /// pattern compiles, and no translation uses an argument the English text does not.
    private static func load(
        catalogue files: [SourceFile]
    ) throws(DataError) -> (entries: [String: CatalogueEntry], messages: [CatalogueMessage]) {
        var texts: [(file: SourceFile, patterns: [(key: String, pattern: String)])] = []
        for file in files {
            texts.append((file, try patterns(in: file)))
        }
        guard let english = texts.first(where: { $0.file.language == "en" }) else {
            let path = files.first?.path ?? "messages"
            throw DataError(file: path, "the catalogue has no English file, which every other language falls back to")
        }
        let englishKeys = Set(english.patterns.map(\.key))
        for text in texts where text.file.language != "en" {
            let keys = Set(text.patterns.map(\.key))
            if let missing = englishKeys.subtracting(keys).sorted().first {
                throw DataError(file: text.file.path, field: missing, "the key is in \(english.file.path) but not here")
            }
            if let extra = keys.subtracting(englishKeys).sorted().first {
                throw DataError(file: text.file.path, field: extra, "the key is not in \(english.file.path)")
            }
        }
        var compiled: [String: [String: CompiledMessage]] = [:]
        var englishArguments: [String: Set<String>] = [:]
        for text in [english] + texts.filter({ $0.file.language != "en" }) {
            for (key, pattern) in text.patterns {
                let message: CompiledMessage
                do {
                    message = try CompiledMessage(pattern: pattern, language: text.file.language)
                } catch {
                    throw DataError(file: text.file.path, field: key, error.reason)
                }
                if text.file.language == "en" {
                    englishArguments[key] = message.argumentNames
                } else if let extra = message.argumentNames.subtracting(englishArguments[key] ?? []).sorted().first {
                    throw DataError(
                        file: text.file.path, field: key,
                        "argument {\(extra)} is not in the English text, so callers do not send it")
                }
                compiled[key, default: [:]][text.file.language] = message
            }
        }
        let messages = texts.flatMap { text in
            text.patterns.map {
                CatalogueMessage(
                    catalogue: text.file.catalogue, file: text.file.path, language: text.file.language, key: $0.key,
                    pattern: $0.pattern)
            }
        }
        return (compiled.mapValues { CatalogueEntry(file: english.file.path, languages: $0) }, messages)
    }

    private static func patterns(in file: SourceFile) throws(DataError) -> [(key: String, pattern: String)] {
        let value: JSONValue
        do {
            value = try JSONReader.parse(file.bytes, maxDepth: 4)
        } catch {
            throw DataError(file: file.path, "not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw DataError(file: file.path, "a catalogue is a JSON object of key to message pattern")
        }
        var seen = Set<WireName>()
        var patterns: [(key: String, pattern: String)] = []
        for (key, value) in DataFields(object, file: file.path).members {
            guard isKey(key) else { throw value.invalid("keys are screen.element.variant (a-z, 0-9, _)") }
            guard seen.insert(WireName(key)).inserted else { throw value.invalid("the key appears twice") }
            let problem = "the pattern must be a string"
            guard let pattern = try value.string(or: problem) else { throw value.invalid(problem) }
            patterns.append((key, pattern))
        }
        return patterns
    }

    /// `contacts.details_updated`: two or more dot-separated segments of lower-case letters, digits and `_`.
    static func isKey(_ key: String) -> Bool {
        let segments = key.split(separator: ".", omittingEmptySubsequences: false)
        return segments.count >= 2 && key.utf8.count <= 200
            && segments.allSatisfy { segment in
                !segment.isEmpty
                    && segment.utf8.allSatisfy {
                        (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F
                    }
            }
    }

    private static func isLanguage<S: StringProtocol>(_ text: S) -> Bool {
        (2...3).contains(text.count) && text.utf8.allSatisfy { (0x61...0x7A).contains($0) }
    }

    private static func isServiceName<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && text.count <= 64
            && text.utf8.allSatisfy {
                (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2D
            }
    }
}

import FmtCore
import FmtTesting
import Foundation
import Testing

@testable import PhoneFormatting
@testable import PhoneNumbers

/// `PhoneResponse.write` puts a `phone` answer's members together in one buffer. Its bytes must be the writer's
/// members' (`writeMembers`, each escaped as any string) for every description: the vectors, random numbers in
/// every region with and without extensions, and texts that need escaping, which it must hand to the writer.
@Suite struct PhoneResponseTests {
    static let engine: PhoneEngine? = {
        let path = Paths.dataDirectory + "/" + PhonePlugin.file
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? PhoneMetadata(json: Array(data))).map { PhoneEngine(metadata: $0) }
    }()

    /// Both writings of one description, after an envelope member or at the start of an object.
    static func bothWritings(
        _ description: borrowing PhoneDescriptionBytes, afterMembers: Bool
    ) -> (fast: [UInt8], slow: [UInt8]) {
        var fast = ResponseWriter(bytes: [UInt8(ascii: "{")], afterMembers: afterMembers)
        PhoneResponse.write(description, speech: PhoneSpeech.english, to: &fast)
        var slow = ResponseWriter(bytes: [UInt8(ascii: "{")], afterMembers: afterMembers)
        PhoneResponse.writeMembers(description, speech: PhoneSpeech.english, to: &slow)
        return (fast.bytes, slow.bytes)
    }

    @Test func everyDescriptionIsWrittenAsTheWritersMembersWriteIt() throws {
        let engine = try #require(Self.engine)
        var numbers: [(String, String?, String)] = []
        for entry in try Vectors.cases("vectors/phone-format.json") {
            guard let input = entry["input"]?.objectValue, let number = input["number"]?.stringValue else { continue }
            numbers.append(
                (number, input["defaultRegion"]?.stringValue, input["viewerRegion"]?.stringValue ?? "NL"))
        }
        var generator = SeededGenerator(state: 42)
        let regions = engine.metadata.regions
        for _ in 0..<3000 {
            let region = regions.randomElement(using: &generator)!
            let viewer =
                Int.random(in: 0..<3, using: &generator) == 0 ? region : regions.randomElement(using: &generator)!
            let digits = String(
                (0..<Int.random(in: 2...14, using: &generator)).map { _ in
                    Character(String(Int.random(in: 0...9, using: &generator)))
                })
            let suffix = ["", " ext. 12", " x7", ";ext=3", " #99"].randomElement(using: &generator)!
            let plus = Bool.random(using: &generator)
            numbers.append(((plus ? "+" : "") + digits + suffix, plus ? nil : region, viewer))
        }
        var described = 0
        for (number, defaultRegion, viewer) in numbers {
            try? engine.describe(number: number, defaultRegion: defaultRegion, viewerRegion: viewer) { description in
                described += 1
                for afterMembers in [true, false] {
                    let (fast, slow) = Self.bothWritings(description, afterMembers: afterMembers)
                    #expect(fast == slow, "\(number) \(defaultRegion ?? "-") \(viewer)")
                }
            }
        }
        #expect(described > 2000)
    }

    @Test func textsThatNeedEscapingAreWrittenEscaped() throws {
        let texts: [[UInt8]] = [Array("0\"6 1".utf8), Array("a\\b".utf8), [0x31, 0x0A, 0x32], Array("tel:+31-6".utf8)]
        try texts[0].withUnsafeBufferPointer { quoted in
            try texts[1].withUnsafeBufferPointer { backslash in
                try texts[2].withUnsafeBufferPointer { newline in
                    try texts[3].withUnsafeBufferPointer { plain in
                        for (national, phoneExtension) in [(quoted, nil), (plain, backslash), (newline, plain)] {
                            let description = PhoneDescriptionBytes(
                                valid: true, e164: plain, region: nil, type: .mobile, national: national,
                                international: plain, rfc3966: plain, display: national, phoneExtension: phoneExtension,
                                possibleReason: .isPossible, dialFrom: plain, isKnownPlain: false)
                            #expect(
                                Self.bothWritings(description, afterMembers: true).fast
                                    == Self.bothWritings(description, afterMembers: true).slow)
                            let (fast, slow) = Self.bothWritings(description, afterMembers: false)
                            #expect(fast == slow)
                            let object = try JSONReader.parse(fast + [UInt8(ascii: "}")]).objectValue
                            #expect(object?["national"]?.stringValue == String(decoding: national, as: UTF8.self))
                        }
                    }
                }
            }
        }
    }

    /// The shipped metadata with some territories' records changed.
    static func engine(changing change: (String, inout [String: Any]) throws -> Void) throws -> PhoneEngine {
        let path = Paths.dataDirectory + "/" + PhonePlugin.file
        let data = try #require(FileManager.default.contents(atPath: path))
        var root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var territories = try #require(root["territories"] as? [[String: Any]])
        for index in territories.indices {
            try change(territories[index]["id"] as? String ?? "", &territories[index])
        }
        root["territories"] = territories
        return PhoneEngine(metadata: try PhoneMetadata(json: Array(try JSONSerialization.data(withJSONObject: root))))
    }

    /// Metadata whose texts need escaping (a quote in an extension prefix, a backslash in a template, a control
    /// character in an IDD) is not vouched for: its forms are checked and written escaped, as the writer would.
    @Test func formsOfMetadataTextsThatNeedEscapingAreChecked() throws {
        let engine = try Self.engine { id, territory in
            switch id {
            case "NL":
                territory["ext"] = " \"ext\" "
            case "BE":
                var formats = try #require(territory["fmt"] as? [[String: Any]])
                for format in formats.indices { formats[format]["f"] = "$1\\$2 $3 $4" }
                territory["fmt"] = formats
            case "DE":
                territory["pip"] = "0\u{1}0"
            default: break
            }
        }
        try Self.expectWrittenEscaped(
            [("+31 6 12345678 ext. 5", "NL"), ("+32 470 12 34 56", "BE"), ("+31 6 12345678", "DE")], by: engine)
        try Self.expectWrittenEscaped([("+44 20 7946 0958", "GB")], by: engine, knownPlain: true)
    }

    /// A national prefix transform that writes a quote into the national number it parses: parsed numbers are no
    /// longer vouched for by having been parsed, and that one is found out and written escaped.
    @Test func parsedNumbersOfATransformThatNeedsEscapingAreChecked() throws {
        let engine = try Self.engine { id, territory in
            if id == "FR" {
                territory["npp"] = "0(6)"
                territory["npt"] = "\"$1"
            }
        }
        try Self.expectWrittenEscaped([("06 12 34 56 78", "FR")], by: engine)
        try Self.expectWrittenEscaped([("+44 20 7946 0958", "GB")], by: engine, knownPlain: true)
        var national = ""
        try engine.describe(number: "06 12 34 56 78", defaultRegion: "FR", viewerRegion: "FR") {
            national = $0.national.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        }
        #expect(national.contains("\""), "\(national)")
    }

    static func expectWrittenEscaped(
        _ numbers: [(String, String)], by engine: PhoneEngine, knownPlain: Bool = false
    ) throws {
        var checked = 0
        for (number, viewer) in numbers {
            try engine.describe(number: number, defaultRegion: viewer, viewerRegion: viewer) { description in
                checked += 1
                #expect(description.isKnownPlain == knownPlain, "\(number) from \(viewer)")
                for afterMembers in [true, false] {
                    let (fast, slow) = Self.bothWritings(description, afterMembers: afterMembers)
                    #expect(fast == slow, "\(number) from \(viewer)")
                }
                let (fast, _) = Self.bothWritings(description, afterMembers: false)
                let object = try? JSONReader.parse(fast + [UInt8(ascii: "}")]).objectValue
                #expect(object?["dialFrom"]?.stringValue == String(decoding: description.dialFromBytes, as: UTF8.self))
                #expect(object?["national"]?.stringValue == String(decoding: description.nationalBytes, as: UTF8.self))
            }
        }
        #expect(checked == numbers.count)
    }

    /// The escape check is FmtCore's (`ByteScan.escapeFlags(of:)`), tested there; the cursor writes exactly its
    /// bytes.
    @Test func theCursorWritesExactlyItsBytes() {
        var generator = SeededGenerator(state: 7)
        let alphabet: [UInt8] = [0, 0x1F, 0x20, 0x21, 0x22, 0x2B, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xC3, 0xFF]
        for count in 0...40 {
            for _ in 0..<50 {
                let text = (0..<count).map { _ in
                    Int.random(in: 0..<4, using: &generator) == 0
                        ? alphabet.randomElement(using: &generator)! : UInt8(ascii: "7")
                }
                var copy = [UInt8](repeating: 0xEE, count: count + 2)
                copy.withUnsafeMutableBufferPointer { target in
                    text.withUnsafeBufferPointer { source in
                        var cursor = ByteCursor(UnsafeMutableBufferPointer(rebasing: target[0..<count]))
                        cursor.write(source)
                        #expect(cursor.written == count)
                    }
                }
                #expect(Array(copy[0..<count]) == text && copy[count...].allSatisfy { $0 == 0xEE })
            }
        }
    }

    /// The cursor checks every write against its buffer: a capacity that is wrong traps, it never writes past.
    @Test func aWritePastTheCursorsBufferTraps() async {
        await #expect(processExitsWith: .failure) {
            var bytes = [UInt8](repeating: 0, count: 4)
            bytes.withUnsafeMutableBufferPointer { buffer in
                var cursor = ByteCursor(buffer)
                cursor.write("12345")
            }
        }
        await #expect(processExitsWith: .failure) {
            var bytes = [UInt8](repeating: 0, count: 4)
            bytes.withUnsafeMutableBufferPointer { buffer in
                var cursor = ByteCursor(buffer)
                cursor.skip(5)
            }
        }
    }

}

import FmtCore
import FmtDispatch
import FmtHost
import FuzzSupport

/// The request line decoder as the event loop drives it: each line of the input goes through `JSONReader`,
/// `Request` and the daemon's `Dispatcher` (built by `FormatterHost`) with every plugin loaded from `data/`. Every line must get exactly one
/// response line that is a JSON object with `id` and a boolean `ok`, and the JSON writer must reproduce what
/// the reader accepted byte for byte on a second round trip.
enum RequestTarget {
    static let dispatcher: Dispatcher = {
        do {
            return try FormatterHost(source: .directory(Fuzz.dataDirectory), configDirectory: nil).dispatcher
        } catch {
            Fuzz.fail("cannot load \(Fuzz.dataDirectory): \(error)")
        }
    }()

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let value = try? JSONReader.parse(bytes) {
            checkRoundTrip(value)
            _ = try? Request(value)
        }
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if !line.isEmpty { checkResponse(to: line) }
            start = end + 1
        }
    }

    /// write(parse(write(v))) == write(v): the writer's output is JSON the reader accepts, and stable.
    static func checkRoundTrip(_ value: JSONValue) {
        let written = JSONWriter.encode(value)
        guard let again = try? JSONReader.parse(written) else {
            Fuzz.fail("the writer produced JSON the reader refuses: \(String(decoding: written, as: UTF8.self))")
        }
        guard JSONWriter.encode(again) == written else {
            Fuzz.fail("writing is not stable across a round trip: \(String(decoding: written, as: UTF8.self))")
        }
    }

    static func checkResponse(to line: UnsafeBufferPointer<UInt8>) {
        var out: [UInt8] = []
        dispatcher.respond(to: line, into: &out)
        guard out.last == 0x0A, out.firstIndex(of: 0x0A) == out.count - 1 else {
            Fuzz.fail("the response is not exactly one line: \(String(decoding: out, as: UTF8.self))")
        }
        guard case .object(let response)? = try? JSONReader.parse(out.dropLast()),
            response.keys.prefix(2) == ["id", "ok"], case .bool(let ok)? = response["ok"]
        else {
            Fuzz.fail("the response is not {\"id\":…,\"ok\":…}: \(String(decoding: out, as: UTF8.self))")
        }
        if !ok {
            guard case .object(let error)? = response["error"], case .string(let code)? = error["code"],
                !code.isEmpty, code != "internal"
            else {
                Fuzz.fail("an internal or malformed error: \(String(decoding: out, as: UTF8.self))")
            }
        }
    }
}

_ = RequestTarget.dispatcher
Fuzz.run { data, size in Fuzz.timed(data, size, RequestTarget.run) }

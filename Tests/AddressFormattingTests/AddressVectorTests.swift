import AddressFormatting
import FmtCore
import FmtTesting
import Testing

/// The shared vectors run in-process here (fast, pinpoints the case); IntegrationTests runs them over the socket.
@Suite struct AddressVectorTests {
    @Test(arguments: try Vectors.files("address"))
    func everyVectorMatchesWhenHandledInProcess(file: String) throws {
        let plugin = try loadPlugin(AddressPlugin.self)
        let vectors = try Vectors.cases(file)
        #expect(vectors.count >= 20)
        for vector in vectors {
            let source = vector.string("source") ?? ""
            let request = try Request(.object(vector["request"]?.objectValue ?? [:]))
            if let expected = vector["response"]?.objectValue {
                let response = try plugin.handle(request)
                for member in expected {
                    #expect(response[member.key] == member.value, "\(member.key) for \(source)")
                }
            } else if let expected = vector["error"]?.objectValue {
                do {
                    _ = try plugin.handle(request)
                    Issue.record("expected \(expected) for \(source)")
                } catch let error as any WireError {
                    #expect(.string(error.code) == expected["code"], "\(source)")
                    #expect(JSONValue(error.field) == expected["field"], "\(source)")
                }
            }
        }
    }
}

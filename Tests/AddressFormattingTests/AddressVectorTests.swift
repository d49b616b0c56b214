import AddressFormatting
import FmtCore
import Testing

/// The shared vectors run in-process here (fast, pinpoints the case); IntegrationTests runs them over the socket.
@Suite struct AddressVectorTests {
    @Test(arguments: AddressVector.files)
    func everyVectorMatchesWhenHandledInProcess(file: String) throws {
        let plugin = try loadPlugin()
        let vectors = try AddressVector.load(file)
        #expect(vectors.count >= 60)
        for vector in vectors {
            let request = try Request(.object(vector.request))
            if let expected = vector.response {
                let response = try plugin.handle(request)
                for member in expected {
                    #expect(response[member.key] == member.value, "\(member.key) for \(vector.source)")
                }
            } else if let expected = vector.error {
                do {
                    _ = try plugin.handle(request)
                    Issue.record("expected \(expected) for \(vector.source)")
                } catch let error as any WireError {
                    #expect(.string(error.code) == expected["code"], "\(vector.source)")
                    #expect(JSONValue(error.field) == expected["field"], "\(vector.source)")
                }
            }
        }
    }
}

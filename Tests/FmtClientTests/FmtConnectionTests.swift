import FmtClient
import FmtCore
import Testing

/// What the client decides without a daemon: where it connects, how it reports an unreachable socket, and how it
/// reads responses and error responses.
@Suite struct FmtConnectionTests {
    @Test func anExplicitSocketPathWinsOverTheEnvironmentAndTheDefault() {
        #expect(FmtConnection.socketPath("/tmp/x.sock") == "/tmp/x.sock")
        #expect(FmtConnection.defaultSocketPath == "/run/fmtd/fmtd.sock")
    }

    @Test func aMissingSocketIsUnreachableWithItsPathAndErrno() {
        #expect(
            throws: FmtClientError.unreachable(
                path: "/nonexistent/fmtd.sock", reason: "No such file or directory", errno: 2)
        ) {
            try FmtConnection(path: "/nonexistent/fmtd.sock")
        }
    }

    @Test func aPathTooLongForAUnixSocketIsUnreachableWithoutErrno() {
        let path = "/tmp/" + String(repeating: "p", count: 200)
        #expect(throws: FmtClientError.unreachable(path: path, reason: "path too long", errno: 0)) {
            try FmtConnection(path: path)
        }
    }

    @Test func anErrorResponseCarriesTheWireCodeMessageAndField() throws {
        let response = try FmtConnection.decode(
            #"{"id":null,"ok":false,"error":{"code":"bad_request","message":"must be a string","field":"address.country"}}"#
        )
        let error = try #require(FmtResponseError(response: response))
        #expect(error == FmtResponseError(code: "bad_request", message: "must be a string", field: "address.country"))
        #expect(error.description == "bad_request: must be a string (field address.country)")
    }

    @Test func aSuccessResponseIsNoError() throws {
        #expect(FmtResponseError(response: try FmtConnection.decode(#"{"id":1,"ok":true}"#)) == nil)
    }

    @Test func aLineThatIsNotAnObjectIsAMalformedResponse() {
        #expect(throws: FmtClientError.malformedResponse("[1]")) { try FmtConnection.decode("[1]") }
    }
}

/// The envelope of a response line, written around a plugin's members or an error: `Dispatcher` in FmtDispatch
/// answers with it, and a request made from a tree writes its envelope with it.
package enum ResponseLine {
    /// Appends `{"id":…,"ok":true,…body}` and a newline.
    package static func appendSuccess(_ body: JSONObject, id: JSONValue, to out: inout [UInt8]) {
        appendEnvelope(id: id, to: &out)
        if body.count > 0 {
            out.append(UInt8(ascii: ","))
            JSONWriter.appendMembers(body, to: &out)
        }
        JSONWriter.appendLiteral("}\n", to: &out)
    }

    /// Appends `{"id":…,"ok":true`, which a plugin's members and `}` follow.
    package static func appendEnvelope(id: JSONValue, to out: inout [UInt8]) {
        JSONWriter.appendLiteral(#"{"id":"#, to: &out)
        JSONWriter.append(id, to: &out)
        JSONWriter.appendLiteral(#","ok":true"#, to: &out)
    }

    /// Appends `{"id":…,"ok":false,"error":{"code","message","field"?,…details}}` and a newline.
    package static func appendError(_ error: any WireError, id: JSONValue, to out: inout [UInt8]) {
        var object: JSONObject = ["code": .string(error.code), "message": .string(error.message)]
        if let field = error.field { object.append("field", .string(field)) }
        for member in error.details { object.append(member.key, member.value) }
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.append(id, to: &out)
        out.append(contentsOf: #","ok":false,"error":"#.utf8)
        JSONWriter.append(.object(object), to: &out)
        out.append(contentsOf: "}\n".utf8)
    }
}

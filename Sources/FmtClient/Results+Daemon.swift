import FmtCore

/// A `ping` answer: the daemon is serving, at this version.
public struct DaemonVersion: FmtResult {
    public static let op = "ping"
    public let raw: JSONObject
    /// The daemon's version, such as `0.1.0`.
    public let version: String

    public init(response: JSONObject) throws(FmtDecodingError) {
        raw = response
        version = try WireReader(response, op: Self.op).string("version")
    }

    public var members: JSONObject { ["version": .string(version)] }
}

/// An `info` answer: what the daemon serves and which data it loaded.
public struct DaemonInfo: FmtResult {
    /// One loaded plugin.
    public struct Plugin: Sendable, Equatable {
        /// The plugin's name: `address`, `date`, `phone`, `names`.
        public let name: String
        /// The ops it answers.
        public let ops: [String]
        /// Its data: `source`, `version`, `checksum` and what else that plugin reports (countries, regions, the
        /// search transform), as the daemon sent it.
        public let data: JSONObject
    }

    /// Where the data comes from.
    public struct DataSource: Sendable, Equatable {
        /// A directory, or `embedded`.
        public let source: String
        /// The directory of local additions (`/etc/fmtd`), when there is one.
        public let configDirectory: String?
    }

    /// The ICU the daemon runs on.
    public struct ICU: Sendable, Equatable {
        /// ICU's version.
        public let version: String
        /// Its Unicode version.
        public let unicode: String
        /// Its root collation version.
        public let collation: String
    }

    public static let op = "info"
    public let raw: JSONObject
    /// The daemon's version.
    public let version: String
    /// The protocol version (1).
    public let `protocol`: Int
    /// Every op the daemon answers.
    public let ops: [String]
    /// The loaded plugins.
    public let plugins: [Plugin]
    /// The interface languages.
    public let languages: [String]
    /// Where the data comes from.
    public let data: DataSource
    /// The ICU versions.
    public let icu: ICU

    public init(response: JSONObject) throws(FmtDecodingError) {
        let reader = WireReader(response, op: Self.op)
        raw = response
        version = try reader.string("version")
        `protocol` = try reader.int("protocol")
        ops = try reader.strings("ops")
        plugins = try reader.objects("plugins") { plugin throws(FmtDecodingError) in
            Plugin(
                name: try plugin.string("name"), ops: try plugin.strings("ops"),
                data: try plugin.member("data", "an object", \.objectValue))
        }
        languages = try reader.strings("languages")
        let data = try reader.object("data")
        self.data = DataSource(
            source: try data.string("source"),
            configDirectory: try data.nullable("configDirectory", "a string", \.stringValue))
        let icu = try reader.object("icu")
        self.icu = ICU(
            version: try icu.string("version"), unicode: try icu.string("unicode"),
            collation: try icu.string("collation"))
    }

    public var members: JSONObject {
        [
            "version": .string(version), "protocol": JSONValue(`protocol`), "ops": JSONValue(ops),
            "plugins": .array(
                plugins.map { ["name": .string($0.name), "ops": JSONValue($0.ops), "data": .object($0.data)] }),
            "languages": JSONValue(languages),
            "data": ["source": .string(data.source), "configDirectory": JSONValue(data.configDirectory)],
            "icu": [
                "version": .string(icu.version), "unicode": .string(icu.unicode), "collation": .string(icu.collation),
            ],
        ]
    }
}

/// A `stats` answer: the daemon's counters since it started.
public struct DaemonStats: FmtResult {
    /// Connections, admission and the input and output budgets.
    public struct Connections: Sendable, Equatable {
        /// Connections open now.
        public let open: Int
        /// The connection limit in force.
        public let limit: Int
        /// Connections accepted since the start.
        public let total: Int
        /// Connections refused at the limit.
        public let overloaded: Int
        /// The connection limit per uid.
        public let perUidLimit: Int
        /// Connections refused at the per-uid limit.
        public let perUidOverloaded: Int
        /// Distinct uids with a connection open.
        public let uids: Int
        /// The open connections of the uid with the most.
        public let busiestUidOpen: Int
        /// Accepts that failed for want of a file descriptor.
        public let outOfDescriptors: Int
        /// Request bytes buffered now, over all connections.
        public let bufferedBytes: Int
        /// The limit on buffered request bytes.
        public let bufferedLimit: Int
        /// Times reading paused at that limit.
        public let bufferedPauses: Int
        /// Response bytes waiting to be sent now.
        public let outputBytes: Int
        /// The limit on waiting response bytes.
        public let outputLimit: Int
        /// Times reading paused at that limit.
        public let outputPauses: Int
        /// Turns a busy connection gave up for the others.
        public let yields: Int
        /// Connections refused by `--allow-uid` or `--allow-gid`.
        public let forbidden: Int
        /// Connections closed for idling.
        public let idleClosed: Int
        /// Connections closed for an unfinished line.
        public let lineTimeouts: Int
        /// Lines answered `too_large`.
        public let tooLarge: Int
        /// Times a connection stopped being read until its answers were taken.
        public let readPauses: Int

        /// The wire names, in wire order, with each member's value.
        var pairs: [(String, Int)] {
            [
                ("open", open), ("limit", limit), ("total", total), ("overloaded", overloaded),
                ("perUidLimit", perUidLimit), ("perUidOverloaded", perUidOverloaded), ("uids", uids),
                ("busiestUidOpen", busiestUidOpen), ("outOfDescriptors", outOfDescriptors),
                ("bufferedBytes", bufferedBytes), ("bufferedLimit", bufferedLimit),
                ("bufferedPauses", bufferedPauses), ("outputBytes", outputBytes), ("outputLimit", outputLimit),
                ("outputPauses", outputPauses), ("yields", yields), ("forbidden", forbidden),
                ("idleClosed", idleClosed), ("lineTimeouts", lineTimeouts), ("tooLarge", tooLarge),
                ("readPauses", readPauses),
            ]
        }

        init(_ reader: WireReader) throws(FmtDecodingError) {
            open = try reader.int("open")
            limit = try reader.int("limit")
            total = try reader.int("total")
            overloaded = try reader.int("overloaded")
            perUidLimit = try reader.int("perUidLimit")
            perUidOverloaded = try reader.int("perUidOverloaded")
            uids = try reader.int("uids")
            busiestUidOpen = try reader.int("busiestUidOpen")
            outOfDescriptors = try reader.int("outOfDescriptors")
            bufferedBytes = try reader.int("bufferedBytes")
            bufferedLimit = try reader.int("bufferedLimit")
            bufferedPauses = try reader.int("bufferedPauses")
            outputBytes = try reader.int("outputBytes")
            outputLimit = try reader.int("outputLimit")
            outputPauses = try reader.int("outputPauses")
            yields = try reader.int("yields")
            forbidden = try reader.int("forbidden")
            idleClosed = try reader.int("idleClosed")
            lineTimeouts = try reader.int("lineTimeouts")
            tooLarge = try reader.int("tooLarge")
            readPauses = try reader.int("readPauses")
        }
    }

    /// Requests and errors, in total and per op.
    public struct Requests: Sendable, Equatable {
        /// One op's counts.
        public struct Op: Sendable, Equatable {
            /// The op's name; `(other)` for unknown ops.
            public let op: String
            /// The op's requests.
            public let requests: Int
            /// Error answers among them.
            public let errors: Int
        }

        /// Requests answered since the start.
        public let total: Int
        /// Error answers among them.
        public let errors: Int
        /// The ops with at least one request.
        public let perOp: [Op]
    }

    /// Handling time, from decoded line to encoded response.
    public struct Latency: Sendable, Equatable {
        /// A cumulative histogram bucket.
        public struct Bucket: Sendable, Equatable {
            /// The bucket's upper bound in µs.
            public let upperBoundUs: Double
            /// The requests answered below it.
            public let requests: Int
        }

        /// Percentiles in µs; nil before the first request.
        public let p50Us: Double?
        /// The 99th percentile, in µs.
        public let p99Us: Double?
        /// The 99.9th percentile, in µs.
        public let p999Us: Double?
        /// Requests measured.
        public let count: Int
        /// Their total handling time, in µs.
        public let sumUs: Double
        /// The cumulative histogram.
        public let buckets: [Bucket]
    }

    /// Reloads of the data, and the data serving now.
    public struct Reloads: Sendable, Equatable {
        /// Successful reloads.
        public let ok: Int
        /// Refused reloads.
        public let failed: Int
        /// Why the last failed reload failed, when one did.
        public let lastError: String?
        /// How long the last reload took, in µs.
        public let lastDurationUs: Int?
        /// The plugins the last successful reload kept unchanged.
        public let lastKept: [String]
        /// The data generation serving now.
        public let generation: Int
        /// When the data serving now was loaded.
        public let loadedAtUnixSeconds: Double?
        /// SIGHUPs received.
        public let requested: Int
        /// The newest request the running or last started reload answers.
        public let started: Int
        /// The newest request the last finished reload answered.
        public let finished: Int
        /// Whether that reload succeeded; nil before the first.
        public let lastOk: Bool?
    }

    /// The copy rules' warnings about the catalogues serving now.
    public struct CopyRules: Sendable, Equatable {
        /// One rule's count.
        public struct Rule: Sendable, Equatable {
            /// The rule's name.
            public let rule: String
            /// Warnings under this rule.
            public let findings: Int
        }

        /// Warnings under this rule.
        public let findings: Int
        /// Per rule, in the daemon's order.
        public let byRule: [Rule]
    }

    public static let op = "stats"
    public let raw: JSONObject
    /// Seconds since the daemon started.
    public let uptimeSeconds: Double
    /// Connections, admission and budgets.
    public let connections: Connections
    /// Requests and errors.
    public let requests: Requests
    /// Handling time.
    public let latency: Latency
    /// Reloads and the data serving now.
    public let reloads: Reloads
    /// The copy rules' warnings.
    public let copyRules: CopyRules

    public init(response: JSONObject) throws(FmtDecodingError) {
        let reader = WireReader(response, op: Self.op)
        raw = response
        uptimeSeconds = try reader.double("uptimeSeconds")
        connections = try Connections(try reader.object("connections"))
        let requests = try reader.object("requests")
        self.requests = Requests(
            total: try requests.int("total"), errors: try requests.int("errors"),
            perOp: try requests.entries("perOp") { op, counts throws(FmtDecodingError) in
                Requests.Op(op: op, requests: try counts.int("requests"), errors: try counts.int("errors"))
            })
        let latency = try reader.object("latency")
        self.latency = Latency(
            p50Us: try latency.nullable("p50Us", "a number", WireReader.double),
            p99Us: try latency.nullable("p99Us", "a number", WireReader.double),
            p999Us: try latency.nullable("p999Us", "a number", WireReader.double), count: try latency.int("count"),
            sumUs: try latency.double("sumUs"),
            buckets: try latency.elements("buckets", "an [upper bound, requests] pair of numbers") {
                WireReader.pair($0, WireReader.double, WireReader.int).map {
                    Latency.Bucket(upperBoundUs: $0.0, requests: $0.1)
                }
            })
        let reloads = try reader.object("reloads")
        self.reloads = Reloads(
            ok: try reloads.int("ok"), failed: try reloads.int("failed"),
            lastError: try reloads.nullable("lastError", "a string", \.stringValue),
            lastDurationUs: try reloads.nullable("lastDurationUs", "an integer", WireReader.int),
            lastKept: try reloads.strings("lastKept"), generation: try reloads.int("generation"),
            loadedAtUnixSeconds: try reloads.nullable("loadedAtUnixSeconds", "a number", WireReader.double),
            requested: try reloads.int("requested"), started: try reloads.int("started"),
            finished: try reloads.int("finished"), lastOk: try reloads.nullable("lastOk", "a boolean", \.boolValue))
        let copyRules = try reader.object("copyRules")
        let byRule = try copyRules.object("byRule")
        var rules: [CopyRules.Rule] = []
        for member in byRule.object {
            let count = try byRule.convert(member.value, byRule.name(member.key), "an integer", WireReader.int)
            rules.append(CopyRules.Rule(rule: member.key, findings: count))
        }
        self.copyRules = CopyRules(findings: try copyRules.int("findings"), byRule: rules)
    }

    public var members: JSONObject {
        [
            "uptimeSeconds": JSONValue(uptimeSeconds),
            "connections": .object(JSONObject(connections.pairs.map { .init(key: $0.0, value: JSONValue($0.1)) })),
            "requests": [
                "total": JSONValue(requests.total), "errors": JSONValue(requests.errors),
                "perOp": .object(
                    JSONObject(
                        requests.perOp.map {
                            .init(
                                key: $0.op, value: ["requests": JSONValue($0.requests), "errors": JSONValue($0.errors)])
                        })),
            ],
            "latency": [
                "p50Us": JSONValue(latency.p50Us), "p99Us": JSONValue(latency.p99Us),
                "p999Us": JSONValue(latency.p999Us), "count": JSONValue(latency.count),
                "sumUs": JSONValue(latency.sumUs),
                "buckets": .array(latency.buckets.map { [JSONValue($0.upperBoundUs), JSONValue($0.requests)] }),
            ],
            "reloads": [
                "ok": JSONValue(reloads.ok), "failed": JSONValue(reloads.failed),
                "lastError": JSONValue(reloads.lastError), "lastDurationUs": JSONValue(reloads.lastDurationUs),
                "lastKept": JSONValue(reloads.lastKept), "generation": JSONValue(reloads.generation),
                "loadedAtUnixSeconds": JSONValue(reloads.loadedAtUnixSeconds),
                "requested": JSONValue(reloads.requested), "started": JSONValue(reloads.started),
                "finished": JSONValue(reloads.finished), "lastOk": JSONValue(reloads.lastOk),
            ],
            "copyRules": [
                "findings": JSONValue(copyRules.findings),
                "byRule": .object(
                    JSONObject(copyRules.byRule.map { .init(key: $0.rule, value: JSONValue($0.findings)) })),
            ],
        ]
    }
}

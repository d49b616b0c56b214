import FmtCore
import FmtDispatch
import FmtServer

/// The host's own ops: `ping`, `info` and `stats`.
enum BuiltinOps {
    static func make(
        registry: @escaping @Sendable () -> PluginRegistry?, stats: @escaping @Sendable () -> RequestStats?,
        counters: ServerCounters
    ) -> [Dispatcher.Builtin] {
        [
            Dispatcher.Builtin("ping") { _, response in response.member("version", FormatterHost.version) },
            Dispatcher.Builtin("info") { _, response in response.members(info(registry: registry())) },
            Dispatcher.Builtin("stats") { _, response in
                response.members(statsReport(stats: stats(), registry: registry(), counters: counters))
            },
        ]
    }

    /// `info`, from one generation: its plugins' data and the languages that generation has.
    static func info(registry: PluginRegistry?) -> JSONObject {
        var plugins: [JSONValue] = []
        let set = registry?.current
        if let set {
            for plugin in set.plugins {
                let type = type(of: plugin)
                plugins.append([
                    "name": .string(type.name), "ops": JSONValue(type.ops), "data": .object(plugin.dataInfo),
                ])
            }
        }
        return [
            "version": .string(FormatterHost.version),
            "protocol": JSONValue(Dispatcher.protocolVersion),
            "ops": JSONValue(["ping", "info", "stats"] + (registry?.ops ?? [])),
            "plugins": .array(plugins),
            "languages": JSONValue(set?.environment.resolver.supported ?? []),
            "data": [
                "source": .string(registry?.store.sourceDescription ?? "none"),
                "configDirectory": JSONValue(registry?.store.localDirectory),
            ],
            "icu": [
                "version": .string(ICUInfo.version), "unicode": .string(ICUInfo.unicodeVersion),
                "collation": .string(ICUInfo.collationVersion),
            ],
        ]
    }

    static func statsReport(stats: RequestStats?, registry: PluginRegistry?, counters: ServerCounters) -> JSONObject {
        let totals = stats?.totals ?? (requests: 0, errors: 0)
        let reloads = registry?.lastReload ?? ReloadRecord()
        let sequence = counters.reloadSequence.snapshot
        return [
            "uptimeSeconds": .number(JSONNumber((counters.uptimeSeconds * 1000).rounded() / 1000)),
            "connections": .object(counters.connections),
            "requests": [
                "total": JSONValue(totals.requests), "errors": JSONValue(totals.errors),
                "perOp": .object(stats?.perOp ?? [:]),
            ],
            "latency": .object(stats?.latency ?? [:]),
            "reloads": [
                "ok": JSONValue(reloads.succeeded), "failed": JSONValue(reloads.failed),
                "lastError": JSONValue(reloads.lastError),
                "lastDurationUs": reloads.lastDurationMicroseconds.map { JSONValue($0) } ?? .null,
                "lastKept": .array(reloads.lastKept.map { JSONValue($0) }),
                "generation": JSONValue(registry?.current.generation ?? 0),
                "loadedAtUnixSeconds": reloads.loadedAtUnixSeconds.map { .number(JSONNumber($0)) } ?? .null,
                "requested": JSONValue(sequence.requested), "started": JSONValue(sequence.started),
                "finished": JSONValue(sequence.finished), "lastOk": sequence.lastOK.map { .bool($0) } ?? .null,
            ],
            "copyRules": CopyRuleReport.stats(registry.map { CopyRuleReport.findings(in: $0.current) } ?? []),
        ]
    }
}

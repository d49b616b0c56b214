/// A usage mistake: fmtq prints it with the subcommand's help and exits with status 2.
struct UsageError: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}

/// The arguments of one subcommand. Accessors consume what they read, so whatever is left over at the end
/// is a mistake that fmtq reports. Options may appear anywhere, as `--name value` or `--name=value`.
struct Arguments {
    private var items: [String]
    /// Problems noticed while reading (an option without its value), reported after `request` returns.
    private(set) var problems: [String] = []

    init(_ items: [String]) {
        self.items = items
    }

    /// The value of `--name`, if given; the last occurrence wins.
    mutating func option(_ name: String) -> String? {
        var value: String?
        var index = 0
        while index < items.count {
            let item = items[index]
            if item == name {
                items.remove(at: index)
                if index < items.count {
                    value = items.remove(at: index)
                } else {
                    problems.append("\(name) needs a value")
                }
            } else if item.hasPrefix(name + "=") {
                value = String(item.dropFirst(name.count + 1))
                items.remove(at: index)
            } else {
                index += 1
            }
        }
        return value
    }

    /// Whether `--name` was given.
    mutating func flag(_ name: String) -> Bool {
        let before = items.count
        items.removeAll { $0 == name }
        return items.count != before
    }

    /// The next argument that is not an option.
    mutating func positional() -> String? {
        guard let index = items.firstIndex(where: { !$0.hasPrefix("--") || $0 == "--" }) else { return nil }
        if items[index] == "--" {
            items.remove(at: index)
            return index < items.count ? items.remove(at: index) : nil
        }
        return items.remove(at: index)
    }

    /// All remaining arguments that are not options.
    mutating func remaining() -> [String] {
        var result: [String] = []
        while let next = positional() { result.append(next) }
        return result
    }

    /// What nobody consumed: unknown options or extra words.
    var leftovers: [String] { items }
}

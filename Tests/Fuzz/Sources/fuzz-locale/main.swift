import FmtCore
import FuzzSupport

/// The locale tag parser and resolver: a tag that parses prints canonically and parses back to itself, the
/// resolver refuses exactly the single tags the parser refuses, and resolution (of a tag or of an
/// `Accept-Language` list) always lands on a supported language and an ICU locale of that language.
enum LocaleTarget {
    static let resolver = LocaleResolver(supported: ["en", "nl", "de"])

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        if LocalePriorityList.isAcceptLanguage(text) {
            guard let resolved = try? resolver.resolve(text) else { return }
            guard resolver.supported.contains(resolved.language),
                resolved.icuLocale == resolved.language || resolved.icuLocale.hasPrefix(resolved.language + "_"),
                LanguageTag(parsing: resolved.tag) != nil
            else {
                Fuzz.fail("the list \(text.debugDescription) resolved to \(resolved)")
            }
            return
        }
        let tag = LanguageTag(parsing: text)
        let resolved = try? resolver.resolve(text)
        guard (tag == nil) == (resolved == nil) else {
            Fuzz.fail("parser and resolver disagree on \(text.debugDescription)")
        }
        guard let tag, let resolved else { return }
        guard LanguageTag(parsing: tag.description) == tag else {
            Fuzz.fail("\(text.debugDescription) prints as \(tag.description), which does not parse back the same")
        }
        guard resolver.supported.contains(resolved.language),
            resolved.icuLocale == resolved.language || resolved.icuLocale.hasPrefix(resolved.language + "_"),
            resolved.region == tag.region
        else {
            Fuzz.fail("\(text.debugDescription) resolved to \(resolved)")
        }
        guard LanguageTag(parsing: resolved.tag) != nil else {
            Fuzz.fail("\(text.debugDescription) resolved to the malformed response tag \(resolved.tag)")
        }
    }
}

_ = LocaleTarget.resolver
Fuzz.run { data, size in Fuzz.timed(data, size, LocaleTarget.run) }

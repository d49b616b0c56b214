// ICU's C API formats messages with numbered arguments only; named arguments need icu::MessageFormat.
// Everything here is reached through the plain C functions declared in fmt_icu_names.h.

#include "fmt_icu_names.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unicode/fmtable.h>
#include <unicode/messagepattern.h>
#include <unicode/msgfmt.h>
#include <unicode/unistr.h>

struct fmt_message {
    icu::MessageFormat *format;
    std::vector<std::string> names;
    std::vector<int32_t> kinds;
    int32_t depth;
};

namespace {

void write_error(char *out, int32_t capacity, const std::string &text) {
    if (out == nullptr || capacity <= 0) return;
    std::snprintf(out, static_cast<size_t>(capacity), "%s", text.c_str());
}

int32_t simple_kind(const icu::UnicodeString &type) {
    if (type == u"number" || type == u"spellout" || type == u"ordinal") return FMT_MESSAGE_ARG_NUMBER;
    return FMT_MESSAGE_ARG_OTHER;
}

// Whether a `number` argument's style asks for a rounding increment: a skeleton's precision-increment, or a digit
// 1-9 outside quotes in a DecimalFormat pattern ("0.05"). ICU 72 fails to format such an argument for large values
// (U_INTERNAL_PROGRAM_ERROR for 1e300 with style "6"), which would answer a valid request `internal`.
bool has_rounding_increment(const icu::UnicodeString &style) {
    icu::UnicodeString trimmed(style);
    trimmed.trim();
    if (trimmed.startsWith(u"::")) return trimmed.indexOf(u"precision-increment") >= 0;
    bool quoted = false;
    for (int32_t i = 0; i < trimmed.length(); i++) {
        char16_t c = trimmed.charAt(i);
        if (c == u'\'') {
            quoted = !quoted;
        } else if (!quoted && c >= u'1' && c <= u'9') {
            return true;
        }
    }
    return false;
}

// The deepest sub-message nesting level ICU's parser recorded (0: no complex argument).
int32_t nesting_depth(const icu::MessagePattern &pattern) {
    int32_t depth = 0;
    for (int32_t i = 0; i < pattern.countParts(); i++) {
        const icu::MessagePattern::Part &part = pattern.getPart(i);
        if (part.getType() == UMSGPAT_PART_TYPE_MSG_START && part.getValue() > depth) depth = part.getValue();
    }
    return depth;
}

// Collects every argument occurrence with its kind; false (and a reason) for a numbered argument.
bool collect_arguments(const icu::MessagePattern &pattern, fmt_message *message, std::string &reason) {
    for (int32_t i = 0; i + 1 < pattern.countParts(); i++) {
        const icu::MessagePattern::Part &part = pattern.getPart(i);
        if (part.getType() != UMSGPAT_PART_TYPE_ARG_START) continue;
        const icu::MessagePattern::Part &name = pattern.getPart(i + 1);
        std::string utf8;
        pattern.getSubstring(name).toUTF8String(utf8);
        if (name.getType() == UMSGPAT_PART_TYPE_ARG_NUMBER) {
            reason = "numbered argument {" + utf8 + "}: catalogues use named arguments";
            return false;
        }
        int32_t kind = FMT_MESSAGE_ARG_TEXT;
        switch (part.getArgType()) {
        case UMSGPAT_ARG_TYPE_NONE: kind = FMT_MESSAGE_ARG_TEXT; break;
        case UMSGPAT_ARG_TYPE_PLURAL:
        case UMSGPAT_ARG_TYPE_SELECTORDINAL: kind = FMT_MESSAGE_ARG_NUMBER; break;
        case UMSGPAT_ARG_TYPE_SELECT: kind = FMT_MESSAGE_ARG_SELECT; break;
        case UMSGPAT_ARG_TYPE_SIMPLE:
            kind = i + 2 < pattern.countParts() ? simple_kind(pattern.getSubstring(pattern.getPart(i + 2)))
                                                : FMT_MESSAGE_ARG_OTHER;
            if (kind == FMT_MESSAGE_ARG_NUMBER && pattern.getSubstring(pattern.getPart(i + 2)) == u"number" &&
                i + 3 < pattern.countParts() && pattern.getPart(i + 3).getType() == UMSGPAT_PART_TYPE_ARG_STYLE &&
                has_rounding_increment(pattern.getSubstring(pattern.getPart(i + 3)))) {
                reason = "argument {" + utf8 + "} rounds to an increment, which ICU cannot format for large numbers";
                return false;
            }
            break;
        default: kind = FMT_MESSAGE_ARG_OTHER; break;
        }
        message->names.push_back(utf8);
        message->kinds.push_back(kind);
    }
    return true;
}

}  // namespace

extern "C" fmt_message *fmt_message_open(const char *locale, const char *pattern, int32_t length, int32_t max_depth,
                                         char *error, int32_t error_capacity) {
    icu::UnicodeString text = icu::UnicodeString::fromUTF8(icu::StringPiece(pattern, length));
    UErrorCode status = U_ZERO_ERROR;
    UParseError parse_error;
    icu::MessagePattern parsed(text, &parse_error, status);
    if (U_FAILURE(status)) {
        write_error(error, error_capacity,
                    "ICU rejects the pattern: " + std::string(u_errorName(status)) + " at offset " +
                        std::to_string(parse_error.offset));
        return nullptr;
    }
    auto *message = new fmt_message{nullptr, {}, {}, nesting_depth(parsed)};
    std::string reason;
    if (!collect_arguments(parsed, message, reason)) {
        write_error(error, error_capacity, reason);
        delete message;
        return nullptr;
    }
    if (message->depth > max_depth) {
        write_error(error, error_capacity,
                    "complex arguments (plural, select, selectordinal) nest " + std::to_string(message->depth) +
                        " deep; at most " + std::to_string(max_depth) + " are formatted safely");
        delete message;
        return nullptr;
    }
    message->format = new icu::MessageFormat(text, icu::Locale(locale), parse_error, status);
    if (U_FAILURE(status)) {
        write_error(error, error_capacity,
                    "ICU rejects the pattern: " + std::string(u_errorName(status)) + " at offset " +
                        std::to_string(parse_error.offset));
        fmt_message_close(message);
        return nullptr;
    }
    return message;
}

extern "C" void fmt_message_close(fmt_message *message) {
    if (message == nullptr) return;
    delete message->format;
    delete message;
}

extern "C" int32_t fmt_message_depth(const fmt_message *message) {
    return message->depth;
}

extern "C" int32_t fmt_message_argument_count(const fmt_message *message) {
    return static_cast<int32_t>(message->names.size());
}

extern "C" int fmt_message_argument(const fmt_message *message, int32_t index, char *out, int32_t capacity,
                                    int32_t *kind) {
    if (index < 0 || static_cast<size_t>(index) >= message->names.size()) return -1;
    const std::string &name = message->names[static_cast<size_t>(index)];
    *kind = message->kinds[static_cast<size_t>(index)];
    int32_t n = static_cast<int32_t>(name.size());
    if (n <= capacity) std::memcpy(out, name.data(), name.size());
    return n;
}

extern "C" char *fmt_message_format(fmt_message *message, int32_t count, const char *const *names,
                                    const char *const *values, const int32_t *value_lengths,
                                    const int32_t *is_number, int32_t *length,
                                    char *error, int32_t error_capacity) {
    UErrorCode status = U_ZERO_ERROR;
    std::vector<icu::UnicodeString> argument_names;
    std::vector<icu::Formattable> arguments;
    argument_names.reserve(static_cast<size_t>(count));
    arguments.reserve(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; i++) {
        argument_names.push_back(icu::UnicodeString::fromUTF8(names[i]));
        if (is_number[i]) {
            arguments.emplace_back(icu::StringPiece(values[i], value_lengths[i]), status);
            if (U_FAILURE(status)) {
                write_error(error, error_capacity, std::string("not a number: ") + names[i]);
                return nullptr;
            }
        } else {
            arguments.emplace_back(icu::UnicodeString::fromUTF8(icu::StringPiece(values[i], value_lengths[i])));
        }
    }
    icu::UnicodeString result;
    message->format->format(argument_names.data(), arguments.data(), count, result, status);
    if (U_FAILURE(status)) {
        write_error(error, error_capacity, u_errorName(status));
        return nullptr;
    }
    std::string utf8;
    result.toUTF8String(utf8);
    char *copy = static_cast<char *>(std::malloc(utf8.size() + 1));
    if (copy == nullptr) return nullptr;
    std::memcpy(copy, utf8.c_str(), utf8.size() + 1);
    *length = static_cast<int32_t>(utf8.size());
    return copy;
}

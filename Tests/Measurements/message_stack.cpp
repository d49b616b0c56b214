// Stack that ICU's MessagePattern parser, MessageFormat constructor and MessageFormat::format use for a `select`
// (or `plural`) nested DEPTH deep, measured on a thread whose 64 MiB stack is pre-filled with a marker.
// Run by measure.sh; the figures behind MessageLimits (NameServices/MessageCatalogue.swift).
#include <pthread.h>
#include <sys/mman.h>
#include <unicode/fmtable.h>
#include <unicode/messagepattern.h>
#include <unicode/msgfmt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

static int depth;
static bool plural;
static int stage;
static icu::MessageFormat *format;

static std::string nested() {
    std::string open = plural ? "{a, plural, one {x} other {" : "{a, select, x {";
    std::string close = plural ? "}}" : "} other {o}}";
    std::string text;
    for (int i = 0; i < depth; i++) text += open;
    text += "leaf";
    for (int i = 0; i < depth; i++) text += close;
    return text;
}

static void *body(void *) {
    icu::UnicodeString text = icu::UnicodeString::fromUTF8(nested());
    UErrorCode status = U_ZERO_ERROR;
    UParseError error;
    if (stage == 0) {
        icu::MessagePattern parsed(text, &error, status);
    } else if (stage == 1) {
        format = new icu::MessageFormat(text, icu::Locale("en"), error, status);
    } else {
        icu::UnicodeString name("a");
        icu::Formattable argument = plural ? icu::Formattable(3.0) : icu::Formattable(icu::UnicodeString("x"));
        icu::UnicodeString out;
        format->format(&name, &argument, 1, out, status);
    }
    if (U_FAILURE(status)) std::printf("  (stage %d: %s)\n", stage, u_errorName(status));
    return nullptr;
}

static size_t used(int which) {
    stage = which;
    const size_t size = 64u << 20;
    void *memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    std::memset(memory, 0xAB, size);
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstack(&attributes, memory, size);
    pthread_t thread;
    pthread_create(&thread, &attributes, body, nullptr);
    pthread_join(thread, nullptr);
    const unsigned char *bytes = static_cast<const unsigned char *>(memory);
    size_t untouched = 0;
    while (untouched < size && bytes[untouched] == 0xAB) untouched++;
    munmap(memory, size);
    return size - untouched;
}

int main(int argc, char **argv) {
    depth = argc > 1 ? std::atoi(argv[1]) : 16;
    plural = argc > 2 && std::strcmp(argv[2], "plural") == 0;
    size_t parse = used(0), compile = used(1), run = used(2);
    std::printf("%-6s depth %5d: parse %8zu B, compile %8zu B, format %8zu B of stack\n", plural ? "plural" : "select",
                depth, parse, compile, run);
}

// Writes data/vectors/date-format.json: expected outputs computed by ICU's C++ API directly
// (pattern generator + SimpleDateFormat on a GregorianCalendar whose fields are set), a path
// independent of fmtd's C shim and its epoch-day arithmetic.
#include <unicode/dtptngen.h>
#include <unicode/gregocal.h>
#include <unicode/smpdtfmt.h>
#include <unicode/timezone.h>
#include <unicode/ulocdata.h>
#include <unicode/uversion.h>
#include <cstdio>
#include <string>
#include <vector>
using namespace icu;

struct Loc { const char *request, *icu, *lang, *tag; };
static const Loc EN{nullptr, "en", "en", "en"};
static const Loc LOCS[] = {
    {"en", "en", "en", "en"},          {"en-US", "en_US", "en", "en-US"}, {"en-GB", "en_GB", "en", "en-GB"},
    {"nl-NL", "nl_NL", "nl", "nl-NL"}, {"nl-BE", "nl_BE", "nl", "nl-BE"}, {"de-DE", "de_DE", "de", "de-DE"},
    {"de-AT", "de_AT", "de", "de-AT"}, {"de-CH", "de_CH", "de", "de-CH"}, {"fr-FR", "en_150", "en", "en-FR"},
    {"en-JP", "en_001", "en", "en-JP"},
};
static Loc find(const char *request) {
    for (auto &l : LOCS) if (std::string(l.request) == request) return l;
    throw 1;
}
static std::string json(const std::string &s) {
    std::string o = "\"";
    for (char c : s) { if (c == '"' || c == '\\') o += '\\'; o += c; }
    return o + "\"";
}
static const char *skeleton(const char *style, bool year) {
    std::string s = style ? style : "long";
    if (s == "long") return year ? "yMMMMd" : "dMMMM";
    if (s == "medium") return year ? "yMMMd" : "dMMM";
    return year ? "yMd" : "dM";
}
static std::vector<std::string> lines;

// yearShared: -1 absent, 0 false, 1 true.
static void ok(const Loc &l, const char *date, int yearShared, const char *style) {
    bool hasYear = date[0] != '-';
    int y = hasYear ? atoi(date) : 2000, m = atoi(date + (hasYear ? 5 : 2)), d = atoi(date + (hasYear ? 8 : 5));
    UErrorCode s = U_ZERO_ERROR;
    Locale loc((std::string(l.icu) + "@calendar=gregorian").c_str());
    DateTimePatternGenerator *g = DateTimePatternGenerator::createInstance(loc, s);
    UnicodeString p = g->getBestPattern(UnicodeString(skeleton(style, hasYear && yearShared == 1)), s);
    delete g;
    SimpleDateFormat f(p, loc, s);
    GregorianCalendar *cal = new GregorianCalendar(TimeZone::createTimeZone("UTC"), loc, s);
    cal->setGregorianChange(-8.64e15, s);
    cal->clear();
    cal->set(y, m - 1, d);
    f.adoptCalendar(cal->clone());
    UnicodeString out;
    FieldPosition fp;
    f.format(*cal, out, fp);
    delete cal;
    if (U_FAILURE(s)) { fprintf(stderr, "ICU failure %s %s\n", l.icu, date); exit(1); }
    std::string pattern, text;
    p.toUTF8String(pattern);
    out.toUTF8String(text);
    std::string req = "{\"date\":" + json(date);
    if (yearShared >= 0) req += std::string(",\"yearShared\":") + (yearShared ? "true" : "false");
    if (l.request) req += ",\"locale\":" + json(l.request);
    if (style) req += ",\"style\":" + json(style);
    lines.push_back("{\"request\":" + req + "},\"response\":{\"lang\":" + json(l.lang) + ",\"locale\":" + json(l.tag) +
                    ",\"text\":" + json(text) + ",\"pattern\":" + json(pattern) + "}}");
}
static void err(const std::string &requestMembers, const char *code, const char *field) {
    lines.push_back("{\"request\":{" + requestMembers + "},\"error\":{\"code\":" + json(code) + ",\"field\":" +
                    json(field) + "}}");
}

int main() {
    // Defaults: no locale is English, no style is long, no yearShared hides the year.
    ok(EN, "1990-11-29", -1, nullptr);
    ok(EN, "--11-29", -1, nullptr);
    ok(EN, "1990-11-29", 1, nullptr);
    // Each locale, each style, year hidden and shown.
    for (auto &l : LOCS) {
        ok(l, "1990-11-29", -1, nullptr);
        ok(l, "1990-11-29", 1, "long");
        ok(l, "1990-11-29", 0, "medium");
        ok(l, "1990-11-29", 1, "medium");
        ok(l, "1990-11-29", 0, "short");
        ok(l, "1990-11-29", 1, "short");
    }
    // Every month.
    char date[16];
    for (int m = 1; m <= 12; m++) { snprintf(date, sizeof date, "--%02d-15", m); ok(find("nl-NL"), date, -1, "long"); }
    for (int m = 1; m <= 12; m++) { snprintf(date, sizeof date, "2024-%02d-01", m); ok(find("de-AT"), date, 1, "long"); }
    for (int m = 1; m <= 12; m++) { snprintf(date, sizeof date, "--%02d-05", m); ok(find("en-GB"), date, 0, "medium"); }
    for (int m : {1, 3, 5, 9}) { snprintf(date, sizeof date, "1985-%02d-09", m); ok(find("de-DE"), date, 1, "medium"); }
    // 29 February: year-less (shared or not, no year exists to show) and in leap years.
    ok(find("en-US"), "--02-29", 1, "long");
    ok(find("nl-BE"), "--02-29", -1, "short");
    ok(find("de-CH"), "--02-29", 0, "medium");
    ok(find("fr-FR"), "--02-29", -1, nullptr);
    ok(find("en-GB"), "2000-02-29", 1, "long");
    ok(find("de-DE"), "2024-02-29", 1, "short");
    ok(find("nl-NL"), "2024-02-29", 0, "short");
    // One-digit days and months: where locales pad and where they do not.
    for (auto r : {"en-US", "en-GB", "nl-NL", "de-DE"}) ok(find(r), "2001-03-05", 1, "short");
    // Dates that a time zone or the Julian calendar would shift.
    ok(find("en-GB"), "1582-10-10", 1, "long");
    ok(find("nl-NL"), "1900-01-01", 1, "long");
    ok(find("de-DE"), "9999-12-31", 1, "long");
    ok(find("en-US"), "1970-01-01", 1, "long");
    ok(find("en-US"), "1969-12-31", 1, "long");
    // More resolution paths: kept region with base-language data, other English regions, tag spellings.
    ok({"nl-DE", "nl", "nl", "nl-DE"}, "1990-11-29", 1, "short");
    ok({"de-NL", "de", "de", "de-NL"}, "1990-11-29", 1, "short");
    ok({"en-BR", "en_001", "en", "en-BR"}, "1990-11-29", 1, "short");
    ok({"en-ES", "en_150", "en", "en-ES"}, "1990-11-29", 1, "medium");
    ok({"en-CA", "en_CA", "en", "en-CA"}, "1990-11-29", 1, "short");
    ok({"en-AU", "en_AU", "en", "en-AU"}, "1990-11-29", 1, "short");
    ok({"fr", "en", "en", "en"}, "1990-11-29", 1, "long");
    ok({"nl_BE", "nl_BE", "nl", "nl-BE"}, "--11-29", -1, "short");
    ok({"DE-at", "de_AT", "de", "de-AT"}, "--01-06", -1, nullptr);

    // Invalid dates.
    for (auto bad : {"1990-02-30", "2023-02-29", "1900-02-29", "--13-01", "--00-10", "--02-30", "--04-31",
                     "1990-04-31", "1990-00-10", "1990-11-00", "1990-11-32", "0000-01-01", "1990-2-3", "1990-11-9",
                     "90-11-29", "", "1990-11-29T10:00", "1990-11-29Z", " 1990-11-29", "1990-11-29 ", "1990/11/29",
                     "29-11-1990", "19901129", "+1990-11-29", "--1129", "---29", "11-29", "yesterday", "today",
                     "1990-11-2x", "\u0661\u0669\u0669\u0660-\u0661\u0661-\u0662\u0669", "\uFF11\uFF19\uFF19\uFF10-11-29"})
        err(std::string("\"date\":") + json(bad) + ",\"locale\":\"en-GB\",\"yearShared\":true", "invalid_date", "date");
    // Wrong types and missing or unknown values name their field.
    err("\"locale\":\"nl-NL\"", "invalid_field", "date");
    err("\"date\":19901129", "invalid_field", "date");
    err("\"date\":\"1990-11-29\",\"style\":\"full\"", "invalid_field", "style");
    err("\"date\":\"1990-11-29\",\"style\":\"LONG\"", "invalid_field", "style");
    err("\"date\":\"1990-11-29\",\"style\":2", "invalid_field", "style");
    err("\"date\":\"1990-11-29\",\"yearShared\":\"true\"", "invalid_field", "yearShared");
    err("\"date\":\"1990-11-29\",\"yearShared\":1", "invalid_field", "yearShared");
    err("\"date\":\"1990-11-29\",\"locale\":\"x\"", "invalid_field", "locale");
    err("\"date\":\"1990-11-29\",\"locale\":\"en--GB\"", "invalid_field", "locale");

    UVersionInfo icu, cldr;
    UErrorCode s = U_ZERO_ERROR;
    u_getVersion(icu);
    ulocdata_getCLDRVersion(cldr, &s);
    char icuText[32], cldrText[32];
    u_versionToString(icu, icuText);
    u_versionToString(cldr, cldrText);
    printf("{\n\"description\": \"Vectors for the date op: each request (op \\\"date\\\" added) and the members of its "
           "response after id and ok, or the error's code and field. Expected texts and patterns computed by ICU "
           "%s (CLDR %s) through its C++ API, independently of fmtd's shim.\",\n", icuText, cldrText);
    printf("\"icu\": \"%s\",\n\"cldr\": \"%s\",\n\"cases\": [\n", icuText, cldrText);
    for (size_t i = 0; i < lines.size(); i++) printf("%s%s\n", lines[i].c_str(), i + 1 < lines.size() ? "," : "");
    printf("]\n}\n");
    fprintf(stderr, "%zu cases\n", lines.size());
}

#include "core/util/json_value.h"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

JsonValue JsonValue::boolean(bool value) {
    JsonValue v;
    v.m_type = Type::Bool;
    v.m_bool = value;
    return v;
}

JsonValue JsonValue::number(double value) {
    JsonValue v;
    v.m_type = Type::Number;
    v.m_number = value;
    return v;
}

JsonValue JsonValue::string(std::string value) {
    JsonValue v;
    v.m_type = Type::String;
    v.m_string = std::move(value);
    return v;
}

JsonValue JsonValue::array(std::vector<JsonValue> items) {
    JsonValue v;
    v.m_type = Type::Array;
    v.m_items = std::move(items);
    return v;
}

JsonValue JsonValue::object(std::map<std::string, JsonValue> members) {
    JsonValue v;
    v.m_type = Type::Object;
    v.m_members = std::move(members);
    return v;
}

double JsonValue::asNumber() const {
    switch (m_type) {
        case Type::Number:
            return m_number;
        case Type::Null:
            return std::numeric_limits<double>::quiet_NaN();
        case Type::String:
            if (m_string == "inf") return std::numeric_limits<double>::infinity();
            if (m_string == "-inf") return -std::numeric_limits<double>::infinity();
            break;
        default:
            break;
    }
    throw InputError("JSON: expected a number");
}

bool JsonValue::asBool() const {
    if (m_type != Type::Bool) throw InputError("JSON: expected true or false");
    return m_bool;
}

const std::string& JsonValue::asString() const {
    if (m_type != Type::String) throw InputError("JSON: expected a string");
    return m_string;
}

const std::vector<JsonValue>& JsonValue::items() const {
    if (m_type != Type::Array) throw InputError("JSON: expected an array");
    return m_items;
}

const std::map<std::string, JsonValue>& JsonValue::members() const {
    if (m_type != Type::Object) throw InputError("JSON: expected an object");
    return m_members;
}

const JsonValue& JsonValue::at(const std::string& key) const {
    const auto& all = members();
    const auto it = all.find(key);
    if (it == all.end()) throw InputError("JSON: missing key '" + key + "'");
    return it->second;
}

bool JsonValue::has(const std::string& key) const {
    return m_type == Type::Object && m_members.count(key) > 0;
}

double JsonValue::numberOr(const std::string& key, double fallback) const {
    return has(key) ? at(key).asNumber() : fallback;
}

std::string JsonValue::stringOr(const std::string& key, const std::string& fallback) const {
    return has(key) ? at(key).asString() : fallback;
}

std::vector<double> JsonValue::numbers() const {
    std::vector<double> out;
    for (const JsonValue& item : items()) out.push_back(item.asNumber());
    return out;
}

namespace {

class Parser {
public:
    explicit Parser(std::string_view text) : m_text(text) {}

    JsonValue document() {
        JsonValue value = parseValue(0);
        skipSpace();
        if (m_pos != m_text.size()) fail("unexpected text after the document");
        return value;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw InputError("JSON parse error at byte " + std::to_string(m_pos) + ": " + what);
    }

    void skipSpace() {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' ||
                                         m_text[m_pos] == '\n' || m_text[m_pos] == '\r')) {
            ++m_pos;
        }
    }

    bool consume(std::string_view word) {
        if (m_text.substr(m_pos, word.size()) != word) return false;
        m_pos += word.size();
        return true;
    }

    JsonValue parseValue(int depth) {
        if (depth > 200) fail("nesting too deep");
        skipSpace();
        if (m_pos >= m_text.size()) fail("unexpected end of input");
        const char c = m_text[m_pos];
        if (c == '{') return parseObject(depth);
        if (c == '[') return parseArray(depth);
        if (c == '"') return JsonValue::string(parseString());
        if (consume("true")) return JsonValue::boolean(true);
        if (consume("false")) return JsonValue::boolean(false);
        if (consume("null")) return JsonValue();
        if (c == '-' || (c >= '0' && c <= '9')) return parseNumber();
        fail(std::string("unexpected character '") + c + "'");
    }

    JsonValue parseNumber() {
        const std::size_t start = m_pos;
        while (m_pos < m_text.size() &&
               std::string_view("+-0123456789.eE").find(m_text[m_pos]) != std::string_view::npos) {
            ++m_pos;
        }
        std::string_view token = m_text.substr(start, m_pos - start);
        const std::string text(token);
        // from_chars: locale-independent, and (unlike strtod) refuses a leading '+'.
        if (!token.empty() && token.front() == '+') fail("malformed number '" + text + "'");
        double value = 0.0;
        if (!parsePortable(token, value)) fail("malformed number '" + text + "'");
        return JsonValue::number(value);
    }

    static void appendUtf8(std::string& out, unsigned code) {
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

    unsigned parseHex4() {
        if (m_pos + 4 > m_text.size()) fail("truncated \\u escape");
        unsigned code = 0;
        for (int i = 0; i < 4; ++i) {
            const char h = m_text[m_pos++];
            code <<= 4;
            if (h >= '0' && h <= '9')
                code |= static_cast<unsigned>(h - '0');
            else if (h >= 'a' && h <= 'f')
                code |= static_cast<unsigned>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
                code |= static_cast<unsigned>(h - 'A' + 10);
            else
                fail("bad \\u escape");
        }
        return code;
    }

    std::string parseString() {
        ++m_pos;  // opening quote
        std::string out;
        while (true) {
            if (m_pos >= m_text.size()) fail("unterminated string");
            const char c = m_text[m_pos++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_pos >= m_text.size()) fail("unterminated escape");
            const char e = m_text[m_pos++];
            switch (e) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u': {
                    unsigned code = parseHex4();
                    if (code >= 0xD800 && code < 0xDC00 && consume("\\u")) {
                        const unsigned low = parseHex4();
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    }
                    appendUtf8(out, code);
                    break;
                }
                default:
                    fail(std::string("bad escape '\\") + e + "'");
            }
        }
    }

    JsonValue parseArray(int depth) {
        ++m_pos;
        std::vector<JsonValue> items;
        skipSpace();
        if (consume("]")) return JsonValue::array(std::move(items));
        while (true) {
            items.push_back(parseValue(depth + 1));
            skipSpace();
            if (consume("]")) return JsonValue::array(std::move(items));
            if (!consume(",")) fail("expected ',' or ']' in array");
        }
    }

    JsonValue parseObject(int depth) {
        ++m_pos;
        std::map<std::string, JsonValue> members;
        skipSpace();
        if (consume("}")) return JsonValue::object(std::move(members));
        while (true) {
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != '"') fail("expected a key string");
            std::string key = parseString();
            skipSpace();
            if (!consume(":")) fail("expected ':' after key '" + key + "'");
            members[key] = parseValue(depth + 1);
            skipSpace();
            if (consume("}")) return JsonValue::object(std::move(members));
            if (!consume(",")) fail("expected ',' or '}' in object");
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

}  // namespace

JsonValue parseJson(std::string_view text) { return Parser(text).document(); }

}  // namespace pfa

#include "core/util/json_writer.h"

#include <cmath>
#include <cstdio>

#include "core/util/format.h"
#include "core/util/json_value.h"

namespace pfa {

void JsonWriter::separate() {
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_first.empty()) {
        if (!m_first.back()) m_text += ',';
        m_first.back() = false;
    }
}

JsonWriter& JsonWriter::beginObject() {
    separate();
    m_text += '{';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    m_text += '}';
    m_first.pop_back();
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    separate();
    m_text += '[';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    m_text += ']';
    m_first.pop_back();
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    separate();
    m_text += quote(name);
    m_text += ':';
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
    separate();
    m_text += quote(text);
    return *this;
}

JsonWriter& JsonWriter::value(double number, int digits) {
    if (std::isnan(number)) return null();
    if (std::isinf(number)) return value(number > 0 ? "inf" : "-inf");
    separate();
    m_text += formatPortable(number, digits);  // never a decimal comma, whatever the locale
    return *this;
}

JsonWriter& JsonWriter::rawValue(std::string_view json) {
    separate();
    m_text += json;
    return *this;
}

JsonWriter& JsonWriter::value(long number) {
    separate();
    m_text += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::value(unsigned long number) {
    separate();
    m_text += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
    separate();
    m_text += flag ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null() {
    separate();
    m_text += "null";
    return *this;
}

JsonWriter& JsonWriter::array(const std::vector<double>& numbers, int digits) {
    beginArray();
    for (double number : numbers) value(number, digits);
    return endArray();
}

std::string JsonWriter::quote(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    for (const char c : text) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buffer[8];
                    std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                    out += buffer;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
    return out;
}

void writeJsonValue(JsonWriter& json, const JsonValue& value) {
    switch (value.type()) {
        case JsonValue::Type::Null:
            json.null();
            return;
        case JsonValue::Type::Bool:
            json.value(value.asBool());
            return;
        case JsonValue::Type::Number:
            json.value(value.asNumber());
            return;
        case JsonValue::Type::String:
            json.value(value.asString());
            return;
        case JsonValue::Type::Array:
            json.beginArray();
            for (const JsonValue& item : value.items()) writeJsonValue(json, item);
            json.endArray();
            return;
        case JsonValue::Type::Object:
            json.beginObject();
            for (const auto& [key, member] : value.members()) {
                json.key(key);
                writeJsonValue(json, member);
            }
            json.endObject();
            return;
    }
}

}  // namespace pfa

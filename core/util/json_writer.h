#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pfa {

class JsonValue;

/// Minimal streaming JSON writer producing one compact line. Non-finite numbers, which JSON
/// cannot represent, are written as the strings "inf" / "-inf" and NaN as null.
class JsonWriter {
public:
    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    /// Writes a key inside an object; the next call writes its value.
    JsonWriter& key(std::string_view name);
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
    /// Numbers with 17 significant digits (round-trip exact) unless `digits` is given.
    JsonWriter& value(double number, int digits = 17);
    JsonWriter& value(long number);
    JsonWriter& value(int number) { return value(static_cast<long>(number)); }
    JsonWriter& value(unsigned long number);
    JsonWriter& value(bool flag);
    JsonWriter& null();
    /// A complete JSON value written elsewhere (e.g. by another writer), inserted as is.
    JsonWriter& rawValue(std::string_view json);
    /// An array of numbers.
    JsonWriter& array(const std::vector<double>& numbers, int digits = 17);

    const std::string& text() const { return m_text; }

    /// `text` as a quoted, escaped JSON string.
    static std::string quote(std::string_view text);

private:
    void separate();

    std::string m_text;
    std::vector<bool> m_first;  // per open container: no element written yet
    bool m_afterKey = false;
};

/// Writes a parsed JSON value as it is (numbers with 17 digits: exact).
void writeJsonValue(JsonWriter& json, const JsonValue& value);

}  // namespace pfa

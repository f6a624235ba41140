#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pfa {

/// A parsed JSON document node (null, boolean, number, string, array or object).
/// Numbers are doubles; the strings "inf" / "-inf" written by JsonWriter for non-finite values
/// are read back as numbers by asNumber().
class JsonValue {
public:
    enum class Type { Null, Bool, Number, String, Array, Object };

    JsonValue() = default;
    static JsonValue boolean(bool value);
    static JsonValue number(double value);
    static JsonValue string(std::string value);
    static JsonValue array(std::vector<JsonValue> items);
    static JsonValue object(std::map<std::string, JsonValue> members);

    Type type() const { return m_type; }
    bool isNull() const { return m_type == Type::Null; }
    bool isObject() const { return m_type == Type::Object; }
    bool isArray() const { return m_type == Type::Array; }

    /// The number; also accepts "inf", "-inf" and null (→ NaN). Throws InputError otherwise.
    double asNumber() const;
    bool asBool() const;
    const std::string& asString() const;
    const std::vector<JsonValue>& items() const;
    const std::map<std::string, JsonValue>& members() const;

    /// Member lookup; throws InputError naming the key when absent.
    const JsonValue& at(const std::string& key) const;
    /// True when the object has `key`.
    bool has(const std::string& key) const;
    /// Convenience accessors with a fallback for absent keys.
    double numberOr(const std::string& key, double fallback) const;
    std::string stringOr(const std::string& key, const std::string& fallback) const;
    /// An array of numbers.
    std::vector<double> numbers() const;

private:
    Type m_type = Type::Null;
    bool m_bool = false;
    double m_number = 0.0;
    std::string m_string;
    std::vector<JsonValue> m_items;
    std::map<std::string, JsonValue> m_members;
};

/// Parses one JSON document; throws InputError with the byte offset of the first problem.
JsonValue parseJson(std::string_view text);

}  // namespace pfa

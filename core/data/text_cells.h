#pragma once

// Internal helpers of the data-file readers (csv_reader, arff_reader, file_preview): parsing a
// cell as a number and quoting cells in error messages. Not a public API.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pfa::detail {

/// Outcome of parseNumber().
enum class NumberParse { Ok, NotANumber, NotFinite };

/// Parses a whole cell as a finite number (surrounding spaces/tabs and a leading '+' allowed,
/// no hex, no "inf"/"nan"). `out` is only meaningful when the result is Ok.
NumberParse parseNumber(std::string_view s, double& out);

/// `s` in single quotes for messages, cut to 60 characters ("...") so huge cells stay readable.
std::string quoteCell(std::string_view s);

/// The first `maxItems` of `items`, each quoted, comma-separated, "... (N in all)" after.
std::string joinQuoted(const std::vector<std::string>& items, std::size_t maxItems);

/// A delimiter for messages: "tab", "space" or the character in quotes.
std::string delimiterName(char c);

/// Makes header names unique the way pandas does ("x", "x.1", "x.2", ...) and names empty ones
/// "column N" (1-based), so that every column can be addressed by name.
std::vector<std::string> uniqueNames(const std::vector<std::string>& raw);

/// A byte count for messages: "812 KB", "37.5 MB", "3.2 GB" (powers of 1024).
std::string formatByteSize(std::uint64_t bytes);

}  // namespace pfa::detail

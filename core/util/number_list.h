#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace pfa {

/// Most values one number list may hold (after its generators are expanded): a sweep axis
/// longer than this is almost certainly a typing mistake (a count with an extra digit).
inline constexpr std::size_t kMaxNumberListValues = 1000;

/// Significant digits of generated values. Four keep a log-spaced grid distinct (about 1e-4
/// relative resolution) while the values print short in tables and the GUI ("0.03162", not
/// "0.031622776601683791"). A rounded value is the double nearest to its printed text, so
/// typing that text later (say "0.03162") names the same value, and so the same run key
/// (resume and merge find the run), as the generator did.
inline constexpr int kGeneratedValueDigits = 4;

/// `value` rounded to `digits` significant digits, as the double nearest to that decimal
/// text, so it prints back as exactly that text. 0 and non-finite values are returned as is.
double roundToSignificantDigits(double value, int digits);

/// `count` values from `from` to `to` inclusive, equally spaced on a logarithmic scale, each
/// rounded to kGeneratedValueDigits significant digits. Throws InputError unless
/// 0 < from < to (both finite), 2 ≤ count ≤ kMaxNumberListValues and the rounded values are
/// all different.
std::vector<double> logSpacedValues(double from, double to, int count);

/// `count` equally spaced values from `from` to `to` inclusive, each rounded to
/// kGeneratedValueDigits significant digits. Throws InputError unless from < to (both
/// finite), 2 ≤ count ≤ kMaxNumberListValues and the rounded values are all different.
std::vector<double> linearSpacedValues(double from, double to, int count);

/// Parses a comma-separated list of numbers, e.g. "0, 0.5, 1" or "0,log:0.01:1000:11".
/// An item is a plain number (kept exactly as written) or a generator:
///   - `log:FROM:TO:COUNT` — COUNT values log-spaced from FROM to TO inclusive (0 < FROM < TO);
///   - `lin:FROM:TO:COUNT` — COUNT values evenly spaced from FROM to TO inclusive.
/// Generated values are rounded to kGeneratedValueDigits significant digits. Blanks around
/// items and fields are ignored, and so are empty items ("1, 2,"). A value that appears again
/// is dropped (so "0,lin:0:2.5:11" gives eleven values, 0 once); the order is otherwise kept.
/// "inf" (any case) and "∞" are accepted only when `allowInfinity`. Numbers are read in the C
/// locale (a '.' decimal point) whatever the user's locale.
/// Throws InputError with a one-line reason naming the offending item: not a number, an
/// unknown generator, a bad count, FROM ≥ TO, a log bound ≤ 0, no values at all, or more
/// than kMaxNumberListValues values.
std::vector<double> parseNumberList(std::string_view text, bool allowInfinity);

/// True when `text` holds at least one generator item (an item with a ':'), so that callers
/// may show what it expands to.
bool numberListHasGenerator(std::string_view text);

}  // namespace pfa

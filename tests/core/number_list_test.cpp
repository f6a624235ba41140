// Tests of the number-list parser shared by `pfa-cli train --lambda/--epsilon` and the sweep
// dialog (core/util/number_list.h): plain lists, log:/lin: generators, their exact expansions
// and their one-line errors.

#include "core/util/number_list.h"

#include <catch2/catch.hpp>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "core/util/error.h"

namespace core_number_list_test {

using Catch::Contains;
using pfa::parseNumberList;

namespace {

using Values = std::vector<double>;

/// The message parseNumberList throws for `text` ("" when it does not throw).
std::string errorOf(const std::string& text, bool allowInfinity = false) {
    try {
        parseNumberList(text, allowInfinity);
    } catch (const pfa::InputError& error) {
        return error.what();
    }
    return "";
}

/// The values as the short text a results file or run key shows.
std::vector<std::string> printed(const Values& values) {
    std::vector<std::string> texts;
    char buffer[64];
    for (double value : values) {
        const auto result =
            std::to_chars(buffer, buffer + sizeof buffer, value);  // shortest round trip
        texts.emplace_back(buffer, result.ptr);
    }
    return texts;
}

}  // namespace

TEST_CASE("Number lists: plain numbers are kept exactly, in order, blanks and empty items ignored",
          "[number-list]") {
    CHECK(parseNumberList("0,0.5,1,2,4,8", false) == Values{0, 0.5, 1, 2, 4, 8});
    CHECK(parseNumberList(" 3 , 1,\t2 ,", false) == Values{3, 1, 2});
    CHECK(parseNumberList("0.123456789", false) == Values{0.123456789});
    CHECK(parseNumberList("+1,-2,1e-3", false) == Values{1, -2, 0.001});
    CHECK(parseNumberList("1,1,2,1", false) == Values{1, 2});  // repeats dropped
}

TEST_CASE("Number lists: log: expands to exact log-spaced values rounded to 4 significant digits",
          "[number-list]") {
    CHECK(parseNumberList("log:0.01:100:5", false) == Values{0.01, 0.1, 1, 10, 100});
    CHECK(parseNumberList("0,log:0.01:100:5", false) == Values{0, 0.01, 0.1, 1, 10, 100});
    CHECK(parseNumberList("log:0.001:10000:8", false) ==
          Values{0.001, 0.01, 0.1, 1, 10, 100, 1000, 10000});
    // Half decades: 10^-1.5 = 0.0316227766…, printed short because it is rounded.
    CHECK(printed(parseNumberList("0,log:0.01:1000:11", false)) ==
          std::vector<std::string>{"0", "0.01", "0.03162", "0.1", "0.3162", "1", "3.162", "10",
                                   "31.62", "100", "316.2", "1000"});
    CHECK(printed(parseNumberList("log:1:2:3", false)) ==
          std::vector<std::string>{"1", "1.414", "2"});
    // A printed value typed later is the very same double (the same run key).
    CHECK(parseNumberList("log:0.01:1000:11", false)[1] == parseNumberList("0.03162", false)[0]);
    // Every value is the double nearest to its 4-digit text, so it prints back as that text.
    for (double value : parseNumberList("log:0.001:10000:57", false)) {
        CHECK(printed({value})[0].size() <= 8);  // e.g. "0.001778", "1.334", "5623"
    }
}

TEST_CASE("Number lists: lin: expands to evenly spaced values, 0 is exact across a sign change",
          "[number-list]") {
    CHECK(parseNumberList("lin:0:2.5:11", false) ==
          Values{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25, 2.5});
    CHECK(parseNumberList("lin:-1:1:5", false) == Values{-1, -0.5, 0, 0.5, 1});
    CHECK(parseNumberList("lin:-0.3:0.3:3", false) == Values{-0.3, 0, 0.3});
    CHECK(printed(parseNumberList("lin:0:1:4", false)) ==
          std::vector<std::string>{"0", "0.3333", "0.6667", "1"});
    // A repeated 0 between a plain item and a generator is dropped.
    CHECK(parseNumberList("0, lin:0:2:3", false) == Values{0, 1, 2});
    CHECK(parseNumberList(" lin : 0 : 1 : 2 ", false) == Values{0, 1});
}

TEST_CASE("Number lists: infinity only where it is allowed", "[number-list]") {
    const Values withInfinity = parseNumberList("0.5,inf,∞,INF,log:1:100:3", true);
    REQUIRE(withInfinity.size() == 5);
    CHECK(std::isinf(withInfinity[1]));
    CHECK(withInfinity[4] == 100);
    CHECK(errorOf("1,inf") == "'inf' is not a finite number");
    CHECK(errorOf("1,-inf", true) == "'-inf' is not a number or inf");
    CHECK_THAT(errorOf("log:1:inf:3", true), Contains("'inf' is not a finite number"));
}

TEST_CASE("Number lists: errors are one line and name the offending item", "[number-list]") {
    CHECK(errorOf("0,abc") == "'abc' is not a finite number");
    CHECK(errorOf("1,nan") == "'nan' is not a finite number");
    CHECK(errorOf("+-1") == "'+-1' is not a finite number");
    CHECK(errorOf("1 2") == "'1 2' is not a finite number");
    CHECK(errorOf("") == "give at least one value");
    CHECK(errorOf(" , ") == "give at least one value");
    CHECK(errorOf("log:0.01:100") == "'log:0.01:100': expected log:FROM:TO:COUNT");
    CHECK(errorOf("log:0.01:100:5:1") == "'log:0.01:100:5:1': expected log:FROM:TO:COUNT");
    CHECK(errorOf("exp:1:2:3") ==
          "'exp:1:2:3': unknown generator 'exp' (use log:FROM:TO:COUNT or lin:FROM:TO:COUNT)");
    CHECK(errorOf("log:0.01:100:x") ==
          "'log:0.01:100:x': the count 'x' must be a whole number from 2 to 1000");
    CHECK(errorOf("log:0.01:100:1") ==
          "'log:0.01:100:1': the count '1' must be a whole number from 2 to 1000");
    CHECK(errorOf("log:0.01:100:2.5") ==
          "'log:0.01:100:2.5': the count '2.5' must be a whole number from 2 to 1000");
    CHECK(errorOf("lin:0:1:1001") ==
          "'lin:0:1:1001': the count '1001' must be a whole number from 2 to 1000");
    CHECK(errorOf("log:100:0.01:5") ==
          "'log:100:0.01:5': the first bound (100) must be below the second (0.01)");
    CHECK(errorOf("lin:1:1:5") == "'lin:1:1:5': the first bound (1) must be below the second (1)");
    CHECK(errorOf("log:0:100:5") == "'log:0:100:5': log-spaced values need bounds above 0 (got 0)");
    CHECK(errorOf("log:-1:100:5") ==
          "'log:-1:100:5': log-spaced values need bounds above 0 (got -1)");
    CHECK(errorOf("log:a:100:5") == "'log:a:100:5': 'a' is not a finite number");
    CHECK(errorOf("log:1:1.001:50") ==
          "'log:1:1.001:50': values repeat after rounding to 4 significant digits (1); use fewer "
          "values or a wider range");
    // 1000 values are allowed, one more is not.
    CHECK(parseNumberList("lin:1:1000:1000", false).size() == 1000);
    CHECK(errorOf("0,lin:1:1000:1000") ==
          "'lin:1:1000:1000': the list holds more than 1000 values");
    CHECK(errorOf("lin:1:1000:1000,lin:1001:1002:2") ==
          "'lin:1001:1002:2': the list holds more than 1000 values");
    for (const char* bad :
         {"abc", "log:0:1:5", "lin:2:1:3", "log:1:2", "exp:1:2:3", "lin:0:1:1001"}) {
        CHECK(errorOf(bad).find('\n') == std::string::npos);
    }
}

TEST_CASE("Number lists: the generator helpers check their arguments too", "[number-list]") {
    CHECK(pfa::logSpacedValues(1, 1000, 4) == Values{1, 10, 100, 1000});
    CHECK(pfa::linearSpacedValues(0, 10, 3) == Values{0, 5, 10});
    CHECK_THROWS_AS(pfa::logSpacedValues(0, 1, 3), pfa::InputError);
    CHECK_THROWS_AS(pfa::linearSpacedValues(0, 1, 1), pfa::InputError);
    CHECK_THROWS_AS(pfa::linearSpacedValues(0, INFINITY, 3), pfa::InputError);
    CHECK(pfa::roundToSignificantDigits(0.031622776601683791, 4) == 0.03162);
    CHECK(pfa::roundToSignificantDigits(0.0, 4) == 0.0);
    CHECK(pfa::roundToSignificantDigits(-1234.56, 4) == -1235.0);
    CHECK(pfa::numberListHasGenerator("0, log:1:2:3"));
    CHECK_FALSE(pfa::numberListHasGenerator("0, 1, 2"));
}

}  // namespace core_number_list_test

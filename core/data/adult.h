#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/data/schema.h"
#include "core/data/tabular_data.h"

namespace pfa {

// The UCI Adult (Census Income) data set, prepared as in the DP-FERMI experiments
// (Lowy et al.): adult.data + adult.test concatenated, every row with a '?' dropped
// (45,222 rows = 30,162 + 15,060), target income (class 1 = ">50K"), sensitive attribute sex
// (not a feature), 6 numeric + 7 categorical features whose one-hot encoding has exactly 96
// columns: 102 encoded features, DP-FERMI's num_inp_attr for "adult".
//
// The level lists below are declared (public and fixed) so that the one-hot layout does not
// depend on the split. They are the levels adult.names lists, minus workclass "Never-worked":
// its 10 rows (7 in adult.data, 3 in adult.test) all have occupation '?', so none survives the
// '?' filter and DP-FERMI's one-hot has no column for it (adult.names lists 97 levels).
// Every other listed level occurs after filtering. Levels are in sorted (byte) order, the
// order pandas.get_dummies produces.

/// Column names of adult.data / adult.test in file order (the files have no header).
// clang-format off
inline constexpr std::array<std::string_view, 15> kAdultColumns = {
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
    "hours-per-week", "native-country", "income"};
// clang-format on

/// The six numeric features (z-scored later).
inline constexpr std::array<std::string_view, 6> kAdultNumericColumns = {
    "age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"};

/// Declared levels of "workclass" (7; "Never-worked" excluded, see above).
inline constexpr std::array<std::string_view, 7> kAdultWorkclassLevels = {
    "Federal-gov",      "Local-gov", "Private",    "Self-emp-inc",
    "Self-emp-not-inc", "State-gov", "Without-pay"};

/// Declared levels of "education" (16).
inline constexpr std::array<std::string_view, 16> kAdultEducationLevels = {
    "10th",    "11th",       "12th",        "1st-4th",     "5th-6th",   "7th-8th",
    "9th",     "Assoc-acdm", "Assoc-voc",   "Bachelors",   "Doctorate", "HS-grad",
    "Masters", "Preschool",  "Prof-school", "Some-college"};

/// Declared levels of "marital-status" (7).
inline constexpr std::array<std::string_view, 7> kAdultMaritalStatusLevels = {
    "Divorced",
    "Married-AF-spouse",
    "Married-civ-spouse",
    "Married-spouse-absent",
    "Never-married",
    "Separated",
    "Widowed"};

/// Declared levels of "occupation" (14).
inline constexpr std::array<std::string_view, 14> kAdultOccupationLevels = {
    "Adm-clerical",    "Armed-Forces",      "Craft-repair",      "Exec-managerial",
    "Farming-fishing", "Handlers-cleaners", "Machine-op-inspct", "Other-service",
    "Priv-house-serv", "Prof-specialty",    "Protective-serv",   "Sales",
    "Tech-support",    "Transport-moving"};

/// Declared levels of "relationship" (6).
inline constexpr std::array<std::string_view, 6> kAdultRelationshipLevels = {
    "Husband", "Not-in-family", "Other-relative", "Own-child", "Unmarried", "Wife"};

/// Declared levels of "race" (5).
inline constexpr std::array<std::string_view, 5> kAdultRaceLevels = {
    "Amer-Indian-Eskimo", "Asian-Pac-Islander", "Black", "Other", "White"};

/// Declared levels of "native-country" (41).
// clang-format off
inline constexpr std::array<std::string_view, 41> kAdultNativeCountryLevels = {
    "Cambodia", "Canada", "China", "Columbia", "Cuba", "Dominican-Republic", "Ecuador",
    "El-Salvador", "England", "France", "Germany", "Greece", "Guatemala", "Haiti",
    "Holand-Netherlands", "Honduras", "Hong", "Hungary", "India", "Iran", "Ireland", "Italy",
    "Jamaica", "Japan", "Laos", "Mexico", "Nicaragua", "Outlying-US(Guam-USVI-etc)", "Peru",
    "Philippines", "Poland", "Portugal", "Puerto-Rico", "Scotland", "South", "Taiwan",
    "Thailand", "Trinadad&Tobago", "United-States", "Vietnam", "Yugoslavia"};
// clang-format on

/// Total number of declared one-hot levels (7+16+7+14+6+5+41).
inline constexpr std::size_t kAdultOneHotColumns = 96;
/// Encoded feature count: 6 numeric + 96 one-hot (DP-FERMI's num_inp_attr for adult).
inline constexpr std::size_t kAdultEncodedFeatures = 102;

/// The built-in schema of adult.data / adult.test: no header, ", "-separated (trimmed),
/// '|' comment lines, '?' = missing and such rows dropped, target "income" with positive
/// ">50K" (the trailing '.' of adult.test labels is stripped), class names {"<=50K", ">50K"},
/// sensitive "sex" with groups 0 = "Female", 1 = "Male" (sorted names), declared levels above.
Schema adultSchema();

/// Reads `directory`/adult.data then `directory`/adult.test with adultSchema(): 45,222 rows,
/// the 30,162 from adult.data first. A missing file raises DataFileError naming it.
TabularData loadAdult(const std::string& directory);

}  // namespace pfa

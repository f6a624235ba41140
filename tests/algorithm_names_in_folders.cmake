# Fails if code outside core/algorithms/ names an algorithm: how an algorithm is drawn, explained
# and rated (its marker, colour, plain words and theory rate) is declared with it
# (Algorithm::presentation, Algorithm::theoryRate), so that adding an algorithm touches its own
# folder only and no view keeps a list of names. The names are read from the algorithms'
# `name()` declarations; core/, ui/ and app/ are scanned for one in quotes, comments aside.
# Names other layers need are constants defined in core/algorithms/: the default algorithm
# (kDefaultAlgorithm, registry.cpp) and DP-SGD's, which the privacy audit breaks on purpose
# (kDpSgdName, saddle/dp_sgd.h).
file(GLOB_RECURSE declarations "${SOURCE_DIR}/core/algorithms/*.cpp")
set(names "")
foreach(source IN LISTS declarations)
  file(STRINGS "${source}" lines REGEX "name\\(\\) const override \\{ return \"[a-z0-9-]+\"")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE ".*return \"([a-z0-9-]+)\".*" "\\1" name "${line}")
    list(APPEND names "${name}")
  endforeach()
endforeach()
list(LENGTH names count)
if(count LESS 19)
  message(FATAL_ERROR "found only ${count} algorithm names under ${SOURCE_DIR}/core/algorithms")
endif()
file(GLOB_RECURSE sources "${SOURCE_DIR}/core/*.h" "${SOURCE_DIR}/core/*.cpp"
                          "${SOURCE_DIR}/ui/*.h" "${SOURCE_DIR}/ui/*.cpp"
                          "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/app/*.cpp")
list(FILTER sources EXCLUDE REGEX "/core/algorithms/")
set(offenders "")
foreach(source IN LISTS sources)
  file(STRINGS "${source}" lines REGEX "\"[a-z0-9-]+\"")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "//.*$" "" code "${line}")
    foreach(name IN LISTS names)
      string(FIND "${code}" "\"${name}\"" at)
      if(NOT at EQUAL -1)
        file(RELATIVE_PATH relative "${SOURCE_DIR}" "${source}")
        string(STRIP "${line}" line)
        list(APPEND offenders "${relative}: ${line}")
        break()
      endif()
    endforeach()
  endforeach()
endforeach()
if(offenders)
  string(REPLACE ";" "\n" offenders "${offenders}")
  message(FATAL_ERROR "an algorithm named outside core/algorithms/ (declare it with the "
                      "algorithm: Algorithm::presentation, Algorithm::theoryRate):\n${offenders}")
endif()
message(STATUS "${count} algorithms, each named only in its own folder")

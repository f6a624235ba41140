# Fails if a .cpp or .h under the folders the build compiles is named by no target. Sources are
# listed, not globbed (every CMakeLists.txt), so a file nobody listed would silently not be built:
# a forgotten *_test.cpp would never run. (This check globs on purpose: it looks for what the
# lists miss.) Called by ctest:
#   cmake -DROOT=<project> -DLISTED=<file> "-DEXCLUDE=tests/fuzz|..." -P sources_listed.cmake
# LISTED holds every target's sources as absolute paths (written at configure time by
# tests/CMakeLists.txt); EXCLUDE names folders this configuration does not build.
cmake_minimum_required(VERSION 3.22)
file(READ "${LISTED}" listed)
string(REPLACE "|" ";" excluded "${EXCLUDE}")
file(GLOB_RECURSE files RELATIVE "${ROOT}"
     "${ROOT}/core/*.cpp" "${ROOT}/core/*.h" "${ROOT}/ui/*.cpp" "${ROOT}/ui/*.h"
     "${ROOT}/app/*.cpp" "${ROOT}/app/*.h" "${ROOT}/tests/*.cpp" "${ROOT}/tests/*.h")
set(missing "")
set(checked 0)
foreach(file IN LISTS files)
  set(skip FALSE)
  foreach(folder IN LISTS excluded)
    string(FIND "${file}" "${folder}/" at)
    if(at EQUAL 0)
      set(skip TRUE)
    endif()
  endforeach()
  if(skip)
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  if(NOT "${ROOT}/${file}" IN_LIST listed)
    list(APPEND missing "${file}")
  endif()
endforeach()
if(checked LESS 100)
  message(FATAL_ERROR "found only ${checked} source files under ${ROOT}; wrong directory?")
endif()
if(missing)
  string(REPLACE ";" "\n  " missing "${missing}")
  message(FATAL_ERROR "files no target lists (add them to their folder's CMakeLists.txt):\n  ${missing}")
endif()
message(STATUS "${checked} source files, each listed by a target")

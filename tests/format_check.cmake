# Every C++ source file of the project follows .clang-format. Says "skipped: REASON" (CTest then
# reports the test as skipped) when clang-format 14 — Debian 12's, the version the files are
# formatted with — is not found: another version formats some constructs differently.
#   cmake -DROOT=<project> -DCLANG_FORMAT=<program or NOTFOUND> -P format_check.cmake
# To format a file: clang-format -i FILE (or only the lines you changed:
# git diff -U0 --no-color | clang-format-diff -p1 -i).
if(NOT CLANG_FORMAT)
  message("skipped: clang-format not found (Debian package clang-format)")
  return()
endif()
execute_process(COMMAND ${CLANG_FORMAT} --version OUTPUT_VARIABLE version)
if(NOT version MATCHES "version 14\\.")
  message("skipped: ${CLANG_FORMAT} is not clang-format 14 (${version})")
  return()
endif()
set(files "")
foreach(folder app core tests ui)
  file(GLOB_RECURSE found LIST_DIRECTORIES false "${ROOT}/${folder}/*.cpp" "${ROOT}/${folder}/*.h")
  list(APPEND files ${found})
endforeach()
list(LENGTH files count)
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror --style=file ${files}
                WORKING_DIRECTORY ${ROOT} RESULT_VARIABLE result ERROR_VARIABLE problems)
if(NOT result EQUAL 0)
  # One line per file that differs, then clang-format's own report.
  string(REGEX MATCHALL "[^\n]*: error: code should be clang-formatted" lines "${problems}")
  set(differing "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE ":[0-9]+:[0-9]+: error: code should be clang-formatted" "" file "${line}")
    list(APPEND differing "${file}")
  endforeach()
  list(REMOVE_DUPLICATES differing)
  list(LENGTH differing bad)
  string(REPLACE ";" "\n  " differing "${differing}")
  message(FATAL_ERROR "${bad} of ${count} files differ from .clang-format (clang-format -i FILE):\n  ${differing}")
endif()
message(STATUS "${count} files follow .clang-format")

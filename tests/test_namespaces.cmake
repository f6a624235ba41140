# Fails if a test file does not wrap its code in a namespace of its own, named SUITE_FILE (e.g.
# core_noise_test for tests/core/noise_test.cpp): the test executables compile their files in
# batches (unity build, tests/CMakeLists.txt), where one file's helpers would otherwise clash with,
# or silently overload, another's. Called by ctest:
#   cmake -DTESTS_DIR=<project>/tests -P test_namespaces.cmake
cmake_minimum_required(VERSION 3.22)
set(problems "")
set(count 0)
foreach(suite core ui fetch)
  file(GLOB files "${TESTS_DIR}/${suite}/*_test.cpp")
  foreach(file IN LISTS files)
    get_filename_component(stem "${file}" NAME_WE)
    set(name "${suite}_${stem}")
    file(READ "${file}" text)
    math(EXPR count "${count} + 1")
    # Opened after the #include lines (nothing of the file's own code before it but declarations
    # it must keep global) and closed as the file's last line.
    if(NOT text MATCHES "\nnamespace ${name} {\n")
      list(APPEND problems "${suite}/${stem}.cpp: no line \"namespace ${name} {\"")
    elseif(NOT text MATCHES "\n}  // namespace ${name}\n*$")
      list(APPEND problems "${suite}/${stem}.cpp: its last line is not \"}  // namespace ${name}\"")
    else()
      string(FIND "${text}" "\nnamespace ${name} {\n" opened)
      string(SUBSTRING "${text}" ${opened} -1 rest)
      if(rest MATCHES "\n#include [<\"][^\n]*[.]h[\">]")
        list(APPEND problems "${suite}/${stem}.cpp: a header included inside namespace ${name}")
      endif()
    endif()
  endforeach()
endforeach()
if(count LESS 100)
  message(FATAL_ERROR "only ${count} test files found under ${TESTS_DIR}: wrong folder?")
endif()
if(problems)
  string(REPLACE ";" "\n" problems "${problems}")
  message(FATAL_ERROR "test files without a namespace of their own:\n${problems}")
endif()
message(STATUS "${count} test files, each in its own namespace")

# Fails when a test of the build in BUILD_DIR carries none of the suite labels.
#   cmake -DCTEST=ctest -DBUILD_DIR=... -P every_test_labelled.cmake
set(suites core ui cli fetch build bench package fuzz)
string(REPLACE ";" "|" suites_regex "${suites}")
execute_process(COMMAND ${CTEST} -N -LE "^(${suites_regex})$" WORKING_DIRECTORY ${BUILD_DIR}
                OUTPUT_VARIABLE output RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "ctest -N failed (${result}):\n${output}")
endif()
if(NOT output MATCHES "Total Tests: 0")
  message(FATAL_ERROR "Tests without a suite label (${suites}):\n${output}")
endif()
execute_process(COMMAND ${CTEST} -N WORKING_DIRECTORY ${BUILD_DIR} OUTPUT_VARIABLE all)
string(REGEX MATCH "Total Tests: [0-9]+" total "${all}")
message(STATUS "${total}, every one with a suite label (${suites})")

# Writes the CTest labels (and serial runs) of one Catch2 executable's tests from their tags, so a
# test's labels are declared where the test is: run after each build of the executable (by
# pfa_catch_labels in tests/CMakeLists.txt), like Catch2's own test discovery.
#   cmake -DTEST_EXECUTABLE=... -DTEST_PREFIX="core: " -DBASE_LABELS=core
#         -DTAG_LABELS="slow=slow|statistical=statistical|..." -DSERIAL_TAG=serial
#         -DOUTPUT=... -P catch_labels.cmake
# A test gets BASE_LABELS plus the label of every tag it carries; one tagged [SERIAL_TAG] runs alone.

cmake_minimum_required(VERSION 3.22)

function(list_tests out)  # list_tests(OUT [SPEC]): the names of the tests matching SPEC
  execute_process(COMMAND "${TEST_EXECUTABLE}" ${ARGN} --list-test-names-only
                  OUTPUT_VARIABLE output RESULT_VARIABLE result)
  if(result LESS 0)
    message(FATAL_ERROR "${TEST_EXECUTABLE} could not list its tests: ${result}")
  endif()
  string(REPLACE "\n" ";" lines "${output}")
  set(names "")
  foreach(line IN LISTS lines)
    if(NOT line STREQUAL "")
      list(APPEND names "${line}")
    endif()
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

list_tests(all_tests)
string(REPLACE "|" ";" tag_labels "${TAG_LABELS}")
foreach(pair IN LISTS tag_labels)
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 tag)
  list(GET pair 1 label)
  list_tests(tagged "[${tag}]")
  foreach(name IN LISTS tagged)
    string(MD5 key "${name}")
    list(APPEND extra_${key} ${label})
  endforeach()
endforeach()
set(serial_keys "")
if(SERIAL_TAG)
  list_tests(serial "[${SERIAL_TAG}]")
  foreach(name IN LISTS serial)
    string(MD5 key "${name}")
    list(APPEND serial_keys ${key})
  endforeach()
endif()

set(script "")
foreach(name IN LISTS all_tests)
  string(MD5 key "${name}")
  set(labels ${BASE_LABELS} ${extra_${key}})
  list(REMOVE_DUPLICATES labels)
  set(serial "")
  if(key IN_LIST serial_keys)
    set(serial " RUN_SERIAL TRUE")
  endif()
  string(APPEND script
         "set_tests_properties([==[${TEST_PREFIX}${name}]==] PROPERTIES LABELS [==[${labels}]==]${serial})\n")
endforeach()
file(WRITE "${OUTPUT}" "${script}")

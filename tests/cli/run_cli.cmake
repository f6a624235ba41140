# Runs one pfa-cli command and checks its behaviour. Used by tests/cli/CMakeLists.txt.
#   EXE             path of pfa-cli
#   ARGS            its arguments, separated by '|'
#   EXPECT_CODE     expected exit status
#   STDOUT_REGEX    optional regex that stdout must match
#   STDERR_REGEX    optional regex that stderr must match
#   ONE_LINE_ERROR  if true, stderr must be exactly one line
#   OUT_FILE        optional JSON-lines file to delete before and check after the run
#   OUT_LINES       expected number of lines in OUT_FILE
#   OUT_KEYS        keys, separated by '|', that every line of OUT_FILE must contain
#   NEEDS           optional file or folder under the offline data sets the command needs: when
#                   absent, the test prints SKIP_MARKER and a reason (CTest: skipped) and runs
#                   nothing; @DATA@ in ARGS is replaced by the data sets' folder
#   DATA_ROOT       that folder as configured; $ENV{PFA_SHARED_DATASETS} overrides it
#   SKIP_MARKER     the line start CTest's SKIP_REGULAR_EXPRESSION looks for
if(DEFINED NEEDS)
  set(data_root "${DATA_ROOT}")
  if(NOT "$ENV{PFA_SHARED_DATASETS}" STREQUAL "")
    set(data_root "$ENV{PFA_SHARED_DATASETS}")
  endif()
  if(NOT EXISTS "${data_root}/${NEEDS}")
    # Before any check: a skip never hides a failure.
    message("${SKIP_MARKER} ${data_root}/${NEEDS} is not present (the offline copy of the data set; PFA_SHARED_DATASETS)")
    return()
  endif()
  string(REPLACE "@DATA@" "${data_root}" ARGS "${ARGS}")
endif()
string(REPLACE "|" ";" ARGS "${ARGS}")
string(REPLACE "|" ";" OUT_KEYS "${OUT_KEYS}")
if(OUT_FILE)
  file(REMOVE "${OUT_FILE}")
endif()
execute_process(COMMAND "${EXE}" ${ARGS}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT "${code}" STREQUAL "${EXPECT_CODE}")
  message(FATAL_ERROR "exit status ${code}, expected ${EXPECT_CODE}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED STDOUT_REGEX AND NOT out MATCHES "${STDOUT_REGEX}")
  message(FATAL_ERROR "stdout does not match '${STDOUT_REGEX}':\n${out}")
endif()
if(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}':\n${err}")
endif()
if(ONE_LINE_ERROR)
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "expected a one-line reason on stderr, got ${count} lines:\n${err}")
  endif()
endif()
if(OUT_FILE)
  if(NOT EXISTS "${OUT_FILE}")
    message(FATAL_ERROR "output file ${OUT_FILE} was not written")
  endif()
  # Lines hold ';' (a CMake list separator), so count with regexes instead of file(STRINGS).
  file(READ "${OUT_FILE}" content)
  string(REGEX MATCHALL "\n" newlines "${content}")
  list(LENGTH newlines count)
  if(NOT count EQUAL OUT_LINES)
    message(FATAL_ERROR "${OUT_FILE} has ${count} lines, expected ${OUT_LINES}")
  endif()
  foreach(key IN LISTS OUT_KEYS)
    string(REGEX MATCHALL "\"${key}\":" found "${content}")
    list(LENGTH found hits)
    if(hits LESS count)
      message(FATAL_ERROR "key '${key}' appears ${hits} times in ${count} result lines")
    endif()
  endforeach()
endif()

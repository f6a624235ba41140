# cmake --install into PREFIX must yield exactly the expected files: the programs, the desktop
# entry, icon and metainfo (with the GUI), and a man page for pfa-cli, for every command that
# 'pfa-cli --help' lists and for pfa-explorer; each man page must render without a warning.
#   cmake -DBUILD_DIR= -DPREFIX= -DCLI= -DAPP_ID= -DGUI=ON|OFF -P check_install.cmake
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (status ${status})")
endif()

# The commands, read here from the program's help (not from the man page generator's list).
execute_process(COMMAND ${CLI} --help OUTPUT_VARIABLE usage RESULT_VARIABLE status)
string(REGEX MATCH "\ncommands:\n.*\n\n" section "${usage}")
string(REGEX MATCHALL "\n  [a-z][a-z-]*  " entries "${section}")
if(NOT status EQUAL 0 OR entries STREQUAL "")
  message(FATAL_ERROR "'pfa-cli --help' failed or lists no commands")
endif()
set(expected bin/pfa-cli share/man/man1/pfa-cli.1 share/man/man1/pfa-explorer.1)
foreach(entry IN LISTS entries)
  string(STRIP "${entry}" command)
  list(APPEND expected share/man/man1/pfa-cli-${command}.1)
endforeach()
if(GUI)
  list(APPEND expected bin/pfa-explorer share/applications/${APP_ID}.desktop
       share/icons/hicolor/scalable/apps/${APP_ID}.svg share/metainfo/${APP_ID}.metainfo.xml)
endif()
list(SORT expected)
file(GLOB_RECURSE installed RELATIVE ${PREFIX} ${PREFIX}/*)
list(SORT installed)
if(NOT installed STREQUAL expected)
  set(missing ${expected})
  list(REMOVE_ITEM missing ${installed})
  set(extra ${installed})
  list(REMOVE_ITEM extra ${expected})
  message(FATAL_ERROR "installed files differ from the expected ones\n  missing: ${missing}\n  unexpected: ${extra}")
endif()
list(LENGTH installed count)
message(STATUS "${count} files installed, as expected")

# Rendering: -ww turns on every warning, -k runs preconv (the pages are UTF-8, as man reads them).
find_program(GROFF groff)
if(NOT GROFF)
  message(STATUS "note: groff is not installed; the man pages were not rendered")
  return()
endif()
file(GLOB pages ${PREFIX}/share/man/man1/*.1)
foreach(page IN LISTS pages)
  execute_process(COMMAND ${GROFF} -k -man -Tutf8 -ww -z ${page}
                  RESULT_VARIABLE status ERROR_VARIABLE warnings)
  if(NOT status EQUAL 0 OR NOT warnings STREQUAL "")
    message(FATAL_ERROR "${page} does not render cleanly (status ${status}):\n${warnings}")
  endif()
endforeach()
message(STATUS "every man page renders without a warning")

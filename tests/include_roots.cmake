# Fails if a target can reach a header it must not see, or cannot reach one it needs, through its
# include directories (its own and those its libraries export). Called by ctest:
#   cmake -DDIRS_FILE=<file> -DTARGET=<name> "-DSEES=a.h|b.h" "-DHIDDEN=c.h|d.h" -P include_roots.cmake
# DIRS_FILE holds the target's include directories as the build uses them (written at generate
# time by tests/CMakeLists.txt); SEES and HIDDEN are include paths such as ui/shell/main_window.h.
# This is the compiler's search for #include "...", minus the including file's own folder.
cmake_minimum_required(VERSION 3.22)
file(READ "${DIRS_FILE}" dirs)
string(STRIP "${dirs}" dirs)
string(REPLACE "|" ";" sees "${SEES}")
string(REPLACE "|" ";" hidden "${HIDDEN}")
set(problems "")
foreach(header IN LISTS sees hidden)
  set(found "")
  foreach(dir IN LISTS dirs)
    if(EXISTS "${dir}/${header}")
      set(found "${dir}")
      break()
    endif()
  endforeach()
  if(header IN_LIST sees AND NOT found)
    list(APPEND problems "${TARGET} cannot include \"${header}\"")
  elseif(header IN_LIST hidden AND found)
    list(APPEND problems "${TARGET} can include \"${header}\" (found in ${found})")
  endif()
endforeach()
if(problems)
  string(REPLACE ";" "\n" problems "${problems}")
  message(FATAL_ERROR "include roots broken:\n${problems}\ninclude directories:\n${dirs}")
endif()
message(STATUS "${TARGET}: include roots as expected")

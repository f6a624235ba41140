# Fails if a file under ui/ includes a folder on a higher floor. Floors, lowest first:
#   support < runs < charts < panels < controllers < dialogs < actions < shell
# support: what everything may use (the background mechanism, the palette); runs: the run
# entries and their models; charts: chart views; panels: the docks' widgets, which know no
# controller; controllers: own the work; dialogs: windows of their own over the controllers;
# actions: what menus and toolbar do; shell: the window, which composes them all
# (ui/shell/panel_wiring.h connects panels to controllers). A folder may include its own files
# and any lower floor.
set(floors support runs charts panels controllers dialogs actions shell)
set(rank 0)
foreach(floor IN LISTS floors)
  set(rank_${floor} ${rank})
  math(EXPR rank "${rank} + 1")
endforeach()
file(GLOB_RECURSE sources "${UI_DIR}/*.h" "${UI_DIR}/*.cpp")
set(offenders "")
set(count 0)
foreach(source IN LISTS sources)
  file(RELATIVE_PATH relative "${UI_DIR}" "${source}")
  string(REGEX REPLACE "/.*" "" folder "${relative}")
  if(NOT DEFINED rank_${folder})
    list(APPEND offenders "${relative}: in a folder with no floor ('${folder}'); give it one here")
    continue()
  endif()
  math(EXPR count "${count} + 1")
  file(STRINGS "${source}" includes REGEX "#[ \t]*include[ \t]*\"ui/[a-z_]+/")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE ".*\"ui/([a-z_]+)/.*" "\\1" target "${line}")
    if(NOT DEFINED rank_${target})
      list(APPEND offenders "${relative}: includes unknown ui folder '${target}'")
    elseif(rank_${target} GREATER rank_${folder})
      list(APPEND offenders "${relative} (${folder}) includes ${target}: ${line}")
    endif()
  endforeach()
endforeach()
if(count LESS 100)
  message(FATAL_ERROR "found only ${count} files under ${UI_DIR}; wrong directory?")
endif()
if(offenders)
  string(REPLACE ";" "\n" offenders "${offenders}")
  message(FATAL_ERROR "ui floors broken (an include upwards):\n${offenders}")
endif()
message(STATUS "${count} ui files: every include goes to the same or a lower floor")

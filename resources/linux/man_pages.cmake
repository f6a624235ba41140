# Writes the man pages of pfa-cli into OUT_DIR from the help the program prints, so the two
# cannot drift: pfa-cli.1 from 'pfa-cli --help' and pfa-cli-COMMAND.1 from
# 'pfa-cli COMMAND --help' for every command that 'pfa-cli --help' lists.
#   cmake -DEXE=path/to/pfa-cli -DOUT_DIR=dir -DVERSION=0.1.0 -DDATE=YYYY-MM-DD -P man_pages.cmake
# The help text goes in verbatim (no-fill) blocks; the pages stay UTF-8 (man runs preconv).

function(help_of out)  # help_of(OUT ARGS...): the program's help text, or a fatal error
  execute_process(COMMAND ${EXE} ${ARGN} OUTPUT_VARIABLE text RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "pfa-cli ${ARGN} exited with status ${status}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Text for groff: a backslash prints as \e, a minus as \- (a plain '-' may become a hyphen), and
# a line starting with '.' or ''' would be a request, so \& goes before it.
function(roff_escape out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" text "\n${text}")
  string(SUBSTRING "${text}" 1 -1 text)
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# One page: NAME line, then the help split into SYNOPSIS (its leading "usage:" block) and
# DESCRIPTION (the rest).
function(write_page name summary help)
  string(FIND "${help}" "\n\n" end)
  if(help MATCHES "^usage: " AND end GREATER 0)
    math(EXPR length "${end} - 7")
    string(SUBSTRING "${help}" 7 ${length} synopsis)
    math(EXPR start "${end} + 2")
    string(SUBSTRING "${help}" ${start} -1 description)
    string(REGEX REPLACE "\n +" "\n" synopsis "${synopsis}")
    string(STRIP "${synopsis}" synopsis)
  else()
    message(FATAL_ERROR "${name}: the help does not start with a \"usage:\" block")
  endif()
  string(STRIP "${description}" description)
  roff_escape(synopsis "${synopsis}")
  roff_escape(description "${description}")
  roff_escape(summary "${summary}")
  string(TOUPPER "${name}" title)
  roff_escape(title "${title}")
  roff_escape(page_name "${name}")
  file(WRITE ${OUT_DIR}/${name}.1
".\\\" Generated from '${name} --help' by resources/linux/man_pages.cmake: do not edit.
.TH ${title} 1 ${DATE} \"PFA Explorer ${VERSION}\" \"User Commands\"
.SH NAME
${page_name} \\- ${summary}
.SH SYNOPSIS
.nf
${synopsis}
.fi
.SH DESCRIPTION
.nf
${description}
.fi
.SH SEE ALSO
${SEE_ALSO}
")
endfunction()

file(MAKE_DIRECTORY ${OUT_DIR})
help_of(usage --help)

# The commands: the lines "  NAME  summary" (and their indented continuations) between
# "commands:" and the next blank line.
string(FIND "${usage}" "\ncommands:\n" begin)
if(begin LESS 0)
  message(FATAL_ERROR "'pfa-cli --help' has no \"commands:\" list")
endif()
string(SUBSTRING "${usage}" ${begin} -1 section)
string(FIND "${section}" "\n\n" end)
string(SUBSTRING "${section}" 0 ${end} section)
string(REGEX MATCHALL "\n  [a-z][a-z-]*  " entries "${section}")
set(commands "")
set(SEE_ALSO "")
foreach(entry IN LISTS entries)
  string(STRIP "${entry}" command)
  list(APPEND commands ${command})
  list(APPEND SEE_ALSO "\\fBpfa\\-cli\\-${command}\\fR(1)")
endforeach()
if(commands STREQUAL "")
  message(FATAL_ERROR "'pfa-cli --help' lists no commands")
endif()
list(APPEND SEE_ALSO "\\fBpfa\\-explorer\\fR(1)")
list(JOIN SEE_ALSO ",\n" SEE_ALSO)

# pfa-cli.1: the whole usage text (its first block is the synopsis).
write_page(pfa-cli "privacy, fairness and accuracy tradeoffs of classifiers from the command line" "${usage}")
set(SEE_ALSO "\\fBpfa\\-cli\\fR(1)")
foreach(command IN LISTS commands)
  # The command's summary: its entry in the list, continuation lines joined.
  string(REGEX MATCH "\n  ${command}  +([^\n]*(\n           +[^\n]*)*)" entry "${section}")
  string(REGEX REPLACE "[ \n]+" " " summary "${CMAKE_MATCH_1}")
  help_of(help ${command} --help)
  write_page(pfa-cli-${command} "${summary}" "${help}")
endforeach()
# The list of pages, for the install check.
list(TRANSFORM commands PREPEND "pfa-cli-")
list(TRANSFORM commands APPEND ".1")
list(JOIN commands "\n" pages)
file(WRITE ${OUT_DIR}/pages.txt "pfa-cli.1\n${pages}\n")

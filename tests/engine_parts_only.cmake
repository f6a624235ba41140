# Fails if a training file clips, draws noise or keeps the run's books by itself. Every per-row
# or per-unit clip goes through core/engine/clipping.h and every noisy release through the
# mechanisms of core/privacy/noisy_release.h, so the sensitivity a statement names and the noise
# the accountant counts are those of one audited place; and every loop reports steps, evaluated
# epochs, divergence and wall time through the run session (core/engine/run_session.h), so the ε so
# far it shows is the one its accountant gives. Scans core/engine and core/algorithms for
#   - a norm compared with a clip bound, or a clip bound divided by a norm;
#   - a Gaussian or Laplace draw (.normal(), .laplace());
#   - a clock, an observer call, a history entry or a divergence written by hand.
file(GLOB_RECURSE sources "${CORE_DIR}/engine/*.h" "${CORE_DIR}/engine/*.cpp"
                          "${CORE_DIR}/algorithms/*.h" "${CORE_DIR}/algorithms/*.cpp")
list(FILTER sources EXCLUDE REGEX "/engine/(clipping\\.h|run_session\\.(h|cpp))$")
# (Projections onto a ball, "radius / norm", are not clipping and are not matched.)
set(patterns
  # a norm (or squared norm) compared with a clip bound: norm > s.clip, norms(i) > C1, ...
  "([nN]orm|[sS]quared)[A-Za-z_]*(\\([^()]*\\))?[ \t]*>[ \t]*([A-Za-z_.>-]*[cC]lip|[cC][0-9]?([^A-Za-z_0-9]|$))"
  # a clip bound divided by a norm: s.clip / norm, C / norm, bound / norms(i), ...
  "([cC]lip[A-Za-z_]*|[^A-Za-z_0-9][cC][0-9]?|[bB]ound)[ \t]*/[ \t]*[A-Za-z_.]*([nN]orm|sqrt)"
  # noise drawn by hand
  "\\.(normal|laplace)[ \t]*\\("
  # the run's books kept by hand
  "steady_clock|\\.(onStep|onEpochEnd)[ \t]*\\(|history\\.push_back|[^=!]= RunStatus::Diverged")
set(offenders "")
foreach(source IN LISTS sources)
  # One list element per line (a ';' in the code would otherwise split a line in two).
  file(READ "${source}" content)
  string(REPLACE ";" "<semicolon>" content "${content}")
  string(REPLACE "\n" ";" lines "${content}")
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    string(REGEX REPLACE "//.*$" "" code "${line}")  # comments may talk about clipping
    foreach(pattern IN LISTS patterns)
      if(code MATCHES "${pattern}")
        file(RELATIVE_PATH name "${CORE_DIR}" "${source}")
        string(STRIP "${line}" line)
        list(APPEND offenders "core/${name}:${number}: ${line}")
        break()
      endif()
    endforeach()
  endforeach()
endforeach()
list(LENGTH sources count)
if(count LESS 40)
  message(FATAL_ERROR "found only ${count} training files under ${CORE_DIR}; wrong directory?")
endif()
if(offenders)
  string(REPLACE ";" "\n" offenders "${offenders}")
  string(REPLACE "<semicolon>" ";" offenders "${offenders}")
  message(FATAL_ERROR "clipping, noise or the run's books written by hand (use "
                      "core/engine/clipping.h, core/privacy/noisy_release.h and "
                      "core/engine/run_session.h):\n${offenders}")
endif()
message(STATUS "${count} training files: every clip, noise draw and report goes through the shared parts")

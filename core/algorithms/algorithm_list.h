// The algorithm registry: one line per algorithm, in menu order: PFA_ALGORITHM(FACTORY, FILE).
// FACTORY is `std::unique_ptr<Algorithm> FACTORY()`, defined in core/algorithms/FILE.cpp. The
// build reads these lines too: FILE.cpp is compiled into pfa_core and, when it exists,
// tests/core/FILE_test.cpp into the core tests, so adding an algorithm is its file, this line
// and its test.
// Included twice by registry.cpp (declarations, then the table); no include guard on purpose.
PFA_ALGORITHM(makeErm, erm)
PFA_ALGORITHM(makeFermi, fermi)
PFA_ALGORITHM(makeDpFermi, dp_fermi)
PFA_ALGORITHM(makeDpSgd, dp_sgd)
PFA_ALGORITHM(makeNoisyClippedGd, noisy_clipped_gd)
PFA_ALGORITHM(makeUserLevelDpSgd, user_level_dp_sgd)
PFA_ALGORITHM(makeIsrlDpSgd, isrl_dp_sgd)
PFA_ALGORITHM(makeIsrlLocalSgd, isrl_local_sgd)
PFA_ALGORITHM(makePpsgd, ppsgd)
PFA_ALGORITHM(makeAcceleratedClippedGd, accelerated_clipped_gd)
PFA_ALGORITHM(makeProximalClippedGd, proximal_clipped_gd)
PFA_ALGORITHM(makeDpSgdLinear, dp_sgd_linear)
PFA_ALGORITHM(makeSemiDpSgd, semi_dp_sgd)
PFA_ALGORITHM(makeDiff2, diff2)
PFA_ALGORITHM(makeDpGd, dp_gd)
PFA_ALGORITHM(makeFLd, f_ld)
PFA_ALGORITHM(makePfLd, pf_ld)
PFA_ALGORITHM(makeDpReductions, dp_reductions)
PFA_ALGORITHM(makeDpPostprocessing, dp_postprocessing)

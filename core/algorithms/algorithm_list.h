// The algorithm registry: one line per algorithm, in menu order: PFA_ALGORITHM(FACTORY,
// FAMILY/FILE). FACTORY is `std::unique_ptr<Algorithm> FACTORY()`, defined in
// core/algorithms/FAMILY/FILE.cpp (the family folder holds the loop its algorithms share). The
// build reads these lines too: FILE.cpp is compiled into pfa_core and, when it exists,
// tests/core/FILE_test.cpp into the core tests, so adding an algorithm is its file, this line
// and its test.
// Included twice by registry.cpp (declarations, then the table); no include guard on purpose.
// FAMILY/FILE is a path, not a division:
// clang-format off
PFA_ALGORITHM(makeErm, saddle/erm)
PFA_ALGORITHM(makeFermi, saddle/fermi)
PFA_ALGORITHM(makeDpFermi, saddle/dp_fermi)
PFA_ALGORITHM(makeDpSgd, saddle/dp_sgd)
PFA_ALGORITHM(makeNoisyClippedGd, heavy_tail/noisy_clipped_gd)
PFA_ALGORITHM(makeUserLevelDpSgd, user_level/user_level_dp_sgd)
PFA_ALGORITHM(makeIsrlDpSgd, silo/isrl_dp_sgd)
PFA_ALGORITHM(makeIsrlLocalSgd, silo/isrl_local_sgd)
PFA_ALGORITHM(makePpsgd, ppsgd/ppsgd)
PFA_ALGORITHM(makeAcceleratedClippedGd, heavy_tail/accelerated_clipped_gd)
PFA_ALGORITHM(makeProximalClippedGd, heavy_tail/proximal_clipped_gd)
PFA_ALGORITHM(makeDpSgdLinear, linear_sgd/dp_sgd_linear)
PFA_ALGORITHM(makeSemiDpSgd, linear_sgd/semi_dp_sgd)
PFA_ALGORITHM(makeDiff2, diff2/diff2)
PFA_ALGORITHM(makeDpGd, diff2/dp_gd)
PFA_ALGORITHM(makeFLd, lagrangian/f_ld)
PFA_ALGORITHM(makePfLd, lagrangian/pf_ld)
PFA_ALGORITHM(makeDpReductions, reductions/dp_reductions)
PFA_ALGORITHM(makeDpPostprocessing, saddle/dp_postprocessing)
// clang-format on

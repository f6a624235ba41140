// The algorithm registry: one line per algorithm, in menu order. Each name is a factory
// `std::unique_ptr<Algorithm> NAME()` defined in its own file under core/algorithms/.
// Included twice by registry.cpp (declarations, then the table); no include guard on purpose.
PFA_ALGORITHM(makeErm)
PFA_ALGORITHM(makeFermi)
PFA_ALGORITHM(makeDpFermi)
PFA_ALGORITHM(makeDpSgd)
PFA_ALGORITHM(makeNoisyClippedGd)

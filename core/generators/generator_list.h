// The generator registry: one line per data generator, in menu order: PFA_GENERATOR(FACTORY,
// FILE). FACTORY is `DataGenerator FACTORY()`, defined in core/generators/FILE.cpp. The build
// reads these lines too: FILE.cpp is compiled into pfa_core and, when it exists,
// tests/core/FILE_test.cpp into the core tests, so adding a generator is its file, this line
// and its test.
// Included twice by generator.cpp (declarations, then the table); no include guard on purpose.
// clang-format off
PFA_GENERATOR(makeSyntheticGenerator, synthetic_generator)
PFA_GENERATOR(makeHeavyTailedGenerator, heavy_tailed_generator)
PFA_GENERATOR(makePersonalisedGenerator, personalised_generator)
PFA_GENERATOR(makeLinearGaussianGenerator, linear_gaussian_generator)
PFA_GENERATOR(makeTeacherGenerator, teacher_generator)
// clang-format on

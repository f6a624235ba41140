#pragma once

namespace pfa {

/// Whether the kernels that have an AVX2 form run it: the machine has AVX2, and no test asked
/// for the baseline instructions. Every such kernel (the shared products, the runs' lanes,
/// vector_math) gives the same bits in either form; this one switch chooses for all of them.
bool avx2Enabled();

/// For tests: every kernel computes with the baseline instructions even where AVX2 exists
/// (true; the results must not change), or again with the best available (false).
void useBaselineInstructionsOnly(bool baseline);

}  // namespace pfa

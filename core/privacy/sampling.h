#pragma once

namespace pfa {

/// How minibatches are drawn (privacy-accounting.md §6). It lives with the accounting because
/// the accountant's analysis depends on it; the trainers' samplers implement it.
enum class Sampling {
    Poisson,    ///< each row independently with probability q = m/n (default when private)
    Shuffle,    ///< epoch-wise permutation split into batches of m (default when not private)
    Subsample,  ///< m distinct rows drawn uniformly at every step
};

}  // namespace pfa

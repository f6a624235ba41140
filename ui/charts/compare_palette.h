#pragma once

#include <QColor>

namespace pfa::ui::compare_palette {

/// Number of distinct colours before they repeat.
constexpr int kSize = 6;

/// The `index`-th colour for runs compared side by side (Okabe–Ito colours: distinct for
/// colour-blind readers and in grey-scale print). Unlike the ε colour scale, it says which
/// run a curve or table column belongs to, not what its budget is.
QColor color(int index);

}  // namespace pfa::ui::compare_palette

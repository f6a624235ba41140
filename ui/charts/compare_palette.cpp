#include "ui/charts/compare_palette.h"

namespace pfa::ui::compare_palette {

QColor color(int index) {
    // Okabe & Ito (2008), the darker ones first so lines stand out on white; yellow is left out
    // (too light on white).
    static const QColor colors[kSize] = {QColor(0, 114, 178), QColor(213, 94, 0),
                                         QColor(0, 158, 115), QColor(204, 121, 167),
                                         QColor(230, 159, 0), QColor(86, 180, 233)};
    const int i = ((index % kSize) + kSize) % kSize;
    return colors[i];
}

}  // namespace pfa::ui::compare_palette

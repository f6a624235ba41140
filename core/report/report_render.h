#pragma once

#include <string>

#include "core/report/report_model.h"

namespace pfa::report {

/// Writes the report as one A4 page of PDF (cairo). Text that does not fit is set smaller
/// (down to a legible minimum) rather than cut. Throws InputError when the file cannot be
/// written.
void writeReportPdf(const ReportModel& model, const std::string& path);

/// The report as one self-contained HTML page (inline CSS, the chart as inline SVG drawn by
/// the same paint routine as the PDF's).
std::string reportHtml(const ReportModel& model);

/// The tradeoff chart alone as an SVG document of `width` × `height` points.
std::string tradeoffChartSvg(const ReportModel& model, double width, double height);

/// Writes PDF or HTML by the extension of `path` (.pdf, .html, .htm; any case). Throws
/// InputError for another extension or a file that cannot be written.
void writeReport(const ReportModel& model, const std::string& path);

}  // namespace pfa::report

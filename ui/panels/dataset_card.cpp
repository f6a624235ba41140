#include "ui/panels/dataset_card.h"

#include <QLabel>
#include <QLocale>
#include <QTextDocumentFragment>
#include <QVBoxLayout>
#include <cmath>
#include <map>

#include "core/data/catalog.h"
#include "core/generators/generator.h"
#include "ui/charts/group_bar_chart.h"
#include "ui/charts/unit_histogram.h"

namespace pfa::ui {

namespace {

QLabel* wrapping(QLabel* label) {
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextBrowserInteraction);
    label->setOpenExternalLinks(true);
    return label;
}

QString number(long n) { return QLocale().toString(static_cast<qlonglong>(n)); }

/// Rows per unit over both parts of a split, by unit id (a unit may have rows in one part only).
std::vector<UnitHistogram::Unit> unitRows(const std::optional<pfa::UnitIndex>& train,
                                          const std::optional<pfa::UnitIndex>& test) {
    std::map<int, UnitHistogram::Unit> byId;
    for (const std::optional<pfa::UnitIndex>* part : {&train, &test}) {
        if (!*part) continue;
        const pfa::UnitIndex& index = **part;
        for (long u = 0; u < index.units(); ++u) {
            UnitHistogram::Unit& unit = byId[index.id(u)];
            unit.name = QString::fromStdString(index.name(u));
            unit.rows += index.rowCount(u);
        }
    }
    std::vector<UnitHistogram::Unit> units;
    for (auto& [id, unit] : byId) units.push_back(std::move(unit));
    return units;
}

/// "101–168" or "150" when all units hold as many rows.
QString rowRange(const std::vector<UnitHistogram::Unit>& units) {
    long low = units.front().rows, high = low;
    for (const UnitHistogram::Unit& unit : units) {
        low = std::min(low, unit.rows);
        high = std::max(high, unit.rows);
    }
    return low == high ? number(low) : QStringLiteral("%1–%2").arg(number(low), number(high));
}

/// How the silos were made, in a few words for the summary line.
QString siloOrigin(const pfa::DatasetRequest& request) {
    if (request.silos) {
        const pfa::SiloOptions& silos = *request.silos;
        switch (silos.method) {
            case pfa::SiloMethod::EqualRandom:
                return DatasetCard::tr("equal random split, silo seed %1").arg(silos.seed);
            case pfa::SiloMethod::Dirichlet:
                return DatasetCard::tr("Dirichlet α = %1, silo seed %2")
                    .arg(std::isinf(silos.dirichletAlpha)
                             ? QStringLiteral("∞")
                             : QString::number(silos.dirichletAlpha, 'g', 4))
                    .arg(silos.seed);
            case pfa::SiloMethod::ByAttribute:
                if (silos.attribute == pfa::SiloAttribute::Label)
                    return DatasetCard::tr("one per class");
                if (silos.attribute == pfa::SiloAttribute::Group)
                    return DatasetCard::tr("one per group");
                return DatasetCard::tr("one per value of “%1”")
                    .arg(QString::fromStdString(silos.column));
        }
    }
    return QString::fromStdString(pfa::generatedSilos(request));
}

}  // namespace

DatasetCard::DatasetCard(QWidget* parent) : QWidget(parent) {
    m_title = new QLabel();
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    // Data-derived text (titles, file and column names, class labels such as "<=50K") is never
    // taken as markup: the title and the description are plain text, and the two rich-text
    // labels escape every value they quote.
    m_title->setTextFormat(Qt::PlainText);
    m_body = wrapping(new QLabel());
    m_body->setTextFormat(Qt::PlainText);
    m_numbers = wrapping(new QLabel());
    m_numbers->setTextFormat(Qt::RichText);
    m_groups = new GroupBarChart();
    m_provenance = wrapping(new QLabel());
    m_provenance->setTextFormat(Qt::RichText);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_title);
    layout->addWidget(m_body);
    layout->addWidget(m_numbers);
    layout->addWidget(m_groups);
    // Units: who the rows belong to (people) and who holds them (silos).
    m_unitsTitle = new QLabel(tr("<b>Units</b>"));
    m_unitsTitle->setTextFormat(Qt::RichText);  // fixed text, no data in it
    m_unitsTitle->setToolTip(
        tr("Algorithms that protect a whole person, or a whole institution, "
           "rather than one row work on these units"));
    m_usersSummary = wrapping(new QLabel());
    m_usersSummary->setTextFormat(Qt::RichText);
    m_userHistogram = new UnitHistogram();
    m_silosSummary = wrapping(new QLabel());
    m_silosSummary->setTextFormat(Qt::RichText);
    m_siloHistogram = new UnitHistogram();
    layout->addWidget(m_unitsTitle);
    layout->addWidget(m_usersSummary);
    layout->addWidget(m_userHistogram);
    layout->addWidget(m_silosSummary);
    layout->addWidget(m_siloHistogram);
    layout->addWidget(m_provenance);
    layout->addStretch(1);
    showDataset(nullptr, tr("No data set loaded yet."));
}

QString DatasetCard::text() const {
    QString text = m_title->text() + "\n" + m_body->text() + "\n" + m_numbers->text() + "\n";
    for (const QString& units : {usersSummary(), silosSummary()}) {
        if (!units.isEmpty()) text += units + "\n";
    }
    return text + m_provenance->text();
}

QString DatasetCard::usersSummary() const {
    return m_usersSummary->isHidden()
               ? QString()
               : QTextDocumentFragment::fromHtml(m_usersSummary->text()).toPlainText();
}

QString DatasetCard::silosSummary() const {
    return m_silosSummary->isHidden()
               ? QString()
               : QTextDocumentFragment::fromHtml(m_silosSummary->text()).toPlainText();
}

void DatasetCard::showUnits(const pfa::PreparedDataset* data) {
    const bool hasUsers = data && (data->split.train.users || data->split.test.users);
    const bool hasSilos = data && (data->split.train.silos || data->split.test.silos);
    m_unitsTitle->setVisible(hasUsers || hasSilos);
    m_usersSummary->setVisible(hasUsers);
    m_userHistogram->setVisible(hasUsers);
    m_silosSummary->setVisible(hasSilos);
    m_siloHistogram->setVisible(hasSilos);
    if (hasUsers) {
        const pfa::Dataset& train = data->split.train;
        const std::vector<UnitHistogram::Unit> users =
            unitRows(train.users, data->split.test.users);
        const QString rows = QString::fromStdString(train.unitName) + QStringLiteral("s");
        m_usersSummary->setText(tr("<b>People:</b> %1 people, %2 %3 each")
                                    .arg(number(static_cast<long>(users.size())), rowRange(users),
                                         rows.toHtmlEscaped()));
        const QString column = QString::fromStdString(train.personColumn);
        m_usersSummary->setToolTip(
            column.isEmpty()
                ? tr("The rows belong to people; an algorithm that protects a person protects all "
                     "of their rows at once")
                : tr("The rows belong to people, told apart by column “%1”; an algorithm that "
                     "protects a person protects all of their rows at once")
                      .arg(column));
        m_userHistogram->setUnits(users, tr("person"), tr("people"), rows);
    }
    if (hasSilos) {
        const pfa::Dataset& train = data->split.train;
        const std::vector<UnitHistogram::Unit> silos =
            unitRows(train.silos, data->split.test.silos);
        const QString origin = siloOrigin(data->request);
        m_silosSummary->setText(
            tr("<b>Silos:</b> %1 silos, %2 rows each%3")
                .arg(number(static_cast<long>(silos.size())), rowRange(silos),
                     origin.isEmpty() ? QString()
                                      : QStringLiteral(" (%1)").arg(origin.toHtmlEscaped())));
        m_silosSummary->setToolTip(
            tr("Institutions that each hold their own rows (training and test): %1")
                .arg(QString::fromStdString(train.siloDescription)));
        m_siloHistogram->setUnits(silos, tr("silo"), tr("silos"), tr("rows"));
    }
}

void DatasetCard::showCatalogEntry(const QString& name) {
    const pfa::CatalogEntry& entry = pfa::findCatalogEntry(name.toStdString());
    m_title->setText(QString::fromStdString(entry.title));
    m_body->setText(QString::fromStdString(entry.description));
    std::uint64_t bytes = 0;
    for (const pfa::DatasetFile& file : entry.files) bytes += file.bytes;
    m_numbers->setText(
        tr("<b>Not downloaded yet</b> (%1 file(s), %2 MB). After preparation: %3 rows.")
            .arg(entry.files.size())
            .arg(static_cast<double>(bytes) / 1e6, 0, 'f', 1)
            .arg(QLocale().toString(static_cast<qlonglong>(entry.expectedRows))));
    m_groups->setGroups({}, QString());
    showUnits(nullptr);
    QStringList sources;
    for (const std::string& source : entry.sources) {
        sources << QStringLiteral("<a href=\"%1\">%1</a>")
                       .arg(QString::fromStdString(source).toHtmlEscaped());
    }
    m_provenance->setText(tr("<b>Source:</b> %1<br><b>License:</b> %2<br><b>Cite:</b> %3")
                              .arg(sources.join(QStringLiteral(", ")),
                                   QString::fromStdString(entry.license).toHtmlEscaped(),
                                   QString::fromStdString(entry.citation).toHtmlEscaped()));
}

void DatasetCard::showDataset(const pfa::PreparedDatasetPtr& data, const QString& message) {
    if (!data) {
        m_title->setText(tr("Data set"));
        m_body->setText(message);
        m_numbers->clear();
        m_provenance->clear();
        m_groups->setGroups({}, QString());
        showUnits(nullptr);
        return;
    }
    const pfa::DatasetRequest& request = data->request;
    const pfa::Dataset& train = data->split.train;
    const pfa::Dataset& test = data->split.test;

    // What it is and where it comes from.
    QString title, description, provenance;
    if (const pfa::DataGenerator* generator = pfa::findGenerator(request.name)) {
        // From the generator's declaration: what it is, what its knobs mean, their values.
        title = tr("%1 (built-in)").arg(QString::fromStdString(generator->title));
        description = QString::fromStdString(generator->about);
        if (generator->note)
            description += QLatin1Char(' ') + QString::fromStdString(generator->note(request));
        description += QLatin1Char(' ') + QString::fromStdString(generator->describe(request)) +
                       QLatin1Char('.');
        provenance =
            tr("<b>Source:</b> generated, no third-party data. <b>License:</b> none needed.");
    } else if (request.name == "file") {
        title = tr("Your file: %1").arg(QString::fromStdString(request.filePath));
        description =
            tr("Imported with target column “%1” and sensitive column(s) “%2”.")
                .arg(QString::fromStdString(request.schema.target), QString::fromStdString([&] {
                         std::string s;
                         for (const std::string& c : request.schema.sensitive)
                             s += (s.empty() ? "" : ", ") + c;
                         return s;
                     }()));
        if (data->skippedBadRows > 0) {
            // Said on the card as in every run's record: these rows of the file were left out.
            description +=
                QLatin1Char(' ') + tr("%1, as asked at the import.")
                                       .arg(QString::fromStdString(pfa::describeSkippedRows(
                                           data->skippedBadRows, data->skippedBadRowList)));
        }
        provenance =
            tr("<b>Source:</b> your own file; its license and provenance are yours to record.");
    } else {
        const pfa::CatalogEntry& entry = pfa::findCatalogEntry(request.name);
        title = QString::fromStdString(entry.title);
        description = QString::fromStdString(entry.description);
        QStringList sources;
        for (const std::string& source : entry.sources) {
            sources << QStringLiteral("<a href=\"%1\">%1</a>")
                           .arg(QString::fromStdString(source).toHtmlEscaped());
        }
        provenance = tr("<b>Source:</b> %1<br><b>License:</b> %2<br><b>Cite:</b> "
                        "%3<br><b>Preparation:</b> %4")
                         .arg(sources.join(QStringLiteral(", ")),
                              QString::fromStdString(entry.license).toHtmlEscaped(),
                              QString::fromStdString(entry.citation).toHtmlEscaped(),
                              QString::fromStdString(entry.preprocessing).toHtmlEscaped());
    }
    m_title->setText(title);
    m_body->setText(description);
    m_provenance->setText(provenance);
    showUnits(data.get());

    if (train.isRegression()) {
        // A real-valued target: no classes, no per-group rates to chart.
        m_groups->setGroups({}, QString());
        QString users;
        if (train.users) {
            users = tr("; <b>%1 users</b> in the training rows").arg(number(train.users->units()));
        }
        m_numbers->setText(tr("<b>%1 rows</b> (%2 training, %3 test), <b>%4 encoded features</b>; "
                              "real-valued target (regression), no sensitive attribute%5.")
                               .arg(number(static_cast<long>(train.rows() + test.rows())),
                                    number(static_cast<long>(train.rows())),
                                    number(static_cast<long>(test.rows())),
                                    number(static_cast<long>(train.features())), users));
        return;
    }

    // Groups and classes over all rows (training and test).
    const int k = train.numGroups(), l = train.numClasses();
    const int positive = 1;  // the advantaged class y* of the per-group tables
    std::vector<long> size(static_cast<std::size_t>(k), 0),
        positives(static_cast<std::size_t>(k), 0);
    std::vector<long> testSize(static_cast<std::size_t>(k), 0);  // what the small-group flag judges
    for (Eigen::Index i = 0; i < test.rows(); ++i) ++testSize[static_cast<std::size_t>(test.s(i))];
    std::vector<long> classCount(static_cast<std::size_t>(l), 0);
    for (const pfa::Dataset* part : {&train, &test}) {
        for (Eigen::Index i = 0; i < part->rows(); ++i) {
            ++size[static_cast<std::size_t>(part->s(i))];
            ++classCount[static_cast<std::size_t>(part->y(i))];
            if (part->y(i) == positive) ++positives[static_cast<std::size_t>(part->s(i))];
        }
    }
    std::vector<GroupBarChart::Group> groups;
    for (int g = 0; g < k; ++g) {
        const auto index = static_cast<std::size_t>(g);
        groups.push_back({QString::fromStdString(train.groupNames[index]), size[index],
                          size[index] > 0 ? static_cast<double>(positives[index]) /
                                                static_cast<double>(size[index])
                                          : 0.0,
                          testSize[index]});
    }
    const QString positiveName =
        QString::fromStdString(train.classNames[static_cast<std::size_t>(positive)]);
    m_groups->setGroups(groups, positiveName);
    const long rows = static_cast<long>(train.rows() + test.rows());
    QStringList classes;
    for (int c = 0; c < l; ++c) {
        classes << QStringLiteral("%1 %2 (%3 %)")
                       .arg(QString::fromStdString(train.classNames[static_cast<std::size_t>(c)])
                                .toHtmlEscaped())
                       .arg(number(classCount[static_cast<std::size_t>(c)]))
                       .arg(100.0 * static_cast<double>(classCount[static_cast<std::size_t>(c)]) /
                                static_cast<double>(rows),
                            0, 'f', 1);
    }
    m_numbers->setText(tr("<b>%1 rows</b> (%2 training, %3 test), <b>%4 encoded features</b>; "
                          "sensitive attribute <b>%5</b> with %6 groups.<br><b>Classes:</b> %7")
                           .arg(number(rows), number(static_cast<long>(train.rows())),
                                number(static_cast<long>(test.rows())),
                                number(static_cast<long>(train.features())),
                                QString::fromStdString(train.sensitiveDescription).toHtmlEscaped())
                           .arg(k)
                           .arg(classes.join(QStringLiteral(", "))));
}

QString DatasetCard::title() const { return m_title->text(); }

}  // namespace pfa::ui

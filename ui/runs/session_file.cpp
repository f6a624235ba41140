#include "ui/runs/session_file.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTextStream>
#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/sweep/run_record.h"
#include "core/util/json_value.h"

namespace pfa::ui {

namespace {

constexpr const char* kFormat = "pfa-explorer-session";
constexpr int kVersion = 1;

QJsonObject runToJson(const RunEntry& entry) {
    pfa::RunRecordOptions exact;
    exact.historyDigits = 17;
    const std::string line = pfa::runRecordJson(entry.result, entry.context, exact);
    QJsonObject json;
    json["id"] = entry.id;
    json["finished"] = entry.finished.toString(Qt::ISODateWithMs);
    json["stopped_by_user"] = entry.stoppedByUser;
    json["record"] = QJsonDocument::fromJson(QByteArray::fromStdString(line)).object();
    return json;
}

RunEntryPtr runFromJson(const QJsonObject& json) {
    auto entry = std::make_shared<RunEntry>();
    entry->id = json["id"].toInt();
    entry->finished = QDateTime::fromString(json["finished"].toString(), Qt::ISODateWithMs);
    entry->stoppedByUser = json["stopped_by_user"].toBool();
    const QByteArray record =
        QJsonDocument(json["record"].toObject()).toJson(QJsonDocument::Compact);
    entry->result = pfa::runResultFromJson(pfa::parseJson(record.toStdString()), &entry->context);
    return entry;
}

/// Why `bytes` (the file `name`) is no session, in words for users rather than the JSON
/// parser's ("illegal value at byte 1"): empty, not a session at all, or a session that is
/// cut off or damaged near line L.
QString unreadableSessionText(const QString& name, const QByteArray& bytes, int offset) {
    const QByteArray trimmed = bytes.trimmed();
    if (trimmed.isEmpty()) return QObject::tr("%1 is empty: it holds no session.").arg(name);
    if (!trimmed.startsWith('{')) {
        return QObject::tr(
                   "%1 is not a PFA Explorer session file. Sessions are the .pfa files "
                   "that File ▸ Save session writes.")
            .arg(name);
    }
    // It starts like a session: a cut-off copy or an edit by hand broke it.
    const int line = static_cast<int>(bytes.left(std::max(0, offset)).count('\n')) + 1;
    qsizetype end = bytes.size();
    while (end > 0 && std::isspace(static_cast<unsigned char>(bytes[end - 1]))) --end;
    if (offset >= end - 1) {
        return QObject::tr(
                   "%1 is incomplete: the file ends too early (it was perhaps cut off "
                   "while copying or saving), so the session cannot be opened.")
            .arg(name);
    }
    return QObject::tr(
               "%1 is damaged near line %2 (perhaps it was edited by hand), so the "
               "session cannot be opened.")
        .arg(name)
        .arg(line);
}

bool writeAll(const QString& path, const QByteArray& bytes, QString* error) {
    QSaveFile file(path);  // atomic: a crash never leaves half a file behind
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error) *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

}  // namespace

bool saveSession(const QString& path, const SessionData& session, QString* error) {
    QJsonObject root;
    root["format"] = QString::fromLatin1(kFormat);
    root["version"] = kVersion;
    root["settings"] = session.settings;
    QJsonArray runs;
    for (const RunEntryPtr& entry : session.runs) runs.append(runToJson(*entry));
    root["runs"] = runs;
    if (!session.ledgerJson.empty()) {
        root["ledgers"] =
            QJsonDocument::fromJson(QByteArray::fromStdString(session.ledgerJson)).array();
    }
    return writeAll(path, QJsonDocument(root).toJson(QJsonDocument::Indented), error);
}

bool loadSession(const QString& path, SessionData* session, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) *error = QObject::tr("cannot open %1: %2").arg(path, file.errorString());
        return false;
    }
    const QByteArray bytes = file.readAll();
    const QString name = QFileInfo(path).fileName();
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (document.isNull() || !document.isObject()) {
        if (error) *error = unreadableSessionText(name, bytes, parseError.offset);
        return false;
    }
    const QJsonObject root = document.object();
    if (root["format"].toString() != QLatin1String(kFormat)) {
        if (error) {
            *error = QObject::tr(
                         "%1 is not a PFA Explorer session file: it holds other data. "
                         "Sessions are the .pfa files that File ▸ Save session writes.")
                         .arg(name);
        }
        return false;
    }
    if (root["version"].toInt() > kVersion) {
        if (error) {
            *error = QObject::tr(
                         "%1 was saved by a newer version of PFA Explorer; update PFA "
                         "Explorer to open it (session format %2, this version reads up to %3).")
                         .arg(name)
                         .arg(root["version"].toInt())
                         .arg(kVersion);
        }
        return false;
    }
    SessionData loaded;
    loaded.settings = root["settings"].toObject();
    if (root.contains("ledgers")) {
        loaded.ledgerJson =
            QJsonDocument(root["ledgers"].toArray()).toJson(QJsonDocument::Compact).toStdString();
    }
    const QJsonArray runs = root["runs"].toArray();
    for (int i = 0; i < runs.size(); ++i) {
        try {
            loaded.runs.push_back(runFromJson(runs[i].toObject()));
        } catch (const std::exception& problem) {
            if (error) {
                *error = QObject::tr(
                             "%1 is damaged: its run %2 of %3 cannot be read (%4), so the "
                             "session was not opened.")
                             .arg(name)
                             .arg(i + 1)
                             .arg(runs.size())
                             .arg(QString::fromStdString(problem.what()));
            }
            return false;
        }
    }
    *session = std::move(loaded);
    return true;
}

bool exportHistoryCsv(const QString& path, const std::vector<RunEntryPtr>& runs, QString* error) {
    QByteArray bytes;
    QTextStream out(&bytes);
    out << "id,algorithm,dataset,fairness,calibration,epsilon,delta,lambda,seed,epochs,batch-size,"
           "status,test_error,train_loss,violation,dp_violation,eo_violation,eopp_violation,ermi,"
           "epsilon_spent,accountant,adjacency,noise_theta,noise_w,seconds,finished\n";
    auto num = [](double v) {
        if (std::isnan(v)) return QString();
        if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
        return QString::number(v, 'g', 10);
    };
    auto quoted = [](QString text) {
        text.replace('"', QStringLiteral("\"\""));
        return '"' + text + '"';
    };
    for (const RunEntryPtr& entry : runs) {
        const pfa::RunResult& r = entry->result;
        const pfa::TrainConfig& c = r.config;
        out << entry->id << ',' << QString::fromStdString(c.algorithm) << ','
            << quoted(QString::fromStdString(r.dataset)) << ','
            << QString::fromStdString(pfa::fairnessCode(c.fairness)) << ','
            << (c.isPrivate() ? QString::fromStdString(pfa::calibrationName(c.calibration))
                              : "none")
            << ',' << num(c.epsilon) << ',' << num(c.delta) << ',' << num(c.lambda) << ',' << c.seed
            << ',' << c.epochs << ',' << c.batchSize << ',' << entry->statusText() << ','
            << num(r.test.error) << ',' << num(r.trainLoss) << ',' << num(entry->violation()) << ','
            << num(r.test.dpGap) << ',' << num(r.test.eoGap) << ',' << num(r.test.eoppGap) << ','
            << num(r.test.ermiHard(c.fairness)) << ',' << num(entry->certifiedEpsilon()) << ','
            << quoted(QString::fromStdString(r.privacy.accountant)) << ','
            << quoted(QString::fromStdString(r.privacy.adjacency)) << ','
            << num(r.privacy.sigmaTheta) << ',' << num(r.privacy.sigmaW) << ',' << num(r.seconds)
            << ',' << entry->finished.toString(Qt::ISODate) << '\n';
    }
    out.flush();
    return writeAll(path, bytes, error);
}

bool exportHistoryJson(const QString& path, const std::vector<RunEntryPtr>& runs, QString* error) {
    QJsonArray array;
    for (const RunEntryPtr& entry : runs) array.append(runToJson(*entry));
    return writeAll(path, QJsonDocument(array).toJson(QJsonDocument::Indented), error);
}

}  // namespace pfa::ui

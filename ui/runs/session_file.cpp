#include "ui/runs/session_file.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTextStream>
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
    const QByteArray record = QJsonDocument(json["record"].toObject()).toJson(QJsonDocument::Compact);
    entry->result = pfa::runResultFromJson(pfa::parseJson(record.toStdString()), &entry->context);
    return entry;
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
        root["ledgers"] = QJsonDocument::fromJson(QByteArray::fromStdString(session.ledgerJson)).array();
    }
    return writeAll(path, QJsonDocument(root).toJson(QJsonDocument::Indented), error);
}

bool loadSession(const QString& path, SessionData* session, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) *error = QObject::tr("cannot open %1: %2").arg(path, file.errorString());
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (document.isNull()) {
        if (error) {
            *error = QObject::tr("%1 is not a valid session file: %2 (at byte %3)")
                         .arg(path, parseError.errorString())
                         .arg(parseError.offset);
        }
        return false;
    }
    const QJsonObject root = document.object();
    if (root["format"].toString() != QLatin1String(kFormat)) {
        if (error) *error = QObject::tr("%1 is not a PFA Explorer session file").arg(path);
        return false;
    }
    if (root["version"].toInt() > kVersion) {
        if (error) {
            *error = QObject::tr("%1 was written by a newer PFA Explorer (format version %2)")
                         .arg(path)
                         .arg(root["version"].toInt());
        }
        return false;
    }
    SessionData loaded;
    loaded.settings = root["settings"].toObject();
    if (root.contains("ledgers")) {
        loaded.ledgerJson = QJsonDocument(root["ledgers"].toArray()).toJson(QJsonDocument::Compact).toStdString();
    }
    const QJsonArray runs = root["runs"].toArray();
    for (int i = 0; i < runs.size(); ++i) {
        try {
            loaded.runs.push_back(runFromJson(runs[i].toObject()));
        } catch (const std::exception& problem) {
            if (error) {
                *error = QObject::tr("run %1 in %2 is damaged: %3").arg(i + 1).arg(path, problem.what());
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
            << (c.isPrivate() ? QString::fromStdString(pfa::calibrationName(c.calibration)) : "none")
            << ',' << num(c.epsilon) << ',' << num(c.delta) << ',' << num(c.lambda) << ','
            << c.seed << ',' << c.epochs << ',' << c.batchSize << ',' << entry->statusText() << ','
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

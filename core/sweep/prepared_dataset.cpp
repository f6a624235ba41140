#include "core/sweep/prepared_dataset.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "core/data/catalog.h"
#include "core/data/data_fingerprint.h"
#include "core/data/preprocessing.h"
#include "core/generators/dataset_loading.h"
#include "core/generators/generator.h"
#include "core/util/format.h"
#include "core/util/sha256.h"

namespace pfa {

std::string datasetKey(const DatasetRequest& request) {
    std::ostringstream key;
    key.precision(17);
    key << request.name;
    if (!request.sensitive.empty()) key << "/" << request.sensitive;
    // A generator's knobs by their frozen key names (the key seeds every run's noise).
    key << generatorKeyKnobs(request);
    if (request.name == "file") {
        // The file's name and the exact reading instructions identify it.
        key << ":" << std::filesystem::path(request.filePath).filename().string()
            << ",schema=" << sha256Hex(schemaToJson(request.schema)).substr(0, 16);
    }
    key << "|split=" << request.split.seed << "," << request.split.testFraction;
    // Only a method other than the default is named, so that keys (and with them the run keys
    // of results files written before methods existed) stay as they were.
    if (request.split.method != SplitMethod::Seeded) {
        key << "," << splitMethodName(request.split.method);
    }
    // Silos come after the split (ledgerKey cuts there: the rows, and the people in them, are
    // the same however they are dealt out to silos), and only when asked for. No ',' or ';':
    // readers split the key's split part and the run key at those.
    if (request.silos) {
        const SiloOptions& silos = *request.silos;
        key << "|silos=" << siloMethodName(silos.method);
        if (silos.method == SiloMethod::ByAttribute) {
            key << "/by=" << siloColumnName(silos);
        } else {
            key << "/n=" << silos.silos;
        }
        if (silos.method == SiloMethod::Dirichlet) key << "/alpha=" << silos.dirichletAlpha;
        key << "/min=" << silos.minTrainRowsPerSilo;
        if (silos.method != SiloMethod::ByAttribute) key << "/seed=" << silos.seed;
    }
    return key.str();
}

std::string ledgerKeyFromDatasetKey(const std::string& key) {
    std::string out = key.substr(0, key.find("|split="));
    // Own files: the rows come from the file, whatever schema reads them.
    if (const auto schema = out.find(",schema="); schema != std::string::npos) out.erase(schema);
    // The sensitive choice sits between the name and the knobs ("(") or file name (":").
    if (const auto slash = out.find('/'); slash != std::string::npos) {
        const auto end = out.find_first_of("(:", slash);
        out.erase(slash, end == std::string::npos ? std::string::npos : end - slash);
    }
    return out;
}

std::string ledgerKey(const DatasetRequest& request) {
    return ledgerKeyFromDatasetKey(datasetKey(request));
}

std::string ledgerTitle(const std::string& key) {
    std::string out;
    std::size_t i = 0;
    while (i < key.size()) {
        const bool startsNumber = std::isdigit(static_cast<unsigned char>(key[i])) &&
                                  (i == 0 || !std::isalnum(static_cast<unsigned char>(key[i - 1])));
        if (!startsNumber) {
            out += key[i++];
            continue;
        }
        std::size_t end = i;
        while (end < key.size() && (std::isdigit(static_cast<unsigned char>(key[end])) ||
                                    key[end] == '.' || key[end] == 'e' || key[end] == '-')) {
            ++end;
        }
        const std::string token = key.substr(i, end - i);
        const std::size_t dot = token.find('.');
        // Only numbers written with 17 significant digits; "2019.csv" stays as it is.
        if (dot != std::string::npos && token.size() - dot > 9) {
            double value = 0.0;
            out += parsePortable(token, value) ? formatPortable(value, 6) : token;
        } else {
            out += token;
        }
        i = end;
    }
    return out;
}

PreparedDatasetPtr prepareDataset(const DatasetRequest& request) {
    auto prepared = std::make_shared<PreparedDataset>();
    prepared->key = datasetKey(request);
    prepared->request = request;
    TabularData data = loadBuiltinDataset(request);
    // From the rows' values, before the split releases them.
    prepared->context.dataFingerprint = datasetFingerprint(request, data);
    prepared->split = splitDatasetRequest(data, request);
    prepared->context.datasetDescription = describeDatasetRequest(request);
    if (data.skippedBadRows > 0) {
        // Recorded with every run: the model did not see these rows of the file.
        prepared->context.datasetDescription +=
            ", " + describeSkippedRows(data.skippedBadRows, data.skippedBadRowList);
    }
    prepared->skippedBadRows = data.skippedBadRows;
    prepared->skippedBadRowList = data.skippedBadRowList;
    prepared->context.ledgerKey = ledgerKey(request);
    prepared->context.splitSeed = prepared->split.splitSeed;
    prepared->context.testFraction = prepared->split.testFraction;
    prepared->context.splitMethod = prepared->split.splitMethod;
    prepared->context.trainRows = static_cast<long>(prepared->split.train.rows());
    prepared->context.testRows = static_cast<long>(prepared->split.test.rows());
    prepared->context.features = static_cast<long>(prepared->split.train.features());
    prepared->context.preprocessing = std::make_shared<const ModelPreprocessing>(
        makeModelPreprocessing(requestSchema(request), data, prepared->split));
    return prepared;
}

}  // namespace pfa

// The persistent privacy ledger (core/privacy/ledger_store.h) and the content fingerprint that
// keys it (core/data/data_fingerprint.h): charges survive the program, each run is charged
// once, nothing is refunded, a reset forgets without re-charging, concurrent writers (threads
// and processes) lose nothing, and a renamed or row-shuffled copy of a file shares the ledger.
#include "core/privacy/ledger_store.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "core/data/data_fingerprint.h"
#include "core/privacy/rdp_accountant.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/run_ledger.h"
#include "core/util/json_value.h"

namespace core_ledger_store_test {

using namespace pfa;
using Catch::Matchers::WithinRel;

namespace {

/// A fresh folder in the temporary directory, removed with everything in it at scope exit.
class TempDir {
public:
    TempDir() {
        static std::atomic<int> counter{0};
        static const unsigned run = std::random_device{}();
        m_path = (std::filesystem::temp_directory_path() /
                  ("pfa_ledger_test_" + std::to_string(run) + "_" + std::to_string(counter++)))
                     .string();
        std::filesystem::create_directories(m_path);
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return m_path; }
    std::string file(const std::string& name) const { return m_path + "/" + name; }

private:
    std::string m_path;
};

const std::string kFingerprint = "0123456789abcdef0123456789abcdef";

privacy::LedgerEntry sgmEntry(const std::string& uid, long steps, double z) {
    privacy::LedgerEntry entry;
    entry.runUid = uid;
    entry.label = "run " + uid;
    entry.status = "completed";
    entry.accounting.kind = privacy::ReleaseKind::PoissonSubsampled;
    entry.accounting.samplingRate = 0.01;
    entry.accounting.noiseMultiplier = z;
    entry.accounting.steps = steps;
    entry.accounting.delta = 1e-5;
    entry.delta = 1e-5;
    entry.epsilon = privacy::certifiedEpsilon(entry.accounting).epsilon;
    return entry;
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

/// The ledger as read by a process that never read the file before: a copy in a new folder.
privacy::StoredLedger readAfresh(const std::string& path) {
    TempDir fresh;
    std::filesystem::copy_file(path, fresh.file(kFingerprint + ".jsonl"));
    return privacy::LedgerStore(fresh.path()).read(kFingerprint);
}

std::vector<std::string> runUids(const privacy::StoredLedger& stored) {
    std::vector<std::string> uids;
    for (const privacy::LedgerEntry& entry : stored.ledger.entries()) uids.push_back(entry.runUid);
    return uids;
}

/// `store`'s reading of the ledger (which continues from its last reading) is the whole file's.
void checkReadsAsAfresh(const privacy::LedgerStore& store, std::size_t runs) {
    const privacy::StoredLedger read = store.read(kFingerprint);
    const privacy::StoredLedger fresh = readAfresh(store.pathFor(kFingerprint));
    CHECK(read.ledger.entries().size() == runs);
    CHECK(runUids(read) == runUids(fresh));
    CHECK(read.names == fresh.names);
    CHECK(read.resets == fresh.resets);
    CHECK(read.forgotten == fresh.forgotten);
    CHECK(read.damagedLines == fresh.damagedLines);
    CHECK(read.ledger.totals().epsilon == fresh.ledger.totals().epsilon);
}

}  // namespace

TEST_CASE("Ledger store: charges persist across programs and compose like the session ledger",
          "[ledger][store]") {
    TempDir dir;
    {
        const privacy::LedgerStore store(dir.path());
        CHECK(store.charge(kFingerprint, "file:loans.csv", {sgmEntry("a", 1000, 1.1)}, "test") ==
              1);
        CHECK(store.charge(kFingerprint, "file:copy.csv", {sgmEntry("b", 500, 2.0)}, "test") == 1);
    }
    // Another program (a new store object on the same folder) sees both runs.
    const privacy::LedgerStore later(dir.path());
    const privacy::StoredLedger stored = later.read(kFingerprint);
    REQUIRE(stored.exists);
    CHECK(stored.path == dir.file(kFingerprint + ".jsonl"));
    REQUIRE(stored.ledger.entries().size() == 2);
    CHECK(stored.names == std::vector<std::string>{"file:loans.csv", "file:copy.csv"});
    CHECK(stored.ledger.title() == "file:loans.csv");
    CHECK(stored.damagedLines == 0);
    privacy::DatasetLedger session("k", "k");
    session.add(sgmEntry("a", 1000, 1.1));
    session.add(sgmEntry("b", 500, 2.0));
    CHECK(stored.ledger.totals().epsilon == session.totals().epsilon);
    CHECK(stored.ledger.entries()[0].accounting.steps == 1000);
    CHECK(later.fingerprints() == std::vector<std::string>{kFingerprint});

    // Nothing charged: no file, nothing spent.
    const privacy::StoredLedger none = later.read("ffffffffffffffffffffffffffffffff");
    CHECK_FALSE(none.exists);
    CHECK(none.ledger.entries().empty());
    CHECK_THROWS_WITH(later.read("../../etc/passwd"),
                      Catch::Contains("not a data-set fingerprint"));

    // The exports: CSV with one line per run, JSON without the fingerprint.
    const std::string csv = privacy::ledgerCsv(stored.ledger);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 4);
    CHECK_THAT(csv, Catch::Contains("\"a\",\"run a\",completed,") &&
                        Catch::Contains("poisson-subsampled-gaussian"));
    const std::string json = privacy::ledgerExportJson(stored);
    const JsonValue parsed = parseJson(json);
    CHECK(parsed.at("entries").items().size() == 2);
    CHECK(parsed.at("totals").at("epsilon").asNumber() == stored.ledger.totals().epsilon);
    CHECK(json.find(kFingerprint) == std::string::npos);
}

TEST_CASE("Ledger store: a run is charged once even if recorded twice, and nothing is refunded",
          "[ledger][store]") {
    TempDir dir;
    const privacy::LedgerStore store(dir.path());
    CHECK(store.charge(kFingerprint, "adult", {sgmEntry("a", 1000, 1.1), sgmEntry("a", 1000, 1.1)},
                       "test") == 1);
    CHECK(store.charge(kFingerprint, "adult", {sgmEntry("a", 1000, 1.1), sgmEntry("b", 10, 3.0)},
                       "test") == 1);
    const double spent = store.read(kFingerprint).ledger.totals().epsilon;
    CHECK(store.read(kFingerprint).ledger.entries().size() == 2);
    // A session that kept only some runs (the others deleted or discarded) charges those again:
    // the ledger neither grows nor shrinks.
    CHECK(store.charge(kFingerprint, "adult", {sgmEntry("b", 10, 3.0)}, "test") == 0);
    const privacy::StoredLedger after = store.read(kFingerprint);
    CHECK(after.ledger.entries().size() == 2);
    CHECK(after.ledger.totals().epsilon == spent);
}

TEST_CASE("Ledger store: a reset forgets the runs so far, keeps them marked, never re-charges them",
          "[ledger][store]") {
    TempDir dir;
    const privacy::LedgerStore store(dir.path());
    store.charge(kFingerprint, "adult", {sgmEntry("a", 1000, 1.1), sgmEntry("b", 10, 3.0)}, "test");
    CHECK(store.reset(kFingerprint, "test") == 2);
    privacy::StoredLedger stored = store.read(kFingerprint);
    CHECK(stored.ledger.entries().empty());
    CHECK(stored.ledger.totals().epsilon == 0.0);
    CHECK(stored.resets == 1);
    CHECK(stored.forgotten == 2);
    CHECK_FALSE(stored.lastReset.empty());
    // An old session opened after the reset does not bring the forgotten runs back.
    CHECK(store.charge(kFingerprint, "adult", {sgmEntry("a", 1000, 1.1)}, "test") == 0);
    CHECK(store.charge(kFingerprint, "adult", {sgmEntry("c", 200, 1.5)}, "test") == 1);
    stored = store.read(kFingerprint);
    REQUIRE(stored.ledger.entries().size() == 1);
    CHECK(stored.ledger.entries()[0].runUid == "c");
    CHECK(store.reset("fedcba9876543210fedcba9876543210", "test") == 0);  // nothing to forget
}

TEST_CASE("Ledger store: a line cut by a crash is skipped, the next charge starts a clean line",
          "[ledger][store]") {
    TempDir dir;
    const privacy::LedgerStore store(dir.path());
    store.charge(kFingerprint, "adult", {sgmEntry("a", 1000, 1.1)}, "test");
    {
        std::ofstream out(store.pathFor(kFingerprint), std::ios::app | std::ios::binary);
        out << "{\"charge\":{\"run_uid\":\"half";  // no newline: the write was cut
    }
    store.charge(kFingerprint, "adult", {sgmEntry("b", 10, 3.0)}, "test");
    const privacy::StoredLedger stored = store.read(kFingerprint);
    CHECK(stored.ledger.entries().size() == 2);
    CHECK(stored.damagedLines == 1);
}

TEST_CASE(
    "Ledger store: a charge sees what other writers appended since its last one, and a "
    "replaced file from its start",
    "[ledger][store]") {
    TempDir dir;
    const privacy::LedgerStore store(dir.path());
    const std::string path = store.pathFor(kFingerprint);
    CHECK(store.charge(kFingerprint, "adult", {sgmEntry("a", 1000, 1.1)}, "test") == 1);
    checkReadsAsAfresh(store, 1);

    // Another process charges "b" after this one's last charge: this one does not charge it
    // again.
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        int status = 0;
        try {
            status =
                privacy::LedgerStore(dir.path())
                            .charge(kFingerprint, "adult", {sgmEntry("b", 10, 3.0)}, "other") == 1
                    ? 0
                    : 2;
        } catch (...) {
            status = 1;
        }
        ::_exit(status);
    }
    int status = -1;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    CHECK(store.charge(kFingerprint, "adult", {sgmEntry("b", 10, 3.0), sgmEntry("a", 1000, 1.1)},
                       "test") == 0);
    checkReadsAsAfresh(store, 2);
    // A line appended by another program, then a line cut by a crash: read and charged as
    // when the whole file is read.
    {
        TempDir other;
        const privacy::LedgerStore otherStore(other.path());
        otherStore.charge(kFingerprint, "adult", {sgmEntry("c", 10, 3.0)}, "other");
        std::ifstream in(otherStore.pathFor(kFingerprint), std::ios::binary);
        std::string line, last;
        while (std::getline(in, line)) last = line;
        std::ofstream out(path, std::ios::app | std::ios::binary);
        out << last << "\n{\"charge\":{\"run_uid\":\"cut\"";
    }
    checkReadsAsAfresh(store, 3);
    CHECK(store.charge(kFingerprint, "adult", {sgmEntry("c", 10, 3.0), sgmEntry("cut", 10, 3.0)},
                       "test") == 0);
    checkReadsAsAfresh(store, 3);
    CHECK(store.read(kFingerprint).damagedLines == 1);

    // The file restored from a copy made before "b" and "c": shorter, so read from the start,
    // and "b" is charged again (the file no longer holds it).
    const std::string copy = dir.file("copy.jsonl");
    store.charge(kFingerprint, "adult", {sgmEntry("d", 10, 3.0)}, "test");
    std::filesystem::copy_file(path, copy);
    CHECK(store.charge(kFingerprint, "adult", {sgmEntry("e", 10, 3.0)}, "test") == 1);
    checkReadsAsAfresh(store, 5);
    std::filesystem::remove(path);
    std::filesystem::copy_file(copy, path);
    checkReadsAsAfresh(store, 4);
    CHECK(store.charge(kFingerprint, "adult", {sgmEntry("e", 10, 3.0)}, "test") == 1);
    CHECK(store.reset(kFingerprint, "test") == 5);
    checkReadsAsAfresh(store, 0);
    CHECK(store.charge(kFingerprint, "adult", {sgmEntry("f", 10, 3.0)}, "test") == 1);
    checkReadsAsAfresh(store, 1);

    // Replaced by a longer file whose first lines differ: read from the start as well.
    std::string other = "{\"pfa_ledger\":1,\"name\":\"other\"}\n";
    while (other.size() < std::filesystem::file_size(path) + 100)
        other += "{\"charge\":{\"run_uid\":\"filler\"}}\n";
    writeText(path, other);
    for (const char* uid : {"a", "b", "e"})
        CHECK(store.charge(kFingerprint, "adult", {sgmEntry(uid, 10, 3.0)}, "test") == 1);
    CHECK(store.charge(kFingerprint, "adult", {sgmEntry("filler", 10, 3.0)}, "test") == 0);
    checkReadsAsAfresh(store, 3);
    CHECK(store.read(kFingerprint).names == std::vector<std::string>{"other", "adult"});
}

TEST_CASE("Ledger store: concurrent writers in threads and processes lose no charge",
          "[ledger][store]") {
    TempDir dir;
    constexpr int kPerWriter = 25;
    auto write = [&](const std::string& prefix) {
        const privacy::LedgerStore store(dir.path());
        for (int i = 0; i < kPerWriter; ++i)
            store.charge(kFingerprint, "adult", {sgmEntry(prefix + std::to_string(i), 100, 2.0)},
                         prefix);
    };
    // Two other processes (as pfa-cli beside the GUI) and three threads (as a sweep's workers).
    std::vector<pid_t> children;
    for (const char* prefix : {"process-1-", "process-2-"}) {
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            int status = 0;
            try {
                write(prefix);
            } catch (...) {
                status = 1;
            }
            ::_exit(status);
        }
        children.push_back(child);
    }
    std::vector<std::thread> threads;
    for (const char* prefix : {"thread-1-", "thread-2-", "thread-3-"})
        threads.emplace_back(write, prefix);
    for (std::thread& thread : threads) thread.join();
    for (pid_t child : children) {
        int status = -1;
        REQUIRE(::waitpid(child, &status, 0) == child);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
    }
    const privacy::StoredLedger stored = privacy::LedgerStore(dir.path()).read(kFingerprint);
    CHECK(stored.ledger.entries().size() == 5 * kPerWriter);
    CHECK(stored.damagedLines == 0);
}

TEST_CASE("Data fingerprint: a renamed copy and a row-shuffled copy share it, other rows do not",
          "[ledger][fingerprint]") {
    TempDir dir;
    const std::string header = "income,region,gender,approved\n";
    const std::vector<std::string> rows = {"20,r0,f,no\n",  "57,r1,m,yes\n", "94,r2,f,yes\n",
                                           "31,r0,m,no\n",  "68,r1,f,yes\n", "45,r2,m,no\n",
                                           "82,r0,f,yes\n", "23,r1,m,no\n"};
    std::string original = header, shuffled = header, changed = header;
    for (const std::string& row : rows) original += row;
    for (auto it = rows.rbegin(); it != rows.rend(); ++it) shuffled += *it;
    for (std::size_t i = 0; i < rows.size(); ++i) changed += i == 3 ? "32,r0,m,no\n" : rows[i];
    writeText(dir.file("loans.csv"), original);
    writeText(dir.file("renamed copy.csv"), original);
    writeText(dir.file("shuffled.csv"), shuffled);
    writeText(dir.file("changed.csv"), changed);
    writeText(dir.file("fewer.csv"), header + rows[0] + rows[1]);

    auto prepared = [&](const std::string& file, const std::string& sensitive) {
        DatasetRequest request;
        request.name = "file";
        request.filePath = dir.file(file);
        request.schema.target = "approved";
        request.schema.positiveValues = {"yes"};
        request.schema.sensitive = {sensitive};
        request.split.testFraction = 0.25;
        return prepareDataset(request);
    };
    const std::string fingerprint = prepared("loans.csv", "gender")->context.dataFingerprint;
    CHECK(privacy::isLedgerFingerprint(fingerprint));
    CHECK(prepared("renamed copy.csv", "gender")->context.dataFingerprint == fingerprint);
    CHECK(prepared("shuffled.csv", "gender")->context.dataFingerprint == fingerprint);
    // The same rows read with another sensitive attribute are the same people.
    CHECK(prepared("loans.csv", "region")->context.dataFingerprint == fingerprint);
    // One value changed, or rows left out: other data, another ledger.
    CHECK(prepared("changed.csv", "gender")->context.dataFingerprint != fingerprint);
    CHECK(fileRowsFingerprint({dir.file("fewer.csv")}, Schema{}) != fingerprint);
    CHECK(fileRowsFingerprint({dir.file("loans.csv")}, Schema{}) == fingerprint);

    // Generated data: the rows the generator makes, whatever the split.
    DatasetRequest synthetic;
    synthetic.knobs<SyntheticOptions>().rows = 500;
    const std::string generated = prepareDataset(synthetic)->context.dataFingerprint;
    DatasetRequest otherSplit = synthetic;
    otherSplit.split.seed = 7;
    otherSplit.split.testFraction = 0.4;
    CHECK(prepareDataset(otherSplit)->context.dataFingerprint == generated);
    DatasetRequest otherSeed = synthetic;
    otherSeed.knobs<SyntheticOptions>().seed += 1;
    CHECK(prepareDataset(otherSeed)->context.dataFingerprint != generated);
    CHECK(generated != fingerprint);
}

}  // namespace core_ledger_store_test

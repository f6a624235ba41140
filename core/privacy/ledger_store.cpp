#include "core/privacy/ledger_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

#include "core/privacy/accounting_json.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/json_value.h"
#include "core/util/json_writer.h"
#include "core/util/utc_time.h"

namespace pfa::privacy {

namespace {

std::string systemReason() { return std::strerror(errno); }

/// An open ledger file, locked (flock) for as long as it lives. flock locks belong to the open
/// file, so two threads of one process exclude each other as two processes do.
class LockedFile {
public:
    LockedFile(const std::string& path, bool write) : m_path(path) {
        m_fd = ::open(path.c_str(),
                      write ? (O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC) : (O_RDONLY | O_CLOEXEC),
                      0644);
        if (m_fd < 0) {
            if (!write && errno == ENOENT) return;  // nothing charged yet
            throw InputError("cannot open the privacy ledger " + path + ": " + systemReason());
        }
        while (::flock(m_fd, write ? LOCK_EX : LOCK_SH) != 0) {
            if (errno == EINTR) continue;
            const std::string reason = systemReason();
            ::close(m_fd);
            throw InputError("cannot lock the privacy ledger " + path + ": " + reason);
        }
    }
    ~LockedFile() {
        if (m_fd >= 0) ::close(m_fd);  // closing releases the lock
    }
    LockedFile(const LockedFile&) = delete;
    LockedFile& operator=(const LockedFile&) = delete;

    bool isOpen() const { return m_fd >= 0; }

    std::string readAll() const { return readFrom(0); }

    /// The bytes from `offset` to the end.
    std::string readFrom(off_t offset) const {
        std::string text;
        char buffer[65536];
        for (;;) {
            const ssize_t got = ::pread(m_fd, buffer, sizeof buffer, offset);
            if (got < 0) {
                if (errno == EINTR) continue;
                throw InputError("cannot read the privacy ledger " + m_path + ": " +
                                 systemReason());
            }
            if (got == 0) return text;
            text.append(buffer, static_cast<std::size_t>(got));
            offset += got;
        }
    }

    /// Up to `count` bytes from `offset` (fewer at the end of the file).
    std::string readAt(off_t offset, std::size_t count) const {
        std::string text(count, '\0');
        std::size_t got = 0;
        while (got < count) {
            const ssize_t part =
                ::pread(m_fd, text.data() + got, count - got, offset + static_cast<off_t>(got));
            if (part < 0) {
                if (errno == EINTR) continue;
                throw InputError("cannot read the privacy ledger " + m_path + ": " +
                                 systemReason());
            }
            if (part == 0) break;
            got += static_cast<std::size_t>(part);
        }
        text.resize(got);
        return text;
    }

    /// The open file's status (device, inode, size).
    struct stat status() const {
        struct stat out {};
        if (::fstat(m_fd, &out) != 0)
            throw InputError("cannot read the privacy ledger " + m_path + ": " + systemReason());
        return out;
    }

    /// Appends `text` (whole lines) and forces it to disk.
    void append(const std::string& text) const {
        std::size_t written = 0;
        while (written < text.size()) {
            const ssize_t put = ::write(m_fd, text.data() + written, text.size() - written);
            if (put < 0) {
                if (errno == EINTR) continue;
                throw InputError("cannot write the privacy ledger " + m_path + ": " +
                                 systemReason());
            }
            written += static_cast<std::size_t>(put);
        }
        if (::fsync(m_fd) != 0) {
            throw InputError("cannot write the privacy ledger " + m_path + ": " + systemReason());
        }
    }

private:
    std::string m_path;
    int m_fd = -1;
};

/// What a ledger file holds, line by line.
struct Parsed {
    std::vector<std::string> names;
    std::set<std::string> everCharged;    ///< every run uid in the file
    std::vector<LedgerEntry> sinceReset;  ///< charges after the last reset
    std::size_t resets = 0, forgotten = 0, damaged = 0;
    std::string lastReset;
};

/// Adds the lines of `text` to `out` (a line without its newline too: it reads as damaged
/// unless it is whole JSON).
void parseLedgerLines(std::string_view text, Parsed& out) {
    auto noteName = [&out](const std::string& name) {
        if (!name.empty() && std::find(out.names.begin(), out.names.end(), name) == out.names.end())
            out.names.push_back(name);
    };
    std::size_t lineStart = 0;
    while (lineStart < text.size()) {
        std::size_t lineEnd = text.find('\n', lineStart);
        if (lineEnd == std::string_view::npos) lineEnd = text.size();
        const std::string_view line = text.substr(lineStart, lineEnd - lineStart);
        lineStart = lineEnd + 1;
        if (line.empty()) continue;
        try {
            const JsonValue json = parseJson(line);
            if (json.has("charge")) {
                LedgerEntry entry = ledgerEntryFromJson(json.at("charge"));
                noteName(json.stringOr("name", ""));
                if (out.everCharged.insert(entry.runUid).second)
                    out.sinceReset.push_back(std::move(entry));
            } else if (json.has("reset")) {
                ++out.resets;
                out.lastReset = json.at("reset").stringOr("at", "");
                out.forgotten += out.sinceReset.size();
                out.sinceReset.clear();
            } else if (json.has("pfa_ledger")) {
                noteName(json.stringOr("name", ""));
            } else {
                ++out.damaged;
            }
        } catch (const std::exception&) {
            ++out.damaged;  // e.g. a line cut by a crash
        }
    }
}

/// Adds the run uids of every charge line of `text` to `uids`, found without parsing whole
/// lines: a writer reads what was appended each time it appends, and a long audit or sweep
/// appends thousands of times.
void addChargedRunUids(std::string_view text, std::set<std::string>& uids) {
    static const std::string marker = "\"run_uid\":";
    std::size_t lineStart = 0;
    while (lineStart < text.size()) {
        std::size_t lineEnd = text.find('\n', lineStart);
        if (lineEnd == std::string::npos) lineEnd = text.size();
        if (text.compare(lineStart, 10, "{\"charge\":") == 0) {
            const std::size_t at = text.find(marker, lineStart);
            if (at != std::string::npos && at < lineEnd) {
                const std::size_t open = at + marker.size();
                std::size_t close = open + 1;
                while (close < lineEnd && text[close] != '"') close += text[close] == '\\' ? 2 : 1;
                if (open < lineEnd && text[open] == '"' && close < lineEnd) {
                    try {
                        uids.insert(parseJson(text.substr(open, close + 1 - open)).asString());
                    } catch (const std::exception&) {
                        // a damaged line charges nothing
                    }
                }
            }
        }
        lineStart = lineEnd + 1;
    }
}

/// How far this process has read a ledger file, and how to tell that it is still the same
/// file. A ledger file only grows (every writer appends under its lock; nothing is rewritten),
/// so what a process learnt from it stays true and the next charge or read takes only what was
/// appended since, by any writer, instead of the whole file, which grows with every run ever
/// charged to the rows. A file that is not the one read (another inode, shorter, or other
/// bytes at its start or where the reading stopped) is read again from its start.
class FileCursor {
public:
    /// What was appended since the cursor's position, which moves past the whole lines.
    struct Appended {
        std::string text;             ///< the bytes from the old position to the end of the file
        std::size_t whole = 0;        ///< of those, the whole lines (up to the last newline)
        bool restarted = false;       ///< read from the start: forget what the file held
        bool fileEmpty = true;        ///< the file holds nothing at all
        bool endsWithNewline = true;  ///< the file is empty or ends with a whole line
        std::string_view wholeLines() const { return std::string_view(text).substr(0, whole); }
        /// A last line without its newline (cut by a crash: writers append under the lock).
        std::string_view cutLine() const { return std::string_view(text).substr(whole); }
    };

    /// Reads what `file` (held locked) holds beyond the cursor, from its start when it is not
    /// the file read before, and moves the cursor past its whole lines.
    Appended advance(const LockedFile& file) {
        Appended out;
        const struct stat status = file.status();
        const bool same =
            m_scanned > 0 && m_device == status.st_dev && m_inode == status.st_ino &&
            status.st_size >= m_scanned && file.readAt(0, m_head.size()) == m_head &&
            file.readAt(m_scanned - static_cast<off_t>(m_tail.size()), m_tail.size()) == m_tail;
        if (!same) {
            *this = FileCursor{};
            m_device = status.st_dev;
            m_inode = status.st_ino;
            out.restarted = true;
        }
        out.text = file.readFrom(m_scanned);
        const std::size_t lastNewline = out.text.rfind('\n');
        out.whole = lastNewline == std::string::npos ? 0 : lastNewline + 1;
        if (m_head.size() < kCheckBytes) {
            m_head += out.text.substr(0, std::min(kCheckBytes - m_head.size(), out.whole));
        }
        m_tail += out.wholeLines();
        if (m_tail.size() > kCheckBytes) m_tail.erase(0, m_tail.size() - kCheckBytes);
        m_scanned += static_cast<off_t>(out.whole);
        out.fileEmpty = m_scanned == 0 && out.text.empty();
        const char last = !out.text.empty() ? out.text.back()
                          : m_tail.empty()  ? '\n'
                                            : m_tail.back();
        out.endsWithNewline = last == '\n';
        return out;
    }

private:
    /// Bytes compared at the start of the file and where the reading stopped.
    static constexpr std::size_t kCheckBytes = 128;
    dev_t m_device = 0;
    ino_t m_inode = 0;
    off_t m_scanned = 0;  ///< bytes read: whole lines only
    std::string m_head;   ///< the file's first bytes (its header says when it was created)
    std::string m_tail;   ///< the last bytes read
};

/// What this process knows of the ledger files it charged or read, by path: the run uids of
/// the charge lines (for charging) and the parsed lines (for reading). Each map has its mutex;
/// charging also holds the file's exclusive lock, which keeps other writers out meanwhile.
struct ChargedIndex {
    FileCursor cursor;
    std::set<std::string> uids;
};
struct ParsedIndex {
    FileCursor cursor;
    Parsed parsed;
};
template <typename Index>
struct Indexes {
    std::mutex mutex;
    std::map<std::string, Index> byPath;
};
Indexes<ChargedIndex>& chargedIndexes() {
    static Indexes<ChargedIndex> indexes;
    return indexes;
}
Indexes<ParsedIndex>& parsedIndexes() {
    static Indexes<ParsedIndex> indexes;
    return indexes;
}

std::string quotedCsv(const std::string& text) {
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

}  // namespace

bool isLedgerFingerprint(const std::string& text) {
    return text.size() == 32 && std::all_of(text.begin(), text.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

LedgerStore::LedgerStore(std::string directory) : m_directory(std::move(directory)) {}

std::string LedgerStore::pathFor(const std::string& fingerprint) const {
    if (!isLedgerFingerprint(fingerprint)) {
        throw InputError("'" + fingerprint + "' is not a data-set fingerprint (32 hex digits)");
    }
    return (std::filesystem::path(m_directory) / (fingerprint + ".jsonl")).string();
}

std::size_t LedgerStore::charge(const std::string& fingerprint, const std::string& name,
                                const std::vector<LedgerEntry>& entries,
                                const std::string& source) const {
    const std::string path = pathFor(fingerprint);
    if (entries.empty()) return 0;
    std::error_code error;
    std::filesystem::create_directories(m_directory, error);
    if (error) {
        throw InputError("cannot make the privacy ledger folder " + m_directory + ": " +
                         error.message());
    }
    const LockedFile file(path, true);
    ChargedIndex* index = nullptr;
    {
        // The map's lock only: the file's lock keeps other writers off this index meanwhile.
        const std::lock_guard<std::mutex> indexLock(chargedIndexes().mutex);
        index = &chargedIndexes().byPath[path];
    }
    const FileCursor::Appended existing = index->cursor.advance(file);
    if (existing.restarted) index->uids.clear();
    addChargedRunUids(existing.wholeLines(), index->uids);
    // A line cut by a crash still counts its run uid.
    std::set<std::string> cutLineUids;
    addChargedRunUids(existing.cutLine(), cutLineUids);
    std::set<std::string> chargedNow;
    const auto charged = [&](const std::string& uid) {
        return index->uids.count(uid) > 0 || cutLineUids.count(uid) > 0 ||
               !chargedNow.insert(uid).second;
    };
    const std::string at = utcNow();
    std::string text;
    // A line cut by a crash stays a (skipped) line of its own instead of spoiling this one.
    if (!existing.endsWithNewline) text += '\n';
    if (existing.fileEmpty) {
        JsonWriter header;
        header.beginObject();
        header.key("pfa_ledger").value(1L);
        header.key("name").value(name);
        header.key("created").value(at);
        header.endObject();
        text += header.text() + '\n';
    }
    std::size_t added = 0;
    for (const LedgerEntry& entry : entries) {
        if (charged(entry.runUid)) continue;
        JsonWriter json;
        json.beginObject();
        json.key("charge");
        writeLedgerEntryJson(json, entry);
        json.key("name").value(name);
        json.key("source").value(source);
        json.key("at").value(at);
        json.endObject();
        text += json.text() + '\n';
        ++added;
    }
    if (added > 0 || existing.fileEmpty) file.append(text);
    return added;
}

StoredLedger LedgerStore::read(const std::string& fingerprint) const {
    StoredLedger stored;
    stored.fingerprint = fingerprint;
    stored.path = pathFor(fingerprint);
    const LockedFile file(stored.path, false);
    const auto fill = [&](const Parsed& parsed) {
        stored.names = parsed.names;
        stored.ledger =
            DatasetLedger(fingerprint, parsed.names.empty() ? fingerprint : parsed.names.front());
        for (const LedgerEntry& entry : parsed.sinceReset) stored.ledger.add(entry);
        stored.resets = parsed.resets;
        stored.lastReset = parsed.lastReset;
        stored.forgotten = parsed.forgotten;
        stored.damagedLines = parsed.damaged;
    };
    if (!file.isOpen()) {
        fill(Parsed{});
        return stored;
    }
    stored.exists = true;
    // Readers share the file's lock, so the map's lock is held while the index is used.
    const std::lock_guard<std::mutex> indexLock(parsedIndexes().mutex);
    ParsedIndex& index = parsedIndexes().byPath[stored.path];
    const FileCursor::Appended appended = index.cursor.advance(file);
    if (appended.restarted) index.parsed = Parsed{};
    parseLedgerLines(appended.wholeLines(), index.parsed);
    if (appended.cutLine().empty()) {
        fill(index.parsed);
    } else {
        Parsed withCutLine = index.parsed;
        parseLedgerLines(appended.cutLine(), withCutLine);
        fill(withCutLine);
    }
    return stored;
}

std::size_t LedgerStore::reset(const std::string& fingerprint, const std::string& source) const {
    const std::string path = pathFor(fingerprint);
    if (!std::filesystem::exists(path)) return 0;
    const LockedFile file(path, true);
    const std::string existing = file.readAll();
    Parsed parsed;
    parseLedgerLines(existing, parsed);
    if (parsed.sinceReset.empty()) return 0;
    JsonWriter json;
    json.beginObject();
    json.key("reset").beginObject();
    json.key("at").value(utcNow());
    json.key("source").value(source);
    json.key("forgotten").value(static_cast<unsigned long>(parsed.sinceReset.size()));
    json.endObject();
    json.endObject();
    std::string text = existing.empty() || existing.back() == '\n' ? "" : "\n";
    file.append(text + json.text() + '\n');
    return parsed.sinceReset.size();
}

std::vector<std::string> LedgerStore::fingerprints() const {
    std::vector<std::string> out;
    std::error_code error;
    for (const auto& item : std::filesystem::directory_iterator(m_directory, error)) {
        const std::filesystem::path& path = item.path();
        if (path.extension() == ".jsonl" && isLedgerFingerprint(path.stem().string()))
            out.push_back(path.stem().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string ledgerCsv(const DatasetLedger& ledger) {
    std::string out =
        "# privacy ledger of " + ledger.title() + ": " + describeTotals(ledger.totals()) + "\n";
    out +=
        "run_uid,label,status,epsilon,delta,unit,adjacency,curve,sampling_rate,noise_multiplier,"
        "steps_per_release,steps,extra_epsilon,shared_batches\n";
    for (const LedgerEntry& e : ledger.entries()) {
        const AccountingInputs& a = e.accounting;
        out += quotedCsv(e.runUid) + ',' + quotedCsv(e.label) + ',' + e.status + ',' +
               formatPortable(e.epsilon) + ',' + formatPortable(e.delta) + ',';
        if (e.accountingKnown) {
            out += a.unit + ',' + adjacencyCode(a.adjacency) + ',' + releaseKindName(a.kind) + ',' +
                   formatPortable(a.samplingRate) + ',' + formatPortable(a.noiseMultiplier) + ',' +
                   std::to_string(a.stepsPerRelease) + ',' + std::to_string(a.steps) + ',' +
                   formatPortable(a.pureEpsilon()) + ',' +
                   (a.sharedBatches.empty() ? std::string() : quotedCsv(a.sharedBatches));
        } else {
            out += ",,,,,,,,";
        }
        out += '\n';
    }
    return out;
}

std::string ledgerExportJson(const StoredLedger& stored) {
    const LedgerTotals t = stored.ledger.totals();
    JsonWriter json;
    json.beginObject();
    json.key("names").beginArray();
    for (const std::string& name : stored.names) json.value(name);
    json.endArray();
    json.key("totals").beginObject();
    json.key("runs").value(static_cast<unsigned long>(t.runs));
    json.key("epsilon").value(t.epsilon);
    json.key("delta").value(t.delta);
    json.key("accountant").value("Rényi-DP composition of the runs' curves");
    json.key("naive_epsilon").value(t.naiveEpsilon);
    json.key("naive_delta").value(t.naiveDelta);
    json.key("runs_without_curve").value(static_cast<unsigned long>(t.withoutCurve));
    json.key("text").value(describeTotals(t));
    json.endObject();
    json.key("resets").value(static_cast<unsigned long>(stored.resets));
    if (!stored.lastReset.empty()) json.key("last_reset").value(stored.lastReset);
    json.key("forgotten_runs").value(static_cast<unsigned long>(stored.forgotten));
    json.key("entries").beginArray();
    for (const LedgerEntry& entry : stored.ledger.entries()) writeLedgerEntryJson(json, entry);
    json.endArray();
    json.endObject();
    return json.text();
}

}  // namespace pfa::privacy

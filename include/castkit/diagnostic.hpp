// Diagnostics: the errors and warnings every castkit reader, writer and checker reports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace castkit {

enum class Severity : std::uint8_t { Info, Warning, Error };

// Where a finding is, in the words a user can act on: the file, the byte offset in it and the
// node path ("root[0]/model[2]/mesh[0]"), plus a stable rule id where one applies.
struct Diagnostic {
    Severity severity = Severity::Error;
    std::string file;  // empty when reading from memory without a name
    std::uint64_t offset = kNoOffset;
    std::string path;     // node path, or a JSON path for JSON formats
    std::string rule;     // stable id such as "cast.nodesize"; may be empty
    std::string message;  // one line, no trailing period

    static constexpr std::uint64_t kNoOffset = ~std::uint64_t{0};

    // "hero.cast: offset 0x1f4: root[0]/model[2]/mesh[0]: message"
    std::string to_string() const;
};

// A list of findings that stays small for any input: it keeps the first kKeptPerKind findings
// of each kind (the same severity, file and rule id; findings without an id are one kind) and
// only counts the rest, which suppressed() reports as one summary per kind. Memory is
// O(kinds × kKeptPerKind) findings whatever the input holds; the kinds are at most the rule
// ids (docs/diagnostics.md) times the severities times the files one operation reads and
// writes. Iteration gives the kept findings in the order they were added; they cannot be
// changed in place (that would unbalance the counts), only through the members below.
class Diagnostics {
  public:
    static constexpr std::size_t kKeptPerKind = 5;

    // The findings of one kind that were counted but not kept.
    struct Suppressed {
        Severity severity = Severity::Error;
        std::string file;
        std::string rule;
        std::uint64_t count = 0;
        // The line that stands for them: "hero.cast: warning: ... and 41660 more
        // [cast.unknown-property-type]".
        Diagnostic summary() const;
    };

    using value_type = Diagnostic;
    using const_iterator = std::vector<Diagnostic>::const_iterator;
    using iterator = const_iterator;

    // Keeps `diagnostic`, or only counts it when kKeptPerKind of its kind are kept. O(log kinds).
    void push_back(Diagnostic diagnostic);
    void emplace_back(Diagnostic diagnostic) { push_back(std::move(diagnostic)); }
    // Adds what `other` holds, kept and counted, after what this holds. O(other's kept + kinds).
    void append(const Diagnostics& other);
    // Gives the findings kept since index `first`, and every counted one, that have no rule id the
    // id `rule` (the registry's catch-all "<format>.read"), and those that name no file the file
    // `file` when it is not empty. O(size + kinds).
    void name_unnamed(std::size_t first, std::string_view rule, std::string_view file = {});
    // Every finding of severity `from`, kept or counted, becomes one of `to` (validate
    // --strict). Where that makes two kinds one, the first kKeptPerKind of its kept findings stay
    // kept and the rest are counted in its summary. O(size + kinds).
    void promote(Severity from, Severity to);
    // Calls `change(Diagnostic&)` on each finding kept from index `first` on (to add a location,
    // say); one whose severity, file or rule changes is counted under its new kind, kept only
    // while its kind has fewer than kKeptPerKind. The change is given a copy, written back when
    // it returns, so it may add to this list: what it adds is kept after the findings it was
    // called for, in the order it was added, and is not passed to it. O(size + kinds).
    template <class Change>
    void update(std::size_t first, Change change) {
        for (std::size_t i = first, end = kept_.size(); i < end && i < kept_.size(); ++i) {
            Diagnostic changed = kept_[i];
            change(changed);
            kept_[i] = std::move(changed);
        }
        recount();
    }
    void clear();

    // The kept findings.
    std::size_t size() const { return kept_.size(); }
    bool empty() const { return kept_.empty(); }
    const_iterator begin() const { return kept_.begin(); }
    const_iterator end() const { return kept_.end(); }
    const Diagnostic& operator[](std::size_t index) const { return kept_[index]; }
    const Diagnostic& at(std::size_t index) const { return kept_.at(index); }
    const Diagnostic& front() const { return kept_.front(); }
    const Diagnostic& back() const { return kept_.back(); }

    // The kinds with findings that were counted but not kept, in the order the first of each was
    // dropped.
    const std::vector<Suppressed>& suppressed() const { return suppressed_; }
    // Every finding of `severity`, kept or counted. O(size + kinds).
    std::uint64_t count(Severity severity) const;
    // What a user is shown: the kept findings, then one summary line per suppressed kind.
    std::vector<Diagnostic> shown() const;
    // The findings of `severity`, kept and counted. O(size + kinds).
    Diagnostics with_severity(Severity severity) const;

  private:
    using Kind = std::tuple<Severity, std::string, std::string>;
    struct Tally {
        std::size_t kept = 0;
        std::size_t suppressed = kNone;  // index into suppressed_
    };
    static constexpr std::size_t kNone = ~std::size_t{0};

    Tally& tally(Severity severity, const std::string& file, const std::string& rule);
    void count_suppressed(const Suppressed& more);
    void recount();

    std::vector<Diagnostic> kept_;
    std::vector<Suppressed> suppressed_;
    std::map<Kind, Tally, std::less<>> tallies_;
};

const char* severity_name(Severity severity);

// True when any diagnostic has the given severity or worse.
bool has_severity(const Diagnostics& diagnostics, Severity at_least);

}  // namespace castkit

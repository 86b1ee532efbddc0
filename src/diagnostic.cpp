#include <fmt/format.h>

#include <castkit/diagnostic.hpp>

namespace castkit {

std::string Diagnostic::to_string() const {
    std::string text;
    if (!file.empty()) text += file + ": ";
    if (offset != kNoOffset) text += fmt::format("offset {:#x}: ", offset);
    if (!path.empty()) text += path + ": ";
    if (severity == Severity::Warning) text += "warning: ";
    if (severity == Severity::Info) text += "info: ";
    text += message;
    if (!rule.empty()) text += fmt::format(" [{}]", rule);
    return text;
}

const char* severity_name(Severity severity) {
    switch (severity) {
        case Severity::Info:
            return "info";
        case Severity::Warning:
            return "warning";
        case Severity::Error:
            return "error";
    }
    return "error";
}

bool has_severity(const Diagnostics& diagnostics, Severity at_least) {
    // Kinds include the severity, so the first finding of each severity is always kept.
    for (const Diagnostic& d : diagnostics)
        if (d.severity >= at_least) return true;
    return false;
}

Diagnostic Diagnostics::Suppressed::summary() const {
    Diagnostic d;
    d.severity = severity;
    d.file = file;
    d.rule = rule;
    d.message = fmt::format("... and {} more", count);
    return d;
}

Diagnostics::Tally& Diagnostics::tally(Severity severity, const std::string& file,
                                       const std::string& rule) {
    const auto found = tallies_.find(std::tie(severity, file, rule));
    if (found != tallies_.end()) return found->second;
    return tallies_.emplace(Kind{severity, file, rule}, Tally{}).first->second;
}

void Diagnostics::push_back(Diagnostic diagnostic) {
    Tally& kind = tally(diagnostic.severity, diagnostic.file, diagnostic.rule);
    if (kind.kept < kKeptPerKind) {
        ++kind.kept;
        kept_.push_back(std::move(diagnostic));
        return;
    }
    count_suppressed(
        {diagnostic.severity, std::move(diagnostic.file), std::move(diagnostic.rule), 1});
}

void Diagnostics::count_suppressed(const Suppressed& more) {
    Tally& kind = tally(more.severity, more.file, more.rule);
    if (kind.suppressed == kNone) {
        kind.suppressed = suppressed_.size();
        suppressed_.push_back({more.severity, more.file, more.rule, 0});
    }
    suppressed_[kind.suppressed].count += more.count;
}

void Diagnostics::append(const Diagnostics& other) {
    if (&other == this) {  // push_back would grow the vectors being read
        const Diagnostics copy = other;
        append(copy);
        return;
    }
    for (const Diagnostic& d : other.kept_) push_back(d);
    for (const Suppressed& more : other.suppressed_) count_suppressed(more);
}

// Rebuilds the tallies after kinds changed, merging suppressed counts that now share a kind.
// Kinds that became one may hold more than kKeptPerKind kept findings: the first of them, in
// the order they were added, stay kept, the rest are counted after the summaries there were.
void Diagnostics::recount() {
    tallies_.clear();
    std::vector<Suppressed> suppressed = std::move(suppressed_);
    suppressed_.clear();
    for (const Suppressed& more : suppressed) count_suppressed(more);
    std::vector<Diagnostic> kept = std::move(kept_);
    kept_.clear();
    for (Diagnostic& d : kept) push_back(std::move(d));
}

void Diagnostics::name_unnamed(std::size_t first, std::string_view rule, std::string_view file) {
    const auto name = [&](std::string& id, std::string& named) {
        if (id.empty()) id = rule;
        if (named.empty()) named = file;
    };
    for (std::size_t i = first; i < kept_.size(); ++i) name(kept_[i].rule, kept_[i].file);
    for (Suppressed& more : suppressed_) name(more.rule, more.file);
    recount();
}

void Diagnostics::promote(Severity from, Severity to) {
    for (Diagnostic& d : kept_)
        if (d.severity == from) d.severity = to;
    for (Suppressed& more : suppressed_)
        if (more.severity == from) more.severity = to;
    recount();
}

void Diagnostics::clear() {
    kept_.clear();
    suppressed_.clear();
    tallies_.clear();
}

std::uint64_t Diagnostics::count(Severity severity) const {
    std::uint64_t total = 0;
    for (const Diagnostic& d : kept_) total += d.severity == severity;
    for (const Suppressed& more : suppressed_)
        if (more.severity == severity) total += more.count;
    return total;
}

Diagnostics Diagnostics::with_severity(Severity severity) const {
    Diagnostics out;
    for (const Diagnostic& d : kept_)
        if (d.severity == severity) out.push_back(d);
    for (const Suppressed& more : suppressed_)
        if (more.severity == severity) out.count_suppressed(more);
    return out;
}

std::vector<Diagnostic> Diagnostics::shown() const {
    std::vector<Diagnostic> out = kept_;
    for (const Suppressed& more : suppressed_) out.push_back(more.summary());
    return out;
}

}  // namespace castkit

// `castkit validate`: checks Cast files against every rule of the spec and castkit's rulings;
// findings as text or JSON (schema in docs/validate.md). Exit 0 without errors, 1 with, 2 on
// usage errors.
#include <fmt/format.h>

#include <castkit/cast/validate.hpp>
#include <nlohmann/json.hpp>

#include "../../src/platform/platform.hpp"
#include "commands.hpp"

namespace castkit::cli {
namespace {

struct Report {
    std::string file;
    Diagnostics diagnostics;
    std::size_t count(Severity severity) const {
        return static_cast<std::size_t>(
            std::count_if(diagnostics.begin(), diagnostics.end(),
                          [&](const Diagnostic& d) { return d.severity == severity; }));
    }
};

Report check(const std::string& path, const cast::ValidateOptions& options) {
    Report report{path == "-" ? "<stdin>" : path, {}};
    auto document = path == "-" ? cast::read_stdin() : cast::open(platform::path_from_utf8(path));
    if (!document) {
        Diagnostic error = document.error();
        error.rule = std::string(cast::find_validation_rule("cast.read")->id);
        if (error.file.empty()) error.file = report.file;
        report.diagnostics.push_back(std::move(error));
        return report;
    }
    report.diagnostics = cast::validate(*document, options);
    return report;
}

std::string summary(const Report& report) {
    const std::size_t errors = report.count(Severity::Error);
    return fmt::format(
        "{}: {}: {} error{}, {} warning{}, {} info", report.file, errors == 0 ? "valid" : "invalid",
        errors, errors == 1 ? "" : "s", report.count(Severity::Warning),
        report.count(Severity::Warning) == 1 ? "" : "s", report.count(Severity::Info));
}

nlohmann::json to_json(const std::vector<Report>& reports) {
    nlohmann::json files = nlohmann::json::array();
    std::size_t errors = 0, warnings = 0, infos = 0;
    for (const Report& report : reports) {
        nlohmann::json diagnostics = nlohmann::json::array();
        for (const Diagnostic& d : report.diagnostics)
            diagnostics.push_back(
                {{"severity", severity_name(d.severity)},
                 {"rule", d.rule},
                 {"path", d.path},
                 {"offset", d.offset == Diagnostic::kNoOffset ? nlohmann::json(nullptr)
                                                              : nlohmann::json(d.offset)},
                 {"message", d.message}});
        errors += report.count(Severity::Error);
        warnings += report.count(Severity::Warning);
        infos += report.count(Severity::Info);
        files.push_back({{"file", report.file},
                         {"valid", report.count(Severity::Error) == 0},
                         {"errors", report.count(Severity::Error)},
                         {"warnings", report.count(Severity::Warning)},
                         {"infos", report.count(Severity::Info)},
                         {"diagnostics", std::move(diagnostics)}});
    }
    return {{"valid", errors == 0},
            {"errors", errors},
            {"warnings", warnings},
            {"infos", infos},
            {"files", std::move(files)}};
}

// The rule table as Markdown: the README's table is this output.
std::string rules_markdown() {
    std::string out = "| id | severity | meaning |\n|---|---|---|\n";
    for (const cast::ValidationRule& rule : cast::validation_rules())
        out += fmt::format("| `{}` | {} | {} |\n", rule.id, severity_name(rule.severity),
                           rule.meaning);
    return out;
}

void print_stdout(const std::string& text) {
    (void)platform::write_stdout(std::as_bytes(std::span(text)));
}

}  // namespace

void register_validate_commands(CLI::App& app, int& exit_code) {
    struct Options {
        std::vector<std::string> files;
        bool json = false, strict = false, list_rules = false;
    };
    auto options = std::make_shared<Options>();
    CLI::App* validate =
        app.add_subcommand("validate", "Check Cast files against every rule of the spec");
    validate->add_option("files", options->files, "Cast files to check ('-' for stdin)");
    validate->add_flag("--json", options->json,
                       "Print the findings as JSON (schema in docs/validate.md)");
    validate->add_flag("--strict", options->strict, "Treat warnings as errors");
    validate->add_flag("--list-rules", options->list_rules, "Print the rule table as Markdown");
    validate->callback([options, &exit_code] {
        if (options->list_rules) {
            print_stdout(rules_markdown());
            return;
        }
        if (options->files.empty()) {
            fmt::print(stderr, "castkit validate: give at least one file (or --list-rules)\n");
            exit_code = kUsage;
            return;
        }
        std::vector<Report> reports;
        for (const std::string& path : options->files)
            reports.push_back(check(path, {.strict = options->strict}));
        bool errors = false;
        for (const Report& report : reports) errors |= report.count(Severity::Error) > 0;
        if (options->json) {
            print_stdout(to_json(reports).dump(2) + "\n");
        } else {
            std::string out;
            for (const Report& report : reports) {
                for (const Diagnostic& d : report.diagnostics) out += d.to_string() + "\n";
                out += summary(report) + "\n";
            }
            print_stdout(out);
        }
        exit_code = errors ? kInvalidInput : kSuccess;
    });
}

}  // namespace castkit::cli

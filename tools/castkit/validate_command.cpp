// `castkit validate`: reads files of any format castkit reads with their format's reader and
// checks the Cast document each gives against every rule of the spec and castkit's rulings;
// findings as text or JSON (schema in docs/validate.md). Exit 0 without errors, 1 with, 2 on
// usage errors.
#include <fmt/format.h>

#include <castkit/cast/validate.hpp>
#include <castkit/json.hpp>
#include <castkit/platform.hpp>

#include "commands.hpp"

namespace castkit::cli {
namespace {

struct Report {
    std::string file;
    Diagnostics diagnostics;
    // Every finding of `severity`, including those only counted (Diagnostics::suppressed).
    std::uint64_t count(Severity severity) const { return diagnostics.count(severity); }
};

// The one finding of a file that cannot be read: the reader's own, with its id (cast.truncated
// stays cast.truncated, as under `dump`), naming the file and, as every read error through the
// registry, the path "/" when it is about the file as a whole.
Diagnostic unreadable_finding(Diagnostic error, const std::string& file) {
    if (error.file.empty()) error.file = file;
    if (error.path.empty()) error.path.assign(1, '/');
    return error;
}

// Reads `path` with its format's reader (its findings first), then checks the Cast document it
// made against every rule. nullopt, having printed why and raised `exit_code` to 2, when no
// format can be told or the path is a folder.
std::optional<Report> check(const std::string& path, const std::string& from,
                            const cast::ValidateOptions& options, int& exit_code) {
    Report report{path == "-" ? "<stdin>" : path, {}};
    auto opened = open_source(path, from);
    if (auto* error = std::get_if<SourceError>(&opened)) {
        if (error->code == kUsage) {
            print_source_error(path, *error);
            fail(exit_code, kUsage);
            return std::nullopt;
        }
        report.diagnostics.push_back(unreadable_finding(error->diagnostic, report.file));
        return report;
    }
    Source& source = std::get<Source>(opened);
    // Nothing is written: images a DMF or glTF embeds stay in it (no folder to put them in).
    const ReadContext context = formats::context_for(platform::path_from_utf8(path));
    auto document =
        formats::read(*source.format, std::move(source.input), context, report.diagnostics);
    if (!document) {
        report.diagnostics.push_back(unreadable_finding(document.error(), report.file));
        return report;
    }
    cast::validate(*document, report.diagnostics, options);
    // --strict makes the reader's warnings errors too.
    if (options.strict) report.diagnostics.promote(Severity::Warning, Severity::Error);
    return report;
}

std::string summary(const Report& report) {
    const std::size_t errors = report.count(Severity::Error);
    return fmt::format(
        "{}: {}: {} error{}, {} warning{}, {} info", report.file, errors == 0 ? "valid" : "invalid",
        errors, errors == 1 ? "" : "s", report.count(Severity::Warning),
        report.count(Severity::Warning) == 1 ? "" : "s", report.count(Severity::Info));
}

// The findings in the schema docs/validate.md describes, pretty-printed.
std::string to_json(const std::vector<Report>& reports) {
    std::string out;
    json::Writer json(out, 2);
    std::uint64_t errors = 0, warnings = 0, infos = 0;
    for (const Report& report : reports) {
        errors += report.count(Severity::Error);
        warnings += report.count(Severity::Warning);
        infos += report.count(Severity::Info);
    }
    json.begin_object();
    json.key("valid");
    json.boolean(errors == 0);
    json.key("errors");
    json.unsigned_integer(errors);
    json.key("warnings");
    json.unsigned_integer(warnings);
    json.key("infos");
    json.unsigned_integer(infos);
    json.key("files");
    json.begin_array();
    for (const Report& report : reports) {
        json.begin_object();
        json.key("file");
        json.string(report.file);
        json.key("valid");
        json.boolean(report.count(Severity::Error) == 0);
        json.key("errors");
        json.unsigned_integer(report.count(Severity::Error));
        json.key("warnings");
        json.unsigned_integer(report.count(Severity::Warning));
        json.key("infos");
        json.unsigned_integer(report.count(Severity::Info));
        json.key("diagnostics");
        json.begin_array();
        for (const Diagnostic& d : report.diagnostics.shown()) {
            json.begin_object();
            json.key("severity");
            json.string(severity_name(d.severity));
            json.key("rule");
            json.string(d.rule);
            json.key("path");
            json.string(d.path);
            json.key("offset");
            if (d.offset == Diagnostic::kNoOffset)
                json.null();
            else
                json.unsigned_integer(d.offset);
            json.key("message");
            json.string(d.message);
            json.end_object();
        }
        json.end_array();
        json.key("suppressed");
        json.begin_array();
        for (const Diagnostics::Suppressed& more : report.diagnostics.suppressed()) {
            json.begin_object();
            json.key("severity");
            json.string(severity_name(more.severity));
            json.key("rule");
            json.string(more.rule);
            json.key("count");
            json.unsigned_integer(more.count);
            json.end_object();
        }
        json.end_array();
        json.end_object();
    }
    json.end_array();
    json.end_object();
    out += '\n';
    return out;
}

// The rule table as Markdown: docs/validate.md's table is this output.
std::string rules_markdown() {
    std::string out = "| id | severity | meaning |\n|---|---|---|\n";
    for (const cast::ValidationRule& rule : cast::validation_rules())
        out += fmt::format("| `{}` | {} | {} |\n", rule.id, severity_name(rule.severity),
                           rule.meaning);
    return out;
}

}  // namespace

void register_validate_commands(CLI::App& app, int& exit_code) {
    struct Options {
        std::vector<std::string> files;
        std::string from;
        bool json = false, strict = false, list_rules = false;
    };
    auto options = std::make_shared<Options>();
    CLI::App* validate = app.add_subcommand(
        "validate", "Check files of any format castkit reads against every rule of the Cast spec");
    add_examples(
        validate,
        {"castkit validate examples/data/hero/hero.glb examples/data/hero/hero_walk.seanim",
         "castkit validate --json examples/data/scene.cast"});
    validate->add_option("files", options->files, "Files to check ('-' for stdin)");
    add_format_option(validate, "--from", options->from,
                      "Input format, when the extension does not say (else the contents tell)");
    validate->add_flag("--json", options->json,
                       "Print the findings as JSON (schema in docs/validate.md)");
    validate->add_flag("--strict", options->strict, "Treat warnings as errors");
    validate->add_flag("--list-rules", options->list_rules, "Print the rule table as Markdown");
    validate->callback([options, &exit_code] {
        if (options->list_rules) {
            print_stdout(rules_markdown(), exit_code);
            return;
        }
        if (options->files.empty()) {
            fmt::print(stderr, "castkit validate: give at least one file (or --list-rules)\n");
            fail(exit_code, kUsage);
            return;
        }
        std::vector<Report> reports;
        for (const std::string& path : options->files)
            if (auto report = check(path, options->from, {.strict = options->strict}, exit_code))
                reports.push_back(std::move(*report));
        bool errors = false;
        for (const Report& report : reports) errors |= report.count(Severity::Error) > 0;
        fail(exit_code, errors ? kInvalidInput : kSuccess);
        if (options->json) {
            print_stdout(to_json(reports), exit_code);
        } else {
            std::string out;
            for (const Report& report : reports) {
                for (const Diagnostic& d : report.diagnostics.shown()) out += d.to_string() + "\n";
                out += summary(report) + "\n";
            }
            print_stdout(out, exit_code);
        }
    });
}

}  // namespace castkit::cli

// castkit.batch's access to the library's folder conversion (castkit/batch.hpp). Options,
// tasks and results cross as plain Python values (dicts of str, int, float, bool and
// Diagnostic, all of which pickle), so that they travel to worker processes and Dask workers
// and back; the rules themselves stay in the library.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <castkit/batch.hpp>
#include <castkit/platform.hpp>

#include "common.hpp"

namespace castkit::python {
namespace {

namespace fs = std::filesystem;

template <class T>
T get(const py::dict& d, const char* key, T fallback) {
    return d.contains(key) && !d[key].is_none() ? d[key].cast<T>() : fallback;
}

std::vector<fs::path> paths(const py::dict& d, const char* key) {
    std::vector<fs::path> out;
    if (d.contains(key) && !d[key].is_none())
        for (py::handle item : d[key]) out.push_back(item.cast<fs::path>());
    return out;
}

// The options castkit.batch keeps as a dict: the CLI's, by the same names.
batch::Options options_from(const py::dict& d) {
    batch::Options options;
    options.input_dir = d["input_dir"].cast<fs::path>();
    options.output_dir = d["output_dir"].cast<fs::path>();
    options.to = get<std::string>(d, "to", "");
    options.from = get<std::string>(d, "from", "");
    options.animations = paths(d, "animations");
    options.model = get<fs::path>(d, "model", {});
    options.root_motion = root_motion(get<std::string>(d, "root_motion", "keep"), "root_motion");
    options.root_bone = get<std::string>(d, "root_bone", "");
    options.events_beside = get<bool>(d, "events_beside", false);
    options.recursive = get<bool>(d, "recursive", false);
    options.force = get<bool>(d, "force", false);
    FormatOptions& format = options.format_options;
    format.place_textures = true;  // as `castkit convert`: images travel with their model
    format.side_files.folders = paths(d, "textures");
    format.side_files.allow_any_path = get<bool>(d, "allow_any_path", false);
    format.inline_instances = get<bool>(d, "inline_instances", true);
    format.strict = get<bool>(d, "strict", false);
    format.gpu_instancing = get<bool>(d, "gpu_instancing", false);
    format.textures =
        texture_mode(get<std::string>(d, "texture_mode", "automatic"), "texture_mode");
    const auto word = [&d]<class Words>(const char* key, Words) {
        return d.contains(key) && !d[key].is_none()
                   ? std::optional(Word<Words>{d[key].cast<std::string>()})
                   : std::nullopt;
    };
    const types::AxisWords axis;
    const types::UnitWords units;
    options.axes = axes_request(word("up", axis), word("from_up", axis), word("units", units),
                                word("from_units", units), get<double>(d, "scale", 1.0));
    const auto value = [&d](const char* key) -> py::object {
        return d.contains(key) ? py::object(d[key]) : py::none();
    };
    const auto globs = [&d](const char* key) { return get<std::vector<std::string>>(d, key, {}); };
    options.selection =
        selection_from(value("within"), value("box"), globs("include"), globs("exclude"));
    return options;
}

// A Diagnostics as plain values: (the kept findings, (severity, file, rule, count) for each
// kind counted past them), so that a worker's "... and 18 more" survives the trip.
py::tuple diagnostics_of(const Diagnostics& diagnostics) {
    py::list kept, more;
    for (const Diagnostic& d : diagnostics) kept.append(py::cast(d));
    for (const Diagnostics::Suppressed& kind : diagnostics.suppressed())
        more.append(py::make_tuple(static_cast<int>(kind.severity), to_str(kind.file),
                                   to_str(kind.rule), kind.count));
    return py::make_tuple(kept, more);
}

Diagnostics diagnostics_from(const py::handle& value) {
    const py::tuple parts = value.cast<py::tuple>();
    Diagnostics out;
    for (py::handle item : parts[0]) out.push_back(item.cast<Diagnostic>());
    // Kept findings fill their kind, so each further one of it is only counted.
    for (py::handle item : parts[1]) {
        const py::tuple kind = item.cast<py::tuple>();
        Diagnostic counted;
        counted.severity = static_cast<Severity>(kind[0].cast<int>());
        counted.file = kind[1].cast<std::string>();
        counted.rule = kind[2].cast<std::string>();
        for (std::uint64_t n = kind[3].cast<std::uint64_t>(); n > 0; --n) out.push_back(counted);
    }
    return out;
}

py::str utf8(const fs::path& path) { return to_str(platform::utf8_of(path)); }

py::dict task_dict(const batch::Task& task) {
    py::dict d;
    d["input"] = utf8(task.input);
    d["output"] = utf8(task.output);
    d["bytes"] = task.bytes;
    d["fresh"] = task.fresh;
    d["warnings"] = diagnostics_of(task.warnings);
    py::list taken;
    for (const fs::path& path : task.taken) taken.append(utf8(path));
    d["taken"] = taken;
    return d;
}

batch::Task task_from(const py::dict& d) {
    batch::Task task;
    task.input = d["input"].cast<fs::path>();
    task.output = d["output"].cast<fs::path>();
    task.bytes = d["bytes"].cast<std::uint64_t>();
    task.fresh = d["fresh"].cast<bool>();
    task.warnings = diagnostics_from(d["warnings"]);
    task.taken = paths(d, "taken");
    return task;
}

batch::Status status_named(const std::string& name) {
    for (batch::Status status :
         {batch::Status::NotStarted, batch::Status::Converted, batch::Status::Warned,
          batch::Status::Failed, batch::Status::Skipped})
        if (batch::status_name(status) == name) return status;
    throw py::value_error("unknown status '" + name + "'");
}

py::dict result_dict(const batch::Result& result) {
    py::dict d;
    d["status"] = std::string(batch::status_name(result.status));
    d["warnings"] = diagnostics_of(result.warnings);
    d["errors"] = diagnostics_of(result.errors);
    d["output_bytes"] = result.output_bytes;
    d["milliseconds"] = result.milliseconds;
    return d;
}

batch::Result result_from(const py::dict& d) {
    batch::Result result;
    result.status = status_named(d["status"].cast<std::string>());
    result.warnings = diagnostics_from(d["warnings"]);
    result.errors = diagnostics_from(d["errors"]);
    result.output_bytes = d["output_bytes"].cast<std::uint64_t>();
    result.milliseconds = d["milliseconds"].cast<double>();
    return result;
}

py::tuple plan(const py::dict& options_dict) {
    const batch::Options options = options_from(options_dict);
    Diagnostics skipped;
    Expected<batch::Plan> planned = [&] {
        py::gil_scoped_release release;
        return batch::plan(options, skipped);
    }();
    if (!planned) raise_error(planned.error());
    py::list tasks;
    for (const batch::Task& task : planned->tasks) tasks.append(task_dict(task));
    return py::make_tuple(tasks, diagnostics_list(skipped));
}

py::dict convert(const py::dict& options_dict, const py::dict& task_entry) {
    const batch::Options options = options_from(options_dict);
    const batch::Task task = task_from(task_entry);
    // The run's mark on the temporaries this task writes (castkit.batch removes those a
    // killed worker left by it, and no one else's).
    const std::string tag = get<std::string>(options_dict, "temporary_tag", "");
    batch::Result result;
    {
        py::gil_scoped_release release;
        const platform::TemporaryTag tagged(tag);
        // The task's own outputs reserved, so no side file it writes takes their names.
        auto outputs = std::make_shared<SideOutputs>();
        if (auto to = batch::output_format(options))
            for (const fs::path& file : formats::output_files(**to, task.output))
                outputs->reserve(file);
        result = batch::convert(options, task, outputs);
    }
    return result_dict(result);
}

std::string report(const py::dict& options_dict, const py::list& task_entries,
                   const py::list& result_entries, unsigned jobs, double seconds) {
    if (task_entries.size() != result_entries.size())
        throw py::value_error("report: one result per task");
    std::vector<batch::Task> tasks;
    std::vector<batch::Result> results;
    for (py::handle entry : task_entries) tasks.push_back(task_from(entry.cast<py::dict>()));
    for (py::handle entry : result_entries)
        results.push_back(entry.is_none() ? batch::Result{} : result_from(entry.cast<py::dict>()));
    return batch::report(options_from(options_dict), tasks, results, jobs, seconds);
}

py::list side_files(const py::dict& options_dict, const py::dict& task_entry) {
    const batch::Options options = options_from(options_dict);
    const batch::Task task = task_from(task_entry);
    std::vector<fs::path> found;
    {
        py::gil_scoped_release release;
        found = batch::side_files(options, task);
    }
    py::list out;
    for (const fs::path& path : found) out.append(utf8(path));
    return out;
}

py::bytes read_sent(const py::dict& options_dict, const fs::path& path) {
    const batch::Options options = options_from(options_dict);
    auto bytes = [&] {
        py::gil_scoped_release release;
        return batch::read_sent_file(options, path);
    }();
    if (!bytes) raise_error(bytes.error());
    return py::bytes(reinterpret_cast<const char*>(bytes->data()), bytes->size());
}

// (the names taken by other files, an error or None): place_outputs.
py::tuple place(const py::dict& options_dict, const py::dict& task_entry, const py::list& written) {
    const batch::Options options = options_from(options_dict);
    const batch::Task task = task_from(task_entry);
    std::vector<batch::OutputFile> files;
    for (py::handle item : written) {
        const py::tuple pair = item.cast<py::tuple>();
        const std::string_view data = pair[1].cast<std::string_view>();
        const auto* begin = reinterpret_cast<const std::byte*>(data.data());
        files.push_back({pair[0].cast<fs::path>(), {begin, begin + data.size()}});
    }
    Expected<std::vector<fs::path>> placed = [&] {
        py::gil_scoped_release release;
        return batch::place_outputs(options, task, files);
    }();
    if (!placed) return py::make_tuple(py::list(), py::cast(placed.error()));
    py::list taken;
    for (const fs::path& path : *placed) taken.append(utf8(path));
    return py::make_tuple(taken, py::none());
}

py::dict relocated(const py::dict& result_entry, const py::dict& task_entry,
                   const std::vector<batch::PathPrefix>& files,
                   const std::vector<batch::PathPrefix>& folders) {
    return result_dict(
        batch::relocated(result_from(result_entry), task_from(task_entry), files, folders));
}

py::tuple files(const fs::path& folder, bool recursive, bool allow_any_path) {
    Diagnostics skipped;
    auto found = batch::readable_files(folder, recursive, allow_any_path, skipped);
    if (!found) raise_error(found.error());
    py::list out;
    for (const fs::path& path : *found) out.append(utf8(path));
    return py::make_tuple(out, diagnostics_list(skipped));
}

}  // namespace

void register_batch(py::module_& m) {
    m.def("batch_files", &files, py::arg("folder"), py::arg("recursive"), py::arg("allow_any_path"),
          "(files castkit reads under `folder`, sorted; links skipped as io.link-outside)");
    m.def(
        "batch_shown",
        [](const py::tuple& value) { return diagnostics_list(diagnostics_from(value)); },
        py::arg("diagnostics"),
        "What a user is shown of a result's warnings or errors: a list of Diagnostic, with one "
        "'... and N more' per kind only counted");
    m.def("batch_failure", &batch::task_failure, py::arg("input"), py::arg("reason"),
          "The io.worker-failed finding for a task that ended without a result");
    m.def("batch_plan", &plan, py::arg("options"),
          "The folder conversion's tasks (castkit/batch.hpp): (tasks, skipped), each task a "
          "dict (input, output, bytes, fresh, warnings); output folders are made");
    m.def("batch_convert", &convert, py::arg("options"), py::arg("task"),
          "Converts one task of batch_plan: a dict (status, warnings, errors, output_bytes, "
          "milliseconds)");
    m.def("batch_side_files", &side_files, py::arg("options"), py::arg("task"),
          "The files converting a task may read besides its input and the animations, found "
          "under the side-file policy (castkit/batch.hpp, side_files): what a run whose workers "
          "do not see the client's folders sends with the input");
    m.def("batch_read", &read_sent, py::arg("options"), py::arg("path"),
          "The bytes of a task's input, side file or animation as a bytes-only run sends them "
          "(castkit/batch.hpp, read_sent_file): read from the descriptor that was checked to lie "
          "inside the run's folders");
    m.def("batch_place", &place, py::arg("options"), py::arg("task"), py::arg("files"),
          "Writes the files a worker wrote for a task, [(path, bytes)], where the client keeps "
          "them (castkit/batch.hpp, place_outputs): (the side-output names other files hold, "
          "to convert again with in task['taken'], or []; a Diagnostic when refused, or None)");
    m.def("batch_relocated", &relocated, py::arg("result"), py::arg("task"), py::arg("files"),
          py::arg("folders"),
          "A worker's result of batch_convert for `task` (sent without its warnings), with the "
          "plan's warnings first and its findings' paths put back in the client's spelling: "
          "files [(worker prefix, client spelling)], folders [(worker text, client text)]");
    m.def("batch_report", &report, py::arg("options"), py::arg("tasks"), py::arg("results"),
          py::arg("jobs"), py::arg("seconds"),
          "The JSON report of `castkit convert DIR --report` for these tasks and results (None "
          "for a task not started)");
}

}  // namespace castkit::python

// castkit.Document and the module's functions over whole files: open, read, write, to_bytes,
// convert, merge, validate, formats.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <castkit/cast/validate.hpp>
#include <castkit/registry.hpp>
#include <castkit/scene/events.hpp>
#include <castkit/scene/merge.hpp>
#include <castkit/sink.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"

namespace castkit::python {

namespace fs = std::filesystem;

namespace {

std::string known_formats() {
    std::string out;
    for (const FormatInfo& format : all_formats())
        out += (out.empty() ? "" : ", ") + std::string(format.name);
    return out;
}

// The format `name` names, else the one the extension of `path` names, else null.
const FormatInfo* named_or_by_extension(const std::optional<std::string>& name,
                                        const fs::path& path) {
    if (!name) return format_for_path(path);
    if (const FormatInfo* format = format_by_name(*name)) return format;
    raise_error("unknown format '" + *name + "' (castkit knows " + known_formats() + ")",
                "python.format");
}

[[noreturn]] void cannot_tell(const fs::path& path, const char* from) {
    raise_error(path.string() + ": cannot tell the format from " + from + "; pass format= (" +
                    known_formats() + ")",
                "python.format");
}

// The format `name` names, else the one the extension of `path` names.
const FormatInfo& pick_format(const std::optional<std::string>& name, const fs::path& path) {
    if (const FormatInfo* format = named_or_by_extension(name, path)) return *format;
    cannot_tell(path, "the extension");
}

// The format `name` names; Cast when it names none.
const FormatInfo& named_format(const std::optional<std::string>& name) {
    return name ? pick_format(name, {}) : cast_format();
}

// Parses `input` with `format` into a new DocState that registers the input's storage. The GIL
// is released while parsing: nothing else can see the new state yet.
DocPtr read_into_state(const FormatInfo& format, const formats::Input& input,
                       const ReadContext& context) {
    auto state = std::make_shared<DocState>();
    state->register_buffer(input);
    Expected<cast::Document> document = [&] {
        py::gil_scoped_release release;
        return formats::read(format, input, context, state->read_warnings);
    }();
    if (!document) raise_error(document.error());
    state->document = std::move(*document);
    state->format = std::string(format.name);
    state->base = context.base;
    return state;
}

// Reads `path` in the format `format_name` names, else the one its extension names, else the one
// its first bytes name (format_for_bytes), as `castkit` does. Images the file embeds travel in the
// document (cast::Document::embedded).
DocPtr open_path(const fs::path& path, const std::optional<std::string>& format_name) {
    const FormatInfo* format = named_or_by_extension(format_name, path);
    // Read into memory, never mapped: the interpreter (and Blender around it) keeps the document
    // while other programs may rewrite or truncate the file, and a mapping of a file that
    // shrank kills the process when its lost pages are touched (docs/security.md).
    Expected<formats::Input> input = [&] {
        py::gil_scoped_release release;
        return formats::read_input(path, formats::InputMode::Copy);
    }();
    if (!input) raise_error(input.error());
    if (format == nullptr) format = format_for_bytes(input->bytes);
    if (format == nullptr) cannot_tell(path, "the extension or the contents");
    const ReadContext context = formats::context_for(path);
    return read_into_state(*format, *input, context);
}

DocPtr read_bytes(const Typed<types::Buffer>& data, const std::optional<std::string>& format_name,
                  const std::string& name, const std::optional<fs::path>& base) {
    const FormatInfo& format = named_format(format_name);
    // One copy of the caller's bytes, which the document then owns and its arrays view: the
    // caller may change or free the buffer afterwards.
    Py_buffer view;
    if (PyObject_GetBuffer(data.ptr(), &view, PyBUF_SIMPLE) != 0) throw py::error_already_set();
    const auto* begin = static_cast<const std::byte*>(view.buf);
    auto buffer = std::make_shared<const std::vector<std::byte>>(begin, begin + view.len);
    PyBuffer_Release(&view);
    const formats::Input input{cast::Bytes(*buffer), buffer};
    ReadContext context;
    context.name = name;
    if (base) context.base = *base;
    return read_into_state(format, input, context);
}

// `word` parsed by `parse`, or ValueError naming `argument` and the `words` it takes.
template <class T, class Words>
std::optional<T> named(const std::optional<Word<Words>>& word,
                       std::optional<T> (*parse)(std::string_view), const char* argument,
                       const char* words) {
    if (!word) return std::nullopt;
    if (auto value = parse(word->text)) return value;
    throw py::value_error(std::string(argument) + ": '" + word->text + "' is not one of " + words);
}

// Turns and scales the document as `castkit convert --up/--units/--scale` does; its warnings.
// ValueError for a scale that is not a number above zero, or that a float cannot scale by.
Diagnostics change_axes(const DocPtr& state, const scene::AxesRequest& request) {
    const FormatInfo& format = state->format.empty() ? cast_format() : named_format(state->format);
    Diagnostics diagnostics;
    const std::string name = state->document.source_name;
    auto change =
        scene::plan_axis_change(state->document, request, declared_axes(format), name, diagnostics);
    if (!change) throw py::value_error(change.error().to_string());
    if (auto applied = formats::apply_axis_change(state->document, *change, name, diagnostics);
        !applied)
        throw py::value_error(applied.error().to_string());
    return diagnostics;
}

using Textures = Word<types::TextureWords>;

ListOf<Diagnostic> write_path(const DocPtr& state, const fs::path& path,
                              const std::optional<std::string>& format_name,
                              const Textures& textures, bool strict) {
    const FormatInfo& format = pick_format(format_name, path);
    WriteContext context = formats::context_for(
        path, {.textures = texture_mode(textures, "textures"), .strict = strict});
    context.base = state->base;
    Diagnostics diagnostics;
    unwrap(formats::write_file(format, state->document, path, context, diagnostics));
    return diagnostics_list(diagnostics);
}

// convert(events=PATH): every clip's events of the document written to `destination`, a side
// output that never replaces a file this call did not write (docs/events.md).
ListOf<Diagnostic> write_events_beside(const DocPtr& state, const fs::path& destination,
                                       const fs::path& events) {
    SideOutputs outputs;
    outputs.reserve(destination);
    Diagnostics diagnostics;
    unwrap(scene::write_events(state->document, events, outputs, diagnostics));
    return diagnostics_list(diagnostics);
}

py::bytes to_bytes(const DocPtr& state, const std::optional<std::string>& format_name,
                   const Typed<types::Warnings>& warnings, const Textures& textures, bool strict) {
    const FormatInfo& format = named_format(format_name);
    // Bytes have no folder beside them: textures are embedded or referenced, never copied
    // (a .gltf would otherwise copy them into the working folder).
    if (textures.text != "embed" && textures.text != "reference")
        throw py::value_error(
            "textures: to_bytes embeds textures or references them ('embed' "
            "or 'reference'), not '" +
            textures.text + "'");
    BufferSink sink;
    WriteContext context;
    context.options.textures = texture_mode(textures, "textures");
    context.options.strict = strict;
    context.name = state->document.source_name;
    context.base = state->base;
    Diagnostics diagnostics;
    unwrap(formats::write(format, state->document, sink, context, diagnostics));
    if (!warnings.is_none())
        for (py::handle w : diagnostics_list(diagnostics)) warnings.attr("append")(w);
    return py::bytes(reinterpret_cast<const char*>(sink.bytes.data()), sink.bytes.size());
}

// The reader's findings, then the validator's; strict makes every warning an error.
ListOf<Diagnostic> validate_state(const DocState& state, bool strict) {
    Diagnostics diagnostics = state.read_warnings;
    cast::validate(state.document, diagnostics);
    if (strict) diagnostics.promote(Severity::Warning, Severity::Error);
    return diagnostics_list(diagnostics);
}

ListOf<NodeRef> top_level(const DocPtr& state) {
    py::list out;
    for (cast::Node& root : state->document.roots()) out.append(wrap_node(state, &root, nullptr));
    return out;
}

// A copy of `source` that shares its buffers: nodes are cloned (a clone keeps the handles of
// payloads that have an owner and copies borrowed ones), so the copy's arrays view the same
// storage and changing the copy leaves `source` as it was.
DocPtr clone_state(const DocState& source) {
    auto state = std::make_shared<DocState>();
    state->document = source.document.clone();
    state->format = source.format;
    state->read_warnings = source.read_warnings;
    state->base = source.base;
    state->buffers = source.buffers;
    return state;
}

// A Document as it is, or a path read as open() reads it; with the name its unnamed animations
// take. The reader's warnings of a path read here go to `read_warnings` (a Document given
// keeps its own in Document.warnings).
std::pair<DocPtr, std::string> document_or_file(const py::handle& target,
                                                Diagnostics& read_warnings) {
    if (py::isinstance<DocState>(target)) {
        DocPtr state = target.cast<DocPtr>();
        // The name it was read under (a path, or "<bytes>"), as `castkit convert` names them.
        return {state, file_stem(fs::path(state->document.source_name))};
    }
    const fs::path path = target.cast<fs::path>();
    DocPtr state = open_path(path, std::nullopt);
    read_warnings.append(state->read_warnings);
    return {state, file_stem(path)};
}

// Each of `diagnostics` as a Python UserWarning (the text `castkit convert` prints on stderr);
// raises when a warnings filter makes them errors.
void emit_warnings(const Diagnostics& diagnostics) {
    for (const Diagnostic& d : diagnostics.shown())
        if (PyErr_WarnEx(PyExc_UserWarning, d.to_string().c_str(), 1) != 0)
            throw py::error_already_set();
}

DocPtr merge_documents(const Typed<types::DocumentOrPath>& model, const py::args& animations,
                       const Typed<types::Warnings>& warnings,
                       const Typed<types::OptionalDocumentOrPath>& base,
                       std::optional<float> base_frame) {
    // What `castkit convert MODEL ANIM... -o OUT` prints: the readers' warnings of the files
    // read here, then the merge's (curves naming nothing, dropped).
    Diagnostics diagnostics;
    DocPtr merged = clone_state(*document_or_file(model, diagnostics).first);
    std::vector<scene::AnimationSource> sources;
    for (py::handle animation : animations) {
        auto [original, name] = document_or_file(animation, diagnostics);
        DocPtr source = clone_state(*original);
        merged->buffers.insert(source->buffers.begin(), source->buffers.end());
        sources.push_back({std::move(source->document), name.empty() ? "animation" : name});
    }
    // base: additive animations are layered on it before they merge (convert --base).
    DocPtr under = base.is_none() ? nullptr : document_or_file(base, diagnostics).first;
    scene::merge(merged->document, std::move(sources),
                 {.document = under ? &under->document : nullptr, .frame = base_frame},
                 diagnostics);
    for (const Diagnostic& d : diagnostics)
        if (d.severity == Severity::Error) raise_error(d);
    // Never silent: collected in the list given, else shown as Python warnings.
    if (warnings.is_none())
        emit_warnings(diagnostics);
    else
        for (py::handle w : diagnostics_list(diagnostics)) warnings.attr("append")(w);
    return merged;
}

}  // namespace

scene::AxesRequest axes_request(const AxisWord& up, const AxisWord& from_up, const UnitWord& units,
                                const UnitWord& from_units, double scale) {
    constexpr const char* kAxes = "x, y, z";
    constexpr const char* kUnits = "mm, cm, m, in, ft";
    return {.up = named(up, &cast::axis_from_name, "up", kAxes),
            .from_up = named(from_up, &cast::axis_from_name, "from_up", kAxes),
            .units = named(units, &scene::units_from_name, "units", kUnits),
            .from_units = named(from_units, &scene::units_from_name, "from_units", kUnits),
            .scale = scale};
}

anim::RootMotion root_motion(const std::string& name, const char* option) {
    if (auto mode = anim::root_motion_from_name(name)) return *mode;
    throw py::value_error(std::string(option) + ": '" + name + "' is not keep, strip or extract");
}

Diagnostics move_root_motion(const DocPtr& state, anim::RootMotion mode,
                             const std::string& root_bone, std::optional<cast::Axis> from_up) {
    const FormatInfo& format = state->format.empty() ? cast_format() : named_format(state->format);
    Diagnostics warnings;
    const anim::RootMotionJob job{
        .mode = mode,
        .document = &state->document,
        .up = from_up.value_or(scene::file_up_axis(state->document, declared_axes(format))),
        .root_bone = root_bone,
        .name = state->document.source_name,
        .warnings = &warnings};
    unwrap(job.run());
    return warnings;
}

TextureMode texture_mode(const std::string& name, const char* option) {
    if (name == "automatic") return TextureMode::Automatic;
    if (name == "embed") return TextureMode::Embed;
    if (name == "copy") return TextureMode::Copy;
    if (name == "reference") return TextureMode::Reference;
    throw py::value_error(std::string(option) + ": '" + name +
                          "' is not automatic, embed, copy or reference");
}

ListOf<Diagnostic> diagnostics_list(const Diagnostics& diagnostics) {
    py::list out;
    for (const Diagnostic& d : diagnostics.shown()) out.append(py::cast(d));
    return out;
}

namespace {

// Document: its constructor, attributes and methods.
void define_document() {
    declared<DocState, DocPtr>()
        .def(py::init([] { return std::make_shared<DocState>(); }))
        .def_property(
            "version", [](const DocState& s) { return s.document.version; },
            [](DocState& s, std::uint32_t v) { s.document.version = v; })
        .def_property(
            "flags", [](const DocState& s) { return s.document.flags; },
            [](DocState& s, std::uint32_t v) { s.document.flags = v; })
        .def_property(
            "source_name", [](const DocState& s) { return to_str(s.document.source_name); },
            [](DocState& s, const py::str& v) { s.document.source_name = encode(v); },
            "The name diagnostics give (the path it was read from)")
        .def_property_readonly(
            "format",
            [](const DocState& s) -> Typed<types::OptionalStr> {
                if (s.format.empty()) return py::none();
                return py::str(s.format);
            },
            "The format it was read from ('cast', 'glb', ...), None when built in Python")
        .def_property_readonly(
            "warnings", [](const DocState& s) { return diagnostics_list(s.read_warnings); },
            "What the reader found but read anyway (list of Diagnostic)")
        .def_property_readonly("roots", &top_level,
                               "Every top-level node (Root, or Node for other ids)")
        .def_property_readonly(
            "root_nodes", [](const DocPtr& s) { return wrap_views(s, s->document.root_nodes()); },
            "The top-level Root nodes")
        .def_property_readonly(
            "models", [](const DocPtr& s) { return wrap_views(s, s->document.models()); },
            "Every Model under every Root, in file order")
        .def_property_readonly(
            "animations", [](const DocPtr& s) { return wrap_views(s, s->document.animations()); },
            "Every Animation under every Root, in file order")
        .def(
            "add_root",
            [](const DocPtr& s) { return NodeOf<RootRef>(wrap_view(s, s->document.add_root())); },
            "Appends a new Root with a fresh hash")
        .def("write", &write_path, py::arg("path"), py::arg("format") = py::none(),
             py::arg("textures") = "automatic", py::arg("strict") = false,
             "Writes the file atomically in `format` (default: from the extension); returns "
             "the writer's warnings (what the format cannot hold). glTF `textures`: "
             "'automatic' (embedded in .glb, copied beside .gltf), 'embed', 'copy', "
             "'reference'. A broken mesh loses the broken part with a warning, or with "
             "`strict` raises castkit.Error and writes nothing")
        .def(
            "change_axes",
            [](const DocPtr& state, const AxisWord& up, const UnitWord& units, double scale,
               const AxisWord& from_up, const UnitWord& from_units,
               const Typed<types::Warnings>& warnings) {
                const Diagnostics found =
                    change_axes(state, axes_request(up, from_up, units, from_units, scale));
                if (warnings.is_none())
                    emit_warnings(found);
                else
                    for (py::handle w : diagnostics_list(found)) warnings.attr("append")(w);
            },
            py::kw_only(), py::arg("up") = py::none(), py::arg("units") = py::none(),
            py::arg("scale") = 1.0, py::arg("from_up") = py::none(),
            py::arg("from_units") = py::none(), py::arg("warnings") = py::none(),
            "Turns the whole scene so `up` ('x', 'y', 'z') is up and scales every length to "
            "`units` ('mm', 'cm', 'm', 'in', 'ft') times `scale`: meshes, rests, curves, rig "
            "offsets and instance transforms together, as `castkit convert --up/--units/--scale` "
            "(docs/animation.md, \"Axes and units\"). The file's own up axis and units come from "
            "`from_up`/`from_units`, else the file or its format, else are assumed with an "
            "`axes.assumed` warning; warnings are appended to `warnings` (a list) or issued.")
        .def("to_bytes", &to_bytes, py::arg("format") = py::none(),
             py::arg("warnings") = py::none(), py::arg("textures") = "embed",
             py::arg("strict") = false,
             "The file's bytes in `format` (default: Cast); the writer's warnings are appended to "
             "`warnings` when it is a list. glTF textures are embedded (or 'reference'd), never "
             "copied. `strict` as for write()")
        .def("validate", &validate_state, py::arg("strict") = false,
             "Every validation finding (list of Diagnostic)")
        .def("__repr__", [](const DocState& s) {
            std::size_t models = s.document.models().size();
            std::size_t animations = s.document.animations().size();
            return to_str("<castkit.Document " +
                          (s.document.source_name.empty() ? std::string("(unnamed)")
                                                          : "'" + s.document.source_name + "'") +
                          ": " + std::to_string(s.document.roots().size()) + " roots, " +
                          std::to_string(models) + " models, " + std::to_string(animations) +
                          " animations>");
        });
}

// The functions over whole files that read: open, read, validate, formats.
void define_reading(py::module_& m) {
    m.def(
        "open",
        [](const fs::path& path, const std::optional<std::string>& format) {
            return open_path(path, format);
        },
        py::arg("path"), py::arg("format") = py::none(),
        "Reads a file in `format` (default: from the extension). The file is read into memory "
        "once (never mapped: it may change afterwards) and Cast arrays view that memory.");
    m.def("read", &read_bytes, py::arg("data"), py::arg("format") = py::none(),
          py::arg("name") = "<bytes>", py::arg("base") = py::none(),
          "Reads a file's bytes (bytes, bytearray, memoryview: copied once) in `format` (default: "
          "Cast); `name` is what errors call it, `base` the folder side files resolve against.");
    m.def(
        "validate",
        [](const Typed<types::DocumentOrPath>& target, bool strict,
           const std::optional<std::string>& format) -> ListOf<Diagnostic> {
            if (py::isinstance<DocState>(target))
                return validate_state(target.cast<const DocState&>(), strict);
            const fs::path path = target.cast<fs::path>();
            try {
                return validate_state(*open_path(path, format), strict);
            } catch (py::error_already_set& error) {
                if (!error.matches(error_type())) throw;
                // As `castkit validate`: a file that cannot be read is one finding, with the
                // reader's own id (cast.truncated, as castkit.open raises it).
                py::object diagnostic = error.value().attr("diagnostic");
                Diagnostic d = diagnostic.cast<Diagnostic>();
                if (d.file.empty()) d.file = path.string();
                py::list out;
                out.append(py::cast(d));
                return out;
            }
        },
        py::arg("target"), py::arg("strict") = false, py::arg("format") = py::none(),
        "Checks a Document, or a file (a path), against every rule of the spec; returns the "
        "findings (list of Diagnostic). A file that cannot be read gives one error.");
    m.def(
        "formats",
        []() -> ListOf<Typed<types::Fields>> {
            py::list out;
            for (const FormatInfo& format : all_formats()) {
                py::dict entry;
                entry["name"] = std::string(format.name);
                py::list extensions;
                for (std::string_view ext : format.extensions) extensions.append(std::string(ext));
                entry["extensions"] = extensions;
                entry["read"] = format.read != nullptr;
                entry["write"] = format.write != nullptr;
                out.append(entry);
            }
            return out;
        },
        "Every format castkit reads or writes: dicts with name, extensions, read, write.");
}

// The functions that make new files or documents: convert, merge.
void define_converting(py::module_& m) {
    m.def(
        "convert",
        [](const fs::path& source, const fs::path& destination,
           const std::optional<std::string>& from_format,
           const std::optional<std::string>& to_format, const Textures& textures, bool strict,
           const AxisWord& up, const UnitWord& units, double scale, const AxisWord& from_up,
           const UnitWord& from_units, const Typed<types::Sphere>& within,
           const Typed<types::Box>& box, std::vector<std::string> include,
           std::vector<std::string> exclude, const std::optional<fs::path>& events,
           const std::optional<fs::path>& model,
           const Word<types::RootMotionWords>& root_motion_word, const std::string& root_bone) {
            const FormatInfo& to = pick_format(to_format, destination);
            const anim::RootMotion motion = root_motion(root_motion_word, "root_motion");
            const scene::AxesRequest axes = axes_request(up, from_up, units, from_units, scale);
            const scene::InstanceSelection selection =
                selection_from(within, box, std::move(include), std::move(exclude));
            // As `castkit convert`: images embedded in the input (glTF, DMF) travel in the
            // document, and the writer embeds them again or writes them beside the output.
            DocPtr state = open_path(source, from_format);
            ListOf<Diagnostic> warnings = diagnostics_list(state->read_warnings);
            if (!selection.empty()) {
                Diagnostics selected;
                scene::select_instances(state->document, selection, state->document.source_name,
                                        selected);
                for (py::handle w : diagnostics_list(selected)) warnings.attr("append")(w);
            }
            // As `castkit convert --model`: an animation file alone plays on the model's bones.
            if (model)
                unwrap(scene::lend_skeleton(state->document, open_path(*model, {})->document));
            for (py::handle w :
                 diagnostics_list(move_root_motion(state, motion, root_bone, axes.from_up)))
                warnings.attr("append")(w);
            if (!axes.empty())
                for (py::handle w : diagnostics_list(change_axes(state, axes)))
                    warnings.attr("append")(w);
            for (py::handle w :
                 write_path(state, destination, std::string(to.name), textures, strict))
                warnings.attr("append")(w);
            if (events)
                for (py::handle w : write_events_beside(state, destination, *events))
                    warnings.attr("append")(w);
            return warnings;
        },
        py::arg("source"), py::arg("destination"), py::arg("from_format") = py::none(),
        py::arg("to_format") = py::none(), py::arg("textures") = "automatic",
        py::arg("strict") = false, py::kw_only(), py::arg("up") = py::none(),
        py::arg("units") = py::none(), py::arg("scale") = 1.0, py::arg("from_up") = py::none(),
        py::arg("from_units") = py::none(), py::arg("within") = py::none(),
        py::arg("box") = py::none(), py::arg("include") = std::vector<std::string>{},
        py::arg("exclude") = std::vector<std::string>{}, py::arg("events") = py::none(),
        py::arg("model") = py::none(), py::arg("root_motion") = "keep", py::arg("root_bone") = "",
        "Converts one file to another format (default: from the extensions); returns the "
        "reader's and writer's warnings. `strict`: a broken mesh raises castkit.Error and "
        "nothing is written, as `castkit convert --strict`. `up` ('x', 'y', 'z'), `units` "
        "('mm', 'cm', 'm', 'in', 'ft'), `scale`, `from_up` and `from_units` turn and scale the "
        "whole scene as `castkit convert --up/--units/--scale/--from-up/--from-units` do. "
        "`within` (x, y, z, radius), `box` (x0, y0, z0, x1, y1, z1) and the globs `include` "
        "and `exclude` keep a map's Instances as `--within/--box/--include/--exclude` do, "
        "before the axes turn. `events` (a path) also writes every clip's events there, as "
        "`castkit convert --events` (docs/events.md). `model` (a path) lends an animation "
        "file alone its skeleton, as `--model`; `root_motion` ('keep', 'strip', 'extract') and "
        "`root_bone` move the root bone's motion as `--root-motion` and `--root-bone` do, "
        "before the axes turn.");
    m.def("merge", &merge_documents, py::arg("model"), py::arg("warnings") = py::none(),
          py::arg("base") = py::none(), py::arg("base_frame") = py::none(),
          "merge(model, *animations, warnings=None, base=None, base_frame=None) -> Document\n\n"
          "A new Document: `model` (a Document or a path) with the animations of each of "
          "`animations` (Documents or paths) moved onto its skeleton, as `castkit convert "
          "model anim... -o out` does. Animations keep their names, else take their file's "
          "stem. The inputs are left unchanged; curves naming nothing in the model are dropped "
          "with a warning. The warnings `castkit convert` prints (those of the files read from "
          "paths, then the merge's) are appended to `warnings` when it is a list, else issued "
          "as Python warnings (UserWarning); an animation matching nothing raises "
          "castkit.Error. With `base` (a Document or a path), each animation holding an "
          "additive curve is first layered on the base's first animation (at the same time, or "
          "at its frame `base_frame`) and merged as absolute motion, as `castkit convert "
          "--base`.");
}

}  // namespace

void register_document(py::module_& m) {
    define_document();
    define_reading(m);
    define_converting(m);
}

}  // namespace castkit::python

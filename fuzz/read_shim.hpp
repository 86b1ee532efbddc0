// The one place the fuzz harnesses and the corruption tests call a format's reader: bytes in, a
// Cast document out. When the readers move to one signature, only this file changes.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/formats/dmf.hpp>
#include <castkit/formats/gltf.hpp>
#include <castkit/formats/k3d.hpp>
#include <castkit/formats/seanim.hpp>
#include <castkit/formats/semodel.hpp>
#include <castkit/registry.hpp>
#include <string>
#include <string_view>

namespace castkit::fuzz {

// Every reader the harnesses cover, by the registry's format name.
inline constexpr std::string_view kReaders[] = {"cast",     "seanim", "semodel", "dmf",
                                                "dmf-json", "k3d",    "glb",     "gltf"};

// Reads `bytes` as `format` (a name in kReaders) into a Cast document; `file` names it in
// diagnostics. O(input size), as each reader is.
inline Expected<cast::Document> read_directly(std::string_view format, cast::Bytes bytes,
                                              const std::string& file, Diagnostics& warnings) {
    if (format == "cast") return cast::read(bytes, file, warnings);
    if (format == "seanim") {
        auto animation = seanim::read(bytes, file, warnings);
        if (!animation) return make_error(animation.error());
        return seanim::to_cast(*animation, warnings);
    }
    if (format == "semodel") {
        auto model = semodel::read(bytes, file, warnings);
        if (!model) return make_error(model.error());
        return semodel::to_cast(std::move(*model), warnings);
    }
    if (format == "dmf" || format == "dmf-json") {
        auto model =
            format == "dmf"
                ? dmf::read(bytes, file, warnings)
                : dmf::read_json(
                      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                      file, warnings);
        if (!model) return make_error(model.error());
        return dmf::to_cast(*model, file, warnings);
    }
    if (format == "k3d") {
        auto model = k3d::read(bytes, file, warnings);
        if (!model) return make_error(model.error());
        return k3d::to_cast(*model, file, warnings);
    }
    ReadContext context;
    context.name = file;
    if (format == "glb" || format == "gltf") return gltf::read(bytes, context, warnings);
    // A format registered at run time (fuzz/off_fuzzer.cpp): through the registry.
    return formats::read(*format_by_name(format), {bytes, nullptr}, context, warnings);
}

// read_directly, with the registry's catch-all id ("<format>.read") on an error that has no
// finer one, as formats::read (and so every CLI command) reports it.
inline Expected<cast::Document> read_as(std::string_view format, cast::Bytes bytes,
                                        const std::string& file, Diagnostics& warnings) {
    auto document = read_directly(format, bytes, file, warnings);
    if (document || !document.error().rule.empty()) return document;
    Diagnostic error = document.error();
    error.rule = std::string(format) + ".read";
    return make_error(std::move(error));
}

}  // namespace castkit::fuzz

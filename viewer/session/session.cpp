// The viewer's scene: files read through the format registry, merged, exported as glb, and
// described as JSON (session.hpp).
#include "session.hpp"

#include <algorithm>
#include <castkit/cast/dump.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/cast/validate.hpp>
#include <castkit/registry.hpp>
#include <castkit/scene/merge.hpp>
#include <nlohmann/json.hpp>
#include <set>

namespace castkit::viewer {

struct Session::Scene {
    cast::Document document;
    Diagnostics warnings;  // what merging said
};

namespace {

using nlohmann::json;

Expected<cast::Document> read(const std::string& name, const cast::SharedBytes& bytes,
                              const std::filesystem::path& base, const FormatOptions& options,
                              Diagnostics& warnings) {
    const FormatInfo* format = format_for_path(name);
    if (format == nullptr)
        return make_error(Diagnostic{Severity::Error, name, Diagnostic::kNoOffset, "/",
                                     "viewer.format",
                                     "castkit cannot tell this file's format from its name"});
    const ReadContext context{.name = name, .base = base, .options = options};
    return formats::read(*format, bytes, context, warnings);
}

bool has_instances(const cast::Document& document) {
    for (const cast::ConstRoot& root : document.root_nodes())
        if (!root.instances().empty()) return true;
    return false;
}

// Models, or Instances of other files (a scene): what a file needs to be shown as the model.
bool has_scene_content(const cast::Document& document) {
    return !document.models().empty() || has_instances(document);
}

// `value` as text; names from files are bytes that need not be UTF-8, and they are shown with
// U+FFFD where they are not (dump() would throw).
std::string dump(const json& value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

json diagnostic_json(const Diagnostic& d) {
    return {{"file", d.file},
            {"severity", severity_name(d.severity)},
            {"id", d.rule},
            {"offset", d.offset == Diagnostic::kNoOffset ? json(nullptr) : json(d.offset)},
            {"path", d.path},
            {"message", d.message},
            {"text", d.to_string()}};
}

// The last frame any curve or notification of `animation` keys (0 without keys).
std::uint32_t last_frame(const cast::ConstAnimation& animation) {
    std::uint32_t last = 0;
    for (const cast::ConstCurve& curve : animation.curves()) {
        const cast::IndexView frames = curve.key_frames();
        if (!frames.empty()) last = std::max(last, frames[frames.size() - 1]);
    }
    for (const cast::ConstNotificationTrack& track : animation.notification_tracks()) {
        const cast::IndexView frames = track.key_frames();
        for (std::size_t i = 0; i < frames.size(); ++i) last = std::max(last, frames[i]);
    }
    return last;
}

json animation_json(const cast::ConstAnimation& animation) {
    json notifications = json::array();
    for (const cast::ConstNotificationTrack& track : animation.notification_tracks())
        notifications.push_back(
            {{"name", track.name().value_or("")}, {"frames", track.key_frames().to_vector()}});
    return {{"name", animation.name().value_or("animation")},
            {"framerate", animation.framerate().value_or(30.0f)},
            {"frames", last_frame(animation)},
            {"looping", animation.looping()},
            {"curves", animation.curves().size()},
            {"notifications", std::move(notifications)}};
}

void describe_model(const cast::Document& document, json& out) {
    json bones = json::array(), shapes = json::array();
    std::size_t meshes = 0, models = 0;
    for (const cast::ConstModel& model : document.models()) {
        ++models;
        meshes += model.meshes().size();
        if (const cast::ConstSkeleton skeleton = model.skeleton())
            for (const cast::ConstBone& bone : skeleton.bones())
                bones.push_back(
                    {{"name", bone.name().value_or("")}, {"parent", bone.parent_index()}});
        for (const cast::ConstBlendShape& shape : model.blend_shapes())
            shapes.push_back(shape.name().value_or(""));
    }
    out["bones"] = std::move(bones);
    out["blend_shapes"] = std::move(shapes);
    out["meshes"] = meshes;
    out["models"] = models;
    std::size_t instances = 0;
    for (const cast::ConstRoot& root : document.root_nodes()) instances += root.instances().size();
    out["instances"] = instances;
}

}  // namespace

Expected<void> Session::add(std::string name, cast::SharedBytes bytes, std::filesystem::path base) {
    // What the reader said, then `castkit validate`'s findings: one sink, as the CLI shows them.
    Diagnostics findings;
    auto document = read(name, bytes, base, options(), findings);
    if (!document) return make_error(document.error());
    const FormatInfo& format = *format_for_path(name);
    File file;
    file.name = name;
    file.format = format.name;
    file.bytes = bytes.detached();
    file.base = std::move(base);
    file.model = has_scene_content(std::as_const(*document));
    file.additive = scene::holds_additive_curve(*document);
    if (!file.model && document->animations().empty())
        return make_error(Diagnostic{Severity::Error, name, Diagnostic::kNoOffset, "/",
                                     "viewer.empty", "the file holds no model and no animation"});
    file.info = cast::info_text(*document, bytes.size(), info_options(format));
    cast::validate(*document, findings);
    json diagnostics = json::array();
    std::set<std::string> seen;
    for (const Diagnostic& d : findings.shown())
        if (seen.insert(d.to_string()).second) diagnostics.push_back(diagnostic_json(d));
    file.diagnostics_json = dump(diagnostics);
    files_.push_back(std::move(file));
    built_.reset();
    return {};
}

Expected<void> Session::set_base(std::string file, std::optional<float> frame) {
    const bool known = std::any_of(files_.begin(), files_.end(),
                                   [&](const File& f) { return !f.model && f.name == file; });
    if (!file.empty() && !known)
        return make_error(Diagnostic{Severity::Error, file, Diagnostic::kNoOffset, "/",
                                     "viewer.base",
                                     "the base of additive animations must be an animation "
                                     "file shown in the page"});
    base_file_ = std::move(file);
    base_frame_ = base_file_.empty() ? std::nullopt : frame;
    built_.reset();
    return {};
}

void Session::clear() {
    files_.clear();
    export_warnings_.clear();
    errors_.clear();
    base_file_.clear();
    base_frame_.reset();
    built_.reset();
}

FormatOptions Session::options() const {
    FormatOptions options;
    options.side_outputs = side_outputs_;
    return options;
}

// The file whose document is shown: the last one with models, else (animations only) the last.
const Session::File* Session::shown() const {
    if (files_.empty()) return nullptr;
    const auto model =
        std::find_if(files_.rbegin(), files_.rend(), [](const File& f) { return f.model; });
    return model != files_.rend() ? &*model : &files_.back();
}

// The shown file read afresh, every animation-only file merged onto it when it is a model.
Expected<Session::Scene> Session::build() const {
    const File* base = shown();
    if (base == nullptr)
        return make_error(Diagnostic{Severity::Error, "", Diagnostic::kNoOffset, "/",
                                     "viewer.empty", "no files: drop a model and its animations"});
    Scene scene;
    Diagnostics read_again;  // each file's reading was reported when it was added
    auto document = read(base->name, base->bytes, base->base, options(), read_again);
    if (!document) return make_error(document.error());
    scene.document = std::move(*document);
    if (!base->model) return scene;
    std::vector<scene::AnimationSource> animations;
    std::optional<cast::Document> base_clip;
    for (const File& file : files_) {
        if (file.model) continue;
        auto animation = read(file.name, file.bytes, file.base, options(), read_again);
        if (!animation) continue;
        if (file.name == base_file_) base_clip = animation->clone();
        animations.push_back({std::move(*animation), file_stem(file.name)});
    }
    if (!animations.empty())
        scene::merge(scene.document, std::move(animations),
                     {.document = base_clip ? &*base_clip : nullptr, .frame = base_frame_},
                     scene.warnings);
    return scene;
}

Expected<const Session::Scene*> Session::scene() const {
    if (!built_) {
        auto built = build();
        if (!built) return make_error(built.error());
        built_ = std::make_shared<const Scene>(std::move(*built));
    }
    return built_.get();
}

std::string Session::scene_json() const {
    json out;
    json files = json::array(), diagnostics = json::array();
    for (const File& file : files_) {
        files.push_back({{"name", file.name},
                         {"format", file.format},
                         {"bytes", file.bytes.size()},
                         {"role", file.model ? "model" : "animation"},
                         {"additive", file.additive},
                         {"info", file.info}});
        for (json& d : json::parse(file.diagnostics_json)) diagnostics.push_back(std::move(d));
    }
    out["files"] = std::move(files);
    out["base"] = {{"file", base_file_.empty() ? json(nullptr) : json(base_file_)},
                   {"frame", base_frame_ ? json(*base_frame_) : json(nullptr)}};
    out["diagnostics"] = std::move(diagnostics);
    json animations = json::array(), warnings = json::array();
    auto scene = this->scene();
    if (scene) {
        for (const cast::ConstAnimation& animation : (*scene)->document.animations())
            animations.push_back(animation_json(animation));
        describe_model((*scene)->document, out);
        for (const Diagnostic& d : (*scene)->warnings.shown())
            warnings.push_back(diagnostic_json(d));
        for (const Diagnostic& d : export_warnings_) warnings.push_back(diagnostic_json(d));
    } else {
        describe_model(cast::Document{}, out);
        if (!files_.empty()) warnings.push_back(diagnostic_json(scene.error()));
    }
    out["animations"] = std::move(animations);
    out["warnings"] = std::move(warnings);
    out["errors"] = errors_;
    return dump(out);
}

// Instances are inlined (the files they name read from the shown file's folder, within the
// side-file policy), so a scene of instances shows its models; a map's are drawn instanced.
Expected<std::vector<std::byte>> Session::glb() const {
    auto scene = this->scene();
    if (!scene) return make_error(scene.error());
    BufferSink sink;
    // The export's findings name the file the user gave, not the glb the page is sent.
    WriteContext context{.name = shown()->name, .base = shown()->base, .options = options()};
    context.options.textures = TextureMode::Embed;
    context.options.inline_instances = true;
    context.options.gpu_instancing = gpu_instancing_ && has_instances((*scene)->document);
    // Through the registry, so that broken meshes are shown as every written file has them.
    Diagnostics warnings;
    auto written = formats::write(glb_format(), (*scene)->document, sink, context, warnings);
    export_warnings_.clear();
    // The session asks for instancing unasked, so an Instance file drawn as nodes instead (a
    // skinned character) is no news to the user.
    for (const Diagnostic& d : warnings.shown())
        if (d.rule != "gltf.gpu-instancing-fallback") export_warnings_.push_back(d);
    if (!written) return make_error(written.error());
    return std::move(sink.bytes);
}

}  // namespace castkit::viewer

// The check before every write: findings on the document as given, then a repaired copy.
#include "write_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <castkit/cast/values.hpp>
#include <cmath>

#include "../cast/node_path.hpp"
#include "../cast/validate/buffers.hpp"
#include "../cast/validate/checks.hpp"

namespace castkit::scene {
namespace {

namespace validation = cast::validation;

// Where a mesh is: its index in root_nodes(), in its Root's models() and its Model's meshes().
struct MeshPlace {
    std::uint32_t root = 0, model = 0, mesh = 0;
    bool operator==(const MeshPlace&) const = default;
};

// "root[0]/model[1]/mesh[2]", the node path every Cast finding gives.
std::string node_path(const MeshPlace& at) {
    const cast::PathStep root{nullptr, static_cast<std::uint32_t>(cast::NodeId::Root), at.root};
    const cast::PathStep model{&root, static_cast<std::uint32_t>(cast::NodeId::Model), at.model};
    const cast::PathStep mesh{&model, static_cast<std::uint32_t>(cast::NodeId::Mesh), at.mesh};
    return cast::format_path(&mesh);
}

// Calls visit(place, mesh, bone count of its Model's skeleton) for every mesh of the Models
// `written` names, in document order. `Document` is const for the check, mutable for the repair.
template <class Document, class Visit>
void for_each_written_mesh(Document& document, WrittenModels written, Visit&& visit) {
    if (written == WrittenModels::None) return;
    const auto roots = document.root_nodes();
    for (std::uint32_t r = 0; r < roots.size(); ++r) {
        const auto models = roots[r].models();
        for (std::uint32_t m = 0; m < models.size(); ++m) {
            auto meshes = models[m].meshes();
            const std::size_t bones = models[m].skeleton().bones().size();
            for (std::uint32_t i = 0; i < meshes.size(); ++i)
                visit(MeshPlace{r, m, i}, meshes[i], bones);
            if (written == WrittenModels::First) return;
        }
    }
}

// What is broken in one mesh, and so what its repair leaves out.
struct BrokenMesh {
    MeshPlace at;
    std::size_t bone_count = 0;
    std::vector<std::string> dropped_buffers{};  // per-vertex buffers, by name, each once
    bool drop_weights = false;                   // wb, wv and mi
    bool clear_missing_bones = false;            // the wb entries past the skeleton
    bool clear_non_finite_weights = false;       // the wv entries that are NaN or infinite
    bool drop_bad_triangles = false;
    bool refused = false;  // nothing can stand in for a part the mesh needs (its positions)

    bool broken() const {
        return !dropped_buffers.empty() || drop_weights || clear_missing_bones ||
               clear_non_finite_weights || drop_bad_triangles || refused;
    }
};

// The findings about one mesh, all at its node path: warnings that say what is left out, or
// under strict errors that say the write is refused.
class MeshFindings {
  public:
    MeshFindings(const WriteContext& context, const cast::Document& document, MeshPlace at)
        : file_(context.name.empty() ? document.source_name : context.name),
          at_(at),
          strict_(context.options.strict) {}

    void add(std::string_view rule, std::string broken, std::string_view left_out) {
        found_.push_back(
            {.severity = strict_ ? Severity::Error : Severity::Warning,
             .file = file_,
             .path = node_path(at_),
             .rule = std::string(rule),
             .message =
                 fmt::format("{}; {}", broken, strict_ ? "strict: nothing is written" : left_out)});
    }
    // An error with or without strict: what is broken cannot be left out.
    void refuse(std::string_view rule, std::string broken) {
        found_.push_back({.severity = Severity::Error,
                          .file = file_,
                          .path = node_path(at_),
                          .rule = std::string(rule),
                          .message = fmt::format("{}; nothing is written", broken)});
    }
    const std::vector<Diagnostic>& found() const { return found_; }

  private:
    std::string file_;
    MeshPlace at_;
    bool strict_;
    std::vector<Diagnostic> found_;
};

// Whether writers read the per-vertex buffer `name`: UV and colour layers past `ul` / `cl` are
// not, nor `vc` beside `cl` (rule 15).
bool is_read(const cast::ConstMesh& mesh, std::string_view name) {
    if (auto layer = validation::layer_index(name, "u")) return *layer < mesh.uv_layer_count();
    const bool layered = mesh.node().find("cl") != nullptr;
    if (auto layer = validation::layer_index(name, "c"))
        return layered && *layer < mesh.color_layer_count();
    return name != "vc" || !layered;
}

void find_mismatched_buffers(const cast::ConstMesh& mesh, MeshFindings& findings,
                             BrokenMesh& broken) {
    const std::size_t vertices = mesh.vertex_count();
    for (const cast::Property* buffer : validation::vertex_buffers(mesh.node())) {
        if (buffer->size() == vertices || !is_read(mesh, buffer->name())) continue;
        findings.add("output.buffer-length",
                     fmt::format("'{}' holds {} entries for {} vertices", buffer->name(),
                                 buffer->size(), vertices),
                     "it is left out whole");
        broken.dropped_buffers.push_back(buffer->name());
    }
}

// "'wb' and 'wv' hold 6 and 6 entries; 4 vertices × mi 2 need 8", or which one is missing.
std::string weight_lengths(const cast::Property* bones, const cast::Property* values,
                           std::size_t vertices, std::uint64_t influences) {
    if (bones == nullptr || values == nullptr)
        return fmt::format("'{}' is missing beside '{}'", bones == nullptr ? "wb" : "wv",
                           bones == nullptr ? "wv" : "wb");
    return fmt::format("'wb' and 'wv' hold {} and {} entries; {} vertices × mi {} need {}",
                       bones->size(), values->size(), vertices, influences, vertices * influences);
}

// The property `name` of `mesh` when its type is one of `types`: what the writers' views read,
// which may be more than the schema allows (an `l` index buffer), so that nothing a writer reads
// escapes the check.
const cast::Property* read_by_writers(const cast::ConstMesh& mesh, std::string_view name,
                                      bool (*types)(cast::PropertyType)) {
    const cast::Property* property = mesh.node().find(name);
    return property != nullptr && types(property->type()) ? property : nullptr;
}
bool is_float(cast::PropertyType type) { return type == cast::PropertyType::Float; }

void find_weight_defects(const cast::ConstMesh& mesh, MeshFindings& findings, BrokenMesh& broken) {
    const cast::Property* bones = read_by_writers(mesh, "wb", cast::is_integer_type);
    const cast::Property* values = read_by_writers(mesh, "wv", is_float);
    const std::uint64_t influences = mesh.max_weight_influence();
    if (influences == 0 || (bones == nullptr && values == nullptr)) return;
    const std::uint64_t needed = mesh.vertex_count() * influences;
    if (bones == nullptr || values == nullptr || bones->size() != needed ||
        values->size() != needed) {
        findings.add("output.buffer-length",
                     weight_lengths(bones, values, mesh.vertex_count(), influences),
                     "the weights are left out");
        broken.drop_weights = true;
    } else if (broken.bone_count == 0) {
        findings.add("output.weight-bone",
                     "the mesh is weighted but its Model has no skeleton bones",
                     "the weights are left out");
        broken.drop_weights = true;
    } else if (const validation::Scan missing = validation::at_least(*bones, broken.bone_count);
               missing.count > 0) {
        findings.add("output.weight-bone",
                     fmt::format("{} weights name a bone past the skeleton's {} (first: vertex "
                                 "{}, bone {})",
                                 missing.count, broken.bone_count, missing.first / influences,
                                 bones->integer(missing.first)),
                     "those weights are left out, their vertices keep the others");
        broken.clear_missing_bones = true;
    }
}

// Whether triangle `t` of `faces` has a corner past `vertices`.
bool past_vertices(const cast::IndexView& faces, std::size_t t, std::size_t vertices) {
    return faces[3 * t] >= vertices || faces[3 * t + 1] >= vertices || faces[3 * t + 2] >= vertices;
}

// Whole triangles (the indices after the last one make none) with a corner past `vertices`.
struct BadTriangles {
    std::size_t count = 0, first = 0;
};
BadTriangles bad_triangles(const cast::IndexView& faces, std::size_t vertices) {
    BadTriangles bad;
    for (std::size_t t = 0; t < faces.size() / 3; ++t)
        if (past_vertices(faces, t, vertices) && bad.count++ == 0) bad.first = t;
    return bad;
}

void find_bad_triangles(const cast::ConstMesh& mesh, MeshFindings& findings, BrokenMesh& broken) {
    const cast::Property* faces = read_by_writers(mesh, "f", cast::is_integer_type);
    // The validator's one vectorised pass decides whether the triangles need a look.
    if (faces == nullptr ||
        validation::scan_faces(*faces, mesh.vertex_count()).out_of_range.count == 0)
        return;
    const BadTriangles bad = bad_triangles(mesh.faces(), mesh.vertex_count());
    if (bad.count == 0) return;
    findings.add("output.face-index",
                 fmt::format("{} of {} triangles name a vertex past the {} vertices (first: "
                             "triangle {})",
                             bad.count, mesh.face_count(), mesh.vertex_count(), bad.first),
                 "those triangles are left out");
    broken.drop_bad_triangles = true;
}

// "'vn' holds 2 non-finite values (NaN or infinite; the first: vertex 7)".
std::string non_finite_values(const cast::Property& property, const validation::Scan& bad,
                              std::string_view element) {
    return fmt::format("'{}' holds {} non-finite value{} (NaN or infinite; the first: {} {})",
                       property.name(), bad.count, bad.count == 1 ? "" : "s", element, bad.first);
}

// NaN and infinite floats in what writers read per vertex: positions cannot be left out (the
// write is refused); another buffer is left out whole, a weight alone.
void find_non_finite(const cast::ConstMesh& mesh, MeshFindings& findings, BrokenMesh& broken) {
    if (const cast::Property* positions = mesh.node().find("vp"))
        if (const validation::Scan bad = validation::non_finite(*positions); bad.count > 0) {
            findings.refuse("output.non-finite", non_finite_values(*positions, bad, "vertex"));
            broken.refused = true;
        }
    for (const cast::Property* buffer : validation::vertex_buffers(mesh.node())) {
        const auto& dropped = broken.dropped_buffers;
        if (!is_read(mesh, buffer->name()) ||
            std::find(dropped.begin(), dropped.end(), buffer->name()) != dropped.end())
            continue;
        if (const validation::Scan bad = validation::non_finite(*buffer); bad.count > 0) {
            findings.add("output.non-finite", non_finite_values(*buffer, bad, "vertex"),
                         "it is left out whole");
            broken.dropped_buffers.push_back(buffer->name());
        }
    }
    const cast::Property* weights = read_by_writers(mesh, "wv", is_float);
    if (weights == nullptr || broken.drop_weights || mesh.max_weight_influence() == 0) return;
    if (const validation::Scan bad = validation::non_finite(*weights); bad.count > 0) {
        findings.add("output.non-finite", non_finite_values(*weights, bad, "weight"),
                     "those weights are left out, their vertices keep the others");
        broken.clear_non_finite_weights = true;
    }
}

// A copy of `property` under another name (the payload copied: a property's name is fixed).
cast::Property renamed(const cast::Property& property, std::string name) {
    return cast::Property(property.type(), std::move(name), property.count(),
                          std::vector<std::byte>(property.bytes().begin(), property.bytes().end()));
}

// After the layers `dropped` of `prefix` ("u", "c") are removed, moves each later layer below
// the count `count_name` ("ul", "cl") down past the removed ones and lowers the count, so that
// readers still find every layer kept.
void close_layer_gaps(cast::Node& mesh, std::string_view prefix, const char* count_name,
                      const std::vector<std::string>& dropped) {
    const cast::Property* count = mesh.find(count_name);
    if (count == nullptr || !cast::is_integer_type(count->type()) || count->size() == 0) return;
    const std::uint64_t layers = count->integer(0);
    const cast::PropertyType count_type = count->type();
    std::vector<std::uint32_t> gone;
    for (const std::string& name : dropped)
        if (auto layer = validation::layer_index(name, prefix); layer && *layer < layers)
            gone.push_back(*layer);
    if (gone.empty()) return;
    for (cast::Property& property : mesh.properties) {
        const auto layer = validation::layer_index(property.name(), prefix);
        if (!layer || *layer >= layers) continue;
        const auto below =
            std::count_if(gone.begin(), gone.end(), [&](std::uint32_t g) { return g < *layer; });
        if (below > 0) property = renamed(property, fmt::format("{}{}", prefix, *layer - below));
    }
    mesh.set(cast::make_integer(count_name, count_type, layers - gone.size()).value());  // < layers
}

void drop_buffers(cast::Node& mesh, const std::vector<std::string>& names) {
    for (const std::string& name : names) mesh.remove(name);
    close_layer_gaps(mesh, "u", "ul", names);
    close_layer_gaps(mesh, "c", "cl", names);
}

// A dropped weight keeps its slot (each vertex has mi of them) with bone 0 and weight 0, which
// every writer skips: those naming a bone past the skeleton, and those not finite.
void clear_weights(cast::Mesh& mesh, const BrokenMesh& broken) {
    std::vector<std::uint32_t> bones = mesh.weight_bones().to_vector();
    std::vector<float> values = mesh.weight_values().to_vector();
    for (std::size_t i = 0; i < bones.size(); ++i) {
        const bool missing = broken.clear_missing_bones && bones[i] >= broken.bone_count;
        if (!missing && !(broken.clear_non_finite_weights && !std::isfinite(values[i]))) continue;
        bones[i] = 0;
        values[i] = 0.0f;
    }
    cast::Node& node = mesh.node();
    node.set(cast::make_integers("wb", node.find("wb")->type(), bones).value());  // a subset
    node.set(cast::make_array<float>("wv", values));
}

void drop_bad_triangles(cast::Mesh& mesh) {
    const cast::IndexView faces = mesh.faces();
    const std::size_t vertices = mesh.vertex_count();
    std::vector<std::uint32_t> kept;
    kept.reserve(faces.size());
    for (std::size_t t = 0; t < faces.size() / 3; ++t)
        if (!past_vertices(faces, t, vertices))
            kept.insert(kept.end(), {faces[3 * t], faces[3 * t + 1], faces[3 * t + 2]});
    mesh.set_faces(kept);
}

void repair(cast::Mesh& mesh, const BrokenMesh& broken) {
    cast::Node& node = mesh.node();
    drop_buffers(node, broken.dropped_buffers);
    if (broken.drop_weights)
        for (const char* name : {"wb", "wv", "mi"}) node.remove(name);
    else if (broken.clear_missing_bones || broken.clear_non_finite_weights)
        clear_weights(mesh, broken);
    if (broken.drop_bad_triangles) drop_bad_triangles(mesh);
}

cast::Document repaired(const cast::Document& document, WrittenModels written,
                        const std::vector<BrokenMesh>& broken) {
    cast::Document copy = document.clone();
    auto next = broken.begin();
    for_each_written_mesh(copy, written, [&](const MeshPlace& at, cast::Mesh& mesh, std::size_t) {
        if (next != broken.end() && next->at == at) repair(mesh, *next++);
    });
    return copy;
}

// What the validator's mesh rules find in `mesh` that no writer can carry out.
BrokenMesh check_mesh(const cast::ConstMesh& mesh, BrokenMesh found, MeshFindings& findings) {
    find_mismatched_buffers(mesh, findings, found);
    find_weight_defects(mesh, findings, found);
    find_bad_triangles(mesh, findings, found);
    find_non_finite(mesh, findings, found);
    return found;
}

// The nodes besides meshes whose floats writers write as they are (transforms, rests, IK
// offsets, constraint offsets and weights, framerates, keys, blend-shape scales): a NaN or an
// infinity there has no value to stand in for it. Hair is written by no format but Cast;
// materials, colours, files, instances and metadata are settings a writer resets to its default
// or leaves out, with its own warning.
bool writes_floats_as_they_are(std::uint32_t id) {
    switch (static_cast<cast::NodeId>(id)) {
        case cast::NodeId::Model:
        case cast::NodeId::Skeleton:
        case cast::NodeId::Bone:
        case cast::NodeId::IKHandle:
        case cast::NodeId::Constraint:
        case cast::NodeId::Animation:
        case cast::NodeId::Curve:
        case cast::NodeId::BlendShape:
            return true;
        default:
            return false;
    }
}

// The first NaN or infinite float of `node`'s tree (at `step`) that a writer writes as it is:
// meshes are left to check_mesh, and with WrittenModels::First the Models after the first
// (`models` counts those seen) are not written. O(nodes + float payload).
std::optional<Diagnostic> first_non_finite(const cast::Node& node, const cast::PathStep& step,
                                           WrittenModels written, std::size_t& models,
                                           const std::string& file) {
    const auto id = static_cast<cast::NodeId>(node.id);
    if (id == cast::NodeId::Mesh) return std::nullopt;
    if (id == cast::NodeId::Model && ++models > 1 && written == WrittenModels::First)
        return std::nullopt;
    if (writes_floats_as_they_are(node.id))
        for (const cast::Property& property : node.properties)
            if (const validation::Scan bad = validation::non_finite(property); bad.count > 0)
                return Diagnostic{
                    .severity = Severity::Error,
                    .file = file,
                    .path = cast::format_path(&step),
                    .rule = "output.non-finite",
                    .message = fmt::format("{}; nothing is written",
                                           non_finite_values(property, bad, "element"))};
    cast::SiblingCounter counter;
    for (const cast::Node& child : node.children()) {
        const cast::PathStep next{&step, child.id, counter.next(child.id)};
        if (auto found = first_non_finite(child, next, written, models, file)) return found;
    }
    return std::nullopt;
}

std::optional<Diagnostic> first_non_finite(const cast::Document& document, WrittenModels written,
                                           const std::string& file) {
    std::size_t models = 0;
    cast::SiblingCounter counter;
    for (const cast::Node& root : document.roots()) {
        const cast::PathStep step{nullptr, root.id, counter.next(root.id)};
        if (auto found = first_non_finite(root, step, written, models, file)) return found;
    }
    return std::nullopt;
}

}  // namespace

Expected<std::optional<cast::Document>> check_before_write(const cast::Document& document,
                                                           WrittenModels written,
                                                           const WriteContext& context,
                                                           Diagnostics& diagnostics) {
    const std::string& file = context.name.empty() ? document.source_name : context.name;
    if (auto refused = refuse_non_finite(document, written, file); !refused)
        return make_error(refused.error());
    std::vector<BrokenMesh> broken;
    std::optional<Diagnostic> refusal;
    auto check = [&](const MeshPlace& at, const cast::ConstMesh& mesh, std::size_t bones) {
        MeshFindings findings(context, document, at);
        BrokenMesh found = check_mesh(mesh, {.at = at, .bone_count = bones}, findings);
        if (!found.broken()) return;
        for (Diagnostic finding : findings.found()) {
            // The first error (every finding under strict) is the one returned and the rest go
            // to the sink, so that one run names every broken mesh.
            if (finding.severity == Severity::Error && !refusal)
                refusal = std::move(finding);
            else
                diagnostics.push_back(std::move(finding));
        }
        broken.push_back(std::move(found));
    };
    for_each_written_mesh(document, written, check);
    if (refusal) return make_error(std::move(*refusal));
    if (broken.empty()) return std::optional<cast::Document>();
    return std::optional<cast::Document>(repaired(document, written, broken));
}

Expected<void> refuse_non_finite(const cast::Document& document, WrittenModels written,
                                 const std::string& file) {
    if (auto refusal = first_non_finite(document, written, file))
        return make_error(std::move(*refusal));
    return {};
}

Expected<const cast::Document*> checked_first_model(const cast::Document& document,
                                                    std::optional<cast::Document>& repair,
                                                    Diagnostics& diagnostics) {
    auto checked = check_before_write(document, WrittenModels::First, {}, diagnostics);
    if (!checked) return make_error(checked.error());
    repair = std::move(*checked);
    return repair ? &*repair : &document;
}

}  // namespace castkit::scene

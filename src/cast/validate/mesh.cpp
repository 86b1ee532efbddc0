// Mesh, BlendShape and Hair: buffer lengths against the vertex count, layer counts, weights
// against the Model's Skeleton, faces, and the links to a Material or base Mesh of the Model.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "../english.hpp"
#include "buffers.hpp"
#include "checks.hpp"

namespace castkit::cast::validation {
namespace {

// Spec: "weights per vertex summing far from 1". 8-bit quantised weights stay within this.
constexpr float kWeightSumTolerance = 0.01f;
// Layers looked for below a layer count: far more than any DCC supports, and a bound on the
// work a corrupt count can cause.
constexpr std::uint64_t kMaxLayersChecked = 4096;

std::string vertices(std::uint64_t n) { return count_of(n, "vertex", "vertices"); }
std::string index_count(std::uint64_t n) { return count_of(n, "index", "indices"); }

// Number of Bone children of the Model's (first) Skeleton, or nullopt without one.
std::optional<std::size_t> skeleton_bone_count(const Node& model) {
    for (const Node& child : model.children())
        if (child.is(NodeId::Skeleton))
            return static_cast<std::size_t>(
                std::count_if(child.children().begin(), child.children().end(),
                              [](const Node& bone) { return bone.is(NodeId::Bone); }));
    return std::nullopt;
}

// ul/cl against the u%d/c%d layers present.
void check_layers(Context& context, const NodeRef& ref, std::string_view count_name,
                  std::string_view prefix) {
    std::map<std::uint32_t, const Property*> present;
    for (const Property& p : ref.node.properties)
        if (auto layer = layer_index(p.name(), prefix)) present[*layer] = &p;
    const Property* count_property = ref.node.find(count_name);
    if (count_property != nullptr && valid_property(ref.node, count_name) == nullptr) return;
    if (count_property == nullptr) {
        if (!present.empty())
            context.report(Rule::LayerCount, ref, *present.begin()->second,
                           fmt::format("'{}' is present but '{}' is missing; it is required when "
                                       "the mesh has layers",
                                       present.begin()->second->name(), count_name));
        return;
    }
    const std::uint64_t count = count_property->integer(0);
    for (std::uint64_t layer = 0; layer < count && layer < kMaxLayersChecked; ++layer)
        if (!present.contains(static_cast<std::uint32_t>(layer))) {
            context.report(
                Rule::LayerCount, ref, *count_property,
                fmt::format("'{}' is {} but '{}{}' is missing", count_name, count, prefix, layer));
            return;
        }
    for (const auto& [layer, property] : present)
        if (layer >= count)
            context.report(Rule::LayerCount, ref, *property,
                           fmt::format("'{}' lies beyond '{}' = {}; readers ignore it",
                                       property->name(), count_name, count));
}

void check_vertex_buffers(Context& context, const NodeRef& ref, std::uint64_t vertex_count) {
    for (const Property* p : vertex_buffers(ref.node))
        if (p->size() != vertex_count)
            context.report(
                Rule::VertexCount, ref, *p,
                fmt::format("'{}' has {} but 'vp' has {}", p->name(),
                            count_of(p->size(), "element", "elements"), vertices(vertex_count)));
}

void check_weights(Context& context, const NodeRef& ref, std::uint64_t vertex_count) {
    const Property* bones = valid_property(ref.node, "wb");
    const Property* values = valid_property(ref.node, "wv");
    if (bones == nullptr && values == nullptr) return;
    if (ref.node.find("mi") == nullptr) {
        context.report(
            Rule::Weights, ref, bones != nullptr ? *bones : *values,
            "the mesh has weights but no 'mi'; it is required when the mesh has weights");
        return;
    }
    auto influences = valid_integer(ref.node, "mi");
    if (!influences) return;
    const std::uint64_t expected = vertex_count * *influences;
    bool sized = true;
    for (const Property* p : {bones, values}) {
        if (p == nullptr) {
            context.report(
                Rule::Weights, ref, bones != nullptr ? *bones : *values,
                fmt::format("'{}' is present but '{}' is missing", bones != nullptr ? "wb" : "wv",
                            bones != nullptr ? "wv" : "wb"));
            sized = false;
        } else if (p->size() != expected) {
            context.report(Rule::Weights, ref, *p,
                           fmt::format("'{}' has {}; {} × mi {} needs {}", p->name(),
                                       count_of(p->size(), "entry", "entries"),
                                       vertices(vertex_count), *influences, expected));
            sized = false;
        }
    }
    if (bones != nullptr && ref.parent != nullptr && ref.parent->is(NodeId::Model)) {
        auto bone_count = skeleton_bone_count(*ref.parent);
        if (!bone_count) {
            context.report(Rule::WeightBone, ref, *bones,
                           "the mesh is weighted but its Model has no Skeleton");
        } else if (Scan bad = at_least(*bones, *bone_count); bad.count > 0) {
            context.report_element(Rule::WeightBone, ref, *bones, bad.first,
                                   fmt::format("'wb' holds {} beyond the Skeleton's {} (first: "
                                               "element {} = {})",
                                               count_of(bad.count, "bone index", "bone indices"),
                                               count_of(*bone_count, "bone", "bones"), bad.first,
                                               bones->integer(bad.first)));
        }
    }
    if (sized && values != nullptr && *influences > 0) {
        WeightScan sums =
            scan_weight_sums(*values, static_cast<std::uint32_t>(*influences), kWeightSumTolerance);
        if (sums.vertices.count > 0)
            context.report_element(Rule::WeightSum, ref, *values, sums.vertices.first * *influences,
                                   fmt::format("{} of {} {} weights summing far from 1 (first: "
                                               "vertex {} sums to {:.4g})",
                                               sums.vertices.count, vertices(vertex_count),
                                               sums.vertices.count == 1 ? "has" : "have",
                                               sums.vertices.first, sums.sum));
    }
}

void check_faces(Context& context, const NodeRef& ref, std::uint64_t vertex_count) {
    const Property* faces = valid_property(ref.node, "f");
    if (faces == nullptr) return;
    if (faces->size() % 3 != 0)
        context.report(Rule::FaceLength, ref, *faces,
                       fmt::format("'f' has {}, not a multiple of 3", index_count(faces->size())));
    FaceScan scan = scan_faces(*faces, vertex_count);
    if (scan.out_of_range.count > 0)
        context.report_element(
            Rule::FaceIndex, ref, *faces, scan.out_of_range.first,
            fmt::format("'f' holds {} not below the vertex count {} (first: element "
                        "{} = {})",
                        index_count(scan.out_of_range.count), vertex_count, scan.out_of_range.first,
                        faces->integer(scan.out_of_range.first)));
    if (scan.degenerate.count > 0)
        context.report_element(
            Rule::DegenerateFace, ref, *faces, scan.degenerate.first * 3,
            fmt::format("{} degenerate (two equal indices; first: face {})",
                        part_of(scan.degenerate.count, faces->size() / 3, "faces"),
                        scan.degenerate.first));
}

}  // namespace

std::vector<const Property*> vertex_buffers(const Node& mesh) {
    std::vector<const Property*> buffers;
    for (const Property& p : mesh.properties) {
        const bool per_vertex = p.name() == "vn" || p.name() == "vt" || p.name() == "vc" ||
                                layer_index(p.name(), "u") || layer_index(p.name(), "c");
        if (per_vertex && valid_property(mesh, p.name()) == &p) buffers.push_back(&p);
    }
    return buffers;
}

void check_mesh(Context& context, const NodeRef& ref) {
    const Property* positions = valid_property(ref.node, "vp");
    const bool in_model = ref.parent != nullptr && ref.parent->is(NodeId::Model);
    check_layers(context, ref, "ul", "u");
    check_layers(context, ref, "cl", "c");
    if (positions != nullptr) {
        const std::uint64_t vertex_count = positions->size();
        check_vertex_buffers(context, ref, vertex_count);
        check_weights(context, ref, vertex_count);
        check_faces(context, ref, vertex_count);
    }
    if (in_model)
        check_link(context, Rule::MeshMaterial, ref, "m", *ref.parent, NodeId::Material, "Model");
}

void check_blend_shape(Context& context, const NodeRef& ref) {
    const Property* indices = valid_property(ref.node, "vi");
    const Property* positions = valid_property(ref.node, "vp");
    if (indices != nullptr && positions != nullptr && indices->size() != positions->size())
        context.report(Rule::BlendShapeLength, ref, *positions,
                       fmt::format("'vi' has {} but 'vp' has {}; they pair up one to one",
                                   index_count(indices->size()),
                                   count_of(positions->size(), "position", "positions")));
    if (ref.parent == nullptr || !ref.parent->is(NodeId::Model)) return;
    check_link(context, Rule::BlendShapeBase, ref, "b", *ref.parent, NodeId::Mesh, "Model");
    auto base_hash = valid_integer(ref.node, "b");
    const Node* base = base_hash ? child_by_hash(*ref.parent, *base_hash) : nullptr;
    if (indices == nullptr || base == nullptr || !base->is(NodeId::Mesh)) return;
    const Property* base_positions = valid_property(*base, "vp");
    if (base_positions == nullptr) return;
    if (Scan bad = at_least(*indices, base_positions->size()); bad.count > 0)
        context.report_element(
            Rule::BlendShapeIndex, ref, *indices, bad.first,
            fmt::format("'vi' holds {} not below the base mesh's vertex count {} "
                        "(first: element {} = {})",
                        index_count(bad.count), base_positions->size(), bad.first,
                        indices->integer(bad.first)));
}

void check_hair(Context& context, const NodeRef& ref) {
    const Property* segments = valid_property(ref.node, "se");
    const Property* particles = valid_property(ref.node, "pt");
    if (segments != nullptr && particles != nullptr) {
        const std::uint64_t expected = sum_plus_one(*segments);
        if (particles->size() != expected)
            context.report(Rule::HairParticles, ref, *particles,
                           fmt::format("'pt' has {}; {} of segments + 1 need {}",
                                       count_of(particles->size(), "particle", "particles"),
                                       count_of(segments->size(), "strand", "strands"), expected));
    }
    if (ref.parent != nullptr && ref.parent->is(NodeId::Model))
        check_link(context, Rule::HairMaterial, ref, "m", *ref.parent, NodeId::Material, "Model");
}

}  // namespace castkit::cast::validation

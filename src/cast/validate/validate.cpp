// validate(): walks every node once, running the structure and property checks on each and the
// checks of its node type, then the hash checks of each Root.
#include <castkit/cast/validate.hpp>

#include "../storable.hpp"
#include "checks.hpp"

namespace castkit::cast {
namespace validation {
namespace {

class Walker {
  public:
    Walker(Context& context, const NameIndex& names) : context_(context), names_(names) {}

    void walk(const NodeRef& ref) {
        check_structure(context_, ref);
        for (const Property& p : ref.node.properties)
            if (auto why = unstorable(p)) context_.report(Rule::Payload, ref, p, std::move(*why));
        const NodeSchema* schema = node_schema(ref.node.id);
        // Unknown nodes are kept as they are; what they hold means nothing the spec defines.
        if (schema == nullptr) return;
        check_properties(context_, ref, *schema);
        check_type(ref);
        SiblingCounter counter;
        for (const Node& child : ref.node.children()) {
            PathStep step{&ref.step, child.id, counter.next(child.id)};
            walk({child, &ref.node, step});
        }
    }

  private:
    void check_type(const NodeRef& ref) {
        switch (static_cast<NodeId>(ref.node.id)) {
            case NodeId::Model:
                check_rotation(context_, ref, "r");
                break;
            case NodeId::Mesh:
                check_mesh(context_, ref);
                break;
            case NodeId::Hair:
                check_hair(context_, ref);
                break;
            case NodeId::BlendShape:
                check_blend_shape(context_, ref);
                break;
            case NodeId::Skeleton:
                check_skeleton(context_, ref);
                break;
            case NodeId::Bone:
                check_rotation(context_, ref, "lr");
                check_rotation(context_, ref, "wr");
                break;
            case NodeId::IKHandle:
                check_ik_handle(context_, ref);
                break;
            case NodeId::Constraint:
                check_constraint(context_, ref);
                break;
            case NodeId::Material:
                check_material(context_, ref);
                break;
            case NodeId::File:
                check_file(context_, ref);
                break;
            case NodeId::Animation:
                check_animation(context_, ref);
                break;
            case NodeId::Curve:
                check_curve(context_, ref, names_);
                break;
            case NodeId::CurveModeOverride:
                check_curve_mode_override(context_, ref, names_);
                break;
            case NodeId::NotificationTrack:
                check_notification_track(context_, ref);
                break;
            case NodeId::Instance:
                check_instance(context_, ref);
                check_rotation(context_, ref, "r");
                break;
            default:
                break;
        }
    }

    Context& context_;
    const NameIndex& names_;
};

}  // namespace
}  // namespace validation

void validate(const Document& document, Diagnostics& diagnostics, const ValidateOptions& options) {
    using namespace validation;
    Context context(document);
    Diagnostics& out = context.diagnostics();
    const NameIndex names = index_names(document);
    Walker walker(context, names);
    SiblingCounter counter;
    for (const Node& node : document.roots()) {
        PathStep step{nullptr, node.id, counter.next(node.id)};
        const NodeRef ref{node, nullptr, step};
        walker.walk(ref);
        if (node.is(NodeId::Root)) check_hashes(context, ref);
    }
    if (options.strict) out.promote(Severity::Warning, Severity::Error);
    diagnostics.append(out);
}

}  // namespace castkit::cast

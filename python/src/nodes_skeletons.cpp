// The skeleton node classes: Bone, IKHandle, Constraint and Skeleton.
#include "node_classes.hpp"

namespace castkit::python::nodes {

namespace {

void register_bone() {
    Def<BoneRef, cast::Bone>("Bone")
        .name()
        .rw<Typed<types::Int>>(
            "parent_index",
            [](const cast::Bone& v, const NodeRef&) { return py::int_(v.parent_index()); },
            [](cast::Bone& v, const py::object& value, const NodeRef&) {
                v.set_parent_index(value.cast<std::int32_t>());
            },
            "-1 for none")
        .flag_rw("segment_scale_compensate", &cast::Bone::segment_scale_compensate,
                 &cast::Bone::set_segment_scale_compensate)
        .vec_rw<glm::vec3>("local_position", &cast::Bone::local_position,
                           &cast::Bone::set_local_position)
        .vec_rw<glm::vec4>("local_rotation", &cast::Bone::local_rotation,
                           &cast::Bone::set_local_rotation, "Quaternion XYZW")
        .vec_rw<glm::vec3>("world_position", &cast::Bone::world_position,
                           &cast::Bone::set_world_position)
        .vec_rw<glm::vec4>("world_rotation", &cast::Bone::world_rotation,
                           &cast::Bone::set_world_rotation, "Quaternion XYZW")
        .vec_rw<glm::vec3>("scale", &cast::Bone::scale, &cast::Bone::set_scale);
}

void register_ik_handle() {
    using H = cast::IKHandle;
    Def<IKHandleRef, H>("IKHandle")
        .name()
        .link<BoneRef>("start_bone", "sb", &H::start_bone_hash, &H::start_bone)
        .link<BoneRef>("end_bone", "eb", &H::end_bone_hash, &H::end_bone)
        .link<BoneRef>("target_bone", "tb", &H::target_bone_hash, &H::target_bone)
        .link<BoneRef>("pole_vector_bone", "pv", &H::pole_vector_bone_hash, &H::pole_vector_bone)
        .link<BoneRef>("pole_bone", "pb", &H::pole_bone_hash, &H::pole_bone)
        .flag_rw("use_target_rotation", &H::use_target_rotation, &H::set_use_target_rotation)
        .vec_rw<glm::vec3>("target_offset", &H::target_offset, &H::set_target_offset);
}

// set_custom_offset(value): 3 or 4 numbers.
void set_custom_offset(const NodeRef& r, const Typed<types::ArrayLike>& value) {
    cast::Constraint v = r.view<cast::Constraint>();
    auto size = py::len(py::module_::import("numpy").attr("ravel")(value));
    if (size == 3)
        v.set_custom_offset(vec_of<glm::vec3>(value, "custom_offset"));
    else
        v.set_custom_offset(vec_of<glm::vec4>(value, "custom_offset"));
}

void register_constraint() {
    using C = cast::Constraint;
    Def<ConstraintRef, C>("Constraint")
        .name()
        .text_rw(
            "constraint_type", &C::constraint_type,
            [](C& v, const std::string& s) { v.set_constraint_type(constraint_type_of(s)); },
            "'pt', 'or' or 'sc'")
        .link<BoneRef>("constraint_bone", "cb", &C::constraint_bone_hash, &C::constraint_bone)
        .link<BoneRef>("target_bone", "tb", &C::target_bone_hash, &C::target_bone)
        .flag_rw("maintain_offset", &C::maintain_offset, &C::set_maintain_offset)
        .ro(
            "custom_offset",
            [](const C& v, const NodeRef&) -> Typed<types::Vec4> {
                return tuple_of(v.custom_offset());
            },
            "`co` as 4 numbers (w 0 for a stored v3), else the constraint type's default")
        .fn("set_custom_offset", &set_custom_offset, py::arg("value"), "3 or 4 numbers")
        .value_rw<Typed<types::Float>>(
            "weight", &C::weight, &C::set_weight, [](const auto& x) { return opt(x); },
            [](const py::object& value, const char*) { return value.cast<float>(); })
        .flag_rw("skip_x", &C::skip_x, &C::set_skip_x)
        .flag_rw("skip_y", &C::skip_y, &C::set_skip_y)
        .flag_rw("skip_z", &C::skip_z, &C::set_skip_z);
}

void register_skeleton() {
    Def<SkeletonRef, cast::Skeleton>("Skeleton")
        .list_ro("bones", &cast::Skeleton::bones)
        .list_ro("ik_handles", &cast::Skeleton::ik_handles)
        .list_ro("constraints", &cast::Skeleton::constraints)
        .fn(
            "bone_by_hash",
            [](const NodeRef& r, std::uint64_t hash) -> OptionalOf<BoneRef> {
                // As ConstSkeleton::bone_by_hash, over the writable children.
                for (cast::Node& child : r.node->children())
                    if (child.is(NodeId::Bone) && child.hash() == hash)
                        return wrap_node(r.doc, &child, r.node);
                return py::none();
            },
            py::arg("hash"), "The Bone child with this hash, or None")
        .add("add_bone", &cast::Skeleton::add_bone)
        .add("add_ik_handle", &cast::Skeleton::add_ik_handle)
        .add("add_constraint", &cast::Skeleton::add_constraint);
}

}  // namespace

void declare_skeletons(py::module_& m) {
    declare<BoneRef>(m, "Bone", "A bone: parent index and rest transforms.");
    declare<IKHandleRef>(m, "IKHandle", "An IK handle between bones.");
    declare<ConstraintRef>(m, "Constraint", "A point, orient or scale constraint between bones.");
    declare<SkeletonRef>(m, "Skeleton", "A skeleton: bones, IK handles, constraints.");
}

void register_skeletons() {
    register_bone();
    register_ik_handle();
    register_constraint();
    register_skeleton();
}

}  // namespace castkit::python::nodes

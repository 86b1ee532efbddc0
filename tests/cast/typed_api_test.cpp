// The typed views of all 18 node types: built through the builders, written, read back and
// checked through the getters; the spec's defaults (rule 14); hash links (rule 12); writer
// integer widths (rule 11); duplicate names (rule 7); edits that keep what a view does not know.
#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>

#include <gtest/gtest.h>

#include <array>
#include <set>

namespace castkit::test {
namespace {

using namespace castkit::cast;

Document reread(const Document& document) {
    auto bytes = write_to_buffer(document);
    EXPECT_TRUE(bytes);
    auto copy = read(std::move(*bytes));
    EXPECT_TRUE(copy) << copy.error().to_string();
    EXPECT_TRUE(copy->warnings.empty());
    return std::move(*copy);
}

void collect_ids(const Node& node, std::set<std::uint32_t>& ids) {
    ids.insert(node.id);
    for (const auto& child : node.children) collect_ids(*child, ids);
}

PropertyType stored_type(const NodeView& view, std::string_view name) {
    const Property* p = view.node().find(name);
    EXPECT_NE(p, nullptr) << name;
    return p != nullptr ? p->type() : PropertyType::String;
}

// A scene with every node type and every property the views know, built only through views.
Document build_scene() {
    Document document;
    Root root = document.add_root();

    Metadata metadata = root.add_metadata();
    metadata.set_author("Ada");
    metadata.set_software("castkit tests");
    metadata.set_up_axis("y");
    metadata.set_scene_root("Scene");

    Model model = root.add_model();
    model.set_name("Hero");
    model.set_position({1, 2, 3});
    model.set_rotation({0, 0, 0, 1});
    model.set_scale({2, 2, 2});

    Skeleton skeleton = model.add_skeleton();
    Bone pelvis = skeleton.add_bone();
    pelvis.set_name("pelvis");
    pelvis.set_parent_index(-1);
    pelvis.set_local_position({0, 1, 0});
    pelvis.set_local_rotation({0, 0, 0.7071068f, 0.7071068f});
    pelvis.set_world_position({1, 3, 3});
    pelvis.set_world_rotation({0, 0, 0, 1});
    pelvis.set_scale({1, 1, 1});
    Bone spine = skeleton.add_bone();
    spine.set_name("spine");
    spine.set_parent_index(0);
    spine.set_segment_scale_compensate(false);
    Bone hand = skeleton.add_bone();
    hand.set_name("hand");
    hand.set_parent_index(1);

    IKHandle ik = skeleton.add_ik_handle();
    ik.set_name("arm_ik");
    ik.set_start_bone(pelvis);
    ik.set_end_bone(hand);
    ik.set_target_bone(spine);
    ik.set_pole_vector_bone(pelvis);
    ik.set_pole_bone(spine);
    ik.set_use_target_rotation(true);
    ik.set_target_offset({0.5f, 0, -1});

    Constraint constraint = skeleton.add_constraint();
    constraint.set_name("aim");
    constraint.set_constraint_type("or");
    constraint.set_constraint_bone(hand);
    constraint.set_target_bone(pelvis);
    constraint.set_maintain_offset(true);
    constraint.set_custom_offset(glm::vec4(0, 1, 0, 0));
    constraint.set_weight(0.25f);
    constraint.set_skip_x(true);
    constraint.set_skip_z(true);

    Material material = model.add_material();
    material.set_name("skin");
    material.set_type("pbr");
    File albedo = material.add_file();
    albedo.set_path("textures/skin_albedo.png");
    Color tint = material.add_color();
    tint.set_name("tint");
    tint.set_color_space("linear");
    tint.set_rgba({0.5f, 0.25f, 1, 1});
    material.set_slot("albedo", albedo);
    material.set_slot("diffuse", tint);

    Mesh mesh = model.add_mesh();
    mesh.set_name("body");
    const std::array<glm::vec3, 4> positions = {glm::vec3(0, 0, 0), glm::vec3(1, 0, 0),
                                                glm::vec3(1, 1, 0), glm::vec3(0, 1, 0)};
    const std::array<glm::vec3, 4> normals = {glm::vec3(0, 0, 1), glm::vec3(0, 0, 1),
                                              glm::vec3(0, 0, 1), glm::vec3(0, 0, 1)};
    const std::array<glm::vec3, 4> tangents = {glm::vec3(1, 0, 0), glm::vec3(1, 0, 0),
                                               glm::vec3(1, 0, 0), glm::vec3(1, 0, 0)};
    const std::array<std::uint32_t, 6> faces = {0, 1, 2, 0, 2, 3};
    const std::array<glm::vec2, 4> uv0 = {glm::vec2(0, 1), glm::vec2(1, 1), glm::vec2(1, 0),
                                          glm::vec2(0, 0)};
    const std::array<glm::vec2, 4> uv1 = {glm::vec2(0.5f), glm::vec2(0.5f), glm::vec2(0.5f),
                                          glm::vec2(0.5f)};
    const std::array<std::uint32_t, 4> packed = {0xFF0000FF, 0xFF00FF00, 0x80FF4000, 0};
    const std::array<glm::vec4, 4> floats = {glm::vec4(1), glm::vec4(0.5f), glm::vec4(0),
                                             glm::vec4(2, -1, 0.125f, 1)};
    const std::array<std::uint32_t, 8> weight_bones = {0, 1, 0, 1, 1, 2, 2, 0};
    const std::array<float, 8> weight_values = {0.75f, 0.25f, 1, 0, 0.5f, 0.5f, 1, 0};
    mesh.set_positions(positions);
    mesh.set_normals(normals);
    mesh.set_tangents(tangents);
    mesh.set_faces(faces);
    mesh.set_uv_layer(0, uv0);
    mesh.set_uv_layer(1, uv1);
    mesh.set_color_layer_packed(0, packed);
    mesh.set_color_layer(1, floats);
    mesh.set_weights(2, weight_bones, weight_values);
    mesh.set_skinning_method("quaternion");
    mesh.set_material(material);

    Hair hair = model.add_hair();
    hair.set_name("fringe");
    const std::array<std::uint32_t, 2> segments = {2, 1};
    const std::array<glm::vec3, 5> particles = {glm::vec3(0), glm::vec3(0, 1, 0), glm::vec3(0, 2, 0),
                                                glm::vec3(1, 0, 0), glm::vec3(1, 1, 0)};
    hair.set_segments(segments);
    hair.set_particles(particles);
    hair.set_material(material);

    BlendShape smile = model.add_blend_shape();
    smile.set_name("smile");
    smile.set_base_shape(mesh);
    const std::array<std::uint32_t, 2> indices = {1, 3};
    const std::array<glm::vec3, 2> targets = {glm::vec3(1.5f, 0, 0), glm::vec3(0, 1.5f, 0)};
    smile.set_targets(indices, targets);
    smile.set_target_weight_scale(0.5f);

    Animation animation = root.add_animation();
    animation.set_name("wave");
    animation.set_framerate(30);
    animation.set_looping(true);
    Bone anim_bone = animation.add_skeleton().add_bone();
    anim_bone.set_name("hand");
    Curve rotation = animation.add_curve();
    rotation.set_node_name("hand");
    rotation.set_key_property("rq");
    const std::array<std::uint32_t, 2> frames = {0, 300};
    const std::array<glm::vec4, 2> quaternions = {glm::vec4(0, 0, 0, 1), glm::vec4(0, 1, 0, 0)};
    rotation.set_key_frames(frames);
    rotation.set_quaternion_values(quaternions);
    rotation.set_mode("absolute");
    Curve translation = animation.add_curve();
    translation.set_node_name("hand");
    translation.set_key_property("tx");
    const std::array<float, 2> tx = {0, 2.5f};
    translation.set_key_frames(frames);
    translation.set_float_values(tx);
    translation.set_mode("additive");
    translation.set_additive_blend_weight(0.5f);
    Curve visibility = animation.add_curve();
    visibility.set_node_name("hand");
    visibility.set_key_property("vb");
    const std::array<std::uint32_t, 2> visible = {1, 0};
    visibility.set_key_frames(frames);
    visibility.set_integer_values(visible);
    visibility.set_mode("relative");
    CurveModeOverride override_node = animation.add_curve_mode_override();
    override_node.set_node_name("spine");
    override_node.set_mode("relative");
    override_node.set_override_translation(true);
    override_node.set_override_scale(true);
    NotificationTrack track = animation.add_notification_track();
    track.set_name("footstep");
    const std::array<std::uint32_t, 3> events = {5, 17, 29};
    track.set_key_frames(events);

    Instance instance = root.add_instance();
    instance.set_name("crate");
    File crate = instance.add_file();
    crate.set_path("props/crate.cast");
    instance.set_reference_file(crate);
    instance.set_position({10, 0, 0});
    instance.set_rotation({0, 0, 0, 1});
    instance.set_scale({1, 2, 1});
    return document;
}

TEST(TypedApi, TheSceneUsesAll18NodeTypes) {
    Document document = build_scene();
    std::set<std::uint32_t> ids;
    for (const auto& root : document.roots) collect_ids(*root, ids);
    std::set<std::uint32_t> all;
    for (NodeId id : kAllNodeIds) all.insert(static_cast<std::uint32_t>(id));
    EXPECT_EQ(ids, all);
}

TEST(TypedApi, SceneNodesRoundTrip) {
    Document document = reread(build_scene());
    auto roots = document.root_nodes();
    ASSERT_EQ(roots.size(), 1u);
    Metadata metadata = roots[0].metadata().at(0);
    EXPECT_EQ(metadata.author(), "Ada");
    EXPECT_EQ(metadata.software(), "castkit tests");
    EXPECT_EQ(metadata.up_axis(), "y");
    EXPECT_EQ(metadata.scene_root(), "Scene");

    Instance instance = roots[0].instances().at(0);
    EXPECT_EQ(instance.name(), "crate");
    ASSERT_TRUE(instance.reference_file());
    EXPECT_EQ(instance.reference_file().path(), "props/crate.cast");
    EXPECT_EQ(instance.reference_file().hash(), instance.files().at(0).hash());
    EXPECT_EQ(instance.position(), glm::vec3(10, 0, 0));
    EXPECT_EQ(instance.rotation(), glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(instance.scale(), glm::vec3(1, 2, 1));

    Model model = document.models().at(0);
    EXPECT_EQ(model.name(), "Hero");
    EXPECT_EQ(model.position(), glm::vec3(1, 2, 3));
    EXPECT_EQ(model.rotation(), glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(model.scale(), glm::vec3(2, 2, 2));
}

TEST(TypedApi, SkeletonNodesRoundTrip) {
    Document document = reread(build_scene());
    Skeleton skeleton = document.models().at(0).skeleton();
    ASSERT_TRUE(skeleton);
    auto bones = skeleton.bones();
    ASSERT_EQ(bones.size(), 3u);
    EXPECT_EQ(bones[0].name(), "pelvis");
    EXPECT_EQ(bones[0].parent_index(), -1);
    EXPECT_EQ(bones[1].parent_index(), 0);
    EXPECT_EQ(bones[2].parent_index(), 1);
    EXPECT_EQ(bones[0].local_position(), glm::vec3(0, 1, 0));
    EXPECT_EQ(bones[0].local_rotation(), glm::vec4(0, 0, 0.7071068f, 0.7071068f));
    EXPECT_EQ(bones[0].world_position(), glm::vec3(1, 3, 3));
    EXPECT_EQ(bones[0].world_rotation(), glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(bones[0].scale(), glm::vec3(1, 1, 1));
    EXPECT_TRUE(bones[0].segment_scale_compensate());
    EXPECT_FALSE(bones[1].segment_scale_compensate());
    glm::quat q = quat_from_xyzw(*bones[0].local_rotation());
    EXPECT_FLOAT_EQ(q.w, 0.7071068f);
    EXPECT_EQ(xyzw_from_quat(q), *bones[0].local_rotation());

    IKHandle ik = skeleton.ik_handles().at(0);
    EXPECT_EQ(ik.name(), "arm_ik");
    EXPECT_EQ(ik.start_bone().name(), "pelvis");
    EXPECT_EQ(ik.end_bone().name(), "hand");
    EXPECT_EQ(ik.target_bone().name(), "spine");
    EXPECT_EQ(ik.pole_vector_bone().name(), "pelvis");
    EXPECT_EQ(ik.pole_bone().name(), "spine");
    EXPECT_TRUE(ik.use_target_rotation());
    EXPECT_EQ(ik.target_offset(), glm::vec3(0.5f, 0, -1));
    EXPECT_EQ(ik.start_bone_hash(), bones[0].hash());

    Constraint constraint = skeleton.constraints().at(0);
    EXPECT_EQ(constraint.name(), "aim");
    EXPECT_EQ(constraint.constraint_type(), "or");
    EXPECT_EQ(constraint.constraint_bone().name(), "hand");
    EXPECT_EQ(constraint.target_bone().name(), "pelvis");
    EXPECT_TRUE(constraint.maintain_offset());
    EXPECT_EQ(constraint.custom_offset(), glm::vec4(0, 1, 0, 0));
    EXPECT_EQ(constraint.weight(), 0.25f);
    EXPECT_TRUE(constraint.skip_x());
    EXPECT_FALSE(constraint.skip_y());
    EXPECT_TRUE(constraint.skip_z());
    EXPECT_EQ(skeleton.bone_by_hash(bones[2].hash()).name(), "hand");
}

TEST(TypedApi, MaterialNodesRoundTrip) {
    Document document = reread(build_scene());
    Material material = document.models().at(0).materials().at(0);
    EXPECT_EQ(material.name(), "skin");
    EXPECT_EQ(material.type(), "pbr");
    auto slots = material.slots();
    ASSERT_EQ(slots.size(), 2u);
    EXPECT_EQ(slots[0].name, "albedo");
    EXPECT_EQ(slots[1].name, "diffuse");
    EXPECT_EQ(material.slot_file("albedo").path(), "textures/skin_albedo.png");
    EXPECT_FALSE(material.slot_color("albedo"));  // a File, not a Color
    Color tint = material.slot_color("diffuse");
    ASSERT_TRUE(tint);
    EXPECT_EQ(tint.name(), "tint");
    EXPECT_EQ(tint.color_space(), "linear");
    EXPECT_EQ(tint.rgba(), glm::vec4(0.5f, 0.25f, 1, 1));
    EXPECT_EQ(material.files().size(), 1u);
    EXPECT_EQ(material.colors().size(), 1u);
}

TEST(TypedApi, MeshRoundTripsWithLayersWeightsAndMaterial) {
    Document document = reread(build_scene());
    Mesh mesh = document.models().at(0).meshes().at(0);
    EXPECT_EQ(mesh.name(), "body");
    EXPECT_EQ(mesh.vertex_count(), 4u);
    EXPECT_EQ(mesh.positions()[2], glm::vec3(1, 1, 0));
    EXPECT_EQ(mesh.normals()[3], glm::vec3(0, 0, 1));
    EXPECT_EQ(mesh.tangents()[0], glm::vec3(1, 0, 0));
    EXPECT_EQ(mesh.face_count(), 2u);
    EXPECT_EQ(mesh.faces().to_vector(), (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3}));

    EXPECT_EQ(mesh.uv_layer_count(), 2u);
    EXPECT_EQ(mesh.uv_layer(0)[0], glm::vec2(0, 1));
    EXPECT_EQ(mesh.uv_layer(1)[3], glm::vec2(0.5f));
    EXPECT_TRUE(mesh.uv_layer(2).empty());

    EXPECT_EQ(mesh.color_layer_count(), 2u);
    EXPECT_TRUE(mesh.color_layer_is_packed(0));
    EXPECT_FALSE(mesh.color_layer_is_packed(1));
    auto packed = mesh.color_layer(0);
    ASSERT_EQ(packed.size(), 4u);
    EXPECT_EQ(packed[0], glm::vec4(1, 0, 0, 1));  // 0xFF0000FF: R in the low byte
    EXPECT_EQ(packed[1], glm::vec4(0, 1, 0, 1));
    EXPECT_EQ(packed[2], glm::vec4(0, 64 / 255.0f, 1, 128 / 255.0f));
    EXPECT_EQ(packed[3], glm::vec4(0));
    auto floats = mesh.color_layer(1);
    ASSERT_EQ(floats.size(), 4u);
    EXPECT_EQ(floats[3], glm::vec4(2, -1, 0.125f, 1));  // float layers are kept as stored

    EXPECT_EQ(mesh.max_weight_influence(), 2u);
    EXPECT_EQ(mesh.weight_bones().to_vector(), (std::vector<std::uint32_t>{0, 1, 0, 1, 1, 2, 2, 0}));
    EXPECT_EQ(mesh.weight_values()[0], 0.75f);
    EXPECT_EQ(mesh.weight_values().size(), 8u);
    EXPECT_EQ(mesh.skinning_method(), "quaternion");
    ASSERT_TRUE(mesh.material());
    EXPECT_EQ(mesh.material().name(), "skin");
}

TEST(TypedApi, HairAndBlendShapeRoundTrip) {
    Document document = reread(build_scene());
    Model model = document.models().at(0);
    Hair hair = model.hairs().at(0);
    EXPECT_EQ(hair.name(), "fringe");
    EXPECT_EQ(hair.segments().to_vector(), (std::vector<std::uint32_t>{2, 1}));
    EXPECT_EQ(hair.particles().size(), 5u);
    EXPECT_EQ(hair.particles()[4], glm::vec3(1, 1, 0));
    EXPECT_EQ(hair.material().name(), "skin");

    BlendShape smile = model.blend_shapes().at(0);
    EXPECT_EQ(smile.name(), "smile");
    EXPECT_EQ(smile.base_shape().name(), "body");
    EXPECT_EQ(smile.vertex_indices().to_vector(), (std::vector<std::uint32_t>{1, 3}));
    EXPECT_EQ(smile.vertex_positions()[1], glm::vec3(0, 1.5f, 0));
    EXPECT_EQ(smile.target_weight_scale(), 0.5f);
}

TEST(TypedApi, AnimationNodesRoundTrip) {
    Document document = reread(build_scene());
    Animation animation = document.animations().at(0);
    EXPECT_EQ(animation.name(), "wave");
    EXPECT_EQ(animation.framerate(), 30.0f);
    EXPECT_TRUE(animation.looping());
    EXPECT_EQ(animation.skeleton().bones().at(0).name(), "hand");
    auto curves = animation.curves();
    ASSERT_EQ(curves.size(), 3u);
    EXPECT_EQ(curves[0].node_name(), "hand");
    EXPECT_EQ(curves[0].key_property(), "rq");
    EXPECT_EQ(curves[0].key_frames().to_vector(), (std::vector<std::uint32_t>{0, 300}));
    EXPECT_EQ(curves[0].quaternion_values()[1], glm::vec4(0, 1, 0, 0));
    EXPECT_TRUE(curves[0].float_values().empty());
    EXPECT_EQ(curves[0].mode(), "absolute");
    EXPECT_EQ(curves[1].float_values()[1], 2.5f);
    EXPECT_EQ(curves[1].mode(), "additive");
    EXPECT_EQ(curves[1].additive_blend_weight(), 0.5f);
    EXPECT_EQ(curves[2].key_property(), "vb");
    EXPECT_EQ(curves[2].integer_values().to_vector(), (std::vector<std::uint32_t>{1, 0}));
    EXPECT_EQ(curves[2].key_values()->type(), PropertyType::Byte);

    CurveModeOverride override_node = animation.curve_mode_overrides().at(0);
    EXPECT_EQ(override_node.node_name(), "spine");
    EXPECT_EQ(override_node.mode(), "relative");
    EXPECT_TRUE(override_node.override_translation());
    EXPECT_FALSE(override_node.override_rotation());
    EXPECT_TRUE(override_node.override_scale());

    NotificationTrack track = animation.notification_tracks().at(0);
    EXPECT_EQ(track.name(), "footstep");
    EXPECT_EQ(track.key_frames().to_vector(), (std::vector<std::uint32_t>{5, 17, 29}));
}

// Rule 14: what each view returns when the property is absent.
TEST(TypedApi, SpecDefaultsApplyWhenPropertiesAreAbsent) {
    Document built;
    Root root = built.add_root();
    Model model = root.add_model();
    Skeleton skeleton = model.add_skeleton();
    skeleton.add_bone();
    skeleton.add_ik_handle();
    for (const char* type : {"pt", "or", "sc", ""}) {
        Constraint c = skeleton.add_constraint();
        if (*type) c.set_constraint_type(type);
    }
    model.add_mesh();
    model.add_blend_shape();
    model.add_material().add_color();
    Animation animation = root.add_animation();
    animation.add_curve();
    animation.add_curve_mode_override();
    Document document = reread(built);

    Model m = document.models().at(0);
    Bone bone = m.skeleton().bones().at(0);
    EXPECT_TRUE(bone.segment_scale_compensate());
    EXPECT_EQ(bone.parent_index(), -1);
    EXPECT_FALSE(bone.name());
    IKHandle ik = m.skeleton().ik_handles().at(0);
    EXPECT_FALSE(ik.use_target_rotation());
    EXPECT_FALSE(ik.target_offset());
    EXPECT_FALSE(ik.start_bone());
    auto constraints = m.skeleton().constraints();
    ASSERT_EQ(constraints.size(), 4u);
    EXPECT_EQ(constraints[0].custom_offset(), glm::vec4(0, 0, 0, 0));
    EXPECT_EQ(constraints[1].custom_offset(), glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(glm::vec3(constraints[2].custom_offset()), glm::vec3(1, 1, 1));
    for (const Constraint& c : constraints) {
        EXPECT_FALSE(c.maintain_offset());
        EXPECT_FALSE(c.skip_x());
        EXPECT_FALSE(c.skip_y());
        EXPECT_FALSE(c.skip_z());
        EXPECT_FALSE(c.weight());
    }
    Mesh mesh = m.meshes().at(0);
    EXPECT_EQ(mesh.skinning_method(), "linear");
    EXPECT_EQ(mesh.uv_layer_count(), 0u);
    EXPECT_EQ(mesh.color_layer_count(), 0u);
    EXPECT_TRUE(mesh.color_layer(0).empty());
    EXPECT_EQ(mesh.max_weight_influence(), 0u);
    EXPECT_FALSE(mesh.material());
    EXPECT_EQ(m.blend_shapes().at(0).target_weight_scale(), 1.0f);
    EXPECT_EQ(m.materials().at(0).colors().at(0).color_space(), "srgb");
    Animation a = document.animations().at(0);
    EXPECT_FALSE(a.looping());
    EXPECT_FALSE(a.framerate());
    EXPECT_EQ(a.curves().at(0).additive_blend_weight(), 1.0f);
    EXPECT_FALSE(a.curves().at(0).mode());
    CurveModeOverride o = a.curve_mode_overrides().at(0);
    EXPECT_FALSE(o.override_translation());
    EXPECT_FALSE(o.override_rotation());
    EXPECT_FALSE(o.override_scale());
}

// Rule 9: any non-zero byte is true.
TEST(TypedApi, NonZeroFlagsAreTrue) {
    Document document;
    Bone bone = document.add_root().add_model().add_skeleton().add_bone();
    bone.node().set(make_integer("ssc", PropertyType::Byte, 0));
    EXPECT_FALSE(bone.segment_scale_compensate());
    bone.node().set(make_integer("ssc", PropertyType::Byte, 7));
    EXPECT_TRUE(bone.segment_scale_compensate());
}

// Rule 15: `vc` is layer 0 when `cl` is absent.
TEST(TypedApi, LegacyVcIsLayerZeroOnlyWithoutCl) {
    Document document;
    Mesh mesh = document.add_root().add_model().add_mesh();
    const std::array<std::uint32_t, 1> red = {0xFF0000FF};
    mesh.node().set(make_integers("vc", PropertyType::Integer32, red));
    EXPECT_EQ(mesh.color_layer_count(), 1u);
    EXPECT_EQ(mesh.color_layer(0).at(0), glm::vec4(1, 0, 0, 1));
    const std::array<glm::vec4, 1> green = {glm::vec4(0, 1, 0, 1)};
    mesh.set_color_layer(0, green);  // writes c0 and cl = 1: vc no longer counts
    EXPECT_EQ(mesh.color_layer_count(), 1u);
    EXPECT_EQ(mesh.color_layer(0).at(0), glm::vec4(0, 1, 0, 1));
    EXPECT_NE(mesh.node().find("vc"), nullptr);
}

// Rule 12: links resolve among the named siblings and only to the node type they name.
TEST(TypedApi, HashLinksResolveOnlyAmongSiblingsOfTheRightType) {
    Document document = build_scene();
    Root root = document.root_nodes().at(0);
    Model other = root.add_model();
    Material foreign = other.add_material();
    Mesh mesh = document.models().at(0).meshes().at(0);
    mesh.set_material(foreign);  // a material of another model
    EXPECT_FALSE(mesh.material());
    EXPECT_EQ(mesh.material_hash(), foreign.hash());
    BlendShape smile = document.models().at(0).blend_shapes().at(0);
    mesh.set_hash_link("m", smile.hash());  // a sibling, but not a Material
    EXPECT_FALSE(mesh.material());
    mesh.set_hash_link("m", 0xDEADBEEF);
    EXPECT_FALSE(mesh.material());
    EXPECT_FALSE(Material(nullptr, nullptr, &document));
}

// Rule 12: new hashes count up from the reference base and skip hashes already in the file.
TEST(TypedApi, NewHashesAreDeterministicAndUnique) {
    constexpr std::uint64_t kBase = 0x534E495752545250;
    Document fresh;
    EXPECT_EQ(fresh.add_root().hash(), kBase);
    EXPECT_EQ(fresh.root_nodes().at(0).add_model().hash(), kBase + 1);

    Document built;
    built.roots.push_back(std::make_unique<Node>(NodeId::Root, kBase));
    built.roots[0]->add_child(std::make_unique<Node>(NodeId::Model, kBase + 1));
    Document document = reread(built);
    Model added = document.root_nodes().at(0).add_model();
    EXPECT_EQ(added.hash(), kBase + 2);
}

// Rule 11: the writer helpers pick the smallest of b/h/i for index buffers; counts are `b`,
// the bone parent is `i`, and an explicit type is kept.
TEST(TypedApi, WriterHelpersChooseIntegerWidthsPerRule11) {
    Document document;
    Model model = document.add_root().add_model();
    Mesh mesh = model.add_mesh();
    auto faces_type = [&](std::uint32_t maximum) {
        const std::array<std::uint32_t, 3> faces = {0, maximum, 1};
        mesh.set_faces(faces);
        return stored_type(mesh, "f");
    };
    EXPECT_EQ(faces_type(255), PropertyType::Byte);
    EXPECT_EQ(faces_type(256), PropertyType::Short);
    EXPECT_EQ(faces_type(65535), PropertyType::Short);
    EXPECT_EQ(faces_type(65536), PropertyType::Integer32);
    EXPECT_EQ(mesh.faces()[1], 65536u);

    const std::array<glm::vec2, 1> uv = {glm::vec2(0)};
    const std::array<std::uint32_t, 1> colour = {0};
    const std::array<std::uint32_t, 2> bones = {0, 300};
    const std::array<float, 2> weights = {0.5f, 0.5f};
    mesh.set_uv_layer(3, uv);
    mesh.set_color_layer_packed(1, colour);
    mesh.set_weights(2, bones, weights);
    EXPECT_EQ(stored_type(mesh, "ul"), PropertyType::Byte);
    EXPECT_EQ(mesh.uv_layer_count(), 4u);
    EXPECT_EQ(stored_type(mesh, "cl"), PropertyType::Byte);
    EXPECT_EQ(mesh.color_layer_count(), 2u);
    EXPECT_EQ(stored_type(mesh, "c1"), PropertyType::Integer32);
    EXPECT_EQ(stored_type(mesh, "mi"), PropertyType::Byte);
    EXPECT_EQ(stored_type(mesh, "wb"), PropertyType::Short);

    Bone bone = model.add_skeleton().add_bone();
    bone.set_parent_index(3);
    EXPECT_EQ(stored_type(bone, "p"), PropertyType::Integer32);
    bone.set_parent_index(-1);
    EXPECT_EQ(load<std::uint32_t>(bone.node().find("p")->bytes().data()), 0xFFFFFFFFu);

    BlendShape shape = model.add_blend_shape();
    const std::array<std::uint32_t, 1> vertex = {70000};
    const std::array<glm::vec3, 1> target = {glm::vec3(1)};
    shape.set_targets(vertex, target);
    EXPECT_EQ(stored_type(shape, "vi"), PropertyType::Integer32);

    Hair hair = model.add_hair();
    const std::array<std::uint32_t, 1> segments = {3};
    hair.set_segments(segments);
    EXPECT_EQ(stored_type(hair, "se"), PropertyType::Byte);

    Curve curve = document.root_nodes().at(0).add_animation().add_curve();
    const std::array<std::uint32_t, 2> frames = {0, 1000};
    curve.set_key_frames(frames);
    EXPECT_EQ(stored_type(curve, "kb"), PropertyType::Short);

    const std::array<std::uint32_t, 3> small = {0, 1, 2};
    mesh.node().set(make_integers("f", PropertyType::Integer32, small));
    EXPECT_EQ(stored_type(mesh, "f"), PropertyType::Integer32);
    Document copy = reread(document);
    EXPECT_EQ(copy.models().at(0).meshes().at(0).faces().stored_type(), PropertyType::Integer32);
}

// Rule 7: duplicates are all kept; getters and setters act on the last one.
TEST(TypedApi, DuplicateNamesKeepAllAndTheLastWins) {
    Document document;
    Model model = document.add_root().add_model();
    model.node().properties.push_back(make_string("n", "first"));
    model.node().properties.push_back(make_string("n", "second"));
    EXPECT_EQ(model.name(), "second");
    model.set_name("third");
    ASSERT_EQ(model.node().properties.size(), 2u);
    EXPECT_EQ(model.node().properties[0].string(), "first");
    EXPECT_EQ(model.node().properties[1].string(), "third");
    Document copy = reread(document);
    EXPECT_EQ(copy.models().at(0).name(), "third");
    EXPECT_EQ(copy.models().at(0).node().properties.size(), 2u);
    EXPECT_EQ(model.node().remove("n"), 2u);
    EXPECT_FALSE(model.name());
}

// Editing through a view replaces one property in place; properties no view knows, unknown
// child nodes and property order all survive.
TEST(TypedApi, EditingThroughViewsKeepsUnknownProperties) {
    Document document;
    Model model = document.add_root().add_model();
    model.node().properties.push_back(make_string("custom", "tool data"));
    model.set_name("before");
    model.node().properties.push_back(make_value<double>("zz", 4.5));
    model.node().add_child(std::make_unique<Node>(0x11223344u, 77));
    Document edited = reread(document);
    Model m = edited.models().at(0);
    m.set_name("after");
    m.set_scale({3, 3, 3});
    Document copy = reread(edited);
    const Node& node = copy.models().at(0).node();
    ASSERT_EQ(node.properties.size(), 4u);
    EXPECT_EQ(node.properties[0].name(), "custom");
    EXPECT_EQ(node.properties[0].string(), "tool data");
    EXPECT_EQ(node.properties[1].string(), "after");
    EXPECT_EQ(node.properties[2].number(0), 4.5);
    EXPECT_EQ(node.properties[3].name(), "s");
    ASSERT_EQ(node.children.size(), 1u);
    EXPECT_EQ(node.children[0]->id, 0x11223344u);
    EXPECT_EQ(node.children[0]->hash, 77u);
}

// Views of absent properties have no data; copying from them copies nothing (the sanitizer
// build once caught a memcpy from null here, found by the fuzzer).
TEST(TypedApi, EmptyViewsCopyNothing) {
    Document document;
    Mesh mesh = document.add_root().add_model().add_mesh();
    EXPECT_TRUE(mesh.faces().to_vector().empty());
    EXPECT_TRUE(mesh.positions().to_vector().empty());
    EXPECT_TRUE(mesh.uv_layer(0).to_vector().empty());
    std::array<std::uint32_t, 2> indices = {7, 7};
    mesh.weight_bones().copy_to(indices);
    EXPECT_EQ(indices[0], 7u);
    std::array<glm::vec3, 1> positions = {glm::vec3(5)};
    mesh.normals().copy_to(positions);
    EXPECT_EQ(positions[0], glm::vec3(5));
}

// An empty array is a property with ArrayLength 0 and no payload (built from an empty span,
// whose data pointer may be null).
TEST(TypedApi, EmptyArraysAreWrittenAndReadBack) {
    Document document;
    Mesh mesh = document.add_root().add_model().add_mesh();
    mesh.set_positions({});
    mesh.set_faces({});
    Document copy = reread(document);
    Mesh again = copy.models().at(0).meshes().at(0);
    ASSERT_NE(again.node().find("vp"), nullptr);
    EXPECT_EQ(again.node().find("vp")->count(), 0u);
    EXPECT_EQ(again.vertex_count(), 0u);
    EXPECT_EQ(again.faces().stored_type(), PropertyType::Byte);
    EXPECT_EQ(again.face_count(), 0u);
}

// A type mismatch reads as absent rather than as garbage.
TEST(TypedApi, GettersIgnorePropertiesOfTheWrongType) {
    Document document;
    Mesh mesh = document.add_root().add_model().add_mesh();
    mesh.node().set(make_integer("n", PropertyType::Integer32, 5));
    const std::array<glm::vec4, 1> v4 = {glm::vec4(1)};
    mesh.node().set(make_array<glm::vec4>("vp", v4));
    mesh.node().set(make_string("f", "not faces"));
    EXPECT_FALSE(mesh.name());
    EXPECT_EQ(mesh.vertex_count(), 0u);
    EXPECT_EQ(mesh.face_count(), 0u);
}

}  // namespace
}  // namespace castkit::test

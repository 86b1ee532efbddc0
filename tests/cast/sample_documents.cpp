#include "sample_documents.hpp"

#include <array>
#include <castkit/cast/nodes.hpp>

#include "../../src/cast/node_access.hpp"

namespace castkit::test {

using namespace castkit::cast;

Document every_property_type_document() {
    Document document;
    Node& root = document.add_root().node();
    Node& model = root.add_child(std::make_unique<Node>(NodeId::Model, 0x10));
    const std::array<std::uint32_t, 3> small = {1, 2, 250};
    const std::array<std::uint32_t, 2> medium = {7, 60000};
    const std::array<std::uint32_t, 2> large = {3, 70000};
    const std::array<std::uint64_t, 2> longs = {0x0102030405060708, 9};
    const std::array<float, 3> floats = {0.5f, -2.0f, 1e-3f};
    const std::array<double, 2> doubles = {3.25, -1e100};
    const std::array<glm::vec2, 2> v2 = {glm::vec2(0.25f, 0.75f), glm::vec2(1, 0)};
    const std::array<glm::vec3, 2> v3 = {glm::vec3(1, 2, 3), glm::vec3(-4, 5.5f, 6)};
    const std::array<glm::vec4, 1> v4 = {glm::vec4(0, 0, 0, 1)};
    model.properties.push_back(make_string("n", "every type"));
    model.properties.push_back(make_integers("b", PropertyType::Byte, small).value());
    model.properties.push_back(make_integers("h", PropertyType::Short, medium).value());
    model.properties.push_back(make_integers("i", PropertyType::Integer32, large).value());
    model.properties.push_back(make_array<std::uint64_t>("l", longs));
    model.properties.push_back(make_array<float>("f", floats));
    model.properties.push_back(make_array<double>("d", doubles));
    model.properties.push_back(make_array<glm::vec2>("v2", v2));
    model.properties.push_back(make_array<glm::vec3>("v3", v3));
    model.properties.push_back(make_array<glm::vec4>("v4", v4));
    model.properties.push_back(make_array<float>("empty", {}));
    const char two[] = "first\0second";
    model.properties.emplace_back(
        PropertyType::String, "two", 2,
        std::vector<std::byte>(reinterpret_cast<const std::byte*>(two),
                               reinterpret_cast<const std::byte*>(two) + sizeof two));

    Node& unknown = root.add_child(std::make_unique<Node>(0x21436587u, 0x20));
    unknown.properties.push_back(make_string("x", "unknown id"));
    unknown.add_child(std::make_unique<Node>(NodeId::Metadata, 0x21))
        .properties.push_back(make_string("a", "inside"));

    // Rule 6: one known property, then an unknown type 0x7171 whose bytes run to the node's end.
    Node& opaque = root.add_child(std::make_unique<Node>(NodeId::Metadata, 0x30));
    opaque.properties.push_back(make_string("s", "before"));
    static const std::byte tail[] = {std::byte{0x71}, std::byte{0x71}, std::byte{2},   std::byte{0},
                                     std::byte{1},    std::byte{0},    std::byte{0},   std::byte{0},
                                     std::byte{'z'},  std::byte{'z'},  std::byte{0xAB}};
    // Only the reader makes opaque tails; the test reaches in as it does.
    NodeAccess::set_opaque(opaque, SharedBytes{Bytes(tail), nullptr}, 1, 0);  // static, borrowed
    return document;
}

}  // namespace castkit::test

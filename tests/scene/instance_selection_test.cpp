// scene::select_instances: the Instances of a map outside a sphere or a box, or left out by
// globs on their own names and their models' file stems, taken out of the document; the
// selection's validation; the glob matcher.
#include <gtest/gtest.h>

#include <castkit/cast/nodes.hpp>
#include <castkit/scene/instance_selection.hpp>
#include <cmath>
#include <limits>

namespace castkit::test::instance_selection_test {
namespace {

struct Placed {
    std::string name;  // empty: no `n`
    std::string file;  // the referenced File's path
    std::optional<glm::vec3> position;
};

cast::Document map_of(const std::vector<Placed>& placed) {
    cast::Document document;
    cast::Root root = document.add_root();
    root.add_metadata().set_up_axis(cast::Axis::Z);
    for (const Placed& p : placed) {
        cast::Instance instance = root.add_instance();
        if (!p.name.empty()) instance.set_name(p.name);
        instance.set_reference_file(instance.add_file(p.file));
        if (p.position) instance.set_position(*p.position);
    }
    return document;
}

// The names of the Instances left (their `n`, else their file's path), in order.
std::vector<std::string> left(const cast::Document& document) {
    std::vector<std::string> names;
    for (const cast::ConstRoot& root : document.root_nodes())
        for (const cast::ConstInstance& instance : root.instances())
            names.emplace_back(instance.name().value_or(instance.reference_file().path().value()));
    return names;
}

std::vector<std::string> select(cast::Document& document, const scene::InstanceSelection& s,
                                Diagnostics* out = nullptr) {
    EXPECT_TRUE(s.validate()) << s.validate().error().to_string();
    Diagnostics diagnostics;
    scene::select_instances(document, s, "map.cast", diagnostics);
    if (out != nullptr) *out = diagnostics;
    return left(document);
}

using Names = std::vector<std::string>;

TEST(InstanceSelection, TheSphereKeepsItsSurfaceAndTheOriginStandsForNoPosition) {
    cast::Document map = map_of({{"on", "a.cast", glm::vec3{3, 4, 0}},  // distance 5
                                 {"past", "a.cast", glm::vec3{3, 4, 0.01f}},
                                 {"nowhere", "a.cast", std::nullopt},
                                 {"inside", "a.cast", glm::vec3{-1, 1, 1}}});
    Diagnostics diagnostics;
    EXPECT_EQ(select(map, {.within = {{.centre = {0, 0, 0}, .radius = 5}}}, &diagnostics),
              (Names{"on", "nowhere", "inside"}));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics.begin()->rule, "scene.instances-selected");
    EXPECT_EQ(diagnostics.begin()->severity, Severity::Info);
    EXPECT_EQ(diagnostics.begin()->to_string(),
              "map.cast: info: kept 3 of 4 instances, removed 1 [scene.instances-selected]");
    // A centre elsewhere: the instance without a position is at the origin, outside.
    cast::Document again =
        map_of({{"nowhere", "a.cast", std::nullopt}, {"near", "a.cast", glm::vec3{100, 0, 0}}});
    EXPECT_EQ(select(again, {.within = {{.centre = {101, 0, 0}, .radius = 2}}}), Names{"near"});
}

TEST(InstanceSelection, TheBoxKeepsItsFacesOnEveryAxis) {
    cast::Document map = map_of({{"corner", "a.cast", glm::vec3{0, 0, 0}},
                                 {"far corner", "a.cast", glm::vec3{10, 20, 30}},
                                 {"x out", "a.cast", glm::vec3{10.5f, 1, 1}},
                                 {"y out", "a.cast", glm::vec3{1, -0.5f, 1}},
                                 {"z out", "a.cast", glm::vec3{1, 1, 31}},
                                 {"middle", "a.cast", glm::vec3{5, 5, 5}}});
    EXPECT_EQ(select(map, {.box = {{.min = {0, 0, 0}, .max = {10, 20, 30}}}}),
              (Names{"corner", "far corner", "middle"}));
}

TEST(InstanceSelection, SphereAndBoxTogetherKeepWhatLiesInBoth) {
    cast::Document map = map_of({{"both", "a.cast", glm::vec3{1, 0, 0}},
                                 {"sphere only", "a.cast", glm::vec3{-1, 0, 0}},
                                 {"box only", "a.cast", glm::vec3{9, 0, 0}}});
    EXPECT_EQ(select(map, {.within = {{.centre = {0, 0, 0}, .radius = 2}},
                           .box = {{.min = {0, -1, -1}, .max = {10, 1, 1}}}}),
              Names{"both"});
}

TEST(InstanceSelection, IncludeMatchesTheInstanceNameOrTheModelFileStem) {
    cast::Document map = map_of({{"tree_big", "models/oak.cast", std::nullopt},
                                 {"", "models/Tree_small.cast", std::nullopt},
                                 {"rock", "models\\tree_stump.CAST", std::nullopt},
                                 {"rock", "models/rock.cast", std::nullopt},
                                 {"lamp", "trees/lamp.cast", std::nullopt}});
    // The folder is not part of the model name: "trees/lamp.cast" is "lamp".
    EXPECT_EQ(select(map, {.include = {"tree*"}}),
              (Names{"tree_big", "models/Tree_small.cast", "rock"}));
}

TEST(InstanceSelection, ExcludeRemovesWhenEitherNameMatchesAndWinsOverInclude) {
    cast::Document map = map_of({{"rock_01", "models/rock_01.cast", std::nullopt},
                                 {"rock_02", "models/boulder.cast", std::nullopt},
                                 {"grass", "models/rock_grass.cast", std::nullopt},
                                 {"tree", "models/tree.cast", std::nullopt}});
    EXPECT_EQ(select(map, {.include = {"rock*", "tree"}, .exclude = {"*_02", "boulder"}}),
              (Names{"rock_01", "grass", "tree"}));
    cast::Document again = map_of({{"rock_01", "models/rock_01.cast", std::nullopt},
                                   {"grass", "models/rock_grass.cast", std::nullopt},
                                   {"tree", "models/tree.cast", std::nullopt}});
    EXPECT_EQ(select(again, {.exclude = {"rock_*"}}), Names{"tree"});
}

TEST(InstanceSelection, GlobsMatchWholeNamesBlindToCase) {
    using scene::glob_matches;
    EXPECT_TRUE(glob_matches("rock_??", "ROCK_01"));
    EXPECT_FALSE(glob_matches("rock_??", "rock_1"));
    EXPECT_FALSE(glob_matches("rock", "rock_01"));  // whole names, not a search
    EXPECT_TRUE(glob_matches("*", ""));
    EXPECT_TRUE(glob_matches("*_*_*", "a_b_c_d"));
    EXPECT_FALSE(glob_matches("*_*_*x", "a_b_c_d"));
    EXPECT_TRUE(glob_matches("model_[0-4]?", "Model_37"));
    EXPECT_FALSE(glob_matches("model_[0-4]?", "model_57"));
    EXPECT_TRUE(glob_matches("[!a-c]*", "dune"));
    EXPECT_FALSE(glob_matches("[^a-c]*", "Cave"));
    EXPECT_TRUE(glob_matches("[]x]", "]"));  // a ']' first in a set is one of it
    EXPECT_TRUE(glob_matches("[*?]", "*"));
    EXPECT_FALSE(glob_matches("[*?]", "a"));
    EXPECT_TRUE(glob_matches("a-[x-]", "a--"));  // a '-' last in a set is one of it
    EXPECT_FALSE(glob_matches("[ab", "a"));      // malformed: nothing
    // Many stars against a long name that fails at its end: no exponential backtracking.
    EXPECT_FALSE(glob_matches("*a*a*a*a*a*a*a*a*b", std::string(2000, 'a')));
}

TEST(InstanceSelection, ADocumentWithoutInstancesSaysNothingAndNoneKeptWarns) {
    cast::Document model = map_of({});
    Diagnostics diagnostics;
    EXPECT_TRUE(select(model, {.include = {"x"}}, &diagnostics).empty());
    EXPECT_EQ(diagnostics.size(), 0u);
    cast::Document map = map_of({{"a", "a.cast", glm::vec3{1e5f, 0, 0}}});
    EXPECT_TRUE(
        select(map, {.within = {{.centre = {0, 0, 0}, .radius = 10}}}, &diagnostics).empty());
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics.begin()->rule, "scene.nothing-selected");
    EXPECT_EQ(diagnostics.begin()->severity, Severity::Warning);
    EXPECT_EQ(diagnostics.begin()->file, "map.cast");
}

TEST(InstanceSelection, TheOtherNodesOfTheMapStay) {
    cast::Document map = map_of({{"a", "a.cast", glm::vec3{100, 0, 0}}});
    cast::Root root = map.root_nodes()[0];
    root.add_model().set_name("kept model");
    select(map, {.within = {{.centre = {0, 0, 0}, .radius = 1}}});
    EXPECT_EQ(map.root_nodes()[0].instances().size(), 0u);
    EXPECT_EQ(map.root_nodes()[0].models().size(), 1u);
    EXPECT_EQ(map.root_nodes()[0].metadata().size(), 1u);
}

std::string refusal(const scene::InstanceSelection& selection) {
    auto valid = selection.validate();
    EXPECT_FALSE(valid);
    if (valid) return "";
    EXPECT_EQ(valid.error().rule, "scene.selection");
    return valid.error().message;
}

TEST(InstanceSelection, ValidateRefusesWhatSelectsNothingByMistake) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(refusal({.within = {{.centre = {0, 0, 0}, .radius = -1}}}),
              "within: the radius -1 is negative");
    EXPECT_EQ(refusal({.within = {{.centre = {0, 0, 0}, .radius = inf}}}),
              "within: the radius is not a finite number");
    EXPECT_EQ(refusal({.within = {{.centre = {nan, 0, 0}, .radius = 1}}}),
              "within: the centre is not a finite point");
    EXPECT_EQ(refusal({.box = {{.min = {0, 5, 0}, .max = {1, 4, 1}}}}),
              "box: the minimum 5 on y exceeds the maximum 4");
    EXPECT_EQ(refusal({.box = {{.min = {0, 0, 0}, .max = {1, 1, inf}}}}),
              "box: a corner is not a finite point");
    EXPECT_EQ(refusal({.include = {"rock", "[ab"}}),
              "include: the glob '[ab' opens a set with '[' that no ']' closes");
    EXPECT_EQ(refusal({.exclude = {""}}), "exclude: an empty glob matches no name");
    // A radius of 0 and a flat box are valid: they keep what lies on them.
    EXPECT_TRUE((scene::InstanceSelection{.within = {{.radius = 0}},
                                          .box = {{.min = {0, 0, 0}, .max = {0, 9, 9}}}})
                    .validate());
    EXPECT_TRUE(scene::InstanceSelection{}.empty());
}

}  // namespace
}  // namespace castkit::test::instance_selection_test

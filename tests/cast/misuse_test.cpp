// Issue 30: what a program written against the public headers alone may get wrong, and what
// castkit does then: refuse with a clear error, answer empty, or (for a bug the caller can
// always avoid, such as reading the value of an error) stop with a message, never corrupt
// memory and never write a file its own reader rejects.
#include <gtest/gtest.h>

#include <castkit/cast/document.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/expected.hpp>

#include "../test_support.hpp"

namespace castkit::test {
namespace {

Expected<int> failing() {
    Diagnostic error;
    error.file = "x.cast";
    error.rule = "test.rule";
    error.message = "it failed";
    return make_error(error);
}

// Item 9: value() on an error threw std::bad_variant_access in Release, though castkit promises
// never to throw; it now names the misuse and the error, and aborts, in every build.
TEST(ExpectedMisuse, ValueOfAnErrorStopsWithTheErrorNotAnException) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // (Plain patterns: Windows' gtest matches with its simple regex, without brackets.)
    EXPECT_DEATH((void)failing().value(), "value\\(\\) called on an error");
    EXPECT_DEATH((void)failing().value(), "it failed");
    const Expected<int> error = failing();
    EXPECT_DEATH((void)*error, "value\\(\\) called on an error");
    EXPECT_DEATH((void)Expected<int>(3).error(), "error\\(\\) called on a value");
    EXPECT_DEATH((void)Expected<void>().error(), "error\\(\\) called on success");
}

TEST(ExpectedMisuse, ValueAndErrorAnswerWhenTheyExist) {
    Expected<int> three(3);
    EXPECT_EQ(three.value(), 3);
    EXPECT_EQ(*three, 3);
    EXPECT_EQ(failing().error().message, "it failed");
    EXPECT_EQ(failing().error().severity, Severity::Error);
}

}  // namespace
}  // namespace castkit::test

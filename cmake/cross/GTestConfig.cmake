# GoogleTest for a cross-build: built for the target from Debian's sources (package googletest),
# which define the GTest::gtest, GTest::gtest_main and GTest::gmock targets.
if(NOT TARGET GTest::gtest)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  add_subdirectory(/usr/src/googletest "${CMAKE_BINARY_DIR}/googletest" EXCLUDE_FROM_ALL)
endif()
set(GTest_FOUND TRUE)

// START_DEATH_TEST() begins a test that expects the program to stop: it re-runs this program in a
// child process ("threadsafe"). Under Wine that path has not been shown to work, so the Windows
// build skips them (the code that aborts is the same on every system).
#pragma once

#include <gtest/gtest.h>

#ifdef _WIN32
#define START_DEATH_TEST() GTEST_SKIP() << "death tests are not run under Wine"
#else
#define START_DEATH_TEST() GTEST_FLAG_SET(death_test_style, "threadsafe")
#endif

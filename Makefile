# The two entry points a newcomer needs:
#   make demo   set up, build, and run castkit on the bundled example files
#   make test   set up, build, and run every test (plus the sanitizer build when CI=true)
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CASTKIT = $(BUILD)/tools/castkit/castkit

.PHONY: setup build demo test test-sanitize fuzz bench clean

setup:
	@bash scripts/setup.sh

build: setup
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCASTKIT_WERROR=ON
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	bash scripts/demo.sh $(CASTKIT)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
ifeq ($(CI),true)
	$(MAKE) test-sanitize
	$(MAKE) fuzz FUZZ_SECONDS=60
endif

# AddressSanitizer + UndefinedBehaviorSanitizer build of the library and tests.
test-sanitize: setup
	cmake -S . -B $(BUILD)-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCASTKIT_WERROR=ON \
	  -DCASTKIT_SANITIZE=address,undefined -DCASTKIT_BUILD_BENCH=OFF
	cmake --build $(BUILD)-asan -j $(JOBS)
	ctest --test-dir $(BUILD)-asan --output-on-failure -j $(JOBS)

# Every libFuzzer harness in fuzz/ (clang, ASan + UBSan) for FUZZ_SECONDS each, two at a time;
# fails on any crash, timeout or out-of-memory (docs/fuzzing.md).
FUZZ_SECONDS ?= 60
fuzz: setup
	cmake -S . -B $(BUILD)-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_COMPILER=clang++ -DCASTKIT_FUZZ=ON -DCASTKIT_SANITIZE=address,undefined \
	  -DCASTKIT_BUILD_TESTS=OFF -DCASTKIT_BUILD_TOOLS=OFF -DCASTKIT_BUILD_BENCH=OFF \
	  -DCASTKIT_BUILD_EXAMPLES=OFF
	cmake --build $(BUILD)-fuzz -j $(JOBS)
	bash fuzz/run.sh $(BUILD)-fuzz $(FUZZ_SECONDS) $(JOBS)

bench: build
	bash bench/run.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-fuzz

# Fuzzing (RH_FUZZ, clang) and the replay of fuzz inputs (RH_FUZZ or
# RH_SANITIZE). Included from the top-level CMakeLists.txt, after RH_SOURCES
# and the rh_rocksdb_internal target are defined.
set(RH_FUZZ_DIR "${CMAKE_SOURCE_DIR}/tests/fuzz")
set(RH_FUZZ_HARNESS "${RH_FUZZ_DIR}/harness.cc" "${RH_FUZZ_DIR}/exercise.cc"
                    "${RH_FUZZ_DIR}/rechecksum.cc" "${RH_FUZZ_DIR}/edits.cc")
# The seed corpus, written by the build; the edits fuzzer's bases are in it.
set(RH_FUZZ_SEEDS "${CMAKE_BINARY_DIR}/fuzz-seeds")

if(RH_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "RH_FUZZ needs clang (libFuzzer): "
            "-DCMAKE_CXX_COMPILER=clang++")
  endif()
  # Our sources again, instrumented for coverage: the fuzzer learns only
  # from what it can see, and the library's own code is not instrumented.
  # libstdc++ (clang's default here), so we link with the gcc-built
  # librocksdb.so.
  add_library(rh_fuzz_harness STATIC ${RH_SOURCES} ${RH_FUZZ_HARNESS})
  target_link_libraries(rh_fuzz_harness PUBLIC rh_rocksdb_internal)
  target_compile_options(rh_fuzz_harness PUBLIC
    -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
    -fno-sanitize-recover=undefined)
  target_link_options(rh_fuzz_harness PUBLIC -fsanitize=address,undefined)
  foreach(_mode raw crafted edits)
    add_executable(rh_fuzz_${_mode} "${RH_FUZZ_DIR}/fuzz_${_mode}.cc")
    target_link_libraries(rh_fuzz_${_mode} rh_fuzz_harness)
    target_link_options(rh_fuzz_${_mode} PRIVATE -fsanitize=fuzzer)
  endforeach()
else()
  # The sanitizer build: the harness over the (sanitized) library.
  add_library(rh_fuzz_harness STATIC ${RH_FUZZ_HARNESS})
  target_link_libraries(rh_fuzz_harness PUBLIC rh_internal)
endif()

add_executable(rh_fuzz_replay "${RH_FUZZ_DIR}/replay.cc")
target_link_libraries(rh_fuzz_replay rh_fuzz_harness)
add_executable(rh_fuzz_make_corpus "${RH_FUZZ_DIR}/make_corpus.cc")
target_link_libraries(rh_fuzz_make_corpus rh_fuzz_harness)
target_compile_definitions(rh_fuzz_harness PRIVATE
  RH_FUZZ_SEEDS_DIR="${RH_FUZZ_SEEDS}")

add_custom_command(
  OUTPUT "${RH_FUZZ_SEEDS}.stamp"
  COMMAND ${CMAKE_COMMAND} -E rm -rf "${RH_FUZZ_SEEDS}"
  COMMAND ${CMAKE_COMMAND} -E make_directory "${RH_FUZZ_SEEDS}"
  COMMAND rh_fuzz_make_corpus "${RH_FUZZ_SEEDS}" > "${RH_FUZZ_SEEDS}.log"
  COMMAND ${CMAKE_COMMAND} -E touch "${RH_FUZZ_SEEDS}.stamp"
  DEPENDS rh_fuzz_make_corpus
  COMMENT "Writing the fuzz seed corpus into ${RH_FUZZ_SEEDS}")
add_custom_target(rh_fuzz_seeds ALL DEPENDS "${RH_FUZZ_SEEDS}.stamp")

# Every input that ever crashed the fuzzer, in both modes; and the seeds,
# which are real files and must read cleanly under the sanitizers.
add_test(NAME fuzz_regressions
         COMMAND rh_fuzz_replay "${RH_FUZZ_DIR}/regressions")
add_test(NAME fuzz_seeds COMMAND rh_fuzz_replay "${RH_FUZZ_SEEDS}")
# The edits fuzzer's crashers and its seeds (each base as written), over
# the seed files they edit.
add_test(NAME fuzz_edit_regressions
         COMMAND rh_fuzz_replay --edits "${RH_FUZZ_DIR}/regressions/edits"
                 "${RH_FUZZ_DIR}/edit-seeds")
set_tests_properties(fuzz_regressions fuzz_seeds fuzz_edit_regressions
                     PROPERTIES TIMEOUT 600)

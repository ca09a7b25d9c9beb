# Read by RocksDB's CMake when tools/build_host.sh configures the second
# host (CMAKE_PROJECT_rocksdb_INCLUDE, after RocksDB's project()). The
# host is a unity build (CMAKE_UNITY_BUILD): its library, this plugin's
# sources with it, compiles in batches of files, in well under half the
# time file by file (docs/reliability.md). db_stress stays file by file:
# batched, one of its files shadows a name another declares, which
# RocksDB's -Werror refuses.
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL
               set_target_properties db_stress PROPERTIES UNITY_BUILD OFF)

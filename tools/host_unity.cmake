# Read by RocksDB's CMake when tools/build_host.sh configures the second
# host (CMAKE_PROJECT_rocksdb_INCLUDE, after RocksDB's project()). The
# host is a unity build (CMAKE_UNITY_BUILD): its library, this plugin's
# sources with it, compiles in batches of files, in well under half the
# time file by file (docs/reliability.md). db_stress stays file by file:
# batched, one of its files shadows a name another declares, which
# RocksDB's -Werror refuses.
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL
               set_target_properties db_stress PROPERTIES UNITY_BUILD OFF)
# Since 11.x the library and db_stress both compile db_stress's
# compression manager. File by file, db_stress's own copy keeps the
# library's out of the link; inside a batch of the library it comes in
# with the batch's other files, and every symbol of it is then defined
# twice. (No such file before 11.x: the property then names nothing.)
set_source_files_properties(db_stress_tool/db_stress_compression_manager.cc
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)

# cmake --install: the libraries, the public header, a CMake package
# (find_package(RocksDBRobinHood) gives RocksDBRobinHood::rocksdb_robinhood,
# static, and RocksDBRobinHood::rocksdb_robinhood_shared where built, each
# carrying the include path and the RocksDB dependency) and a pkg-config
# file (rocksdb-robinhood.pc).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_targets rocksdb_robinhood)
if(TARGET rocksdb_robinhood_shared)
  list(APPEND _targets rocksdb_robinhood_shared)
endif()
install(TARGETS ${_targets} EXPORT RocksDBRobinHoodTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES include/rocksdb_robinhood/robinhood_table.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/rocksdb_robinhood)

set(_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/RocksDBRobinHood)
install(EXPORT RocksDBRobinHoodTargets NAMESPACE RocksDBRobinHood::
        DESTINATION ${_cmake_dir})
configure_package_config_file(cmake/RocksDBRobinHoodConfig.cmake.in
  ${CMAKE_BINARY_DIR}/RocksDBRobinHoodConfig.cmake INSTALL_DESTINATION ${_cmake_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/RocksDBRobinHoodConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/RocksDBRobinHoodConfig.cmake
              ${CMAKE_BINARY_DIR}/RocksDBRobinHoodConfigVersion.cmake
        DESTINATION ${_cmake_dir})

# pkg-config: the codecs our code calls directly, then RocksDB.
set(RH_PC_CODEC_LIBS "")
foreach(_lib ${RH_CODEC_LIBS})
  string(APPEND RH_PC_CODEC_LIBS " -l${_lib}")
endforeach()
file(RELATIVE_PATH RH_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file(cmake/rocksdb-robinhood.pc.in ${CMAKE_BINARY_DIR}/rocksdb-robinhood.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/rocksdb-robinhood.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

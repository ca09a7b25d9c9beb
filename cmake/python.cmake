# The Python package rocksdb_robinhood: the pybind11 module
# _rocksdb_robinhood and the pure-Python modules beside it, assembled in
# build/python/rocksdb_robinhood so that PYTHONPATH=build/python imports the
# build, and installed under Debian's python3 dist-packages.
#
# Only Debian's /usr/bin/python3 is used: it is the interpreter that sees
# Debian's pybind11, dask and distributed packages, whatever `python3` comes
# first on PATH.
#
# Not built where a Python process could not load it: sanitized or fuzz
# builds (the runtime lives in executables), and a static RocksDB host (its
# archive is not position-independent; the in-tree host is one).

option(RH_PYTHON "Build the Python package (needs pybind11-dev)" ON)
set(RH_PYTHON_EXECUTABLE /usr/bin/python3)

if(NOT RH_PYTHON OR RH_SANITIZE OR RH_FUZZ OR
   NOT _rocksdb_type STREQUAL "SHARED_LIBRARY" OR RH_HOST_HAS_PLUGIN)
  message(STATUS "Python package: not built here")
  return()
endif()

# pybind11's classic mode reads PYTHON_EXECUTABLE, FindPython reads
# Python_EXECUTABLE: force both, so neither searches PATH.
set(PYTHON_EXECUTABLE ${RH_PYTHON_EXECUTABLE} CACHE FILEPATH "" FORCE)
set(Python_EXECUTABLE ${RH_PYTHON_EXECUTABLE} CACHE FILEPATH "" FORCE)
find_package(pybind11 CONFIG QUIET)
if(NOT pybind11_FOUND)
  message(WARNING "Python package: pybind11 not found (tools/setup.sh "
                  "installs pybind11-dev); not built")
  return()
endif()

set(RH_PYTHON_PACKAGE_DIR "${CMAKE_BINARY_DIR}/python/rocksdb_robinhood")
file(GLOB RH_BINDING_SOURCES CONFIGURE_DEPENDS
     "${CMAKE_SOURCE_DIR}/tools/python/binding/*.cc")
# NO_EXTRAS: no LTO or stripping, which would differ from the rest of the
# build (and the library's NDEBUG setting is ours to keep).
pybind11_add_module(_rocksdb_robinhood MODULE NO_EXTRAS ${RH_BINDING_SOURCES})
# zlib: the shard of a key is its CRC-32, as Python's zlib.crc32 computes it.
target_link_libraries(_rocksdb_robinhood PRIVATE rh_inspect_commands rh_load_lib z)
set_target_properties(_rocksdb_robinhood PROPERTIES
  LIBRARY_OUTPUT_DIRECTORY "${RH_PYTHON_PACKAGE_DIR}")

# The pure-Python modules, copied beside the extension on every build.
file(GLOB RH_PYTHON_SOURCES CONFIGURE_DEPENDS
     "${CMAKE_SOURCE_DIR}/tools/python/rocksdb_robinhood/*.py")
set(_copied "")
foreach(_src ${RH_PYTHON_SOURCES})
  get_filename_component(_name "${_src}" NAME)
  add_custom_command(OUTPUT "${RH_PYTHON_PACKAGE_DIR}/${_name}"
    COMMAND ${CMAKE_COMMAND} -E copy_if_different "${_src}"
            "${RH_PYTHON_PACKAGE_DIR}/${_name}"
    DEPENDS "${_src}" VERBATIM)
  list(APPEND _copied "${RH_PYTHON_PACKAGE_DIR}/${_name}")
endforeach()
add_custom_target(rh_python_package ALL DEPENDS ${_copied})
add_dependencies(_rocksdb_robinhood rh_python_package)

# Installed where Debian's python3 looks: /usr/lib/python3/dist-packages for
# the system prefix, <prefix>/lib/python3.X/dist-packages for any other
# (Debian's site.py reads /usr/local/lib/python3.X/dist-packages).
execute_process(COMMAND ${RH_PYTHON_EXECUTABLE} -c
  "import sys; print('%d.%d' % sys.version_info[:2])"
  OUTPUT_VARIABLE _py_version OUTPUT_STRIP_TRAILING_WHITESPACE)
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(_py_dir lib/python3/dist-packages)
else()
  set(_py_dir lib/python${_py_version}/dist-packages)
endif()
set(RH_PYTHON_INSTALL_DIR "${_py_dir}" CACHE STRING
    "Where the package is installed, relative to the prefix")
install(TARGETS _rocksdb_robinhood
        LIBRARY DESTINATION ${RH_PYTHON_INSTALL_DIR}/rocksdb_robinhood)
install(FILES ${RH_PYTHON_SOURCES}
        DESTINATION ${RH_PYTHON_INSTALL_DIR}/rocksdb_robinhood)

# One ctest entry per test file, so -R picks them and ctest -j runs them
# side by side. tests/python is on the path of the Dask workers too: they
# import the test module's functions that a test's bag runs.
file(GLOB RH_PYTHON_TESTS CONFIGURE_DEPENDS
     "${CMAKE_SOURCE_DIR}/tests/python/test_*.py")
foreach(_test ${RH_PYTHON_TESTS})
  get_filename_component(_name "${_test}" NAME_WE)
  string(REGEX REPLACE "^test_" "python_" _name "${_name}")
  add_test(NAME ${_name}
    COMMAND ${RH_PYTHON_EXECUTABLE} -m pytest -q -p no:cacheprovider "${_test}")
  set_tests_properties(${_name} PROPERTIES TIMEOUT 300 ENVIRONMENT
    "PYTHONPATH=${CMAKE_BINARY_DIR}/python:${CMAKE_SOURCE_DIR}/tests/python;RH_BUILD_DIR=${CMAKE_BINARY_DIR};PYTHONDONTWRITEBYTECODE=1")
endforeach()

"""What the Python tests share: the build's programs, and input files."""

import os
import struct

import pytest


def build_program(name):
    """The path of a program of the build (ctest sets RH_BUILD_DIR)."""
    build = os.environ.get("RH_BUILD_DIR")
    if not build:
        pytest.fail("RH_BUILD_DIR is not set (run the tests through ctest)")
    path = os.path.join(build, name)
    if not os.path.exists(path):
        pytest.fail("%s was not built" % path)
    return path


def write_binary(path, pairs):
    """Writes `pairs` in rh_load's binary input format."""
    with open(path, "wb") as f:
        pack = struct.Struct("<II").pack
        for k, v in pairs:
            f.write(pack(len(k), len(v)))
            f.write(k)
            f.write(v)

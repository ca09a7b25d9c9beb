// The owner of the suites' precompiled header (CMakeLists.txt): a target
// of its own, so that building any one suite builds the header and not
// another suite.

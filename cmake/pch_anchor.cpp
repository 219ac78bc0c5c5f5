// The one source of feedcheck_test_pch (cmake/CompileTime.cmake): an object library needs a
// unit to build its precompiled header with, which every test program then reuses.

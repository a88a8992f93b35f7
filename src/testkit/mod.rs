//! Test-only fixtures shared by the tests of more than one module: the crate's one place for
//! them, so that no test module reaches into another's `tests`.

pub(crate) mod spec_vectors;

//! What the fuzz targets drive besides the public surface (the `fuzzing` feature): the case
//! bundle format, one trial, the comparison and the worker protocol's line parsers. Not an API
//! for runtimes.

pub use crate::compare::{compare_outputs, Rule};
pub use crate::discover::{CaseSpec, Spec, SpecKind};
pub use crate::read::bundle;
pub use crate::trials::{run as run_trial, Context, Judged};
pub use crate::worker::{parse_hello, parse_reply, Failure, PROTOCOL_VERSION};

//! The suite on one backend, in this process, for the tasks that run several (scoreboard,
//! deep): the backend started by name as `ONNX_CONFORMANCE_BACKEND` would start it.

use harness::runner::Suite;
use std::error::Error;
use std::path::Path;

/// The suite over this workspace's data, lock, own cases and tolerances on the backend `value` names (a shipped name,
/// `worker:<label>=<command line>` or `onnx-backend:MODULE[:CLASS]`), started with the Python,
/// timeout and target directory the environment gives, with progress on a terminal.
pub fn suite(root: &Path, value: &str) -> Result<Suite, Box<dyn Error>> {
    configured(root, value, None)
}

/// [`suite`] with the backend in `configuration`, of those it declares (`None`: as the
/// environment says, else its default).
pub fn configured(
    root: &Path,
    value: &str,
    configuration: Option<&str>,
) -> Result<Suite, Box<dyn Error>> {
    let mut how = harness::runner::starting(root)?;
    if let Some(c) = configuration {
        how.configuration = Some(c.to_string());
    }
    let backend = harness::backend::start_backend(value, &how)
        .map_err(|e| format!("backend {value}: {e}"))?;
    Ok(Suite::in_workspace(root, backend).progress(true))
}

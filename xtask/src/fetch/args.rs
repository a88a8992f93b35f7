//! Command-line options of `cargo xtask fetch-tests`.

use super::error::{Error, Result};
use super::releases::is_release;
use std::path::PathBuf;

/// Help text, printed by `--help`.
pub const USAGE: &str = "usage: cargo xtask fetch-tests [options]

Fetches the official ONNX backend node-test data (Cast, CastLike, Concat by default) of onnx
releases 1.2.3 .. 1.22.0 through your own pip, verifies it against onnx-backend-data.lock.json,
and extracts it into onnx-backend-data/onnx-<release>/node/<case>/.

options:
  --release V       only this release (repeatable; default: all 21 releases)
  --offline         use only wheels already in onnx-backend-data/.cache (never run pip)
  --from PATH       take the data from a local wheel, or from an onnx source checkout that
                    has onnx/backend/test/data/node (the release comes from --release, the
                    wheel's file name, or the checkout's VERSION_NUMBER)
  --update-lock     record what was fetched in the lock file instead of checking against it
  --ops P1,P2,...   more case-directory prefixes to extract beside the lock's (test_cast,
                    test_concat), which stay verified; the extra files are not in the lock,
                    and the next run without --ops removes them
  --verify          re-hash every extracted file against the lock (default: a cheap check of
                    the file list and sizes recorded when the release was verified)
  --generate V      export the cases of onnx V from its Python case generators into
                    onnx-backend-data/onnx-V-generated/ (needs python3 with venv and pip)
  -h, --help        this text

environment:
  PYTHON            the Python interpreter to run pip with (default: python3)";

/// Parsed options.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// Releases to process; empty means all default releases.
    pub releases: Vec<String>,
    /// Never run pip; only the cache (or `--from`) may supply wheels.
    pub offline: bool,
    /// A local wheel or onnx source checkout.
    pub from: Option<PathBuf>,
    /// Write the lock from what was fetched.
    pub update_lock: bool,
    /// Case-directory prefixes to extract beside the lock's (`--ops`).
    pub extra_ops: Vec<String>,
    /// Re-hash installed files instead of the cheap presence check.
    pub verify: bool,
    /// Export generated cases of these releases instead of fetching.
    pub generate: Vec<String>,
    /// Print help and exit.
    pub help: bool,
}

/// Parses the options after `fetch-tests`.
pub fn parse(args: &[String]) -> Result<Options> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        // Accept both `--opt value` and `--opt=value`.
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |flag: &str| -> Result<String> {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| usage_error(format!("{flag} needs a value")))
        };
        match name {
            "--release" => o
                .releases
                .push(release_arg("--release", value("--release")?)?),
            "--generate" => o
                .generate
                .push(release_arg("--generate", value("--generate")?)?),
            "--from" => o.from = Some(PathBuf::from(value("--from")?)),
            "--ops" => o.extra_ops = ops_arg(&value("--ops")?)?,
            "--offline" | "--update-lock" | "--verify" | "-h" | "--help" if inline.is_some() => {
                return Err(usage_error(format!("{name} takes no value")))
            }
            "--offline" => o.offline = true,
            "--update-lock" => o.update_lock = true,
            "--verify" => o.verify = true,
            "-h" | "--help" => o.help = true,
            other => return Err(usage_error(format!("unknown option `{other}`"))),
        }
    }
    if o.from.is_some() && o.releases.len() > 1 {
        return Err(usage_error(
            "--from takes data for one release; give at most one --release",
        ));
    }
    if !o.generate.is_empty() && (o.from.is_some() || o.offline || !o.releases.is_empty()) {
        return Err(usage_error(
            "--generate cannot be combined with --from, --offline or --release",
        ));
    }
    Ok(o)
}

fn usage_error(message: impl Into<String>) -> Error {
    Error::new(message).hint("see `cargo xtask fetch-tests --help`")
}

fn release_arg(flag: &str, v: String) -> Result<String> {
    if is_release(&v) {
        Ok(v)
    } else {
        Err(usage_error(format!(
            "{flag} `{v}` is not a release number such as 1.22.0"
        )))
    }
}

fn ops_arg(v: &str) -> Result<Vec<String>> {
    let ops: Vec<String> = v.split(',').map(|s| s.trim().to_string()).collect();
    let valid = |p: &String| {
        p.starts_with("test_") && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    };
    match ops.iter().find(|p| !valid(p)) {
        Some(bad) => Err(usage_error(format!(
            "--ops `{bad}` is not a case prefix such as test_cast (letters, digits, _)"
        ))),
        None => Ok(ops),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Options> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn parses_every_option() {
        let o = p(&[
            "--release",
            "1.22.0",
            "--release=1.2.3",
            "--offline",
            "--update-lock",
        ])
        .expect("valid options");
        assert_eq!(o.releases, ["1.22.0", "1.2.3"]);
        assert!(o.offline && o.update_lock && !o.verify);
        let o = p(&["--ops", "test_add,test_sub", "--verify", "--from", "x.whl"]).expect("valid");
        assert_eq!(o.extra_ops, ["test_add", "test_sub"]);
        assert_eq!(o.from, Some(PathBuf::from("x.whl")));
        assert!(p(&[]).expect("empty").extra_ops.is_empty());
    }

    #[test]
    fn rejects_bad_options() {
        for bad in [
            &["--release"][..],
            &["--release", "../x"],
            &["--ops", "cast"],
            &["--ops", "test_a/../b"],
            &["--bogus"],
            &["--offline=yes"],
            &[
                "--from",
                "a.whl",
                "--release",
                "1.2.3",
                "--release",
                "1.3.0",
            ],
            &["--generate", "1.23.0", "--offline"],
        ] {
            let e = p(bad).expect_err(&format!("{bad:?} must be rejected"));
            assert!(e.hint.is_some(), "{e}");
        }
    }
}

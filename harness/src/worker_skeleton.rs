//! A new worker's starting point: a Python worker of protocol 1 that runs onnx's reference
//! evaluator out of the box, with `# TODO: your runtime` at each spot to replace. Written for
//! a user of the installed command (its protocol loop copied beside it) and for this
//! repository's developers (the loop found in `harness/python`).

use crate::backend::check_label;
use crate::Error;
use std::path::{Component, Path, PathBuf};

/// The skeleton's text, with `{{NAME}}`, `{{WRITTEN_BY}}`, `{{CHECK}}` and
/// `{{WORKER_LOOP_DIR}}` to substitute.
const TEMPLATE: &str = include_str!("../python/worker_template.py");

/// Where the skeleton finds `worker_loop.py`.
#[derive(Clone, Debug)]
pub enum LoopAt {
    /// A copy written beside the skeleton (left alone when one with the same bytes is there).
    Beside,
    /// This directory, which already holds it (written relative to the skeleton when both are
    /// below `root`, so the two move together; else absolute).
    Dir {
        /// The directory holding `worker_loop.py`.
        dir: PathBuf,
        /// The tree both belong to.
        root: PathBuf,
    },
}

/// What wrote the skeleton and how to check it, as its docstring says.
#[derive(Clone, Debug)]
pub struct Words<'a> {
    /// The command that wrote it.
    pub written_by: &'a str,
    /// The command that checks it step by step.
    pub check: &'a str,
}

/// What [`write`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The skeleton, absolute.
    pub worker: PathBuf,
    /// The copy of `worker_loop.py` written beside it; `None` when one was there already or
    /// the loop lives elsewhere.
    pub worker_loop: Option<PathBuf>,
}

/// The skeleton of worker `name`, finding `worker_loop.py` in `loop_dir` (relative to the
/// skeleton's own directory, or absolute).
pub fn render(name: &str, loop_dir: &str, words: &Words<'_>) -> String {
    TEMPLATE
        .replace("{{NAME}}", name)
        .replace("{{WRITTEN_BY}}", words.written_by)
        .replace("{{CHECK}}", words.check)
        .replace("{{WORKER_LOOP_DIR}}", loop_dir)
}

/// Writes the skeleton of worker `name` at `out` (absolute; never over an existing file), and
/// the protocol loop as `at` says. Nothing is written when `name` is not a worker label, `out`
/// does not end in `.py`, or a `worker_loop.py` beside it differs from this version's.
pub fn write(name: &str, out: &Path, at: &LoopAt, words: &Words<'_>) -> Result<Written, Error> {
    check_label(name)?;
    if out.extension().and_then(|e| e.to_str()) != Some("py") {
        return Err(Error::Output(format!(
            "{} does not end in .py",
            out.display()
        )));
    }
    let dir = out
        .parent()
        .ok_or_else(|| Error::Output(format!("{} has no directory", out.display())))?;
    let loop_text = crate::backend::python::worker_loop();
    let (loop_dir, copy) = match at {
        LoopAt::Beside => {
            let copy = dir.join("worker_loop.py");
            match std::fs::read(&copy) {
                Ok(held) if held == loop_text.as_bytes() => (PathBuf::from("."), None),
                Ok(_) => {
                    return Err(Error::Output(format!(
                        "{} exists and is not this version's protocol loop; it is not \
                         overwritten (remove it, or give --out in another directory)",
                        copy.display()
                    )))
                }
                Err(_) => (PathBuf::from("."), Some(copy)),
            }
        }
        LoopAt::Dir {
            dir: loop_dir,
            root,
        } => {
            let inside =
                dir.starts_with(root) && !dir.components().any(|c| c == Component::ParentDir);
            let relative = inside.then(|| relative(dir, loop_dir)).flatten();
            (relative.unwrap_or_else(|| loop_dir.clone()), None)
        }
    };
    let loop_dir = loop_dir
        .to_str()
        .ok_or_else(|| Error::Output("a path that is not UTF-8".into()))?
        .to_string();
    std::fs::create_dir_all(dir).map_err(|e| Error::Output(format!("{}: {e}", dir.display())))?;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out);
    let mut file = match file {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(Error::Output(format!(
                "{} exists; it is not overwritten (remove it, or give --out PATH)",
                out.display()
            )))
        }
        Err(e) => return Err(Error::Output(format!("{}: {e}", out.display()))),
    };
    std::io::Write::write_all(&mut file, render(name, &loop_dir, words).as_bytes())
        .map_err(|e| Error::Output(format!("{}: {e}", out.display())))?;
    if let Some(copy) = &copy {
        schema::files::write_atomic(copy, loop_text.as_bytes())
            .map_err(|e| Error::Output(e.to_string()))?;
    }
    Ok(Written {
        worker: out.to_path_buf(),
        worker_loop: copy,
    })
}

/// `to` relative to directory `from`, both absolute and without `..`; `None` when they share
/// no root.
fn relative(from: &Path, to: &Path) -> Option<PathBuf> {
    let from: Vec<Component<'_>> = from.components().collect();
    let to: Vec<Component<'_>> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let mut path: PathBuf = from[common..].iter().map(|_| "..").collect();
    path.extend(&to[common..]);
    Some(path)
}

/// A word of a shell command line, quoted when it needs to be.
pub fn quoted(word: &str) -> String {
    shlex::try_quote(word).map_or_else(|_| word.to_string(), |q| q.into_owned())
}

#[cfg(test)]
mod tests;

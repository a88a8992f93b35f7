//! Releases that ship no data files (onnx 1.23 and later), derived by the default fetch from
//! an older release's verified files, so that no venv is needed: the lock records every file
//! of the release as onnx's generators wrote it (`--generate V --update-lock`); a file whose
//! path and hash the older release also has is copied, a `model.onnx` that differs is that
//! release's model re-stamped with the recorded `ir_version` and opset; every derived file is
//! then checked against the lock, and the tree is installed atomically like an extracted one.

use super::error::{Error, Result};
use super::install::{self, Stamp};
use super::lock::{check_files, entry_sha256};
use super::present::Stats;
use schema::hash::sha256_hex;
use schema::index::{Generated, LockedRelease};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// Derives `entry` (a generated release) from the installed files of `base`, its
/// `derived_from` release, into `onnx-<release>`; on any failure nothing is installed.
pub fn derive(
    data: &Path,
    ops: &[String],
    entry: &LockedRelease,
    generated: &Generated,
    base: &LockedRelease,
) -> Result<Stats> {
    let release = entry.release.as_str();
    let base_dir = install::release_dir(data, &base.release);
    let tmp = install::make_temp_dir(data, release)?;
    let written = write_all(&tmp, entry, generated, base, &base_dir).and_then(|files| {
        let hashes = files.iter().map(|(p, (h, _))| (p.clone(), h.clone()));
        check_files(entry, &hashes.collect())?;
        let sizes: BTreeMap<String, u64> = files.into_iter().map(|(p, (_, n))| (p, n)).collect();
        let stamp = Stamp {
            release: release.to_string(),
            source: format!("derived from onnx-{}", base.release),
            wheel_sha256: entry.sha256.clone(),
            lock_entry_sha256: entry_sha256(entry)?,
            ops: ops.to_vec(),
            files: sizes.clone(),
        };
        install::write_stamp(&tmp, &stamp)?;
        install::install(data, release, &tmp)?;
        Ok(sizes)
    });
    match written {
        Ok(sizes) => Ok(Stats::of(&sizes)),
        Err(e) => {
            install::discard(&tmp);
            Err(e)
        }
    }
}

/// Writes every file the lock lists for `entry` under `tmp`; returns path -> (sha256, size).
fn write_all(
    tmp: &Path,
    entry: &LockedRelease,
    generated: &Generated,
    base: &LockedRelease,
    base_dir: &Path,
) -> Result<BTreeMap<String, (String, u64)>> {
    let mut out = BTreeMap::new();
    for (path, want) in &entry.files {
        let src = base_dir.join(path);
        let unknown = || {
            Error::new(format!(
                "onnx {}: cannot derive {path}: onnx {} has no such file, or another one that \
                 is not a model",
                entry.release, base.release
            ))
            .hint(format!(
                "the lock's onnx {} entry needs onnx's generators: run \
                 `cargo xtask fetch-tests --generate {}`",
                entry.release, entry.release
            ))
        };
        let Some(base_hash) = base.files.get(path) else {
            return Err(unknown());
        };
        let bytes = fs::read(&src).map_err(|e| Error::io("read", &src, e))?;
        let bytes = if base_hash == want {
            bytes
        } else if path.ends_with("/model.onnx") {
            restamp(&bytes, generated.ir_version, generated.opset).map_err(|why| {
                Error::new(format!(
                    "onnx {}: cannot re-stamp {}: {why}",
                    entry.release,
                    src.display()
                ))
            })?
        } else {
            return Err(unknown());
        };
        let dest = tmp.join(path);
        if let Some(dir) = dest.parent() {
            fs::create_dir_all(dir).map_err(|e| Error::io("create directory", dir, e))?;
        }
        // Into the release's temporary directory, renamed into place as a whole once every
        // file matches the lock, as an extracted release is: one file at a time through
        // `schema::files::write_atomic` would add nothing but a flush per file (676 of them:
        // 0.2 s became 0.7-2.5 s).
        fs::write(&dest, &bytes).map_err(|e| Error::io("write", &dest, e))?;
        out.insert(path.clone(), (sha256_hex(&bytes), bytes.len() as u64));
    }
    Ok(out)
}

/// `model` (a serialized ModelProto) with its `ir_version` (field 1) and the version of its
/// default-domain `opset_import` entries (field 8) replaced; every other byte is kept as is.
pub fn restamp(model: &[u8], ir_version: i64, opset: i64) -> std::result::Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(model.len() + 4);
    let mut r = Reader {
        bytes: model,
        at: 0,
    };
    let mut stamped = (false, false);
    while !r.done() {
        let start = r.at;
        let (field, wire) = r.tag()?;
        match (field, wire) {
            (1, 0) => {
                r.varint()?;
                put_varint(&mut out, 1 << 3);
                put_varint(&mut out, ir_version as u64);
                stamped.0 = true;
            }
            (8, 2) => {
                let payload = r.bytes()?;
                match restamp_opset(payload, opset)? {
                    Some(new) => {
                        put_varint(&mut out, (8 << 3) | 2);
                        put_varint(&mut out, new.len() as u64);
                        out.extend_from_slice(&new);
                        stamped.1 = true;
                    }
                    None => out.extend_from_slice(&model[start..r.at]),
                }
            }
            _ => {
                r.skip(wire)?;
                out.extend_from_slice(&model[start..r.at]);
            }
        }
    }
    match stamped {
        (true, true) => Ok(out),
        (false, _) => Err("the model has no ir_version".into()),
        (_, false) => Err("the model imports no default-domain opset".into()),
    }
}

/// An `OperatorSetIdProto` with its version (field 2) replaced, if its domain (field 1) is the
/// default one (`""`, absent, or `ai.onnx`); `None` for another domain.
fn restamp_opset(entry: &[u8], opset: i64) -> std::result::Result<Option<Vec<u8>>, String> {
    let mut r = Reader {
        bytes: entry,
        at: 0,
    };
    let mut out = Vec::with_capacity(entry.len() + 2);
    let mut default_domain = true;
    while !r.done() {
        let start = r.at;
        let (field, wire) = r.tag()?;
        match (field, wire) {
            (1, 2) => {
                let domain = r.bytes()?;
                default_domain = domain.is_empty() || domain == b"ai.onnx";
                out.extend_from_slice(&entry[start..r.at]);
            }
            (2, 0) => {
                r.varint()?;
                put_varint(&mut out, 2 << 3);
                put_varint(&mut out, opset as u64);
            }
            _ => {
                r.skip(wire)?;
                out.extend_from_slice(&entry[start..r.at]);
            }
        }
    }
    Ok(default_domain.then_some(out))
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A cursor over protobuf wire-format bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    fn varint(&mut self) -> std::result::Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self
                .bytes
                .get(self.at)
                .ok_or("truncated varint (not a valid model)")?;
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err("varint longer than 10 bytes (not a valid model)".into())
    }

    fn tag(&mut self) -> std::result::Result<(u64, u64), String> {
        let t = self.varint()?;
        Ok((t >> 3, t & 7))
    }

    fn take(&mut self, n: usize) -> std::result::Result<&'a [u8], String> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or("a field runs past the end (not a valid model)")?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn bytes(&mut self) -> std::result::Result<&'a [u8], String> {
        let n = self.varint()?;
        self.take(usize::try_from(n).map_err(|_| "field too long".to_string())?)
    }

    fn skip(&mut self, wire: u64) -> std::result::Result<(), String> {
        match wire {
            0 => self.varint().map(drop),
            1 => self.take(8).map(drop),
            2 => self.bytes().map(drop),
            5 => self.take(4).map(drop),
            w => Err(format!(
                "wire type {w} is not supported (not a valid model)"
            )),
        }
    }
}

#[cfg(test)]
mod tests;

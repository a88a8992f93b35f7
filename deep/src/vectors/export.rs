//! Writing an export: one text file per unit, streamed chunk by chunk (memory stays bounded
//! at any level), each written aside and renamed into place, then `SHA256SUMS` and a README.

use super::elements::{self, Items, Source};
use super::line;
use super::units::{self, Options, Part, Unit};
use crate::Error;
use schema::hash::{sha256_hex, Hasher};
use std::io::Write;
use std::path::Path;

/// Candidates per chunk: large enough that our Cast runs at speed, small enough that an
/// exhaustive file never holds more than a few MiB in memory.
const CHUNK: u64 = 1 << 16;

/// The file listing every written file's sha256 (as `sha256sum` writes it).
pub const SUMS: &str = "SHA256SUMS";

/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Vector files.
    pub files: usize,
    /// Element lines.
    pub lines: u64,
    /// Candidates left out because the spec leaves their result undefined.
    pub left_out: u64,
    /// Bytes of the vector files.
    pub bytes: u64,
    /// The sha256 of `SHA256SUMS`: one hash for the whole export.
    pub sha256: String,
}

/// One file an export would write, and its candidate elements in this shard.
#[derive(Debug, Clone)]
pub struct Planned {
    /// The file name.
    pub name: String,
    /// Candidate elements (a sample's and every code's undefined ones included).
    pub candidates: u64,
}

/// The files `opts` selects, with their candidates in the shard, without writing anything.
pub fn plan(opts: &Options) -> Vec<Planned> {
    units::units(opts.level, &opts.filter, None)
        .iter()
        .map(|u| {
            let total = match u.part {
                Part::Values(_) => Source::new(u, opts.seed, opts.sample).total(),
                Part::Sample => opts.sample,
                Part::Exhaustive => 1u64 << u.from.bit_width(),
            };
            let (a, b) = opts.shard.range(total);
            Planned {
                name: u.file_name(),
                candidates: b - a,
            }
        })
        .collect()
}

/// Writes the vector files `opts` selects under `out` (created if missing), with a README of
/// the format and `SHA256SUMS`. Progress goes to `say`, one line per file of a level-2 or
/// exhaustive part, one per hundred files otherwise.
pub fn export(opts: &Options, out: &Path, say: &mut dyn FnMut(&str)) -> Result<Summary, Error> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let all = units::units(opts.level, &opts.filter, None);
    // The chunks are spread over threads here; a kernel call need not split its tensor too.
    onnx_conformance::tuning::set_threads(1);
    let mut sums = String::new();
    let mut summary = Summary {
        files: 0,
        lines: 0,
        left_out: 0,
        bytes: 0,
        sha256: String::new(),
    };
    for (n, unit) in all.iter().enumerate() {
        let written = write_file(unit, opts, out)?;
        sums.push_str(&format!("{}  {}\n", written.sha256, unit.file_name()));
        summary.files += 1;
        summary.lines += written.lines;
        summary.left_out += written.left_out;
        summary.bytes += written.bytes;
        if !matches!(unit.part, Part::Values(_)) || (n + 1) % 100 == 0 || n + 1 == all.len() {
            say(&format!(
                "vectors: {}/{} {} ({} lines)",
                n + 1,
                all.len(),
                unit.file_name(),
                written.lines
            ));
        }
    }
    schema::files::write_atomic(&out.join(SUMS), sums.as_bytes())?;
    schema::files::write_atomic(&out.join("README.md"), readme(opts).as_bytes())?;
    summary.sha256 = sha256_hex(sums.as_bytes());
    Ok(summary)
}

/// What one file got.
struct Written {
    lines: u64,
    left_out: u64,
    bytes: u64,
    sha256: String,
}

/// A writer that hashes and counts what passes through it.
struct Hashing<W: Write> {
    inner: W,
    hash: Hasher,
    bytes: u64,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Writes `unit`'s file under `out`: aside, then renamed, so that no reader sees it cut short.
fn write_file(unit: &Unit, opts: &Options, out: &Path) -> Result<Written, Error> {
    let name = unit.file_name();
    let path = out.join(&name);
    let aside = out.join(format!(".{name}.partial"));
    let io = |e: std::io::Error| Error::from(format!("cannot write {}: {e}", aside.display()));
    let file = std::fs::File::create(&aside).map_err(io)?;
    let mut w = Hashing {
        inner: std::io::BufWriter::with_capacity(1 << 20, file),
        hash: Hasher::default(),
        bytes: 0,
    };
    let source = Source::new(unit, opts.seed, opts.sample);
    let total = source.total();
    let (start, end) = opts.shard.range(total);
    write!(w, "{}", header(unit, opts, start, end, total)).map_err(io)?;
    let (mut lines, mut left_out) = (0u64, 0u64);
    let starts: Vec<u64> = (start..end).step_by(CHUNK as usize).collect();
    // Chunks are rendered on every thread, a round at a time, and written in order, so the
    // file is the same bytes at any thread count and memory holds one round.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for round in starts.chunks(threads) {
        let rendered: Vec<Result<Rendered, Error>> = std::thread::scope(|s| {
            let handles: Vec<_> = round
                .iter()
                .map(|&a| {
                    let source = &source;
                    s.spawn(move || render(unit, source, a, (a + CHUNK).min(end)))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a vectors thread panicked"))
                .collect()
        });
        for r in rendered {
            let r = r?;
            w.write_all(r.text.as_bytes()).map_err(io)?;
            lines += r.lines;
            left_out += r.left_out;
        }
    }
    writeln!(w, "# end lines {lines} left-out {left_out}").map_err(io)?;
    w.flush().map_err(io)?;
    let Hashing { hash, bytes, .. } = w;
    std::fs::rename(&aside, &path).map_err(|e| {
        let _ = std::fs::remove_file(&aside);
        format!("cannot rename {} into place: {e}", path.display())
    })?;
    Ok(Written {
        lines,
        left_out,
        bytes,
        sha256: hash.finish(),
    })
}

/// One chunk's lines.
struct Rendered {
    text: String,
    lines: u64,
    left_out: u64,
}

/// The lines of candidates `[start, end)` of `source`.
fn render(unit: &Unit, source: &Source, start: u64, end: u64) -> Result<Rendered, Error> {
    let (chunk, left_out) = source.chunk(start, end);
    let expected = elements::expected(unit, &chunk.inputs)?;
    let mut text = String::with_capacity(chunk.inputs.len() * 32);
    for (i, tag) in chunk.tags.iter().enumerate() {
        line::push_item(&mut text, &chunk.inputs, unit.from, i);
        text.push(' ');
        line::push_item(&mut text, &expected, unit.to, i);
        text.push(' ');
        text.push_str(tag.authority.label());
        text.push('/');
        text.push_str(tag.class.label());
        text.push('\n');
    }
    Ok(Rendered {
        text,
        lines: chunk.inputs.len() as u64,
        left_out,
    })
}

/// Element `i` of `items` of type `t` as its column writes it.
pub(crate) fn item(items: &Items, t: vocab::DataType, i: usize) -> String {
    let mut s = String::new();
    line::push_item(&mut s, items, t, i);
    s
}

/// The header of `unit`'s file in shard `[start, end)` of `total` candidates.
fn header(unit: &Unit, opts: &Options, start: u64, end: u64, total: u64) -> String {
    let part = match unit.part {
        Part::Values(_) => "values (the deep tree's value set)".to_string(),
        Part::Sample => format!(
            "sample seed {:#018x} ({} candidates, bit patterns and exponents)",
            opts.seed, opts.sample
        ),
        Part::Exhaustive => "exhaustive (every code of the source)".to_string(),
    };
    let s = opts.shard;
    format!(
        "# onnx-conformance test vectors, format {} (README.md beside this file)\n\
         # op {}\n# version {}\n# from {}\n# to {}\n# attributes {}\n# rules {}\n# part {part}\n\
         # shard {}/{} candidates {start}..{end} of {total}\n\
         # columns input expected authority/class\n",
        line::FORMAT,
        unit.spec.op(),
        unit.spec.since(),
        unit.from.name(),
        unit.to.name(),
        line::attrs_text(&unit.attrs),
        units::rules(unit.spec.since()),
        s.index,
        s.count,
    )
}

/// The README written beside the files: the format, in short (docs/vectors.md in full).
fn readme(opts: &Options) -> String {
    // Only a sample depends on the seed: the other levels' README is the same at any seed.
    let seed = match opts.level {
        units::Level::Two => format!(", seed {:#018x}", opts.seed),
        _ => String::new(),
    };
    let level = match opts.level {
        units::Level::One => "1",
        units::Level::Two => "2",
        units::Level::Exhaustive => "exhaustive",
    };
    format!(
        "# onnx-conformance test vectors\n\n\
         Written by `onnx-conformance vectors export --level {level}` (shard {}/{}{seed}). \
         One file per operator version, source type, target type and attributes \
         (`.sample.txt`: level 2's seeded sample; `.exhaustive.txt`: every code of a 32-bit \
         source). `SHA256SUMS` holds every file's sha256.\n\n\
         ## Format {}\n\n\
         - Lines starting with `#` are the header: `op`, `version`, `from`, `to`, \
         `attributes` (`-` for none), `rules` (`up-to-23` or `from-24`), the part, the shard, \
         and at the end `# end lines N left-out M`.\n\
         - Every other line is one element: `input expected authority/class`, separated by \
         spaces. Numeric and BOOL elements are their bit patterns in lowercase hex, zero-padded \
         to the type's width (FLOAT `3f800000`, FLOAT4E2M1 `7`); STRING elements are quoted, \
         `\"` and `\\` escaped, control characters as `\\u{{hex}}`.\n\
         - `authority` is what fixes the expected value: `page` (the operator page or its \
         technical note), `ieee` (IEEE 754 rounding, C's integer conversion), `data` (only the \
         official node data), `reading` (neither; this project's reading). A difference from \
         `page` or `ieee` is a bug; from `data` or `reading` it is not.\n\
         - `class` is the input class of the deep suite (docs/deep.md).\n\
         - Inputs whose result the specification leaves undefined (a float out of an integer \
         target's range, a negative value into FLOAT8E8M0) are left out.\n\n\
         ## Checking a converter\n\n\
         Keep every line and append your converter's output as a fourth column, \
         `input expected authority/class observed` (or write `input expected observed`), then \
         run `onnx-conformance vectors check FILE...`. Mismatches are grouped by pair, class and \
         authority, and diagnosed by the known wrong behaviour that reproduces them. NaN matches \
         any NaN in a floating target.\n",
        opts.shard.index,
        opts.shard.count,
        line::FORMAT,
    )
}

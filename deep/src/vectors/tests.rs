use super::*;
use std::path::{Path, PathBuf};
use vocab::{DataType, OpKind};

fn opts(level: Level, version: u32, from: DataType, to: Option<DataType>) -> Options {
    Options {
        level,
        seed: 7,
        sample: 3000,
        shard: Shard::WHOLE,
        filter: Filter {
            op: Some(OpKind::Cast),
            version: Some(version),
            from: Some(from),
            to,
        },
    }
}

/// Every FLOAT code of block `block` (the 65536 codes whose high 16 bits it is) into
/// FLOAT8E4M3FN at Cast-28: one exhaustive shard of 2^16.
fn float8_block(block: u64) -> Options {
    let mut o = opts(
        Level::Exhaustive,
        28,
        DataType::Float,
        Some(DataType::Float8E4M3FN),
    );
    o.shard = Shard {
        index: block + 1,
        count: 1 << 16,
    };
    o
}

fn export_to(o: &Options, dir: &Path) -> Summary {
    export(o, dir, &mut |_| {}).expect("export")
}

/// The vector files of `dir`, in name order.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    v
}

/// The element lines of a file (its header and end line left out).
fn body(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Each file rewritten with an observed column: `observe(line)` gives it from the line.
fn observed(dir: &Path, out: &Path, observe: impl Fn(&str, &str) -> String) -> Vec<PathBuf> {
    std::fs::create_dir_all(out).unwrap();
    files(dir)
        .iter()
        .map(|f| {
            let text: String = std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .map(|l| match l.starts_with('#') {
                    true => format!("{l}\n"),
                    false => format!("{l} {}\n", observe(&f.display().to_string(), l)),
                })
                .collect();
            let path = out.join(f.file_name().unwrap());
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect()
}

fn column(l: &str, k: usize) -> String {
    l.split(' ').nth(k).unwrap().to_string()
}

#[test]
fn our_own_outputs_check_clean_and_one_planted_difference_is_found() {
    let dir = tempfile::tempdir().unwrap();
    // Two versions either side of the switch, every target of FLOAT (STRING and the float8
    // attributes included).
    for v in [23, 25] {
        export_to(&opts(Level::One, v, DataType::Float, None), dir.path());
    }
    let written = files(dir.path());
    assert!(written.len() > 30, "{}", written.len());
    let same = observed(dir.path(), &dir.path().join("same"), |_, l| column(l, 1));
    let r = check(&same).unwrap();
    assert_eq!(r.mismatches, 0, "{}", render(&r));
    assert!(r.lines > 10_000, "{}", r.lines);

    // One element of FLOAT -> FLOAT8E4M3FN (1.0, 0x38, exact) observed as 0x39.
    let planted = observed(dir.path(), &dir.path().join("planted"), |f, l| {
        let hit =
            f.ends_with("cast25_FLOAT_to_FLOAT8E4M3FN_saturate1.txt") && l.starts_with("3f800000 ");
        if hit {
            "39".into()
        } else {
            column(l, 1)
        }
    });
    let r = check(&planted).unwrap();
    assert_eq!(r.mismatches, 1, "{}", render(&r));
    let g = &r.groups[0];
    assert_eq!(g.pair, "Cast-25 FLOAT -> FLOAT8E4M3FN saturate=1");
    assert_eq!(g.class.label(), "exact");
    assert_eq!(g.verdict.label(), "disagrees");
    assert_eq!(
        g.examples[0][1..],
        ["3f800000".to_string(), "38".into(), "39".into()]
    );
}

#[test]
fn three_columns_are_classed_and_a_double_rounding_converter_is_diagnosed() {
    let dir = tempfile::tempdir().unwrap();
    let o = opts(
        Level::One,
        25,
        DataType::Double,
        Some(DataType::Float8E4M3FN),
    );
    export_to(&o, dir.path());
    // A converter that rounds DOUBLE to FLOAT first, then into FLOAT8E4M3FN: our own two
    // casts, element by element, in three-column lines.
    let twice = |l: &str| {
        let x = f64::from_bits(u64::from_str_radix(&column(l, 0), 16).unwrap()) as f32;
        let t = vocab::Tensor::from_vec(vec![1], vec![x]).unwrap();
        let to = crate::generate::plan::to_attr(
            vocab::version::versions_of(OpKind::Cast).last().unwrap(),
            DataType::Float8E4M3FN,
        );
        let v = vocab::version::versions_of(OpKind::Cast)
            .last()
            .unwrap()
            .version();
        let out = onnx_conformance::ops::run(v, &[to], &[&t]).unwrap();
        format!("{:02x}", harness::read::tensor_codes(&out[0]).unwrap()[0])
    };
    let out = dir.path().join("observed");
    std::fs::create_dir_all(&out).unwrap();
    let mut paths = Vec::new();
    for f in files(dir.path()) {
        let text: String = std::fs::read_to_string(&f)
            .unwrap()
            .lines()
            .map(|l| match l.starts_with('#') {
                true => format!("{l}\n"),
                false => format!("{} {} {}\n", column(l, 0), column(l, 1), twice(l)),
            })
            .collect();
        let p = out.join(f.file_name().unwrap());
        std::fs::write(&p, text).unwrap();
        paths.push(p);
    }
    let r = check(&paths).unwrap();
    assert!(
        r.mismatches > 0,
        "the deep values hold double-rounding elements"
    );
    // The converter ignores saturate=0 too: beyond the range it saturates.
    use crate::findings::diagnosis::Behaviour::{RoundedTwiceThroughFloat, SaturateIgnored};
    for g in &r.groups {
        let allowed = match g.pair.ends_with("saturate=1") {
            true => vec![RoundedTwiceThroughFloat],
            false => vec![RoundedTwiceThroughFloat, SaturateIgnored],
        };
        assert!(
            g.diagnosis.is_some_and(|d| allowed.contains(&d)),
            "{}",
            render(&r)
        );
    }
    assert!(
        r.groups
            .iter()
            .any(|g| g.class.label() == "double-rounding"),
        "{}",
        render(&r)
    );
}

#[test]
fn four_shards_together_are_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = opts(Level::Two, 19, DataType::Int64, None);
    o.filter.op = Some(OpKind::CastLike);
    let whole = dir.path().join("whole");
    export_to(&o, &whole);
    let mut parts: Vec<PathBuf> = Vec::new();
    for k in 1..=4 {
        o.shard = Shard { index: k, count: 4 };
        let d = dir.path().join(format!("shard{k}"));
        export_to(&o, &d);
        parts.push(d);
    }
    let names = files(&whole);
    assert!(names
        .iter()
        .any(|n| n.to_string_lossy().ends_with(".sample.txt")));
    for f in &names {
        let name = f.file_name().unwrap();
        let joined: Vec<String> = parts.iter().flat_map(|d| body(&d.join(name))).collect();
        assert_eq!(joined, body(f), "{}", name.to_string_lossy());
    }
    // The shards check to the same report as the whole.
    let flip = |_: &str, l: &str| {
        let e = column(l, 1);
        if e.ends_with('1') {
            e.replace('1', "3")
        } else {
            e
        }
    };
    let r_whole = check(&observed(&whole, &dir.path().join("ow"), flip)).unwrap();
    let mut shard_files = Vec::new();
    for (k, d) in parts.iter().enumerate() {
        shard_files.extend(observed(d, &dir.path().join(format!("o{k}")), flip));
    }
    let r_parts = check(&shard_files).unwrap();
    assert!(r_whole.mismatches > 0);
    assert_eq!(r_whole.mismatches, r_parts.mismatches);
    assert_eq!(r_whole.lines, r_parts.lines);
    let strip = |r: &Report| -> Vec<_> {
        r.groups
            .iter()
            .map(|g| {
                (
                    g.pair.clone(),
                    g.class,
                    g.authority,
                    g.diagnosis,
                    g.elements,
                )
            })
            .collect()
    };
    assert_eq!(strip(&r_whole), strip(&r_parts));
}

#[test]
fn one_seed_gives_the_same_files_and_another_seed_others() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = opts(Level::Two, 25, DataType::Float, Some(DataType::Float8E5M2));
    let a = export_to(&o, &dir.path().join("a"));
    let b = export_to(&o, &dir.path().join("b"));
    assert_eq!(a, b);
    o.seed = 8;
    let c = export_to(&o, &dir.path().join("c"));
    assert_ne!(a.sha256, c.sha256);
    // The values files are the same at every seed; only the samples differ.
    let read = |d: &str, n: &str| std::fs::read(dir.path().join(d).join(n)).unwrap();
    let values = "cast25_FLOAT_to_FLOAT8E5M2_saturate1.txt";
    let sample = "cast25_FLOAT_to_FLOAT8E5M2_saturate1.sample.txt";
    assert_eq!(read("a", values), read("c", values));
    assert_ne!(read("a", sample), read("c", sample));
    assert_eq!(body(&dir.path().join("a").join(sample)).len(), 3000);
    // Level 1 depends on no seed, its README included.
    let mut one = opts(Level::One, 25, DataType::Float, Some(DataType::Float8E5M2));
    let d = export_to(&one, &dir.path().join("d"));
    one.seed = 9;
    let e = export_to(&one, &dir.path().join("e"));
    assert_eq!(d, e);
    assert_eq!(read("d", "README.md"), read("e", "README.md"));
}

#[test]
fn an_exhaustive_shard_holds_its_codes_with_the_spec_values() {
    let dir = tempfile::tempdir().unwrap();
    // Cast-28 is the newest version, the one of the rules from 24 (and Cast-23 up to 23).
    // The 65536 codes from 0x3f800000 (1.0) on.
    let o = float8_block(0x3f80);
    let s = export_to(&o, dir.path());
    assert_eq!(s.files, 2, "saturate 0 and 1");
    assert_eq!(s.lines, 2 * 65536);
    let f = dir
        .path()
        .join("cast28_FLOAT_to_FLOAT8E4M3FN_saturate1.exhaustive.txt");
    let lines = body(&f);
    assert_eq!(
        lines[0], "3f800000 38 page/exact",
        "1.0 is 0 0111 000 in E4M3FN"
    );
    // Every code here lies in [1, 1 + 2^-7), nearer 1.0 than the next E4M3FN value 1.125.
    assert!(lines.iter().all(|l| column(l, 1) == "38"));
    let sums = std::fs::read_to_string(dir.path().join(SUMS)).unwrap();
    assert_eq!(sums.lines().count(), 2);
    // Into INT8 the same codes (1.0 up to about 1.0078) are all defined.
    let mut o = opts(Level::Exhaustive, 23, DataType::Float, Some(DataType::Int8));
    o.shard = Shard {
        index: 0x3f80 + 1,
        count: 1 << 16,
    };
    let s = export_to(&o, &dir.path().join("int8"));
    assert_eq!((s.lines, s.left_out), (65536, 0));
    assert_eq!(plan(&o)[0].candidates, 65536);
}

#[test]
fn malformed_lines_are_named_by_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let head = "# op Cast\n# version 19\n# from FLOAT\n# to FLOAT16\n# attributes -\n";
    let cases = [
        ("3f800000 3c00\n", "2 columns"),
        ("3f800000 3c00 zz\n", "column observed"),
        ("3f800000 3c0000 3c00\n", "column expected"),
        ("3f800000 3c01 3c00\n", "not this implementation's value"),
        ("\"1\" 3c00 3c00\n", "column input"),
        ("3f800000 3c00 law/exact 3c00\n", "no authority"),
    ];
    for (k, (line, says)) in cases.iter().enumerate() {
        let p = dir.path().join(format!("bad{k}.txt"));
        std::fs::write(&p, format!("{head}3f800000 3c00 3c00\n{line}")).unwrap();
        let e = check(std::slice::from_ref(&p)).unwrap_err().to_string();
        assert!(e.contains(&format!("bad{k}.txt:7")), "{e}");
        assert!(e.contains(says), "{e}");
    }
    let p = dir.path().join("attrs.txt");
    let head = head.replace("# attributes -", "# attributes saturate=0");
    std::fs::write(&p, format!("{head}3f800000 3c00 3c00\n")).unwrap();
    let e = check(std::slice::from_ref(&p)).unwrap_err().to_string();
    assert!(
        e.contains("attrs.txt:6") && e.contains("not an attribute set"),
        "{e}"
    );
    let p = dir.path().join("nohead.txt");
    std::fs::write(&p, "# op Cast\n3f800000 3c00 3c00\n").unwrap();
    let e = check(std::slice::from_ref(&p)).unwrap_err().to_string();
    assert!(
        e.contains("nohead.txt:2") && e.contains("`# version`"),
        "{e}"
    );
}

#[test]
fn shards_split_every_total_into_contiguous_covering_parts() {
    for total in [0u64, 1, 7, 1 << 32] {
        for n in [1u64, 3, 4, 1 << 16] {
            let mut at = 0;
            for k in 1..=n {
                let (a, b) = Shard { index: k, count: n }.range(total);
                assert_eq!(a, at);
                at = b;
            }
            assert_eq!(at, total);
        }
    }
    assert!(Shard::parse("0/4").is_err());
    assert!(Shard::parse("5/4").is_err());
    assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
}

/// Our implementation with one planted defect: `saturate` is dropped from every node (so
/// saturate=0 runs as the default, 1), and at most `max_elements` per data set.
struct SaturateIgnored {
    max_elements: u64,
}

struct Stripped {
    model: harness::case::Model,
}

impl harness::backend::Backend for SaturateIgnored {
    fn info(&self) -> harness::outcome::BackendInfo {
        harness::outcome::BackendInfo {
            name: "planted".into(),
            runtime: "planted".into(),
            version: "1".into(),
        }
    }

    fn limits(&self) -> harness::outcome::Limits {
        harness::outcome::Limits {
            max_elements: Some(self.max_elements),
            ..Default::default()
        }
    }

    fn prepare<'a>(
        &'a self,
        file: harness::backend::ModelFile<'a>,
    ) -> Result<Box<dyn harness::backend::Prepared + 'a>, harness::backend::BackendFailure> {
        let mut model = file.model.clone();
        for n in &mut model.graph.nodes {
            n.attributes.retain(|a| a.name != "saturate");
        }
        Ok(Box::new(Stripped { model }))
    }
}

impl harness::backend::Prepared for Stripped {
    fn run(
        &self,
        inputs: &[vocab::Tensor],
    ) -> Result<Vec<vocab::Tensor>, harness::backend::BackendFailure> {
        use harness::backend::Backend;
        let file = harness::backend::ModelFile {
            path: Path::new("model.onnx"),
            model: &self.model,
        };
        harness::backend::Native.prepare(file)?.run(inputs)
    }
}

fn run_planted(o: &Options, max_elements: u64) -> (RunFindings, Timings) {
    let work = tempfile::tempdir().unwrap();
    run(
        &SaturateIgnored { max_elements },
        "planted",
        o,
        work.path(),
        &mut |_| {},
    )
    .expect("run")
}

/// A runtime that ignores saturate=0 is found at exactly the elements saturation changes, in
/// the saturate=0 file alone, diagnosed `saturate-ignored`; our own implementation through the
/// same seam finds nothing.
#[test]
fn a_run_through_a_runtime_finds_and_diagnoses_a_planted_defect() {
    let o = opts(
        Level::One,
        28,
        DataType::Float,
        Some(DataType::Float8E4M3FN),
    );
    let (found, timings) = run_planted(&o, 100);
    assert_eq!(found.units.len(), 2, "saturate 0 and 1");
    let (sat0, sat1) = (&found.units[0], &found.units[1]);
    assert!(sat0.pair.ends_with("saturate=0") && sat1.pair.ends_with("saturate=1"));
    assert_eq!(sat1.mismatches, 0);
    assert!(sat0.mismatches > 0);
    assert!(!found.groups.is_empty());
    for g in &found.groups {
        assert_eq!((&g.pair, &g.file), (&sat0.pair, &sat0.file));
        assert_eq!(
            g.diagnosis,
            Some(crate::findings::diagnosis::Behaviour::SaturateIgnored)
        );
        assert!(g.inputs.len() == (g.elements as usize).min(through::LISTED));
    }
    let grouped: u64 = found.groups.iter().map(|g| g.elements).sum();
    assert_eq!(grouped, sat0.mismatches, "a value set is judged whole");
    assert_eq!(timings.total.elements, sat0.candidates + sat1.candidates);
    // The same elements, judged from text by `vectors check` with saturate dropped by hand
    // (the default, saturating, run for every line), give the same count.
    let dir = tempfile::tempdir().unwrap();
    export_to(&o, dir.path());
    let out = tempfile::tempdir().unwrap();
    let saturating = |_: &str, l: &str| {
        let x = f32::from_bits(u32::from_str_radix(&column(l, 0), 16).unwrap());
        let t = vocab::Tensor::from_vec(vec![1], vec![x]).unwrap();
        let spec = vocab::version::versions_of(OpKind::Cast)
            .find(|s| s.since() == 28)
            .unwrap();
        let to = crate::generate::plan::to_attr(spec, DataType::Float8E4M3FN);
        let y = onnx_conformance::ops::run(spec.version(), &[to], &[&t]).unwrap();
        format!("{:02x}", harness::read::tensor_codes(&y[0]).unwrap()[0])
    };
    let report = check(&observed(dir.path(), out.path(), saturating)).unwrap();
    assert_eq!(report.mismatches, sat0.mismatches);
}

/// Four shards of a run, merged in any order, are the unsharded run's findings byte for byte;
/// a missing or doubled shard is refused.
#[test]
fn four_shards_of_a_run_merge_into_the_whole() {
    let mut o = opts(
        Level::Two,
        28,
        DataType::Float,
        Some(DataType::Float8E4M3FN),
    );
    o.sample = 5000;
    let (whole, _) = run_planted(&o, 1000);
    assert!(whole
        .groups
        .iter()
        .any(|g| g.elements > through::LISTED as u64));
    let mut parts = Vec::new();
    for k in [3, 1, 4, 2] {
        let mut s = o.clone();
        s.shard = Shard { index: k, count: 4 };
        parts.push(run_planted(&s, 700).0);
    }
    let text = |f: &RunFindings| serde_json::to_string_pretty(f).unwrap();
    let merged = merge(parts.clone()).unwrap();
    assert_eq!(text(&merged), text(&whole));
    assert_eq!(render_run(&merged), render_run(&whole));
    let e = merge(parts[..3].to_vec()).unwrap_err().to_string();
    assert!(e.contains("shard 2/4 is missing"), "{e}");
    let mut twice = parts.clone();
    twice[0] = parts[1].clone();
    let e = merge(twice).unwrap_err().to_string();
    assert!(e.contains("shard 1/4 is given twice"), "{e}");
}

/// Every code of one block through a runtime that truncates nothing but ignores saturate: at
/// most the budget's mismatches of a block are classed, the rest counted, none lost.
#[test]
fn an_exhaustive_block_judges_its_budget_and_counts_the_rest() {
    // Block 0x4400 holds FLOATs 512.0 to 515.99, all beyond FLOAT8E4M3FN's 448: saturate=0
    // gives NaN, saturate=1 the largest finite, so every code of the saturate=0 file differs.
    let o = float8_block(0x4400);
    let (found, _) = run_planted(&o, 4096);
    let sat0 = found
        .units
        .iter()
        .find(|u| u.pair.ends_with("saturate=0"))
        .unwrap();
    assert_eq!(sat0.candidates, through::BLOCK);
    assert_eq!(sat0.mismatches, through::BLOCK);
    assert_eq!(sat0.unjudged, through::BLOCK - through::JUDGED_PER_BLOCK);
    let judged: u64 = found.groups.iter().map(|g| g.elements).sum();
    assert_eq!(judged, through::JUDGED_PER_BLOCK);
    // Where the defect lives, in one line: every code of the block.
    let block = 0x4400 * through::BLOCK;
    assert_eq!(sat0.runs.first, [[block, block + through::BLOCK - 1]]);
    assert_eq!(sat0.runs.count, 1);
    assert!(render_run(&found).contains("44000000-4400ffff"));
    assert!(found
        .groups
        .iter()
        .all(|g| g.diagnosis == Some(crate::findings::diagnosis::Behaviour::SaturateIgnored)));
}

/// A file's runs of mismatching codes, cut into parts anywhere (as shards cut them) and joined,
/// are the whole's: runs cut by a boundary join again, the count stays exact past the listed
/// ones.
#[test]
fn runs_cut_anywhere_join_into_the_whole() {
    // Runs of lengths 1 to 3 with gaps of 1 to 4: more runs than a file lists.
    let mut codes = Vec::new();
    let mut at = 10u64;
    for k in 0..(2 * through::RUNS as u64 + 5) {
        codes.extend(at..at + 1 + k % 3);
        at += 1 + k % 3 + 1 + k % 4;
    }
    let whole = Runs::of(&codes);
    assert_eq!(whole.count, 2 * through::RUNS as u64 + 5);
    assert_eq!(whole.first.len(), through::RUNS);
    for cut in 0..=codes.len() {
        for second in [cut, (cut + 7).min(codes.len())] {
            let parts = [
                Runs::of(&codes[..cut]),
                Runs::of(&codes[cut..second]),
                Runs::of(&codes[second..]),
            ];
            assert_eq!(Runs::joined(&parts), whole, "cut at {cut} and {second}");
        }
    }
}

/// Our outputs for a chunk computed part by part, into fresh memory or an earlier chunk's of
/// either type, are bit for bit those of the chunk computed whole.
#[test]
fn our_outputs_in_parts_are_the_whole_chunks() {
    let o = float8_block(0);
    let all = units::units(o.level, &o.filter, None);
    let unit = all.last().expect("a unit");
    let start = 0x4300_0000u64;
    let n = 2 * through::PART as u64 + 5;
    let x = through::every_code(DataType::Float, start, start + n, None).expect("codes");
    let whole = elements::expected_tensor(unit, &x).expect("whole");
    let spares = [
        None,
        Some(vocab::Storage::Float(vec![1.0; 9])),
        Some(whole.storage().clone()),
    ];
    for spare in spares {
        let parts = through::expected_in_parts(unit, &x, spare).expect("parts");
        let differ = harness::read::differing_codes(&whole, &parts);
        assert_eq!(differ, Some(vec![]), "{}", unit.file_name());
    }
}

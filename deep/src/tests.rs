use super::generate::plan::{self, Plan, Shape};
use super::generate::values::{self, Input, Size};
use crate::index::InputClass;
use std::collections::BTreeMap;
use vocab::version::{VersionSpec, VERSIONS};
use vocab::{DataType, OpKind, TypeKind};

/// The attribute combinations a pair needs, counted from the operator pages' rules:
/// `saturate` (both values) into float8 and E8M0, times `round_mode` (three) into E8M0.
fn combos_wanted(spec: &VersionSpec, to: DataType) -> usize {
    let has = |name: &str| spec.attrs.iter().any(|a| a.name == name);
    let float8 = matches!(
        to,
        DataType::Float8E4M3FN
            | DataType::Float8E4M3FNUZ
            | DataType::Float8E5M2
            | DataType::Float8E5M2FNUZ
    );
    let e8m0 = to == DataType::Float8E8M0;
    let sat = if has("saturate") && (float8 || e8m0) {
        2
    } else {
        1
    };
    let round = if has("round_mode") && e8m0 { 3 } else { 1 };
    sat * round
}

#[test]
fn every_allowed_pair_of_every_cast_version_appears_once_per_attribute_combination() {
    let mut seen: BTreeMap<(OpKind, u32, DataType, DataType, Vec<String>), usize> = BTreeMap::new();
    for (name, plan) in plan::plans() {
        if let Plan::Cast {
            spec,
            from,
            to,
            attrs,
            shape: Shape::Values(_),
        } = &plan
        {
            let attrs = attrs.iter().map(|a| format!("{a:?}")).collect();
            *seen
                .entry((spec.op(), spec.since(), *from, *to, attrs))
                .or_default() += 1;
            assert!(
                name.starts_with(&spec.op().to_string().to_lowercase()),
                "{name}"
            );
        }
    }
    let mut wanted = 0;
    for spec in VERSIONS.iter().filter(|s| s.op() != OpKind::Concat) {
        for from in spec.types.iter() {
            for to in spec.types.iter() {
                let n = seen
                    .iter()
                    .filter(|((op, v, f, t, _), _)| {
                        (*op, *v, *f, *t) == (spec.op(), spec.since(), from, to)
                    })
                    .count();
                assert_eq!(
                    n,
                    combos_wanted(spec, to),
                    "{} {from:?} -> {to:?}",
                    spec.version()
                );
                wanted += n;
            }
        }
    }
    assert_eq!(
        seen.len(),
        wanted,
        "a case of a pair the table does not allow"
    );
    assert!(seen.values().all(|&n| n == 1), "a combination twice");
}

#[test]
fn case_names_are_unique_and_sorted() {
    let plans = plan::plans();
    let names: Vec<&String> = plans.iter().map(|(n, _)| n).collect();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(names, sorted);
}

fn codes(input: &Input) -> Vec<u128> {
    match input {
        Input::Codes(c) => c.iter().flat_map(|(_, v)| v.clone()).collect(),
        Input::Strings(_) => panic!("codes expected"),
    }
}

#[test]
fn undefined_values_are_not_generated() {
    // Float into integers: finite and in range after truncation (rounding for 4-bit).
    for to in [
        DataType::Int8,
        DataType::Uint8,
        DataType::Int32,
        DataType::Uint64,
        DataType::Int4,
        DataType::Uint2,
    ] {
        let input = values::input(DataType::Float, to, Size::Boundary);
        let w = to.bit_width();
        let (lo, hi) = match to.kind() {
            TypeKind::Signed => (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
            _ => (0, (1i128 << w) - 1),
        };
        let vals: Vec<f32> = codes(&input)
            .iter()
            .map(|&c| f32::from_bits(c as u32))
            .collect();
        assert!(!vals.is_empty());
        for v in vals {
            let r = if to.bit_width() <= 4 {
                f64::from(v).round_ties_even()
            } else {
                f64::from(v).trunc()
            };
            // Compared as integers: `hi as f64` would round 2^64 - 1 up to 2^64.
            assert!(
                v.is_finite() && (lo..=hi).contains(&(r as i128)),
                "{v} into {to:?}"
            );
        }
    }
    // Nothing negative into E8M0 (NaN of either sign is defined: 0xFF).
    for v in codes(&values::input(
        DataType::Float,
        DataType::Float8E8M0,
        Size::Boundary,
    )) {
        let x = f32::from_bits(v as u32);
        assert!(x.is_nan() || x.is_sign_positive(), "{x}");
    }
    for v in codes(&values::input(
        DataType::Int8,
        DataType::Float8E8M0,
        Size::Boundary,
    )) {
        assert!((v as u8 as i8) >= 0, "{v}");
    }
    // Strings into integers: integer literals in range; no non-numeric text anywhere but STRING.
    let Input::Strings(classes) = values::input(DataType::String, DataType::Int8, Size::Boundary)
    else {
        panic!("strings expected")
    };
    for s in classes.iter().flat_map(|(_, v)| v) {
        assert!(s.parse::<i8>().is_ok(), "{s:?}");
    }
    let Input::Strings(classes) = values::input(DataType::String, DataType::Float, Size::Boundary)
    else {
        panic!("strings expected")
    };
    for s in classes.iter().flat_map(|(_, v)| v) {
        assert!(s.parse::<f64>().is_ok(), "{s:?}");
    }
}

#[test]
fn narrow_sources_give_every_code() {
    for t in [
        DataType::Float8E4M3FN,
        DataType::Int4,
        DataType::Uint8,
        DataType::Float4E2M1,
        DataType::Float6E2M3,
        DataType::Float6E3M2,
    ] {
        assert_eq!(
            codes(&values::input(t, DataType::Double, Size::Boundary)).len(),
            1 << t.bit_width(),
            "{t:?}"
        );
    }
    assert_eq!(
        codes(&values::input(
            DataType::Float16,
            DataType::Double,
            Size::Full
        ))
        .len(),
        1 << 16
    );
    assert!(
        codes(&values::input(
            DataType::Float16,
            DataType::Double,
            Size::Boundary
        ))
        .len()
            < 1 << 12
    );
}

#[test]
fn float_sources_hold_every_tie_of_a_narrow_target() {
    // FLOAT into E4M3FN: every midpoint between neighbouring codes, and one ulp either side.
    let input = values::input(DataType::Float, DataType::Float8E4M3FN, Size::Boundary);
    let Input::Codes(classes) = &input else {
        panic!()
    };
    let ties: Vec<f32> = classes
        .iter()
        .filter(|(k, _)| *k == InputClass::Tie)
        .flat_map(|(_, v)| v.iter().map(|&c| f32::from_bits(c as u32)))
        .collect();
    for want in [0.5f32 + 0.0625 / 2.0, 432.0, -(1.0 + 0.0625)] {
        assert!(ties.contains(&want), "{want}");
    }
    assert!(classes.iter().any(|(k, _)| *k == InputClass::NearTie));
    // DOUBLE into FLOAT16 holds a value just above a tie, which rounding through FLOAT breaks.
    let input = values::input(DataType::Double, DataType::Float16, Size::Boundary);
    let tie = 1.0 + 2f64.powi(-11);
    assert!(codes(&input).contains(&u128::from((tie + 2f64.powi(-52)).to_bits())));
    // DOUBLE into the float6 types: the probes of docs/semantics.md §3.12 (1.0625 + 2^-40 is
    // just above a FLOAT6E2M3 tie, 1.125 + 2^-40 above a FLOAT6E3M2 one), and every FLOAT
    // source tie of FLOAT6E2M3 with its neighbours.
    for (to, tie) in [
        (DataType::Float6E2M3, 1.0625),
        (DataType::Float6E3M2, 1.125),
    ] {
        let input = values::input(DataType::Double, to, Size::Boundary);
        assert!(
            codes(&input).contains(&u128::from((tie + 2f64.powi(-40)).to_bits())),
            "{to}"
        );
    }
    let input = values::input(DataType::Float, DataType::Float6E2M3, Size::Boundary);
    for tie in [0.0625f32, 1.0625, 7.25, 7.75] {
        let c = u128::from(tie.to_bits());
        assert!(codes(&input).contains(&c), "{tie}");
        assert!(
            codes(&input).contains(&(c + 1)) && codes(&input).contains(&(c - 1)),
            "{tie}"
        );
    }
}

#[test]
fn a_case_is_the_same_bytes_twice_and_runs_on_our_implementation() {
    let plans = plan::plans();
    let picked: Vec<&(String, Plan)> = plans
        .iter()
        .filter(|(n, _)| {
            n == "cast19_FLOAT_to_FLOAT8E4M3FN_saturate0"
                || n == "castlike24_constant_FLOAT_to_FLOAT8E8M0_saturate1_round_modeup"
                || n == "cast13_chain_FLOAT_to_FLOAT16_to_FLOAT"
                || n.starts_with("concat13_STRING_rank2")
        })
        .collect();
    assert_eq!(
        picked.len(),
        4,
        "{:?}",
        picked.iter().map(|p| &p.0).collect::<Vec<_>>()
    );
    let dir = tempfile::tempdir().unwrap();
    for (name, plan) in picked {
        let (_, graph) = plan::build(name, plan);
        let files = super::generate::model::files(name, &graph).unwrap();
        let (_, again) = plan::build(name, plan);
        assert_eq!(
            files,
            super::generate::model::files(name, &again).unwrap(),
            "{name}"
        );
        let case_dir = dir.path().join(name);
        for (rel, bytes) in &files {
            let p = case_dir.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, bytes).unwrap();
        }
        let case = harness::read::load_case(&case_dir).unwrap();
        let ds = &case.data_sets[0];
        let file = harness::backend::ModelFile {
            path: &case_dir.join("model.onnx"),
            model: &case.model,
        };
        use harness::backend::Backend;
        let native = harness::backend::Native;
        let got = native.prepare(file).unwrap().run(&ds.inputs).unwrap();
        let bits = |t: &[vocab::Tensor]| {
            t.iter()
                .map(|t| (t.shape().to_vec(), harness::read::tensor_codes(t)))
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(&got), bits(&ds.outputs), "{name}");
    }
}

/// The value of a code of a floating source, decoded by the class check's own decoder (not by
/// the generator's oracle).
fn float_value(from: DataType, code: u128) -> f64 {
    super::generate::class_check::decode(from, code)
}

#[test]
fn no_float_at_2_63_goes_into_int64_nor_at_2_64_into_uint64() {
    // 2^63 and 2^64 are the smallest floats past INT64 and UINT64; `i64::MAX as f64` is 2^63,
    // so a range check in f64 let them in.
    for from in [
        DataType::Float,
        DataType::Double,
        DataType::Float16,
        DataType::Bfloat16,
        DataType::Float8E8M0,
    ] {
        for (to, limit) in [(DataType::Int64, 63), (DataType::Uint64, 64)] {
            for size in [Size::Boundary, Size::Full] {
                let input = values::input(from, to, size);
                for c in codes(&input) {
                    let v = float_value(from, c);
                    assert!(v.is_finite(), "{from:?} {v} into {to:?}");
                    assert!(
                        v.trunc().abs() < 2f64.powi(limit)
                            || (to == DataType::Int64 && v.trunc() == -(2f64.powi(63))),
                        "{from:?} {v} into {to:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn chains_through_bool_int64_and_float16_hold_only_defined_steps() {
    let names: Vec<String> = plan::plans().into_iter().map(|(n, _)| n).collect();
    for chain in [
        "FLOAT_to_BOOL_to_FLOAT",
        "FLOAT_to_INT64_to_FLOAT",
        "INT64_to_FLOAT16_to_INT64",
    ] {
        for v in [13, 25] {
            let name = format!("cast{v}_chain_{chain}");
            assert!(names.contains(&name), "{name}");
        }
    }
    // FLOAT -> INT64 -> FLOAT: in INT64's range after truncation (compared as integers), with
    // 3e9 among the inputs.
    let f = codes(&values::chain_input(
        DataType::Float,
        DataType::Int64,
        DataType::Float,
    ));
    let vals: Vec<f32> = f.iter().map(|&c| f32::from_bits(c as u32)).collect();
    assert!(vals.contains(&3e9), "{vals:?}");
    for v in &vals {
        let t = f64::from(*v).trunc();
        assert!(v.is_finite() && t.abs() < 1e30, "{v}");
        assert!(i64::try_from(t as i128).is_ok(), "{v}");
    }
    // INT64 -> FLOAT16 -> INT64: no INT64 whose FLOAT16 is Inf goes on into INT64.
    let ints = codes(&values::chain_input(
        DataType::Int64,
        DataType::Float16,
        DataType::Int64,
    ));
    assert!(ints.len() >= 8);
    for c in ints {
        let n = c as u64 as i64;
        assert!(half::f16::from_f64(n as f64).is_finite(), "{n}");
    }
    // FLOAT -> BOOL -> FLOAT: zeros, nonzero values and NaN (true).
    let b: Vec<f32> = codes(&values::chain_input(
        DataType::Float,
        DataType::Bool,
        DataType::Float,
    ))
    .iter()
    .map(|&c| f32::from_bits(c as u32))
    .collect();
    assert!(b.iter().any(|x| x.is_nan()) && b.contains(&0.0) && b.iter().any(|&x| x != 0.0));
}

/// The encoding-variant cases: a small group, every variant fed and as an initializer, named
/// and indexed `encoding-<variant>`, and read by our reader as the same model, inputs and
/// expected outputs as the same case written as onnx writes it, from which their files differ.
#[test]
fn encoding_variant_cases_read_back_as_the_onnx_encoded_case() {
    use harness::read::{model_from_bytes, tensor_codes, tensor_from_bytes};
    use harness::write::Encoding;
    let plans: Vec<_> = plan::plans()
        .into_iter()
        .filter(|(_, p)| {
            matches!(
                p,
                Plan::Cast {
                    shape: Shape::Encoded { .. },
                    ..
                }
            )
        })
        .collect();
    assert!((20..=60).contains(&plans.len()), "{}", plans.len());
    let mut variants = BTreeMap::new();
    for (name, plan) in &plans {
        let (entry, graph) = plan::build(name, plan);
        let crate::index::CaseShape::Encoded {
            encoding,
            initializer,
        } = entry.shape
        else {
            panic!("{name}: {}", entry.shape);
        };
        assert_eq!(encoding, graph.encoding, "{name}");
        assert!(
            entry.shape.to_string().starts_with("encoding-"),
            "{}",
            entry.shape
        );
        assert!(name.contains(&format!("_{}_", entry.shape)), "{name}");
        *variants.entry((graph.encoding, initializer)).or_insert(0) += 1;
        let (_, mut onnx_graph) = plan::build(name, plan);
        onnx_graph.encoding = Encoding::Onnx;
        let variant = super::generate::model::files(name, &graph).expect("runs");
        let onnx = super::generate::model::files(name, &onnx_graph).expect("runs");
        assert_eq!(variant.len(), onnx.len());
        let mut differ = false;
        for ((path, bytes), (onnx_path, onnx_bytes)) in variant.iter().zip(&onnx) {
            assert_eq!(path, onnx_path);
            differ |= bytes != onnx_bytes;
            if path == "model.onnx" {
                let (a, b) = (model_from_bytes(bytes), model_from_bytes(onnx_bytes));
                assert_eq!(format!("{a:?}"), format!("{b:?}"), "{name}");
            } else if path.contains("output_") {
                assert_eq!(bytes, onnx_bytes, "{name}: expected outputs are onnx's");
            } else {
                let (a, b) = (
                    tensor_from_bytes(bytes, None),
                    tensor_from_bytes(onnx_bytes, None),
                );
                let (a, b) = (a.expect("reads"), b.expect("reads"));
                assert_eq!(
                    (a.dtype(), a.shape()),
                    (b.dtype(), b.shape()),
                    "{name} {path}"
                );
                assert_eq!(tensor_codes(&a), tensor_codes(&b), "{name} {path}");
            }
        }
        assert!(differ, "{name} is written as onnx writes it");
    }
    for encoding in Encoding::VARIANTS {
        for initializer in [false, true] {
            assert!(
                variants.contains_key(&(encoding, initializer)),
                "{encoding:?}"
            );
        }
    }
}

/// The planner holds attributes as the index's `CaseAttribute`; the attribute a node carries is
/// derived from it. Every one a Cast plan sets must name the same attribute and value in both
/// forms (the index's text spelled here from the node's attribute, independently).
#[test]
fn every_planned_attribute_is_the_same_in_the_index_and_the_node() {
    let mut seen = 0;
    for (_, plan) in plan::plans() {
        if let Plan::Cast { attrs, .. } = &plan {
            for a in attrs {
                let node = a.attribute();
                let value = match &node.value {
                    vocab::AttrValue::Int(i) => i.to_string(),
                    vocab::AttrValue::String(s) => String::from_utf8_lossy(s).into_owned(),
                    other => panic!("{} is {other:?}", node.name),
                };
                assert_eq!(a.to_string(), format!("{}={value}", node.name));
                seen += 1;
            }
        }
    }
    assert!(seen > 1000, "{seen}");
}

/// Two writers of one tree at once (two threads, each holding the tree's lock as `cargo xtask
/// deep-cases` does, each writing another tree, as two checkouts sharing a target directory
/// would), ten rounds: the tree on disk is always one writer's whole tree, its index, its
/// cases and nothing else, and every file as the index records it.
#[test]
fn two_tree_writers_at_once_leave_one_whole_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path();
    let trees: [(&str, &[&str]); 2] = [
        (
            "x",
            &[
                "cast19_FLOAT_to_FLOAT8E4M3FN_saturate0",
                "cast19_FLOAT_to_INT8",
            ],
        ),
        ("y", &["cast13_BOOL_to_INT64", "cast19_FLOAT_to_INT8"]),
    ];
    for round in 0..10 {
        std::thread::scope(|s| {
            let writers = trees.map(|(sources, cases)| {
                s.spawn(move || {
                    let _lock = crate::DirLock::acquire(
                        out,
                        &format!("writer {sources}"),
                        crate::WhenBusy::Wait,
                        |_| {},
                    )
                    .expect("the lock");
                    crate::testkit::small_tree(out, cases, sources);
                })
            });
            for w in writers {
                w.join()
                    .unwrap_or_else(|_| panic!("round {round}: a writer failed"));
            }
        });
        let index = crate::index::read_index_at(out).expect("the index is whole");
        crate::integrity::verify(out, &index).unwrap_or_else(|e| panic!("round {round}: {e}"));
        let (_, cases) = trees
            .iter()
            .find(|(sources, _)| *sources == index.fingerprint)
            .expect("one writer's index");
        let listed: Vec<&str> = index.cases.iter().map(|c| c.case.as_str()).collect();
        let mut on_disk: Vec<String> = std::fs::read_dir(out.join(crate::index::CASES_DIR))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let mut wanted = cases.to_vec();
        wanted.sort_unstable();
        assert_eq!(listed, wanted, "round {round}");
        assert_eq!(on_disk, wanted, "round {round}: cases of another tree");
    }
}

//! Trial discovery and the data guards, on throw-away directory trees.

use super::*;
use crate::testkit::{instance, scratch, write_index, write_lock};

fn guards(specs: &[Spec]) -> Vec<(&str, &str)> {
    specs
        .iter()
        .filter_map(|s| match &s.kind {
            SpecKind::Guard(msg) => Some((s.name.as_str(), msg.as_str())),
            SpecKind::Case(_) => None,
        })
        .collect()
}

#[test]
fn no_data_is_one_failing_trial_naming_the_fetch_command() {
    let ws_tmp = scratch("nodata");
    let ws = ws_tmp.path();
    let specs = discover(&Layout::workspace(ws), None);
    assert_eq!(specs.len(), 1);
    let found = guards(&specs);
    assert_eq!(found[0].0, MISSING_TRIAL);
    assert!(found[0].1.contains("cargo xtask fetch-tests"));
}

#[test]
fn index_instances_become_named_trials_without_opening_files() {
    let ws_tmp = scratch("index");
    let ws = ws_tmp.path();
    write_index(
        ws,
        vec![
            instance("1.22.0", "test_cast_A", 25),
            instance("1.4.1", "test_cast_B", 9),
        ],
    );
    write_lock(ws, "1.22.0", &["test_cast_A"]);
    let specs = discover(&Layout::workspace(ws), None);
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "onnx-1.22.0/opset25/test_cast_A",
            "onnx-1.4.1/opset9/test_cast_B"
        ]
    );
    let SpecKind::Case(case) = &specs[0].kind else {
        panic!("not a case: {:?}", specs[0]);
    };
    assert_eq!(
        case.dir,
        ws.join(DATA_DIR).join("onnx-1.22.0/node/test_cast_A")
    );
    assert_eq!(
        (case.opset, case.op_type.as_deref()),
        (Some(25), Some("Cast"))
    );
}

#[test]
fn fewer_instances_than_the_lock_file_is_a_failing_trial() {
    let ws_tmp = scratch("incomplete");
    let ws = ws_tmp.path();
    write_index(ws, vec![instance("1.22.0", "test_cast_A", 25)]);
    write_lock(ws, "1.22.0", &["test_cast_A", "test_cast_B"]);
    let specs = discover(&Layout::workspace(ws), None);
    let found = guards(&specs);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "onnx-backend-data/incomplete");
    assert!(
        found[0].1.contains("lists 1 case instances"),
        "{}",
        found[0].1
    );
    assert!(found[0].1.contains("onnx-1.22.0/test_cast_B"));
    std::fs::remove_file(ws.join(LOCK_FILE)).expect("rm lock");
    let found = guards(&discover(&Layout::workspace(ws), None))
        .iter()
        .map(|g| g.0.to_string())
        .collect::<Vec<_>>();
    assert_eq!(found, ["onnx-backend-data/lock"]);
}

#[test]
fn invalid_index_is_a_failing_trial() {
    let ws_tmp = scratch("badindex");
    let ws = ws_tmp.path();
    std::fs::create_dir_all(ws.join(DATA_DIR)).expect("dir");
    std::fs::write(ws.join(DATA_DIR).join(INDEX_FILE), "{\"format\":1}").expect("write");
    let specs = discover(&Layout::workspace(ws), None);
    assert_eq!(guards(&specs)[0].0, "onnx-backend-data/index");
}

#[cfg(feature = "native")]
#[test]
fn override_tree_and_own_cases_are_walked() {
    let ws_tmp = scratch("walk");
    let ws = ws_tmp.path();
    let data = ws.join("mine");
    let real = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/cases/test_cast13_BOOL_to_INT64/model.onnx");
    for dir in ["rel/node/test_a", "rel/node/test_b", "loose"] {
        std::fs::create_dir_all(data.join(dir)).expect("dir");
        std::fs::write(data.join(dir).join("model.onnx"), b"").expect("model");
    }
    std::fs::copy(&real, data.join("rel/node/test_a/model.onnx")).expect("copy");
    std::fs::create_dir_all(data.join("rel/node/empty_dir")).expect("dir");
    std::fs::create_dir_all(data.join("rel/node/no_model/test_data_set_0")).expect("dir");
    std::fs::create_dir_all(ws.join("tests/cases/test_own")).expect("dir");
    std::fs::copy(&real, ws.join("tests/cases/test_own/model.onnx")).expect("copy");
    let specs = discover(&Layout::workspace(ws), Some(&data));
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    // Named with the model's opset where the model can be read; a directory with a data set
    // but no model is a case too (its trial fails saying so).
    assert_eq!(
        names,
        [
            "custom/loose",
            "custom/opset13/rel/node/test_a",
            "custom/rel/node/no_model",
            "custom/rel/node/test_b",
            "own/opset13/test_own"
        ]
    );
    let SpecKind::Case(case) = &specs[1].kind else {
        panic!("not a case");
    };
    assert_eq!(
        (case.case.as_str(), case.release.as_str(), case.opset),
        ("test_a", "custom", Some(13))
    );
    let ctx = crate::trials::Context::default();
    let rec = crate::trials::run(&ctx, &specs[2]).record;
    let msg = rec.message.unwrap_or_default();
    assert_eq!(rec.outcome, crate::outcome::Outcome::Fail);
    assert!(
        msg.contains("no_model: no model.onnx in this case directory (it holds test_data_set_0)"),
        "{msg}"
    );
    let empty = ws.join("empty");
    std::fs::create_dir_all(&empty).expect("dir");
    assert_eq!(
        guards(&discover(&Layout::workspace(ws), Some(&empty)))[0].0,
        "custom/empty"
    );
    assert_eq!(
        guards(&discover(&Layout::workspace(ws), Some(&ws.join("nope"))))[0].0,
        "custom/missing"
    );
}

#[test]
fn a_case_listed_twice_in_the_index_is_a_failing_trial_naming_it() {
    let ws_tmp = scratch("twice");
    let ws = ws_tmp.path();
    write_index(
        ws,
        vec![
            instance("1.22.0", "test_cast_A", 25),
            instance("1.22.0", "test_cast_B", 25),
            instance("1.22.0", "test_cast_A", 25),
        ],
    );
    write_lock(ws, "1.22.0", &["test_cast_A", "test_cast_B"]);
    let specs = discover(&Layout::workspace(ws), None);
    let found = guards(&specs);
    assert_eq!(specs.len(), 1, "{specs:?}");
    assert_eq!(found[0].0, "onnx-backend-data/index");
    let index = ws.join(DATA_DIR).join(INDEX_FILE).display().to_string();
    assert!(
        found[0].1.contains(&index)
            && found[0]
                .1
                .contains("case test_cast_A of onnx 1.22.0 is listed twice"),
        "{}",
        found[0].1
    );
}

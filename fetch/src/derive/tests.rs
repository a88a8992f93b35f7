use super::*;

/// A model: ir_version 13, a producer name, a graph stub, opsets ("", 25) and ("ai.onnx.ml", 5).
fn model(ir: u8, opset: u8) -> Vec<u8> {
    let mut m = vec![0x08, ir, 0x12, 0x02, b'b', b'e', 0x3a, 0x01, 0x00];
    m.extend([0x42, 0x04, 0x0a, 0x00, 0x10, opset]);
    m.extend([0x42, 0x0e, 0x0a, 0x0a]);
    m.extend(b"ai.onnx.ml");
    m.extend([0x10, 0x05]);
    m
}

#[test]
fn restamp_replaces_only_the_ir_version_and_the_default_opset() {
    assert_eq!(restamp(&model(13, 25), 14, 28), Ok(model(14, 28)));
}

#[test]
fn restamp_grows_a_varint_when_the_value_needs_it() {
    let got = restamp(&model(13, 25), 200, 28).expect("restamp");
    assert_eq!(&got[..3], &[0x08, 0xc8, 0x01]);
    assert_eq!(&got[3..], &model(13, 28)[2..]);
}

#[test]
fn restamp_refuses_a_model_without_the_fields() {
    assert!(restamp(&[0x12, 0x00], 14, 28).is_err());
    assert!(restamp(&[0x08, 0x0d], 14, 28).is_err());
    assert!(restamp(&[0x08], 14, 28).is_err(), "truncated");
}

mod end_to_end {
    use crate::testkit::{model, Setup, REL};
    use crate::{derive::restamp, index_file, lock, run, Options};
    use schema::hash::sha256_hex;
    use schema::index::Generated;
    use std::fs;

    const NEXT: &str = "9.1.0";
    const MODEL: &str = "node/test_cast_a/model.onnx";

    /// A recorded wheel release plus a generated one derived from it: its Cast model
    /// re-stamped to ir_version 9, opset 14, every other file as in the wheel.
    pub(super) fn setup(corrupt: Option<&str>) -> Setup {
        let s = Setup::new().locked();
        let mut l = lock::load(&s.paths.lock).expect("load").expect("lock");
        let mut e = l.releases[0].clone();
        e.release = NEXT.into();
        e.wheel.clear();
        e.sha256.clear();
        let stamped = restamp(&model("Cast", 13), 9, 14).expect("restamp");
        e.files.insert(MODEL.into(), sha256_hex(&stamped));
        if let Some(path) = corrupt {
            e.files.insert(path.into(), sha256_hex(b"something else"));
        }
        e.generated = Some(Generated {
            packages: [("onnx".to_string(), NEXT.to_string())].into(),
            derived_from: REL.into(),
            ir_version: 9,
            opset: 14,
        });
        lock::upsert(&mut l, e);
        lock::save(&s.paths.lock, &l).expect("save");
        s
    }

    fn fetch(s: &Setup) -> crate::Result<()> {
        let opts = Options {
            releases: vec![REL.into(), NEXT.into()],
            offline: true,
            ..Options::default()
        };
        run(&opts, &s.paths)
    }

    #[test]
    fn a_generated_release_is_derived_restamped_and_indexed() {
        let s = setup(None);
        fetch(&s).expect("derive");
        let dir = s.paths.data.join(format!("onnx-{NEXT}"));
        let got = fs::read(dir.join(MODEL)).expect("derived model");
        assert_eq!(got, restamp(&model("Cast", 13), 9, 14).expect("restamp"));
        assert_eq!(
            fs::read(dir.join("node/test_cast_a/test_data_set_0/input_0.pb")).ok(),
            Some(b"input v1".to_vec())
        );
        let index = index_file::build(&s.paths.data).expect("index");
        let next: Vec<(&str, i64)> = index
            .instances
            .iter()
            .filter(|i| i.release == NEXT)
            .map(|i| (i.case.as_str(), i.opset))
            .collect();
        assert_eq!(next, [("test_cast_a", 14), ("test_concat_b", 11)]);
        // A second run finds it present, even with the base release's wheel gone.
        let before = s.snapshot();
        fs::remove_file(s.wheel_path()).expect("remove wheel");
        fetch(&s).expect("no-op");
        assert_eq!(s.snapshot(), before);
    }

    #[test]
    fn a_derived_file_that_differs_from_the_lock_is_an_error_and_installs_nothing() {
        let path = "node/test_concat_b/model.onnx";
        let s = setup(Some(path));
        let err = fetch(&s).expect_err("mismatch").to_string();
        assert!(err.contains(path) && err.contains(NEXT), "{err}");
        assert!(!s.paths.data.join(format!("onnx-{NEXT}")).exists());
        assert_eq!(s.leftovers(), Vec::<String>::new());
    }
}

#[test]
fn a_generated_release_is_not_recorded_or_taken_from_a_wheel() {
    use crate::{run, Options};
    let s = end_to_end_setup();
    let wheel = s.dir.path().join("onnx-9.1.0-py3-none-any.whl");
    std::fs::copy(s.wheel_path(), &wheel).expect("copy wheel");
    for opts in [
        Options {
            update_lock: true,
            ..Options::default()
        },
        Options {
            from: Some(wheel.clone()),
            ..Options::default()
        },
    ] {
        let opts = Options {
            releases: vec!["9.1.0".into()],
            offline: true,
            ..opts
        };
        let err = run(&opts, &s.paths).expect_err("refused").to_string();
        assert!(err.contains("--generate 9.1.0 --update-lock"), "{err}");
    }
}

fn end_to_end_setup() -> crate::testkit::Setup {
    end_to_end::setup(None)
}

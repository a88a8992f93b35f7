use super::*;
use vocab::Tensor;

#[test]
fn every_script_is_written_whole_from_this_binary_and_a_damaged_copy_is_replaced() {
    let dir = crate::testkit::scratch("python-scripts");
    let adapter = script(dir.path(), "onnx_backend_worker.py").expect("written");
    let beside = adapter.parent().expect("a directory");
    for (name, text) in SCRIPTS {
        let held = std::fs::read_to_string(beside.join(name)).expect(name);
        assert_eq!(held, text, "{name}");
    }
    std::fs::write(beside.join("worker_loop.py"), "damaged").expect("write");
    let again = script(dir.path(), "reference_worker.py").expect("written again");
    assert_eq!(again.parent(), Some(beside));
    assert_eq!(
        std::fs::read_to_string(beside.join("worker_loop.py")).expect("loop"),
        SCRIPTS[0].1
    );
}

#[test]
fn a_script_that_is_not_compiled_in_is_an_error_naming_it() {
    let dir = crate::testkit::scratch("python-missing");
    let e = script(dir.path(), "my_worker.py").expect_err("not compiled in");
    assert!(e.to_string().contains("my_worker.py"), "{e}");
}

/// worker_loop's raw helpers on the harness's own files, run by the machine's python3 (no
/// numpy needed): a large input is handed over mapped where its aligned raw_data lies, a small
/// one read into the caller's buffer, and an output written over a longer earlier file is cut
/// to its own length and reads back as the tensor.
#[test]
fn worker_loop_maps_large_inputs_reads_small_ones_and_writes_outputs_in_place() {
    let dir = crate::testkit::scratch("python-raw");
    let loop_dir = script(dir.path(), "reference_worker.py")
        .expect("written")
        .parent()
        .expect("a directory")
        .to_path_buf();
    let large = crate::write::ALIGNED_FROM as usize / 4;
    let tensors = [
        Tensor::from_vec(vec![4, large / 4], (0..large).map(|i| i as f32).collect()).unwrap(),
        Tensor::from_vec(vec![3], vec![1.5f32, -2.0, 0.25]).unwrap(),
    ];
    for (k, t) in tensors.iter().enumerate() {
        let input = dir.path().join(format!("input_{k}.pb"));
        crate::write::write_transient_tensor(&input, "x", t).expect("input");
        let output = dir.path().join(format!("output_{k}.pb"));
        // An earlier, longer output in the way.
        std::fs::write(&output, vec![7u8; 3 << 20]).expect("earlier output");
        let program = r#"
import sys
import worker_loop as w
src, dst, said = sys.argv[1:4]
def into(dims, data_type, nbytes):
    buf = bytearray(nbytes)
    return ("read", dims, data_type, buf), buf
def mapped(dims, data_type, view):
    return ("mapped", dims, data_type, bytes(view))
how, dims, data_type, raw = w.read_raw_tensor(src, into, mapped)
w.write_raw_tensor(dst, "y", data_type, dims, raw)
open(said, "w").write(how)
"#;
        let said = dir.path().join(format!("said_{k}"));
        let status = std::process::Command::new("python3")
            .arg("-c")
            .arg(program)
            .args([&input, &output, &said])
            .env("PYTHONPATH", &loop_dir)
            .status()
            .expect("python3 runs");
        assert!(status.success());
        let how = std::fs::read_to_string(&said).expect("said");
        assert_eq!(how, if k == 0 { "mapped" } else { "read" });
        let back = crate::read::read_tensor(&output, None).expect("output reads");
        assert_eq!(&back, t);
        let len = std::fs::metadata(&output).expect("output").len() as usize;
        assert!(len < (3 << 20), "cut to its own length: {len}");
    }
}

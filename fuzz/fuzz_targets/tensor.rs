//! Bytes -> the TensorProto reader (the path of every `input_K.pb` and `output_K.pb`), with
//! and without a declared type. A tensor it accepts must be well formed and equal itself
//! under both comparison rules.
#![no_main]

use harness::fuzzing::{compare_outputs, Rule};
use harness::read::tensor_from_bytes;
use harness::vocab::DataType;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&declared, bytes)) = data.split_first() else {
        return;
    };
    // 0 leaves the type to the file; otherwise the graph declares one of the table's types.
    let declared = match usize::from(declared) % (DataType::ALL.len() + 1) {
        0 => None,
        k => Some(DataType::ALL[k - 1]),
    };
    let Ok(t) = tensor_from_bytes(bytes, declared) else {
        return;
    };
    assert_eq!(t.len(), t.shape().iter().product::<usize>());
    if let Some(d) = declared {
        assert_eq!(t.dtype(), d, "the reader ignored the declared type");
    }
    let same = [t];
    for rule in [Rule::ONNX_DEFAULT, Rule::Strict] {
        let diff = compare_outputs(&same, &same, rule);
        assert!(
            diff.is_empty(),
            "a tensor differs from itself under {rule:?}: {diff:?}"
        );
    }
});

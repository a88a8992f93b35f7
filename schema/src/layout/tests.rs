use super::*;

#[test]
fn the_names_are_the_node_test_layout() {
    let case = Path::new("c");
    assert_eq!(model(case), Path::new("c/model.onnx"));
    let set = data_set(case, 2);
    assert_eq!(set, Path::new("c/test_data_set_2"));
    assert_eq!(input(&set, 0), Path::new("c/test_data_set_2/input_0.pb"));
    assert_eq!(
        output(&set, 11),
        Path::new("c/test_data_set_2/output_11.pb")
    );
    assert_eq!(dumped_actual(case, 1), Path::new("c/output_1.actual.pb"));
    assert_eq!(
        dumped_npy(case, 0, "expected"),
        Path::new("c/output_0.expected.npy")
    );
}

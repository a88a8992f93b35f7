//! Unit tests of the one-byte-string case bundle (the fuzz target's format).

use super::*;

fn case(inputs: usize, outputs: usize) -> CaseFiles {
    CaseFiles {
        model: b"model#".to_vec(),
        inputs: (0..inputs).map(|k| vec![b'i', k as u8]).collect(),
        outputs: (0..outputs).map(|k| vec![b'o'; k]).collect(),
    }
}

#[test]
fn join_then_split_gives_the_case_back() {
    for (i, o) in [(0, 0), (1, 1), (2, 1), (7, 3), (0, 2)] {
        let c = case(i, o);
        assert_eq!(
            split(&join(&c).expect("joinable")),
            c,
            "{i} inputs, {o} outputs"
        );
    }
}

#[test]
fn join_refuses_what_split_could_not_give_back() {
    assert_eq!(join(&case(8, 0)), None);
    let mut c = case(1, 1);
    c.inputs[0] = b"a#|#|b".to_vec();
    assert_eq!(join(&c), None);
    // The model's tail and the separator after it would hold the separator earlier.
    c.inputs[0].clear();
    c.model = b"model#|".to_vec();
    assert_eq!(join(&c), None);
}

#[test]
fn split_reads_any_bytes() {
    assert_eq!(split(b""), CaseFiles::default());
    // Two inputs announced, one present, no output.
    let c = split(b"\x02m#|#|a");
    assert_eq!(
        (c.model, c.inputs, c.outputs.len()),
        (b"m".to_vec(), vec![b"a".to_vec()], 0)
    );
    // The header's high bits are ignored; separators may be adjacent.
    let c = split(b"\xfa#|#|#|#|x");
    assert_eq!((c.model.len(), c.inputs.len(), c.outputs.len()), (0, 2, 0));
}

#[test]
fn written_cases_read_back() {
    let scratch_tmp = crate::testkit::scratch("bundle-write");
    let scratch = scratch_tmp.path();
    let dir = scratch.join("case");
    let c = case(2, 1);
    write_case(&dir, &c).expect("writes");
    assert_eq!(read_case(&dir).expect("reads"), c);
}

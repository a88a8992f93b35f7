//! The index finds exactly the entries that select a trial, as trying every entry does.

use super::*;
use test_rng::XorShift64Star as Rng;

/// Random patterns and types against random names from the same few words: whatever the
/// pieces and where they sit, the index's entries for a name are those that select it.
#[test]
fn the_index_selects_as_every_entry_would() {
    let words = [
        "onnx-1.22.0",
        "own",
        "opset25",
        "opset9",
        "test_cast",
        "FLOAT",
        "INT4",
        "to",
        "FLOAT16",
        "_",
        "/",
        "é",
    ];
    let mut rng = Rng(0x5eed_1157);
    let text = |rng: &mut Rng, stars: bool| {
        let mut s = String::new();
        for _ in 0..1 + rng.below(5) {
            match stars && rng.chance(30) {
                true => s.push('*'),
                false => s.push_str(rng.pick::<&str>(&words)),
            }
        }
        s
    };
    let names: Vec<String> = (0..300).map(|_| text(&mut rng, false)).collect();
    let mut checked = 0;
    for _ in 0..40 {
        let entries: Vec<KnownFailure> = (0..30)
            .map(|_| KnownFailure {
                trials: (0..rng.below(3)).map(|_| text(&mut rng, true)).collect(),
                types: (0..rng.below(2))
                    .map(|_| rng.pick::<&str>(&["FLOAT", "INT4", "FLOAT16"]).to_string())
                    .collect(),
                kind: "k".into(),
                reason: "r".into(),
                expect: Vec::new(),
                failure_kind: None,
            })
            .collect();
        let list = Indexed::new(KnownFailures {
            format: super::super::FORMAT,
            entries: entries.clone(),
        });
        for name in &names {
            let every: Vec<usize> = (0..entries.len())
                .filter(|&i| entries[i].selects(name))
                .collect();
            assert_eq!(list.selecting(name), every, "{name:?} in {entries:#?}");
            checked += every.len();
        }
    }
    // Not a sweep of nothing: many names were selected, by each kind of piece.
    assert!(checked > 1000, "{checked}");
}

//! Unit tests of Concat's block plan and threaded copy, against an index-arithmetic reference.

use super::*;
use crate::dtype::Storage;
use crate::tuning::SimdLevel;

/// Concat by index arithmetic, written differently from the kernel: output element
/// (o, j) of round o comes from the input whose axis range holds j.
fn reference(inputs: &[Vec<u32>], blocks: &[usize], outer: usize) -> Vec<u32> {
    let row: usize = blocks.iter().sum();
    (0..outer * row)
        .map(|k| {
            let (o, mut j) = (k / row, k % row);
            let mut i = 0;
            while j >= blocks[i] {
                j -= blocks[i];
                i += 1;
            }
            inputs[i][o * blocks[i] + j]
        })
        .collect()
}

/// The same output at 1, 2, 3 and 7 threads, with pieces of 64 elements that split
/// blocks and rounds at every offset, streamed and not.
#[test]
fn output_does_not_depend_on_the_thread_count() {
    let spec = crate::testkit::version(crate::ops::OpKind::Concat, 13).spec();
    let mut next = 0u32;
    for (outer, extents, inner) in [
        (1, vec![1000, 3], 1),
        (3, vec![1, 0, 2], 1),
        (7, vec![5, 64, 1], 3),
        (64, vec![2, 3], 5),
        (100, vec![1, 1, 1, 1], 1),
    ] {
        let tensors: Vec<Tensor> = extents
            .iter()
            .map(|&e| {
                let n = outer * e * inner;
                let v: Vec<u32> = (next..next + n as u32).collect();
                next += n as u32;
                Tensor::new(vec![outer, e, inner], Storage::Uint32(v)).expect("valid")
            })
            .collect();
        let blocks: Vec<usize> = extents.iter().map(|e| e * inner).collect();
        let values: Vec<Vec<u32>> = tensors
            .iter()
            .map(|t| match t.storage() {
                Storage::Uint32(v) => v.clone(),
                _ => unreachable!(),
            })
            .collect();
        let want = reference(&values, &blocks, outer);
        let refs: Vec<&Tensor> = tensors.iter().collect();
        let runs = [(1, usize::MAX), (1, 0), (2, 0), (3, usize::MAX), (7, 0)];
        for (threads, stream_min_bytes) in runs {
            let exec = Exec {
                level: SimdLevel::Baseline,
                threads,
                min_per_thread: 64,
                stream_min_bytes,
            };
            let got = concat_with(spec, 1, &refs, &exec).expect("concat");
            assert_eq!(
                got.storage(),
                &Storage::Uint32(want.clone()),
                "{outer} {extents:?} {inner} x {threads}"
            );
            for stream in [false, true] {
                let plan = BlockPlan::new(1, &refs, got.shape()).expect("plan");
                let mut out = vec![MaybeUninit::new(0u32); plan.total];
                par::split(&exec, &mut out, &|start, piece| {
                    let slices: Vec<&[u32]> = values.iter().map(Vec::as_slice).collect();
                    write_range(&slices, &plan.blocks, start, piece, stream);
                    stream::fence();
                });
                // SAFETY: every element was initialised by `vec!`.
                let out: Vec<u32> = out.iter().map(|x| unsafe { x.assume_init() }).collect();
                assert_eq!(
                    out, want,
                    "{outer} {extents:?} {inner} x {threads}, stream {stream}"
                );
            }
        }
    }
}

/// `copy_blocks` refuses a plan that asks an input for more elements than it holds, rather
/// than slicing past its end. `Tensor::new` keeps a tensor's length equal to its shape, so
/// `concat_with` never builds such a plan: only a plan written by hand reaches the check.
#[test]
fn a_plan_beyond_an_input_is_an_error_not_a_panic() {
    let op = crate::testkit::version(crate::ops::OpKind::Concat, 13);
    let exec = Exec::single(SimdLevel::Baseline);
    let values = [1u32, 2, 3, 4];
    let input = Tensor::new(vec![4], Storage::Uint32(values.to_vec())).expect("valid");
    let plan = |outer: usize, block: usize| BlockPlan {
        outer,
        blocks: vec![block],
        total: outer.saturating_mul(block),
    };
    // Two blocks of 2 from 4 elements: exactly the input, copied.
    let got = copy_blocks(&values, op, &plan(2, 2), &[&input], &exec).expect("fits");
    assert_eq!(got, Storage::Uint32(values.to_vec()));
    // Two blocks of 3 from 4 elements, and a product that overflows: refused.
    for (outer, block) in [(2, 3), (usize::MAX, 2)] {
        let got = copy_blocks(&values, op, &plan(outer, block), &[&input], &exec);
        assert!(
            matches!(got, Err(Error::Vocab(vocab::Error::ShapeOverflow { .. }))),
            "{outer} x {block}: {got:?}"
        );
    }
}

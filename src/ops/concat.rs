//! Concat (docs/semantics.md §6): shape checks, axis normalisation, and row-major block copies that work
//! for every element type.

use super::block_copy::BlockCopy;
use super::version::{AttrKind, VersionSpec};
use super::{check_type, OpVersion};
use crate::dtype::{Element, Storage};
use crate::error::Error;
use crate::formats::fast::par;
use crate::stream::{self, STREAM_MIN_BYTES};
use crate::tensor::Tensor;
use crate::tuning::Exec;
use crate::with_storage;
use std::mem::MaybeUninit;

/// Concatenates `inputs` along `axis` (as given; negative counts from the end where the
/// version allows it).
pub fn concat(spec: &VersionSpec, axis: i64, inputs: &[&Tensor]) -> Result<Tensor, Error> {
    concat_with(spec, axis, inputs, &crate::tuning::current()?)
}

/// [`concat`], run as `exec` says.
fn concat_with(
    spec: &VersionSpec,
    axis: i64,
    inputs: &[&Tensor],
    exec: &Exec,
) -> Result<Tensor, Error> {
    let op = spec.version;
    let Some(first) = inputs.first() else {
        return Err(Error::InputCount {
            op,
            expected: "at least 1 input",
            found: 0,
        });
    };
    for (i, t) in inputs.iter().enumerate() {
        check_type(spec, t.dtype(), &format!("input {i}"))?;
        if t.dtype() != first.dtype() {
            return Err(Error::InputTypeMismatch {
                op,
                input: i,
                expected: first.dtype(),
                found: t.dtype(),
            });
        }
    }
    let negative_ok = spec
        .attrs
        .iter()
        .any(|a| a.kind == AttrKind::Axis { negative: true });
    let axis_index = normalise_axis(op, axis, first.shape().len(), negative_ok)?;
    let shape = output_shape(op, axis_index, inputs)?;
    let layout = Layout::new(axis_index, inputs, &shape)?;
    let storage = with_storage!(first.storage(), v => copy_blocks(v, op, &layout, inputs, exec)?);
    Tensor::new(shape, storage)
}

/// The axis as an index into a shape of rank `rank`. Rank 0 is rejected by the caller's
/// output-shape check, but the range check here would reject it too.
fn normalise_axis(
    op: OpVersion,
    axis: i64,
    rank: usize,
    negative_ok: bool,
) -> Result<usize, Error> {
    let out_of_range = Error::AxisOutOfRange { op, axis, rank };
    if rank == 0 {
        return Err(Error::Rank {
            op,
            input: 0,
            expected: None,
            found: 0,
        });
    }
    let rank_i = i64::try_from(rank).map_err(|_| out_of_range.clone())?;
    let a = if axis < 0 && negative_ok {
        axis + rank_i
    } else {
        axis
    };
    if a < 0 || a >= rank_i {
        return Err(out_of_range);
    }
    usize::try_from(a).map_err(|_| out_of_range)
}

/// Input 0's dims with the axis extent replaced by the sum over all inputs; checks ranks and
/// every non-axis extent.
fn output_shape(op: OpVersion, axis: usize, inputs: &[&Tensor]) -> Result<Vec<usize>, Error> {
    let mut shape = inputs
        .first()
        .map(|t| t.shape().to_vec())
        .unwrap_or_default();
    let mut total = 0usize;
    for (i, t) in inputs.iter().enumerate() {
        if t.shape().len() != shape.len() {
            return Err(Error::Rank {
                op,
                input: i,
                expected: Some(shape.len()),
                found: t.shape().len(),
            });
        }
        for (d, (&want, &got)) in shape.iter().zip(t.shape()).enumerate() {
            if d != axis && want != got {
                return Err(Error::DimMismatch {
                    op,
                    input: i,
                    dim: d,
                    expected: want,
                    found: got,
                });
            }
        }
        let extent = t.shape().get(axis).copied().unwrap_or(0);
        total = total
            .checked_add(extent)
            .ok_or_else(|| Error::ShapeOverflow {
                shape: shape.clone(),
            })?;
    }
    if let Some(d) = shape.get_mut(axis) {
        *d = total;
    }
    Ok(shape)
}

/// How the output is assembled: `outer` rounds, each taking one block per input.
struct Layout {
    /// Product of the dims before the axis.
    outer: usize,
    /// Per input: elements in one block (its axis extent times the product after the axis).
    blocks: Vec<usize>,
    /// Elements in the output.
    total: usize,
}

impl Layout {
    fn new(axis: usize, inputs: &[&Tensor], out_shape: &[usize]) -> Result<Layout, Error> {
        let overflow = || Error::ShapeOverflow {
            shape: out_shape.to_vec(),
        };
        let product = |dims: &[usize]| crate::tensor::element_count(dims).ok_or_else(overflow);
        let outer = product(out_shape.get(..axis).unwrap_or_default())?;
        let inner = product(out_shape.get(axis + 1..).unwrap_or_default())?;
        let total = product(out_shape)?;
        let blocks = inputs
            .iter()
            .map(|t| {
                let extent = t.shape().get(axis).copied().unwrap_or(0);
                extent.checked_mul(inner).ok_or_else(overflow)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Layout {
            outer,
            blocks,
            total,
        })
    }
}

/// Copies the blocks of every input, round by round, into one storage of type `T`
/// (`_witness` is input 0's elements; it only fixes `T`). Large outputs are split into
/// contiguous pieces, one per thread (see [`par::split`]).
fn copy_blocks<T: Element + BlockCopy>(
    _witness: &[T],
    op: OpVersion,
    layout: &Layout,
    inputs: &[&Tensor],
    exec: &Exec,
) -> Result<Storage, Error> {
    let slices = inputs
        .iter()
        .enumerate()
        .map(|(i, t)| {
            T::slice(t.storage()).ok_or(Error::InputTypeMismatch {
                op,
                input: i,
                expected: T::DTYPE,
                found: t.dtype(),
            })
        })
        .collect::<Result<Vec<&[T]>, _>>()?;
    // Every input must hold `outer` blocks. True for tensors whose length matches their
    // shape; checked anyway so that no input can make the copies below panic.
    for (s, &block) in slices.iter().zip(&layout.blocks) {
        if layout.outer.checked_mul(block).is_none_or(|n| n > s.len()) {
            return Err(Error::ShapeOverflow {
                shape: vec![layout.outer, block],
            });
        }
    }
    let stream = layout.total.saturating_mul(std::mem::size_of::<T>()) >= STREAM_MIN_BYTES;
    let mut out = Vec::with_capacity(layout.total);
    // An empty output needs no rounds; skipping them also avoids `outer` rounds of nothing
    // when a huge outer extent meets a zero inner one.
    if layout.total == 0 {
        return Ok(T::into_storage(out));
    }
    if !par::splits(layout.total, exec) {
        for o in 0..layout.outer {
            for (s, &block) in slices.iter().zip(&layout.blocks) {
                let start = o * block; // in range: checked above
                T::append(&mut out, &s[start..start + block], stream);
            }
        }
        if stream {
            stream::fence();
        }
        return Ok(T::into_storage(out));
    }
    let spare = &mut out.spare_capacity_mut()[..layout.total];
    par::split(exec, spare, &|start, piece| {
        write_range(&slices, &layout.blocks, start, piece, stream);
        if stream {
            // Each thread orders its own streaming stores; joining it publishes them.
            stream::fence();
        }
    });
    // SAFETY: the pieces of `split` cover all `total` elements and `write_range` initialises
    // every element of its piece: the rounds hold total = outer * sum(blocks) elements, and
    // every input holds its `outer` blocks (checked above).
    unsafe { out.set_len(layout.total) };
    Ok(T::into_storage(out))
}

/// Writes output elements `start..start + piece.len()` of the concatenation: round `o` is the
/// blocks `o` of every input in order.
fn write_range<T: BlockCopy>(
    slices: &[&[T]],
    blocks: &[usize],
    start: usize,
    piece: &mut [MaybeUninit<T>],
    stream: bool,
) {
    let row: usize = blocks.iter().sum();
    if row == 0 {
        return;
    }
    let (mut round, mut offset) = (start / row, start % row);
    let mut done = 0;
    while done < piece.len() {
        for (s, &block) in slices.iter().zip(blocks) {
            if offset >= block {
                offset -= block;
                continue;
            }
            let take = (block - offset).min(piece.len() - done);
            let from = round * block + offset;
            T::write(&mut piece[done..done + take], &s[from..from + take], stream);
            done += take;
            offset = 0;
            if done == piece.len() {
                return;
            }
        }
        round += 1;
    }
}

#[cfg(test)]
mod tests {
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
        let spec = OpVersion {
            op: crate::ops::OpKind::Concat,
            since: 13,
        }
        .spec()
        .expect("Concat-13 is in the table");
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
            for threads in [1, 2, 3, 7] {
                let exec = Exec {
                    level: SimdLevel::Baseline,
                    threads,
                    min_per_thread: 64,
                };
                let got = concat_with(spec, 1, &refs, &exec).expect("concat");
                assert_eq!(
                    got.storage(),
                    &Storage::Uint32(want.clone()),
                    "{outer} {extents:?} {inner} x {threads}"
                );
                for stream in [false, true] {
                    let layout = Layout::new(1, &refs, got.shape()).expect("layout");
                    let mut out = vec![MaybeUninit::new(0u32); layout.total];
                    par::split(&exec, &mut out, &|start, piece| {
                        let slices: Vec<&[u32]> = values.iter().map(Vec::as_slice).collect();
                        write_range(&slices, &layout.blocks, start, piece, stream);
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
}

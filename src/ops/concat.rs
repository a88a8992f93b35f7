//! Concat (docs/semantics.md §6): shape checks, axis normalisation, and row-major block copies that work
//! for every element type.

use super::block_copy::BlockCopy;
use super::version::{AttrKind, VersionSpec};
use super::{check_type, OpVersion};
use crate::dtype::{Element, Storage};
use crate::error::Error;
use crate::formats::fast::par;
use crate::stream;
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
    let op = spec.version();
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
    let plan = BlockPlan::new(axis_index, inputs, &shape)?;
    let storage = with_storage!(first.storage(), v => copy_blocks(v, op, &plan, inputs, exec)?);
    Ok(Tensor::new(shape, storage)?)
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
        total = total.checked_add(extent).ok_or_else(|| {
            Error::Vocab(vocab::Error::ShapeOverflow {
                shape: shape.clone(),
            })
        })?;
    }
    if let Some(d) = shape.get_mut(axis) {
        *d = total;
    }
    Ok(shape)
}

/// Concat's block plan: the output is `outer` rounds, each taking one block per input.
struct BlockPlan {
    /// Product of the dims before the axis.
    outer: usize,
    /// Per input: elements in one block (its axis extent times the product after the axis).
    blocks: Vec<usize>,
    /// Elements in the output.
    total: usize,
}

impl BlockPlan {
    fn new(axis: usize, inputs: &[&Tensor], out_shape: &[usize]) -> Result<BlockPlan, Error> {
        let overflow = || {
            Error::Vocab(vocab::Error::ShapeOverflow {
                shape: out_shape.to_vec(),
            })
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
        Ok(BlockPlan {
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
    plan: &BlockPlan,
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
    for (s, &block) in slices.iter().zip(&plan.blocks) {
        if plan.outer.checked_mul(block).is_none_or(|n| n > s.len()) {
            return Err(Error::Vocab(vocab::Error::ShapeOverflow {
                shape: vec![plan.outer, block],
            }));
        }
    }
    let stream = exec.streams(plan.total.saturating_mul(std::mem::size_of::<T>()));
    let mut out = Vec::with_capacity(plan.total);
    // An empty output needs no rounds; skipping them also avoids `outer` rounds of nothing
    // when a huge outer extent meets a zero inner one.
    if plan.total == 0 {
        return Ok(T::into_storage(out));
    }
    if !par::splits(plan.total, exec) {
        for o in 0..plan.outer {
            for (s, &block) in slices.iter().zip(&plan.blocks) {
                let start = o * block; // in range: checked above
                T::append(&mut out, &s[start..start + block], stream);
            }
        }
        if stream {
            stream::fence();
        }
        return Ok(T::into_storage(out));
    }
    let spare = &mut out.spare_capacity_mut()[..plan.total];
    par::split(exec, spare, &|start, piece| {
        write_range(&slices, &plan.blocks, start, piece, stream);
        if stream {
            // Each thread orders its own streaming stores; joining it publishes them.
            stream::fence();
        }
    });
    // SAFETY: the pieces of `split` cover all `total` elements and `write_range` initialises
    // every element of its piece: the rounds hold total = outer * sum(blocks) elements, and
    // every input holds its `outer` blocks (checked above).
    unsafe { out.set_len(plan.total) };
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
mod tests;

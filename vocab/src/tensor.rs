//! A tensor: a row-major shape plus typed element storage.

use crate::dtype::{DataType, Element, Storage};
use crate::error::Error;

/// A dense, row-major tensor. Sub-byte types hold one element per storage entry (unpacked).
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    shape: Vec<usize>,
    storage: Storage,
}

impl Tensor {
    /// A tensor from a shape and storage whose length must equal the product of the shape.
    pub fn new(shape: Vec<usize>, storage: Storage) -> Result<Tensor, Error> {
        let expected = element_count(&shape).ok_or_else(|| Error::ShapeOverflow {
            shape: shape.clone(),
        })?;
        if expected != storage.len() {
            return Err(Error::ElementCount {
                shape,
                expected,
                found: storage.len(),
            });
        }
        Ok(Tensor { shape, storage })
    }

    /// A tensor from a shape and a vector of elements.
    pub fn from_vec<T: Element>(shape: Vec<usize>, values: Vec<T>) -> Result<Tensor, Error> {
        Tensor::new(shape, T::into_storage(values))
    }

    /// The dimensions, outermost first; empty for a scalar.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The element type.
    pub fn dtype(&self) -> DataType {
        self.storage.dtype()
    }

    /// The typed elements.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// The shape and storage, by value.
    pub fn into_parts(self) -> (Vec<usize>, Storage) {
        (self.shape, self.storage)
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.storage.len()
    }

    /// Whether the tensor has no element (some dimension is 0).
    pub fn is_empty(&self) -> bool {
        self.storage.is_empty()
    }

    /// The elements as a slice of `T`, if the tensor holds `T`.
    pub fn as_slice<T: Element>(&self) -> Option<&[T]> {
        T::slice(&self.storage)
    }
}

/// Product of `shape`, or `None` if it overflows `usize`. An empty shape (scalar) has 1 element.
pub fn element_count(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))
}

#[cfg(test)]
mod tests;

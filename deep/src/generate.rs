//! The tree's generation: which cases it holds ([`plan`]), the input values of each
//! ([`values`]) and their classes ([`classes`]), what fixes each expected value
//! ([`authority`]), the oracle that computes them ([`run`]) and the files of a case
//! ([`model`]). Nothing here reads a run; the findings read what this writes.

pub(crate) mod authority;
#[cfg(test)]
pub(crate) mod class_check;
pub(crate) mod classes;
pub(crate) mod model;
pub(crate) mod plan;
pub(crate) mod run;
pub(crate) mod values;

//! The findings of a run of the deep tree (docs/deep.md): every trial that did not pass judged
//! against our expected values ([`judge`]), its elements grouped per class of operator, types,
//! attributes and input class, and the classes into causes ([`group`]), each cause diagnosed by
//! the known wrong behaviour that reproduces it ([`diagnosis`]), written as findings.json, .md
//! and .html ([`render`]) with a reproducer in the node-test layout per class ([`reproducer`]),
//! all of one run moved into place together ([`publish`]).
//!
//! Layers, lowest first, each importing only those below it: diagnosis; finding (the nouns of
//! findings.json); group; loader (an encoding variant's classes made the loader's); judge;
//! render; issue (a body per bug for the runtime's tracker); reproducer; publish.

pub mod diagnosis;
mod finding;
mod group;
mod issue;
mod judge;
mod loader;
mod publish;
pub mod render;
mod reproducer;

pub use finding::{
    Cause, Diagnosis, Example, Finding, FindingClass, Findings, Inherited, RunSummary, Value,
    Verdict,
};
#[cfg(test)]
pub(crate) use group::causes_of;
pub use group::merge_configurations;
pub use judge::of_run;
pub use publish::{publish, render_again};

#[cfg(test)]
mod tests;

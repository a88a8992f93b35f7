//! The sha256 of the generator's sources (this crate less the code that only reads a tree,
//! `src/generator_files.rs`), which the tree's fingerprint records beside the build-time hashes
//! of the other crates whose code decides the tree's bytes (`deep::SOURCES`).

#[path = "src/generator_files.rs"]
mod generator_files;

fn main() {
    source_hash::emit(generator_files::PATHS, generator_files::READERS);
}

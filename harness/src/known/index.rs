//! A list's entries indexed by the literal text of their selectors: the entries that may
//! select a trial are found from the pieces of its name, never by trying every entry, so that
//! judging a list costs time in proportion to its entries plus the trials (issue 39: 100,000
//! entries against the 1773 official trials took 150 s when each trial tried each entry).

use super::{KnownFailure, KnownFailures};
use std::collections::HashMap;

/// A list with its index. The list cannot change under the index: it is only read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Indexed {
    list: KnownFailures,
    index: Index,
}

impl Indexed {
    /// Indexes `list`.
    pub fn new(list: KnownFailures) -> Indexed {
        let index = Index::new(&list.entries);
        Indexed { list, index }
    }

    /// The list as read.
    pub fn list(&self) -> &KnownFailures {
        &self.list
    }

    /// The first entry selecting trial `name` (the one that applies), with its number.
    pub fn find(&self, name: &str) -> Option<(usize, &KnownFailure)> {
        let first = *self.selecting(name).first()?;
        Some((first, &self.list.entries[first]))
    }

    /// The numbers of the entries selecting trial `name`, in list order.
    pub fn selecting(&self, name: &str) -> Vec<usize> {
        let entries = &self.list.entries;
        let mut ids = self.index.candidates(name);
        ids.sort_unstable();
        ids.dedup();
        ids.retain(|&i| entries[i].selects(name));
        ids
    }
}

/// Entry numbers by the literal piece of their `trials` patterns that is most telling (the
/// longest), by where it must sit in a name; entries without `trials` by their types.
#[derive(Clone, Debug, Default, PartialEq)]
struct Index {
    /// Patterns without `*`: whole names.
    whole: Keyed,
    /// The piece before the first `*`: a name's start.
    start: Keyed,
    /// The piece after the last `*`: a name's end.
    end: Keyed,
    /// A piece between two `*`: anywhere in a name.
    inside: Keyed,
    /// Entries without `trials`, by each of their types: a word of the case name.
    types: HashMap<String, Vec<usize>>,
    /// Entries with neither `trials` nor `types` (no file holds one: the reader refuses it),
    /// which select every trial.
    every: Vec<usize>,
}

/// Entry numbers by a piece of text, and the lengths of those pieces.
#[derive(Clone, Debug, Default, PartialEq)]
struct Keyed {
    ids: HashMap<String, Vec<usize>>,
    /// The distinct lengths of the keys, ascending: the only lengths worth looking up.
    lens: Vec<usize>,
}

impl Keyed {
    fn add(&mut self, key: &str, id: usize) {
        self.ids.entry(key.to_string()).or_default().push(id);
        if let Err(at) = self.lens.binary_search(&key.len()) {
            self.lens.insert(at, key.len());
        }
    }

    /// Adds the entries filed under `key` (when it is a piece of `name`: `None` when a length
    /// cuts a character) to `out`.
    fn look_up(&self, key: Option<&str>, out: &mut Vec<usize>) {
        if let Some(ids) = key.and_then(|k| self.ids.get(k)) {
            out.extend_from_slice(ids);
        }
    }
}

impl Index {
    fn new(entries: &[KnownFailure]) -> Index {
        let mut index = Index::default();
        for (id, entry) in entries.iter().enumerate() {
            for pattern in &entry.trials {
                index.add_pattern(pattern, id);
            }
            if entry.trials.is_empty() {
                for t in &entry.types {
                    index.types.entry(t.clone()).or_default().push(id);
                }
                if entry.types.is_empty() {
                    index.every.push(id);
                }
            }
        }
        index
    }

    /// Files `pattern` under its longest literal piece; an anchored piece wins a tie, as it
    /// is looked up at one place of a name rather than at each.
    fn add_pattern(&mut self, pattern: &str, id: usize) {
        let pieces: Vec<&str> = pattern.split('*').collect();
        let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
        if pieces.len() == 1 {
            return self.whole.add(pattern, id);
        }
        let inside = pieces[1..pieces.len() - 1]
            .iter()
            .copied()
            .max_by_key(|p| p.len())
            .unwrap_or("");
        let longest = first.len().max(last.len()).max(inside.len());
        match () {
            _ if first.len() == longest => self.start.add(first, id),
            _ if last.len() == longest => self.end.add(last, id),
            _ => self.inside.add(inside, id),
        }
    }

    /// The entries that may select trial `name`, unsorted and possibly repeated: each one
    /// that selects it is among them.
    fn candidates(&self, name: &str) -> Vec<usize> {
        let mut out = self.every.clone();
        self.whole.look_up(Some(name), &mut out);
        for &len in self.start.lens.iter().take_while(|&&len| len <= name.len()) {
            self.start.look_up(name.get(..len), &mut out);
        }
        for &len in self.end.lens.iter().take_while(|&&len| len <= name.len()) {
            self.end.look_up(name.get(name.len() - len..), &mut out);
        }
        for &len in self
            .inside
            .lens
            .iter()
            .take_while(|&&len| len <= name.len())
        {
            for at in 0..=name.len() - len {
                self.inside.look_up(name.get(at..at + len), &mut out);
            }
        }
        if !self.types.is_empty() {
            let case = name.rsplit('/').next().unwrap_or(name);
            for word in case.split('_') {
                if let Some(ids) = self.types.get(word) {
                    out.extend_from_slice(ids);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;

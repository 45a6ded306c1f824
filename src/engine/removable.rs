//! Temporary compatibility paths and the condition under which each may be deleted (contract §8,
//! "Removable"). Each [`Removable`] is declared as a constant next to the code it deletes;
//! `hookwire removable` lists them, and a tidy test checks every declaration is listed.

/// A temporary path and its removal condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Removable {
    /// What can be deleted.
    pub what: &'static str,
    /// The file that declares it (and holds the code).
    pub site: &'static str,
    /// When it can be deleted.
    pub when: &'static str,
}

//! What a payload family declares about itself: its name, its versions and which of them have
//! shipped. The registry guard (`guard.rs`) and the artifact lock read this; the decoder reads
//! only `current` and `initial` (through its `Chain`).

/// One registered version of a family's wire shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VersionEntry {
    /// The version number (registered versions are contiguous from 1).
    pub version: u32,
    /// Shipped versions are frozen: their artifacts are hash-locked and cannot be re-blessed.
    pub shipped: bool,
}

/// A family's version registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Registry {
    /// The family's name in file paths (`session-inbox`).
    pub name: &'static str,
    /// The folder of its version modules, relative to the crate root (`src/session_inbox`).
    pub module_dir: &'static str,
    /// The newest version.
    pub current: u32,
    /// The version of an unversioned value, if the family had an unversioned era.
    pub initial: Option<u32>,
    /// The registered (versioned) shapes, 1 ..= current.
    pub versions: &'static [VersionEntry],
    /// The version steps `(from, to)`: each a pair of a pure `up` (the decoder's chain runs it)
    /// and an encoder-side `down`, in `vFROM_to_vTO.rs`.
    pub steps: &'static [(u32, u32)],
}

impl Registry {
    /// Whether `version` has shipped (the unversioned era always has).
    pub fn is_shipped(&self, version: u32) -> bool {
        Some(version) == self.initial || self.versions.iter().any(|e| e.version == version && e.shipped)
    }
}

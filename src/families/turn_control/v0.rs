//! Turn control version 0, the unversioned era (contract §14): every value written before the
//! driver advertised `turnControlWireVersion` — the same kinds and fields as version 1, without
//! `version`. The v0 target (an older driver) is version 1's value with `version` dropped (the
//! `down` half of step 0 ↔ 1).
//!
//! Legacy only: current code never depends on this module except to emit a v0 target.

use crate::removable::Removable;

/// The v0 target exists only for drivers that predate the capability.
pub const V0_TARGET_REMOVAL: Removable = Removable {
    what: "the turn-control v0 target (drivers without driverCapabilities.turnControlWireVersion)",
    site: "src/families/turn_control/v0.rs",
    when: "every session driver pinned to a build before the capability has aged out under the 30-day session timeout",
};

#[cfg(test)]
mod tests {
    use super::V0_TARGET_REMOVAL;

    #[test]
    fn the_v0_target_says_when_it_can_go() {
        assert!(V0_TARGET_REMOVAL.when.contains("30-day"));
        assert_eq!(V0_TARGET_REMOVAL.site, "src/families/turn_control/v0.rs");
    }
}

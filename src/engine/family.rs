//! What a payload family declares about itself: its name, its versions and which of them have
//! shipped (`Registry`); on the producer side, each version's frozen shape and `down` step
//! (`ProducerVersion`); and the one description every surface (the CLI, the generators, the
//! conformance tests) takes a family by (`FamilyDesc`). The registry guard (`guard.rs`) and the
//! artifact lock read the registry; the decoder reads only `current` and `initial` (through its
//! `Chain`). This module must never import a family.

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
    /// The folder of its version modules, relative to the crate root (`src/<family>`).
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

/// What the producer side knows of one version: its frozen shape and its `down` step.
#[cfg(feature = "std")]
pub struct ProducerVersion {
    /// The version.
    pub version: u32,
    /// Its complete wire shape.
    pub wire: &'static crate::shape::Shape,
    /// Its JSON Schema `$id`.
    pub schema_id: &'static str,
    /// Its canonical JSON Schema.
    pub json_schema: fn() -> serde_json::Value,
    /// `down` to the version before (for the first versioned shape: the family's conversion to
    /// its unversioned era, chosen by the target, or nothing).
    pub down: fn(&mut serde_json::Map<String, serde_json::Value>) -> Result<(), crate::EncodeError>,
}

#[cfg(feature = "std")]
impl ProducerVersion {
    /// Validate a complete value against this version's frozen shape.
    pub fn validate(&self, value: &serde_json::Value) -> Result<(), crate::EncodeError> {
        self.wire.validate(value)
    }
}

/// One family, as every surface takes it: the CLI (`--family`), the generators and the shared
/// conformance checks. Adding a family is writing one of these in its folder and registering it
/// in `lib.rs`'s `FAMILIES`.
#[cfg(feature = "std")]
pub struct FamilyDesc {
    /// The version registry (its `name` is the family's name: `session-inbox`).
    pub registry: &'static Registry,
    /// The symbol table of its decoder.
    pub symbols: &'static [&'static str],
    /// The kinds of its current version and the fields decode keeps of each.
    pub kinds: &'static [crate::decode::KindSpec],
    /// What a decoded value never carries (`version`, and any wire-only mirror).
    pub wire_only: &'static [&'static str],
    /// The JS error class of its decoder entry (`SessionInboxWireError`).
    pub error_class: &'static str,
    /// The key a consumer advertises its version under (`sessionInboxWireVersion`).
    pub capability_key: &'static str,
    /// Every versioned shape, 1 ..= current, with its `down` step.
    pub producer: &'static [ProducerVersion],
    /// Decode a value given as parsed JSON.
    pub decode: fn(&serde_json::Value) -> Result<serde_json::Value, crate::DecodeError>,
    /// Encode a command for a target given as JSON.
    pub encode: fn(serde_json::Value, &serde_json::Value) -> crate::Answer,
    /// Read a target given as JSON, as `encode` reads it: its index in [`FamilyDesc::targets`],
    /// or the refusal `encode` answers for it whatever the command. A caller that encodes many
    /// commands for one target reads it once (the encoder's wasm module, per target JS names).
    pub read_target: fn(&serde_json::Value) -> Result<usize, crate::EncodeError>,
    /// The answer of `encode` for a target read by [`FamilyDesc::read_target`] (its index), with
    /// a wire value given to a sink member by member rather than answered (`None` then; a family
    /// may write it from a typed view without building it, as the session inbox does): the
    /// encoder's wasm module writes its answer tape so. The family may take the command
    /// (`std::mem::take`, leaving `null`) or only borrow it; the wasm module frees a command left
    /// in place with the memory it was read into. A family with nothing faster passes its answer
    /// through [`answer_to`].
    pub encode_to: fn(&mut serde_json::Value, usize, &mut dyn crate::canonical::Sink) -> Option<crate::Answer>,
    /// The same answer as canonical text, appended to the buffer (what `encode --lines` and the
    /// encoder's wasm export write; a family may write it without building the answer).
    pub encode_text: fn(&serde_json::Value, &serde_json::Value, &mut String),
    /// Make what its encoder otherwise makes on first use and keeps (tables computed once per
    /// build), so that a caller whose memory lives per call (the wasm encoder's arena, which
    /// starts over only when none of its blocks is live) can have them made where they may stay.
    pub prepare: fn(),
    /// Answer one `negotiate --lines` request with a write ceiling (1 ..= current).
    pub negotiate: fn(&serde_json::Value, u32) -> serde_json::Value,
    /// One move of its negotiation for the JS encoder, request and answer as JSON: an `ok` or
    /// `error` answer, or the family's own continuation (the session inbox asks for a lookup).
    pub negotiate_step: fn(&serde_json::Value) -> serde_json::Value,
    /// The temporary compatibility paths and their removal conditions.
    pub removable: &'static [crate::removable::Removable],
    /// Every target it encodes for, by CLI name (`v0-send`, `v1`, …).
    pub targets: &'static [&'static str],
    /// What the JS generators need of it beyond the above.
    pub js: JsFace,
}

/// A family's face in JS, for the generators (`jsgen`): the names of its decoded types, the
/// details only its own code produces, and the parts of its declarations and of the encoder's
/// tables that are its own.
#[cfg(feature = "std")]
#[derive(Clone, Copy)]
pub struct JsFace {
    /// The prefix of its decoded types' names (`SessionInbox` → `SessionInboxDeliver`).
    pub prefix: &'static str,
    /// The name of the union of its decoded types (`SessionInboxValue`).
    pub union: &'static str,
    /// The details only its own steps and declared-version checks produce (the chain's, the
    /// hosts' and its envelope checks' are derived): the other details are emitted as `""` in
    /// its tables, keeping their positions (`tests/generated.rs` checks this list against the
    /// family's sources).
    pub details: &'static [crate::What],
    /// The end of its decoder entry's declarations: its error class, constants and functions.
    pub declarations: fn() -> String,
    /// Its lines at the head of the encoder's declarations (imports from its decoder entry).
    pub encoder_head: &'static str,
    /// Its part of the encoder's declarations: commands, targets, wire values, functions.
    pub encoder_declarations: fn() -> String,
    /// Its own producer facts for the JS encoder (`js/encoder-contract.js`), as a JSON object.
    pub producer_tables: fn() -> serde_json::Value,
}

/// A family's answer as [`FamilyDesc::encode_to`] gives it: a wire value to `sink` (`None`),
/// anything else back.
#[cfg(feature = "std")]
pub fn answer_to(answer: crate::Answer, sink: &mut dyn crate::canonical::Sink) -> Option<crate::Answer> {
    match answer {
        crate::Answer::Ok(v) => {
            sink.value(&v);
            None
        }
        other => Some(other),
    }
}

/// A write ceiling given as JSON (negotiation's `writeAtMost`): a version from 1 to `current`,
/// or the refusal that names what was given ([`write_ceiling_refused`]).
#[cfg(feature = "std")]
pub fn write_ceiling(given: &serde_json::Value, current: u32) -> Result<u32, String> {
    given
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| (1..=current).contains(n))
        .ok_or_else(|| write_ceiling_refused(current, &crate::canonical::to_string(given)))
}

/// Why a write ceiling (`given`, as it was given) is refused: every family's one sentence.
#[cfg(feature = "std")]
pub fn write_ceiling_refused(current: u32, given: &dyn core::fmt::Display) -> String {
    format!("the write ceiling must be a version from 1 to {current}, not {given}")
}

/// A CLI target name as the JSON target every family's encoder takes: `v0-send` →
/// `{"version":0,"variant":"send"}`, `v3` → `{"version":3}`; anything else stays a string (and
/// the family's encoder answers `UNSUPPORTED_TARGET`).
#[cfg(feature = "std")]
pub fn target_json(name: &str) -> serde_json::Value {
    use serde_json::json;
    match name {
        "v0-deliver" => json!({"version": 0, "variant": "deliver"}),
        "v0-send" => json!({"version": 0, "variant": "send"}),
        n => match n
            .strip_prefix('v')
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        {
            Some(d) => d
                .parse::<u64>()
                .map_or_else(|_| json!(name), |v| json!({ "version": v })),
            None => json!(name),
        },
    }
}

#[cfg(feature = "std")]
impl FamilyDesc {
    /// The family's name (`session-inbox`).
    pub fn name(&self) -> &'static str {
        self.registry.name
    }

    /// The producer side of `version`, if this build has it.
    pub fn version(&self, version: u32) -> Option<&'static ProducerVersion> {
        self.producer.iter().find(|p| p.version == version)
    }
}

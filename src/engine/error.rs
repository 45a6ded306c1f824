//! The error codes every family shares, the decoder's small `Copy` error and, on the producer
//! side (`std`), the encoder's error with a JSON-pointer path and what was expected.
//!
//! The decode error carries no strings that are built at run time: a message is rendered only
//! where it is shown (native `Display`, or the JS glue), so `core::fmt` never reaches the wasm
//! decoder. Codes and details are declared once each (the `table!` lists below); the enum, its
//! `ALL` list, the string forms and the generated JS tables all come from those lists.
//! This module must never import a family or a host.

use crate::host::Sym;

/// Declare a `#[repr(u8)]` enum once: variants with their value and text, the `ALL` list in
/// `repr` order, and the text of each.
macro_rules! table {
    ($(#[$m:meta])* $name:ident, $text:ident { $($(#[$vm:meta])* $v:ident = $n:literal => $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        #[non_exhaustive]
        pub enum $name { $($(#[$vm])* $v = $n,)* }
        impl $name {
            /// Every value, in `repr` order.
            pub const ALL: &'static [$name] = &[$($name::$v,)*];
            /// The stable text of this value.
            pub const fn $text(self) -> &'static str {
                match self { $($name::$v => $s,)* }
            }
        }
    };
}

table! {
    /// A stable error code (contract §7, §13, §16). The string form (`as_str`) is part of the
    /// contract; the decoder's codes come first (see [`ErrorCode::DECODE`]).
    ErrorCode, as_str {
        /// The value is not a plain object (null, an array, a primitive).
        NotObject = 1 => "NOT_OBJECT",
        /// `version` is present but not a number, not an integer, or below the initial version.
        MalformedVersion = 2 => "MALFORMED_VERSION",
        /// `version` is above the newest version this build decodes.
        NewerVersion = 3 => "NEWER_VERSION",
        /// The migration registry is broken (a missing or malformed step).
        Migration = 4 => "MIGRATION",
        /// A value of the unversioned era does not have a shape any historic writer produced.
        LegacyShape = 5 => "LEGACY_SHAPE",
        /// `kind` is missing or not a kind of the current version.
        UnknownKind = 6 => "UNKNOWN_KIND",
        /// The value declares a version that cannot carry what it holds (contract §11).
        MisdeclaredVersion = 7 => "MISDECLARED_VERSION",
        /// The value's envelope (decode, §15) or the encoder's complete value (§5.2) is invalid.
        Invalid = 8 => "INVALID",
        /// The requested encoding target is not one this build can produce.
        UnsupportedTarget = 9 => "UNSUPPORTED_TARGET",
        /// A continuation hook belongs to another run than the stable inbox of its session.
        RunMismatch = 10 => "RUN_MISMATCH",
        /// The target version cannot carry a valid command (contract §12): nothing is dropped.
        Incompatible = 11 => "INCOMPATIBLE",
        /// The destination hook does not exist: there is nothing to resume.
        HookNotFound = 12 => "HOOK_NOT_FOUND",
        /// A lookup failed, or returned something that is not a hook.
        LookupFailed = 13 => "LOOKUP_FAILED",
    }
}

impl ErrorCode {
    /// The codes the decoder can answer: the first eight of [`ErrorCode::ALL`].
    pub const DECODE: &'static [ErrorCode] = ErrorCode::ALL.split_at(8).0;

    /// The code for its string form.
    pub fn parse(s: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.as_str() == s)
    }
}

table! {
    /// What a decode error's detail says: what was found, what was expected, or what is broken.
    What, text {
        /// Nothing more to say.
        None = 0 => "",
        /// `null` was found.
        Null = 1 => "null",
        /// A boolean was found.
        Bool = 2 => "a boolean",
        /// A number was found.
        Number = 3 => "a number",
        /// A string was found.
        String = 4 => "a string",
        /// An array was found.
        Array = 5 => "an array",
        /// A value JSON cannot hold was found (`undefined`, a function, a symbol, a bigint).
        NonJson = 6 => "a value JSON cannot hold",
        /// Reading a property threw (a getter or a proxy trap), or an array claimed a length past
        /// 2^20 that its own elements do not back (JS only: the wasm host's loops never run over
        /// elements that are not there).
        Unreadable = 7 => "a value that cannot be read (a getter or proxy trap threw, or a sparse array is too long)",
        /// `version` is present but not a number.
        VersionNotNumber = 8 => "version is present but is not a number",
        /// `version` is absent and the family has no unversioned era.
        VersionMissing = 9 => "version is missing and this family has no unversioned era",
        /// `version` is not an integer at or above the lowest version.
        VersionNotInteger = 10 => "version is not an integer at or above the lowest version",
        /// No migration step starts at this version.
        NoStep = 11 => "no migration step starts at this version",
        /// The step does not go to the next version.
        StepSkips = 12 => "the step does not go to the next version",
        /// The step's output declares the wrong version.
        StepWrongVersion = 13 => "the step's output declares the wrong version",
        /// An unversioned `send` whose `payload` is not an object.
        SendPayload = 14 => "the payload of an unversioned send must be an object",
        /// An unversioned `send` whose `delivery` is not an object.
        SendDelivery = 15 => "the delivery of an unversioned send must be an object",
        /// An unversioned `deliver` whose `payloads` is not an array of objects.
        DeliverPayloads = 16 => "the payloads of an unversioned deliver must be an array of objects",
        /// A task carries operations of version 4 (`agentRequests`, or input requests with `request`/`requests`).
        TaskOperations = 17 => "task operations of version 4 or later",
        /// A `cancel` carries `tasks` (version 6 or later).
        CancelTasks = 18 => "a cancel with tasks (version 6 or later)",
        /// A `deliver` lacks the `payload` mirror (required from version 2).
        MissingMirror = 19 => "a deliver without the payload mirror (required from version 2)",
        /// An old-form task input request that the 3 → 4 rewrite cannot turn into a valid entry.
        OldInputRequest = 20 => "an old-form input request whose hookPayload cannot be rewritten into a valid entry",
        /// Expected: present (a required field is missing).
        Required = 21 => "a value (the field is required)",
        /// Expected: an object.
        ExpectObject = 22 => "an object",
        /// Expected: an object or `null`.
        ExpectObjectOrNull = 23 => "an object or null",
        /// Expected: an array of objects.
        ExpectArrayOfObjects = 24 => "an array of objects",
        /// Expected: a string.
        ExpectString = 25 => "a string",
        /// Expected: a boolean.
        ExpectBool = 26 => "a boolean",
        /// Expected: one of the field's declared strings.
        ExpectEnum = 27 => "one of the field's declared strings",
        /// Expected: an object with a string `kind`.
        ExpectKindedObject = 28 => "an object with a string kind",
        /// An unversioned `turn-result` whose `action` is not an object with a string `kind`.
        TurnResultAction = 29 => "the action of an unversioned turn-result must be an object with a string kind",
        /// Expected: a JSON value.
        ExpectJson = 30 => "a JSON value",
    }
}

/// Where in the value a decode error is: a top-level field, and an element of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct At {
    /// The field, as a symbol of the family's table.
    pub key: Sym,
    /// The element of an array field, if the error is about one.
    pub index: Option<u32>,
}

/// The detail of a decode error: what it says, and where (`INVALID` envelopes). `Copy`, no heap.
/// Made by [`Detail::of`] or its constants (`Detail::Required`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Detail {
    /// What it says.
    pub what: What,
    /// Where: a JSON pointer `/<key>` or `/<key>/<index>`.
    pub at: Option<At>,
    /// The family's symbol table, to name `at` (attached by the native facade).
    #[cfg(feature = "std")]
    pub names: Option<&'static [&'static str]>,
}

macro_rules! detail_consts {
    ($($v:ident),* $(,)?) => {
        #[allow(non_upper_case_globals, missing_docs)]
        impl Detail {
            $(pub const $v: Detail = Detail::of(What::$v);)*
        }
    };
}
detail_consts!(
    None,
    Null,
    Bool,
    Number,
    String,
    Array,
    NonJson,
    Unreadable,
    VersionNotNumber,
    VersionMissing,
    VersionNotInteger,
    NoStep,
    StepSkips,
    StepWrongVersion,
    SendPayload,
    SendDelivery,
    DeliverPayloads,
    TaskOperations,
    CancelTasks,
    MissingMirror,
    OldInputRequest,
    Required,
    ExpectObject,
    ExpectObjectOrNull,
    ExpectArrayOfObjects,
    ExpectString,
    ExpectBool,
    ExpectEnum,
    ExpectKindedObject,
    TurnResultAction,
    ExpectJson,
);

impl Detail {
    /// A detail that says `what`, at no particular place.
    pub const fn of(what: What) -> Detail {
        Detail {
            what,
            at: None,
            #[cfg(feature = "std")]
            names: None,
        }
    }

    /// The words a message uses for it.
    pub const fn text(self) -> &'static str {
        self.what.text()
    }
}

table! {
    /// The codes of the transport around a value rather than of the value (the CLI's and the
    /// encoders' answers). Stable strings, in the TypeScript union (`TransportErrorCode`) beside
    /// the [`ErrorCode`]s.
    Transport, as_str {
        /// A line that is not JSON text.
        InvalidJson = 1 => "INVALID_JSON",
        /// Nested beyond what the CLI reads.
        TooDeep = 2 => "TOO_DEEP",
        /// A request line, destination or option of the wrong form.
        InvalidRequest = 3 => "INVALID_REQUEST",
        /// A `--lines` line longer than `--max-line-bytes`.
        TooLarge = 4 => "TOO_LARGE",
    }
}

impl Transport {
    /// The code for its string form.
    pub fn parse(s: &str) -> Option<Transport> {
        Transport::ALL.iter().copied().find(|c| c.as_str() == s)
    }
}

/// The message template of a decode error code: `{version}`, `{current}`, `{path}` and
/// `{detail}` are filled in where the message is shown (natively by `Display`, in JS by the
/// package entry).
///
/// ```
/// use hookwire::{message_template, ErrorCode};
/// assert_eq!(message_template(ErrorCode::MalformedVersion), "malformed version: {detail}");
/// ```
pub const fn message_template(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::NotObject => "a wire value must be a plain object, not {detail}",
        ErrorCode::MalformedVersion => "malformed version: {detail}",
        ErrorCode::NewerVersion => {
            "version {version} is newer than version {current}, the newest this build decodes: \
             the value was probably written by a newer deployment"
        }
        ErrorCode::Migration => {
            "the migration registry is broken at version {version}: {detail} (a bug in the registry)"
        }
        ErrorCode::LegacyShape => "an unversioned value has a shape no historic writer produced: {detail}",
        ErrorCode::UnknownKind => "kind is missing or is not a kind of the current version",
        ErrorCode::MisdeclaredVersion => "version {version} cannot carry what this value holds: {detail}",
        ErrorCode::Invalid => "invalid envelope at {path}: expected {detail}",
        ErrorCode::UnsupportedTarget => "unsupported target",
        ErrorCode::RunMismatch => "run mismatch",
        ErrorCode::Incompatible => "the target version cannot carry this value",
        ErrorCode::HookNotFound => "hook not found",
        ErrorCode::LookupFailed => "lookup failed",
    }
}

/// Why a value could not be decoded. `Copy`, no heap, no formatting: the decoder's only error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecodeError {
    /// The stable code.
    pub code: ErrorCode,
    /// The version involved (the one found, or the step that failed), when there is one.
    pub version: Option<f64>,
    /// The newest version the decoder knows (for `NEWER_VERSION` messages).
    pub current: u32,
    /// What was found, expected, or broken, and where.
    pub detail: Detail,
}

impl DecodeError {
    /// An error with a code and nothing else.
    pub const fn new(code: ErrorCode) -> DecodeError {
        DecodeError {
            code,
            version: None,
            current: 0,
            detail: Detail::None,
        }
    }

    /// The same error, with a detail (its place is kept).
    pub const fn at(mut self, detail: Detail) -> DecodeError {
        self.detail.what = detail.what;
        self
    }

    /// The same error, naming a version.
    pub const fn with_version(mut self, version: f64) -> DecodeError {
        self.version = Some(version);
        self
    }

    /// The same error, knowing the current version.
    pub const fn with_current(mut self, current: u32) -> DecodeError {
        self.current = current;
        self
    }

    /// The same error, at a place in the value.
    pub const fn place(mut self, key: Sym, index: Option<u32>) -> DecodeError {
        self.detail.at = Some(At { key, index });
        self
    }
}

impl From<core::convert::Infallible> for DecodeError {
    fn from(never: core::convert::Infallible) -> DecodeError {
        match never {}
    }
}

#[cfg(feature = "std")]
mod render {
    use super::{message_template, DecodeError};
    use std::fmt;

    impl DecodeError {
        /// The same error, able to name its place with the family's symbol table.
        pub fn named(mut self, names: &'static [&'static str]) -> DecodeError {
            self.detail.names = Some(names);
            self
        }

        /// The JSON pointer of the error's place (`""` when it has none).
        pub fn path(&self) -> String {
            let Some(at) = self.detail.at else { return String::new() };
            let key = self
                .detail
                .names
                .and_then(|n| n.get(usize::from(at.key.0)).copied())
                .unwrap_or("?");
            let mut out = String::new();
            crate::shape::push_key(&mut out, key);
            if let Some(i) = at.index {
                out.push('/');
                out.push_str(&i.to_string());
            }
            out
        }
    }

    impl fmt::Display for DecodeError {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let version = self.version.map(crate::canonical::number_to_string).unwrap_or_default();
            let text = message_template(self.code)
                .replace("{version}", &version)
                .replace("{current}", &self.current.to_string())
                .replace("{path}", &self.path())
                .replace("{detail}", self.detail.text());
            f.write_str(&text)
        }
    }

    impl std::error::Error for DecodeError {}
}

/// Why a command could not be encoded, or a target not resolved (producer side).
#[cfg(feature = "std")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    /// `INVALID`, `INCOMPATIBLE`, `UNSUPPORTED_TARGET`, `RUN_MISMATCH`, `HOOK_NOT_FOUND` or
    /// `LOOKUP_FAILED`.
    pub code: ErrorCode,
    /// A JSON pointer (RFC 6901) to the offending place in the built wire value (`""` = root).
    pub path: std::string::String,
    /// What was expected there.
    pub expected: std::string::String,
    /// A sentence for people.
    pub message: std::string::String,
    /// `INCOMPATIBLE`: the target version that cannot carry the value.
    pub version: Option<u32>,
}

#[cfg(feature = "std")]
impl EncodeError {
    /// A validation failure at `path`.
    pub fn invalid(path: &str, expected: impl Into<std::string::String>) -> EncodeError {
        let expected = expected.into();
        let at = if path.is_empty() { "the root" } else { path };
        EncodeError {
            code: ErrorCode::Invalid,
            message: std::format!("invalid wire value at {at}: expected {expected}"),
            path: path.into(),
            expected,
            version: None,
        }
    }

    /// A valid value that version `version` cannot carry: the refused field is at `path`.
    pub fn incompatible(path: &str, version: u32, why: &str) -> EncodeError {
        let at = if path.is_empty() { "the root" } else { path };
        EncodeError {
            code: ErrorCode::Incompatible,
            message: std::format!(
                "version {version} cannot carry the value at {at}: {why}; nothing was dropped and nothing was written"
            ),
            path: path.into(),
            expected: std::string::String::new(),
            version: Some(version),
        }
    }

    /// A command whose `kind` is none of `kinds`: `INVALID` at `/kind`, listing them.
    pub fn not_a_command_kind<'a>(kinds: impl IntoIterator<Item = &'a str>) -> EncodeError {
        let list: std::vec::Vec<std::string::String> = kinds.into_iter().map(|k| std::format!("\"{k}\"")).collect();
        EncodeError::invalid("/kind", std::format!("a command kind: one of {}", list.join(" | ")))
    }

    /// An error that is not about a place in the value.
    pub fn other(code: ErrorCode, message: impl Into<std::string::String>) -> EncodeError {
        EncodeError {
            code,
            path: std::string::String::new(),
            expected: std::string::String::new(),
            message: message.into(),
            version: None,
        }
    }
}

#[cfg(feature = "std")]
impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EncodeError {}

//! The error codes every family shares, the decoder's small `Copy` error and, on the producer
//! side (`std`), the encoder's error with a JSON-pointer path and what was expected.
//!
//! The decode error carries no strings that are built at run time: a message is rendered only
//! where it is shown (native `Display`, or the JS glue), so `core::fmt` never reaches the wasm
//! decoder. This module must never import a family or a host.

/// A stable error code (contract §7). The string form (`as_str`) is part of the contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ErrorCode {
    /// The value is not a plain object (null, an array, a primitive).
    NotObject = 1,
    /// `version` is present but not a number, not an integer, or below the initial version.
    MalformedVersion = 2,
    /// `version` is above the newest version this build decodes.
    NewerVersion = 3,
    /// The migration registry is broken (a missing or malformed step).
    Migration = 4,
    /// A value of the unversioned era does not have a shape any historic writer produced.
    LegacyShape = 5,
    /// `kind` is missing or not a kind of the current version.
    UnknownKind = 6,
    /// The encoder's complete value failed validation against the current shape.
    Invalid = 7,
    /// The requested encoding target is not one this build can produce.
    UnsupportedTarget = 8,
    /// A continuation hook belongs to another run than the stable inbox of its session.
    RunMismatch = 9,
}

impl ErrorCode {
    /// Every code, in a fixed order.
    pub const ALL: [ErrorCode; 9] = [
        ErrorCode::NotObject,
        ErrorCode::MalformedVersion,
        ErrorCode::NewerVersion,
        ErrorCode::Migration,
        ErrorCode::LegacyShape,
        ErrorCode::UnknownKind,
        ErrorCode::Invalid,
        ErrorCode::UnsupportedTarget,
        ErrorCode::RunMismatch,
    ];

    /// The codes the decoder can answer: the first six of [`ErrorCode::ALL`].
    pub const DECODE: &'static [ErrorCode] = ErrorCode::ALL.split_at(6).0;

    /// The stable string form, e.g. `"NEWER_VERSION"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotObject => "NOT_OBJECT",
            ErrorCode::MalformedVersion => "MALFORMED_VERSION",
            ErrorCode::NewerVersion => "NEWER_VERSION",
            ErrorCode::Migration => "MIGRATION",
            ErrorCode::LegacyShape => "LEGACY_SHAPE",
            ErrorCode::UnknownKind => "UNKNOWN_KIND",
            ErrorCode::Invalid => "INVALID",
            ErrorCode::UnsupportedTarget => "UNSUPPORTED_TARGET",
            ErrorCode::RunMismatch => "RUN_MISMATCH",
        }
    }

    /// The code for its string form.
    pub fn parse(s: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// A static detail of a decode error: what was found, or what is broken. `Copy`, one byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Detail {
    /// Nothing more to say.
    None = 0,
    /// `null` was found.
    Null = 1,
    /// A boolean was found.
    Bool = 2,
    /// A number was found.
    Number = 3,
    /// A string was found.
    String = 4,
    /// An array was found.
    Array = 5,
    /// A value JSON cannot hold was found (`undefined`, a function, a symbol, a bigint).
    NonJson = 6,
    /// Reading a property threw (a getter or a proxy trap).
    Unreadable = 7,
    /// `version` is present but not a number.
    VersionNotNumber = 8,
    /// `version` is absent and the family has no unversioned era.
    VersionMissing = 9,
    /// `version` is not an integer at or above the lowest version.
    VersionNotInteger = 10,
    /// No migration step starts at this version.
    NoStep = 11,
    /// The step does not go to the next version.
    StepSkips = 12,
    /// The step's output declares the wrong version.
    StepWrongVersion = 13,
    /// An unversioned `send` whose `payload` is not an object.
    SendPayload = 14,
    /// An unversioned `send` whose `delivery` is not an object.
    SendDelivery = 15,
    /// An unversioned `deliver` whose `payloads` is not an array of objects.
    DeliverPayloads = 16,
}

impl Detail {
    /// Every detail, indexed by its `repr`.
    pub const ALL: [Detail; 17] = [
        Detail::None,
        Detail::Null,
        Detail::Bool,
        Detail::Number,
        Detail::String,
        Detail::Array,
        Detail::NonJson,
        Detail::Unreadable,
        Detail::VersionNotNumber,
        Detail::VersionMissing,
        Detail::VersionNotInteger,
        Detail::NoStep,
        Detail::StepSkips,
        Detail::StepWrongVersion,
        Detail::SendPayload,
        Detail::SendDelivery,
        Detail::DeliverPayloads,
    ];

    /// The words a message uses for it.
    pub const fn text(self) -> &'static str {
        match self {
            Detail::None => "",
            Detail::Null => "null",
            Detail::Bool => "a boolean",
            Detail::Number => "a number",
            Detail::String => "a string",
            Detail::Array => "an array",
            Detail::NonJson => "a value JSON cannot hold",
            Detail::Unreadable => "a value whose properties cannot be read (a getter or proxy trap threw)",
            Detail::VersionNotNumber => "version is present but is not a number",
            Detail::VersionMissing => "version is missing and this family has no unversioned era",
            Detail::VersionNotInteger => "version is not an integer at or above the lowest version",
            Detail::NoStep => "no migration step starts at this version",
            Detail::StepSkips => "the step does not go to the next version",
            Detail::StepWrongVersion => "the step's output declares the wrong version",
            Detail::SendPayload => "the payload of an unversioned send must be an object",
            Detail::SendDelivery => "the delivery of an unversioned send must be an object",
            Detail::DeliverPayloads => "the payloads of an unversioned deliver must be an array of objects",
        }
    }
}

/// The message template of a decode error code: `{version}`, `{current}` and `{detail}` are
/// filled in where the message is shown (natively by `Display`, in JS by the package entry).
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
        ErrorCode::Invalid => "invalid wire value",
        ErrorCode::UnsupportedTarget => "unsupported target",
        ErrorCode::RunMismatch => "run mismatch",
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
    /// What was found, or what is broken.
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

    /// The same error, with a detail.
    pub const fn at(mut self, detail: Detail) -> DecodeError {
        self.detail = detail;
        self
    }

    /// The same error, naming a version.
    pub const fn with_version(mut self, version: f64) -> DecodeError {
        self.version = Some(version);
        self
    }
}

#[cfg(feature = "std")]
mod render {
    use super::{message_template, DecodeError};
    use std::fmt;

    impl fmt::Display for DecodeError {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let version = self.version.map(crate::canonical::number_to_string).unwrap_or_default();
            let text = message_template(self.code)
                .replace("{version}", &version)
                .replace("{current}", &self.current.to_string())
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
    /// `INVALID`, `UNSUPPORTED_TARGET` or `RUN_MISMATCH`.
    pub code: ErrorCode,
    /// A JSON pointer (RFC 6901) to the offending place in the built wire value (`""` = root).
    pub path: std::string::String,
    /// What was expected there.
    pub expected: std::string::String,
    /// A sentence for people.
    pub message: std::string::String,
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
        }
    }

    /// An error that is not about a place in the value.
    pub fn other(code: ErrorCode, message: impl Into<std::string::String>) -> EncodeError {
        EncodeError {
            code,
            path: std::string::String::new(),
            expected: std::string::String::new(),
            message: message.into(),
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

//! The error codes every family shares, the decoder's small `Copy` error and, on the producer
//! side (`std`), the encoder's error with a JSON-pointer path and what was expected.
//!
//! The decode error carries no strings that are built at run time: a message is rendered only
//! where it is shown (native `Display`, or the JS glue), so `core::fmt` never reaches the wasm
//! decoder. This module must never import a family or a host.

/// A stable error code (SPEC §7). The string form (`as_str`) is part of the contract.
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

/// Why a value could not be decoded. `Copy`, no heap, no formatting: the decoder's only error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecodeError {
    /// The stable code.
    pub code: ErrorCode,
    /// The version involved (the one found, or the step that failed), when there is one.
    pub version: Option<f64>,
    /// The newest version the decoder knows (for `NEWER_VERSION` messages).
    pub current: u32,
    /// A static detail: the offending field or what was found (`"payload"`, `"array"`, …).
    pub detail: Option<&'static str>,
}

impl DecodeError {
    /// An error with a code and nothing else.
    pub const fn new(code: ErrorCode) -> DecodeError {
        DecodeError {
            code,
            version: None,
            current: 0,
            detail: None,
        }
    }

    /// The same error, naming a detail.
    pub const fn at(mut self, detail: &'static str) -> DecodeError {
        self.detail = Some(detail);
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
    use super::{DecodeError, ErrorCode};
    use std::fmt;
    use std::string::String;

    pub(crate) fn number(n: f64) -> String {
        crate::canonical::number_to_string(n)
    }

    impl fmt::Display for DecodeError {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let v = self.version.map(number).unwrap_or_default();
            let d = self.detail.unwrap_or("");
            match self.code {
                ErrorCode::NotObject => match self.detail {
                    Some(d) => write!(f, "a wire value must be a plain object, not {d}"),
                    None => f.write_str("a wire value must be a plain object"),
                },
                ErrorCode::MalformedVersion => match self.version {
                    Some(_) => write!(f, "version {v} is not a supported integer version"),
                    None => f.write_str("version is present but is not a number"),
                },
                ErrorCode::NewerVersion => write!(
                    f,
                    "version {v} is newer than version {}, the newest this build decodes: \
                     the value was probably written by a newer deployment",
                    self.current
                ),
                ErrorCode::Migration => write!(
                    f,
                    "the migration registry is broken at version {v} ({d}); this is a bug in the registry"
                ),
                ErrorCode::LegacyShape => {
                    write!(f, "an unversioned value has a shape no historic writer produced: {d}")
                }
                ErrorCode::UnknownKind => match self.detail {
                    Some(_) => write!(f, "kind {d} is not a kind of the current version"),
                    None => f.write_str("kind is missing or is not a kind of the current version"),
                },
                other => f.write_str(other.as_str()),
            }
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

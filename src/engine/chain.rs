//! The migration chain (contract §3): read the version, reject what cannot be read, and walk
//! one-step migrations up to the current version. Family-agnostic; it knows no shapes.
//!
//! Invariant: a value leaves the chain ([`run`]) declaring exactly the current version, or not
//! at all ([`walk_deferring`], decode's, leaves out only that last write, which its projection
//! never reads, and takes a family's shortcut for an unversioned value).
//! This module must never import a family, the encoder or normalization code.

use crate::error::{DecodeError, Detail, ErrorCode};
use crate::host::{Head, Host, Sym, Type, Version};

/// The `up` half of a version step: a pure transform from version `n` to `n + 1`. It answers
/// the new value (declaring `n + 1`), or `None` when the value is unchanged apart from its
/// version (a pure bump costs nothing: nothing is copied). It must not mutate its input.
pub type Up<H> = fn(&mut H, &<H as Host>::Value) -> Result<Option<<H as Host>::Value>, DecodeError>;

/// A family's check of what a value may carry at the version it declares (run before the walk,
/// only when the `version` key is present, for integral versions from 1 to current), given the
/// symbol its `kind` is (see [`Head::kind`]). It answers the version the value reads as, as it is:
/// the declared version, or a later one when the check has shown every step from the declared
/// version up to it to be a pure bump for this value (each would answer `None`); never one below
/// the declared version (the walk takes at most the current one). The walk starts there, so what
/// the check has read already is not read again to find that nothing changes (tests hold every
/// family's claims to its steps).
pub type Declared<H> = fn(&mut H, &<H as Host>::Value, u32, Option<Sym>) -> Result<u32, DecodeError>;

/// A family's shortcut for decoding a value at its initial version (an unversioned one), given
/// the symbol its `kind` is: whether decode may take the value as current, as it is, the family
/// having shown that no step refuses it and that it reads as the walk of every step would (the
/// same kind, the same fields of that kind), so that decode answers exactly what running them
/// answers, value or error. It never refuses (unversioned values are not checked for what their
/// version may carry), and reads only what the steps read (tests hold every family's shortcut to
/// running every step). Decode's walk takes it; [`run`], whose value must leave declaring the
/// current version, does not.
pub type Unversioned<H> = fn(&mut H, &<H as Host>::Value, Option<Sym>) -> bool;

/// A one-step migration `from → to` (`to` must be `from + 1`): the `up` half of a step pair.
pub struct Step<H: Host> {
    /// The version it reads.
    pub from: u32,
    /// The version it writes.
    pub to: u32,
    /// The transform.
    pub up: Up<H>,
}

/// What the chain needs to know about a family.
pub struct Chain<'a, H: Host> {
    /// The newest version.
    pub current: u32,
    /// The version of a value with no `version` key, if the family has an unversioned era.
    pub initial: Option<u32>,
    /// The one-step migrations, in any order.
    pub steps: &'a [Step<H>],
    /// What a declared version may carry (contract §11), if the family says.
    pub declared: Option<Declared<H>>,
    /// The shortcut decode may take for an unversioned value, if the family has one.
    pub unversioned: Option<Unversioned<H>>,
}

/// The result of the chain: the input itself when no step had to rewrite it, else a new value.
pub enum Walked<V> {
    /// The input reads as the current version as it is (it declares it, or only version bumps
    /// separate it from it; or, in decode's walk, a family's [`Unversioned`] shortcut took it
    /// as current).
    Current,
    /// The migrated value.
    Migrated(V),
}

fn error(code: ErrorCode, current: u32) -> DecodeError {
    DecodeError::new(code).with_current(current)
}

/// Whether `n` is a finite integer (`core` has no `f64::fract`): every double of magnitude 2^52
/// or more is one; below that, an `i64` round trip tells.
pub fn is_integer(n: f64) -> bool {
    const ALL_INTEGRAL: f64 = 4_503_599_627_370_496.0;
    if n >= ALL_INTEGRAL || n <= -ALL_INTEGRAL {
        return n.is_finite();
    }
    n == (n as i64) as f64
}

/// Run the chain on `value` (contract §3, with the declared-version checks of §11 and §16). A
/// migrated value declares the current version.
pub fn run<H: Host>(h: &mut H, chain: &Chain<'_, H>, value: &H::Value) -> Result<Walked<H::Value>, DecodeError> {
    Ok(match walk(h, chain, value)?.0 {
        Walked::Migrated(mut v) => {
            // Steps after the last rewrite were pure bumps: the value leaves declaring `current`.
            let n = h.number(f64::from(chain.current));
            h.set(&mut v, Sym::VERSION, n);
            Walked::Migrated(v)
        }
        Walked::Current => Walked::Current,
    })
}

/// The walk of [`run`], without a family's [`Unversioned`] shortcut, answering also the head of
/// what it answers (the input's, read first, or the last rewrite's: its type, `version` and
/// `kind`). A migrated value still declares the version of its last rewrite (what follows it
/// were pure bumps): [`run`] sets the current one. Decode walks with [`walk_deferring`].
pub fn walk<H: Host>(
    h: &mut H,
    chain: &Chain<'_, H>,
    value: &H::Value,
) -> Result<(Walked<H::Value>, Head), DecodeError> {
    // No shortcut: a value leaves `run` declaring the current version.
    let chain = Chain {
        unversioned: None,
        ..*chain
    };
    walk_deferring(h, &chain, value, 0, &mut false)
}

/// [`walk`], passing over each step that starts below version `below` as if it were a pure bump
/// (it is still looked up and checked to go one version up); `passed_over` is set when it passes
/// over one. Only for steps that refuse and never rewrite, whose every refusal the decode after
/// the walk restates. Decode ([`crate::decode::decode_deferring`]) walks again, running every
/// step, whenever it fails after one was passed over. A value at the initial version that the
/// family's [`Unversioned`] shortcut takes is answered as current, as it is.
pub fn walk_deferring<H: Host>(
    h: &mut H,
    chain: &Chain<'_, H>,
    value: &H::Value,
    below: u32,
    passed_over: &mut bool,
) -> Result<(Walked<H::Value>, Head), DecodeError> {
    let current = chain.current;
    let head = h.head(value);
    if head.ty != Type::Object {
        return Err(error(ErrorCode::NotObject, current).at(head.ty.detail()));
    }
    let mut version = match head.version {
        Version::Absent => match chain.initial {
            Some(initial) => initial,
            None => return Err(error(ErrorCode::MalformedVersion, current).at(Detail::VersionMissing)),
        },
        Version::NotNumber => {
            return Err(error(ErrorCode::MalformedVersion, current).at(Detail::VersionNotNumber));
        }
        Version::Number(n) => {
            let lowest = chain.initial.unwrap_or(1);
            if !(is_integer(n) && n >= f64::from(lowest)) {
                return Err(error(ErrorCode::MalformedVersion, current)
                    .with_version(n)
                    .at(Detail::VersionNotInteger));
            }
            if n > f64::from(current) {
                return Err(error(ErrorCode::NewerVersion, current).with_version(n));
            }
            let n = n as u32;
            match (chain.declared, n >= 1) {
                // The steps up to the version the check answers are pure bumps for this value.
                (Some(check), true) => check(h, value, n, head.kind)?.min(current),
                _ => n,
            }
        }
    };
    let shortcut = match chain.unversioned {
        Some(taken) if chain.initial == Some(version) => taken(h, value, head.kind),
        _ => false,
    };
    if version == current || shortcut {
        return Ok((Walked::Current, head));
    }
    let mut walked: Option<H::Value> = None;
    let mut head = head;
    while version < current {
        let broken = error(ErrorCode::Migration, current).with_version(f64::from(version));
        let Some(step) = chain.steps.iter().find(|s| s.from == version) else {
            return Err(broken.at(Detail::NoStep));
        };
        if step.to != version + 1 {
            return Err(broken.at(Detail::StepSkips));
        }
        if version < below {
            *passed_over = true;
            version = step.to;
            continue;
        }
        let input = walked.as_ref().unwrap_or(value);
        if let Some(out) = (step.up)(h, input)? {
            // One question for the version it declares and the kind decode needs next.
            head = h.head(&out);
            if head.version != Version::Number(f64::from(step.to)) {
                return Err(broken.at(Detail::StepWrongVersion));
            }
            walked = Some(out);
        }
        version = step.to;
    }
    Ok((walked.map_or(Walked::Current, Walked::Migrated), head))
}

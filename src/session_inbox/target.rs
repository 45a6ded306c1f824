//! Negotiation (contract §6): choose the target a receiver understands, as pure functions. The
//! lookups (`getHookByToken`) are the caller's; [`negotiate`] counts them and hands back the
//! inspected hook, so the resume targets that object and not the token again.
//! No I/O happens here.

use crate::error::{EncodeError, ErrorCode};
use crate::removable::Removable;
use crate::session_inbox::encode::{Target, V0Variant};
use crate::session_inbox::{HOOK_METADATA_KEY, WIRE_VERSION};
use serde_json::Value;

/// Markerless classification exists only for consumers that predate the metadata stamp.
pub const MARKERLESS_REMOVAL: Removable = Removable {
    what: "markerless classification (stable-inbox and continuation rules, the ownership lookup)",
    site: "src/session_inbox/target.rs",
    when: "every hook created before consumers stamped sessionInboxWireVersion has expired \
           (30-day session timeout after the stamping release): then a markerless hook is an error",
};

/// What the producer knows about a hook it inspected.
pub trait HookLike {
    /// The hook's token.
    fn token(&self) -> &str;
    /// The id of the run that owns the hook.
    fn run_id(&self) -> &str;
    /// The hook's metadata, if any.
    fn metadata(&self) -> Option<&Value>;
}

/// A plain hook record.
#[derive(Clone, Debug, PartialEq)]
pub struct Hook {
    /// The token.
    pub token: String,
    /// The owning run.
    pub run_id: String,
    /// The metadata stamped at `createHook`.
    pub metadata: Option<Value>,
}

impl HookLike for Hook {
    fn token(&self) -> &str {
        &self.token
    }
    fn run_id(&self) -> &str {
        &self.run_id
    }
    fn metadata(&self) -> Option<&Value> {
        self.metadata.as_ref()
    }
}

/// The form of a run's stable inbox token: `<prefix><runId><suffix>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboxTokens {
    /// Before the run id (`eve:session:`).
    pub prefix: String,
    /// After the run id (`:inbox`).
    pub suffix: String,
}

impl Default for InboxTokens {
    fn default() -> InboxTokens {
        InboxTokens {
            prefix: "eve:session:".into(),
            suffix: ":inbox".into(),
        }
    }
}

impl InboxTokens {
    /// The stable inbox token of `run_id`.
    pub fn stable_token(&self, run_id: &str) -> String {
        format!("{}{run_id}{}", self.prefix, self.suffix)
    }

    /// Whether `token` has the stable inbox form (for any run).
    pub fn is_stable(&self, token: &str) -> bool {
        token.len() > self.prefix.len() + self.suffix.len()
            && token.starts_with(&self.prefix)
            && token.ends_with(&self.suffix)
    }
}

/// A receiver address saved earlier: the receiver advertised its session and wire version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReceiverAddress {
    /// The receiver's canonical session id.
    pub session_id: String,
    /// The wire version it decodes.
    pub version: u32,
}

/// Where a command is going.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// A saved receiver address (zero lookups).
    Address(ReceiverAddress),
    /// A hook token.
    Token(String),
}

/// How the producer must resume.
#[derive(Clone, Debug, PartialEq)]
pub enum Resume<H> {
    /// By token (fast paths: backend resume deduplication is kept).
    Token(String),
    /// The inspected hook object itself, so the decision cannot apply to a hook that reused the token.
    Hook(H),
}

/// The outcome of negotiation.
#[derive(Clone, Debug, PartialEq)]
pub struct Negotiated<H> {
    /// What to encode for.
    pub target: Target,
    /// How many hook lookups were made.
    pub lookups: u32,
    /// What to resume.
    pub resume: Resume<H>,
}

/// The next step after inspecting a hook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Classified {
    /// The target is known.
    Target(Target),
    /// A markerless continuation: look up this stable inbox token, then [`classify_continuation`].
    LookupStableInbox(String),
}

fn unsupported(what: &str, v: &Value) -> EncodeError {
    EncodeError::other(
        ErrorCode::UnsupportedTarget,
        format!(
            "{what} {} is not a version this build encodes (1..={WIRE_VERSION}); nothing was written",
            crate::canonical::to_string(v)
        ),
    )
}

/// A stamped version, checked: an integer in `1..=WIRE_VERSION`.
pub fn stamped_version(v: &Value) -> Result<Target, EncodeError> {
    match v.as_f64() {
        Some(n) if n.fract() == 0.0 && n >= 1.0 && n <= f64::from(WIRE_VERSION) => Ok(Target::Version(n as u32)),
        _ => Err(unsupported(&format!("hook metadata {HOOK_METADATA_KEY}"), v)),
    }
}

/// Zero-lookup fast paths (contract §6.4): a saved receiver address, or a `send` or control
/// command addressed to a stable inbox token. `None`: the hook must be inspected.
pub fn fast_path(command: &Value, dest: &Destination, tokens: &InboxTokens) -> Option<Result<Target, EncodeError>> {
    match dest {
        Destination::Address(a) => Some(
            stamped_version(&Value::from(a.version))
                .map_err(|_| unsupported("receiver address version", &Value::from(a.version))),
        ),
        Destination::Token(t) => {
            let kind = command.get("kind").and_then(Value::as_str)?;
            let compatible =
                kind == "send" || matches!(kind, "session-timeout" | "clear" | "compact" | "reset" | "cancel");
            (compatible && tokens.is_stable(t)).then_some(Ok(Target::V0(V0Variant::Send)))
        }
    }
}

/// Classify an inspected hook (contract §6.1–§6.3).
pub fn classify(hook: &impl HookLike, tokens: &InboxTokens) -> Result<Classified, EncodeError> {
    if let Some(stamp) = hook
        .metadata()
        .and_then(Value::as_object)
        .and_then(|m| m.get(HOOK_METADATA_KEY))
    {
        return stamped_version(stamp).map(Classified::Target);
    }
    let stable = tokens.stable_token(hook.run_id());
    if hook.token() == stable {
        return Ok(Classified::Target(Target::V0(V0Variant::Send)));
    }
    Ok(Classified::LookupStableInbox(stable))
}

/// Finish a markerless continuation once the run's stable inbox has been looked up.
pub fn classify_continuation(
    hook: &impl HookLike,
    stable_inbox: Option<&impl HookLike>,
) -> Result<Target, EncodeError> {
    match stable_inbox {
        None => Ok(Target::V0(V0Variant::Deliver)),
        Some(s) if s.run_id() == hook.run_id() => Ok(Target::V0(V0Variant::Send)),
        Some(s) => Err(EncodeError::other(
            ErrorCode::RunMismatch,
            format!(
                "continuation hook {:?} belongs to run {:?}, but its stable inbox belongs to run {:?}; nothing was written",
                hook.token(),
                hook.run_id(),
                s.run_id()
            ),
        )),
    }
}

/// Negotiate end to end with the caller's `lookup` (a `getHookByToken`), counting lookups.
pub fn negotiate<H: HookLike>(
    command: &Value,
    dest: &Destination,
    tokens: &InboxTokens,
    mut lookup: impl FnMut(&str) -> Option<H>,
) -> Result<Negotiated<H>, EncodeError> {
    if let Some(target) = fast_path(command, dest, tokens) {
        let token = match dest {
            Destination::Address(a) => a.session_id.clone(),
            Destination::Token(t) => t.clone(),
        };
        return Ok(Negotiated {
            target: target?,
            lookups: 0,
            resume: Resume::Token(token),
        });
    }
    let Destination::Token(token) = dest else {
        return Err(EncodeError::other(
            ErrorCode::UnsupportedTarget,
            "no destination to inspect",
        ));
    };
    let Some(hook) = lookup(token) else {
        return Err(EncodeError::other(
            ErrorCode::UnsupportedTarget,
            format!("hook {token:?} not found; nothing was written"),
        ));
    };
    match classify(&hook, tokens)? {
        Classified::Target(target) => Ok(Negotiated {
            target,
            lookups: 1,
            resume: Resume::Hook(hook),
        }),
        Classified::LookupStableInbox(stable) => {
            let inbox = lookup(&stable);
            let target = classify_continuation(&hook, inbox.as_ref())?;
            Ok(Negotiated {
                target,
                lookups: 2,
                resume: Resume::Hook(hook),
            })
        }
    }
}

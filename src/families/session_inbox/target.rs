//! Negotiation (contract §6, §12, §16): choose the target a receiver understands. The rules live
//! here once, as a resumable state machine: [`start`] answers either the target or "look up this
//! token"; the caller performs the lookup however it likes (synchronously, with `.await`, from
//! JS) and hands the answer to [`Lookup::answer`], which again answers a target or another
//! lookup. So the lookups are the caller's, their count is explicit, and no host re-implements a
//! rule. The resume targets the inspected hook object, not the token again.
//! No I/O happens here: [`negotiate`] (a synchronous lookup) and [`negotiate_async`] (a lookup
//! that is a future) are the two drivers of the machine, and a lookup fails with the caller's
//! own error type ([`NegotiateError::Lookup`]).

use crate::error::{EncodeError, ErrorCode, Transport};
use crate::removable::Removable;
use crate::session_inbox::encode::{encode, Target, V0Variant};
use crate::session_inbox::{HOOK_METADATA_KEY, WIRE_VERSION};
use crate::Answer;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::future::Future;

/// Markerless classification exists only for consumers that predate the metadata stamp.
pub const MARKERLESS_REMOVAL: Removable = Removable {
    what: "markerless classification (stable-inbox and continuation rules, the ownership lookup)",
    site: "src/families/session_inbox/target.rs",
    when: "every hook created before consumers stamped sessionInboxWireVersion has expired \
           (30-day session timeout after the stamping release): then a markerless hook is an error",
};

/// The largest safe integer (2^53 − 1): stamped versions are positive safe integers.
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// What the producer knows about a hook it inspected.
pub trait HookLike {
    /// The hook's token.
    fn token(&self) -> &str;
    /// The id of the run that owns the hook.
    fn run_id(&self) -> &str;
    /// The hook's metadata, if any.
    fn metadata(&self) -> Option<&Value>;
}

/// A plain hook record; its serde form is the SDK's `{"token", "runId", "metadata"?}`.
///
/// ```
/// use hookwire::session_inbox::target::Hook;
/// let hook: Hook = serde_json::from_str(r#"{"token": "c-1", "runId": "run-1"}"#).unwrap();
/// assert_eq!((hook.token.as_str(), hook.run_id.as_str(), hook.metadata), ("c-1", "run-1", None));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hook {
    /// The token.
    pub token: String,
    /// The owning run.
    pub run_id: String,
    /// The metadata stamped at `createHook`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
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

impl Hook {
    /// A looked-up hook given as JSON (`{"token", "runId", "metadata"?}`): `null` is "not
    /// found"; anything that is not a hook with a string `token` and `runId` is a failed lookup
    /// (contract §16), never "not found".
    ///
    /// ```
    /// use hookwire::session_inbox::target::Hook;
    /// use serde_json::json;
    /// assert_eq!(Hook::from_json(&json!(null)), Ok(None));
    /// assert!(Hook::from_json(&json!({"token": "c-1"})).is_err());
    /// ```
    pub fn from_json(v: &Value) -> Result<Option<Hook>, String> {
        if v.is_null() {
            return Ok(None);
        }
        let text = |key: &str| v.get(key).and_then(Value::as_str).map(String::from);
        match (text("token"), text("runId")) {
            (Some(token), Some(run_id)) => Ok(Some(Hook {
                token,
                run_id,
                metadata: v.get("metadata").filter(|m| !m.is_null()).cloned(),
            })),
            _ => Err(format!(
                "the lookup returned {}, which is not a hook with a string token and runId",
                crate::canonical::to_string(v)
            )),
        }
    }

    /// The JSON form `{"token", "runId", "metadata"?}`.
    ///
    /// ```
    /// use hookwire::session_inbox::target::Hook;
    /// let hook = Hook { token: "c-1".into(), run_id: "run-1".into(), metadata: None };
    /// assert_eq!(hook.to_json(), serde_json::json!({"token": "c-1", "runId": "run-1"}));
    /// ```
    pub fn to_json(&self) -> Value {
        let mut out = json!({"token": self.token, "runId": self.run_id});
        if let Some(m) = &self.metadata {
            out["metadata"] = m.clone();
        }
        out
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
    /// The default template.
    pub const DEFAULT_TEMPLATE: &'static str = "eve:session:{runId}:inbox";

    /// The form given as a template with exactly one `{runId}` (`eve:session:{runId}:inbox`).
    ///
    /// ```
    /// use hookwire::session_inbox::target::InboxTokens;
    /// let tokens = InboxTokens::from_template("inbox/{runId}").unwrap();
    /// assert_eq!(tokens.stable_token("run-1"), "inbox/run-1");
    /// assert!(InboxTokens::from_template("inbox").is_err());
    /// ```
    pub fn from_template(template: &str) -> Result<InboxTokens, String> {
        match template.split_once("{runId}") {
            Some((prefix, suffix)) if !suffix.contains("{runId}") => Ok(InboxTokens {
                prefix: prefix.into(),
                suffix: suffix.into(),
            }),
            _ => Err(format!(
                "stableInboxToken {template:?} must contain {{runId}} exactly once"
            )),
        }
    }

    /// The stable inbox token of `run_id`.
    ///
    /// ```
    /// let tokens = hookwire::session_inbox::target::InboxTokens::default();
    /// assert_eq!(tokens.stable_token("run-1"), "eve:session:run-1:inbox");
    /// ```
    pub fn stable_token(&self, run_id: &str) -> String {
        format!("{}{run_id}{}", self.prefix, self.suffix)
    }

    /// Whether `token` has the stable inbox form (for any non-empty run id).
    ///
    /// ```
    /// let tokens = hookwire::session_inbox::target::InboxTokens::default();
    /// assert!(tokens.is_stable("eve:session:run-1:inbox") && !tokens.is_stable("eve:session::inbox"));
    /// ```
    pub fn is_stable(&self, token: &str) -> bool {
        token.len() > self.prefix.len() + self.suffix.len()
            && token.starts_with(&self.prefix)
            && token.ends_with(&self.suffix)
    }
}

/// The producer's configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The newest version this producer writes (a rollout that must stay rollback-safe writes
    /// an older one until it is promoted): 1 ..= current.
    pub write_ceiling: u32,
    /// The stable inbox token form.
    pub tokens: InboxTokens,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            write_ceiling: WIRE_VERSION,
            tokens: InboxTokens::default(),
        }
    }
}

impl Options {
    /// Options with a write ceiling, checked: an integer from 1 to the current version.
    ///
    /// ```
    /// use hookwire::session_inbox::target::Options;
    /// assert_eq!(Options::default().with_write_ceiling(5).unwrap().write_ceiling, 5);
    /// assert!(Options::default().with_write_ceiling(0).is_err());
    /// ```
    pub fn with_write_ceiling(mut self, ceiling: u32) -> Result<Options, String> {
        if !(1..=WIRE_VERSION).contains(&ceiling) {
            return Err(crate::family::write_ceiling_refused(WIRE_VERSION, &ceiling));
        }
        self.write_ceiling = ceiling;
        Ok(self)
    }
}

/// A receiver address saved earlier: the receiver advertised its session and wire version.
/// Its serde form is `{"sessionId", "version"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReceiverAddress {
    /// The receiver's canonical session id (non-empty, without `:`).
    pub session_id: String,
    /// The wire version it decodes (a positive safe integer; checked by negotiation).
    pub version: f64,
}

/// Where a command is going. Its serde form is `{"token": …}` or `{"address": {"sessionId",
/// "version"}}`.
///
/// ```
/// use hookwire::session_inbox::target::Destination;
/// let dest: Destination = serde_json::from_str(r#"{"token": "c-1"}"#).unwrap();
/// assert_eq!(dest, Destination::Token("c-1".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Destination {
    /// A saved receiver address (zero lookups).
    Address(ReceiverAddress),
    /// A hook token.
    Token(String),
}

impl Destination {
    /// The JSON form `{"token": …}` or `{"address": {"sessionId", "version"}}`; both or neither
    /// is a malformed request (`Err`). Malformed address fields are kept for negotiation to refuse.
    ///
    /// ```
    /// use hookwire::session_inbox::target::Destination;
    /// let dest = Destination::from_json(&serde_json::json!({"address": {"sessionId": "s-1", "version": 3}})).unwrap();
    /// assert!(matches!(dest, Destination::Address(a) if a.session_id == "s-1" && a.version == 3.0));
    /// ```
    pub fn from_json(v: &Value) -> Result<Destination, String> {
        match (v.get("token"), v.get("address")) {
            (Some(Value::String(t)), None) => Ok(Destination::Token(t.clone())),
            (None, Some(a)) => Ok(Destination::Address(ReceiverAddress {
                session_id: a.get("sessionId").and_then(Value::as_str).unwrap_or("").into(),
                version: a.get("version").and_then(Value::as_f64).unwrap_or(f64::NAN),
            })),
            _ => Err("destination must be {\"token\": string} or {\"address\": {\"sessionId\", \"version\"}}".into()),
        }
    }
}

/// How the producer must resume. Exhaustive on purpose: a caller must act on every form, so a
/// new one would be a breaking change whatever the attribute said.
#[derive(Clone, Debug, PartialEq)]
pub enum Resume<H> {
    /// By token (zero-lookup paths: backend resume deduplication is kept).
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

/// What negotiation needs next. Exhaustive on purpose: the machine has exactly these two states,
/// and every driver handles both.
#[derive(Debug)]
pub enum Next<H> {
    /// Look a hook up, then [`Lookup::answer`].
    Lookup(Lookup<H>),
    /// Done: the target, or why not (nothing is written on an error).
    Done(Result<Negotiated<H>, EncodeError>),
}

/// A pending lookup: the token to look up, and the state to resume with the answer
/// ([`Lookup::answer`]) or to end with the caller's error ([`Lookup::fail`]).
#[derive(Debug)]
pub struct Lookup<H> {
    token: String,
    pending: Pending<H>,
    options: Options,
}

#[derive(Debug)]
enum Pending<H> {
    /// The destination hook itself.
    Destination,
    /// The stable inbox of a markerless continuation's run.
    StableInbox(H),
}

fn done<H>(target: Target, lookups: u32, resume: Resume<H>) -> Next<H> {
    Next::Done(Ok(Negotiated {
        target,
        lookups,
        resume,
    }))
}

fn refuse<H>(code: ErrorCode, message: String) -> Next<H> {
    Next::Done(Err(EncodeError::other(code, format!("{message}; nothing was written"))))
}

/// A version a receiver advertised, checked (a positive safe integer), then capped by the write
/// ceiling: `{version: min(n, ceiling)}`.
fn advertised(v: &Value, what: &str, ceiling: u32) -> Result<Target, EncodeError> {
    match v.as_f64() {
        Some(n) if n.fract() == 0.0 && (1.0..=MAX_SAFE).contains(&n) => {
            Ok(Target::Version(n.min(f64::from(ceiling)) as u32))
        }
        _ => Err(EncodeError::other(
            ErrorCode::UnsupportedTarget,
            format!(
                "{what} {} is not a version (a positive safe integer); nothing was written",
                crate::canonical::to_string(v)
            ),
        )),
    }
}

/// Start negotiating where `command` goes (contract §12): the target, or the first lookup.
///
/// ```
/// use hookwire::session_inbox::target::{start, Destination, Hook, Next, Options};
/// use hookwire::session_inbox::Target;
/// let command = serde_json::json!({"kind": "clear"});
/// // A stable inbox token needs no lookup for a control command: the raw-send era reads it.
/// let Next::Done(Ok(n)) = start::<Hook>(&command, &Destination::Token("eve:session:run-1:inbox".into()), &Options::default()) else {
///     panic!("no lookup")
/// };
/// assert_eq!((n.target, n.lookups), (Target::V0(hookwire::session_inbox::V0Variant::Send), 0));
/// // A continuation token is looked up first.
/// let Next::Lookup(lookup) = start::<Hook>(&command, &Destination::Token("cont-1".into()), &Options::default()) else {
///     panic!("a lookup")
/// };
/// assert_eq!(lookup.token(), "cont-1");
/// ```
pub fn start<H: HookLike>(command: &Value, dest: &Destination, options: &Options) -> Next<H> {
    match dest {
        Destination::Address(a) => {
            if a.session_id.is_empty() || a.session_id.contains(':') {
                return refuse(
                    ErrorCode::UnsupportedTarget,
                    format!(
                        "receiver address sessionId {:?} must be a non-empty string without ':'",
                        a.session_id
                    ),
                );
            }
            let version = serde_json::Number::from_f64(a.version).map_or(Value::Null, Value::Number);
            match advertised(&version, "receiver address version", options.write_ceiling) {
                Ok(target) => done(target, 0, Resume::Token(a.session_id.clone())),
                Err(e) => Next::Done(Err(e)),
            }
        }
        Destination::Token(token) => {
            let kind = command.get("kind").and_then(Value::as_str).unwrap_or("");
            let send_or_control = matches!(
                kind,
                "send" | "session-timeout" | "clear" | "compact" | "reset" | "cancel"
            );
            let raw_send = Target::V0(V0Variant::Send);
            // Contract §16: the fast path is decided by a trial encode for the v0 send target.
            if send_or_control && options.tokens.is_stable(token) && encode(command, raw_send).is_ok() {
                return done(raw_send, 0, Resume::Token(token.clone()));
            }
            Next::Lookup(Lookup {
                token: token.clone(),
                pending: Pending::Destination,
                options: options.clone(),
            })
        }
    }
}

impl<H: HookLike> Lookup<H> {
    /// The token to look up.
    ///
    /// ```
    /// use hookwire::session_inbox::target::{start, Destination, Hook, Next, Options};
    /// let Next::Lookup(l) = start::<Hook>(&serde_json::json!({"kind": "clear"}), &Destination::Token("c-1".into()), &Options::default()) else { panic!() };
    /// assert_eq!(l.token(), "c-1");
    /// ```
    pub fn token(&self) -> &str {
        &self.token
    }

    /// How many lookups this one makes, counting itself.
    ///
    /// ```
    /// use hookwire::session_inbox::target::{start, Destination, Hook, Next, Options};
    /// let Next::Lookup(l) = start::<Hook>(&serde_json::json!({"kind": "clear"}), &Destination::Token("c-1".into()), &Options::default()) else { panic!() };
    /// assert_eq!(l.count(), 1);
    /// ```
    pub fn count(&self) -> u32 {
        match self.pending {
            Pending::Destination => 1,
            Pending::StableInbox(_) => 2,
        }
    }

    /// The inspected destination hook, while its run's stable inbox is being looked up.
    ///
    /// ```
    /// use hookwire::session_inbox::target::{start, Destination, Hook, Next, Options};
    /// let Next::Lookup(l) = start::<Hook>(&serde_json::json!({"kind": "clear"}), &Destination::Token("c-1".into()), &Options::default()) else { panic!() };
    /// assert!(l.inspected().is_none());
    /// let markerless = Hook { token: "c-1".into(), run_id: "run-1".into(), metadata: None };
    /// let Next::Lookup(inbox) = l.answer(Ok(Some(markerless.clone()))) else { panic!() };
    /// assert_eq!((inbox.token(), inbox.inspected()), ("eve:session:run-1:inbox", Some(&markerless)));
    /// ```
    pub fn inspected(&self) -> Option<&H> {
        match &self.pending {
            Pending::Destination => None,
            Pending::StableInbox(h) => Some(h),
        }
    }

    /// Resume with the lookup's answer: a hook, "not found" (`Ok(None)`), or a failure with the
    /// caller's reason (a failure is never taken for "not found"; to keep the caller's own error
    /// value, end with [`Lookup::fail`] instead).
    ///
    /// ```
    /// use hookwire::session_inbox::target::{start, Destination, Hook, Next, Options};
    /// let Next::Lookup(l) = start::<Hook>(&serde_json::json!({"kind": "clear"}), &Destination::Token("c-1".into()), &Options::default()) else { panic!() };
    /// let Next::Done(Err(e)) = l.answer(Ok(None)) else { panic!() };
    /// assert_eq!(e.code.as_str(), "HOOK_NOT_FOUND");
    /// ```
    pub fn answer(self, found: Result<Option<H>, String>) -> Next<H> {
        let lookups = self.count();
        let hook = match found {
            Err(why) => {
                return refuse(
                    ErrorCode::LookupFailed,
                    format!("looking up hook {:?} failed: {why}", self.token),
                )
            }
            Ok(hook) => hook,
        };
        match self.pending {
            Pending::Destination => {
                let Some(hook) = hook else {
                    return refuse(
                        ErrorCode::HookNotFound,
                        format!("hook {:?} does not exist: there is nothing to resume", self.token),
                    );
                };
                self.options.classify(hook)
            }
            Pending::StableInbox(inspected) => {
                let target = match hook {
                    None => Target::V0(V0Variant::Deliver),
                    Some(s) if s.run_id() == inspected.run_id() => Target::V0(V0Variant::Send),
                    Some(s) => {
                        return refuse(
                            ErrorCode::RunMismatch,
                            format!(
                                "continuation hook {:?} belongs to run {:?}, but its stable inbox belongs to run {:?}",
                                inspected.token(),
                                inspected.run_id(),
                                s.run_id()
                            ),
                        )
                    }
                };
                done(target, lookups, Resume::Hook(inspected))
            }
        }
    }
}

impl<H> Lookup<H> {
    /// End with the caller's failed lookup (contract §16: `LOOKUP_FAILED`, never "not found"),
    /// keeping the caller's error value.
    ///
    /// ```
    /// use hookwire::session_inbox::target::{start, Destination, Hook, NegotiateError, Next, Options};
    /// let Next::Lookup(l) = start::<Hook>(&serde_json::json!({"kind": "clear"}), &Destination::Token("c-1".into()), &Options::default()) else { panic!() };
    /// let e = l.fail(std::io::Error::other("connection reset"));
    /// assert_eq!(e.code().as_str(), "LOOKUP_FAILED");
    /// assert!(matches!(e, NegotiateError::Lookup { token, error } if token == "c-1" && error.to_string() == "connection reset"));
    /// ```
    pub fn fail<E>(self, error: E) -> NegotiateError<E> {
        NegotiateError::Lookup {
            token: self.token,
            error,
        }
    }
}

/// Why negotiation answered no target: a refusal by the rules, or the caller's own failed lookup.
/// Either way nothing was written.
#[derive(Debug)]
#[non_exhaustive]
pub enum NegotiateError<E> {
    /// Refused: `HOOK_NOT_FOUND`, `RUN_MISMATCH`, `UNSUPPORTED_TARGET` (with the message).
    Refused(EncodeError),
    /// The lookup of `token` failed with the caller's error (`LOOKUP_FAILED`).
    Lookup {
        /// The token being looked up.
        token: String,
        /// The caller's error, as the lookup returned it.
        error: E,
    },
}

impl<E> NegotiateError<E> {
    /// The stable code: the refusal's, or `LOOKUP_FAILED`.
    ///
    /// ```
    /// use hookwire::session_inbox::target::NegotiateError;
    /// let e = NegotiateError::Lookup { token: "c-1".into(), error: "timeout" };
    /// assert_eq!(e.code().as_str(), "LOOKUP_FAILED");
    /// ```
    pub fn code(&self) -> ErrorCode {
        match self {
            NegotiateError::Refused(e) => e.code,
            NegotiateError::Lookup { .. } => ErrorCode::LookupFailed,
        }
    }
}

impl<E: std::fmt::Display> From<NegotiateError<E>> for EncodeError {
    /// The producer's error with the caller's error as text (what the CLI and the JS encoder
    /// answer).
    fn from(e: NegotiateError<E>) -> EncodeError {
        match e {
            NegotiateError::Refused(e) => e,
            NegotiateError::Lookup { token, error } => EncodeError::other(
                ErrorCode::LookupFailed,
                format!("looking up hook {token:?} failed: {error}; nothing was written"),
            ),
        }
    }
}

impl<E: std::fmt::Display> std::fmt::Display for NegotiateError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NegotiateError::Refused(e) => e.fmt(f),
            NegotiateError::Lookup { token, error } => {
                write!(f, "looking up hook {token:?} failed: {error}; nothing was written")
            }
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for NegotiateError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NegotiateError::Refused(e) => Some(e),
            NegotiateError::Lookup { error, .. } => Some(error),
        }
    }
}

impl Options {
    /// Classify the inspected destination hook (contract §6.1–§6.3, §12).
    fn classify<H: HookLike>(&self, hook: H) -> Next<H> {
        let stamp = hook
            .metadata()
            .and_then(Value::as_object)
            .and_then(|m| m.get(HOOK_METADATA_KEY));
        if let Some(stamp) = stamp {
            let what = format!("hook metadata {HOOK_METADATA_KEY}");
            return match advertised(stamp, &what, self.write_ceiling) {
                Ok(target) => done(target, 1, Resume::Hook(hook)),
                Err(e) => Next::Done(Err(e)),
            };
        }
        let stable = self.tokens.stable_token(hook.run_id());
        if hook.token() == stable {
            return done(Target::V0(V0Variant::Send), 1, Resume::Hook(hook));
        }
        Next::Lookup(Lookup {
            token: stable,
            pending: Pending::StableInbox(hook),
            options: self.clone(),
        })
    }
}

/// Negotiate end to end with a synchronous `lookup` (a `getHookByToken`): `Ok(None)` is "not
/// found", `Err` a failed lookup, which ends negotiation with the caller's error
/// ([`NegotiateError::Lookup`]). `?` turns a `NegotiateError` into an [`EncodeError`].
///
/// ```
/// use hookwire::session_inbox::target::{negotiate, Destination, Hook, NegotiateError, Options};
/// use hookwire::session_inbox::Target;
/// use serde_json::json;
/// let hook = Hook { token: "cont-1".into(), run_id: "run-1".into(), metadata: Some(json!({"sessionInboxWireVersion": 3})) };
/// let command = json!({"kind": "deliver", "payloads": []});
/// let dest = Destination::Token("cont-1".into());
/// let found = negotiate(&command, &dest, &Options::default(), |_| Ok::<_, std::io::Error>(Some(hook.clone()))).unwrap();
/// assert_eq!((found.target, found.lookups), (Target::Version(3), 1));
/// let failed = negotiate::<Hook, _>(&command, &dest, &Options::default(), |_| Err(std::io::Error::other("reset")));
/// assert!(matches!(failed, Err(NegotiateError::Lookup { error, .. }) if error.to_string() == "reset"));
/// ```
pub fn negotiate<H: HookLike, E>(
    command: &Value,
    dest: &Destination,
    options: &Options,
    mut lookup: impl FnMut(&str) -> Result<Option<H>, E>,
) -> Result<Negotiated<H>, NegotiateError<E>> {
    let mut next = start(command, dest, options);
    loop {
        match next {
            Next::Done(result) => return result.map_err(NegotiateError::Refused),
            Next::Lookup(pending) => match lookup(pending.token()) {
                Ok(found) => next = pending.answer(Ok(found)),
                Err(error) => return Err(pending.fail(error)),
            },
        }
    }
}

/// [`negotiate`] with a lookup that is a future (an async `getHookByToken`): the same machine,
/// awaited between its steps. No executor is assumed.
///
/// ```
/// use hookwire::session_inbox::target::{negotiate_async, Destination, Hook, NegotiateError, Options};
/// use hookwire::session_inbox::{Command, SendCommand, Target};
/// use serde_json::json;
///
/// #[derive(Debug)]
/// struct StoreError(String);
///
/// /// The caller's lookup: any async client (here, an in-memory one).
/// async fn get_hook_by_token(token: String) -> Result<Option<Hook>, StoreError> {
///     match token.as_str() {
///         "cont-7" => Ok(Some(Hook { token, run_id: "run-1".into(), metadata: Some(json!({"sessionInboxWireVersion": 5})) })),
///         "broken" => Err(StoreError("connection reset".into())),
///         _ => Ok(None),
///     }
/// }
///
/// async fn send(message: &str, token: &str) -> Result<serde_json::Value, NegotiateError<StoreError>> {
///     let command = Command::from(SendCommand::new(json!({"message": message}).as_object().unwrap().clone()));
///     let dest = Destination::Token(token.into());
///     let n = negotiate_async(&command.to_value(), &dest, &Options::default(), get_hook_by_token).await?;
///     assert_eq!((n.target, n.lookups), (Target::Version(5), 1));
///     command.encode(n.target).map_err(NegotiateError::Refused) // then resume n.resume
/// }
///
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v } }
/// # }
/// let wire = block_on(send("Where is my order?", "cont-7")).unwrap();
/// assert_eq!(wire["version"], 5);
/// let failed = block_on(send("hi", "broken")).unwrap_err();
/// assert!(matches!(failed, NegotiateError::Lookup { ref error, .. } if error.0 == "connection reset"));
/// assert_eq!(block_on(send("hi", "gone")).unwrap_err().code().as_str(), "HOOK_NOT_FOUND");
/// ```
pub async fn negotiate_async<H, E, F, Fut>(
    command: &Value,
    dest: &Destination,
    options: &Options,
    mut lookup: F,
) -> Result<Negotiated<H>, NegotiateError<E>>
where
    H: HookLike,
    F: FnMut(String) -> Fut,
    Fut: Future<Output = Result<Option<H>, E>>,
{
    let mut next = start(command, dest, options);
    loop {
        match next {
            Next::Done(result) => return result.map_err(NegotiateError::Refused),
            Next::Lookup(pending) => match lookup(pending.token().to_string()).await {
                Ok(found) => next = pending.answer(Ok(found)),
                Err(error) => return Err(pending.fail(error)),
            },
        }
    }
}

/// The JSON answer of a finished negotiation: `{"ok": {"target", "lookups", "resume": {"token"}}}`
/// (the resumed token is the inspected hook's, or the destination's on a zero-lookup path) or
/// `{"error": …}`.
#[doc(hidden)] // host plumbing: the CLI's and the JS encoder's JSON forms
pub fn answer_json<H: HookLike>(result: &Result<Negotiated<H>, EncodeError>) -> Value {
    match result {
        Ok(n) => {
            let token = match &n.resume {
                Resume::Token(t) => t.as_str(),
                Resume::Hook(h) => h.token(),
            };
            Answer::Ok(json!({"target": n.target.to_json(), "lookups": n.lookups, "resume": {"token": token}}))
        }
        Err(e) => Answer::Refused(e.clone()),
    }
    .to_json()
}

/// The JSON state of a pending lookup, to resume it later with [`resume_json`] (the JS encoder
/// keeps it across its own `await`).
#[doc(hidden)] // host plumbing: the CLI's and the JS encoder's JSON forms
pub fn lookup_state(pending: &Lookup<Hook>) -> Value {
    let tokens = &pending.options.tokens;
    json!({
        "token": pending.token,
        "inspected": pending.inspected().map(Hook::to_json),
        "writeCeiling": pending.options.write_ceiling,
        "prefix": tokens.prefix,
        "suffix": tokens.suffix,
    })
}

/// Resume a pending lookup from its JSON state with the lookup's answer (`{"hook": <hook or
/// null>}` or `{"failed": "<reason>"}`).
#[doc(hidden)] // host plumbing: the CLI's and the JS encoder's JSON forms
pub fn resume_json(state: &Value, answer: &Value) -> Option<Next<Hook>> {
    let text = |k: &str| state.get(k).and_then(Value::as_str).map(String::from);
    let options = Options {
        write_ceiling: u32::try_from(state.get("writeCeiling")?.as_u64()?).ok()?,
        tokens: InboxTokens {
            prefix: text("prefix")?,
            suffix: text("suffix")?,
        },
    };
    let pending = match state.get("inspected") {
        Some(Value::Null) | None => Pending::Destination,
        Some(h) => Pending::StableInbox(Hook::from_json(h).ok()??),
    };
    let lookup = Lookup {
        token: text("token")?,
        pending,
        options,
    };
    // "Not found" is said by `"hook": null` only: an answer naming neither is no answer, and a
    // lookup that answered nothing the JS side could carry must never count as "not found".
    let found = match (answer.get("failed"), answer.get("hook")) {
        (Some(why), _) => Err(why.as_str().unwrap_or("the lookup failed").to_string()),
        (None, Some(h)) => Hook::from_json(h),
        (None, None) => Err("the lookup answered neither a hook nor a failure".to_string()),
    };
    Some(lookup.answer(found))
}

/// One move of the negotiation state machine on JSON, for the JS encoder (which awaits its own
/// lookups and re-implements no rule): `{"start": {command, destination, writeAtMost?,
/// stableInboxToken?}}` or `{"resume": <state>, "answer": {"hook": …} | {"failed": "…"}}` →
/// `{"ok": {target, lookups, resume}}`, `{"error": …}`, or `{"lookup": token, "state": …}`.
#[doc(hidden)] // host plumbing: the JS encoder's JSON form
pub fn step_json(req: &Value) -> Value {
    let bad = |message: &str| Answer::transport(Transport::InvalidRequest, message).to_json();
    if let Some(begin) = req.get("start") {
        let options = match step_options(begin) {
            Ok(o) => o,
            Err(e) => return bad(&e),
        };
        let dest = match Destination::from_json(&begin["destination"]) {
            Ok(d) => d,
            Err(e) => return bad(&e),
        };
        return next_json(start(&begin["command"], &dest, &options));
    }
    match resume_json(&req["resume"], &req["answer"]) {
        Some(next) => next_json(next),
        None => bad("the negotiation state is not one this build wrote"),
    }
}

fn next_json(next: Next<Hook>) -> Value {
    match next {
        Next::Done(result) => answer_json(&result),
        Next::Lookup(pending) => json!({"lookup": pending.token(), "state": lookup_state(&pending)}),
    }
}

fn step_options(req: &Value) -> Result<Options, String> {
    let mut options = Options::default();
    if let Some(t) = req.get("stableInboxToken").filter(|t| !t.is_null()) {
        // The CLI's words for a template that is not a string (`answer_request`).
        let template = t.as_str().ok_or("stableInboxToken must be a string")?;
        options.tokens = InboxTokens::from_template(template)?;
    }
    if let Some(w) = req.get("writeAtMost").filter(|w| !w.is_null()) {
        options = options.with_write_ceiling(crate::family::write_ceiling(w, WIRE_VERSION)?)?;
    }
    Ok(options)
}

/// One `hookwire negotiate --lines` request, answered (contract §12): `{"command", "destination",
/// "hooks": [{"token", "runId", "metadata"?}, …], "stableInboxToken"?}`. The `hooks` list answers
/// the lookups: a token not in it is not found; a listed entry that is not a hook with a string
/// `token` and `runId` is a failed lookup. A malformed request is `INVALID_REQUEST` with the `path`
/// of what is wrong (`""` for a request that is not an object, `/command`, `/destination`,
/// `/stableInboxToken`, `/hooks`).
#[doc(hidden)] // host plumbing: the CLI's and the JS encoder's JSON forms
pub fn answer_request(request: &Value, options: &Options) -> Value {
    // A malformed request names the place that is wrong (a JSON pointer into the request).
    let malformed =
        |path: &str, message: &str| Answer::transport_at(Transport::InvalidRequest, message, path).to_json();
    if !request.is_object() {
        return malformed(
            "",
            "a request must be {\"command\": …, \"destination\": …, \"hooks\": [...]}",
        );
    }
    let Some(command) = request.get("command") else {
        return malformed("/command", "the request has no command");
    };
    let Some(destination) = request.get("destination") else {
        return malformed("/destination", "the request has no destination");
    };
    let dest = match Destination::from_json(destination) {
        Ok(d) => d,
        Err(e) => return malformed("/destination", &e),
    };
    let mut options = options.clone();
    if let Some(t) = request.get("stableInboxToken").filter(|t| !t.is_null()) {
        match t.as_str().map(InboxTokens::from_template) {
            Some(Ok(tokens)) => options.tokens = tokens,
            Some(Err(e)) => return malformed("/stableInboxToken", &e),
            None => return malformed("/stableInboxToken", "stableInboxToken must be a string"),
        }
    }
    let hooks = match request.get("hooks") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(hooks)) => hooks.as_slice(),
        Some(_) => return malformed("/hooks", "hooks must be an array of the hooks the lookups find"),
    };
    let mut next = start::<Hook>(command, &dest, &options);
    loop {
        match next {
            Next::Done(result) => return answer_json(&result),
            Next::Lookup(pending) => {
                let listed = hooks
                    .iter()
                    .find(|h| h.get("token").and_then(Value::as_str) == Some(pending.token()));
                let found = listed.map_or(Ok(None), Hook::from_json);
                next = pending.answer(found);
            }
        }
    }
}

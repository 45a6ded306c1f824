// Standard Schema v1 (https://standardschema.dev) over a family's decoder: what validation
// libraries' consumers take (the Workflow SDK's `defineHook({ schema })` among them). `validate`
// is synchronous: `{ value }`, the decoded value, or `{ issues: [{ message, path }] }`, the
// error's code and message, and its JSON pointer as a path of keys and array indexes.
import { WireError } from "./wire-error.js";

/**
 * `validate(value)` of the Standard Schema of `decode` (a HookwireStartError, not an issue,
 * still throws). Each family's `standardSchema` is an object literal calling it, so a bundle
 * whose code never reads `standardSchema` leaves both out.
 */
export function validate(decode, value) {
  try {
    return { value: decode(value) };
  } catch (e) {
    if (!(e instanceof WireError)) throw e;
    // A decode error's pointer is `/<key>` or `/<key>/<index>`, its key never escaped.
    const path = e.path?.slice(1).split("/").map((s, i) => (i ? +s : s));
    return { issues: [{ message: `${e.code}: ${e.message}`, path }] };
  }
}

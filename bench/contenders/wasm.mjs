// hookwire's pkg/ decoder, as a contender: the ES module entry a bundler resolves `hookwire` to
// (the `import` and `workflow` conditions of pkg/package.json).
export { decode } from "../../pkg/hookwire.mjs";

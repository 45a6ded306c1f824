// hookwire's pkg/ decoder, as a contender.
export { decode } from "../../pkg/hookwire.mjs";

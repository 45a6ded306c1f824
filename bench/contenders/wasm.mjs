// hookwire's pkg/ decoder, as a contender.
import { createRequire } from "node:module";
export const { decode } = createRequire(import.meta.url)("../../pkg");

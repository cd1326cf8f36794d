import { describe, expect, it } from "vitest";
import { stripControlCharacters, withoutControlCharacters } from "./control-characters";

describe("control characters", () => {
  it("removes C0 controls and DEL, keeping tab and line ends", () => {
    expect(stripControlCharacters("a\u0000b\u0001c\u001bd\u007fe\tf\ng\r\nh")).toBe("abcde\tf\ng\r\nh");
  });

  it("cleans every string of a JSON value, keys included, and leaves the rest alone", () => {
    const date = new Date(0);
    expect(withoutControlCharacters({ "k\u0000": ["x\u0000", 1, null, { y: "z\u0007" }], date, flag: true })).toEqual({
      k: ["x", 1, null, { y: "z" }],
      date,
      flag: true,
    });
  });
});

import { describe, expect, it } from "vitest";
import {
  decodeState,
  encodeState,
  errorsFor,
  firstStepWithErrors,
  initialState,
  inputOf,
  moveTo,
  narrowIntent,
  parseIntent,
  readValues,
  toFormData,
  withValues,
} from "../../app/utils/wizard-state";

const form = (entries: [string, string][]) => {
  const fd = new FormData();
  for (const [k, v] of entries) fd.append(k, v);
  return fd;
};

describe("wizard state in the form", () => {
  it("survives the round trip through the hidden input", () => {
    const state = { step: 2, values: { name: "Acme", assigned_timekeepers: ["a", "b"] } };
    expect(decodeState(encodeState(state), 5)).toEqual(state);
  });

  it("starts afresh from anything unreadable, and never beyond the last step", () => {
    expect(decodeState(null, 3)).toEqual(initialState());
    expect(decodeState("", 3)).toEqual(initialState());
    expect(decodeState("{not json", 3)).toEqual(initialState());
    expect(decodeState(JSON.stringify({ step: -1, values: {} }), 3)).toEqual(initialState());
    expect(decodeState(JSON.stringify({ step: 1, values: { n: 3 } }), 3)).toEqual(initialState());
    expect(decodeState(JSON.stringify({ step: 9, values: { a: "x" } }), 3)).toEqual({ step: 2, values: { a: "x" } });
    expect(decodeState(new File(["x"], "x.txt"), 3)).toEqual(initialState());
  });

  it("reads the step's inputs: empty ones dropped, repeated ones as a list, others ignored", () => {
    const fd = form([
      ["name", "Acme"],
      ["unique_key", ""],
      ["assigned_timekeepers", "t1"],
      ["assigned_timekeepers", "t2"],
      ["judge_id", "j1"],
      ["other", "not mine"],
    ]);
    expect(readValues(fd, ["name", "unique_key", "assigned_timekeepers", "judge_id"])).toEqual({
      name: "Acme",
      assigned_timekeepers: ["t1", "t2"],
      judge_id: "j1",
    });
  });

  it("replaces a step's values, so an input emptied on return is forgotten", () => {
    const state = { step: 1, values: { name: "Acme", reference_id: "R-1", status: "closed" } };
    const next = withValues(state, ["reference_id", "status"], { status: "active" });
    expect(next).toEqual({ step: 1, values: { name: "Acme", status: "active" } });
    expect(state.values.reference_id).toBe("R-1");
  });

  it("moves between steps within bounds", () => {
    const state = { step: 1, values: { a: "1" } };
    expect(moveTo(state, 0, 3).step).toBe(0);
    expect(moveTo(state, -1, 3).step).toBe(0);
    expect(moveTo(state, 5, 3).step).toBe(2);
  });

  it("rebuilds a submission from the values, lists as repeated entries", () => {
    const fd = toFormData({ name: "Acme", assigned_timekeepers: ["t1", "t2"] });
    expect(fd.get("name")).toBe("Acme");
    expect(fd.getAll("assigned_timekeepers")).toEqual(["t1", "t2"]);
  });

  it("reads the intent of the button that sent the form", () => {
    expect(parseIntent("back")).toEqual({ type: "back" });
    expect(parseIntent("create")).toEqual({ type: "create" });
    expect(parseIntent("next")).toEqual({ type: "next" });
    // Enter in a text box without the default button, or an unknown value: Next, which validates.
    expect(parseIntent(null)).toEqual({ type: "next" });
    expect(parseIntent("delete-everything")).toEqual({ type: "next" });
    expect(parseIntent(narrowIntent("client_id"))).toEqual({ type: "narrow", field: "client_id" });
  });

  it("sends API field errors to the first step that holds one of the fields", () => {
    const steps = [{ names: ["name", "case_number"] }, { names: ["matter_mode", "matter_id"] }, { names: ["assigned_timekeepers"] }];
    expect(firstStepWithErrors(steps, { "assigned_timekeepers.0": ["Pick an existing entry."] })).toBe(2);
    expect(firstStepWithErrors(steps, { matter_id: ["x"], name: ["y"] })).toBe(0);
    expect(firstStepWithErrors(steps, { unknown_field: ["z"] })).toBeNull();
    expect(firstStepWithErrors(steps, {})).toBeNull();
  });

  it("names the input of an error key and keeps only a step's errors", () => {
    expect(inputOf("emails[2]")).toBe("emails");
    expect(inputOf("assigned_timekeepers.1")).toBe("assigned_timekeepers");
    expect(inputOf("name")).toBe("name");
    expect(errorsFor(["assigned_timekeepers", "judge_id"], { "assigned_timekeepers.0": ["a"], "assigned_timekeepers.1": ["b"], name: ["c"] })).toEqual({
      assigned_timekeepers: ["a", "b"],
    });
  });
});

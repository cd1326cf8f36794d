import { INTENT_FIELD } from "../../utils/wizard-state";

/**
 * Enter in a text box submits a form with its first submit button. This invisible first button
 * makes that the form's main action (Next, Create, Save) instead of Back or a picker's search.
 */
export function DefaultSubmit({ value }: { value: string }) {
  return (
    <button
      type="submit"
      name={INTENT_FIELD}
      value={value}
      tabIndex={-1}
      aria-hidden="true"
      style={{ position: "absolute", width: 1, height: 1, overflow: "hidden", clip: "rect(0 0 0 0)", border: 0, padding: 0 }}
    />
  );
}

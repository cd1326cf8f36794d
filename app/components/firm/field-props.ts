import type { InputState } from "../fields/FieldInput";

/** What the firm form's own inputs receive: Conform's state, the label and the translated error. */
export interface FieldInputProps {
  input: InputState;
  label: string;
  error?: string;
}

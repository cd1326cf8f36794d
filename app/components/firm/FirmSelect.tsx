import { NativeSelect } from "../../utils/mantine";
import { asText } from "../fields/FieldInput";
import type { FieldInputProps } from "./field-props";

/** A select of the firm form; FieldInput's selects label options from the entity catalogue instead. */
export function FirmSelect({ input, label, error, options }: FieldInputProps & { options: { value: string; label: string }[] }) {
  return <NativeSelect key={input.key} id={input.id} name={input.name} label={label} error={error} defaultValue={asText(input.initialValue)} data={options} />;
}

import { Checkbox, Input, Stack, TextInput, Textarea } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import { type FieldDef, SECRET_KEPT, fieldLabelKey } from "../../common/resources/types";
import { translateErrors } from "../../utils/forms";
import { useRootData } from "../../utils/root-data";
import { LongSelect } from "./LongSelect";
import { ReferencePicker } from "./ReferencePicker";
import type { PickerData } from "./reference-sources";

/** What an input needs of Conform's field metadata. */
export interface InputState {
  id: string;
  name: string;
  key?: string;
  initialValue?: unknown;
  allErrors: Record<string, string[]>;
}

/**
 * The named inputs' state as plain values, read in the render of the component that called
 * useForm and handed to its inputs. Conform re-renders that component only for what was read
 * while it rendered with its newest state, and forgets those reads at each render. Its field
 * objects read later by the inputs themselves, in a render React slices (the router re-renders the
 * page in a transition, e.g. when route discovery lands just after hydration), could meet a state
 * that changed in between (a key typed): nothing was then remembered, and a failed Next or Save
 * blocked the post without ever showing its message.
 */
export function inputStates(fields: object, names: readonly string[]): Record<string, InputState> {
  const meta = fields as Record<string, InputState>;
  return Object.fromEntries(
    names.map((name) => {
      const { id, name: inputName, key, initialValue, allErrors } = meta[name]!;
      return [name, { id, name: inputName, key, initialValue, allErrors }];
    }),
  );
}

export const asText = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
export const asTexts = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : typeof value === "string" && value ? [value] : [];

/** The errors of an input and of its items ("emails[2]"), each message once. */
export function inputErrors(input: InputState): string[] {
  return [...new Set(Object.values(input.allErrors).flat())];
}

interface Props {
  resourceKey: string;
  field: FieldDef;
  input: InputState;
  picker?: PickerData;
  /** Overrides the catalogue label of the field (inputs that stand for another entity's field). */
  label?: string;
}

/** One input for a registry field, chosen by its kind. Required fields show an asterisk. */
export function FieldInput({ resourceKey, field, input, picker, label: labelOverride }: Props) {
  const { t } = useTranslation();
  const firmTimeZone = useRootData()?.branding?.time_zone;
  const label = labelOverride ?? t(fieldLabelKey(resourceKey, field.name));
  const error = translateErrors(t, inputErrors(input));
  const common = { id: input.id, name: input.name, label, error, withAsterisk: Boolean(field.required) };

  switch (field.kind) {
    case "textarea":
      return <Textarea key={input.key} {...common} defaultValue={asText(input.initialValue)} minRows={3} autosize />;
    case "emails":
      return (
        <Textarea
          key={input.key}
          {...common}
          defaultValue={asText(input.initialValue)}
          description={t(field.hintKey ?? "wizard:emailsHint")}
          minRows={2}
          autosize
        />
      );
    case "properties":
      return <Textarea key={input.key} {...common} defaultValue={asText(input.initialValue)} description={t("wizard:propertiesHint")} minRows={2} autosize />;
    case "boolean":
      return (
        <Checkbox
          key={input.key}
          id={input.id}
          name={input.name}
          value="on"
          label={label}
          error={error}
          defaultChecked={input.initialValue === "on" || input.initialValue === true}
        />
      );
    case "choices": {
      // Plain checkboxes of one name: the form posts every ticked one, with or without JavaScript.
      const chosen = asTexts(input.initialValue);
      return (
        <Input.Wrapper key={input.key} id={input.id} label={label} error={error} withAsterisk={Boolean(field.required)}>
          <Stack gap={6} mt={4}>
            {(field.options ?? []).map((value) => (
              <Checkbox
                key={value}
                name={input.name}
                value={value}
                label={t(`resources:${resourceKey}.options.${field.name}.${value}`, { defaultValue: value })}
                defaultChecked={chosen.includes(value)}
              />
            ))}
          </Stack>
        </Input.Wrapper>
      );
    }
    case "select": {
      const data = (field.options ?? []).map((value) => ({
        value,
        label: t(`resources:${resourceKey}.options.${field.name}.${value}`, { defaultValue: value }),
      }));
      // The firm's time zone leads the list and is the new record's choice.
      const lead = field.leadingOption === "firmTimeZone" ? firmTimeZone : undefined;
      const ordered = lead ? [...data.filter((o) => o.value === lead), ...data.filter((o) => o.value !== lead)] : data;
      return <LongSelect key={input.key} {...common} defaultValue={asText(input.initialValue) || lead} data={ordered} />;
    }
    case "reference":
    case "references":
      return (
        <ReferencePicker
          key={input.key}
          {...common}
          reference={field.reference!}
          multiple={field.kind === "references"}
          initial={asTexts(input.initialValue)}
          data={picker ?? { options: [], total: 0, query: "" }}
        />
      );
    default:
      if (field.secret) {
        // The API shows a secret only as set: left as it is, the stored one is kept.
        const kept = input.initialValue === SECRET_KEPT;
        return (
          <TextInput
            key={input.key}
            {...common}
            type="password"
            autoComplete="new-password"
            description={t(kept ? "wizard:secretKept" : "wizard:secretNew")}
            defaultValue={asText(input.initialValue)}
          />
        );
      }
      return (
        <TextInput
          key={input.key}
          {...common}
          type={field.kind === "email" ? "email" : field.kind === "number" ? "number" : field.kind === "date" ? "date" : "text"}
          defaultValue={asText(input.initialValue)}
          description={field.hintKey ? t(field.hintKey) : undefined}
        />
      );
  }
}

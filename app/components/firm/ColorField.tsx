import { ColorSwatch, Group, Text } from "../../utils/mantine";
import chroma from "chroma-js";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { normaliseColor } from "../../common/firm-schema";
import { CONTRAST_THRESHOLD } from "../../utils/theme";
import { FieldInput, asText } from "../fields/FieldInput";
import type { FirmField } from "./firm-fields";
import type { FieldInputProps } from "./field-props";

/** Contrast of a colour with white, or null for text that is no colour. */
export function contrastWithWhite(value: string | undefined): number | null {
  const color = normaliseColor(value);
  return color ? chroma.contrast(color, "#ffffff") : null;
}

/**
 * A firm colour: the text input, a swatch and a warning when text in it would not read on white
 * (spec §5: 4.5). The warning follows typing once the page is interactive, the stored value before.
 */
export function ColorField({ field, input, label }: FieldInputProps & { field: FirmField }) {
  const { t } = useTranslation("firm");
  const [value, setValue] = useState(asText(input.initialValue));
  const color = normaliseColor(value);
  const contrast = contrastWithWhite(value);
  return (
    <div onInput={(event) => setValue((event.target as HTMLInputElement).value)}>
      <FieldInput resourceKey="firm" field={field} input={input} label={label} />
      <Group gap="xs" mt={4} wrap="nowrap">
        {color ? <ColorSwatch color={color} size={16} /> : null}
        {contrast !== null && contrast < CONTRAST_THRESHOLD ? (
          <Text size="xs" c="orange" data-testid={`contrast-${field.name}`}>
            {t("contrastWarning", { ratio: contrast.toFixed(2), threshold: CONTRAST_THRESHOLD })}
          </Text>
        ) : null}
      </Group>
    </div>
  );
}

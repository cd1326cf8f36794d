import { type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from "react";
import { useFocusClass } from "../../utils/focus-class";

// The fields and buttons of the list page's forms drawn only until the page is interactive (the
// filter form, the column chooser): plain elements with the look of Mantine's underlined inputs
// and buttons from app.css (decision 065), as the rows are (decision 059). A Mantine input costs a
// dozen components of server render each; these forms are read once and then replaced.

type Size = "sm" | "xs";

/** How a plain button looks: Mantine's sizes and variants it copies (without a variant, filled). */
export interface PlainButtonLook {
  size?: Size;
  variant?: "subtle" | "default";
}

/** The attributes app.css draws a Mantine button from (`.plain-button`), for a button or a link. */
export function usePlainButtonLook({ size = "sm", variant }: PlainButtonLook) {
  return { className: `plain-button ${useFocusClass()}`, "data-size": size, "data-variant": variant };
}

/**
 * A labelled input or select; `children` gets the id its label points to and, with an error, the
 * id of the error's text for `aria-describedby`.
 */
export function PlainField({
  label,
  size = "sm",
  required,
  error,
  className,
  children,
}: {
  label: string;
  size?: Size;
  required?: boolean;
  error?: string;
  className?: string;
  children: (id: string, errorId?: string) => ReactNode;
}) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={className ? `plain-field ${className}` : "plain-field"} data-size={size}>
      <label htmlFor={id}>
        {label}
        {required ? (
          <span className="plain-required" aria-hidden>
            {" "}
            *
          </span>
        ) : null}
      </label>
      {children(id, errorId)}
      {error ? (
        <p className="plain-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function PlainInput({ invalid, ...props }: InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean }) {
  // Focus shows as the underline's colour (app.css), as on Mantine's underlined inputs.
  return <input className="plain-input" aria-invalid={invalid || undefined} {...props} />;
}

export function PlainSelect({ options, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { options: { value: string; label: string }[] }) {
  return (
    <select className="plain-input" {...props}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** A button as Mantine's filled (default), subtle or default variant draws it. */
export function PlainButton({ size, variant, ...props }: ButtonHTMLAttributes<HTMLButtonElement> & PlainButtonLook) {
  return <button {...usePlainButtonLook({ size, variant })} {...props} />;
}

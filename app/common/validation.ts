import { z } from "zod";

// Validators shared by console and API. Messages are catalogue keys ("errors:...") that the
// console translates and the API resolves before answering.

export const MIN_PASSWORD_LENGTH = 8;

export const requiredText = (max?: number) => {
  const base = z.string({ required_error: "errors:required" }).trim().min(1, "errors:required");
  return max ? base.max(max, `errors:fieldLength|${max}`) : base;
};

export const emailField = () =>
  requiredText(254)
    .email("errors:invalidEmail")
    .transform((v) => v.toLowerCase());

export const passwordField = () =>
  z.string({ required_error: "errors:required" }).min(1, "errors:required").min(MIN_PASSWORD_LENGTH, `errors:passwordTooShort|${MIN_PASSWORD_LENGTH}`);

const DOMAIN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/i;

/** A list of unique e-mail addresses ('Email added already' on a repeat). */
export const emailList = () =>
  z.array(z.string().trim().toLowerCase().email("errors:invalidEmail")).superRefine((list, ctx) => {
    list.forEach((v, i) => {
      if (list.indexOf(v) !== i) ctx.addIssue({ code: "custom", path: [i], message: "errors:emailAddedAlready" });
    });
  });

export const domainList = () =>
  z.array(z.string().trim().toLowerCase().regex(DOMAIN, "errors:invalidDomain")).superRefine((list, ctx) => {
    list.forEach((v, i) => {
      if (list.indexOf(v) !== i) ctx.addIssue({ code: "custom", path: [i], message: "errors:itemInList" });
    });
  });

const EMAIL = z.string().email();

/** A list of unique e-mail addresses or domains ("clerk@court.example.gov", "efile.example.com"). */
export const addressOrDomainList = () =>
  z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .refine((v) => DOMAIN.test(v) || EMAIL.safeParse(v).success, "errors:invalidAddressOrDomain"),
    )
    .superRefine((list, ctx) => {
      list.forEach((v, i) => {
        // A repeated address reads as in every e-mail list (spec §5), a repeated domain as any list item.
        const repeat = EMAIL.safeParse(v).success ? "errors:emailAddedAlready" : "errors:itemInList";
        if (list.indexOf(v) !== i) ctx.addIssue({ code: "custom", path: [i], message: repeat });
      });
    });

/** "errors:fieldLength|60" → the key and its value, for translation. */
export function splitMessageKey(key: string): { key: string; values: Record<string, string> } {
  const [k, arg] = key.split("|");
  if (!arg) return { key: k!, values: {} };
  const name = k === "errors:fieldLength" ? "chars" : "min";
  return { key: k!, values: { [name]: name === "chars" ? `${arg} characters` : arg } };
}

import { z } from "zod";
import { emailField, passwordField, requiredText } from "../common/validation";

// Forms of the authentication layout and the profile (spec §5), shared by browser and server.
export const loginSchema = z.object({
  email: emailField(),
  password: requiredText(),
  from: z.string().optional(),
});

export const forgotSchema = z.object({ email: emailField() });

const withConfirmation = <T extends z.ZodRawShape>(shape: T) =>
  z
    .object({ ...shape, newPassword: passwordField(), confirmPassword: requiredText() })
    .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "errors:passwordMismatch" });

export const resetSchema = withConfirmation({ token: requiredText() });
export const changePasswordSchema = withConfirmation({ currentPassword: requiredText() });

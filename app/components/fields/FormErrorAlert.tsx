import { Alert } from "../../utils/mantine";

/** A form's own error (not a field's), above its inputs; nothing when there is none. */
export function FormErrorAlert({ error }: { error?: string | null }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert" data-testid="form-error">
      {error}
    </Alert>
  );
}

// The Mantine parts the document and the signed-out pages draw with, each imported from its own
// file. esbuild gives a file to every page that can reach it through any import, used or not, so
// one import of @mantine/core's index from the root would send every Mantine component any page
// uses to the sign-in page too (decision 080). Signed-in pages import ./mantine, which adds theirs.
export { Alert } from "@mantine/core/esm/components/Alert/Alert";
export { Anchor } from "@mantine/core/esm/components/Anchor/Anchor";
export { Button } from "@mantine/core/esm/components/Button/Button";
export { Center } from "@mantine/core/esm/components/Center/Center";
export { Divider } from "@mantine/core/esm/components/Divider/Divider";
export { Notification } from "@mantine/core/esm/components/Notification/Notification";
export { Paper } from "@mantine/core/esm/components/Paper/Paper";
export { PasswordInput } from "@mantine/core/esm/components/PasswordInput/PasswordInput";
export { Progress } from "@mantine/core/esm/components/Progress/Progress";
export { Stack } from "@mantine/core/esm/components/Stack/Stack";
export { Text } from "@mantine/core/esm/components/Text/Text";
export { TextInput } from "@mantine/core/esm/components/TextInput/TextInput";
export { Title } from "@mantine/core/esm/components/Title/Title";
export { ColorSchemeScript } from "@mantine/core/esm/core/MantineProvider/ColorSchemeScript/ColorSchemeScript";
export { MantineProvider } from "@mantine/core/esm/core/MantineProvider/MantineProvider";
export { createTheme } from "@mantine/core/esm/core/MantineProvider/create-theme/create-theme";
export { defaultVariantColorsResolver } from "@mantine/core/esm/core/MantineProvider/color-functions/default-variant-colors-resolver/default-variant-colors-resolver";
export { parseThemeColor } from "@mantine/core/esm/core/MantineProvider/color-functions/parse-theme-color/parse-theme-color";
export { mantineHtmlProps } from "@mantine/core/esm/core/MantineProvider/mantine-html-props";

// The Mantine parts the signed-in pages draw with, each imported from its own file (decision 080):
// a page's scripts then hold the parts some signed-in page uses, not those only mantine-react-table
// or @mantine/dates use (they load with the interactive table). A part not listed here is added
// here; eslint refuses values imported from @mantine/core's index in app/.
export * from "./mantine-document";
export { ActionIcon } from "@mantine/core/esm/components/ActionIcon/ActionIcon";
export { AppShell } from "@mantine/core/esm/components/AppShell/AppShell";
export { Badge } from "@mantine/core/esm/components/Badge/Badge";
export { Box } from "@mantine/core/esm/core/Box/Box";
export { Burger } from "@mantine/core/esm/components/Burger/Burger";
export { Card } from "@mantine/core/esm/components/Card/Card";
export { Checkbox } from "@mantine/core/esm/components/Checkbox/Checkbox";
export { Code } from "@mantine/core/esm/components/Code/Code";
export { ColorSwatch } from "@mantine/core/esm/components/ColorSwatch/ColorSwatch";
export { Fieldset } from "@mantine/core/esm/components/Fieldset/Fieldset";
export { Grid } from "@mantine/core/esm/components/Grid/Grid";
export { getSpacing } from "@mantine/core/esm/core/utils/get-size/get-size";
export { Group } from "@mantine/core/esm/components/Group/Group";
export { Image } from "@mantine/core/esm/components/Image/Image";
export { Input } from "@mantine/core/esm/components/Input/Input";
export { List } from "@mantine/core/esm/components/List/List";
export { Loader } from "@mantine/core/esm/components/Loader/Loader";
export { Modal } from "@mantine/core/esm/components/Modal/Modal";
export { MultiSelect } from "@mantine/core/esm/components/MultiSelect/MultiSelect";
export { NativeSelect } from "@mantine/core/esm/components/NativeSelect/NativeSelect";
export { Radio } from "@mantine/core/esm/components/Radio/Radio";
export { Select } from "@mantine/core/esm/components/Select/Select";
export { SimpleGrid } from "@mantine/core/esm/components/SimpleGrid/SimpleGrid";
export { Stepper } from "@mantine/core/esm/components/Stepper/Stepper";
export { Switch } from "@mantine/core/esm/components/Switch/Switch";
export { Table } from "@mantine/core/esm/components/Table/Table";
export { Tabs } from "@mantine/core/esm/components/Tabs/Tabs";
export { Textarea } from "@mantine/core/esm/components/Textarea/Textarea";
export { ThemeIcon } from "@mantine/core/esm/components/ThemeIcon/ThemeIcon";
export { Tooltip } from "@mantine/core/esm/components/Tooltip/Tooltip";
export { useComputedColorScheme } from "@mantine/core/esm/core/MantineProvider/use-mantine-color-scheme/use-computed-color-scheme";
export { useMantineTheme } from "@mantine/core/esm/core/MantineProvider/MantineThemeProvider/MantineThemeProvider";

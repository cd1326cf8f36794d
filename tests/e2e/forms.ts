import { type Page, expect } from "@playwright/test";

// Filling the console's forms and wizards the way a person does, with JavaScript or without.

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** An input by its label; required fields add an asterisk to the label. */
export const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${escapeRegExp(label)}(\\s*\\*)?$`));

export async function press(page: Page, name: string) {
  await page.getByRole("button", { name, exact: true }).click();
}

/**
 * Chooses an entry in a reference picker: typed into the search box with JavaScript; without,
 * picked from the list, narrowed first by a search post where the list offers one.
 */
export async function pick(page: Page, js: boolean, label: string, text: string) {
  if (js) {
    // The search box appears once the page is interactive (before, the list is on screen).
    const control = page.getByRole("textbox", { name: label, exact: true });
    await expect(control).toHaveAttribute("data-picker", "search");
    await control.click();
    await control.fill(text);
    await page
      .getByRole("listbox")
      .getByRole("option", { name: new RegExp(escapeRegExp(text)) })
      .first()
      .click();
    // A multiple picker stays open for more; close it so it covers nothing.
    await page.keyboard.press("Escape");
  } else {
    // Long lists have a search box to narrow them first; short ones are listed whole.
    const search = field(page, `Search ${label}`);
    if ((await search.count()) > 0) {
      await search.fill(text);
      // The picker's own Search button (a step may hold several pickers).
      await search.locator("xpath=following::button[1]").click();
    }
    const control = field(page, label);
    const value = await control.locator("option", { hasText: text }).first().getAttribute("value");
    expect(value, `${text} is listed in ${label}`).toBeTruthy();
    await control.selectOption(value!);
  }
}

/** A long select's control: its search box with JavaScript (its list is labelled by it too), the plain select without. */
export const longSelect = (page: Page, js: boolean, label: string) => (js ? page.getByRole("textbox", { name: label, exact: true }) : field(page, label));

/**
 * Chooses a value of a long select (LongSelect): typed into its search box with JavaScript and
 * picked from what is left, chosen from the plain list without.
 */
export async function choose(page: Page, js: boolean, label: string, value: string) {
  const control = longSelect(page, js, label);
  if (!js) {
    await control.selectOption(value);
    return;
  }
  await expect(control).toHaveAttribute("data-searchable-select", "true");
  await control.click();
  await control.fill(value.split("/").pop()!.replace(/_/g, " "));
  await page.getByRole("option", { name: value, exact: true }).click();
  await expect(control).toHaveValue(value);
}

/** Opens a page; with JavaScript, waits until its form is interactive (clicks during hydration are lost). */
export async function open(page: Page, js: boolean, path: string) {
  await page.goto(path);
  if (js) await expect(page.locator("main form[data-hydrated]").first()).toBeAttached();
}
